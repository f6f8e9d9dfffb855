"""Players: names (normalized, unique ignoring case, spaces and accents), aliases, resolving
a name as typed, renaming (in the stored records too) and merging two players.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, RowMapping

from tally import names
from tally.errors import ASK_TO_MERGE, N_, Advice, Message, NotFound, Refused
from tally.store import eventrows
from tally.store import tables as t
from tally.store.columns import NAME_LENGTH
from tally.store.corrections import (
    Audit,
    Snapshot,
    deal_snapshot,
    put_categories,
    snapshot,
    utc_now,
)
from tally.store.derivation import (
    aliases_of,
    categories_of,
    load_deals,
    lock_match,
    match_ids_of,
    rename_in_deal,
    rewrite_results,
    write_deal_row,
)
from tally.store.views import PlayerView

if TYPE_CHECKING:
    from tally.store.transactions import Database


#: what a new name that looks like a player's is told (:func:`_refuse_lookalike`)
LOOKS_LIKE = N_(
    '"%(name)s" looks like %(other)s: same person? If so, use that player; if not, give a '
    "name that tells them apart"
)
LOOKS_LIKE_ALIAS = N_(
    '"%(name)s" looks like %(other)s, who goes by "%(known)s": same person? If so, use that '
    "player; if not, give a name that tells them apart"
)

#: where a player is looked for among a match's two (:func:`resolve_in_match`)
IN_MATCH = N_(" in match %(match)s")
IN_THIS_MATCH_AS_DEALER = N_(" in this match (as --dealer)")

_BAD_NAME_CHARS = re.compile(r'[;:"\\{}\[\]@\x00-\x1f\x7f]')


def normalize_name(name: str) -> tuple[str, str]:
    """A player's name as stored (spaces collapsed) and its key (also case-folded).

    >>> normalize_name("  Mary   Lou ")
    ('Mary Lou', 'mary lou')
    """
    names.check_text(name, "name")
    clean = " ".join(name.split())
    if not clean:
        raise Refused(N_("a player's name cannot be empty"))
    if len(clean) > NAME_LENGTH:
        raise Refused(
            Message(
                N_('"%(name)s...": a name has at most %(most)s characters'),
                name=clean[:20],
                most=NAME_LENGTH,
            )
        )
    bad = _BAD_NAME_CHARS.search(clean)
    if bad:
        raise Refused(
            Message(
                N_('"%(name)s": a name cannot contain %(char)s (records use ; : " \\ { } [ ] @)'),
                name=clean,
                char=repr(bad.group(0)),
            )
        )
    if not any(ch.isalpha() for ch in clean):
        raise Refused(Message(N_('"%(name)s": a name needs at least one letter'), name=clean))
    return clean, clean.casefold()


def _player_by_key(conn: Connection, key: str) -> RowMapping | None:
    return (
        conn.execute(select(t.players.c.id, t.players.c.name).where(t.players.c.name_key == key))
        .mappings()
        .first()
    )


def _candidates(conn: Connection, ids: Sequence[int] | None = None) -> list[names.Candidate]:
    """Players as :mod:`tally.names` resolves among them (every player, or those of
    ``ids`` in that order)."""
    q = select(t.players.c.id, t.players.c.name).order_by(t.players.c.name_key)
    if ids is not None:
        q = q.where(t.players.c.id.in_(list(ids)))
    rows = conn.execute(q).all()
    aliases = aliases_of(conn)
    found = [names.Candidate(pid, name, tuple(aliases.get(pid, ()))) for pid, name in rows]
    if ids is not None:
        found.sort(key=lambda c: list(ids).index(c.id or 0))
    return found


def _player_row(conn: Connection, player_id: int) -> RowMapping:
    return (
        conn.execute(select(t.players.c.id, t.players.c.name).where(t.players.c.id == player_id))
        .mappings()
        .one()
    )


def resolve_player(
    conn: Connection, ref: str, pool: list[names.Candidate] | None = None
) -> RowMapping:
    """A player by number, name, alias or unique prefix (:func:`tally.names.resolve`);
    an ambiguous reference is refused with the candidates, an unknown one with the closest
    names. ``pool``: every player as :func:`_candidates` gives them, read once for many
    references."""
    names.check_text(ref, "player")
    number = names.as_number(ref)
    if number is not None and number > names.MAX_ID:
        raise names.UnknownName(names.unknown_message(ref, []))
    if number is not None:
        row = (
            conn.execute(select(t.players.c.id, t.players.c.name).where(t.players.c.id == number))
            .mappings()
            .first()
        )
        if row is not None:
            return row
    else:
        row = _player_by_key(conn, " ".join(ref.split()).casefold())
        if row is not None:
            return row
    found = names.resolve(ref, _candidates(conn) if pool is None else pool)
    assert found.id is not None
    return _player_row(conn, found.id)


@dataclass(frozen=True)
class Lookup:
    """What a name as typed finds (:meth:`Players.look_up`): the one player it means (``found``),
    else the players it fits (``ambiguous``) or whose names are close (a typo, a surname),
    to choose from."""

    ref: str
    found: names.Candidate | None
    choices: tuple[names.Candidate, ...] = ()
    ambiguous: bool = False


def resolve_in_match(
    conn: Connection, ref: str, ids: Sequence[int], where: str | Message
) -> RowMapping:
    """One of the players ``ids`` (a match's two): resolved among them first, so that
    ``--dealer A`` means Anna of "Anna v Bert" even when the club has other players whose
    names start with A; a reference to someone else is refused naming the two."""
    names.check_text(ref, "player")
    pair = _candidates(conn, ids)
    if not names.matches(ref, pair):
        try:
            other = resolve_player(conn, ref)
        except NotFound:
            other = None
        if other is not None:
            raise Refused(
                Message(
                    N_("%(name)s (#%(id)s) does not play%(where)s (%(players)s do)"),
                    name=other["name"],
                    id=other["id"],
                    where=where,
                    players=" and ".join(c.name for c in pair),
                )
            )
    try:
        found = names.resolve_among(ref, pair, where=str(where))
    except names.UnknownName as exc:
        raise Refused(exc.wording) from None
    assert found.id is not None
    return _player_row(conn, found.id)


def _refuse_taken(
    conn: Connection, clean: str, *, alias_of: int | None = None, renaming: int | None = None
) -> None:
    """Refuse a new name or alias (``alias_of`` its player) that a player is called or goes
    by already, ignoring case, spaces and accents (``renaming``: that player's own name may
    be respelt)."""
    folded = names.fold(clean)
    pool = _candidates(conn)
    for c in pool:
        if names.fold(c.name) == folded and c.id != renaming:
            _refuse_name_taken(c, clean, alias_of=alias_of, renaming=renaming)
        for a in c.aliases:
            if names.fold(a) == folded:
                _refuse_alias_taken(c, a, clean, alias_of=alias_of)
    _refuse_lookalike(clean, [c for c in pool if c.id not in (alias_of, renaming)])


def _refuse_name_taken(
    c: names.Candidate, clean: str, *, alias_of: int | None, renaming: int | None
) -> None:
    """Refuse ``clean``, the name of player ``c``: as an alias of another player, as a new
    name for a player (merge them instead), or as a new player's name."""
    if alias_of is not None:
        raise Refused(
            Message(
                N_(
                    '"%(alias)s" is the name of player #%(id)s "%(name)s": an alias '
                    "cannot be another player's name"
                ),
                alias=clean,
                id=c.id,
                name=c.name,
            )
        )
    if renaming is not None:
        raise Refused(
            Message(
                N_(
                    'a player named "%(name)s" exists already (#%(id)s); to make them '
                    "one, %(merge)s"
                ),
                name=c.name,
                id=c.id,
                merge=Advice(N_("use `tally player merge`"), page=ASK_TO_MERGE),
            )
        )
    raise Refused(
        Message(
            N_(
                'a player named "%(name)s" exists already (#%(id)s); if this is someone '
                "else, give their full name"
            ),
            name=c.name,
            id=c.id,
        )
    )


def _refuse_alias_taken(
    c: names.Candidate, alias: str, clean: str, *, alias_of: int | None
) -> None:
    """Refuse ``clean``, which player ``c`` goes by already (as ``alias``): said as such when
    it is the same player's alias again."""
    if alias_of is not None and c.id == alias_of:
        raise Refused(
            Message(
                N_('player #%(id)s "%(name)s" goes by "%(alias)s" already'),
                id=c.id,
                name=c.name,
                alias=alias,
            )
        )
    raise Refused(
        Message(
            N_('"%(alias)s" is an alias of player #%(id)s "%(name)s"%(advice)s'),
            alias=clean,
            id=c.id,
            name=c.name,
            advice=Advice(
                N_(' (remove it with `tally player alias %(id)s "%(alias)s" --remove` first)'),
                id=c.id,
                alias=alias,
            ),
        )
    )


def _refuse_lookalike(clean: str, pool: list[names.Candidate]) -> None:
    """Refuse a new name or alias that looks like the name or alias of a player of ``pool``
    (:func:`tally.names.lookalike`: Unicode TR39's confusable skeletons): two entries nobody
    can tell apart on a sheet or the wall."""
    found = names.lookalike(clean, pool)
    if found is not None:
        other, known = found
        said = {"name": clean, "other": other.label()}
        if known != other.name:
            raise Refused(Message(LOOKS_LIKE_ALIAS, known=known, **said))
        raise Refused(Message(LOOKS_LIKE, **said))


def player_view(store: Database, conn: Connection, pid: int) -> PlayerView:
    name, private = conn.execute(
        select(t.players.c.name, t.players.c.private).where(t.players.c.id == pid)
    ).one()
    return PlayerView(
        pid,
        name,
        len(match_ids_of(conn, pid)),
        tuple(aliases_of(conn, pid).get(pid, ())),
        tuple(eventrows.events_of_player(conn, pid)),
        tuple(categories_of(conn, pid).get(pid, ())),
        bool(private),
    )


def _changed_categories(
    row: RowMapping, have: Sequence[str], given: Sequence[str], remove: bool
) -> list[str]:
    """A player's categories ``have`` with ``given`` added (or, ``remove``, taken away), in
    the order of their keys; each read as a category's name (:func:`tally.names.category_name`).
    Refused when nothing changes: a category the player has already, or has not to remove."""
    held = {names.fold(c): c for c in have}
    read = [names.category_name(c) for c in given]
    if not read:
        raise Refused(N_("give at least one category (such as Damen, Jugend, Senioren)"))
    for clean, key in read:
        if remove and key not in held:
            raise NotFound(
                Message(
                    N_(
                        'player #%(id)s "%(name)s" is not in category "%(category)s" (theirs: '
                        "%(categories)s)"
                    ),
                    id=row["id"],
                    name=row["name"],
                    category=clean,
                    categories=", ".join(have) or "-",
                )
            )
        if remove:
            held.pop(key)
        elif key in held:
            raise Refused(
                Message(
                    N_('player #%(id)s "%(name)s" is in category "%(category)s" already'),
                    id=row["id"],
                    name=row["name"],
                    category=held[key],
                )
            )
        else:
            held[key] = clean
    return [held[k] for k in sorted(held)]


def _check_mergeable(
    conn: Connection,
    keep: RowMapping,
    drop: RowMapping,
    match_ids: Sequence[int],
    event_ids: Sequence[int],
) -> list[int]:
    """Lock ``drop``'s matches and refuse the merge of two entries that are two people (they
    played each other, or a started round robin pairs them); the events both are entered in."""
    kid = keep["id"]
    for mid in match_ids:
        lock_match(conn, mid)
    both = set(match_ids) & set(match_ids_of(conn, kid))
    if both:
        raise Refused(
            Message(
                N_(
                    '"%(keep)s" and "%(drop)s" played each other (match %(match)s): they are two '
                    "people"
                ),
                keep=keep["name"],
                drop=drop["name"],
                match=min(both),
            )
        )
    from tally.events.formats import format_of

    shared = sorted(set(event_ids) & set(eventrows.events_of_player(conn, kid)))
    for eid in shared:
        ev = eventrows.resolve_event(conn, eid, lock=True)
        started = conn.execute(
            select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == eid).limit(1)
        ).first()
        if format_of(ev["kind"]).has_rounds_made_in_advance and started is not None:
            raise Refused(
                Message(
                    N_(
                        '"%(keep)s" and "%(drop)s" are both entered in round robin %(id)s '
                        '"%(name)s", which has started: its schedule pairs them as two players, '
                        "so they stay two entries"
                    ),
                    keep=keep["name"],
                    drop=drop["name"],
                    id=eid,
                    name=ev["name"],
                )
            )
    return shared


