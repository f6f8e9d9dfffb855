"""The route of a recorded card, first step: an entry arriving (a card, a claim, a close, a
turn-up, a result from paper, a whole record), checked by the engine and stored.

Each function is one write transaction: the match is locked (a row lock on PostgreSQL; on
SQLite the write transaction holds the database's write lock already), loaded and derived
(:func:`tally.store.derivation.load_derived`), the position the scorer saw is checked
(``--at``: :func:`check_position`), a violation nobody confirmed is refused (unless
``as_played``), and the change is stored with the match's result cache rewritten and one
audit entry. Here too are the words the store tells a scorer whose entry it did not store
(the deal moved on since they saw it, or the entry would prove a violation).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.engine import Connection

from tally.engine.cards import CARDS, Card, Rank
from tally.engine.kernel import marriage_value
from tally.engine.match import (
    MATCH_RESULT,
    check_match_result,
    check_quick_result,
    match_result_lines,
    read_score,
    score_match,
)
from tally.engine.notation import CardItem, ClaimItem, DealRecord, read_deal, write_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import Ruling, rule, rule_next_card, rule_replayed
from tally.errors import (
    HEADED,
    ON_THE_MATCH_PAGE,
    Advice,
    AlreadyRecorded,
    BadRecord,
    DealMoved,
    Joined,
    Message,
    NotationError,
    NotFound,
    RecordError,
    Refused,
    RulesError,
    TallyError,
    ViolationNotConfirmed,
)
from tally.i18n import N_
from tally.names import Candidate
from tally.store import tables as t
from tally.store.caching import BoundedCache
from tally.store.comparison import match_mark
from tally.store.corrections import Audit, deal_snapshot
from tally.store.derivation import (
    DELETE_DEAL_RESULT,
    NO_SUCH_DEAL,
    Loaded,
    MatchRow,
    ScorerItem,
    StoredDeal,
    aliases_of,
    claimers_known,
    derive,
    flatten,
    insert_actions,
    keep_dealers,
    load_deal,
    load_derived,
    load_match,
    name_matcher,
    parse_items,
    place_items,
    put_deal_row,
    rederive_last,
    rename_in_record,
    resolve_deal,
    ruling_key,
    save_results,
    stored_form,
    tried_ruling,
    utc_now,
    view_of_deal,
    view_of_match,
    write_deal_row,
)
from tally.store.over import check_kept_in_turn, check_open
from tally.store.players import IN_MATCH, resolve_in_match
from tally.store.views import (
    DealView,
    LastDeal,
    MatchView,
    PlayResult,
    Position,
    Tap,
    ViolationView,
)
from tally.vocabulary import ruling_message

if TYPE_CHECKING:
    from tally.store.transactions import Database

# The store's words around an engine's message that refused what a scorer typed at the table,
# marked for the catalogue: each error holds them with the message inside as a value
# (tally.errors.Message), the command line and the web word both (tally.i18n.worded).
#: an entry that would make the deal's record impossible (:meth:`Deals.play`)
REFUSED_ENTRY: Final = N_('"%(entry)s" refused, nothing was recorded: %(message)s')
#: a turn-up that is not a card, or not one this deal can have (``tally deal start``)
TURN_UP: Final = N_("turn-up: %(message)s")
#: a record edited in ``tally deal edit`` that cannot be read (the deal's id before the
#: notation's message) or that has errors or that does not fit the match
IN_DEAL: Final = N_("deal %(deal)s: %(message)s")
EDITED_RECORD: Final = N_("the edited record: %(message)s")
#: a correction confirmed after the match changed since its question was shown
CHANGED_SINCE: Final = N_(
    "match %(match)s has changed since this correction was shown: nothing was stored; look "
    "at the match and correct it again"
)
#: a match with no deal yet, to start one (``tally deal start``)
NO_DEAL_YET: Final = N_(
    "match %(match)s has no deal yet: start one with `tally deal start %(match)s TURNUP`"
)
#: a tap sent again whose first sending was stored (its answer was lost on the way)
ALREADY_RECORDED: Final = N_("this tap was recorded already; it counts once")
#: a tap made while the one before it waited on the phone, when that one was not stored
BEFORE_NOT_RECORDED: Final = N_(
    "the tap made before it on this phone was not recorded, so this one was not either"
)


def check_mark(loaded: Loaded, expect: str | None) -> None:
    """Refuse a correction confirmed on a question about the match as it was before another
    change (``expect``: :attr:`tally.store.comparison.Correction.mark`; None: not asked)."""
    if expect is not None and expect != match_mark(loaded):
        raise Refused(Message(CHANGED_SINCE, match=loaded.match.id))


# The words of the changes a deal's audit entries keep (tally.store.corrections.Audit.write):
# a card, an action or several recorded, taken back, a deal started, entered, edited, deleted
PLAYED: Final = N_("%(player)s played %(card)s in deal %(deal)s, trick %(trick)s")
ACTED: Final = N_("%(player)s: %(actions)s in deal %(deal)s, trick %(trick)s")
#: an action other than a card, as the player did it (the rest say ``ACTED``)
ACTIONS_DONE: Final = {
    "swap": N_("%(player)s exchanged the trump card in deal %(deal)s, trick %(trick)s"),
    "close": N_("%(player)s closed in deal %(deal)s, trick %(trick)s"),
    "close-before-draw": N_("%(player)s closed in deal %(deal)s, trick %(trick)s"),
    "66": N_("%(player)s claimed 66 in deal %(deal)s, trick %(trick)s"),
}
DECLARED: Final = N_(
    "%(player)s declared %(points)s with %(card)s in deal %(deal)s, trick %(trick)s"
)
RECORDED: Final = N_("Recorded %(actions)s in deal %(deal)s from trick %(trick)s")
TOOK_BACK: Final = N_("Took back %(actions)s in deal %(deal)s, trick %(trick)s")
STARTED: Final = N_("Deal %(deal)s started: %(dealer)s deals, turn-up %(turn_up)s")
QUICK: Final = N_("Deal %(deal)s entered as a result: %(winner)s wins %(points)s (%(reason)s)")
QUICK_DRAW: Final = N_("Deal %(deal)s entered as a result: drawn")
QUICK_CHANGED: Final = N_(
    "Result of deal %(deal)s changed: %(winner)s wins %(points)s (%(reason)s)"
)
QUICK_CHANGED_DRAW: Final = N_("Result of deal %(deal)s changed: drawn")
EDITED: Final = N_("Deal %(deal)s corrected")
IMPORTED: Final = N_("Deal %(deal)s imported from a record")
DELETED: Final = N_("Deal %(deal)s deleted")
RESULT_ENTERED: Final = N_("Match result entered: %(a)s %(a_points)s, %(b)s %(b_points)s")
RESULT_DELETED: Final = N_("Match result entered whole deleted")


def play_words(loaded: Loaded, index: int, added: Sequence[tuple[int, int, str]]) -> Message:
    """The words of actions recorded in deal ``index`` (before they were): who played which
    card, in which deal and trick."""
    state = loaded.deals[index].ruling
    player = state.state.to_move if state is not None and state.state is not None else None
    number = loaded.deals[index].deal.number
    tokens = [a[2] for a in added]
    trick = added[0][1] if added else 0
    if len(tokens) != 1 or player is None:
        return Message(RECORDED, actions=", ".join(tokens), deal=number, trick=trick)
    token = tokens[0]
    if token in ACTIONS_DONE:
        return Message(ACTIONS_DONE[token], player=player, deal=number, trick=trick)
    points, _, card = token.partition(" ")
    if points in ("20", "40") and card:
        return Message(DECLARED, player=player, points=points, card=card, deal=number, trick=trick)
    try:
        Card.parse(token)
    except NotationError:
        return Message(ACTED, player=player, actions=token, deal=number, trick=trick)
    return Message(PLAYED, player=player, card=token, deal=number, trick=trick)


def _quick_words(
    number: int, winner: str | None, points: int, reason: str, changed: bool
) -> Message:
    """The words of a deal entered (or changed) as a result."""
    if winner is None:
        return Message(QUICK_CHANGED_DRAW if changed else QUICK_DRAW, deal=number)
    template = QUICK_CHANGED if changed else QUICK
    return Message(template, deal=number, winner=winner, points=points, reason=Message(reason))


def now_line(deal: DealView | None, match_id: int) -> Message:
    """Where a match stands, in the words of the recorder's prompt, with its position."""
    if deal is None:
        return Message(
            N_("no deal of match %(match)s is started (position %(match)s.0:0)"), match=match_id
        )
    where = str(deal.position)
    if deal.to_move is not None:
        template = {
            "lead": N_("Trick %(trick)s: %(player)s to lead (position %(position)s)"),
            "follow": N_("Trick %(trick)s: %(player)s to follow (position %(position)s)"),
        }.get(deal.to_move_as or "")
        if template is None:
            return Message(
                N_("Trick %(trick)s: %(player)s to %(as)s (position %(position)s)"),
                trick=deal.trick,
                player=deal.to_move,
                position=where,
                **{"as": deal.to_move_as},
            )
        return Message(template, trick=deal.trick, player=deal.to_move, position=where)
    number = f"{deal.match_id}.{deal.number}"
    if deal.claimable:
        return Message(
            N_("every trick of deal %(deal)s is played (position %(position)s)"),
            deal=number,
            position=where,
        )
    return Message(N_("deal %(deal)s is over (position %(position)s)"), deal=number, position=where)


