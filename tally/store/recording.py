"""What the store tells a scorer whose entry it did not store: the deal moved on since they
saw it (another scorer), or the entry would prove a violation nobody confirmed.

Plain text from plain views; the store decides when (:meth:`tally.store.Store.play`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tally.i18n import N_
from tally.store.dealviews import DealView, Position, ViolationView
from tally.vocabulary import ruling_words

# The store's words around an engine's message that refused what a scorer typed at the table,
# marked for the catalogue: each error holds them with the message inside as a value
# (tally.errors.Message), the command line and the web word both (tally.i18n.worded).
#: an entry that would make the deal's record impossible (:func:`tally.store.plays.play`)
REFUSED_ENTRY: Final = N_('"%(entry)s" refused, nothing was recorded: %(message)s')
#: a turn-up that is not a card, or not one this deal can have (``tally deal start``)
TURN_UP: Final = N_("turn-up: %(message)s")
#: a record edited in ``tally deal edit`` that cannot be read (the deal's id before the
#: notation's message) or that has errors or does not fit the match
IN_DEAL: Final = N_("deal %(deal)s: %(message)s")
EDITED_RECORD: Final = N_("the edited record: %(message)s")


def now_line(deal: DealView | None, match_id: int) -> str:
    """Where a match stands, in the words of the recorder's prompt, with its position."""
    if deal is None:
        return f"no deal of match {match_id} is started (position {match_id}.0:0)"
    where = f"position {deal.position}"
    if deal.to_move is not None:
        return f"Trick {deal.trick}: {deal.to_move} to {deal.to_move_as} ({where})"
    if deal.claimable:
        return f"every trick of deal {deal.match_id}.{deal.number} is played ({where})"
    return f"deal {deal.match_id}.{deal.number} is over ({where})"


def grouped(actions: Sequence[tuple[int, int, str]]) -> str:
    """Actions ``(seq, trick, token)`` as a scorer reads them: ``KS AS in trick 4 and 10C in
    trick 5``."""
    parts: list[tuple[int, list[str]]] = []
    for _seq, trick, token in actions:
        if parts and parts[-1][0] == trick:
            parts[-1][1].append(token)
        else:
            parts.append((trick, [token]))
    return " and ".join(f"{' '.join(tokens)} in trick {trick}" for trick, tokens in parts)


def moved_message(expected: Position, deals: Sequence[tuple[int, Sequence[tuple[int, int, str]],
                                                             str | None]],
                  now: DealView | None) -> str:
    """Why a write made at ``expected`` is refused: what the other scorer did since.

    ``deals`` are the match's deals as stored now: ``(number, actions, turn-up)``.
    """
    m = expected.match_id
    by_number = {n: (actions, turn_up) for n, actions, turn_up in deals}
    last = deals[-1][0] if deals else 0
    done: list[str] = []
    seen = by_number.get(expected.number)
    if expected.number and seen is None:
        done.append(f"deleted deal {m}.{expected.number}")
    elif seen is not None:
        actions = seen[0]
        if len(actions) > expected.actions:
            done.append(f"recorded {grouped(actions[expected.actions:])}"
                        + (f" in deal {m}.{expected.number}" if last != expected.number else ""))
        elif len(actions) < expected.actions:
            done.append(f"undid {expected.actions - len(actions)} action(s)"
                        + (f" in deal {m}.{expected.number}" if last != expected.number else ""))
        elif (actions and expected.last is not None and actions[-1][2] != expected.last
              and last == expected.number):
            done.append(f"undid {expected.last} and recorded {grouped(actions[-1:])} instead")
    for n in range(expected.number + 1, last + 1):
        actions, turn_up = by_number[n]
        text = f"started deal {m}.{n}" + (f" (turn-up {turn_up})" if turn_up else "")
        if actions:
            text += f" and recorded {grouped(actions)}"
        done.append(text)
    subject = f"deal {m}.{expected.number}" if expected.number else f"match {m}"
    verb = "has moved back" if seen is not None and len(seen[0]) < expected.actions \
        and last == expected.number else "has changed" if seen is not None \
        and len(seen[0]) == expected.actions and last == expected.number else "has moved on"
    return (f"{subject} {verb}: someone else {', then '.join(done) or 'changed it'}; now "
            f"{now_line(now, m)}. Nothing was recorded")


def violation_message(text: str, violations: Sequence[ViolationView], deal: DealView,
                      decided: bool) -> str:
    """What storing ``text`` would mean, in a referee's words: the rule broken and what
    follows (``Bert broke follow-suit in trick 2: Bert played 9D to 10C while holding JC;
    the deal ends: Anna wins 3 game points (illegal play)``)."""
    broken = "; ".join(f"{v.player} broke {v.rule} in trick {v.trick}: {v.message}"
                       for v in violations)
    outcome = ruling_words(deal.winner, deal.game_points, deal.reason, "en")
    consequence = (f"the deal ends: {outcome}" if decided
                   else f"an earlier violation decided the deal already: {outcome}")
    return f'"{text}" would record a violation: {broken}; {consequence}. Nothing was recorded'
