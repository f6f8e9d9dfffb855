"""Events for the wall's tests (``tests/test_web_wall*.py``), built with the store's public
calls: names as a club has them (some long, with umlauts and hyphens), a round robin and Swiss
events in the middle of a round (some tables over, some playing, some not begun)."""

from __future__ import annotations

from typing import Any

FIRST = [
    "Anna",
    "Bert",
    "Clara",
    "Dominik",
    "Elisabeth",
    "Franz",
    "Gertraud",
    "Hubert",
    "Ingrid",
    "Johann",
    "Katharina",
    "Leopold",
    "Maria",
    "Norbert",
    "Ottilie",
    "Peter",
]
LAST = [
    "Berger",
    "Huber",
    "Wimmer",
    "Gruber",
    "Oberleitner-Schwarzmüller",
    "Bauer",
    "Moser",
    "Steinbichler",
    "Auer",
    "Pichler",
    "Weißenböck",
    "Hofer",
    "Leitner",
    "Eder",
    "Brandstätter",
    "Fuchs",
]


def names(n: int) -> list[str]:
    """``n`` distinct players' names; every seventh a long double name."""
    out = []
    for i in range(n):
        first, last = FIRST[i % len(FIRST)], LAST[(i * 7 + i // len(FIRST)) % len(LAST)]
        if i % 7 == 4:
            last = f"{last}-{LAST[(i + 3) % len(LAST)]}"
        out.append(f"{first} {last}")
    assert len(set(out)) == n
    return out


def enter(store: Any, n: int) -> list[str]:
    """The first ``n`` of :func:`names`, added to the store where they are not yet."""
    players = names(n)
    known = {p.name for p in store.players.all()}
    for name in players:
        if name not in known:
            store.players.add(name)
    return players


def win(store: Any, match_id: int, winner: str, points: int = 7) -> None:
    """The winner takes the match: quick deals of 3, 3 and 1 game points (7 in all)."""
    while points > 0:
        store.deals.quick_result(match_id, winner=winner, points=min(points, 3), reason="claim")
        points -= 3


def _finish(store: Any, pairings: Any, how_many: int) -> None:
    """The first ``how_many`` tables finish (the first-listed player wins), the next one
    is half played, the rest have not begun."""
    for p in list(pairings)[:how_many]:
        win(store, p.matches[0].match_id, p.first)
    rest = list(pairings)[how_many:]
    if rest:
        store.deals.quick_result(
            rest[0].matches[0].match_id, winner=rest[0].second, points=2, reason="claim"
        )


def round_robin(store: Any, n: int = 8) -> int:
    """A round robin of ``n`` players in round 2: round 1 over, two tables of round 2 over."""

    players = enter(store, n)
    ev = store.events.create("Vereinsmeisterschaft 2026", kind="round-robin", players=players)
    _finish(store, store.events.start_round(ev.id, 1).pairings, n)
    _finish(store, store.events.start_round(ev.id, 2).pairings, 2)
    return int(ev.id)


def swiss(store: Any, n: int) -> int:
    """A Swiss event of ``n`` players, 5 rounds, in round 2: round 1 over, a third of the
    tables of round 2 over."""

    players = enter(store, n)
    ev = store.events.create(f"Open {n}", kind="swiss", players=players, rounds=5)
    _finish(store, store.events.start_round(ev.id, 1).pairings, n)
    rnd = store.events.start_round(ev.id, 2)
    _finish(store, rnd.pairings, len(rnd.pairings) // 3)
    return int(ev.id)


def knockout(store: Any, n: int = 32) -> int:
    """A knockout with two lives (a Preisschnapsen) of ``n`` players, in round 1."""

    ev = store.events.create(
        "Preisschnapsen", kind="knockout", players=enter(store, n), lives=2, draw_seed="2026"
    )
    rnd = store.events.start_round(ev.id, 1)
    _finish(store, rnd.pairings, len(rnd.pairings) // 2)
    return int(ev.id)


def groups(store: Any, n: int = 16) -> int:
    """Groups of four then a knockout, ``n`` players, in the first group round."""

    ev = store.events.create(
        "Gruppenturnier", kind="groups", players=enter(store, n), groups=n // 4, advance=2
    )
    _finish(store, store.events.start_round(ev.id, 1).pairings, n // 4)
    return int(ev.id)


def club(store: Any, n: int = 12) -> int:
    """A club evening of ``n`` players: every player in a match, the first half over."""

    players = enter(store, n)
    ev = store.events.create("Clubabend", players=players)
    for i in range(0, n, 2):
        match = store.matches.start(
            players[i], players[i + 1], first_dealer=players[i], event=ev.id
        )
        if i < n // 2:
            win(store, match.id, players[i])
    return int(ev.id)


#: a Preisschnapsen's field: given and family names as long as an Austrian club has them
GIVEN = ["Bartholomäus", "Ferdinand", "Maximilian", "Leopoldine", "Friederike", "Konstantin"]
FAMILY = [
    "Mühlbacher",
    "Oberhollenzer",
    "Schwarzenberger",
    "Pfeiffenberger",
    "Hinterleitner",
    "Kirchschläger",
]


def preisschnapsen(store: Any, n: int = 32) -> int:
    """A knockout with two lives of ``n`` players named like "Bartholomäus Mühlbacher",
    with a prize table and buy-backs, in round 1 (half its tables over)."""

    players = [f"{GIVEN[i % 6]} {FAMILY[(i // 6 + i) % 6]}" for i in range(n)]
    assert len(set(players)) == n
    for name in players:
        store.players.add(name)
    ev = store.events.create(
        "Preisschnapsen", kind="knockout", players=players, lives=2, draw_seed="2026"
    )
    store.prizes.set_money(ev.id, entry_fee=1050, shares="40,25,15,10,5", buy_back_until=3)
    rnd = store.events.start_round(ev.id, 1)
    _finish(store, rnd.pairings, len(rnd.pairings) // 2)
    return int(ev.id)
