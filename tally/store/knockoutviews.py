"""The views of a knockout or groups event (:class:`KnockoutView`: the standings by
elimination, the groups, the bracket, the play-offs, the prize table; its rounds as
:class:`~tally.store.views.RoundView`), made from its state (:mod:`tally.events.knockout`):
nothing here reads the database."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tally.errors import Message
from tally.events.knockout import stages
from tally.events.knockout.bracket import TBD, BracketMatch, bracket_size
from tally.events.knockout.lives import rank_by_stage
from tally.events.knockout.state import KnockoutState, Match
from tally.events.knockout.words import (
    BRACKET_DRAW,
    BY_LOT,
    BY_SEEDING,
    GROUP_ROUND_OF,
    IN_BRACKET,
    IN_GROUPS,
    IN_PLAYOFF_ROUND,
    NOT_STARTED,
    OVER_AFTER,
    PLAYERS_LEFT,
    PLAYOFF_BY_LOT,
    WINNER,
    Said,
    bracket_round_name,
)
from tally.events.prizes import (
    CategoryPrizes,
    Payout,
    PrizeTable,
    parse_category_prizes,
    parse_shares,
    payout,
    pool,
    prize_table,
)
from tally.events.schedule import Pairing
from tally.events.tiebreaks import StandingRow
from tally.names import fold
from tally.store.views import EventView, PairingMatchView, PairingView, RoundView

__all__ = [
    "BracketMatchView",
    "KnockoutLine",
    "KnockoutView",
    "PrizeView",
    "buy_back_fee_of",
    "round_view",
    "view_of",
]


@dataclass(frozen=True)
class BracketMatchView:
    """A match of the bracket: ``first`` and ``second`` (None: a bye; ``""``: not known
    yet, player names are never blank), the winner once decided, the match made for it and
    its score (first player's game points first)."""

    round: int
    table: int
    first: str | None
    second: str | None
    winner: str | None
    decided: bool
    match_id: int | None
    result: str | None


@dataclass(frozen=True)
class KnockoutLine:
    """A player's line of the standings by elimination: rank, how far they got
    (``stage``), lives left (knockout), the round they were out in, their group (groups),
    a mark per round (``W``, ``L``, ``B`` bye, ``?`` playing, ``-`` not playing) and their
    ordinary standings row."""

    rank: int
    player: str
    seed: int
    stage: Message
    lives: int | None
    out_in: int | None
    group: int | None
    withdrawn: bool
    marks: tuple[str, ...]
    row: StandingRow
    #: lives bought back ("Nachkauf") and the prize won (cents; None: no prize table)
    bought: int = 0
    prize: int | None = None
    #: the category whose prize it is (None: an overall prize, or none)
    prize_category: str | None = None


@dataclass(frozen=True)
class KnockoutView:
    """A knockout or groups event as its wall sheet shows it: the lines by elimination, the
    groups (names, in group order), the bracket's rounds, the play-offs, where it stands
    (``stage``), the champion once there is one, and the format (lives, seed, final stage,
    qualifiers per group)."""

    event: EventView
    kind: str
    lives: int | None
    draw_seed: str | None
    rounds_started: int
    stage: Message
    champion: str | None
    lines: tuple[KnockoutLine, ...]
    groups: tuple[tuple[str, ...], ...]
    bracket: tuple[tuple[BracketMatchView, ...], ...]
    playoffs: tuple[PairingView, ...]
    tiebreaks: tuple[str, ...]
    #: a knockout's final stage (the last N players), groups' qualifiers per group
    final_size: int | None = None
    advance: int | None = None
    #: the prize table (None: the event has none) and the buy-back rule
    prizes: PrizeView | None = None
    buy_back_until: int | None = None
    buy_back_fee: int | None = None
    buy_backs: int = 1
    #: a buy-back only straight after elimination (before the next round)
    buy_back_at_once: bool = False
    #: the bracket's pairings are played best of this many matches
    best_of: int = 1


@dataclass(frozen=True)
class PrizeView:
    """An event's prize table: entries and buy-backs with their fees (``buy_back_fee``: what
    one costs now; the pool holds what each paid), the pool, the shares
    per place (percent, best first), the prizes (rounded down to ``unit``), what the players
    win together (``paid``: players sharing places share their prizes, rounded down again) and
    what is left for the club (``club``: the pool less ``paid``, to the cent); amounts in cents
    (:mod:`tally.events.prizes`)."""

    entries: int
    entry_fee: int
    bought: int
    buy_back_fee: int
    shares: tuple[str, ...]
    table: PrizeTable
    paid: int = 0
    club: int = 0
    #: the categories' prize tables, in the order given
    categories: tuple[CategoryPrizeView, ...] = ()
    #: what the players win of the overall table (the rest of ``paid`` is categories')
    paid_overall: int = 0


@dataclass(frozen=True)
class CategoryPrizeView:
    """A category's prize table: its name, its places as given (``shares``: percent, or
    ``amounts``: fixed, cents), each place's prize (cents) and what its players win of it
    (``paid``)."""

    category: str
    shares: tuple[str, ...]
    amounts: tuple[int, ...]
    prizes: tuple[int, ...]
    paid: int = 0


def category_tables(fmt: Mapping[str, Any]) -> list[CategoryPrizes]:
    """The categories' prize tables an event's format row holds (one a line)."""
    text = fmt.get("category_prizes") or ""
    return [parse_category_prizes(line) for line in text.splitlines() if line.strip()]


def _category_views(st: KnockoutState, total: int) -> tuple[CategoryPrizeView, ...]:
    return tuple(
        CategoryPrizeView(
            c.category,
            tuple(f"{x.normalize():f}" for x in c.shares),
            c.amounts,
            tuple(c.prize_list(total, st.fmt["prize_unit"], ()).prizes),
        )
        for c in category_tables(st.fmt)
    )


def _prize_view(st: KnockoutState) -> PrizeView | None:
    """The event's prize table as it stands, with the categories' tables (None when it has
    no entry fee, shares or category prizes)."""
    fee, shares = st.fmt["entry_fee"], st.fmt["prize_shares"]
    if fee is None and shares is None and not st.fmt.get("category_prizes"):
        return None
    parsed = parse_shares(shares) if shares else ()
    bought = sum(len(x) for x in st.bought.values())
    back_fee = buy_back_fee_of(st.fmt)
    total = pool(len(st.entrants), fee or 0) + st.bought_fees
    return PrizeView(
        len(st.entrants),
        fee or 0,
        bought,
        back_fee,
        tuple(f"{x.normalize():f}" for x in parsed),
        prize_table(total, parsed, st.fmt["prize_unit"]),
        categories=_category_views(st, total),
    )


def _won(
    st: KnockoutState, ranked: list[tuple[int, str]], prizes: PrizeView
) -> tuple[Payout, PrizeView]:
    """What each player of ``ranked`` wins (:func:`tally.events.prizes.payout`): the overall
    table's places and the categories', at most one prize each, the higher; and the prize
    view with what each table pays."""
    folded = {p: {fold(c) for c in cs} for p, cs in st.categories.items()}
    lists = [
        c.prize_list(
            prizes.table.pool,
            st.fmt["prize_unit"],
            {i for i, (_r, p) in enumerate(ranked) if fold(c.category) in folded.get(int(p), ())},
        )
        for c in category_tables(st.fmt)
    ]
    won = payout([rank for rank, _ in ranked], prizes.table, lists)
    cats = tuple(
        dataclasses.replace(v, paid=won.paid_from(n))
        for n, v in enumerate(prizes.categories, start=1)
    )
    shown = dataclasses.replace(
        prizes, paid=won.paid, club=won.club, categories=cats, paid_overall=won.paid_from(0)
    )
    return won, shown


def buy_back_fee_of(fmt: Mapping[str, Any]) -> int:
    """What a buy-back costs (cents): its own fee, else the entry fee, else nothing."""
    fee = fmt["buy_back_fee"] if fmt["buy_back_fee"] is not None else fmt["entry_fee"]
    return int(fee or 0)


def view_of(st: KnockoutState, event_view: EventView, order: tuple[str, ...]) -> KnockoutView:
    """The standings by elimination of the event in state ``st`` (ordinary standings by the
    tiebreaks ``order``), with its groups, bracket and play-offs."""
    field = stages.ordinary(st, order)
    by_name = {n: p for p, n in st.names.items()}
    field_rank = {str(by_name[r.player]): r.rank for r in field}
    rows = {str(by_name[r.player]): r for r in field}
    keys, words = stages.stage_keys(st, order)
    ranked = rank_by_stage([str(p) for p in st.ids], field_rank, keys, stages.playoff_pairs(st))
    prizes = _prize_view(st)
    won = None
    if prizes is not None:
        won, prizes = _won(st, ranked, prizes)
    lines = _lines(st, ranked, rows, words, won, prizes)
    found = stages.bracket(st)
    champion = _champion(st, found)
    if found is None and champion is not None:
        lines[0] = dataclasses.replace(lines[0], stage=Said(WINNER))
    groups: tuple[tuple[str, ...], ...] = ()
    if st.has_groups:
        groups = tuple(tuple(st.names[p] for p in g) for g in stages.groups_of(st))
    playoffs = tuple(_pairing(st, m.table or i, [m]) for i, m in enumerate(st.playoffs, start=1))
    return KnockoutView(
        event=event_view,
        kind=st.ev["kind"],
        lives=st.fmt["lives"],
        draw_seed=st.fmt["draw_seed"],
        rounds_started=len(st.started),
        stage=_stage(st, champion),
        champion=champion,
        lines=tuple(lines),
        groups=groups,
        bracket=() if found is None else _bracket_views(st, found),
        playoffs=playoffs,
        tiebreaks=order,
        final_size=st.fmt["final_size"],
        advance=st.fmt["advance"],
        prizes=prizes,
        buy_back_until=st.fmt["buy_back_until"],
        buy_back_fee=st.fmt["buy_back_fee"],
        buy_backs=st.fmt["buy_backs"],
        buy_back_at_once=bool(st.fmt["buy_back_at_once"]),
        best_of=st.fmt["best_of"],
    )


def _lines(
    st: KnockoutState,
    ranked: list[tuple[int, str]],
    rows: dict[str, StandingRow],
    words: dict[str, Message],
    won: Payout | None,
    prizes: PrizeView | None,
) -> list[KnockoutLine]:
    """The lines by elimination, in the order ``ranked`` (rank, player), with the prizes
    ``won`` place by place."""
    lives = {x.player: x for x in stages.lives_lines(st)} if st.has_lives else {}
    group_of = {}
    if st.has_groups:
        group_of = {str(p): i for i, g in enumerate(stages.groups_of(st), start=1) for p in g}
    seeds = {str(e.player_id): e.seed for e in st.entrants}
    marks = _marks(st, len(st.started))
    gone = st.withdrawn
    lines = []
    for i, (rank, p) in enumerate(ranked):
        life = lives.get(p)
        lines.append(
            KnockoutLine(
                rank=rank,
                player=st.names[int(p)],
                seed=seeds[p],
                stage=words.get(p, Said("")),
                lives=None if life is None else life.lives,
                out_in=None if life is None else life.out_in,
                group=group_of.get(p),
                withdrawn=int(p) in gone,
                marks=marks[int(p)],
                row=dataclasses.replace(rows[p], rank=rank),
                bought=len(st.bought.get(int(p), [])),
                prize=None if won is None else won.won[i],
                prize_category=_category_of(won, prizes, i),
            )
        )
    return lines


def _category_of(won: Payout | None, prizes: PrizeView | None, i: int) -> str | None:
    """The category whose prize the ``i``-th player wins (None: overall, or none)."""
    if won is None or prizes is None or won.lists[i] < 1:
        return None
    return prizes.categories[won.lists[i] - 1].category


def _champion(st: KnockoutState, found: list[list[BracketMatch]] | None) -> str | None:
    """The winner of the bracket once decided, or of the lives stage when one player is
    left after a round (no final stage)."""
    if found is not None:
        winner = found[-1][0].winner
        return st.names[int(winner)] if found[-1][0].decided and winner else None
    if st.has_lives and st.started:
        still = [x for x in stages.lives_lines(st) if x.out_in is None]
        if len(still) == 1:
            return st.names[int(still[0].player)]
    return None


def _bracket_views(
    st: KnockoutState, found: list[list[BracketMatch]]
) -> tuple[tuple[BracketMatchView, ...], ...]:
    """The bracket's rounds as shown: each match with its players, winner and score."""
    first = st.fmt["bracket_round"]
    played = stages.bracket_series(st)
    out = []
    for matches in found:
        views = []
        for bm in matches:
            counted = played.get((first + bm.round - 1, bm.table), (None, []))[1]
            m = counted[0] if counted else None
            result = None
            if m is not None and bm.playable:
                result = _bracket_result(st, counted, int(bm.first or 0), int(bm.second or 0))
            views.append(
                BracketMatchView(
                    bm.round,
                    bm.table,
                    _who(st, bm.first),
                    _who(st, bm.second),
                    _who(st, bm.winner),
                    bm.decided,
                    None if m is None else m.id,
                    result,
                )
            )
        out.append(tuple(views))
    return tuple(out)


def _bracket_result(st: KnockoutState, counted: list[Match], first: int, second: int) -> str:
    """A bracket pairing's score, first player's first: game points of its one match, or,
    played best of N, the matches each won."""
    if st.fmt["best_of"] == 1:
        return f"{counted[0].gp[first]}:{counted[0].gp[second]}"
    won = [m.winner for m in counted]
    return f"{won.count(first)}:{won.count(second)}"


def _who(st: KnockoutState, slot: str | None) -> str | None:
    if slot is None:
        return None
    return "" if slot == TBD else st.names[int(slot)]


def _marks(st: KnockoutState, total: int) -> dict[int, tuple[str, ...]]:
    """A mark per round started for every player (see :class:`KnockoutLine`)."""
    marks: dict[int, list[str]] = {p: ["-"] * total for p in st.names}
    for number, (bye, _) in st.started.items():
        if bye is not None and 1 <= number <= total:
            marks[bye][number - 1] = "B"
    gone = set(st.withdrawn)
    spare = stages.not_needed(st)
    for m in st.matches:
        if m.round is None or not 1 <= m.round <= total or m.id in spare:
            continue
        if m.winner is not None:
            marks[m.winner][m.round - 1] = "W"
            marks[m.b if m.winner == m.a else m.a][m.round - 1] = "L"
        else:  # still played, or not counting (a player withdrew)
            mark = "-" if {m.a, m.b} & gone else "?"
            marks[m.a][m.round - 1] = marks[m.b][m.round - 1] = mark
    return {p: tuple(x) for p, x in marks.items()}


def _stage(st: KnockoutState, champion: str | None) -> Message:
    """Where the event stands."""
    total = len(st.started)
    if champion is not None:
        return Said(OVER_AFTER, n=total, player=champion)
    if not total:
        return Said(NOT_STARTED)
    if st.fmt["bracket_round"] is not None:
        return Said(IN_BRACKET, n=total)
    if st.fmt["playoff_round"] is not None:
        return Said(IN_PLAYOFF_ROUND, n=total)
    if st.has_groups:
        return Said(IN_GROUPS, n=total, rounds=stages.group_rounds(st))
    return Said(PLAYERS_LEFT, n=total, players=len(stages.alive(st)))


def _pairing(
    st: KnockoutState,
    table: int,
    made: list[Match],
    planned: Pairing | None = None,
    number: int | None = None,
) -> PairingView:
    """A table of a round as the generic pairing view (first = player a)."""
    if made:
        a, b, dealer = made[0].a, made[0].b, made[0].first_dealer
    else:
        assert planned is not None
        a, b = int(planned.first), int(planned.second)
        dealer = a
    gone = [x for x in (a, b) if x in st.withdrawn]
    spare = stages.not_needed(st)
    views = tuple(
        PairingMatchView(
            m.id,
            st.names[m.first_dealer],
            f"{m.gp[a]}:{m.gp[b]}",
            None if m.winner is None else st.names[m.winner],
            m.winner is not None,
            needed=m.id not in spare,
        )
        for m in made
    )
    forfeit_winner = None
    if made and all(v.over for m, v in zip(made, views, strict=True) if m.id not in spare):
        status = "played"
    elif gone:
        bracket = (
            st.fmt["bracket_round"] is not None
            and made
            and made[0].round is not None
            and made[0].round >= st.fmt["bracket_round"]
        )
        status = "forfeit" if bracket or st.ev["withdrawal"] == "forfeit" else "void"
        through = st.forfeit_winner(a, b, None if made else number)
        if through is None:
            status = "void"
        if status == "forfeit" and through is not None:
            forfeit_winner = st.names[through]
    else:
        status = "playing" if made else "scheduled"
    return PairingView(
        table=table,
        first=st.names[a],
        second=st.names[b],
        first_dealer=st.names[dealer],
        matches=views,
        status=status,
        withdrawn=tuple(st.names[x] for x in gone),
        forfeit_winner=forfeit_winner,
    )


def _total_rounds(st: KnockoutState) -> int | None:
    """How many rounds the event has: groups and a seeded bracket know it; a knockout's
    rounds by lot go on until its final stage or last player (None)."""
    if st.has_groups:
        qualifiers = st.fmt["groups"] * st.fmt["advance"]
        return stages.group_rounds(st) + (
            bracket_size(qualifiers).bit_length() - 1 if qualifiers >= 2 else 0
        )
    found = stages.bracket(st)
    if found is None:
        return None
    return int(st.fmt["bracket_round"]) + len(found) - 1


def round_view(st: KnockoutState, number: int) -> RoundView:
    made = st.of_round(number)
    by_table: dict[int, list[Match]] = defaultdict(list)
    for m in made:
        by_table[m.table or 0].append(m)
    started = number in st.started
    byes: list[str] = []
    planned: dict[int, Pairing] = {}
    if st.has_groups and number <= stages.group_rounds(st):
        for p in stages.group_round(st, number)[0]:
            planned[p.table] = p
        byes = [st.names[b] for b in stages.group_round(st, number)[1]]
    elif started and st.started[number][0] is not None:
        byes = [st.names[st.started[number][0] or 0]]
    tables = sorted(set(by_table) | set(planned))
    total = _total_rounds(st)
    pairings = tuple(
        _pairing(st, tb, by_table.get(tb, []), planned.get(tb), number) for tb in tables
    )
    return RoundView(
        event_id=st.ev["id"],
        event=st.ev["name"],
        number=number,
        rounds=None if total is None else max(total, number),
        started=started,
        pairings=pairings,
        bye=", ".join(byes) or None,
        bye_scores=started and st.ev["bye"] == "win" and bool(byes),
        draw=_draw_words(st, number),
    )


def _draw_words(st: KnockoutState, number: int) -> Message:
    """How round ``number`` was made: a group round, drawn by lot, the play-off for the
    final stage, or a round of the bracket."""
    bracket_round, playoff_round = st.fmt["bracket_round"], st.fmt["playoff_round"]
    seed = st.fmt["draw_seed"]
    if st.has_groups and number <= stages.group_rounds(st):
        return Said(GROUP_ROUND_OF, n=number, rounds=stages.group_rounds(st))
    if bracket_round is not None and number >= bracket_round:
        found = stages.bracket(st)
        last = len(found) if found else 1
        return Said(BRACKET_DRAW, round=bracket_round_name(number - bracket_round + 1, last))
    if playoff_round is not None and number >= playoff_round:
        return Said(PLAYOFF_BY_LOT, seed=seed)
    if number == 1 and st.ev["seed_by"] == "rating":  # tally.events.knockout: seeded round 1
        return Said(BY_SEEDING, seed=seed)
    return Said(BY_LOT, seed=seed)
