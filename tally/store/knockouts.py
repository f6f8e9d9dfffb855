"""Knockouts with lives and groups then knockout, in the store: their format row, their state
read (:func:`load_state`), their rounds kept as the format makes them (``next_round``, the door
every format makes its rounds through), play-offs and best of N. The rules themselves (draw,
lives, stages, play-offs, the final fill, the bracket) are :mod:`tally.events.knockout`'s, pure
code on the state; the views are :mod:`tally.store.knockoutviews`'.

**Knockout with lives** (``kind="knockout"``, ``lives``, ``draw_seed``, optional
``final_size``). Each round is drawn by lot when it is started (:func:`start_round`), among
the players still in, with the event's seed (``tally.events.knockout.draw_round``); the draw is then
stored as the round's matches (round and table) and its bye, so a later correction of a
result never redraws a round already played. A round can start once every match of the round
before is over (or has a withdrawn player in it). A lost match costs a life; a player is out
in the round of their last life. The event is over when one player is left; with
``final_size`` N (a power of two), the first round started with N or fewer players still in
starts a straight knockout among them instead: seeded by lives left, then by the ordinary
standings, then by entry order (:func:`tally.events.knockout.bracket.seeded_slots`; the best
seeds get the
byes when fewer than N are left).

**Groups then knockout** (``kind="groups"``, ``groups`` G, ``advance`` K). The players, in
entry order, are dealt into G groups as a snake
(:func:`tally.events.knockout.bracket.snake_groups`); each
group plays a single round robin by the Berger tables, all groups in the same event rounds
(1 to the most any group needs), tables numbered on from group to group. A bye in a group
scores nothing. Once every group match is over, the next round seeds the top K of each group
(by the group's standings: match points, the event's tiebreaks, then play-offs, then entry
order; a withdrawn player never goes through, the next one does) into a bracket across
groups (:func:`tally.events.knockout.bracket.group_slots`).

**The bracket** (both kinds). Round k of the bracket is event round ``bracket_round + k - 1``
and table t its match t; the player in the upper slot deals first. A player who withdraws
loses their bracket match not over (or not made yet): the opponent goes through (whatever the
event's withdrawal rule says: a knockout must go on); nobody goes through when both withdrew.

**Late entries and withdrawals.** A knockout takes late entries (``add_players``) until the
first player is out, in the lives stage: they join the next round drawn with full lives.
Groups take new players only before the first round (the groups are made from the entries).
A withdrawn player gets no new match and no bye; in the lives stage they are out at once
(:mod:`tally.events.knockout`), in a group their remaining matches are forfeit or void by the
event's rule (as in a round robin), in the bracket see above.

**Play-offs** ("Stechen", :meth:`Knockouts.record_playoff`): a match between two players who share a
rank (overall, or in a group's standings when it decides who goes through), made without a
round. It counts in no standings' totals; its winner ranks above the loser of the tie
(:func:`tally.events.knockout.rank_by_stage`).

**Standings** (:func:`standings`, :meth:`Knockouts.view`): ranked by how far each player got
(see :func:`tally.events.knockout.stages.stage_keys`): in the bracket by the round reached
(the champion first), then in
the lives stage by the round of elimination (players still in by lives left), then for groups
by the place in the group (withdrawn players who did not reach the bracket last); then the
ordinary standings (match points and the event's tiebreaks over every match but the
play-offs, byes and forfeits as the event's rules say), then play-offs.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import and_, case, func, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.engine.kernel import OUTRIGHT, SCHNEIDER_WIN, SCHWARZ_WIN, match_won
from tally.errors import Advice, Message, NotFound, Refused
from tally.events.formats import Given, RoundState, format_of
from tally.events.knockout import check_best_of
from tally.events.knockout.rounds import DrawnRound, is_group_round, refuse_busy, slots_text
from tally.events.knockout.rounds import still_playing as seated_still_playing
from tally.events.knockout.stages import group_rounds, lives_lines, tied
from tally.events.knockout.state import Entrant, KnockoutState, Match
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot
from tally.store.derivation import Results, categories_of, rule_set
from tally.store.knockoutviews import (
    BracketMatchView,
    KnockoutLine,
    KnockoutView,
    PrizeView,
    buy_back_fee_of,
    round_view,
    view_of,
)
from tally.store.players import resolve_player
from tally.store.roundrows import insert_round
from tally.store.transactions import Database
from tally.store.views import EventView, RoundView, StandingsView

__all__ = [
    "BracketMatchView",
    "KnockoutLine",
    "KnockoutView",
    "Knockouts",
    "PrizeView",
    "buy_back_fee_of",
    "check_late_entry",
    "insert_format",
    "lives_lines",
    "load_state",
    "rounds",
    "standings",
    "start_round",
]

# --- the format ------------------------------------------------------------------------------


def insert_format(conn: Connection, event_id: int, values: dict[str, Any]) -> None:
    """Store a new event's format row (values from its settings' ``draw()``)."""
    conn.execute(
        insert(t.event_formats).values(
            event_id=event_id, bracket_round=None, bracket=None, **values
        )
    )


#: what :meth:`Knockouts.settings` reads of the ``event_formats`` row
FORMAT_KEYS = (
    "lives",
    "draw_seed",
    "final_size",
    "groups",
    "advance",
    "final_fill",
    "best_of",
    "entry_fee",
    "prize_shares",
    "prize_unit",
    "category_prizes",
    "buy_back_until",
    "buy_back_fee",
    "buy_backs",
    "buy_back_at_once",
)


def check_late_entry(conn: Connection, ev: RowMapping, adding: int) -> None:
    """Refuse players added to a knockout or groups when the format no longer takes them
    (see the module docstring)."""
    st = load_state(conn, ev)
    if st.has_groups:
        if st.started:
            raise eventrows.entries_refused(
                ev["id"], ev["name"], "the groups are made from the entries"
            )
        format_of(ev["kind"]).settings(
            Given.of(
                {"groups": st.fmt["groups"], "advance": st.fmt["advance"]},
                players=len(st.entrants) + adding,
                bye="none",
            )
        )
        return
    out = [x for x in lives_lines(st) if x.out_in is not None and not x.withdrawn]
    if st.fmt["bracket_round"] is not None or out:
        raise eventrows.entries_refused(
            ev["id"], ev["name"], "a knockout takes late entries until the first player is out"
        )


# --- what is stored, loaded ------------------------------------------------------------------


def load_state(conn: Connection, ev: RowMapping) -> KnockoutState:
    """The event ``ev`` as it stands (:class:`tally.events.knockout.KnockoutState`)."""
    eid = ev["id"]
    fmt = (
        conn.execute(select(t.event_formats).where(t.event_formats.c.event_id == eid))
        .mappings()
        .first()
    )
    if fmt is None:
        raise NotFound(Message(NO_FORMAT, id=eid, name=ev["name"]))
    entrants = tuple(
        Entrant(e["player_id"], e["name"], e["seed"], e["withdrawn_at"])
        for e in eventrows.event_players(conn, eid)
    )
    names = {e.player_id: e.name for e in entrants}
    started = {
        r["number"]: (r["bye_player_id"], r["started_at"])
        for r in conn.execute(
            select(t.event_rounds).where(t.event_rounds.c.event_id == eid)
        ).mappings()
    }
    matches = _matches(conn, ev, names)
    bought: dict[int, list[int]] = defaultdict(list)
    fees = 0
    b = t.event_buy_backs
    for pid, after, fee in conn.execute(
        select(b.c.player_id, b.c.after_round, b.c.fee).where(b.c.event_id == eid).order_by(b.c.id)
    ):
        bought[pid].append(after)
        fees += fee
    kind = format_of(ev["kind"])
    return KnockoutState(
        dict(ev),
        dict(fmt),
        entrants,
        names,
        started,
        matches,
        kind.has_lives,
        kind.has_groups,
        dict(bought),
        fees,
        {p: tuple(c) for p, c in categories_of(conn, list(names)).items()},
    )


def _totals(conn: Connection, ids: list[int]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(match, player) -> game points, Schneider and Schwarz wins, from the result cache."""
    r = t.deal_results
    outright = r.c.reason.in_([str(reason) for reason in OUTRIGHT])

    def wins(worth: int) -> Any:
        return func.sum(case((and_(r.c.deal_points == worth, outright), 1), else_=0))

    totals: dict[tuple[int, int], tuple[int, int, int]] = {}
    if ids:
        for mid, pid, gp, sch, swz in conn.execute(
            select(
                r.c.match_id,
                r.c.winner_id,
                func.sum(r.c.game_points),
                wins(SCHNEIDER_WIN),
                wins(SCHWARZ_WIN),
            )
            .where(r.c.winner_id.is_not(None), r.c.match_id.in_(ids))
            .group_by(r.c.match_id, r.c.winner_id)
        ):
            totals[(mid, pid)] = (int(gp or 0), int(sch or 0), int(swz or 0))
    return totals


