"""How fast ``tally publish`` writes the bundled examples, and how little a new result moves.

    python benchmarks/publish.py [--runs 3] [--lang en]

The four bundled example events (``examples/``) are loaded into a new SQLite database with a
series over two of them, then:

1. the whole site is published into an empty folder (every page made and written), best and
   median of ``--runs``, with the CPU time of the process beside it; goal (issue 38): under
   30 s on the 2-core club laptop;
2. published again with nothing changed: no file written;
3. one new result (a deal entered in a new match of the club evening) and published again:
   the files written are listed; goal: only the index, the club evening's page, the new
   match's page and its two players' pages.

Prints each figure and its ratio to its goal: a ratio under 1 meets it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tally.files.importing import load_paths  # noqa: E402
from tally.publish.watch import publish  # noqa: E402
from tally.store import Store, open_store  # noqa: E402

EXAMPLES = ("club-evening", "knockout", "round-robin", "swiss")
#: issue 38: the bundled examples publish in under 30 s
GOAL_SECONDS = 30.0


def loaded(folder: Path) -> Store:
    """A store with the bundled examples and a series over two of them."""
    store = open_store(f"sqlite:///{folder / 'club.db'}", scorer="benchmark")
    load_paths(store, [ROOT / "examples" / name for name in EXAMPLES])
    events = store.events.all()
    store.series.create("Club Cup", events=[events[0].id, events[-1].id], points=[10, 8, 6])
    return store


def whole_site(store: Store, folder: Path, runs: int, lang: str) -> None:
    """Step 1 and 2: into an empty folder ``runs`` times, then once more unchanged."""
    walls, cpus = [], []
    for run in range(runs):
        out = folder / f"site-{run}"
        wall, cpu = time.perf_counter(), time.process_time()
        done = publish(store, out, lang=lang)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    best, median = min(walls), statistics.median(walls)
    print(f"whole site: {len(done.written)} files")
    print(f"  best {best:.2f} s, median {median:.2f} s (CPU {min(cpus):.2f} s)")
    print(f"  ratio to the {GOAL_SECONDS:.0f} s goal: {median / GOAL_SECONDS:.3f}")
    again = publish(store, folder / "site-0", lang=lang)
    print(f"unchanged: {len(again.written)} files written, {again.unchanged} kept")


def one_result(store: Store, folder: Path, lang: str) -> None:
    """Step 3: a deal entered in a new match of the club evening, published again."""
    club = next(e for e in store.events.all() if not e.format.has_rounds)
    a, b = "Anna Berger", "Franz Moser"
    match = store.matches.start(a, b, first_dealer=a, event=club.id)
    store.deals.quick_result(match.id, winner=a, points=2)
    wall = time.perf_counter()
    done = publish(store, folder / "site-0", lang=lang)
    took = time.perf_counter() - wall
    print(f"one new result: {len(done.written)} files written in {took:.2f} s:")
    for path in done.written:
        print(f"  {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        store = loaded(folder)
        try:
            whole_site(store, folder, args.runs, args.lang)
            one_result(store, folder, args.lang)
        finally:
            store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
