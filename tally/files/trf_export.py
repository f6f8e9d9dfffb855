"""Exporting an event as FIDE's TRF-16 (:mod:`tally.files.trf`):
``tally event export EVENT --format trf``, for chess pairing programs (bbpPairings, JaVaFo,
py4swiss) to check tally's pairings, and for ``tally event import --format trf``
(:mod:`tally.files.trf_import`) to read back unchanged.

- **Players** are numbered in entry order; the rank is the standings'.
- **Points** are tally's match points of the rounds written, each result worth what the event
  gives it (a round robin's game with a player struck out, withdrawn before half of their
  games, worth nothing to either, as in tally's standings, though a game played keeps its
  result; the struck-out player ranked after everyone); the file's point system says so to
  the programs: the ``BBW``/``BBU``/... lines bbpPairings reads and the ``XXS`` line of
  JaVaFo and py4swiss (a won match, a forfeit and a full-point bye ``match_points_per_win``;
  the pairing's bye that or 0 as the event's ``bye`` rule says; a half-point bye half a
  win; a lost match, a forfeit loss, a zero-point bye 0).
- **Colours**: card games have none: the player who deals the first deal is written as white,
  the other (forehand) as black.
- **Results**: a won match ``1``/``0``; a withdrawn player's unplayed match ``+``/``-``
  (``-`` for both when the event voids it); the pairing's bye ``U`` (what it scores is in the
  point system: a zero-point pairing bye is ``U`` too, never ``Z``); an announced absence
  ``H`` when absences score half a win, ``Z`` when they score nothing; a round a player is
  not in (a late entry's first rounds, a withdrawn player's last) ``0000 - Z``, as the
  format says for a player not paired: never a blank block.
- **Rounds**: every round started whose every match is over, in order; a round still being
  played is left out (its byes too), so the points are always those of the rounds written.
  With ``paired`` (``tally event export --format trf --paired``) the round started and not
  over is written too, for a pairing checker (``bbpPairings --dutch FILE -c``): each game
  not played yet as its opponent and colour with a blank result (``0003 w  ``, worth
  nothing), its bye ``U`` and its absences, the points those of the rounds written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tally.errors import Message, Refused
from tally.files.trf import TrfGame, TrfPlayer, TrfTournament, point_system, write_trf
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.views import EventView, PairingView, RoundView

__all__ = ["event_trf"]

#: what a player not in a round (not yet entered, withdrawn) is written as
NOT_PAIRED = TrfGame(None, "-", "Z")


def event_trf(store: Store, ref: str | int, *, paired: bool = False) -> str:
    """Event ``ref`` (a round robin or a Swiss event of one match per pairing) as a TRF-16
    text (module docstring); ``paired``: with the round started and not over, its games not
    played yet written without a result. Refused for other events."""
    ev = store.events.get(ref)
    if not ev.format.has_scored_rounds or ev.matches_per_pairing != 1:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" is a %(kind)s event of %(count)s match(es) per '
                   "pairing: a TRF holds round robins and Swiss events of one match per pairing"),
                id=ev.id, name=ev.name, kind=ev.kind, count=ev.matches_per_pairing,
            )
        )  # fmt: skip
    number = {p.name: k for k, p in enumerate(ev.players, start=1)}
    done = _finished_rounds(store, ev, paired)
    games = {name: [_game(r, name, number) for r in done] for name in number}
    points = point_system(ev.match_points_per_win or 1.0, ev.bye == "win")
    rows = store.events.standings(ev.id).rows
    ranks = {row.player: row.rank for row in rows}
    players = tuple(
        TrfPlayer(
            k,
            name,
            sum(
                points.worth(g) for r, g in zip(done, games[name], strict=True) if _counts(r, name)
            ),
            ranks.get(name, len(rows) + 1),
            None,
            tuple(games[name]),
        )
        for name, k in number.items()
    )
    day = ev.date.strftime("%Y/%m/%d")
    kind = "Swiss" if ev.format.pairs_from_standings else "Round robin"
    return write_trf(TrfTournament(ev.name, day, day, kind, ev.rounds, players, points))


def _finished_rounds(store: Store, ev: EventView, paired: bool = False) -> list[RoundView]:
    """The rounds started whose every match is over (a next round that cannot be paired
    does not stop the export); ``paired``: also the round started and not over."""
    return [
        r
        for r in store.events.started_rounds(ev.id)
        if paired or all(p.status in ("played", "forfeit", "void", "annulled") for p in r.pairings)
    ]


def _game(r: RoundView, name: str, number: dict[str, int]) -> TrfGame:
    """What ``name`` did in round ``r``, as a TRF writes it."""
    for p in r.pairings:
        if name in (p.first, p.second):
            other = p.second if p.first == name else p.first
            return TrfGame(number[other], "w" if p.first_dealer == name else "b", _result(p, name))
    if r.bye == name:
        return TrfGame(None, "-", "U")
    if name in r.absent:
        return TrfGame(None, "-", "H" if r.absence_points else "Z")
    return NOT_PAIRED


def _counts(r: RoundView, name: str) -> bool:
    """Whether ``name``'s game of round ``r`` counts for their points: not one with a player
    struck out (withdrawn before half of their games), whose result a game played keeps, as
    FIDE rates it, but counts for nobody, as in tally's standings."""
    return not any(p.status == "annulled" and name in (p.first, p.second) for p in r.pairings)


def _result(p: PairingView, me: str) -> str:
    """``me``'s result in a pairing (blank while it is not played yet)."""
    if p.status == "void" or (p.status == "annulled" and not (p.matches and p.matches[0].over)):
        return "-"  # (a struck-out player's game played keeps its result, as FIDE rates it)
    if p.status == "forfeit":
        return "+" if p.forfeit_winner == me else "-"
    if p.status != "played":  # paired, not played yet: no result
        return " "
    return "1" if p.matches[0].winner == me else "0"
