"""Benchmark: print the standings of a 64-player event as a fresh process would.

Each run starts a new Python process (so imports are paid as ``tally print`` pays them) that
imports tally's printing layer, builds the standings data, renders the HTML with Jinja2, imports
WeasyPrint, lays the PDF out and writes it. The parent reports, over the runs (median):

* the whole process, from ``python`` starting to the PDF on disk;
* tally's part: importing tally's modules, building the data, Jinja2 rendering, writing the file;
* WeasyPrint's part: importing WeasyPrint, layout and PDF generation.

Targets: whole process under 1.5 s, tally's part under a fifth of it.

Run from the repository: ``.venv/bin/python benchmarks/pdf.py [--runs N] [--paper letter]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PLAYERS = 64
TARGET_TOTAL = 1.5
TARGET_SHARE = 0.2


def child(out: Path, paper: str) -> None:
    """One run: time each phase and print the timings as one line of JSON."""
    t0 = time.perf_counter()
    import random
    from datetime import date, datetime

    from tally.printing import html_to_pdf, render_html, write_pdf
    from tally.sheets import StandingRow, StandingsSheet

    t1 = time.perf_counter()
    rng = random.Random(64)
    rows = []
    for i in range(PLAYERS):
        won = rng.randint(0, 7)
        gp_won, gp_conceded = rng.randint(20, 60), rng.randint(20, 60)
        rows.append(StandingRow(
            rank=i + 1, player=f"Player {i + 1:02d} {rng.choice(['Berger', 'Novák', 'Huber'])}",
            played=7, won=won, lost=7 - won, match_points=2 * won, game_points_won=gp_won,
            game_points_conceded=gp_conceded, schneider_wins=rng.randint(0, 4),
            schwarz_wins=rng.randint(0, 2),
            tiebreaks=(rng.randint(20, 60) / 2, rng.randint(0, 90) / 4, rng.randint(0, 7))))
    sheet = StandingsSheet(
        event="Club championship 2024", date=date(2024, 5, 11),
        rule_set="Schnapsen, first to 7 game points", printed_at=datetime(2024, 5, 11, 18, 30),
        rows=tuple(rows), tiebreaks=("Buchholz", "Sonneborn-Berger", "Wins"),
        stage="after round 7 of 7")
    t2 = time.perf_counter()
    html = render_html("standings.html.j2", sheet, paper=paper)
    t3 = time.perf_counter()
    import weasyprint  # type: ignore[import-untyped]  # noqa: F401 - WeasyPrint's share

    t4 = time.perf_counter()
    pdf = html_to_pdf(html)
    t5 = time.perf_counter()
    write_pdf(pdf, out)
    t6 = time.perf_counter()
    print(json.dumps({
        "import_tally": t1 - t0, "data": t2 - t1, "jinja": t3 - t2,
        "import_weasyprint": t4 - t3, "layout_pdf": t5 - t4, "write": t6 - t5,
        "bytes": len(pdf), "in_process": t6 - t0,
    }))


def main() -> None:
    """Run the child several times and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--paper", default="A4", choices=("A4", "letter"))
    parser.add_argument("--child", metavar="OUT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child), args.paper)
        return

    runs: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "standings.pdf"
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, __file__, "--child", str(out), "--paper", args.paper],
                check=True, capture_output=True, text=True)
            wall = time.perf_counter() - start
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            figures["wall"] = wall
            runs.append(figures)

    def med(key: str) -> float:
        return float(statistics.median(float(r[key]) for r in runs))

    total = med("wall")
    tally_part = statistics.median(
        r["import_tally"] + r["data"] + r["jinja"] + r["write"] for r in runs)
    weasy_part = statistics.median(r["import_weasyprint"] + r["layout_pdf"] for r in runs)
    startup = statistics.median(r["wall"] - r["in_process"] for r in runs)
    print(f"{PLAYERS}-player standings, {args.paper}, {int(med('bytes'))} bytes, "
          f"median of {args.runs} fresh processes")
    print(f"  whole process           {total:6.3f} s   (target < {TARGET_TOTAL} s)")
    print(f"  python start-up         {startup:6.3f} s")
    print(f"  tally's part            {tally_part:6.3f} s   = {tally_part / total:5.1%} of the "
          f"whole (target < {TARGET_SHARE:.0%})")
    print(f"    import tally modules  {med('import_tally'):6.3f} s")
    print(f"    build the data        {med('data'):6.3f} s")
    print(f"    Jinja2 rendering      {med('jinja'):6.3f} s")
    print(f"    write the file        {med('write'):6.3f} s")
    print(f"  WeasyPrint's part       {weasy_part:6.3f} s")
    print(f"    import weasyprint     {med('import_weasyprint'):6.3f} s")
    print(f"    layout + PDF          {med('layout_pdf'):6.3f} s")
    ok = total < TARGET_TOTAL and tally_part < TARGET_SHARE * total
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