def _join_event_entries(conn: Connection, shared: Sequence[int], kid: int, did: int) -> None:
    """Move ``did``'s event entries and byes to ``kid``; where both were entered, one entry
    remains with the better seed and the earlier withdrawal."""
    ep = t.event_players
    for eid in shared:
        rows = {
            r["player_id"]: r
            for r in conn.execute(
                select(ep.c.player_id, ep.c.seed, ep.c.withdrawn_at).where(
                    (ep.c.event_id == eid) & ep.c.player_id.in_([kid, did])
                )
            ).mappings()
        }
        if len(rows) < 2:
            continue  # one of them only sat out a round
        k, d = rows[kid], rows[did]
        withdrawn = (
            None
            if k["withdrawn_at"] is None or d["withdrawn_at"] is None
            else min(k["withdrawn_at"], d["withdrawn_at"])
        )
        conn.execute(delete(ep).where((ep.c.event_id == eid) & (ep.c.player_id == did)))
        conn.execute(
            update(ep)
            .where((ep.c.event_id == eid) & (ep.c.player_id == kid))
            .values(seed=min(k["seed"], d["seed"]), withdrawn_at=withdrawn)
        )
    conn.execute(update(ep).where(ep.c.player_id == did).values(player_id=kid))
    conn.execute(
        update(t.event_rounds)
        .where(t.event_rounds.c.bye_player_id == did)
        .values(bye_player_id=kid)
    )
    _move_absences(conn, kid, did)
    _move_check_ins(conn, kid, did)
    ea = t.event_apart.c
    moved = conn.execute(
        select(ea.event_id, ea.player_a_id, ea.player_b_id).where(
            (ea.player_a_id == did) | (ea.player_b_id == did)
        )
    ).all()
    conn.execute(delete(t.event_apart).where((ea.player_a_id == did) | (ea.player_b_id == did)))
    for eid, a, b in moved:  # a pair kept apart stays so, with the player kept
        other = b if a == did else a
        pair = (min(kid, other), max(kid, other))
        if other != kid and pair not in eventrows.apart_pairs(conn, eid):
            conn.execute(
                insert(t.event_apart).values(event_id=eid, player_a_id=pair[0], player_b_id=pair[1])
            )