def grouped(actions: Sequence[tuple[int, int, str]]) -> Message:
    """Actions ``(seq, trick, token)`` as a scorer reads them: ``KS AS in trick 4 and 10C in
    trick 5``."""
    parts: list[tuple[int, list[str]]] = []
    for _seq, trick, token in actions:
        if parts and parts[-1][0] == trick:
            parts[-1][1].append(token)
        else:
            parts.append((trick, [token]))
    return Joined(
        AND,
        [
            Message(N_("%(actions)s in trick %(trick)s"), actions=" ".join(tokens), trick=trick)
            for trick, tokens in parts
        ],
    )


#: what another scorer did since a write was made (:func:`moved_message`), in its deal, or
#: (``_ELSEWHERE``) in another deal than the last
_RECORDED = N_("recorded %(actions)s")
_RECORDED_ELSEWHERE = N_("recorded %(actions)s in deal %(deal)s")
_UNDID = N_("undid %(n)s action(s)")
_UNDID_ELSEWHERE = N_("undid %(n)s action(s) in deal %(deal)s")
_STARTED = {
    (False, False): N_("started deal %(deal)s"),
    (True, False): N_("started deal %(deal)s (turn-up %(card)s)"),
    (False, True): N_("started deal %(deal)s and recorded %(actions)s"),
    (True, True): N_("started deal %(deal)s (turn-up %(card)s) and recorded %(actions)s"),
}
_MOVED = {
    ("deal", "back"): N_("deal %(deal)s has moved back"),
    ("deal", "changed"): N_("deal %(deal)s has changed"),
    ("deal", "on"): N_("deal %(deal)s has moved on"),
    ("match", "back"): N_("match %(match)s has moved back"),
    ("match", "changed"): N_("match %(match)s has changed"),
    ("match", "on"): N_("match %(match)s has moved on"),
}
#: what joins words in a list (``KS in trick 4 and 10C in trick 5``), and one thing done
#: after another (``started deal 1.2, then recorded KS in trick 1``)
AND: Final = N_(" and ")
THEN: Final = N_(", then ")


def _changed_in_deal(
    expected: Position, actions: Sequence[tuple[int, int, str]], deal: str, last: int
) -> Message | None:
    """What someone else did in the deal a write was made at, which is stored with ``actions``
    now (``last``: the match's last deal): recorded more, undid some, or undid the last and
    recorded another; None when it stands as expected."""
    elsewhere = last != expected.number
    if len(actions) > expected.actions:
        return Message(
            _RECORDED_ELSEWHERE if elsewhere else _RECORDED,
            actions=grouped(actions[expected.actions :]),
            deal=deal,
        )
    if len(actions) < expected.actions:
        return Message(
            _UNDID_ELSEWHERE if elsewhere else _UNDID, n=expected.actions - len(actions), deal=deal
        )
    if (
        actions
        and expected.last is not None
        and actions[-1][2] != expected.last
        and last == expected.number
    ):
        return Message(
            N_("undid %(last)s and recorded %(actions)s instead"),
            last=expected.last,
            actions=grouped(actions[-1:]),
        )
    return None


def moved_message(
    expected: Position,
    deals: Sequence[tuple[int, Sequence[tuple[int, int, str]], str | None]],
    now: DealView | None,
) -> Message:
    """Why a write made at ``expected`` is refused: what the other scorer did since.

    ``deals`` are the match's deals as stored now: ``(number, actions, turn-up)``.
    """
    m = expected.match_id
    by_number = {n: (actions, turn_up) for n, actions, turn_up in deals}
    last = deals[-1][0] if deals else 0
    done: list[Message] = []
    seen = by_number.get(expected.number)
    deal = f"{m}.{expected.number}"
    if expected.number and seen is None:
        done.append(Message(N_("deleted deal %(deal)s"), deal=deal))
    elif seen is not None:
        changed = _changed_in_deal(expected, seen[0], deal, last)
        if changed is not None:
            done.append(changed)
    for n in range(expected.number + 1, last + 1):
        actions, turn_up = by_number[n]
        done.append(
            Message(
                _STARTED[bool(turn_up), bool(actions)],
                deal=f"{m}.{n}",
                card=turn_up,
                actions=grouped(actions),
            )
        )
    verb = (
        "back"
        if seen is not None and len(seen[0]) < expected.actions and last == expected.number
        else "changed"
        if seen is not None and len(seen[0]) == expected.actions and last == expected.number
        else "on"
    )
    subject = Message(_MOVED["deal" if expected.number else "match", verb], deal=deal, match=m)
    return Message(
        N_("%(subject)s: someone else %(done)s; now %(now)s. Nothing was recorded"),
        subject=subject,
        done=Joined(THEN, done) if done else Message(N_("changed it")),
        now=now_line(now, m),
    )


def violation_message(
    text: str, violations: Sequence[ViolationView], deal: DealView, decided: bool
) -> Message:
    """What storing ``text`` would mean, in a referee's words: the rule broken and what
    follows (``"KD JC" would record a violation: Bert broke follow-suit in trick 2: Bert played
    9D to 10C while holding JC; the deal ends: Anna wins 3 game points (illegal play). Nothing
    was recorded``); the CLI and the pages word it (:func:`tally.i18n.worded`)."""
    broken = Joined(
        "; ",
        (
            Message(
                N_("%(player)s broke %(rule)s in trick %(trick)s: %(message)s"),
                player=v.player,
                rule=Message(v.rule),
                trick=v.trick,
                message=v.wording,
            )
            for v in violations
        ),
    )
    consequence = Message(
        N_("the deal ends: %(outcome)s")
        if decided
        else N_("an earlier violation decided the deal already: %(outcome)s"),
        outcome=ruling_message(deal.winner, deal.game_points, deal.reason),
    )
    return Message(
        N_(
            '"%(entry)s" would record a violation: %(broken)s; %(consequence)s. '
            "Nothing was recorded"
        ),
        entry=text,
        broken=broken,
        consequence=consequence,
    )