def _matches(conn: Connection, ev: RowMapping, names: dict[int, str]) -> tuple[Match, ...]:
    """The event's matches with their totals and winners; ``names`` gets the name of a
    player of a match who is no entrant."""
    rows = (
        conn.execute(
            select(t.matches).where(t.matches.c.event_id == ev["id"]).order_by(t.matches.c.id)
        )
        .mappings()
        .all()
    )
    totals = _totals(conn, [row["id"] for row in rows])
    target = rule_set(ev["rules"]).match_target
    matches = []
    for row in rows:
        a, b = row["player_a_id"], row["player_b_id"]
        ta, tb = totals.get((row["id"], a), (0, 0, 0)), totals.get((row["id"], b), (0, 0, 0))
        winner = a if match_won(ta[0], target) else b if match_won(tb[0], target) else None
        matches.append(
            Match(
                row["id"],
                a,
                b,
                row["first_dealer_id"],
                row["round_number"],
                row["table_number"],
                {a: ta[0], b: tb[0]},
                {a: ta[1], b: tb[1]},
                {a: ta[2], b: tb[2]},
                winner,
            )
        )
        for p in (a, b):
            if p not in names:
                names[p] = conn.execute(
                    select(t.players.c.name).where(t.players.c.id == p)
                ).scalar_one()
    return tuple(matches)


