"""The web's words for the store's refusals that speak to the command line: a refusal that
advises ``tally audit undo 12`` or names ``--rounds N`` says, on a page, where in the
director's pages to do it or which field of the form is meant (:func:`web_words`, which
:func:`tally.web.app.refusal` applies to every refusal shown on a page)."""

from __future__ import annotations

import re

#: the form's name of each option the store's refusals name
FIELDS = {
    "rounds": "Rounds", "groups": "Groups", "advance": "Going through", "lives": "Lives",
    "seed": "Seed of the draw", "final": "Final stage", "double": "Twice (double round robin)",
    "bye": "A bye", "kind": "Kind", "matches": "Matches per pairing",
    "points-per-win": "Match points per win", "winner": "Winner", "dealer": "First dealer",
}
#: what to do on the pages instead of each command (the command's first words)
COMMANDS = (
    ("tally audit undo", "reverse it on the Changes page"),
    ("tally deal edit", "correct the deal on its match's page"),
    ("tally deal delete", "delete the last deal on its match's page"),
    ("tally event withdraw", "withdraw the player on the event's page"),
    ("tally event round", "start the round on the event's page"),
    ("tally match start", "start a match on the event's page"),
    ("tally player merge", "ask the club's scorer to merge the two players"),
    ("tally player add", "add the player as a new name on the event's page"),
)
_PARENTHESIS = re.compile(r"\s*\([^()]*`tally [^`]*`[^()]*\)")
_COMMAND = re.compile(r"`(tally [^`]*)`")
_OPTION = re.compile(r"\(?--([a-z][a-z-]*)(?: [A-Z]\b| (none|win|groups|knockout))?\)?")


def _command(found: re.Match[str]) -> str:
    text = found[1]
    return next((say for command, say in COMMANDS if text.startswith(command)),
                "ask the club's scorer")


def _option(found: re.Match[str]) -> str:
    name = FIELDS.get(found[1], found[1])
    return f'"{name}"' + (f" {found[2]}" if found[2] else "")


def web_words(text: str) -> str:
    """A refusal as a page says it: command-line advice in parentheses left out, any other
    command replaced by where to do it in the director's pages, an option named by its field.

    >>> web_words('audit entry 3 was reversed (`tally audit undo 4` takes it back)')
    'audit entry 3 was reversed'
    >>> web_words("only the last deal can be deleted (correct this one with `tally deal "
    ...           "edit 7`)")
    'only the last deal can be deleted'
    >>> web_words('groups then knockout needs --groups G and --advance K')
    'groups then knockout needs "Groups" and "Going through"'
    >>> web_words("a player who stops is withdrawn (`tally event withdraw`); x")
    'a player who stops is withdrawn; x'
    >>> web_words("it is a club evening: use `tally match start ... --event`")
    "it is a club evening: use start a match on the event's page"
    """
    text = _PARENTHESIS.sub("", text)
    text = _COMMAND.sub(_command, text)
    return _OPTION.sub(_option, text)
