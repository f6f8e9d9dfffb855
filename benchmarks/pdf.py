"""Benchmark: print the standings of a 64-player event as a fresh process would.

Each run starts a new Python process (so imports are paid as ``tally print`` pays them) that
imports tally's printing layer, builds the standings data, renders the HTML with Jinja2, imports
WeasyPrint, lays the PDF out and writes it. The parent reports, over the runs (median):

* the whole process, from ``python`` starting to the PDF on disk;
* tally's part: importing tally's modules, building the data, Jinja2 rendering, writing the file;
* WeasyPrint's part: importing WeasyPrint, layout and PDF generation.

Targets: whole process under 1.5 s, tally's part under a fifth of it.

The same child also runs, interleaved with tally's runs, in two other ways, to measure what
tally's choices save per sheet (wall time and CPU time, the child's processes included, which
the machine's other load disturbs less):

* ``plain-import``: WeasyPrint imported as a plain ``import weasyprint`` instead of through
  :func:`tally.sheets.render.import_weasyprint`; its library look-ups start ``ldconfig``, ``gcc``
  and ``ld`` (the processes started are counted);
* ``before``: as tally printed before fonts were reduced in advance: a plain import, the
  unmodified DejaVu fonts of Debian's ``fonts-dejavu-core`` and WeasyPrint subsetting them at
  run time (with fontTools where HarfBuzz-Subset is missing, logging a warning).

Run from the repository: ``.venv/bin/python benchmarks/pdf.py [--runs N] [--paper letter]``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = 64
TARGET_TOTAL = 1.5
TARGET_SHARE = 0.2


MODES = ("tally", "plain-import", "before")


def child(out: Path, paper: str, mode: str = "tally") -> None:
    """One run: time each phase and print the timings as one line of JSON (see the module
    docstring for ``mode``)."""
    started: list[str] = []
    sys.addaudithook(
        lambda event, args: started.append(str(args[0])) if event == "subprocess.Popen" else None
    )
    t0 = time.perf_counter()
    import random
    from datetime import date, datetime

    from tally.sheets import StandingRow, StandingsSheet
    from tally.sheets.render import (
        TemplateFiles,
        html_to_pdf,
        import_weasyprint,
        make_url_fetcher,
        render_html,
        write_pdf,
    )

    t1 = time.perf_counter()
    rng = random.Random(64)
    rows = []
    for i in range(PLAYERS):
        won = rng.randint(0, 7)
        gp_won, gp_conceded = rng.randint(20, 60), rng.randint(20, 60)
        rows.append(
            StandingRow(
                rank=i + 1,
                player=f"Player {i + 1:02d} {rng.choice(['Berger', 'Novák', 'Huber'])}",
                played=7,
                won=won,
                lost=7 - won,
                match_points=2 * won,
                game_points_won=gp_won,
                game_points_conceded=gp_conceded,
                schneider_wins=rng.randint(0, 4),
                schwarz_wins=rng.randint(0, 2),
                tiebreaks=(rng.randint(20, 60) / 2, rng.randint(0, 90) / 4, rng.randint(0, 7)),
            )
        )
    sheet = StandingsSheet(
        event="Club championship 2024",
        date=date(2024, 5, 11),
        rule_set="Schnapsen, first to 7 game points",
        printed_at=datetime(2024, 5, 11, 18, 30),
        rows=tuple(rows),
        tiebreaks=("Buchholz", "Sonneborn-Berger", "Wins"),
        stage="after round 7 of 7",
    )
    t2 = time.perf_counter()
    html = render_html("standings.html.j2", sheet, paper=paper)
    t3 = time.perf_counter()
    if mode == "tally":
        import_weasyprint()
    else:
        import weasyprint  # type: ignore[import-untyped]
    t4 = time.perf_counter()
    if mode == "before":
        import shutil

        import weasyprint

        root = out.parent / "templates-before"
        if not root.exists():
            shutil.copytree(TemplateFiles().root, root)
            for font in (
                Path("/usr/share/fonts/truetype/dejavu") / n
                for n in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
            ):
                shutil.copy(font, root / "fonts" / font.name)
        gate = TemplateFiles(root)
        pdf = weasyprint.HTML(
            string=html, base_url=gate.base_url(), url_fetcher=make_url_fetcher(gate)
        ).write_pdf()
    else:
        pdf = html_to_pdf(html)
    t5 = time.perf_counter()
    write_pdf(pdf, out)
    t6 = time.perf_counter()
    print(
        json.dumps(
            {
                "import_tally": t1 - t0,
                "data": t2 - t1,
                "jinja": t3 - t2,
                "import_weasyprint": t4 - t3,
                "layout_pdf": t5 - t4,
                "write": t6 - t5,
                "bytes": len(pdf),
                "in_process": t6 - t0,
                "processes": len(started),
            }
        )
    )


def main() -> None:
    """Run the child several times in each mode, interleaved, and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--paper", default="A4", choices=("A4", "letter"))
    parser.add_argument("--child", metavar="OUT", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="tally", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(Path(args.child), args.paper, args.mode)
        return

    by_mode: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "standings.pdf"
        for _ in range(args.runs):
            for mode in MODES:
                cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--child",
                        str(out),
                        "--paper",
                        args.paper,
                        "--mode",
                        mode,
                    ],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                wall = time.perf_counter() - start
                cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
                figures = json.loads(done.stdout.strip().splitlines()[-1])
                figures["wall"] = wall
                figures["cpu"] = (
                    cpu_after.ru_utime
                    - cpu_before.ru_utime
                    + cpu_after.ru_stime
                    - cpu_before.ru_stime
                )
                by_mode[mode].append(figures)
    runs = by_mode["tally"]

    def med(key: str, mode: str = "tally") -> float:
        return float(statistics.median(float(r[key]) for r in by_mode[mode]))

    total = med("wall")
    tally_part = statistics.median(
        r["import_tally"] + r["data"] + r["jinja"] + r["write"] for r in runs
    )
    weasy_part = statistics.median(r["import_weasyprint"] + r["layout_pdf"] for r in runs)
    startup = statistics.median(r["wall"] - r["in_process"] for r in runs)
    print(
        f"{PLAYERS}-player standings, {args.paper}, {int(med('bytes'))} bytes, "
        f"median of {args.runs} fresh processes"
    )
    print(f"  whole process           {total:6.3f} s   (target < {TARGET_TOTAL} s)")
    print(f"  python start-up         {startup:6.3f} s")
    print(
        f"  tally's part            {tally_part:6.3f} s   = {tally_part / total:5.1%} of the "
        f"whole (target < {TARGET_SHARE:.0%})"
    )
    print(f"    import tally modules  {med('import_tally'):6.3f} s")
    print(f"    build the data        {med('data'):6.3f} s")
    print(f"    Jinja2 rendering      {med('jinja'):6.3f} s")
    print(f"    write the file        {med('write'):6.3f} s")
    print(f"  WeasyPrint's part       {weasy_part:6.3f} s")
    print(f"    import weasyprint     {med('import_weasyprint'):6.3f} s")
    print(f"    layout + PDF          {med('layout_pdf'):6.3f} s")
    print("  compared, per sheet     whole process   CPU     import   processes  PDF bytes")
    for mode in MODES:
        print(
            f"    {mode:<20} {med('wall', mode):8.3f} s {med('cpu', mode):7.3f} s "
            f"{med('import_weasyprint', mode):7.3f} s {int(med('processes', mode)):6d} "
            f"{int(med('bytes', mode)):12,d}"
        )
    for mode in MODES[1:]:
        print(
            f"  saved against {mode:<13} {med('wall', mode) - total:6.3f} s whole process, "
            f"{med('cpu', mode) - med('cpu'):6.3f} s CPU"
        )
    ok = total < TARGET_TOTAL and tally_part < TARGET_SHARE * total
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