#: the refusals of this module
NO_FORMAT = N_('event %(id)s "%(name)s" has no knockout format stored')
TOO_FEW = N_('event %(id)s "%(name)s" needs at least 2 players')
NO_BRACKET = N_(
    'event %(id)s "%(name)s" has no bracket: best of N is for a knockout\'s final stage or '
    "groups then knockout"
)
SEEDED_ALREADY = N_(
    'the bracket of event %(id)s "%(name)s" is seeded already: its matches are made'
)
NO_PLAYOFFS = N_('event %(id)s "%(name)s" is not a knockout or groups event: it has no play-offs')
SAME_PLAYER = N_("a play-off needs two different players")
NOT_PLAYING = N_('%(player)s does not play in event %(id)s "%(name)s"')
NOT_TIED = N_("%(first)s and %(second)s do not share a rank: a play-off decides a tie only")
NOT_IN_PLAYOFF = N_("%(player)s does not play in this play-off")


def standings(
    store: Database, event_view: EventView, *, tiebreaks: Sequence[str] | None = None
) -> StandingsView:
    """The standings of a knockout or groups event by elimination, as a
    :class:`StandingsView` (ranks by :meth:`Knockouts.view`; the rows' totals are the
    ordinary standings')."""
    view = Knockouts(store).view(event_view, tiebreaks=tiebreaks)
    return StandingsView(
        title=event_view.name,
        event=event_view,
        events=(event_view.id,),
        date_from=event_view.date,
        date_to=event_view.date,
        tiebreaks=view.tiebreaks,
        match_points_per_win=event_view.match_points_per_win,
        rows=tuple(line.row for line in view.lines),
        stage=view.stage,
        withdrawn=tuple(p.name for p in event_view.players if p.withdrawn),
    )


def rounds(
    conn: Connection,
    ev: RowMapping,
    number: int | None,
    ratings: Mapping[int, float | None] | None = None,
) -> list[RoundView]:
    """The rounds of a knockout or groups event started so far (groups: also the group rounds
    not started yet, their schedule being known, in the seeding order ``ratings`` would fix
    when given: :mod:`tally.store.seeding`); only round ``number`` if given. A knockout's
    round is drawn when it is started, a bracket round seeded then."""
    st = load_state(conn, ev)
    if ratings is not None:
        from tally.store.seeding import seeded_order

        by_id = {e.player_id: e for e in st.entrants}
        order = seeded_order(list(by_id), ratings)
        st = dataclasses.replace(st, entrants=tuple(by_id[p] for p, _rating in order))
    known = set(st.started)
    if st.has_groups:
        known |= set(range(1, group_rounds(st) + 1))
    if number is not None:
        if number not in known:
            raise NotFound(
                Message(
                    N_(
                        'round %(round)s of event %(event)s "%(name)s" is not drawn yet: it is '
                        "drawn (or seeded) when it is started%(advice)s"
                    ),
                    round=number,
                    event=ev["id"],
                    name=ev["name"],
                    advice=Advice(
                        N_(" (`tally event round %(event)s %(round)s --start`)"),
                        event=ev["id"],
                        round=number,
                    ),
                )
            )
        return [round_view(st, number)]
    return [round_view(st, n) for n in sorted(known)]