def _move_check_ins(conn: Connection, kid: int, did: int) -> None:
    """The treasurer's rows of player ``did``, now of ``kid`` (merged into them): where both
    have one in an event, what they paid, owe and were paid out is added up."""
    ci = t.event_check_ins
    for row in conn.execute(select(ci).where(ci.c.player_id == did)).mappings().all():
        conn.execute(delete(ci).where((ci.c.event_id == row["event_id"]) & (ci.c.player_id == did)))
        mine = ci.c.event_id == row["event_id"], ci.c.player_id == kid
        kept = conn.execute(select(ci).where(*mine)).mappings().first()
        if kept is None:
            conn.execute(insert(ci).values({**row, "player_id": kid}))
            continue
        summed = {k: kept[k] + row[k] for k in ("paid", "extra", "paid_out")}
        present = bool(kept["present"] or row["present"])
        conn.execute(update(ci).where(*mine).values({**summed, "present": present}))


def _move_absences(conn: Connection, kid: int, did: int) -> None:
    """The absences announced by player ``did`` and their no-shows, now of ``kid`` (merged
    into them): each stays, once, for the player kept."""
    for rows in (t.event_absences, t.event_no_shows):
        c = rows.c
        for eid, number in conn.execute(
            select(c.event_id, c.round_number).where(c.player_id == did)
        ).all():
            conn.execute(
                delete(rows).where(
                    (c.event_id == eid) & (c.round_number == number) & (c.player_id == did)
                )
            )
            kept = conn.execute(
                select(c.player_id).where(
                    (c.event_id == eid) & (c.round_number == number) & (c.player_id == kid)
                )
            ).first()
            if kept is None:
                conn.execute(insert(rows).values(event_id=eid, round_number=number, player_id=kid))


