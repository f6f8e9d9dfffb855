"""Replaying an imported event's rounds through the store: the one path of every importer (an
event folder, :mod:`tally.files.loading`; an event file exported as JSON,
:mod:`tally.files.importing`; a TRF, :mod:`tally.files.trf_import`).

Each round is made as the director made it: started as the event's format starts it (``tally
event round --start --force``: by the schedule, paired from the standings then, drawn), or
with the file's pairings as given (a round kept as it was made, :mod:`tally.store.given`: a
TRF's rounds, a round of an export whose results were corrected after it was made). The
matches made are checked against the file's matches of that round (:func:`match_round`:
table, players, first dealer), then each match's deals are entered (:func:`play`), so that
the next round is made from the same results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from tally.errors import Message, Refused
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.given import GivenTable
    from tally.store.views import RoundView


#: who makes a round (:attr:`tally.events.formats.base.EventFormat.round_maker`), for the
#: catalogue: the messages below word it in the reader's language
MAKERS: Final = (N_("the schedule"), N_("the Swiss pairing"), N_("the draw"))
#: a knockout's draw, and how it was drawn (``drawn by lot, seed 2026``)
DRAWN: Final = N_("the draw (%(draw)s)")


@dataclass(frozen=True)
class Listed:
    """A match of a round as the file lists it: its table, its two players and who deals
    first (names as the store keeps them)."""

    table: int
    players: tuple[str, str]
    first_dealer: str


@dataclass(frozen=True)
class Made:
    """A match the store made in a round: table, players, first dealer, number."""

    table: int
    first: str
    second: str
    first_dealer: str
    match_id: int


class Mismatch(Refused):
    """The round made is not the file's: ``index`` is the listed match at fault (counted
    from 0), None for the round as a whole."""

    def __init__(self, text: Message, index: int | None = None) -> None:
        super().__init__(text)
        self.index = index


def start_round(
    store: Store,
    event: int,
    number: int,
    given: Sequence[GivenTable] | None = None,
    bye: str | None = None,
    *,
    bracket: Sequence[str | None] | None = None,
    playoff: bool = False,
) -> RoundView:
    """Start round ``number`` of ``event``: as its format makes it (the director confirmed:
    ``force``), or with the pairings ``given`` and ``bye`` as given (and the ``bracket`` or
    ``playoff`` it seeded: :meth:`tally.store.given.GivenRounds.start`)."""
    if given is None:
        return store.events.start_round(event, number, force=True)
    store.given.start(event, number, given, bye, bracket=bracket, playoff=playoff)
    return store.events.rounds(event, number)[0]


def made_matches(rnd: RoundView) -> list[Made]:
    """The matches of a round started, by table (a table playing several: in order)."""
    return [
        Made(p.table, p.first, p.second, m.first_dealer, m.match_id)
        for p in rnd.pairings
        for m in p.matches
    ]


def match_round(
    number: int,
    maker: Message,
    made: Sequence[Made],
    listed: Sequence[Listed],
    *,
    ordered: bool = True,
    complete: bool = True,
) -> list[int]:
    """The match made for each of the file's matches ``listed`` of round ``number``, in
    order; :class:`Mismatch` when the round ``maker`` made (``Message("the Swiss pairing")``) is not
    the file's: a table made otherwise (the players in the order made, unless not
    ``ordered``), or (when ``complete``) more or fewer matches."""
    out: list[int] = []
    for k, m in enumerate(listed):
        same = [x for x in made if x.table == m.table]
        nth = sum(1 for other in listed[:k] if other.table == m.table)
        if nth >= len(same):
            raise Mismatch(
                Message(
                    N_("round %(round)s: %(maker)s makes %(count)s match(es) at table "
                       "%(table)s, so not table %(table)s for this one"),
                    round=number, table=m.table, maker=maker, count=len(same),
                ),
                k,
            )  # fmt: skip
        x = same[nth]
        if not _same_table(m, x, ordered):
            raise Mismatch(mismatch(number, x, maker), k)
        out.append(x.match_id)
    if complete and len(listed) != len(made):
        raise Mismatch(
            Message(
                N_("round %(round)s: %(maker)s makes %(made)s match(es), the file lists "
                   "%(listed)s"),
                round=number, maker=maker, made=len(made), listed=len(listed),
            )
        )  # fmt: skip
    return out


def mismatch(number: int, x: Made, maker: Message) -> Message:
    """What a file's table of round ``number`` must be: match ``x`` as ``maker`` made it."""
    return Message(
        N_("round %(round)s table %(table)s is %(first)s against %(second)s, %(dealer)s "
           "dealing first, by %(maker)s"),
        round=number, table=x.table, first=x.first, second=x.second,
        dealer=x.first_dealer, maker=maker,
    )  # fmt: skip


def _same_table(m: Listed, x: Made, ordered: bool) -> bool:
    """Whether the file's match ``m`` is the match made ``x``: the same players (in the
    same order, if ``ordered``) and first dealer."""
    pair = (x.first, x.second)
    players = m.players if ordered else tuple(sorted(m.players))
    return (
        players == (pair if ordered else tuple(sorted(pair))) and m.first_dealer == x.first_dealer
    )


def play(
    store: Store,
    match_id: int,
    records: Sequence[tuple[str, str]],
    results: Sequence[tuple[str | None, int, str]],
) -> tuple[int, int]:
    """Enter a match's deals: its ``records`` (``(file, text)``, each ruled as ``tally deal
    import`` rules it), then its ``results`` (as ``tally deal quick`` and ``tally match
    result`` take them). How many of each were stored."""
    recorded = len(store.deals.import_records(match_id, list(records))) if records else 0
    store.deals.enter_results(match_id, list(results))
    return recorded, len(results)
