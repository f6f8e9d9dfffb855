"""Random Schnapsen games per second: tally against the `schnapsen` package (0.0.5), side by side.

    python benchmarks/vs_schnapsen.py [--seconds 5]

The `schnapsen` package pins old dependencies, so it is installed in a virtual environment of
its own (``benchmarks/.venv-schnapsen``, made on first use; needs PyPI). Both engines play
random legal games of Schnapsen (20 cards) for the same number of seconds, one after the
other, in this one run; the ratio is printed last. The goal (issue 9): tally at least 20 times
faster. With ``PYTHONPATH`` set to another checkout's folder, that tally is measured instead.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-schnapsen"

THEIRS = """
import random, sys, time
from schnapsen.game import SchnapsenGamePlayEngine
from schnapsen.bots import RandBot
engine = SchnapsenGamePlayEngine()
rng = random.Random(1)
b1, b2 = RandBot(random.Random(2)), RandBot(random.Random(3))
seconds = float(sys.argv[1])
n = 0
start = time.perf_counter()
while time.perf_counter() - start < seconds:
    engine.play_game(b1, b2, rng)
    n += 1
print(n / (time.perf_counter() - start))
"""


def schnapsen_python() -> Path:
    """The interpreter of the virtual environment holding schnapsen 0.0.5 (made if missing)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        venv.create(VENV, with_pip=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "schnapsen==0.0.5"],
                       check=True)
    return python


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from engine import random_deals_per_second

    python = schnapsen_python()
    theirs = float(subprocess.run([str(python), "-c", THEIRS, str(args.seconds)], check=True,
                                  capture_output=True, text=True).stdout)
    ours = random_deals_per_second("schnapsen", args.seconds)
    print(f"schnapsen 0.0.5 random games per second: {theirs:,.0f}")
    print(f"tally random Schnapsen deals per second: {ours:,.0f}")
    print(f"tally is {ours / theirs:.1f} times faster")


if __name__ == "__main__":
    main()