def _rename_in_records(
    store: Database,
    conn: Connection,
    match_ids: Sequence[int],
    old: str,
    new: str,
    before: dict[str, Snapshot],
    after: dict[str, Snapshot],
) -> None:
    """Rewrite ``old`` to ``new`` in the claims and tags of the deals of ``match_ids``."""

    def rename(name: str) -> str:
        return new if name == old else name

    for mid in match_ids:
        for deal in load_deals(conn, mid):
            renamed = rename_in_deal(deal, rename)
            if renamed.actions == deal.actions and renamed.tags == deal.tags:
                continue
            key = f"deal:{deal.id}"
            before.setdefault(key, deal_snapshot(deal))
            write_deal_row(conn, renamed)
            after[key] = deal_snapshot(renamed)


def _merge_snapshots(
    conn: Connection, kid: int, did: int, match_ids: list[int], event_ids: list[int]
) -> dict[str, Snapshot]:
    """The two players, the dropped one's events, matches and deals as they are before a
    merge: what ``tally audit undo`` puts back."""
    before: dict[str, Snapshot] = {
        f"player:{did}": snapshot(conn, "player", did),
        f"player:{kid}": snapshot(conn, "player", kid),
    }
    for eid in event_ids:
        before[f"event:{eid}"] = snapshot(conn, "event", eid)
    for tid in _team_ids_of(conn, did):
        before[f"team:{tid}"] = snapshot(conn, "team", tid)
    for mid in match_ids:
        before[f"match:{mid}"] = snapshot(conn, "match", mid)
        for deal in load_deals(conn, mid):
            before[f"deal:{deal.id}"] = deal_snapshot(deal)
    return before


