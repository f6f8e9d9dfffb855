"""Write the bundled example events: a club evening, an 8-player round robin, a 9-player
Swiss event of 5 rounds and a 16-player knockout with three lives (Preisschnapsen).

    python examples/generate.py

Each event is a folder with ``event.toml`` (the event, its players and its matches) and
``deals/`` (the ``.deal`` records of the matches kept trick by trick). The other matches carry
quick results, as a club keeps them on paper. The deals are random legal deals played by the
engine (:func:`tally.engine.match.simulate_match`), seeded, so the files are the same on every run.
The Swiss event is paired round by round by tally itself (a scratch database in a temporary
folder holds the results so far), so ``tally load`` pairs it the same way.
"""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path
from tempfile import TemporaryDirectory

from tally.engine.match import DealResult, simulate_match
from tally.engine.notation import DealRecord, write_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule
from tally.errors import TallyError
from tally.events.schedule import berger_schedule

HERE = Path(__file__).resolve().parent

CLUB = ["Anna Berger", "Bert Huber", "Clara Wimmer", "Dieter Gruber", "Eva Pichler", "Franz Moser"]
KNOCKOUT = [
    "Alois Brunner",
    "Brigitte Haas",
    "Christian Mayr",
    "Doris Egger",
    "Erich Schober",
    "Fritzi Lechner",
    "Gustl Wallner",
    "Hermine Kern",
    "Ignaz Pfeiffer",
    "Johanna Rauch",
    "Konrad Stadler",
    "Leopoldine Berger",
    "Manfred Huemer",
    "Notburga Reiter",
    "Otto Fink",
    "Paula Strasser",
]
ROUND_ROBIN = [
    "Gerti Hofer",
    "Hans Leitner",
    "Ilse Bauer",
    "Josef Eder",
    "Karin Wolf",
    "Lukas Fuchs",
    "Maria Steiner",
    "Norbert Lang",
]
SWISS = [
    "Otto Brunner",
    "Paula Egger",
    "Quirin Mayr",
    "Rosa Haas",
    "Stefan Koller",
    "Theresa Reiter",
    "Ulrich Wallner",
    "Vera Aigner",
    "Walter Lechner",
]


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _match_block(
    folder: Path,
    key: str,
    players: tuple[str, str],
    first: str,
    rules: RuleSet,
    rng: random.Random,
    recorded: bool,
    extra: dict[str, int],
    event: str,
    played: list[DealResult] | None = None,
    records: list[DealRecord] | None = None,
) -> list[str]:
    if records is None:
        records = simulate_match(rules, players, first, rng, tags={"Event": event})
    if played is not None:  # each deal's result, for the caller
        for record in records:
            r = rule(record)
            assert r.outcome is not None
            played.append(DealResult(r.outcome.winner, r.deal_points, r.outcome.reason))
    lines = ["", "[[matches]]"]
    lines += [f"{k} = {v}" for k, v in extra.items()]
    lines.append(f"players = [{_q(players[0])}, {_q(players[1])}]")
    lines.append(f"first_dealer = {_q(first)}")
    if recorded:
        names = []
        for i, record in enumerate(records, start=1):
            name = f"deals/{key}-deal{i}.deal"
            (folder / name).write_text(write_deal(record), encoding="utf-8")
            names.append(_q(name))
        lines.append("records = [" + ", ".join(names) + "]")
    else:
        results = []
        for record in records:
            ruling = rule(record)
            assert ruling.outcome is not None
            o = ruling.outcome
            if o.winner is None:
                results.append(_q("draw"))
            else:
                results.append(_q(f"{o.winner} {ruling.deal_points} {o.reason}"))
        lines.append("results = [" + ", ".join(results) + "]")
    return lines


def _fresh_folder(name: str) -> Path:
    """The event's folder, with an empty ``deals/`` in it."""
    folder = HERE / name
    (folder / "deals").mkdir(parents=True, exist_ok=True)
    for old in (folder / "deals").glob("*.deal"):
        old.unlink()
    return folder


def _write_event(folder: Path, header: list[str], blocks: list[str]) -> None:
    (folder / "event.toml").write_text("\n".join(header + blocks) + "\n", encoding="utf-8")


def club_evening() -> None:
    folder = _fresh_folder("club-evening")
    name = "Thursday Club Evening"
    rules = RuleSet.parse("sixty-six")
    rng = random.Random(1966)
    header = [
        "# A club evening: members sit down as tables free up; any pairing, any number of",
        "# matches. Matches with `records` were kept trick by trick, the others on paper.",
        f"name = {_q(name)}",
        'kind = "club-evening"',
        'date = "2026-11-19"',
        f"rules = {_q(rules.spec)}",
        "players = [" + ", ".join(_q(p) for p in CLUB) + "]",
    ]
    pairs = [(0, 1), (2, 3), (4, 5), (0, 2), (1, 4), (3, 5), (0, 1)]
    blocks: list[str] = []
    for i, (a, b) in enumerate(pairs, start=1):
        players = (CLUB[a], CLUB[b])
        first = players[i % 2]
        blocks += _match_block(
            folder, f"match{i}", players, first, rules, rng, recorded=i <= 3, extra={}, event=name
        )
    _write_event(folder, header, blocks)