# --- recording play ---------------------------------------------------------------------------


def _candidates(conn: Connection, ids: Sequence[int]) -> list[Candidate]:
    """Players ``ids`` (in that order) with their aliases, as :mod:`tally.names` resolves
    among them (for claims: ``66@Eva``)."""
    rows = conn.execute(
        select(t.players.c.id, t.players.c.name)
        .where(t.players.c.id.in_(ids))
        .order_by(t.players.c.name_key)
    ).all()
    aliases = aliases_of(conn, ids)
    found = [Candidate(pid, name, tuple(aliases.get(pid, ()))) for pid, name in rows]
    found.sort(key=lambda c: list(ids).index(c.id or 0))
    return found


def position_of(loaded: Loaded) -> Position:
    """Where a match stands: its last deal after its actions, with the last action."""
    last = loaded.deals[-1].deal if loaded.deals else None
    return Position(
        loaded.match.id,
        last.number if last else 0,
        len(last.actions) if last else 0,
        last.actions[-1][2] if last and last.actions else None,
    )


def check_position(loaded: Loaded, expect: Position | str | None) -> None:
    """Refuse (:class:`DealMoved`) a write made at ``expect`` when the match has moved
    since: another scorer recorded, undid, started or deleted something in between."""
    if expect is None:
        return
    want = Position.parse(expect) if isinstance(expect, str) else expect
    m = loaded.match
    if want.match_id != m.id:
        raise Refused(
            Message(
                N_("position %(position)s is in match %(match)s, not in match %(id)s"),
                position=str(want),
                match=want.match_id,
                id=m.id,
            )
        )
    now = position_of(loaded)
    if now == want and (want.last is None or want.last == now.last):
        return
    view = view_of_deal(loaded, len(loaded.deals) - 1, False) if loaded.deals else None
    raise DealMoved(
        moved_message(
            want, [(d.deal.number, d.deal.actions, d.deal.turn_up) for d in loaded.deals], view
        ),
        str(now),
    )


def check_tap(
    conn: Connection,
    loaded: Loaded,
    tap: Tap | None,
    expect: Position | str | None,
    writer: Database | None = None,
) -> None:
    """Refuse a tap stored already (:class:`AlreadyRecorded`: a resend), then a write into a
    match that is over for the ``writer`` (:func:`tally.store.over.check_open`; None: only
    reading), then a write made where the match no longer is (:func:`check_position`): at
    ``expect``, or, for a tap made while the one before it waited on the phone
    (``tap.after``), where that one left the match. Run after the match is locked, so that of
    two sendings of a tap one is stored."""
    if tap is not None and _tap_row(conn, tap.id) is not None:
        raise AlreadyRecorded(Message(ALREADY_RECORDED))
    if writer is not None:
        check_open(conn, loaded, writer.table)
    if tap is not None and tap.after is not None:
        row = _tap_row(conn, tap.after)
        if row is None or row[0] != loaded.match.id:
            raise DealMoved(Message(BEFORE_NOT_RECORDED), str(position_of(loaded)))
        expect = replace(Position.parse(row[1]), last=row[2])
    check_position(loaded, expect)


_TAP_ROW = select(
    t.recorded_taps.c.match_id, t.recorded_taps.c.position, t.recorded_taps.c.last
).where(t.recorded_taps.c.tap == bindparam("tap"))
_INSERT_TAP = insert(t.recorded_taps)


def _tap_row(conn: Connection, tap: str) -> tuple[int, str, str | None] | None:
    """A stored tap: its match, where it left the match and the last action then."""
    row = conn.execute(_TAP_ROW, {"tap": tap}).first()
    return None if row is None else (int(row[0]), str(row[1]), row[2])


def remember_tap(conn: Connection, tap: Tap | None, after: Loaded) -> None:
    """Keep ``tap`` as stored, with where it left the match (``after``), in the transaction
    of its change."""
    if tap is None:
        return
    now = position_of(after)
    conn.execute(
        _INSERT_TAP,
        {
            "tap": tap.id,
            "match_id": now.match_id,
            "position": str(now),
            "last": now.last,
            "at": utc_now(),
        },
    )


#: what may be typed in a deal as it stands, by the deal's ruling key
#: (:func:`tally.store.derivation.ruling_key`): worked out once for each position of a deal,
#: whoever asks (the table page after a tap, a reload, the other phone)
LEGAL: BoundedCache[tuple[Any, ...], tuple[str, ...]] = BoundedCache(1024)


def legal_now(loaded: Loaded, index: int) -> list[str]:
    """:meth:`Deals.legal_tokens` of deal ``index`` of ``loaded`` (its last deal)."""
    d = loaded.deals[index]
    key = ruling_key(loaded.match, d.deal, d.dealer, d.forehand, d.carry_in)
    return list(LEGAL.get(key, lambda: tuple(_legal(loaded, index))))


def _candidates_now(loaded: Loaded, index: int) -> list[str]:
    """The tokens that might be typed in deal ``index`` as it stands: every card not played
    yet, each marriage at its worth (40 in trumps) shown with a card not played yet, and the
    other actions. (A card played already, or a marriage at the wrong worth, is no real deal:
    the engine refuses it, so it is not asked.)"""
    d = loaded.deals[index]
    assert d.record is not None
    gone = {int(item.card) for _, item in flatten(d.record) if isinstance(item, CardItem)}
    trump = Card.parse(d.deal.turn_up) // 6 if d.deal.turn_up else None
    cards = [
        c
        for c in CARDS
        if (loaded.match.rules.deck == 24 or c.rank != Rank.NINE) and int(c) not in gone
    ]
    candidates = ["swap", "close", "close-before-draw", "66"]
    for c in cards:
        if c.rank in (Rank.KING, Rank.QUEEN):
            worths = (20, 40) if trump is None else (marriage_value(c, trump),)
            candidates += [f"{worth} {c}" for worth in worths]
    return candidates + [str(c) for c in cards]


def _legal(loaded: Loaded, index: int) -> list[str]:
    """The tokens the engine accepts in deal ``index`` without proving a violation. The deal
    is replayed once; each card is tried on a copy of it (:func:`rule_next_card`), the other
    actions (a few) on the whole record."""
    d = loaded.deals[index]
    assert d.ruling is not None and d.record is not None
    deal = d.ruling.state
    if deal is None or (deal.is_over and not (deal.all_tricks_played and not deal.claimed)):
        return []
    tagged = any(tag in d.record.tags for tag in ("Hands", "Remaining", "Result"))
    replayed = None if tagged else rule_replayed(d.record)[1]
    before = len(d.ruling.violations)
    out = []
    for token in _candidates_now(loaded, index):
        if replayed is not None and " " not in token and token not in ACTION_WORDS:
            ruling = rule_next_card(d.record, replayed, Card.parse(token))
            fits = ruling is not None and not ruling.errors and ruling.outcome is not None
        else:
            ruling = _ruling_after(loaded, index, token)
            fits = ruling is not None
        if fits and ruling is not None and len(ruling.violations) == before:
            out.append(token)
    return out


#: the tokens of what may be tapped that are not cards
ACTION_WORDS = ("swap", "close", "close-before-draw", "66")


def _ruling_after(loaded: Loaded, index: int, token: str) -> Ruling | None:
    """The ruling on deal ``index`` (the last) with ``token`` added (the whole record ruled
    again, :func:`tried_ruling`); None when the record would be impossible."""
    try:
        changed, _ = _appended(loaded, index, parse_items(token))
    except TallyError:
        return None
    return tried_ruling(loaded, changed)