def _team_ids_of(conn: Connection, pid: int) -> list[int]:
    """The teams player ``pid`` plays for."""
    rows = conn.execute(
        select(t.team_members.c.team_id).where(t.team_members.c.player_id == pid)
    ).all()
    return [row[0] for row in rows]


def _move_team_places(conn: Connection, kid: int, did: int) -> None:
    """``did``'s places in teams (board and captaincy) become ``kid``'s; refused when both play
    for one team (the team would list one person twice)."""
    both = set(_team_ids_of(conn, did)) & set(_team_ids_of(conn, kid))
    if both:
        team = conn.execute(select(t.teams.c.name).where(t.teams.c.id == min(both))).scalar_one()
        raise Refused(
            Message(N_("both players play for team %(team)s: change its players first"), team=team)
        )
    conn.execute(
        update(t.team_members).where(t.team_members.c.player_id == did).values(player_id=kid)
    )
    conn.execute(update(t.teams).where(t.teams.c.captain_id == did).values(captain_id=kid))


def _move_aliases_and_categories(conn: Connection, kid: int, did: int) -> None:
    """A merge: ``did``'s aliases go to ``kid``, its categories join ``kid``'s, and its places
    in teams (board and captaincy) become ``kid``'s; refused when both play for one team."""
    _move_team_places(conn, kid, did)
    conn.execute(
        update(t.player_aliases).where(t.player_aliases.c.player_id == did).values(player_id=kid)
    )
    both = categories_of(conn, [kid, did])
    joined = {names.fold(c): c for c in both.get(did, []) + both.get(kid, [])}
    put_categories(conn, did, [])
    put_categories(conn, kid, [joined[k] for k in sorted(joined)])


