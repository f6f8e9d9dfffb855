"""What a withdrawal does to the games of an event: **a game played stands**.

A player who withdraws changes only the games not yet played, in every format, as FIDE's
Tournament Rules (C.06, V.4 and V.5) and club practice have it:

- a match that was won stays won, whoever withdraws later;
- under the ``forfeit`` rule a match not over when one of its players withdraws is a forfeit,
  won by the opponent *then*; it is credited at that moment and stands: when the winner
  withdraws later too, the forfeit win stays theirs (the points, ranks and tiebreaks of
  everyone else do not move);
- a scheduled match whose round was not started yet (a round robin's later rounds, a groups
  event's) is credited only once its round is started, round by round as the rounds are
  played, so a round robin's table after round 1 shows a withdrawn player's opponents
  with one forfeit win each, not all of them at once; if the opponent has withdrawn too by
  then, nobody wins it (both withdrawn: it is not played and counts for neither);
- under the ``void`` rule such matches count for nobody;
- in a round robin under the ``forfeit`` rule, a player who withdrew having finished fewer
  than half of their scheduled matches has every result struck out (:func:`annulled`): their
  matches count for nobody, the ones played included, and their opponents are neither
  credited nor debited. This is tally's ruling following the FIDE Handbook's rule for
  withdrawals from round-robin tournaments (RULES.md is silent).

The times compared are any values that order (the store's time stamps): when each player
withdrew, and when a match's round was started.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any, TypeVar

P = TypeVar("P", bound=Hashable)

__all__ = ["annulled", "forfeit_winner"]


def forfeit_winner(a: P, b: P, left: Mapping[P, Any], since: Any = None) -> P | None:
    """Who wins by forfeit a match between ``a`` and ``b`` that nobody has won, under the
    ``forfeit`` rule: ``left`` says when each withdrawn player withdrew; ``since`` when the
    match's round was started, for a scheduled match made after a withdrawal or never
    made (None: the match was there before anyone withdrew). The first to withdraw loses;
    the other wins when still in at the moment the forfeit arose (that withdrawal, or the
    round's start if later). None: neither withdrew (still to be played), or both had
    withdrawn by then.

    >>> forfeit_winner("Anna", "Bert", {"Bert": 1})
    'Anna'
    >>> forfeit_winner("Anna", "Bert", {"Bert": 1, "Anna": 5})  # Anna withdrew later: it stays
    'Anna'
    >>> forfeit_winner("Anna", "Bert", {"Bert": 1, "Anna": 5}, since=7)  # round 7: both gone
    >>> forfeit_winner("Anna", "Bert", {})
    """
    if a not in left and b not in left:
        return None
    if b not in left or (a in left and left[a] < left[b]):
        first, other = a, b
    elif a not in left or left[b] < left[a]:
        first, other = b, a
    else:
        return None  # withdrew at the same moment: neither was there to win it
    arose = left[first] if since is None or since < left[first] else since
    if other in left and not left[other] > arose:
        return None
    return other


def annulled(
    withdrawn: Iterable[P], finished: Mapping[P, int], scheduled: Mapping[P, int]
) -> frozenset[P]:
    """The withdrawn players of a round robin whose results are struck out: those who had
    finished fewer than half of the matches the schedule gives them (``finished`` and
    ``scheduled`` count them per player). Exactly half or more: their results stand and
    their remaining matches are forfeits (:func:`forfeit_winner`).

    >>> sorted(annulled(["Emil", "Dora"], {"Emil": 1, "Dora": 2}, {"Emil": 4, "Dora": 4}))
    ['Emil']
    >>> annulled(["Emil"], {}, {"Emil": 6})
    frozenset({'Emil'})
    """
    return frozenset(p for p in withdrawn if 2 * finished.get(p, 0) < scheduled.get(p, 0))
