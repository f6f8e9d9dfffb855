"""Matches: starting one (also for a club evening), listing them, a match's state, and
deleting a match.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import delete, select

from tally.errors import ON_THE_CHANGES_PAGE, ON_THE_MATCH_PAGE, Advice, Message, Refused, option
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, Snapshot, deal_snapshot, snapshot
from tally.store.derivation import (
    DELETE_MATCH_RESULTS,
    MatchRow,
    checked_rules,
    iso_time,
    load_derived,
    load_many,
    view_of_match,
)
from tally.store.over import why_over
from tally.store.players import resolve_in_match, resolve_player
from tally.store.views import MatchSummary, MatchView, Over

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, RowMapping

    from tally.store.transactions import Database


class Matches:
    """The matches: started, listed, shown with every deal's ruling, deleted. Reached as
    ``store.matches``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def event_language(self, event_id: int) -> str:
        """The stored language of event ``event_id``, which a match counts for (``""``: none),
        in one query: what a match's command speaks, without loading the events' formats."""
        with self.store.reading() as conn:
            return eventrows.language_of(conn, event=event_id)

    def start(
        self,
        player_a: str,
        player_b: str,
        *,
        rules: str | None = None,
        first_dealer: str,
        event: str | int | None = None,
    ) -> MatchView:
        """Start a match; ``rules`` is a preset with optional overrides (``RuleSet.parse``),
        ``sixty-six`` by default.

        With ``event`` (a club evening's number or name) the match counts for that event and
        is played under its rule set (``rules``, if given, must be the same); players not yet
        on the evening's list join it. A round robin's matches come from its schedule
        instead (``store.events.start_round``)."""
        with self.store.writing() as conn:
            ev = None if event is None else eventrows.resolve_event(conn, event, lock=True)
            spec = checked_rules(
                rules if rules is not None else ev["rules"] if ev is not None else "sixty-six"
            )
            a, b = _two_players(conn, player_a, player_b)
            d = resolve_in_match(
                conn,
                first_dealer,
                [a["id"], b["id"]],
                Message(
                    N_(" in this match (as %(option)s)"),
                    option=option(N_("--dealer"), N_("First dealer")),
                ),
            )
            before: dict[str, Snapshot] = {}
            after: dict[str, Snapshot] = {}
            if ev is not None:
                _enter_evening(conn, ev, spec, (a, b), before, after)
            mid = eventrows.insert_match(
                conn, a["id"], b["id"], spec, d["id"], event_id=None if ev is None else ev["id"]
            )
            before[f"match:{mid}"] = None
            after[f"match:{mid}"] = snapshot(conn, "match", mid)
            where = "" if ev is None else f' for event {ev["id"]} "{ev["name"]}"'
            Audit(self.store).write(
                conn,
                "match start",
                "match",
                mid,
                f"started match {mid}{where}: {a['name']} v {b['name']}, {spec}, "
                f"{d['name']} deals first",
                before,
                after,
                words=Message(
                    N_("Match started: %(a)s against %(b)s, %(dealer)s deals first"),
                    a=a["name"],
                    b=b["name"],
                    dealer=d["name"],
                ),
            )
            loaded = load_derived(conn, mid)
        return view_of_match(loaded)

    def all(self, event_id: int | None = None) -> list[MatchSummary]:
        """Every match (of event ``event_id`` only, when given), oldest first, with its
        score."""
        query = select(t.matches.c.id).order_by(t.matches.c.id)
        if event_id is not None:
            query = query.where(t.matches.c.event_id == event_id)
        with self.store.reading() as conn:
            ids = conn.execute(query).scalars().all()
            out = []
            chunks = (ids[i : i + 500] for i in range(0, len(ids), 500))
            for loaded in (m for chunk in chunks for m in load_many(conn, chunk)):
                m, s = loaded.match, loaded.state
                out.append(
                    MatchSummary(
                        m.id,
                        m.players,
                        m.spec,
                        len(loaded.deals),
                        dict(s.score),
                        s.winner,
                        s.over,
                        iso_time(m.created_at),
                        m.event_id,
                        m.round_number,
                        m.table_number,
                    )
                )
        return out

    def state(self, match_id: int, *, referee: bool = False) -> MatchView:
        """A match with every deal's ruling, the score, the carry and who deals next.

        Counted points of a deal still being played are left out unless ``referee``."""
        with self.store.reading() as conn:
            loaded = load_derived(conn, match_id)
        return view_of_match(loaded, referee)

    def over(self, match_id: int) -> Over | None:
        """How a match ended, once it takes no more writes (None: it does): finished,
        forfeited or void by a withdrawal, or not needed in a decided best-of pairing
        (:func:`tally.store.over.why_over`, the rule every write checks as it writes)."""
        with self.store.reading() as conn:
            return why_over(conn, load_derived(conn, match_id))

    def delete(self, match_id: int) -> MatchView:
        """Delete a match with its deals (a match started by mistake: wrong players, a
        duplicate); returns the match as it was. Audited as one entry, so ``tally audit undo``
        brings the match and every deal back.

        Refused for a match of a round robin: the schedule made it, with its round and table,
        and a round is taken back whole (reverse the entry that started the round while none
        of its matches has a deal) or a player withdrawn; its deals are corrected one by one.
        A club evening's match may be deleted; its players stay on the evening's list."""
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            m = loaded.match
            if m.event_id is not None and m.round_number is not None:
                _refuse_scheduled(conn, m)
            view = view_of_match(loaded)
            before: dict[str, Snapshot] = {f"match:{match_id}": snapshot(conn, "match", match_id)}
            for d in loaded.deals:
                before[f"deal:{d.deal.id}"] = deal_snapshot(d.deal)
            conn.execute(DELETE_MATCH_RESULTS, {"m": match_id})
            deal_ids = [d.deal.id for d in loaded.deals]
            if deal_ids:
                conn.execute(delete(t.actions).where(t.actions.c.deal_id.in_(deal_ids)))
                conn.execute(delete(t.deals).where(t.deals.c.id.in_(deal_ids)))
            conn.execute(delete(t.matches).where(t.matches.c.id == match_id))
            after: dict[str, Snapshot] = dict.fromkeys(before)
            Audit(self.store).write(
                conn,
                "match delete",
                "match",
                match_id,
                f"deleted match {match_id}: {m.a} v {m.b}, {len(deal_ids)} deal(s)",
                before,
                after,
                words=Message(N_("Match deleted: %(a)s against %(b)s"), a=m.a, b=m.b),
            )
        return view