_DEAL_ROWS = select(t.deals.c.match_id, t.deals.c.number, t.deals.c.kind, t.deals.c.id)
_DEAL_ROW = _DEAL_ROWS.where(t.deals.c.id == bindparam("d"))
_LAST_DEAL_ROW = (
    _DEAL_ROWS.where(t.deals.c.match_id == bindparam("m"))
    .order_by(t.deals.c.number.desc())
    .limit(1)
)


def _deal_row(conn: Connection, deal_id: int | LastDeal) -> tuple[int, int, str, int]:
    """The match, number, kind and id of deal ``deal_id`` (or of a match's last deal), in one
    query; refused when there is no such deal."""
    if isinstance(deal_id, LastDeal):
        row = conn.execute(_LAST_DEAL_ROW, {"m": deal_id.match_id}).first()
        if row is None:
            load_match(conn, deal_id.match_id)  # a match that is not stored is "not found"
            raise Refused(
                Message(
                    N_("match %(match)s has no deal yet: start one %(advice)s"),
                    match=deal_id.match_id,
                    advice=Advice(
                        N_("with `tally deal start %(match)s TURNUP`"),
                        page=ON_THE_MATCH_PAGE,
                        match=deal_id.match_id,
                    ),
                )
            )
    else:
        row = conn.execute(_DEAL_ROW, {"d": deal_id}).first()
        if row is None:
            raise NotFound(Message(NO_SUCH_DEAL, deal=deal_id))
    return row[0], row[1], row[2], row[3]


def _open_deal(
    conn: Connection,
    deal_id: int | LastDeal,
    expect: Position | str | None,
    lock: bool = True,
    tap: Tap | None = None,
    writer: Database | None = None,
) -> tuple[Loaded, int]:
    """Load (and lock) the match of a deal that actions may be added to (or undone),
    refused when it is over for the ``writer`` (None: only reading) or not where the scorer
    saw it (``expect``, :func:`check_tap`)."""
    match_id, number, kind, found = _deal_row(conn, deal_id)
    loaded = load_derived(conn, match_id, lock=lock)
    check_tap(conn, loaded, tap, expect, writer)
    index = loaded.index(found)
    name = f"{match_id}.{number}"
    if kind == "quick":
        raise Refused(
            Message(
                N_(
                    "deal %(deal)s was entered as a result (quick entry): it has no record "
                    "to add to or undo"
                ),
                deal=name,
            )
        )
    if index != len(loaded.deals) - 1:
        raise Refused(
            Message(
                N_(
                    "deal %(match)s.%(number)s is not the last deal of match %(match)s: "
                    "correct it %(advice)s"
                ),
                match=match_id,
                number=number,
                advice=Advice(
                    N_("with `tally deal edit %(deal)s`"), page=ON_THE_MATCH_PAGE, deal=deal_id
                ),
            )
        )
    return loaded, index


def _appended(
    loaded: Loaded, index: int, items: Sequence[ScorerItem]
) -> tuple[StoredDeal, list[tuple[int, int, str]]]:
    """The last deal with ``items`` placed after its actions, and the actions added."""
    d = loaded.deals[index]
    assert d.record is not None
    items = claimers_known(items, loaded.match.players)
    record = place_items(d.record, items, loaded.match.rules)
    old = flatten(d.record)
    last = d.deal.actions[-1][0] if d.deal.actions else 0
    added = [
        (last + i, trick, str(item))
        for i, (trick, item) in enumerate(flatten(record)[len(old) :], start=1)
    ]
    return replace(d.deal, actions=[*d.deal.actions, *added]), added


def _after_play(loaded: Loaded, changed: StoredDeal, text: str) -> Loaded:
    """The match with its last deal changed; refused when the record would be impossible."""
    try:
        return rederive_last(loaded, changed)
    except BadRecord as exc:
        raise RecordError(Message(REFUSED_ENTRY, entry=text, message=exc.record_error)) from None


def _played(
    loaded: Loaded,
    after: Loaded,
    index: int,
    ruling_before: Ruling,
    referee: bool,
    tokens: tuple[str, ...],
) -> PlayResult:
    """What a change to the last deal does: new violations, a new ruling."""
    ruling = after.deals[index].ruling
    assert ruling is not None and ruling.outcome is not None
    seen = {(v.seq, v.player, v.rule) for v in ruling_before.violations}
    new_violations = tuple(
        ViolationView(v.trick, v.player, v.rule, v.message, v.wording)
        for v in ruling.violations
        if (v.seq, v.player, v.rule) not in seen
    )
    o0 = ruling_before.outcome
    changed_outcome = ruling.outcome.reason != "incomplete" and (o0 is None or o0 != ruling.outcome)
    match = view_of_match(after)  # its last deal laid out on the table: the deal changed
    return PlayResult(
        deal=view_of_deal(after, index, True, table=True) if referee else match.deals[index],
        match=match,
        tokens=tokens,
        new_violations=new_violations,
        ruling_changed=changed_outcome,
    )


def _store_played(
    store: Database,
    conn: Connection,
    loaded: Loaded,
    after: Loaded,
    index: int,
    changed: StoredDeal,
    command: str,
    what: str,
    words: Message,
) -> None:
    """Rewrite the cached result of the changed last deal and audit the change."""
    save_results(conn, after, last_only=True)
    old = loaded.deals[index].deal
    Audit(store).write(
        conn,
        command,
        "deal",
        changed.id,
        f"deal {loaded.match.id}.{changed.number}: {what}",
        {f"deal:{changed.id}": deal_snapshot(old)},
        {f"deal:{changed.id}": deal_snapshot(changed)},
        words=words,
    )


def _items_of(text: str) -> list[ScorerItem]:
    """The items typed (``"KS AS"``), refused when there is none."""
    items = parse_items(text)
    if not items:
        raise Refused(N_("nothing to record: give cards or actions (KS, swap, 20 QC, close, 66)"))
    return items


def _preview(
    conn: Connection,
    deal_id: int | LastDeal,
    text: str,
    items: Sequence[ScorerItem],
    *,
    referee: bool = False,
    expect: Position | str | None = None,
    lock: bool = True,
    tap: Tap | None = None,
    writer: Database | None = None,
) -> tuple[Loaded, Loaded, StoredDeal, list[tuple[int, int, str]], PlayResult]:
    """What recording ``items`` (typed as ``text``) would do, storing nothing: the match before
    and after, the deal changed, the actions added and the result to tell (refused when the
    match is over for the ``writer``)."""
    loaded, index = _open_deal(conn, deal_id, expect, lock=lock, tap=tap, writer=writer)
    d = loaded.deals[index]
    assert d.ruling is not None
    m = loaded.match
    named = any(isinstance(i, ClaimItem) and i.player is not None for i in items)
    known = claimers_known(items, _candidates(conn, [m.a_id, m.b_id])) if named else list(items)
    changed, added = _appended(loaded, index, known)
    after = _after_play(loaded, changed, text)
    result = _played(loaded, after, index, d.ruling, referee, tuple(a[2] for a in added))
    return loaded, after, changed, added, result


# --- deals started, entered from paper, imported, corrected ----------------------------------


def _context_tags(conn: Connection, match: MatchRow) -> dict[str, str]:
    """``Event``, ``Date``, ``Round`` and ``Table`` of a match made in an event (none for a
    match of its own)."""
    if match.event_id is None:
        return {}
    row = conn.execute(
        select(t.events.c.name, t.events.c.held_on).where(t.events.c.id == match.event_id)
    ).first()
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


def _replace_deal(
    store: Database,
    conn: Connection,
    loaded: Loaded,
    index: int,
    new: StoredDeal,
    command: str,
    summary: str,
    words: Message,
) -> DealView | None:
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
    check_kept_in_turn(conn, after)
    save_results(conn, after)
    Audit(store).write(
        conn,
        command,
        "deal",
        old.id,
        summary,
        {f"deal:{old.id}": deal_snapshot(old)},
        {f"deal:{old.id}": deal_snapshot(new)},
        words=words,
    )
    return view_of_deal(after, index, False)


