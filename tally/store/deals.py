"""Deals of a match: starting one, recording play (``play``, ``preview``, ``legal_tokens``,
``undo``), quick results entered from paper, and importing, exporting, editing and deleting
records. Every change is checked by the engine before it is stored, and rewrites the
match's result cache in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Connection

from tally.cards import CARDS, Card, Rank
from tally.errors import (
    HEADED,
    BadRecord,
    Message,
    NotationError,
    RecordError,
    Refused,
    RulesError,
    TallyError,
)
from tally.match import (
    MATCH_RESULT,
    check_match_result,
    check_quick_result,
    match_result_lines,
    read_score,
    score_match,
)
from tally.notation import DealRecord, read_deal, write_deal
from tally.rules import RuleSet
from tally.ruling import rule
from tally.store import plays
from tally.store import tables as t
from tally.store.dbapi import Db
from tally.store.derivation import (
    Loaded,
    MatchRow,
    derive,
    keep_dealers,
    rederive_last,
    view_of_deal,
    view_of_match,
)
from tally.store.players import resolve_in_match
from tally.store.plays import deal_snapshot, utc_now
from tally.store.recording import EDITED_RECORD, IN_DEAL, TURN_UP
from tally.store.records import (
    StoredDeal,
    name_matcher,
    parse_items,
    rename_in_record,
    stored_form,
)
from tally.store.results import DELETE_DEAL_RESULT, save_results
from tally.store.rows import (
    insert_actions,
    load_deal,
    load_derived,
    load_match,
    resolve_deal,
    write_deal_row,
)
from tally.store.views import DealView, MatchView, PlayResult, Position

if TYPE_CHECKING:
    from tally.store.transactions import Store


def _context_tags(conn: Connection, match: MatchRow) -> dict[str, str]:
    """``Event``, ``Date``, ``Round`` and ``Table`` of a match made in an event (none for a
    match of its own)."""
    if match.event_id is None:
        return {}
    row = conn.execute(select(t.events.c.name, t.events.c.held_on)
                       .where(t.events.c.id == match.event_id)).first()
    if row is None:
        return {}
    tags = {"Event": str(row.name), "Date": row.held_on.isoformat()}
    if match.round_number is not None:
        tags["Round"] = str(match.round_number)
    if match.table_number is not None:
        tags["Table"] = str(match.table_number)
    return tags


def _read_record(text: str, source: str, within: Message | None = None) -> DealRecord:
    """The record ``text`` (from ``source``); refused in the words ``within`` (a wrapper of
    :mod:`tally.store.recording`: ``source: message`` by default)."""
    try:
        return read_deal(text, source=source)
    except NotationError as exc:
        around = within or Message(HEADED, head=source)
        raise RecordError(around.with_values(message=exc.wording)) from None


def _checked(loaded: Loaded, deals: list[StoredDeal]) -> Loaded:
    """The match with ``deals`` instead, refused if they no longer fit together."""
    after = derive(loaded.match, deals)
    keep_dealers(loaded.dealer_roles(), after)
    return after


def deal_id(store: Store, ref: str | int) -> int:
    """The id of a deal given as its id (``"17"``) or as ``"MATCH.NUMBER"`` (``"3.2"``).
    (:meth:`Store.deal_id`, where it is documented in full.)"""
    with store.reading() as conn:
        return resolve_deal(conn, ref)


def current_deal(store: Store, match_id: int) -> int:
    """The deal of a match that play is recorded into: its last deal.
    (:meth:`Store.current_deal`, where it is documented in full.)"""
    with store.reading() as conn:
        load_match(conn, match_id)
        row = conn.execute(select(t.deals.c.id).where(t.deals.c.match_id == match_id)
                           .order_by(t.deals.c.number.desc()).limit(1)).first()
    if row is None:
        raise Refused(f"match {match_id} has no deal yet: start one with "
                      f"`tally deal start {match_id} TURNUP`")
    return int(row[0])


def start_deal(store: Store, match_id: int, turn_up: str, *,
               expect: Position | str | None = None) -> DealView:
    """Start the next deal of a match with its turn-up; the dealer follows the rules.
    (:meth:`Store.start_deal`, where it is documented in full.)"""
    try:
        card = Card.parse(turn_up)
    except NotationError as exc:
        raise NotationError(Message(TURN_UP, message=exc.bare)) from None
    with store.writing() as conn:
        loaded = load_derived(conn, match_id, lock=True)
        plays.check_position(loaded, expect)
        number = _next_number(store, loaded)
        deal = StoredDeal(0, match_id, number, "recorded", str(card), None, None, None, {},
                          utc_now())
        try:
            after = derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
        except BadRecord as exc:
            raise RecordError(Message(TURN_UP, message=exc.record_error)) from None
        _insert_deal(store, conn, deal)
        save_results(conn, after, last_only=True)
        view = view_of_deal(after, len(after.deals) - 1, False)
        store.audit(conn, "deal start", "deal", deal.id,
                    f"started deal {match_id}.{number}: turn-up {card}, {view.dealer} deals",
                    {f"deal:{deal.id}": None}, {f"deal:{deal.id}": deal_snapshot(deal)})
    return view


def _auditor(store: Store, conn: Connection) -> plays.Audit:
    """The store's audit (:meth:`Store.audit`: inside :meth:`Store.transaction` its label)
    on ``conn``, for :mod:`tally.store.plays`."""

    def audit(command: str, entity: str, entity_id: int, summary: str,
              before: dict[str, Any], after: dict[str, Any]) -> int:
        return store.audit(conn, command, entity, entity_id, summary, before, after)

    return audit


def play(store: Store, deal_id: int, tokens: str | Sequence[str], *, referee: bool = False,
         as_played: bool = False, expect: Position | str | None = None) -> PlayResult:
    """Record actions (``"KS AS"``, ``"20 QC"``, ``"close"``, ``"66"``) in a deal: what
    :func:`tally.store.plays.play` does, on this store's connection in its transaction.
    (:meth:`Store.play`, where it is documented in full.)"""
    text = tokens if isinstance(tokens, str) else " ".join(tokens)
    plays.items_of(text)
    with store.writing() as conn:
        return plays.play(Db.of(conn), deal_id, text, audit=_auditor(store, conn),
                          referee=referee,
                          as_played=as_played, expect=expect)


def preview(store: Store, deal_id: int, tokens: str | Sequence[str], *,
            referee: bool = False) -> PlayResult:
    """What :meth:`play` would do with ``tokens``, storing nothing: the same refusals for an
    impossible record, and the violations it would prove (``new_violations``) and the ruling it
    would bring, for a scorer to confirm before recording. (:meth:`Store.preview`, where it is
    documented in full.)"""
    text = tokens if isinstance(tokens, str) else " ".join(tokens)
    items = plays.items_of(text)
    with store.reading() as conn:
        *_, result = plays.preview(Db.of(conn), deal_id, text, items, referee=referee,
                                   lock=False)
    return result


def legal_tokens(store: Store, deal_id: int) -> list[str]:
    """What may be typed now in a deal being recorded, as far as the record shows: each card,
    ``swap``, marriage (``20 QC``), ``close``, ``close-before-draw`` and claim that the engine
    would accept without proving a violation. Cards a player holds are unknown, so a card
    listed may still turn out to be a revoke later. (:meth:`Store.legal_tokens`, where it is
    documented in full.)"""
    with store.reading() as conn:
        loaded, index = plays.open_deal(Db.of(conn), deal_id, None, lock=False)
    d = loaded.deals[index]
    assert d.ruling is not None
    deal = d.ruling.state
    if deal is None or (deal.is_over and not (deal.all_tricks_played
                                              and not deal.claimed)):
        return []
    cards = [c for c in CARDS if loaded.match.rules.deck == 24 or c.rank != Rank.NINE]
    candidates = ["swap", "close", "close-before-draw", "66"]
    for c in cards:
        if c.rank in (Rank.KING, Rank.QUEEN):
            candidates.append(f"20 {c}")
            candidates.append(f"40 {c}")
    candidates += [str(c) for c in cards]
    out = []
    for token in candidates:
        try:
            changed, _ = plays.appended(loaded, index, parse_items(token))
            after = plays.after_play(loaded, changed, token)
        except TallyError:
            continue
        ruling = after.deals[index].ruling
        if ruling is not None and len(ruling.violations) == len(d.ruling.violations):
            out.append(token)
    return out


def undo(store: Store, deal_id: int, *, referee: bool = False,
         expect: Position | str | None = None) -> PlayResult:
    """Remove the last action recorded in a deal (the last deal of its match).
    (:meth:`Store.undo`, where it is documented in full.)"""
    with store.writing() as conn:
        db = Db.of(conn)
        loaded, index = plays.open_deal(db, deal_id, expect)
        d = loaded.deals[index]
        assert d.ruling is not None
        if not d.deal.actions:
            raise Refused(f"deal {loaded.match.id}.{d.deal.number} has no action to undo "
                          f"(to remove the deal itself: `tally deal delete {d.deal.id}`)")
        seq, _trick, token = d.deal.actions[-1]
        conn.execute(delete(t.actions).where((t.actions.c.deal_id == d.deal.id)
                                             & (t.actions.c.seq == seq)))
        changed = replace(d.deal, actions=d.deal.actions[:-1])
        after = rederive_last(loaded, changed)
        result = plays.played(loaded, after, index, d.ruling, referee, (token,))
        plays.store_played(db, loaded, after, index, changed, "deal undo", f"undid {token}",
                           _auditor(store, conn))
    return result


def quick_result(store: Store, match_id: int, *, winner: str | None, points: int,
                 reason: str = "claim") -> DealView:
    """Enter a deal's result without its record: ``winner`` None for a draw.
    (:meth:`Store.quick_result`, where it is documented in full.)"""
    with store.writing() as conn:
        loaded = load_derived(conn, match_id, lock=True)
        m = loaded.match
        winner_id: int | None = None
        winner_name: str | None = None
        if winner is not None:
            winner_name = resolve_in_match(conn, winner, [m.a_id, m.b_id],
                                           f" in match {match_id}")["name"]
            winner_id = m.player_id(winner_name)
        check_quick_result(m.rules, winner_name, points, reason)
        number = _next_number(store, loaded)
        deal = StoredDeal(0, match_id, number, "quick", None, winner_id, points, reason, {},
                          utc_now())
        after = derive(m, [*(d.deal for d in loaded.deals), deal])
        _insert_deal(store, conn, deal)
        save_results(conn, after, last_only=True)
        view = view_of_deal(after, len(after.deals) - 1, False)
        store.audit(conn, "deal quick", "deal", deal.id,
                    f"entered deal {match_id}.{number} as a result: " +
                    (f"{winner_name} {points} ({reason})" if winner_name else "draw"),
                    {f"deal:{deal.id}": None}, {f"deal:{deal.id}": deal_snapshot(deal)})
    return view


def match_result(store: Store, match_id: int, score: str | tuple[int, int], *,
                 winner: str | None = None) -> MatchView:
    """Enter a match's whole result, its players' game points (in the match's order; with
    ``winner``, the winner's first). (:meth:`Store.match_result`, where it is documented in
    full.)"""
    pair = read_score(score) if isinstance(score, str) else score
    with store.writing() as conn:
        loaded = load_derived(conn, match_id, lock=True)
        m = loaded.match
        if loaded.deals:
            a, b = m.players
            raise Refused(f"match {match_id} has {len(loaded.deals)} deal(s) already "
                          f"({a} {loaded.state.score[a]}, {b} {loaded.state.score[b]}): a "
                          "match result is entered for a match with no deals (delete its "
                          "deals first, or enter the rest deal by deal)")
        named: str | None = None
        if winner is not None:
            named = resolve_in_match(conn, winner, [m.a_id, m.b_id],
                                     f" in match {match_id}")["name"]
            pair = pair if named == m.a else (pair[1], pair[0])
        place = check_match_result(m.rules, pair)
        if named is not None and m.players[place] != named:
            raise Refused(f"{named} has {pair[1 - place]} game points, fewer than the match "
                          f"target {m.rules.match_target}: with a winner named, the winner's "
                          "game points come first (7:3)")
        deals = [StoredDeal(0, match_id, number, "quick", None, m.player_id(str(line.winner)),
                            line.deal_points, MATCH_RESULT, {}, utc_now())
                 for number, line in enumerate(match_result_lines(m.players, pair), start=1)]
        after = derive(m, deals)
        for deal in deals:
            _insert_deal(store, conn, deal)
        save_results(conn, after)
        store.audit(conn, "match result", "match", match_id,
                    f"entered the result of match {match_id}: {m.a} {pair[0]}, "
                    f"{m.b} {pair[1]}",
                    {f"deal:{d.id}": None for d in deals},
                    {f"deal:{d.id}": deal_snapshot(d) for d in deals})
    return view_of_match(after)


def enter_results(store: Store, match_id: int,
                  results: Sequence[tuple[str | None, int, str]]) -> None:
    """Enter results kept on paper, ``(winner, points, reason)`` in order, as an event file
    lists them: each deal's as :func:`quick_result` does, and the lines of a match result
    entered whole (reason :data:`~tally.match.MATCH_RESULT`, the winner's last) together as
    :func:`match_result` does."""
    whole = [r for r in results if r[2] == MATCH_RESULT]
    for winner, points, reason in results:
        if reason != MATCH_RESULT:
            quick_result(store, match_id, winner=winner, points=points, reason=reason)
    if whole:
        with store.reading() as conn:
            m = load_match(conn, match_id)
            named = [None if w is None else resolve_in_match(
                conn, w, [m.a_id, m.b_id], f" in match {match_id}")["name"]
                for w, _points, _why in whole]
        a, b = m.a, m.b
        if len(named) > 2 or len(set(named)) < len(named) or None in named:
            raise Refused(f"match {match_id}: a match result is the loser's game points (left "
                          f"out when 0), then the winner's, each naming its player ({a} and "
                          f"{b} play)")
        match_result(store, match_id, (whole[-1][1], sum(r[1] for r in whole[:-1])),
                      winner=named[-1])

def edit_quick_result(store: Store, deal_id: int, *, winner: str | None, points: int,
                      reason: str = "claim") -> DealView | None:
    """Change a deal entered as a result (quick entry): its winner (None: a draw), game
    points and reason, checked as :func:`quick_result` checks a new one; the deals after it
    are rescored. Audited and reversible; None when nothing changed. A recorded deal is
    corrected through its record (:func:`edit_deal`) instead."""
    with store.writing() as conn:
        loaded, index = load_deal(conn, deal_id, lock=True)
        m, old = loaded.match, loaded.deals[index].deal
        if old.kind != "quick":
            raise Refused(f"deal {m.id}.{old.number} was recorded card by card: correct its "
                          "tricks instead")
        winner_id: int | None = None
        winner_name: str | None = None
        if winner is not None:
            winner_name = resolve_in_match(conn, winner, [m.a_id, m.b_id],
                                           f" in match {m.id}")["name"]
            winner_id = m.player_id(winner_name)
        check_quick_result(m.rules, winner_name, points, reason)
        new = replace(old, quick_winner_id=winner_id, quick_points=points,
                      quick_reason=reason)
        return _replace_deal(store, conn, loaded, index, new, "deal quick edit",
                             f"changed the result of deal {m.id}.{old.number} to " +
                             (f"{winner_name} {points} ({reason})" if winner_name else "draw"))


def import_deals(store: Store, match_id: int, sources: Sequence[tuple[str, str]]) -> list[DealView]:
    """Add ``.deal`` records (``(name, text)`` pairs) as the next deals of a match.
    (:meth:`Store.import_deals`, where it is documented in full.)"""
    records = [(name, _read_record(text, name)) for name, text in sources]
    with store.writing() as conn:
        loaded = load_derived(conn, match_id, lock=True)
        views = []
        for name, record in records:
            number = _next_number(store, loaded, source=name)
            deal = _fitted(store, loaded, record, Message(HEADED, head=name), StoredDeal(
                0, match_id, number, "recorded", None, None, None, None, {}, utc_now()))
            _insert_deal(store, conn, deal)
            loaded = derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
            views.append(view_of_deal(loaded, len(loaded.deals) - 1, False))
            store.audit(conn, "deal import", "deal", deal.id,
                        f"imported {name or 'a record'} as deal {match_id}.{number}",
                        {f"deal:{deal.id}": None}, {f"deal:{deal.id}": deal_snapshot(deal)})
        save_results(conn, loaded)
    return views


def export_deal(store: Store, deal_id: int) -> str:
    """A recorded deal as a canonical ``.deal`` record. (:meth:`Store.export_deal`, where it is
    documented in full.)"""
    with store.reading() as conn:
        loaded, index = load_deal(conn, deal_id)
        context = _context_tags(conn, loaded.match)
    d = loaded.deals[index]
    if d.record is None:
        raise Refused(f"deal {loaded.match.id}.{d.deal.number} was entered as a result "
                      "(quick entry): it has no record to export")
    return write_deal(replace(d.record, tags={**context, **d.record.tags}))


def deal_view(store: Store, deal_id: int, *, referee: bool = False) -> DealView:
    """One deal as the score sheet shows it. (:meth:`Store.deal_view`, where it is documented
    in full.)"""
    with store.reading() as conn:
        loaded, index = load_deal(conn, deal_id)
    return view_of_deal(loaded, index, referee)


def edit_deal(store: Store, deal_id: int, text: str) -> DealView | None:
    """Replace a recorded deal's record with ``text`` (a whole ``.deal`` record).
    (:meth:`Store.edit_deal`, where it is documented in full.)"""
    record = _read_record(text, f"deal {deal_id}", Message(IN_DEAL, deal=deal_id))
    with store.writing() as conn:
        loaded, index = load_deal(conn, deal_id, lock=True)
        for tag, value in _context_tags(conn, loaded.match).items():
            if record.tags.get(tag, "").strip() == value:
                del record.tags[tag]  # exported from the match's event, not the deal's own
        old = loaded.deals[index].deal
        if old.kind == "quick":
            raise Refused(f"deal {loaded.match.id}.{old.number} was entered as a result "
                          "(quick entry): it has no record to edit")
        new = _fitted(store, loaded, record, Message(EDITED_RECORD), replace(old), index)
        return _replace_deal(store, conn, loaded, index, new, "deal edit",
                             f"edited deal {loaded.match.id}.{old.number}")


def _replace_deal(store: Store, conn: Connection, loaded: Loaded, index: int, new: StoredDeal,
                  command: str, summary: str) -> DealView | None:
    """Store ``new`` in place of the deal at ``index`` of a match (locked in ``conn``), the
    deals after it rescored, audited as ``command`` with ``summary``; None when nothing
    changed."""
    old = loaded.deals[index].deal
    if deal_snapshot(new) == deal_snapshot(old):
        return None
    write_deal_row(conn, new)
    deals = [d.deal for d in loaded.deals]
    deals[index] = new
    after = _checked(loaded, deals)
    save_results(conn, after)
    store.audit(conn, command, "deal", old.id, summary, {f"deal:{old.id}": deal_snapshot(old)},
                {f"deal:{old.id}": deal_snapshot(new)})
    return view_of_deal(after, index, False)


def delete_deal(store: Store, deal_id: int) -> DealView:
    """Delete the last deal of a match (a deal in the middle would change the ones after it:
    correct it with :meth:`edit_deal` instead). Returns the deal as it was.
    (:meth:`Store.delete_deal`, where it is documented in full.)"""
    with store.writing() as conn:
        loaded, index = load_deal(conn, deal_id, lock=True)
        d = loaded.deals[index].deal
        # a line of a match result entered whole goes with the rest of that result
        gone = [x.deal for x in loaded.deals if x.deal.quick_reason == MATCH_RESULT] \
            if d.quick_reason == MATCH_RESULT else [d]
        if index != len(loaded.deals) - 1 and gone == [d]:
            raise Refused(f"deal {loaded.match.id}.{d.number} is not the last deal of its "
                          "match: only the last deal can be deleted (correct this one with "
                          f"`tally deal edit {deal_id}`)")
        view = view_of_deal(loaded, index, False)
        for x in gone:
            conn.execute(DELETE_DEAL_RESULT, {"d": x.id})
            conn.execute(delete(t.actions).where(t.actions.c.deal_id == x.id))
            conn.execute(delete(t.deals).where(t.deals.c.id == x.id))
        save_results(conn, derive(loaded.match, [x.deal for x in loaded.deals
                                                 if x.deal not in gone]))
        summary = (f"deleted deal {loaded.match.id}.{d.number} ({d.kind})" if gone == [d]
                   else f"deleted the result of match {loaded.match.id} entered whole")
        store.audit(conn, "deal delete", "deal", d.id, summary,
                    {f"deal:{x.id}": deal_snapshot(x) for x in gone},
                    {f"deal:{x.id}": None for x in gone})
    return view


def _next_number(store: Store, loaded: Loaded, source: str = "") -> int:
    s = loaded.state
    where = f"{source}: " if source else ""
    if s.over:
        a, b = loaded.match.players
        raise Refused(f"{where}match {loaded.match.id} is over: {s.winner} won "
                      f"{s.score[a]}-{s.score[b]} ({a}-{b}); no more deals")
    if s.in_progress:
        last = loaded.deals[-1].deal
        raise Refused(f"{where}deal {loaded.match.id}.{last.number} is not finished: "
                      "record the rest of it (or undo or delete it) first")
    return len(loaded.deals) + 1


def _fitted(store: Store, loaded: Loaded, record: DealRecord, within: Message, deal: StoredDeal,
            index: int | None = None) -> StoredDeal:
    """``deal`` with the stored form of ``record``, once the record fits the match at
    ``index`` (the next deal by default) and has no record errors; refused in the words
    ``within`` (what the record is: a wrapper without its message)."""
    m = loaded.match
    before = loaded.deals if index is None else loaded.deals[:index]
    state = score_match(m.rules, m.players, m.name(m.first_dealer_id),
                        [d.result for d in before])
    dealer = state.next_dealer or m.a
    forehand = m.b if dealer == m.a else m.a
    tags = record.tags
    try:
        rules = RuleSet.parse(tags.get("Rules", ""))
    except RulesError as exc:
        raise RecordError(within.with_values(message=exc.wording)) from None
    if rules != m.rules:
        raise Refused(within.with_values(
            message=Message(f'the record is played under "{rules.spec}", the match under '
                            f'"{m.spec}"')))
    canonical = name_matcher(m.players)
    for tag, want in (("Dealer", dealer), ("Forehand", forehand)):
        given = tags.get(tag)
        if given is None:
            continue  # the ruling below reports the missing tag
        if canonical(given) not in m.players:
            raise Refused(within.with_values(
                message=Message(f'{tag} "{given}" does not play in match {m.id} '
                                f"({m.a} and {m.b} do)")))
        if canonical(given) != want:
            raise Refused(within.with_values(
                message=Message(f"{tag} is {given}, but in match {m.id} deal {deal.number} is "
                                f"dealt by {dealer} with {forehand} forehand")))
    if "Carry" in tags and tags["Carry"].strip() != str(state.carry):
        raise Refused(within.with_values(
            message=Message(f'Carry is "{tags["Carry"]}", but the deals before it carry '
                            f"{state.carry} (the carry is worked out from them)")))
    fixed = rename_in_record(record, canonical)
    fixed.tags["Rules"] = m.spec
    fixed.tags["Carry"] = str(state.carry)
    ruling = rule(fixed)
    if ruling.errors:
        raise RecordError(within.with_values(message=ruling.errors[0].said))
    turn_up, extra, actions = stored_form(fixed)
    return replace(deal, turn_up=turn_up, tags=extra, actions=actions)


def _insert_deal(store: Store, conn: Connection, deal: StoredDeal) -> None:
    """Insert a new deal and its actions; ``deal.id`` is set to the new row's id."""
    did = conn.execute(insert(t.deals).values(
        match_id=deal.match_id, number=deal.number, kind=deal.kind, turn_up=deal.turn_up,
        quick_winner_id=deal.quick_winner_id, quick_points=deal.quick_points,
        quick_reason=deal.quick_reason, tags=json.dumps(deal.tags, ensure_ascii=False),
        created_at=deal.created_at).returning(t.deals.c.id)).scalar_one()
    deal.id = int(did)
    insert_actions(conn, deal)
