"""The names of the new-event form's fields by the options they stand for. (A refusal that
advises a command or names an option says the pages' own words where it is made:
:class:`tally.errors.Advice`.)"""

from __future__ import annotations

#: the form's name of each option the store's refusals name
FIELDS = {
    "rounds": "Rounds",
    "groups": "Groups",
    "advance": "Going through",
    "lives": "Lives",
    "seed": "Seed of the draw",
    "final": "Final stage",
    "double": "Twice (double round robin)",
    "bye": "A bye",
    "kind": "Kind",
    "matches": "Matches per pairing",
    "points-per-win": "Match points per win",
    "winner": "Winner",
    "dealer": "First dealer",
}