def _next_number(store: Database, loaded: Loaded, source: str = "") -> int:
    s = loaded.state
    said: Message | None = None
    if s.over:
        a, b = loaded.match.players
        said = Message(
            N_("match %(match)s is over: %(winner)s won %(score)s (%(a)s-%(b)s); no more deals"),
            match=loaded.match.id,
            winner=s.winner,
            score=f"{s.score[a]}-{s.score[b]}",
            a=a,
            b=b,
        )
    elif s.in_progress:
        last = loaded.deals[-1].deal
        said = Message(
            N_("deal %(deal)s is not finished: record the rest of it (or undo or delete it) first"),
            deal=f"{loaded.match.id}.{last.number}",
        )
    if said is not None:
        raise Refused(Message(HEADED, head=source, message=said) if source else said)
    return len(loaded.deals) + 1


def _refuse_other_seats(
    tags: Mapping[str, str],
    canonical: Callable[[str], str],
    m: MatchRow,
    *,
    number: int,
    seats: tuple[str, str],
    within: Message,
) -> None:
    """Refuse a record whose ``Dealer`` or ``Forehand`` tag names someone not in match ``m``,
    or not the player who deals (or leads) deal ``number`` there (``seats``: dealer,
    forehand)."""
    dealer, forehand = seats
    for tag, want in (("Dealer", dealer), ("Forehand", forehand)):
        given = tags.get(tag)
        if given is None:
            continue  # the ruling below reports the missing tag
        if canonical(given) not in m.players:
            raise Refused(
                within.with_values(
                    message=Message(
                        N_(
                            '%(tag)s "%(given)s" does not play in match %(match)s '
                            "(%(a)s and %(b)s do)"
                        ),
                        tag=tag,
                        given=given,
                        match=m.id,
                        a=m.a,
                        b=m.b,
                    )
                )
            )
        if canonical(given) != want:
            raise Refused(
                within.with_values(
                    message=Message(
                        N_(
                            "%(tag)s is %(given)s, but in match %(match)s deal %(number)s is "
                            "dealt by %(dealer)s with %(forehand)s forehand"
                        ),
                        tag=tag,
                        given=given,
                        match=m.id,
                        number=number,
                        dealer=dealer,
                        forehand=forehand,
                    )
                )
            )


def _fitted(
    store: Database,
    loaded: Loaded,
    record: DealRecord,
    within: Message,
    deal: StoredDeal,
    index: int | None = None,
) -> StoredDeal:
    """``deal`` with the stored form of ``record``, once the record fits the match at
    ``index`` (the next deal by default) and has no record errors; refused in the words
    ``within`` (what the record is: a wrapper without its message)."""
    m = loaded.match
    before = loaded.deals if index is None else loaded.deals[:index]
    state = score_match(m.rules, m.players, m.name(m.first_dealer_id), [d.result for d in before])
    dealer = state.next_dealer or m.a
    forehand = m.b if dealer == m.a else m.a
    tags = record.tags
    try:
        rules = RuleSet.parse(tags.get("Rules", ""))
    except RulesError as exc:
        raise RecordError(within.with_values(message=exc.wording)) from None
    if rules != m.rules:
        raise Refused(
            within.with_values(
                message=Message(
                    N_('the record is played under "%(record)s", the match under "%(match)s"'),
                    record=rules.spec,
                    match=m.spec,
                )
            )
        )
    canonical = name_matcher(m.players)
    _refuse_other_seats(
        tags, canonical, m, number=deal.number, seats=(dealer, forehand), within=within
    )
    if "Carry" in tags and tags["Carry"].strip() != str(state.carry):
        raise Refused(
            within.with_values(
                message=Message(
                    N_(
                        'Carry is "%(given)s", but the deals before it carry %(carry)s (the '
                        "carry is worked out from them)"
                    ),
                    given=tags["Carry"],
                    carry=state.carry,
                )
            )
        )
    fixed = rename_in_record(record, canonical)
    fixed.tags["Rules"] = m.spec
    fixed.tags["Carry"] = str(state.carry)
    ruling = rule(fixed)
    if ruling.errors:
        raise RecordError(within.with_values(message=ruling.errors[0].said))
    turn_up, extra, actions = stored_form(fixed)
    return replace(deal, turn_up=turn_up, tags=extra, actions=actions)


def _insert_deal(store: Database, conn: Connection, deal: StoredDeal) -> None:
    """Insert a new deal and its actions; ``deal.id`` is set to the new row's id."""
    deal.id = put_deal_row(conn, replace(deal, id=0), new=True)
    insert_actions(conn, deal.id, deal.actions)


def _result_lines(
    conn: Connection, m: MatchRow, pair: tuple[int, int], winner: str | None
) -> tuple[list[StoredDeal], tuple[int, int]]:
    """The lines of a match result entered whole (new deals, ids 0) and the score in the
    match's order, checked as :meth:`Deals.match_result` checks it."""
    match_id = m.id
    named: str | None = None
    if winner is not None:
        named = resolve_in_match(conn, winner, [m.a_id, m.b_id], Message(IN_MATCH, match=match_id))[
            "name"
        ]
        pair = pair if named == m.a else (pair[1], pair[0])
    place = check_match_result(m.rules, pair)
    if named is not None and m.players[place] != named:
        raise Refused(
            Message(
                N_(
                    "%(name)s has %(points)s game points, fewer than the match target "
                    "%(target)s: with a winner named, the winner's game points come first (7:3)"
                ),
                name=named,
                points=pair[1 - place],
                target=m.rules.match_target,
            )
        )
    deals = [
        StoredDeal(
            0,
            match_id,
            number,
            "quick",
            None,
            m.player_id(str(line.winner)),
            line.deal_points,
            MATCH_RESULT,
            {},
            utc_now(),
        )
        for number, line in enumerate(match_result_lines(m.players, pair), start=1)
    ]
    return deals, pair


def _refuse_unconfirmed(text: str, result: PlayResult, ruling: Ruling) -> None:
    """Refuse ``text``, which proves a violation (``result.new_violations``), until someone
    confirms it happened at the table: the rule broken and the ruling it would bring
    (``decided``: whether it ends or changes the deal's ruling, the deal being ``ruling``
    before)."""
    decided = (
        ruling.outcome is None or ruling.outcome.reason == "incomplete" or result.ruling_changed
    )
    wording = violation_message(text, result.new_violations, result.deal, decided)
    raise ViolationNotConfirmed(
        wording,
        result.new_violations,
        ruling_message(result.deal.winner, result.deal.game_points, result.deal.reason),
        decided,
        entry=text,
        deal=result.deal,
    )


def _rewrite_result_lines(
    store: Database, conn: Connection, old: list[StoredDeal], new: list[StoredDeal]
) -> None:
    """Store a match result's corrected lines ``new`` in place of ``old``: kept lines
    rewritten, new ones added, lines no longer needed deleted with their results."""
    for deal in new:
        if deal.id:
            write_deal_row(conn, deal)
        else:
            _insert_deal(store, conn, deal)
    for deal in old[len(new) :]:
        conn.execute(DELETE_DEAL_RESULT, {"d": deal.id})
        conn.execute(delete(t.deals).where(t.deals.c.id == deal.id))


