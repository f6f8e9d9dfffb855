"""Whether a match still takes writes: the one rule every write to a match's deals asks,
inside the transaction that would write (the match locked), so no race gets past it.

A match is over when

- it is **finished**: a player reached the match target;
- it was **forfeited** or made **void** by a withdrawal: a player of the match withdrew from
  its event before it was finished (the event's withdrawal rule says which; a bracket's
  match is always a forfeit, as :mod:`tally.store.knockouts` counts it; a round robin's
  player withdrawn before half of their games has every match void), or by a no-show: a
  player did not come to its round (:mod:`tally.store.noshows`; void when neither came);
- it is **not needed**: a match of a bracket pairing played best of N after the pairing
  was decided (``2:0`` in a best of 3 leaves the third match unplayed for ever).

A match not needed, or decided by a no-show (until it is taken back), takes no write from
anyone (the table, the command line, the director's pages). A finished, forfeited or void
match takes none from its **table** (the phone at ``/t/MATCH/SECRET``, a store made with
``table=TableWriter(...)``); the director corrects it (the command line, the director's
pages), and may reopen a finished match to its table.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection

from tally.errors import MatchOver, Message, Refused
from tally.events.knockout import series
from tally.i18n import N_
from tally.store import tables as t
from tally.store.derivation import Loaded, load_derived, lock_match
from tally.store.transactions import TableWriter
from tally.store.views import Over

#: why a match takes no more writes (the kinds of :class:`Over`), in a player's words
FINISHED: Final = N_("this match is over: %(winner)s won %(score)s")
FORFEIT: Final = N_("this match is over: %(winner)s wins %(score)s by forfeit (%(gone)s withdrew)")
#: the same before any game point was scored (no "0:0" read as the match's result)
FORFEIT_UNPLAYED: Final = N_(
    "this match is over: %(winner)s wins it by forfeit (%(gone)s withdrew)"
)
VOID: Final = N_("this match is over: %(gone)s withdrew, so it does not count")
NO_SHOW: Final = N_("this match is over: %(winner)s wins it by forfeit (%(gone)s did not come)")
NOBODY_CAME: Final = N_("this match is over: neither %(gone)s came, so it does not count")
NOT_NEEDED: Final = N_("this match is not needed: %(pairing)s")
#: a bracket pairing played best of N, decided
PAIRING_WON: Final = N_("%(winner)s won the pairing %(series)s (best of %(best_of)s)")
#: what a table is told when it writes into a match not its own
OTHER_MATCH: Final = N_("this table records match %(table)s, not match %(match)s")


def _score(loaded: Loaded, first: str) -> str:
    """The match's score, ``first`` player's points first (``7:3``)."""
    score = loaded.state.score
    second = next(p for p in loaded.match.players if p != first)
    return f"{score[first]}:{score[second]}"


_ep = t.event_players.c
#: the players of a match who withdrew from its event (asked by every write to a match)
_WITHDRAWN = select(_ep.player_id).where(
    (_ep.event_id == bindparam("e"))
    & _ep.player_id.in_([bindparam("a"), bindparam("b")])
    & _ep.withdrawn_at.is_not(None)
)


def _withdrawn(conn: Connection, loaded: Loaded) -> Over | None:
    """A match of an event, not finished, with a player who withdrew: forfeit or void."""
    m = loaded.match
    if m.event_id is None:
        return None
    found = conn.execute(_WITHDRAWN, {"e": m.event_id, "a": m.a_id, "b": m.b_id})
    gone = set(found.scalars())
    if not gone:
        return None
    rule = conn.execute(
        select(t.events.c.withdrawal).where(t.events.c.id == m.event_id)
    ).scalar_one()
    names = [m.name(p) for p in (m.a_id, m.b_id) if p in gone]
    if (
        len(gone) == 2
        or (rule != "forfeit" and _series_of(conn, loaded) is None)
        or (rule == "forfeit" and gone & _struck_out(conn, m.event_id))
    ):
        return Over("void", Message(VOID, gone=" & ".join(names)))
    winner = m.b if m.a_id in gone else m.a
    if not any(loaded.state.score.values()):
        return Over("forfeit", Message(FORFEIT_UNPLAYED, winner=winner, gone=names[0]))
    return Over(
        "forfeit", Message(FORFEIT, winner=winner, score=_score(loaded, winner), gone=names[0])
    )


_ns = t.event_no_shows.c
#: the players of a match who did not come to its round (asked by every write to a match)
_NO_SHOWS = select(_ns.player_id).where(
    (_ns.event_id == bindparam("e"))
    & (_ns.round_number == bindparam("r"))
    & _ns.player_id.in_([bindparam("a"), bindparam("b")])
)


def _no_show(conn: Connection, loaded: Loaded) -> Over | None:
    """A match of an event, not finished, whose round a player of it did not come to
    (:mod:`tally.store.noshows`): won by the other by forfeit, void when neither came."""
    m = loaded.match
    if m.event_id is None or m.round_number is None:
        return None
    found = conn.execute(
        _NO_SHOWS, {"e": m.event_id, "r": m.round_number, "a": m.a_id, "b": m.b_id}
    )
    gone = set(found.scalars())
    if not gone:
        return None
    names = [m.name(p) for p in (m.a_id, m.b_id) if p in gone]
    if len(gone) == 2:
        return Over("void", Message(NOBODY_CAME, gone=" & ".join(names)), no_show=True)
    winner = m.b if m.a_id in gone else m.a
    return Over("forfeit", Message(NO_SHOW, winner=winner, gone=names[0]), no_show=True)


def _struck_out(conn: Connection, event_id: int) -> frozenset[int]:
    """The players of a round robin whose results are struck out (withdrawn before half of
    their games: :func:`tally.events.withdrawals.annulled`): their matches count for nobody."""
    from tally.store.eventdata import load_events

    [ev] = load_events(conn, t.events.c.id == event_id).events
    return ev.annulled


def _series_of(conn: Connection, loaded: Loaded) -> tuple[int, list[int]] | None:
    """A bracket match's pairing: best of how many, and its matches in the order played
    (None for a match outside a bracket)."""
    m = loaded.match
    if m.event_id is None or m.round_number is None or not m.table_number:
        return None
    f = t.event_formats
    fmt = conn.execute(
        select(f.c.bracket_round, f.c.best_of).where(f.c.event_id == m.event_id)
    ).first()
    if fmt is None or fmt.bracket_round is None or m.round_number < fmt.bracket_round:
        return None
    mt = t.matches
    ids = conn.execute(
        select(mt.c.id)
        .where(
            (mt.c.event_id == m.event_id)
            & (mt.c.round_number == m.round_number)
            & (mt.c.table_number == m.table_number)
        )
        .order_by(mt.c.id)
    ).scalars()
    return int(fmt.best_of), list(ids)


def _pairing(conn: Connection, loaded: Loaded, lock: bool) -> tuple[Message, bool] | None:
    """A bracket pairing played best of N, once decided: how (``Anna won the pairing 2:0
    (best of 3)``), and whether the match ``loaded`` came after the deciding one (it is not
    needed); None for any other match.

    With ``lock`` (on PostgreSQL) the pairing's first match is locked too: every write into
    a pairing's matches takes turns on it, so a third match cannot start while the second
    decides."""
    found = _series_of(conn, loaded)
    if found is None or found[0] == 1:
        return None
    best_of, ids = found
    if lock and ids[0] != loaded.match.id:
        lock_match(conn, ids[0])
    winners = [
        loaded.state.winner if mid == loaded.match.id else load_derived(conn, mid).state.winner
        for mid in ids
    ]
    winner, counted = series(winners, best_of)
    if winner is None:
        return None
    loser = next(p for p in loaded.match.players if p != winner)
    won = winners[:counted]
    score = f"{won.count(winner)}:{won.count(loser)}"
    words = Message(PAIRING_WON, winner=winner, series=score, best_of=best_of)
    return words, loaded.match.id not in ids[:counted]


def why_over(conn: Connection, loaded: Loaded, *, lock: bool = False) -> Over | None:
    """How the match ``loaded`` ended (None: it takes writes): not needed in a decided
    best-of pairing, finished, forfeited or void by a withdrawal, in that order; ``lock``
    in a write transaction (:func:`_pairing`)."""
    pairing = _pairing(conn, loaded, lock)
    decided = None if pairing is None else pairing[0]
    if pairing is not None and pairing[1]:
        return Over("not-needed", Message(NOT_NEEDED, pairing=decided), decided)
    s = loaded.state
    if s.winner is not None:
        score = _score(loaded, s.winner)
        return Over("finished", Message(FINISHED, winner=s.winner, score=score), decided)
    return _no_show(conn, loaded) or _withdrawn(conn, loaded)


NOT_IN_TURN: Final = N_(
    "match %(earlier)s of this pairing is not over yet: a pairing's matches are played in "
    "turn (record match %(earlier)s first)"
)


def _check_in_turn(conn: Connection, loaded: Loaded) -> None:
    """Refuse a write into a match of a best-of pairing while a match of the pairing before
    it is not over: the third Bummerl is played only if the first two leave it needed, so a
    deal in it before them would be played for nothing (and lost to the record)."""
    found = _series_of(conn, loaded)
    if found is None or found[0] == 1:
        return
    for earlier in found[1]:
        if earlier == loaded.match.id:
            return
        if why_over(conn, load_derived(conn, earlier)) is None:
            raise Refused(Message(NOT_IN_TURN, earlier=earlier))


LATER_PLAYED: Final = N_(
    "this change leaves match %(match)s not over, and match %(later)s of its pairing has "
    "deals already: a pairing's matches are played in turn (delete match %(later)s's deals "
    "first)"
)
_HAS_DEALS = select(t.deals.c.id).where(t.deals.c.match_id == bindparam("m")).limit(1)


def check_kept_in_turn(conn: Connection, after: Loaded) -> None:
    """Refuse a correction, deletion or undo that leaves a match of a best-of pairing not over
    while a later match of the pairing has deals: the later match would have been played out
    of turn, and the record would not load back (:func:`_check_in_turn`)."""
    if after.state.over:
        return
    found = _series_of(conn, after)
    if found is None or found[0] == 1 or after.match.id not in found[1]:
        return
    ids = found[1]
    for later in ids[ids.index(after.match.id) + 1 :]:
        if conn.execute(_HAS_DEALS, {"m": later}).first() is not None:
            raise Refused(Message(LATER_PLAYED, match=after.match.id, later=later))


def check_open(conn: Connection, loaded: Loaded, table: TableWriter | None) -> None:
    """Refuse (:class:`~tally.errors.MatchOver`) a write into the match ``loaded`` (locked by
    the caller's transaction) when it is over for the writer (:meth:`Over.shuts_out`): the
    match's ``table``, or None for the command line and the director. A table writes only
    into its own match."""
    m = loaded.match
    if table is not None and table.match_id != m.id:
        raise Refused(Message(OTHER_MATCH, table=table.match_id, match=m.id))
    over = why_over(conn, loaded, lock=True)
    if over is None:
        _check_in_turn(conn, loaded)
        return
    reopened = table is not None and over.kind == "finished" and table.reopened(conn)
    if over.shuts_out(table, reopened):
        raise MatchOver(over.words, over.kind)
