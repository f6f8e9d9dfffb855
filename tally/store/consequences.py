"""What a destructive change would do, said before it is done: one function per change
(a withdrawal, deleting a deal or a match, reversing an audit entry, correcting a deal's
record, a quick result or a match result: :mod:`tally.store.comparison`), for a page that asks
"are you sure?" with the consequences spelt out.

Each one *rehearses* the change: the store's own function runs inside a transaction that is
then rolled back (:func:`rehearse`), and what it changed is read from the store before the
rollback. So the consequence is what the store would really do (the event's withdrawal rule,
the deals after a deleted one rescored, a reversal the store would refuse), never a guess;
and a change the store refuses is refused here, with the store's reason, before anyone is
asked to confirm it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from tally.errors import Message
from tally.events.formats import EventFormat, format_of
from tally.store.comparison import Correction, compare
from tally.store.corrections import NO_SUCH_ENTRY, Audit
from tally.store.derivation import Loaded, load_derived
from tally.store.events import Events
from tally.store.matches import Matches
from tally.store.recording import Deals
from tally.store.transactions import Database
from tally.store.views import FOR_PEOPLE, NO_WORDS, AuditView, MatchView, PairingView, RoundView

T = TypeVar("T")

__all__ = [
    "Consequences",
    "Correction",
    "DealDeletion",
    "MatchChange",
    "NoShowRehearsed",
    "Reversal",
    "Withdrawal",
    "rehearse",
]


class _Rehearsed(Exception):
    """Raised to roll a rehearsal back."""


def rehearse(
    store: Database, change: Callable[[Database], object], look: Callable[[Database], T]
) -> T:
    """Run ``change`` on a store of its own over ``store``'s database, read ``look`` from what
    it did, and roll everything back: nothing is stored, nothing is audited. A refusal of
    ``change`` is raised as it is."""
    trial = Database(store.engine, scorer=store.scorer)
    seen: list[T] = []
    try:
        with trial.transaction("rehearsal"):
            change(trial)
            seen.append(look(trial))
            raise _Rehearsed
    except _Rehearsed:
        return seen[0]


@dataclass(frozen=True)
class MatchChange:
    """A match's score before and after a change (in its players' order); ``winner`` after."""

    match_id: int
    players: tuple[str, str]
    before: tuple[int, int]
    after: tuple[int, int] | None
    winner_before: str | None
    winner_after: str | None


def _score(m: MatchView) -> tuple[int, int]:
    return m.score[m.players[0]], m.score[m.players[1]]


def _change(before: MatchView, after: MatchView | None) -> MatchChange:
    return MatchChange(
        before.id,
        before.players,
        _score(before),
        None if after is None else _score(after),
        before.winner,
        None if after is None else after.winner,
    )


@dataclass(frozen=True)
class Withdrawal:
    """What withdrawing ``player`` from an event does: ``rule`` is the event's withdrawal
    rule (``forfeit``, ``void``; a knockout: ``out``; ``annulled``: a round robin's player
    withdrawing before half of their games, whose results are all struck out); ``running``
    the player's matches not
    over, each with its opponent; ``remaining`` the opponents of the scheduled matches not
    made yet (a round robin's later rounds, groups)."""

    player: str
    kind: str
    rule: str
    running: tuple[tuple[int, str], ...]
    remaining: tuple[str, ...]

    @property
    def format(self) -> EventFormat:
        """The event's format (:mod:`tally.events.formats`)."""
        return format_of(self.kind)


@dataclass(frozen=True)
class DealDeletion:
    """What deleting deal ``number`` (``kind``: recorded or quick) of a match does to it."""

    number: int
    kind: str
    explanation: str
    match: MatchChange
    #: the words of ``explanation`` for a person
    wording: Message = field(default=NO_WORDS, compare=False, repr=False, metadata=FOR_PEOPLE)


@dataclass(frozen=True)
class Reversal:
    """What reversing audit ``entry`` does: each thing it touched (``kind``, number) comes
    back (``"back"``: the entry removed it), goes (``"gone"``: the entry made it) or returns
    to how it was (``"restored"``); and the score of each match it touches."""

    entry: AuditView
    things: tuple[tuple[str, int, str], ...]
    matches: tuple[MatchChange, ...]


@dataclass(frozen=True)
class NoShowRehearsed:
    """What recording ``player``'s no-show in round ``number`` does: their pairing as it
    then is (``status`` ``"forfeit"`` won by ``forfeit_winner``, or ``"void"`` when the
    opponent did not come either: :mod:`tally.store.noshows`)."""

    player: str
    number: int
    pairing: PairingView


def _touched_matches(store: Database, entry: AuditView) -> list[int]:
    """The matches an audit entry's snapshots name (a match, or a deal's match)."""
    found: set[int] = set()
    for snaps in (entry.before or {}, entry.after or {}):
        for key, snap in snaps.items():
            kind, _, ident = key.partition(":")
            if kind == "match":
                found.add(int(ident))
            elif kind == "deal" and isinstance(snap, dict) and "match_id" in snap:
                found.add(int(snap["match_id"]))
    return sorted(found)


def _change_either(before: MatchView | None, after: MatchView | None) -> MatchChange:
    """A match's change where it may appear (``before`` None) or go (``after`` None)."""
    if before is not None:
        return _change(before, after)
    assert after is not None
    return MatchChange(after.id, after.players, (0, 0), _score(after), None, after.winner)


class Consequences:
    """What a destructive change would do, said before it is done (each rehearsed and rolled
    back: :func:`rehearse`). Reached as ``store.consequences``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def withdrawal(self, event: int, player: str) -> Withdrawal:
        """What ``store.events.withdraw`` would do (refused as it would be)."""

        ev = Events(self.store).get(event)

        def look(trial: Database) -> Withdrawal:
            after = Events(trial).get(event)
            name = next(
                p.name
                for p in after.players
                if p.withdrawn and not any(q.name == p.name and q.withdrawn for q in ev.players)
            )
            running = tuple(
                (m.id, m.players[1] if m.players[0] == name else m.players[0])
                for m in Matches(trial).all()
                if m.event_id == event and name in m.players and not m.over
            )
            remaining: list[str] = []
            struck = False
            if ev.format.has_scheduled_pairings:
                for rnd in Events(trial).rounds(event):
                    for p in rnd.pairings:
                        if name not in (p.first, p.second):
                            continue
                        struck = struck or p.status == "annulled"
                        if not p.matches and p.status in ("forfeit", "void", "annulled"):
                            remaining.append(p.second if p.first == name else p.first)
            rule = "out" if ev.format.has_lives else "annulled" if struck else ev.withdrawal
            return Withdrawal(name, ev.kind, rule, running, tuple(remaining))

        return rehearse(self.store, lambda trial: Events(trial).withdraw(event, player), look)

    def no_show(self, event: int, number: int, player: str) -> NoShowRehearsed:
        """What ``store.no_shows.record`` would do (refused as it would be)."""
        from tally.store.noshows import NoShows

        named: list[str] = []

        def change(trial: Database) -> None:
            named.append(NoShows(trial).record(event, number, player))

        def look(trial: Database) -> PairingView:
            (rnd,) = Events(trial).rounds(event, number)
            return next(p for p in rnd.pairings if named[0] in (p.first, p.second))

        pairing = rehearse(self.store, change, look)
        return NoShowRehearsed(named[0], number, pairing)

    def deal_deletion(self, deal_id: int) -> DealDeletion:
        """What ``store.deals.delete`` would do (refused as it would be: only the last deal)."""
        view = Deals(self.store).view(deal_id)
        before = Matches(self.store).state(view.match_id)
        after = rehearse(
            self.store,
            lambda trial: Deals(trial).delete(deal_id),
            lambda trial: Matches(trial).state(view.match_id),
        )
        return DealDeletion(
            view.number, view.kind, view.explanation, _change(before, after), view.wording
        )

    def match_deletion(self, match_id: int) -> MatchChange:
        """What ``store.matches.delete`` would do: the match and its deals gone (refused as it
        would be: a scheduled round's match is withdrawn from, not deleted)."""
        before = Matches(self.store).state(match_id)
        rehearse(self.store, lambda trial: Matches(trial).delete(match_id), lambda trial: None)
        return _change(before, None)

    def reversal(self, entry_id: int) -> Reversal:
        """What ``store.audit.reverse`` would do (refused as it would be: an entry reversed
        already, or changed again since)."""
        entry = self.audit_entry(entry_id)
        before, after = entry.before or {}, entry.after or {}
        things = tuple(
            (
                key.partition(":")[0],
                int(key.partition(":")[2]),
                "back"
                if after.get(key) is None
                else "gone"
                if before.get(key) is None
                else "restored",
            )
            for key in sorted(set(before) | set(after))
        )
        mids = _touched_matches(self.store, entry)

        def scores(s: Database) -> dict[int, MatchView | None]:
            found = {m.id for m in Matches(s).all()}
            return {mid: Matches(s).state(mid) if mid in found else None for mid in mids}

        now = scores(self.store)
        then = rehearse(self.store, lambda trial: Audit(trial).reverse(entry_id), scores)
        changes = tuple(
            _change_either(now[mid], then[mid])
            for mid in mids
            if now[mid] is not None or then[mid] is not None
        )
        return Reversal(entry, things, changes)

    def audit_entry(self, entry_id: int) -> AuditView:
        """One audit entry, by number."""
        from sqlalchemy import select

        from tally.errors import NotFound
        from tally.store import tables as t
        from tally.store.corrections import audit_view

        with self.store.reading() as conn:
            row = (
                conn.execute(select(t.audit_log).where(t.audit_log.c.id == entry_id))
                .mappings()
                .first()
            )
        if row is None:
            raise NotFound(Message(NO_SUCH_ENTRY, entry=entry_id))
        return audit_view(row)

    def _correction(self, match_id: int, change: Callable[[Database], object]) -> Correction:
        """What ``change`` (a correction of the match's deals) would change, rehearsed."""

        def loaded(s: Database) -> Loaded:
            with s.reading() as conn:
                return load_derived(conn, match_id)

        return compare(loaded(self.store), rehearse(self.store, change, loaded))

    def record_correction(self, deal_id: int, text: str) -> Correction:
        """What ``store.deals.edit`` would change with the record ``text`` (refused as it
        would be): the tricks whose cards or winner change, the declarations that change
        hands, the deal's result and the match's score, before and after."""
        mid = Deals(self.store).view(deal_id).match_id
        return self._correction(mid, lambda trial: Deals(trial).edit(deal_id, text))

    def quick_correction(
        self, deal_id: int, *, winner: str | None, points: int, reason: str
    ) -> Correction:
        """What ``store.deals.edit_quick_result`` would change (refused as it would be)."""
        mid = Deals(self.store).view(deal_id).match_id
        return self._correction(
            mid,
            lambda trial: Deals(trial).edit_quick_result(
                deal_id, winner=winner, points=points, reason=reason
            ),
        )

    def match_result_correction(
        self, match_id: int, score: str | tuple[int, int], *, winner: str | None = None
    ) -> Correction:
        """What ``store.deals.edit_match_result`` would change (refused as it would be)."""
        return self._correction(
            match_id, lambda trial: Deals(trial).edit_match_result(match_id, score, winner=winner)
        )

    def round_preview(
        self, event: int, number: int, *, accept_rematches: bool = False
    ) -> RoundView:
        """Round ``number`` of an event as ``store.events.start_round`` would start it
        now (a round robin's or a group's schedule, a Swiss pairing from the standings, a
        knockout's draw by lot or its bracket; ``accept_rematches``: the least bad Swiss
        pairing when none avoids a rematch), rehearsed: nothing is stored (refused as it
        would be: not the next round, the round before not over; a round whose players still
        play the round before is shown, as the director may confirm it:
        ``store.pairings.start_warnings`` says so)."""

        found: list[RoundView] = []
        rehearse(
            self.store,
            lambda trial: found.append(
                Events(trial).start_round(
                    event, number, force=True, accept_rematches=accept_rematches
                )
            ),
            lambda trial: None,
        )
        return found[0]
