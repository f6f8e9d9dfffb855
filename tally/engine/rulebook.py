"""The words of the rules, to quote on a ruling: each violation and each outcome reason.

The texts are those of the rules reference (RULES.md), so that a referee's sheet quotes the
rule that decided the deal rather than paraphrasing it. The texts are marked for the catalogue
(:func:`tally.i18n.N_`): a German sheet quotes them in German (``say``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tally.engine.kernel import Reason, Rule
from tally.engine.rules import RuleSet
from tally.i18n import N_

# Keyed by the StrEnums of :mod:`tally.engine.kernel`; a plain string finds its text too.
VIOLATION_TEXT: Final[dict[str, str]] = {
    "follow-suit": N_(
        "In phase 2 the follower must follow suit if able (section 4); broken when the follower "
        "did not follow suit and the record proves a card of the suit led in hand."
    ),
    "must-head": N_(
        "In phase 2 the follower must follow suit and then play a card that beats the led card "
        "if able (section 4); broken when the follower followed suit low and the record proves "
        "a higher card of that suit in hand."
    ),
    "must-trump": N_(
        "In phase 2, unable to follow suit, the follower must play a trump if able; any trump "
        "will do (section 4); broken when the follower neither followed suit nor trumped and "
        "the record proves a trump in hand."
    ),
    "marriage-not-allowed": N_(
        "A marriage is declared only when the rules allow it (section 6): not in phase 2 in "
        "Sixty-Six and pagat-66."
    ),
    "false-marriage": N_(
        "King and queen of one suit in one hand: 20 points, 40 in trumps (section 6); broken "
        "when the declarer did not hold both cards (the record shows the other card played "
        "before, lying as the turn-up, or in the opponent's hand)."
    ),
    "exchange-not-allowed": N_(
        "The turn-up may be exchanged only while it lies on the table, by the player allowed "
        "to and when (section 5): not with the stock closed or exhausted, not before winning a "
        "trick where the rules ask for one, and only just before leading where the rules say "
        "so."
    ),
    "false-exchange": N_(
        "A player holding the exchange card of trumps may swap it for the turn-up (section 5); "
        "broken when the exchanger did not hold the exchange card."
    ),
    "close-not-allowed": N_(
        "The player on lead may close the stock while it is not exhausted (section 7): not "
        "once it is exhausted or closed, and not before the draws where the rules forbid it."
    ),
}

REASON_TEXT: Final[dict[str, str]] = {
    "claim": N_(
        "A correct claim scores 1 game point; 2 if the opponent's counted points are under 33 "
        "(schneider); 3 if the opponent has won no trick (schwarz) (section 9)."
    ),
    "false-claim": N_(
        "A claim is correct when the claimer's counted points at that moment are 66 or more. "
        "A false claim: the opponent scores the false-claim points (section 8)."
    ),
    "failed-close": N_(
        "The closer must reach 66 and claim it. A failed close: the opponent scores 2, or 3 if "
        "they had won no trick when the stock was closed (section 7)."
    ),
    "illegal-play": N_(
        "The earliest decisive event in play order rules the deal: a claim, the end of the last "
        "trick, or a violation. The offender's opponent scores the illegal-play points, plus "
        "the carry (section 10)."
    ),
    "last-trick": N_(
        "A deal played out with no correct claim, not closed: the winner of the last trick "
        "wins 1 game point (section 8, unclaimed_end=last-trick)."
    ),
    "higher-total": N_(
        "A deal played out with no correct claim, not closed: the higher counted total wins, "
        "scored as a claim; equal totals draw (section 8, unclaimed_end=higher-total)."
    ),
    "draw": N_(
        "A drawn deal scores nothing; with carry=accumulate it adds one game point to the next "
        "decided deal (sections 8 and 9)."
    ),
    "incomplete": N_("The record stops before the deal ended: no ruling yet."),
}


# Every violation and every reason has its words here, and nothing else does.
assert set(VIOLATION_TEXT) == set(Rule) and set(REASON_TEXT) == set(Reason)


def _same(text: str) -> str:
    return text


def reason_text(reason: str, rules: RuleSet, say: Callable[[str], str] = _same) -> str:
    """The rule behind an outcome reason, with the rule set's own figures filled in;
    ``say`` translates (a catalogue's ``gettext``; English as written by default)."""
    text = say(REASON_TEXT[reason])
    if reason == "false-claim":
        points = (
            say(N_("3 if the opponent had won no trick at the claim, else 2"))
            if rules.false_claim_points == "2or3"
            else "2"
        )
        text += say(N_(" Under %(rules)s: %(points)s.")) % {"rules": rules.spec, "points": points}
    elif reason == "illegal-play":
        text += say(N_(" Under %(rules)s: %(points)s.")) % {
            "rules": rules.spec,
            "points": rules.illegal_play_points,
        }
    return text