def start_round(
    store: Database, conn: Connection, ev: RowMapping, number: int, *, force: bool = False
) -> RoundView:
    """Make the matches of round ``number`` (the next one) of a knockout or groups event as
    its format makes its next round (``next_round``: a draw by lot, a group round, a play-off
    or a bracket round, :mod:`tally.events.knockout`), keeping the bracket or the play-off it
    starts in the event's format. One audit entry; ``tally audit undo`` takes the round back
    while none of its matches has a deal. A group round may start while the round before is
    played (``force``: the director confirmed); a draw or a bracket round waits for its
    results."""
    eid = ev["id"]
    st = load_state(conn, ev)
    _check_round_can_start(st, number, force)
    before = {f"event:{eid}": snapshot(conn, "event", eid)}
    settings = dict(st.fmt)
    made = format_of(ev["kind"]).next_round(
        RoundState(
            number,
            tuple(str(p) for p in st.ids),
            frozenset(str(p) for p in st.withdrawn),
            settings,
            knockout=st,
        )
    )
    assert isinstance(made, DrawnRound)
    _keep_format(conn, eid, made)
    insert_round(
        store,
        conn,
        ev,
        number,
        None if made.bye is None else int(made.bye),
        [(p.table, int(p.first), int(p.second), int(p.first)) for p in made.pairings],
        f'started round {number} of event {eid} "{ev["name"]}" ({made.made})',
        before=before,
        matches_per_pairing=made.matches_per_pairing,
    )
    return round_view(load_state(conn, ev), number)


def _keep_format(conn: Connection, eid: int, made: DrawnRound) -> None:
    """Keep in the event's format the bracket or the play-off round ``made`` starts."""
    values: dict[str, Any] = {}
    if made.bracket is not None:
        values |= {"bracket_round": made.number, "bracket": slots_text(made.bracket)}
    if made.playoff:
        values["playoff_round"] = made.number
    if values:
        conn.execute(
            update(t.event_formats).where(t.event_formats.c.event_id == eid).values(**values)
        )


def _check_round_can_start(st: KnockoutState, number: int, force: bool = False) -> None:
    """Refuse to start round ``number`` unless it is the next one, the event has at least 2
    players and every match of the round before is over (or has a withdrawn player in it);
    a group round whose players are still at a table of the round before only unless
    ``force``."""
    eid, name = st.ev["id"], st.ev["name"]
    expected = len(st.started) + 1
    if number != expected:
        raise eventrows.round_refused(
            eid, name, number, expected, [m.id for m in st.of_round(number)]
        )
    if len(st.entrants) < 2:
        raise Refused(Message(TOO_FEW, id=eid, name=name))
    if not is_group_round(st, number):
        refuse_busy(st, number)
        return
    busy = seated_still_playing(st, number)
    if busy and not force:
        raise eventrows.still_playing_refused(number, {st.names[p]: m for p, m in busy.items()})


def still_playing(conn: Connection, ev: RowMapping, number: int) -> dict[str, int]:
    """The players of group round ``number`` (not started yet) still at a table of the
    round before: name -> that match; {} for any other round."""
    st = load_state(conn, ev)
    if number in st.started or not is_group_round(st, number):
        return {}
    return {st.names[p]: m for p, m in seated_still_playing(st, number).items()}