class Deals:
    """The deals of a match: started with a turn-up, recorded action by action (checked by the
    engine), undone, entered as results, imported and exported as ``.deal`` records, edited,
    deleted. Reached as ``store.deals``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def play(
        self,
        deal_id: int | LastDeal,
        tokens: str | Sequence[str],
        *,
        referee: bool = False,
        as_played: bool = False,
        expect: Position | str | None = None,
        tap: Tap | None = None,
    ) -> PlayResult:
        """Record actions (``"KS AS"``, ``"20 QC"``, ``"close"``, ``"66"``) in a deal.

        Refused with the engine's reason, storing nothing, when the record would then describe
        no real deal (RULES.md section 11). An action that would prove a violation is refused
        with :class:`~tally.errors.ViolationNotConfirmed` (the rule broken and the ruling it
        would bring) unless ``as_played``: it is stored only once someone confirms it happened
        at the table. ``expect`` is where the scorer saw the deal (``DealView.position``);
        when given, the write is refused with :class:`~tally.errors.DealMoved` if another
        scorer recorded or undid anything since. ``close`` at the lead is a close after the
        draws, ``close-before-draw`` one before them (:func:`place_items`). ``tap``: the id a
        page gave this change (:class:`~tally.store.views.Tap`): stored once, a resend is
        refused with :class:`~tally.errors.AlreadyRecorded` (every write of a deal takes it).
        ``deal_id`` may be :class:`~tally.store.views.LastDeal`: the match's last deal, found
        in the same transaction (a table's phone records into the deal being played)."""
        text = tokens if isinstance(tokens, str) else " ".join(tokens)
        items = _items_of(text)
        with self.store.writing() as conn:
            loaded, after, changed, added, result = _preview(
                conn,
                deal_id,
                text,
                items,
                referee=referee,
                expect=expect,
                tap=tap,
                writer=self.store,
            )
            index = len(loaded.deals) - 1
            ruling = loaded.deals[index].ruling
            assert ruling is not None
            if result.new_violations and not as_played:
                _refuse_unconfirmed(text, result, ruling)
            _store_played(
                self.store,
                conn,
                loaded,
                after,
                index,
                changed,
                "deal play",
                f"played {' '.join(a[2] for a in added)}",
                play_words(loaded, index, added),
            )
            insert_actions(conn, changed.id, added)
            remember_tap(conn, tap, after)
        return result

    def preview(
        self, deal_id: int, tokens: str | Sequence[str], *, referee: bool = False
    ) -> PlayResult:
        """What ``store.deals.play`` would do with ``tokens``, storing nothing:
        the same refusals for an impossible record, and the violations it would prove
        (``new_violations``) and the ruling it would bring, for a scorer to confirm before
        recording."""
        text = tokens if isinstance(tokens, str) else " ".join(tokens)
        items = _items_of(text)
        with self.store.reading() as conn:
            *_, result = _preview(conn, deal_id, text, items, referee=referee, lock=False)
        return result

    def id_of(self, ref: str | int) -> int:
        """The id of a deal given as its id (``"17"``) or as ``"MATCH.NUMBER"`` (``"3.2"``)."""
        with self.store.reading() as conn:
            return resolve_deal(conn, ref)

    def recorded(self, tap: str) -> bool:
        """Whether the tap of this id is stored (a page sending it again)."""
        with self.store.reading() as conn:
            return _tap_row(conn, tap) is not None

    def current(self, match_id: int) -> int:
        """The deal of a match that play is recorded into: its last deal."""
        with self.store.reading() as conn:
            load_match(conn, match_id)
            row = conn.execute(
                select(t.deals.c.id)
                .where(t.deals.c.match_id == match_id)
                .order_by(t.deals.c.number.desc())
                .limit(1)
            ).first()
        if row is None:
            raise Refused(Message(NO_DEAL_YET, match=match_id))
        return int(row[0])

    def start(
        self,
        match_id: int,
        turn_up: str,
        *,
        expect: Position | str | None = None,
        tap: Tap | None = None,
    ) -> DealView:
        """Start the next deal of a match with its turn-up; the dealer follows the rules.

        ``expect``: where the scorer saw the match (:class:`~tally.store.views.Position`,
        e.g. ``MatchView.position``); refused with :class:`~tally.errors.DealMoved` when
        another scorer has changed it since."""
        try:
            card = Card.parse(turn_up)
        except NotationError as exc:
            raise NotationError(Message(TURN_UP, message=exc.bare)) from None
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_tap(conn, loaded, tap, expect, self.store)
            number = _next_number(self.store, loaded)
            deal = StoredDeal(
                0, match_id, number, "recorded", str(card), None, None, None, {}, utc_now()
            )
            try:
                after = derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
            except BadRecord as exc:
                raise RecordError(Message(TURN_UP, message=exc.record_error)) from None
            _insert_deal(self.store, conn, deal)
            save_results(conn, after, last_only=True)
            remember_tap(conn, tap, after)
            view = view_of_deal(after, len(after.deals) - 1, False)
            Audit(self.store).write(
                conn,
                "deal start",
                "deal",
                deal.id,
                f"started deal {match_id}.{number}: turn-up {card}, {view.dealer} deals",
                {f"deal:{deal.id}": None},
                {f"deal:{deal.id}": deal_snapshot(deal)},
                words=Message(STARTED, deal=number, dealer=view.dealer, turn_up=str(card)),
            )
        return view

    def legal_tokens(self, deal_id: int) -> list[str]:
        """What may be typed now in a deal being recorded, as far as the record shows:
        each card, ``swap``, marriage (``20 QC``), ``close``, ``close-before-draw`` and claim
        that the engine would accept without proving a violation. Cards a player holds are
        unknown, so a card listed may still turn out to be a revoke later."""
        with self.store.reading() as conn:
            loaded, index = _open_deal(conn, deal_id, None, lock=False)
        return legal_now(loaded, index)

    def undo(
        self,
        deal_id: int | LastDeal,
        *,
        referee: bool = False,
        expect: Position | str | None = None,
        tap: Tap | None = None,
    ) -> PlayResult:
        """Remove the last action recorded in a deal (the last deal of its match).

        ``expect`` as for ``store.deals.play``: refused when the deal moved
        since the scorer saw it."""
        with self.store.writing() as conn:
            loaded, index = _open_deal(conn, deal_id, expect, tap=tap, writer=self.store)
            d = loaded.deals[index]
            assert d.ruling is not None
            if not d.deal.actions:
                raise Refused(
                    Message(
                        N_("deal %(match)s.%(number)s has no action to undo%(advice)s"),
                        match=loaded.match.id,
                        number=d.deal.number,
                        advice=Advice(
                            N_(" (to remove the deal itself: `tally deal delete %(deal)s`)"),
                            deal=d.deal.id,
                        ),
                    )
                )
            seq, _trick, token = d.deal.actions[-1]
            conn.execute(
                delete(t.actions).where(
                    (t.actions.c.deal_id == d.deal.id) & (t.actions.c.seq == seq)
                )
            )
            changed = replace(d.deal, actions=d.deal.actions[:-1])
            after = rederive_last(loaded, changed)
            result = _played(loaded, after, index, d.ruling, referee, (token,))
            words = Message(TOOK_BACK, actions=token, deal=d.deal.number, trick=_trick)
            _store_played(
                self.store,
                conn,
                loaded,
                after,
                index,
                changed,
                "deal undo",
                f"undid {token}",
                words,
            )
            remember_tap(conn, tap, after)
        return result

    def quick_result(
        self,
        match_id: int,
        *,
        winner: str | None,
        points: int,
        reason: str = "claim",
        expect: Position | str | None = None,
        tap: Tap | None = None,
    ) -> DealView:
        """Enter a deal's result without its record: ``winner`` None for a draw.

        ``points`` are the deal's game points without the carry; they are checked against the
        rule set (:func:`tally.engine.match.check_quick_result`). ``expect`` and ``tap`` as
        for :meth:`start`."""
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_tap(conn, loaded, tap, expect, self.store)
            m = loaded.match
            winner_id: int | None = None
            winner_name: str | None = None
            if winner is not None:
                winner_name = resolve_in_match(
                    conn, winner, [m.a_id, m.b_id], Message(IN_MATCH, match=match_id)
                )["name"]
                winner_id = m.player_id(winner_name)
            check_quick_result(m.rules, winner_name, points, reason)
            number = _next_number(self.store, loaded)
            deal = StoredDeal(
                0, match_id, number, "quick", None, winner_id, points, reason, {}, utc_now()
            )
            after = derive(m, [*(d.deal for d in loaded.deals), deal])
            _insert_deal(self.store, conn, deal)
            save_results(conn, after, last_only=True)
            remember_tap(conn, tap, after)
            view = view_of_deal(after, len(after.deals) - 1, False)
            Audit(self.store).write(
                conn,
                "deal quick",
                "deal",
                deal.id,
                f"entered deal {match_id}.{number} as a result: "
                + (f"{winner_name} {points} ({reason})" if winner_name else "draw"),
                {f"deal:{deal.id}": None},
                {f"deal:{deal.id}": deal_snapshot(deal)},
                words=_quick_words(number, winner_name, points, reason, False),
            )
        return view

    def match_result(
        self,
        match_id: int,
        score: str | tuple[int, int],
        *,
        winner: str | None = None,
        tap: Tap | None = None,
    ) -> MatchView:
        """Enter a match's whole result, kept on paper, instead of its deals: ``score`` the
        players' game points in the match's order (``"7:3"`` or ``(7, 3)``); with ``winner``
        (a name as ``store.deals.quick_result`` takes it) the winner's points come first.

        Checked against the rule set (:func:`tally.engine.match.check_match_result`: the winner has
        reached the match target, the loser has not) and refused for a match that has deals
        already. Stored as the match's lines of its players' game points (quick entries with
        the reason :data:`tally.engine.match.MATCH_RESULT`, the loser's first), so the result cache,
        standings, tiebreaks and ratings take it as they take deals; one audit entry, which
        ``store.audit.reverse`` takes back, as ``store.deals.delete`` of either line does.
        ``tap`` as for :meth:`start`: a result sent again is stored once."""
        pair = read_score(score) if isinstance(score, str) else score
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_tap(conn, loaded, tap, None, self.store)
            m = loaded.match
            if loaded.deals:
                a, b = m.players
                raise Refused(
                    Message(
                        N_(
                            "match %(match)s has %(n)s deal(s) already (%(a)s %(score_a)s, "
                            "%(b)s %(score_b)s): a match result is entered for a match with no "
                            "deals (delete its deals first, or enter the rest deal by deal)"
                        ),
                        match=match_id,
                        n=len(loaded.deals),
                        a=a,
                        score_a=loaded.state.score[a],
                        b=b,
                        score_b=loaded.state.score[b],
                    )
                )
            deals, pair = _result_lines(conn, m, pair, winner)
            after = derive(m, deals)
            for deal in deals:
                _insert_deal(self.store, conn, deal)
            save_results(conn, after)
            remember_tap(conn, tap, after)
            Audit(self.store).write(
                conn,
                "match result",
                "match",
                match_id,
                f"entered the result of match {match_id}: {m.a} {pair[0]}, {m.b} {pair[1]}",
                {f"deal:{d.id}": None for d in deals},
                {f"deal:{d.id}": deal_snapshot(d) for d in deals},
                words=Message(RESULT_ENTERED, a=m.a, a_points=pair[0], b=m.b, b_points=pair[1]),
            )
        return view_of_match(after)

    def edit_match_result(
        self,
        match_id: int,
        score: str | tuple[int, int],
        *,
        winner: str | None = None,
        expect: str | None = None,
    ) -> MatchView | None:
        """Correct a match's result entered whole (:meth:`match_result`): ``score`` and
        ``winner`` as it takes them, checked the same way; its lines are rewritten in place
        (one audit entry, reversible). None when nothing changed. Refused for a match
        recorded deal by deal (correct its deals) and, with ``expect`` (the mark of the
        question: ``store.consequences.match_result_correction``), when the match changed
        since the question was shown."""
        pair = read_score(score) if isinstance(score, str) else score
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_mark(loaded, expect)
            m = loaded.match
            old = [d.deal for d in loaded.deals]
            if not old or any(d.quick_reason != MATCH_RESULT for d in old):
                raise Refused(
                    Message(
                        N_(
                            "match %(match)s has no result entered whole: enter its result, or "
                            "correct its deals one by one"
                        ),
                        match=match_id,
                    )
                )
            lines, pair = _result_lines(conn, m, pair, winner)
            new = [
                replace(old[i], quick_winner_id=d.quick_winner_id, quick_points=d.quick_points)
                if i < len(old)
                else d
                for i, d in enumerate(lines)
            ]
            if [deal_snapshot(d) for d in new] == [deal_snapshot(d) for d in old]:
                return None
            after = derive(m, new)
            _rewrite_result_lines(self.store, conn, old, new)
            save_results(conn, after)
            kept = {d.id for d in old}
            Audit(self.store).write(
                conn,
                "match result edit",
                "match",
                match_id,
                f"corrected the result of match {match_id}: {m.a} {pair[0]}, {m.b} {pair[1]}",
                {f"deal:{d.id}": deal_snapshot(d) for d in old}
                | {f"deal:{d.id}": None for d in new if d.id not in kept},
                {f"deal:{d.id}": deal_snapshot(d) for d in new}
                | {f"deal:{d.id}": None for d in old[len(new) :]},
            )
        return view_of_match(after)

    def enter_results(self, match_id: int, results: Sequence[tuple[str | None, int, str]]) -> None:
        """Enter results kept on paper, ``(winner, points, reason)`` in order, as an event file
        lists them: each deal's as :meth:`Deals.quick_result` does, and the lines of a match result
        entered whole (reason :data:`~tally.engine.match.MATCH_RESULT`, the winner's last) together
        as :meth:`Deals.match_result` does."""
        whole = [r for r in results if r[2] == MATCH_RESULT]
        for winner, points, reason in results:
            if reason != MATCH_RESULT:
                self.quick_result(match_id, winner=winner, points=points, reason=reason)
        if whole:
            with self.store.reading() as conn:
                m = load_match(conn, match_id)
                named = [
                    None
                    if w is None
                    else resolve_in_match(
                        conn, w, [m.a_id, m.b_id], Message(IN_MATCH, match=match_id)
                    )["name"]
                    for w, _points, _why in whole
                ]
            a, b = m.a, m.b
            if len(named) > 2 or len(set(named)) < len(named) or None in named:
                raise Refused(
                    Message(
                        N_(
                            "match %(match)s: a match result is the loser's game points (left "
                            "out when 0), then the winner's, each naming its player (%(a)s and "
                            "%(b)s play)"
                        ),
                        match=match_id,
                        a=a,
                        b=b,
                    )
                )
            self.match_result(
                match_id, (whole[-1][1], sum(r[1] for r in whole[:-1])), winner=named[-1]
            )

    def edit_quick_result(
        self,
        deal_id: int,
        *,
        winner: str | None,
        points: int,
        reason: str = "claim",
        expect: str | None = None,
    ) -> DealView | None:
        """Change a deal entered as a result (quick entry): its winner (None: a draw), game
        points and reason, checked as :meth:`Deals.quick_result` checks a new one; the deals
        after it are rescored. Audited and reversible; None when nothing changed. A recorded
        deal is corrected through its record (:meth:`Deals.edit`) instead. ``expect``: the
        mark of the question this correction was asked with
        (``store.consequences.quick_correction``), refused when the match changed since."""
        with self.store.writing() as conn:
            loaded, index = load_deal(conn, deal_id, lock=True)
            check_mark(loaded, expect)
            m, old = loaded.match, loaded.deals[index].deal
            if old.kind == "quick" and old.quick_reason == MATCH_RESULT:
                raise Refused(
                    Message(
                        N_(
                            "deal %(deal)s is a line of the result of match %(match)s entered "
                            "whole: correct the match's result instead"
                        ),
                        deal=f"{m.id}.{old.number}",
                        match=m.id,
                    )
                )
            if old.kind != "quick":
                raise Refused(
                    Message(
                        N_("deal %(deal)s was recorded card by card: correct its tricks instead"),
                        deal=f"{m.id}.{old.number}",
                    )
                )
            winner_id: int | None = None
            winner_name: str | None = None
            if winner is not None:
                winner_name = resolve_in_match(
                    conn, winner, [m.a_id, m.b_id], Message(IN_MATCH, match=m.id)
                )["name"]
                winner_id = m.player_id(winner_name)
            check_quick_result(m.rules, winner_name, points, reason)
            new = replace(old, quick_winner_id=winner_id, quick_points=points, quick_reason=reason)
            return _replace_deal(
                self.store,
                conn,
                loaded,
                index,
                new,
                "deal quick edit",
                f"changed the result of deal {m.id}.{old.number} to "
                + (f"{winner_name} {points} ({reason})" if winner_name else "draw"),
                _quick_words(old.number, winner_name, points, reason, True),
            )

    def import_records(self, match_id: int, sources: Sequence[tuple[str, str]]) -> list[DealView]:
        """Add ``.deal`` records (``(name, text)`` pairs) as the next deals of a match.

        All or nothing: each must fit the match (players, dealer, rules, carry) and have no
        record errors, else nothing is imported."""
        records = [(name, _read_record(text, name)) for name, text in sources]
        with self.store.writing() as conn:
            loaded = load_derived(conn, match_id, lock=True)
            check_open(conn, loaded, self.store.table)
            views = []
            for name, record in records:
                number = _next_number(self.store, loaded, source=name)
                deal = _fitted(
                    self.store,
                    loaded,
                    record,
                    Message(HEADED, head=name),
                    StoredDeal(
                        0, match_id, number, "recorded", None, None, None, None, {}, utc_now()
                    ),
                )
                _insert_deal(self.store, conn, deal)
                loaded = derive(loaded.match, [*(d.deal for d in loaded.deals), deal])
                views.append(view_of_deal(loaded, len(loaded.deals) - 1, False))
                Audit(self.store).write(
                    conn,
                    "deal import",
                    "deal",
                    deal.id,
                    f"imported {name or 'a record'} as deal {match_id}.{number}",
                    {f"deal:{deal.id}": None},
                    {f"deal:{deal.id}": deal_snapshot(deal)},
                    words=Message(IMPORTED, deal=number),
                )
            save_results(conn, loaded)
        return views

    def export(self, deal_id: int) -> str:
        """A recorded deal as a canonical ``.deal`` record.

        A deal of an event's match carries its context as the loaded examples do: ``Event``
        (the event's name), ``Date`` (the day it is held, ``2026-11-24``) and, for a round
        robin's match, ``Round`` and ``Table``. Tags stored with the deal (an imported
        record's own ``Event``) take precedence."""
        with self.store.reading() as conn:
            loaded, index = load_deal(conn, deal_id)
            context = _context_tags(conn, loaded.match)
        d = loaded.deals[index]
        if d.record is None:
            raise Refused(
                Message(
                    N_(
                        "deal %(deal)s was entered as a result (quick entry): it has no "
                        "record to export"
                    ),
                    deal=f"{loaded.match.id}.{d.deal.number}",
                )
            )
        return write_deal(replace(d.record, tags={**context, **d.record.tags}))

    def view(self, deal_id: int, *, referee: bool = False) -> DealView:
        """One deal as the score sheet shows it."""
        with self.store.reading() as conn:
            loaded, index = load_deal(conn, deal_id)
        return view_of_deal(loaded, index, referee)

    def edit(self, deal_id: int, text: str, *, expect: str | None = None) -> DealView | None:
        """Replace a recorded deal's record with ``text`` (a whole ``.deal`` record).

        The record must keep the match's rules, players and dealer and the derived carry,
        have no record errors, and leave the rest of the match valid (later deals keep their
        dealer). Returns None when nothing changed. ``expect``: the mark of the question this
        correction was asked with (``store.consequences.record_correction``), refused when
        the match changed since."""
        record = _read_record(text, f"deal {deal_id}", Message(IN_DEAL, deal=deal_id))
        with self.store.writing() as conn:
            loaded, index = load_deal(conn, deal_id, lock=True)
            check_mark(loaded, expect)
            for tag, value in _context_tags(conn, loaded.match).items():
                if record.tags.get(tag, "").strip() == value:
                    del record.tags[tag]  # exported from the match's event, not the deal's own
            old = loaded.deals[index].deal
            if old.kind == "quick":
                raise Refused(
                    Message(
                        N_(
                            "deal %(deal)s was entered as a result (quick entry): it has no "
                            "record to edit"
                        ),
                        deal=f"{loaded.match.id}.{old.number}",
                    )
                )
            new = _fitted(self.store, loaded, record, Message(EDITED_RECORD), replace(old), index)
            return _replace_deal(
                self.store,
                conn,
                loaded,
                index,
                new,
                "deal edit",
                f"edited deal {loaded.match.id}.{old.number}",
                Message(EDITED, deal=old.number),
            )

    def delete(self, deal_id: int) -> DealView:
        """Delete the last deal of a match (a deal in the middle would change the ones after it:
        correct it with ``store.deals.edit`` instead). Returns the deal as it
        was. A line of a match result entered whole
        (``store.deals.match_result``) takes the whole result with it."""
        with self.store.writing() as conn:
            loaded, index = load_deal(conn, deal_id, lock=True)
            d = loaded.deals[index].deal
            # a line of a match result entered whole goes with the rest of that result
            gone = (
                [x.deal for x in loaded.deals if x.deal.quick_reason == MATCH_RESULT]
                if d.quick_reason == MATCH_RESULT
                else [d]
            )
            if index != len(loaded.deals) - 1 and gone == [d]:
                raise Refused(
                    Message(
                        N_(
                            "deal %(match)s.%(number)s is not the last deal of its match: only "
                            "the last deal can be deleted%(advice)s"
                        ),
                        match=loaded.match.id,
                        number=d.number,
                        advice=Advice(
                            N_(" (correct this one with `tally deal edit %(deal)s`)"), deal=deal_id
                        ),
                    )
                )
            view = view_of_deal(loaded, index, False)
            for x in gone:
                conn.execute(DELETE_DEAL_RESULT, {"d": x.id})
                conn.execute(delete(t.actions).where(t.actions.c.deal_id == x.id))
                conn.execute(delete(t.deals).where(t.deals.c.id == x.id))
            left = derive(loaded.match, [x.deal for x in loaded.deals if x.deal not in gone])
            check_kept_in_turn(conn, left)
            save_results(conn, left)
            summary = (
                f"deleted deal {loaded.match.id}.{d.number} ({d.kind})"
                if gone == [d]
                else f"deleted the result of match {loaded.match.id} entered whole"
            )
            Audit(self.store).write(
                conn,
                "deal delete",
                "deal",
                d.id,
                summary,
                {f"deal:{x.id}": deal_snapshot(x) for x in gone},
                {f"deal:{x.id}": None for x in gone},
                words=Message(DELETED, deal=d.number) if gone == [d] else Message(RESULT_DELETED),
            )
        return view
