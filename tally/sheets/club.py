"""A club evening's pairings sheet: the tables as they sit down.

A club evening has no rounds: members sit down as tables free up and the director starts
their matches (``tally match start A B --dealer A --event EVENT``). ``tally print pairings
EVENT`` then prints the tables being played: a row per match not yet over, numbered as the
tables in the order the matches were started, with the match number (what the scorer types),
the two players, who deals first and a box for the result; under them the players of the
evening at no table (and not withdrawn), who wait for the next free table.

Choices made where the issue is silent: a finished match has left its table and is not
listed (its result is on the standings sheet); a match being played stays on the sheet
until it is over, whatever deals it has; the table numbers are the order of the running
matches (the store keeps no table for a club match), so a sheet printed later after a match
ended numbers the tables afresh and says when it was printed.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from tally.errors import N_, Message, Refused

if TYPE_CHECKING:
    from tally.sheets.data import PairingsSheet
    from tally.store import Store


def club_pairings_sheet(
    store: Store, ref: str | int, *, printed_at: datetime | None = None
) -> PairingsSheet:
    """The tables of club evening ``ref`` as they sit down (see the module docstring)."""
    from tally.sheets.data import PairingsSheet, PairingTable

    ev = store.events.get(ref)
    if ev.format.has_rounds:
        raise Refused(
            Message(
                N_(
                    'event %(event)s "%(name)s" has rounds: '
                    "print a round's pairings with --round N"
                ),
                event=ev.id,
                name=ev.name,
            )
        )
    running = [m for m in store.matches.all() if m.event_id == ev.id and not m.over]
    tables: list[PairingTable] = []
    seated: set[str] = set()
    for number, m in enumerate(running, start=1):
        view = store.matches.state(m.id)
        tables.append(
            PairingTable(number, m.players[0], m.players[1], view.first_dealer, match_id=m.id)
        )
        seated.update(m.players)
    waiting = tuple(p.name for p in ev.players if not p.withdrawn and p.name not in seated)
    return PairingsSheet(
        event=ev.name,
        round_number=None,
        rule_set=ev.rules,
        printed_at=printed_at or datetime.now().replace(second=0, microsecond=0),
        tables=tuple(tables),
        date=ev.date,
        waiting=waiting,
    )