class Knockouts:
    """The knockouts' brackets: the format's settings, the bracket view, best-of and play-offs.
    Reached as ``store.knockouts``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def settings(self, ref: str | int) -> dict[str, Any]:
        """The format a knockout or groups event was created with, as its settings
        made it: ``lives``, ``draw_seed``, ``final_size``, ``groups``, ``advance`` (None where
        the kind has none), ``final_fill``, ``best_of``; its money as set since
        (``store.prizes.set_money``: ``entry_fee``, ``prize_shares``,
        ``prize_unit``, ``buy_back_until``, ``buy_back_fee``, ``buy_backs``, cents where money)
        and the buy-backs made (``bought``: player name, the round after which, the fee paid,
        in the order made); for an export that makes the event again."""
        with self.store.reading() as conn:
            st = load_state(conn, eventrows.resolve_event(conn, ref))
            b = t.event_buy_backs
            bought = [
                (st.names[r["player_id"]], r["after_round"], r["fee"])
                for r in conn.execute(
                    select(b.c.player_id, b.c.after_round, b.c.fee)
                    .where(b.c.event_id == st.ev["id"])
                    .order_by(b.c.id)
                ).mappings()
            ]
        return {key: st.fmt[key] for key in FORMAT_KEYS} | {"bought": bought}

    def view(
        self, event_view: EventView, *, tiebreaks: Sequence[str] | None = None
    ) -> KnockoutView:
        """The standings by elimination of a knockout or groups event (see the module
        docstring), with its groups, bracket and play-offs."""
        Results(self.store).ensure()
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, event_view.id)
            st = load_state(conn, ev)
        order = st.tiebreaks if tiebreaks is None else tuple(tiebreaks)
        return view_of(st, event_view, order)

    def set_best_of(self, ref: str | int, best_of: int) -> None:
        """Play the bracket's pairings of a knockout or groups event best of ``best_of``
        matches (odd); refused once the bracket is seeded. Audited."""
        check_best_of(best_of)
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if not format_of(ev["kind"]).ranks_by_elimination:
                raise Refused(Message(NO_BRACKET, id=ev["id"], name=ev["name"]))
            st = load_state(conn, ev)
            if st.fmt["bracket_round"] is not None:
                raise Refused(Message(SEEDED_ALREADY, id=ev["id"], name=ev["name"]))
            before = {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])}
            conn.execute(
                update(t.event_formats)
                .where(t.event_formats.c.event_id == ev["id"])
                .values(best_of=best_of)
            )
            Audit(self.store).write(
                conn,
                "event best-of",
                "event",
                ev["id"],
                f'the bracket of event {ev["id"]} "{ev["name"]}" is played best of {best_of}',
                before,
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(
                    N_("The bracket of %(event)s is played best of %(n)s"),
                    event=ev["name"],
                    n=best_of,
                ),
            )

    def record_playoff(
        self, ref: str | int, first: str, second: str, *, first_dealer: str | None = None
    ) -> int:
        """Make a play-off ("Stechen") match between two players of a knockout or groups event
        who share a rank (overall or in their group); its winner ranks above the other. Returns
        the match's number; its deals are recorded as any match's."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            a, b, dealer = _playoff_players(conn, ev, first, second, first_dealer)
            mid = eventrows.insert_match(
                conn, a["id"], b["id"], ev["rules"], dealer, event_id=ev["id"]
            )
            Audit(self.store).write(
                conn,
                "event playoff",
                "match",
                mid,
                f"play-off {mid} of event {ev['id']}: {a['name']} against {b['name']}",
                {f"match:{mid}": None},
                {f"match:{mid}": snapshot(conn, "match", mid)},
                words=Message(
                    N_("Play-off in %(event)s: %(a)s against %(b)s"),
                    event=ev["name"],
                    a=a["name"],
                    b=b["name"],
                ),
            )
            return mid


def _playoff_players(
    conn: Connection, ev: RowMapping, first: str, second: str, first_dealer: str | None
) -> tuple[RowMapping, RowMapping, int]:
    """The two players of a play-off and who deals first, refused unless the event has
    play-offs and they share a rank in it."""
    eid, name = ev["id"], ev["name"]
    if not format_of(ev["kind"]).ranks_by_elimination:
        raise Refused(Message(NO_PLAYOFFS, id=eid, name=name))
    a, b = resolve_player(conn, first), resolve_player(conn, second)
    if a["id"] == b["id"]:
        raise Refused(Message(SAME_PLAYER))
    st = load_state(conn, ev)
    for p in (a, b):
        if p["id"] not in st.ids:
            raise NotFound(Message(NOT_PLAYING, player=p["name"], id=eid, name=name))
    if not tied(st, st.tiebreaks, a["id"], b["id"]):
        raise Refused(Message(NOT_TIED, first=a["name"], second=b["name"]))
    if first_dealer is None:
        return a, b, a["id"]
    d = resolve_player(conn, first_dealer)
    if d["id"] not in (a["id"], b["id"]):
        raise Refused(Message(NOT_IN_PLAYOFF, player=d["name"]))
    return a, b, d["id"]
