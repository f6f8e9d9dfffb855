"""The phase-1 marks (leads, exchanges, follows) against the independent brute force
(tests/brute_force.py, from RULES.md alone) on many random deals per preset: the check of
tests/analysis/test_phase1_marks.py (``check``) at a scale a test cannot afford.

    python -m benchmarks.phase1_marks [--deals 1000] [--seed 37] [--proof]

Every phase-1 lead of the last round of drawing (the one order of the stock left; with
``--proof`` the last two rounds of Schnapsen and Sixty-Six's and pagat-66's last round, and
the record's own marks wherever it proves both hands at the lead) is marked with both hands
known and compared with the brute force's means over every order of the stock; a mismatch
stops the run with the record. Prints the marks compared per preset after each 100 deals
(each hundred seeded on its own) and the time taken.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from tests.analysis.test_phase1_marks import LAST_ROUND, check
from tests.brute_force import PRESETS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--proof", action="store_true", help="the record's own marks too")
    args = ap.parse_args()
    start = time.process_time()
    seen = {preset: Counter[str]() for preset in PRESETS}
    for chunk in range(0, args.deals, 100):  # 100 deals of each preset in turn, a line each
        for preset in sorted(PRESETS):
            most = 14 if args.proof else LAST_ROUND[preset]
            n = min(100, args.deals - chunk)
            seen[preset] += check(preset, n, args.seed + chunk, most, proof=args.proof)
            print(f"{preset}: {dict(seen[preset])}", flush=True)
    print(f"{time.process_time() - start:.0f} s of processor time")


if __name__ == "__main__":
    main()