def _two_players(conn: Connection, player_a: str, player_b: str) -> tuple[RowMapping, RowMapping]:
    """The two players of a new match, refused when both names are the same player."""
    a = resolve_player(conn, player_a)
    b = resolve_player(conn, player_b)
    if a["id"] == b["id"]:
        raise Refused(
            Message(N_('a match needs two players, not "%(name)s" twice'), name=a["name"])
        )
    return a, b


def _enter_evening(
    conn: Connection,
    ev: RowMapping,
    spec: str,
    players: tuple[RowMapping, RowMapping],
    before: dict[str, Snapshot],
    after: dict[str, Snapshot],
) -> None:
    """Put a club evening's new match players on its list, with the event's snapshots for the
    audit entry when the list changed."""
    eid = ev["id"]
    event_before = snapshot(conn, "event", eid)
    if eventrows.enter_club_match(conn, ev, spec, players):
        before[f"event:{eid}"] = event_before
        after[f"event:{eid}"] = snapshot(conn, "event", eid)


def _refuse_scheduled(conn: Connection, m: MatchRow) -> None:
    """Refuse to delete a round robin's match on its own: the schedule made it, and its round
    is taken back whole (with the audit entry that started it, named when there is one)."""
    assert m.event_id is not None
    ev = eventrows.resolve_event(conn, m.event_id)
    started = conn.execute(
        select(t.audit_log.c.id)
        .where(
            (t.audit_log.c.command == "event round")
            & (t.audit_log.c.entity_id == ev["id"])
            & t.audit_log.c.reversed_by.is_(None)
            & t.audit_log.c.summary.contains(f"round {m.round_number} ")
        )
        .order_by(t.audit_log.c.id.desc())
        .limit(1)
    ).scalar_one_or_none()
    how = (
        Message(
            N_("%(undo)s takes the round back while none of its matches has a deal"),
            undo=Advice(
                N_("`tally audit undo %(entry)s`"), page=ON_THE_CHANGES_PAGE, entry=started
            ),
        )
        if started is not None
        else Message(
            N_("a round is taken back whole %(undo)s"),
            undo=Advice(
                N_("with `tally audit undo`"),
                page=Message(N_("by %(how)s"), how=ON_THE_CHANGES_PAGE),
            ),
        )
    )
    raise Refused(
        Message(
            N_(
                "match %(match)s was made by the schedule of round robin %(event)s "
                '"%(name)s" (round %(round)s, table %(table)s), so it cannot be '
                "deleted on its own: %(how)s; a player who stops is withdrawn"
                "%(withdraw)s, and a deal is corrected %(correct)s"
            ),
            match=m.id,
            event=ev["id"],
            name=ev["name"],
            round=m.round_number,
            table=m.table_number,
            how=how,
            withdraw=Advice(N_(" (`tally event withdraw`)")),
            correct=Advice(
                N_("with `tally deal edit` or `tally deal delete`"), page=ON_THE_MATCH_PAGE
            ),
        )
    )
