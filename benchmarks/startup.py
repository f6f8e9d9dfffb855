"""Wall time of `tally --help` and `tally check` on one record, as whole processes.

    python benchmarks/startup.py [--runs 10]

Target: under 0.3 s each. Prints the median and the best of the runs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], runs: int) -> tuple[float, float]:
    """Median and best wall time of ``cmd`` over ``runs`` runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    tally = shutil.which("tally") or str(Path(sys.executable).parent / "tally")
    record = next(iter(sorted((ROOT / "examples" / "deals").glob("*.deal"))), None)
    if record is None:
        raise SystemExit("no example record in examples/deals")
    for label, cmd in (("tally --help", [tally, "--help"]),
                       ("tally check ONE.deal", [tally, "check", str(record)])):
        median, best = timed(cmd, args.runs)
        print(f"{label:22s} median {median:.3f} s, best {best:.3f} s")


if __name__ == "__main__":
    main()