def round_robin() -> None:
    folder = _fresh_folder("round-robin")
    name = "Autumn Round Robin 2026"
    rules = RuleSet.parse("schnapsen")
    rng = random.Random(2026)
    header = [
        "# An 8-player single round robin by the Berger tables, one match (Bummerl) per",
        "# pairing. Rounds 1 to 3 were kept trick by trick, rounds 4 to 7 on paper.",
        f"name = {_q(name)}",
        'kind = "round-robin"',
        'date = "2026-10-01"',
        f"rules = {_q(rules.spec)}",
        "players = [" + ", ".join(_q(p) for p in ROUND_ROBIN) + "]",
    ]
    blocks: list[str] = []
    for rnd in berger_schedule(ROUND_ROBIN):
        for pairing in rnd.pairings:
            players = (pairing.first, pairing.second)
            key = f"round{rnd.number}-table{pairing.table}"
            blocks += _match_block(
                folder,
                key,
                players,
                pairing.first,
                rules,
                rng,
                recorded=rnd.number <= 3,
                extra={"round": rnd.number, "table": pairing.table},
                event=name,
            )
    _write_event(folder, header, blocks)


def knockout() -> None:
    """16 players, three lives, each round drawn by lot with seed 2026; the last four play a
    straight knockout. The rounds are drawn by tally itself (a throwaway database: each
    round started as `tally event round --start` does, its matches played by the engine), so
    the file is exactly what `tally load` draws again. Round 1 kept trick by trick, the
    rest on paper."""
    import tempfile

    from tally.store import open_store

    folder = _fresh_folder("knockout")
    name = "Preisschnapsen 2026"
    rules = RuleSet.parse("schnapsen")
    rng = random.Random(1101)
    lives, seed, final = 3, "2026", 4
    header = [
        "# A Preisschnapsen: 16 players, three lives each. Every round is drawn by lot among",
        "# the players still in (seed 2026); a lost match (Bummerl) costs a life; the last",
        "# four play a straight knockout (semi-finals and final). Round 1 was kept trick by",
        "# trick, the later rounds on paper.",
        f"name = {_q(name)}",
        'kind = "knockout"',
        'date = "2026-11-21"',
        f"rules = {_q(rules.spec)}",
        f"lives = {lives}",
        f"seed = {_q(seed)}",
        f"final = {final}",
        "players = [" + ", ".join(_q(p) for p in KNOCKOUT) + "]",
    ]
    blocks: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'draw.db'}", scorer="generate.py")
        try:
            for player in KNOCKOUT:
                store.players.add(player)
            ev = store.events.create(
                name,
                kind="knockout",
                players=KNOCKOUT,
                rules=rules.spec,
                lives=lives,
                draw_seed=seed,
                final_size=final,
            )
            number = 0
            while True:
                number += 1
                try:
                    rnd = store.events.start_round(ev.id, number)
                except TallyError:  # over: one player left
                    break
                for pairing in rnd.pairings:
                    players = (pairing.first, pairing.second)
                    played: list[DealResult] = []
                    blocks += _match_block(
                        folder,
                        f"round{number}-table{pairing.table}",
                        players,
                        pairing.first_dealer,
                        rules,
                        rng,
                        recorded=number == 1,
                        extra={"round": number, "table": pairing.table},
                        event=name,
                        played=played,
                    )
                    for deal in played:  # the same results as the file: the same draws
                        store.deals.quick_result(
                            pairing.matches[0].match_id,
                            winner=deal.winner,
                            points=deal.deal_points,
                            reason=deal.reason,
                        )
        finally:
            store.close()
    _write_event(folder, header, blocks)


def swiss() -> None:
    from tally.store import open_store

    folder = _fresh_folder("swiss")
    name = "Winter Swiss Open 2026"
    rules = RuleSet.parse("sixty-six")
    rng = random.Random(1906)
    header = [
        "# A 9-player Swiss event of 5 rounds, each round paired by tally from the standings",
        "# after the rounds before it (tally load pairs it again and checks every table); one",
        "# player sits out each round and scores a win. Rounds 1 and 2 were kept trick by",
        "# trick, rounds 3 to 5 on paper.",
        f"name = {_q(name)}",
        'kind = "swiss"',
        "rounds = 5",
        'bye = "win"',
        'date = "2026-12-05"',
        f"rules = {_q(rules.spec)}",
        "players = [" + ", ".join(_q(p) for p in SWISS) + "]",
    ]
    blocks: list[str] = []
    with TemporaryDirectory() as tmp, open_store(f"sqlite:///{tmp}/swiss.db") as store:
        for player in SWISS:
            store.players.add(player)
        ev = store.events.create(
            name,
            kind="swiss",
            players=SWISS,
            rules=rules.spec,
            rounds=5,
            bye="win",
            held_on=date(2026, 12, 5),
        )
        for number in range(1, 6):
            for pairing in store.events.start_round(ev.id, number).pairings:
                first = pairing.first_dealer
                players = (first, pairing.second if first == pairing.first else pairing.first)
                records = simulate_match(rules, players, first, rng, tags={"Event": name})
                key = f"round{number}-table{pairing.table}"
                blocks += _match_block(
                    folder,
                    key,
                    players,
                    first,
                    rules,
                    rng,
                    recorded=number <= 2,
                    extra={"round": number, "table": pairing.table},
                    event=name,
                    records=records,
                )
                store.deals.import_records(
                    pairing.matches[0].match_id,
                    [(f"{key}-deal{i}", write_deal(r)) for i, r in enumerate(records, start=1)],
                )
    _write_event(folder, header, blocks)


if __name__ == "__main__":
    club_evening()
    round_robin()
    swiss()
    knockout()
