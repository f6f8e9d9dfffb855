"""Seeding by rating (``tally event create --seed-by rating``): an event's seeding list
ordered by the players' ratings instead of their order of entry.

The seeding list is the event's seed order (``event_players.seed``), which everything that
seeds reads: a Swiss event's initial order (round 1, and the last tiebreak of the pairing
order after it), the order a knockout's draw by lot is made from and the last tiebreak of
its final stage's seeding, and the groups' snake. An event seeded by rating keeps its order
of entry until its first round is started; then :func:`fix_seeding` renumbers the seeds by
the ratings of that moment (:meth:`Seeding.ratings_to_seed`: the conservative rating, mu - 3 sigma,
that ranks the ratings list), the rated players first, best first, then the players without
a rating; ties, and the unrated, in their order of entry. Each player's rating is kept with
the seed (``event_players.seed_rating``) and the event marked ``seeded``: later ratings do
not move the order, and a late entry is seeded after everyone, as in an event seeded by
entry. ``tally load`` fixes the seeding with the ratings its file gives
(:func:`tally.files.importing.load_event_file`), so an event is paired again the same way in
another database.
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import select, update
from sqlalchemy.engine import Connection, RowMapping

from tally.errors import Message, Refused
from tally.i18n import N_
from tally.store import eventrows
from tally.store import tables as t
from tally.store.corrections import Audit, snapshot
from tally.store.ratings import Ratings
from tally.store.transactions import Database

__all__ = ["SEED_BY", "fix_seeding", "seeded_order"]

#: what a seeding list may follow (the first: the default)
SEED_BY = ("entry", "rating")


def seeded_order(
    entries: list[int], ratings: Mapping[int, float | None]
) -> list[tuple[int, float | None]]:
    """``entries`` (player ids in order of entry) in seeding order with their ratings: the
    rated players best first, then those without a rating (None), ties in order of entry.

    >>> seeded_order([1, 2, 3, 4], {1: None, 2: 3.5, 3: 7.25, 4: 3.5})
    [(3, 7.25), (2, 3.5), (4, 3.5), (1, None)]
    """
    place = {p: i for i, p in enumerate(entries)}

    def key(p: int) -> tuple[int, float, int]:
        rating = ratings.get(p)
        return (1, 0.0, place[p]) if rating is None else (0, -rating, place[p])

    return [(p, ratings.get(p)) for p in sorted(entries, key=key)]


def fix_seeding(conn: Connection, ev: RowMapping, ratings: Mapping[int, float | None]) -> None:
    """Renumber event ``ev``'s seeds by ``ratings`` (player id -> rating, None or missing:
    unrated; :func:`seeded_order`), keep each player's rating and mark the seeding fixed.
    Refused once a round is started (the order is fixed then)."""
    eid = ev["id"]
    if conn.execute(
        select(t.event_rounds.c.number).where(t.event_rounds.c.event_id == eid).limit(1)
    ).first():
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" has started rounds: its seeding is fixed'),
                id=eid,
                name=ev["name"],
            )
        )
    entries = [p["player_id"] for p in eventrows.event_players(conn, eid)]
    ep = t.event_players
    order = seeded_order(entries, ratings)
    # two passes: (event_id, seed) is unique, also while the seeds are being renumbered
    for seed, (player, rating) in enumerate(order, start=1):
        conn.execute(
            update(ep)
            .where((ep.c.event_id == eid) & (ep.c.player_id == player))
            .values(seed=-seed, seed_rating=rating)
        )
    conn.execute(update(ep).where(ep.c.event_id == eid).values(seed=-ep.c.seed))
    conn.execute(update(t.events).where(t.events.c.id == eid).values(seeded=True))


class Seeding:
    """An event's seeding list fixed by the ratings. Reached as ``store.seeding``."""

    def __init__(self, store: Database) -> None:
        self.store = store

    def ratings_to_seed(self, ref: str | int) -> dict[int, float | None] | None:
        """The ratings to fix event ``ref``'s seeding with now: player id -> conservative rating
        (None: no rated match); None when the event is not seeded by rating or its seeding is
        fixed already. Read before the caller's write transaction, so that rating every match
        does not hold the database's write lock."""
        with self.store.reading() as conn:
            ev = eventrows.resolve_event(conn, ref)
            if ev["seed_by"] != "rating" or ev["seeded"]:
                return None
            entries = [p["player_id"] for p in eventrows.event_players(conn, ev["id"])]

        table = Ratings(self.store).current().table
        return {p: table.rating(p).conservative if table.rated(p) else None for p in entries}

    def fix(self, ref: str | int, ratings: Mapping[int, float | None]) -> None:
        """Fix event ``ref``'s seeding by the ``ratings`` given (player id -> rating; what a
        loaded file says each player was seeded by) before its first round; audited. Refused
        for an event not seeded by rating, or once a round is started."""
        with self.store.writing() as conn:
            ev = eventrows.resolve_event(conn, ref, lock=True)
            if ev["seed_by"] != "rating":
                raise Refused(
                    Message(
                        N_('event %(id)s "%(name)s" is seeded by entry, not by rating'),
                        id=ev["id"],
                        name=ev["name"],
                    )
                )
            before = snapshot(conn, "event", ev["id"])
            fix_seeding(conn, ev, ratings)
            Audit(self.store).write(
                conn,
                "event seed",
                "event",
                ev["id"],
                f'seeded event {ev["id"]} "{ev["name"]}" by rating',
                {f"event:{ev['id']}": before},
                {f"event:{ev['id']}": snapshot(conn, "event", ev["id"])},
                words=Message(N_("%(event)s seeded by rating"), event=ev["name"]),
            )
