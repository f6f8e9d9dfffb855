"""Results proposed at a table and agreed by the opponent: a confirmation confirms what was
proposed.

A table that keeps score on paper proposes a deal's result (``propose_deal``) or a whole
match's (``propose_match_result``); the proposal is checked as the store would check the
result (rehearsed: :func:`tally.store.consequences.rehearse`) and stored with an id of its
own (never reused) and the match's mark (:func:`tally.store.comparison.match_mark`). The
opponent's agreement (``agree``) names that id and the values it was shown: it stores the
proposal's own values, once, and only while the proposal is the table's latest, its values
are the ones shown, and the match has not changed since. A newer proposal at the table, or
the opponent's "No" (``withdraw``), withdraws the one before; agreeing twice stores once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from tally.engine.match import MATCH_RESULT
from tally.errors import Message, NotFound, Refused
from tally.i18n import N_
from tally.store import tables as t
from tally.store.comparison import match_mark
from tally.store.consequences import rehearse
from tally.store.derivation import load_derived, lock_match, utc_now, view_of_match
from tally.store.players import IN_MATCH, resolve_in_match
from tally.store.recording import Deals, check_position
from tally.store.views import MatchView, Position

if TYPE_CHECKING:
    from tally.store.transactions import Database

__all__ = ["Agreement", "ProposalView", "Proposals"]

#: the refusals of an agreement (worded where they are shown: the table's phone)
UNKNOWN: Final = N_("there is no result proposed as number %(id)s at this table")
WITHDRAWN: Final = N_(
    "this result was withdrawn (declined, or a newer one was proposed): nothing was "
    "recorded; propose it again"
)
CHANGED: Final = N_(
    "the result confirmed is not the one proposed (%(proposed)s): nothing was recorded"
)
STALE: Final = N_(
    "the match has changed since this result was proposed: nothing was recorded; propose it again"
)


@dataclass(frozen=True)
class ProposalView:
    """A result proposed at a table: a deal's (``kind`` ``deal``: ``winner``, None for a
    draw, ``points``, ``reason``; ``number``, the deal it would be) or a match's (``match``:
    ``score`` in the match's order, ``winner`` the player at the target). ``status``:
    pending, agreed (``deal_id``: the deal stored), withdrawn."""

    id: int
    match_id: int
    kind: str
    winner: str | None
    points: int
    reason: str
    score: tuple[int, int] | None
    number: int
    status: str
    deal_id: int | None

    @property
    def terms(self) -> dict[str, str]:
        """The values the opponent is shown, as the agreement posts them back."""
        if self.score is not None:
            return {"first": str(self.score[0]), "second": str(self.score[1])}
        return {"winner": self.winner or "", "points": str(self.points), "reason": self.reason}

    @property
    def said(self) -> str:
        """The values in a few words (English, for a refusal): ``Anna 2 (claim)``, ``7:3``."""
        if self.score is not None:
            return f"{self.score[0]}:{self.score[1]}"
        return f"{self.winner} {self.points} ({self.reason})" if self.winner else "drawn"


@dataclass(frozen=True)
class Agreement:
    """What an agreement did: the proposal, the match after it, and whether this agreement
    stored it (False: it was agreed already, nothing stored again)."""

    proposal: ProposalView
    match: MatchView
    stored: bool


def _view(conn: Connection, row: Any) -> ProposalView:
    loaded = load_derived(conn, row.match_id)
    m = loaded.match
    winner = None if row.winner_id is None else m.name(row.winner_id)
    score = (row.score_a, row.score_b) if row.kind == "match" else None
    number = len(loaded.deals) + (1 if row.status == "pending" else 0)
    return ProposalView(
        row.id,
        row.match_id,
        row.kind,
        winner,
        row.points,
        row.reason,
        score,
        number,
        row.status,
        row.deal_id,
    )


def _row(conn: Connection, proposal_id: int, match_id: int, lock: bool = False) -> Any:
    """A proposal's row, refused unless it was proposed at match ``match_id``'s table."""
    q = select(t.proposals).where(t.proposals.c.id == proposal_id)
    if lock and conn.dialect.name != "sqlite":
        q = q.with_for_update()
    row = conn.execute(q).first()
    if row is None or row.match_id != match_id:
        raise NotFound(Message(UNKNOWN, id=proposal_id))
    return row


class Proposals:
    """Results proposed at a table and agreed by the opponent. Reached as
    ``store.proposals``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def _propose(self, match_id: int, values: dict[str, Any], expect: Position | None) -> int:
        """Store a proposal (the table's pending ones before it withdrawn); its id."""
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_position(loaded, expect)
            p = t.proposals.c
            conn.execute(
                update(t.proposals)
                .where((p.match_id == match_id) & (p.status == "pending"))
                .values(status="withdrawn", decided_at=utc_now())
            )
            return int(
                conn.execute(
                    insert(t.proposals)
                    .values(
                        match_id=match_id,
                        mark=match_mark(loaded),
                        status="pending",
                        proposed_at=utc_now(),
                        decided_at=None,
                        deal_id=None,
                        **{"points": 0, "score_a": 0, "score_b": 0, **values},
                    )
                    .returning(p.id)
                ).scalar_one()
            )

    def propose_deal(
        self,
        match_id: int,
        *,
        winner: str | None,
        points: int,
        reason: str,
        expect: Position | None = None,
    ) -> ProposalView:
        """Propose a deal's result at the table (as ``store.deals.quick_result`` takes it,
        refused as it would be; ``expect`` as there: refused when the match moved since the
        phone saw it)."""
        rehearse(
            self.store,
            lambda trial: Deals(trial).quick_result(
                match_id, winner=winner, points=points, reason=reason
            ),
            lambda trial: None,
        )
        winner_id = None
        if winner is not None:
            with self.store.reading() as conn:
                m = load_derived(conn, match_id).match
                winner_id = m.player_id(
                    resolve_in_match(
                        conn, winner, [m.a_id, m.b_id], Message(IN_MATCH, match=match_id)
                    )["name"]
                )
        values = {"kind": "deal", "winner_id": winner_id, "points": points, "reason": reason}
        return self.get(self._propose(match_id, values, expect), match_id)

    def propose_match_result(self, match_id: int, score: tuple[int, int]) -> ProposalView:
        """Propose a whole match's result at the table (``score`` in the match's order, as
        ``store.deals.match_result`` takes it, refused as it would be)."""
        rehearse(
            self.store, lambda trial: Deals(trial).match_result(match_id, score), lambda trial: None
        )
        with self.store.reading() as conn:
            m = load_derived(conn, match_id).match
        winner = m.a_id if score[0] > score[1] else m.b_id
        values = {
            "kind": "match",
            "winner_id": winner,
            "reason": MATCH_RESULT,
            "score_a": score[0],
            "score_b": score[1],
        }
        return self.get(self._propose(match_id, values, None), match_id)

    def get(self, proposal_id: int, match_id: int) -> ProposalView:
        """A proposal made at match ``match_id``'s table."""
        with self.store.reading() as conn:
            return _view(conn, _row(conn, proposal_id, match_id))

    def agree(self, proposal_id: int, match_id: int, shown: dict[str, str]) -> Agreement:
        """The opponent agrees to proposal ``proposal_id`` as it was ``shown`` to them
        (:attr:`ProposalView.terms`): its own values are stored, in the same transaction that
        checks it is still pending, shown as proposed and made on the match as it is now.
        Agreed already: nothing is stored again (``stored`` False)."""
        with self.store.transaction("table agreement") as tx:
            conn = tx.connection
            row = _row(conn, proposal_id, match_id, lock=True)
            proposal = _view(conn, row)
            if row.status == "agreed":
                return Agreement(proposal, view_of_match(load_derived(conn, match_id)), False)
            if row.status != "pending":
                raise Refused(Message(WITHDRAWN))
            if {k: shown.get(k, "").strip() for k in proposal.terms} != proposal.terms:
                raise Refused(Message(CHANGED, proposed=proposal.said))
            lock_match(conn, match_id)
            if match_mark(load_derived(conn, match_id)) != row.mark:
                raise Refused(Message(STALE))
            deals = Deals(self.store)
            if proposal.score is not None:
                match = deals.match_result(match_id, proposal.score)
                deal_id = match.deals[0].id
            else:
                deal_id = deals.quick_result(
                    match_id, winner=proposal.winner, points=row.points, reason=row.reason
                ).id
            conn.execute(
                update(t.proposals)
                .where(t.proposals.c.id == proposal_id)
                .values(status="agreed", decided_at=utc_now(), deal_id=deal_id)
            )
            agreed = _view(conn, _row(conn, proposal_id, match_id))
            return Agreement(agreed, view_of_match(load_derived(conn, match_id)), True)

    def withdraw(self, proposal_id: int, match_id: int) -> ProposalView:
        """The opponent says no (or the table takes the proposal back): nothing is recorded;
        a proposal agreed already stays agreed."""
        with self.store.writing() as conn:
            row = _row(conn, proposal_id, match_id, lock=True)
            if row.status == "pending":
                conn.execute(
                    update(t.proposals)
                    .where(t.proposals.c.id == proposal_id)
                    .values(status="withdrawn", decided_at=utc_now())
                )
            return _view(conn, _row(conn, proposal_id, match_id))