def _move_matches(
    conn: Connection, match_ids: list[int], before: dict[str, Snapshot], kid: int, did: int
) -> None:
    """Give the dropped player's matches (as player or first dealer) and quick-entry deal wins
    to the kept player."""
    for mid in match_ids:
        snap = before[f"match:{mid}"]
        assert snap is not None
        conn.execute(
            update(t.matches)
            .where(t.matches.c.id == mid)
            .values(
                {
                    col: kid if snap[col] == did else snap[col]
                    for col in ("player_a_id", "player_b_id", "first_dealer_id")
                }
            )
        )
    conn.execute(
        update(t.deals).where(t.deals.c.quick_winner_id == did).values(quick_winner_id=kid)
    )


class Players:
    """The players: added, found (by name, alias or number), renamed, merged, given aliases.
    Reached as ``store.players``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def look_up(self, refs: Sequence[str]) -> list[Lookup]:
        """Each reference as :func:`resolve_player` resolves it (number, name, alias, prefix,
        accents ignored), without refusing: an ambiguous one with the players it fits, an
        unknown one with the closest names (:func:`tally.names.suggestions`). For a form that
        lets the director choose instead of retyping."""
        out: list[Lookup] = []
        with self.store.reading() as conn:
            pool = _candidates(conn)
            by_id = {c.id: c for c in pool}
            for ref in refs:
                try:
                    row = resolve_player(conn, ref, pool)
                except names.AmbiguousName as exc:
                    out.append(Lookup(ref, None, exc.candidates, ambiguous=True))
                    continue
                except names.UnknownName as exc:
                    out.append(Lookup(ref, None, exc.close))
                    continue
                except (NotFound, Refused):
                    out.append(Lookup(ref, None, tuple(names.suggestions(ref, pool))))
                    continue
                out.append(Lookup(ref, by_id[row["id"]]))
        return out

    def add(self, name: str) -> PlayerView:
        """Add a player; names are unique ignoring case, spaces and accents, and a new name
        may not be another player's alias."""
        clean, key = normalize_name(name)
        with self.store.writing() as conn:
            _refuse_taken(conn, clean)
            pid = conn.execute(
                insert(t.players)
                .values(name=clean, name_key=key, created_at=utc_now())
                .returning(t.players.c.id)
            ).scalar_one()
            Audit(self.store).write(
                conn,
                "player add",
                "player",
                pid,
                f'added player "{clean}" (#{pid})',
                {f"player:{pid}": None},
                {f"player:{pid}": snapshot(conn, "player", pid)},
                words=Message(N_("New player %(name)s"), name=clean),
            )
        return PlayerView(pid, clean, 0)

    def all(self) -> list[PlayerView]:
        """Every player, by name, with the number of matches they play in and their
        aliases."""
        with self.store.reading() as conn:
            counts: dict[int, int] = {}
            for a, b in conn.execute(select(t.matches.c.player_a_id, t.matches.c.player_b_id)):
                counts[a] = counts.get(a, 0) + 1
                counts[b] = counts.get(b, 0) + 1
            rows = conn.execute(
                select(t.players.c.id, t.players.c.name, t.players.c.private).order_by(
                    t.players.c.name_key
                )
            ).all()
            aliases = aliases_of(conn)
            categories = categories_of(conn)
            entered: dict[int, list[int]] = {}
            for eid, pid in conn.execute(
                select(t.event_players.c.event_id, t.event_players.c.player_id).order_by(
                    t.event_players.c.event_id
                )
            ):
                entered.setdefault(pid, []).append(eid)
        return [
            PlayerView(
                pid,
                name,
                counts.get(pid, 0),
                tuple(aliases.get(pid, ())),
                tuple(entered.get(pid, ())),
                tuple(categories.get(pid, ())),
                bool(private),
            )
            for pid, name, private in rows
        ]

    def get(self, ref: str) -> PlayerView:
        """One player, found as every command finds one (:mod:`tally.names`), with their
        matches, aliases and events."""
        with self.store.reading() as conn:
            return player_view(self.store, conn, resolve_player(conn, ref)["id"])

    def match_ids(self, ref: str) -> list[int]:
        """The numbers of the matches a player plays in, oldest first."""
        with self.store.reading() as conn:
            return match_ids_of(conn, resolve_player(conn, ref)["id"])

    def add_alias(self, ref: str, alias: str) -> PlayerView:
        """Give a player another name to be found by (``"Jogi"`` for Jürgen Roth); an alias
        is unique and is no player's name. Audited; ``tally audit undo`` takes it back."""
        clean, _key = normalize_name(alias)
        with self.store.writing() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            _refuse_taken(conn, clean, alias_of=pid)
            before = {f"player:{pid}": snapshot(conn, "player", pid)}
            conn.execute(
                insert(t.player_aliases).values(
                    player_id=pid, alias=clean, alias_key=names.fold(clean), created_at=utc_now()
                )
            )
            Audit(self.store).write(
                conn,
                "player alias",
                "player",
                pid,
                f'player #{pid} "{row["name"]}" also goes by "{clean}"',
                before,
                {f"player:{pid}": snapshot(conn, "player", pid)},
                words=Message(N_("%(name)s also goes by %(alias)s"), name=row["name"], alias=clean),
            )
            return player_view(self.store, conn, pid)

    def remove_alias(self, ref: str, alias: str) -> PlayerView:
        """Take an alias away from a player (audited)."""
        with self.store.writing() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            key = names.fold(alias)
            found = conn.execute(
                select(t.player_aliases.c.id, t.player_aliases.c.alias).where(
                    (t.player_aliases.c.player_id == pid) & (t.player_aliases.c.alias_key == key)
                )
            ).first()
            if found is None:
                have = aliases_of(conn, pid).get(pid, [])
                raise NotFound(
                    Message(
                        N_(
                            'player #%(id)s "%(name)s" has no alias "%(alias)s" (their aliases: '
                            "%(aliases)s)"
                        )
                        if have
                        else N_(
                            'player #%(id)s "%(name)s" has no alias "%(alias)s" (they have none)'
                        ),
                        id=pid,
                        name=row["name"],
                        alias=alias.strip(),
                        aliases=", ".join(have),
                    )
                )
            before = {f"player:{pid}": snapshot(conn, "player", pid)}
            conn.execute(delete(t.player_aliases).where(t.player_aliases.c.id == found[0]))
            Audit(self.store).write(
                conn,
                "player unalias",
                "player",
                pid,
                f'player #{pid} "{row["name"]}" no longer goes by "{found[1]}"',
                before,
                {f"player:{pid}": snapshot(conn, "player", pid)},
                words=Message(
                    N_("%(name)s no longer goes by %(alias)s"), name=row["name"], alias=found[1]
                ),
            )
            return player_view(self.store, conn, pid)

    def set_categories(
        self, ref: str, categories: Sequence[str], *, remove: bool = False
    ) -> PlayerView:
        """Put a player in ``categories`` (women, juniors, club members, the club's own), or
        take them out (``remove``): the standings of a category (``tally standings
        --category``) and its prizes follow. Audited; ``tally audit undo`` takes it back."""
        with self.store.writing() as conn:
            row = resolve_player(conn, ref)
            pid = row["id"]
            have = categories_of(conn, pid).get(pid, [])
            now = _changed_categories(row, have, categories, remove)
            before = {f"player:{pid}": snapshot(conn, "player", pid)}
            put_categories(conn, pid, now)
            shown = ", ".join(now) or "-"
            Audit(self.store).write(
                conn,
                "player category",
                "player",
                pid,
                f'player #{pid} "{row["name"]}" is in the categories: {shown}',
                before,
                {f"player:{pid}": snapshot(conn, "player", pid)},
                words=Message(
                    N_("%(name)s's categories: %(categories)s"), name=row["name"], categories=shown
                ),
            )
            return player_view(self.store, conn, pid)

    def set_private(self, ref: str, private: bool) -> PlayerView:
        """Keep a player private on the published site (shown by their initials), or show
        their name again (``private`` False); audited, undone by ``tally audit undo``."""
        with self.store.writing() as conn:
            row = resolve_player(conn, ref)
            pid, name = row["id"], row["name"]
            key = f"player:{pid}"
            before: dict[str, Snapshot] = {key: snapshot(conn, "player", pid)}
            if bool((before[key] or {}).get("private")) == private:
                said = (
                    N_("%(name)s is already private") if private else N_("%(name)s is not private")
                )
                raise Refused(Message(said, name=name))
            conn.execute(update(t.players).where(t.players.c.id == pid).values(private=private))
            words = N_("%(name)s made private") if private else N_("%(name)s made public")
            Audit(self.store).write(
                conn,
                "player private" if private else "player public",
                "player",
                pid,
                f'player #{pid} "{name}" ' + ("made private" if private else "made public"),
                before,
                {key: snapshot(conn, "player", pid)},
                words=Message(words, name=name),
            )
            return player_view(self.store, conn, pid)

    def rename(self, ref: str, new_name: str) -> PlayerView:
        """Rename a player; records that name them (claims, Hands...) follow."""
        clean, key = normalize_name(new_name)
        with self.store.writing() as conn:
            row = resolve_player(conn, ref)
            pid, old = row["id"], row["name"]
            if clean == old:
                raise Refused(Message(N_('the player is already called "%(name)s"'), name=old))
            _refuse_taken(conn, clean, renaming=pid)
            before: dict[str, Snapshot] = {f"player:{pid}": snapshot(conn, "player", pid)}
            after: dict[str, Snapshot] = {}
            conn.execute(
                update(t.players).where(t.players.c.id == pid).values(name=clean, name_key=key)
            )
            after[f"player:{pid}"] = snapshot(conn, "player", pid)
            _rename_in_records(self.store, conn, match_ids_of(conn, pid), old, clean, before, after)
            Audit(self.store).write(
                conn,
                "player rename",
                "player",
                pid,
                f'renamed player #{pid} "{old}" to "{clean}"',
                before,
                after,
                words=Message(N_("%(old)s renamed to %(new)s"), old=old, new=clean),
            )
            return player_view(self.store, conn, pid)

    def merge(self, keep_ref: str, drop_ref: str) -> PlayerView:
        """Make two entries for one person one: ``drop``'s matches, events, byes and aliases
        move to ``keep``, and ``drop``'s entry is deleted.

        Allowed whenever the two never met in a match. When both are entered in the same
        event, the entries become one: it keeps the better (lower) seed of the two, and it is
        withdrawn only if both were (then at the earlier withdrawal). Refused when both are
        entered in a round robin whose first round has started: its schedule pairs them as
        two players. ``tally audit undo`` separates them again."""
        with self.store.writing() as conn:
            keep = resolve_player(conn, keep_ref)
            drop = resolve_player(conn, drop_ref)
            kid, did = keep["id"], drop["id"]
            if kid == did:
                raise Refused(
                    Message(
                        N_('"%(keep)s" and "%(drop)s" are the same entry'),
                        keep=keep["name"],
                        drop=drop["name"],
                    )
                )
            match_ids = match_ids_of(conn, did)
            event_ids = eventrows.events_of_player(conn, did)
            shared = _check_mergeable(conn, keep, drop, match_ids, event_ids)
            before = _merge_snapshots(conn, kid, did, match_ids, event_ids)
            after: dict[str, Snapshot] = {}
            _rename_in_records(
                self.store, conn, match_ids, drop["name"], keep["name"], before, after
            )
            _move_matches(conn, match_ids, before, kid, did)
            _join_event_entries(conn, shared, kid, did)
            _move_aliases_and_categories(conn, kid, did)
            for mid in match_ids:
                rewrite_results(conn, mid)
            conn.execute(delete(t.players).where(t.players.c.id == did))
            for key in before:
                kind, _, ident = key.partition(":")
                after[key] = snapshot(conn, kind, int(ident))
            joined = (
                f", {len(shared)} event entr{'y' if len(shared) == 1 else 'ies'} joined"
                if shared
                else ""
            )
            Audit(self.store).write(
                conn,
                "player merge",
                "player",
                kid,
                f'merged player #{did} "{drop["name"]}" into #{kid} "{keep["name"]}" '
                f"({len(match_ids)} match(es) moved{joined})",
                before,
                after,
                words=Message(
                    N_("%(dropped)s merged into %(kept)s"), dropped=drop["name"], kept=keep["name"]
                ),
            )
            return player_view(self.store, conn, kid)
