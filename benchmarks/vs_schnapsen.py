"""Random Schnapsen games per second: tally against the `schnapsen` package (0.0.5), side by side.

    python benchmarks/vs_schnapsen.py [--seconds 2] [--rounds 5]

The `schnapsen` package pins old dependencies, so it is installed in a virtual environment of
its own (``benchmarks/.venv-schnapsen``, made on first use; needs PyPI). Both engines play
random legal games of Schnapsen (20 cards) in this one run, interleaved: each round measures
`schnapsen` for ``--seconds``, then tally for as long, each in a fresh process, so that both
see the same machine; the medians and their ratio are printed. The goal (issue 9): tally at
least 20 times faster. With ``PYTHONPATH`` set to another checkout's folder, that tally is
measured instead; ``--baseline DIR`` measures the tally in DIR as well, in the same rounds
(``git archive main tally | tar -x -C DIR``), for a figure before and after.

Every process this starts runs as on a user's machine: without ``PYTHONDONTWRITEBYTECODE``
and ``PYTHONUNBUFFERED`` (a sandbox may set them), so compiled ``.pyc`` files are written
once and then used, as in a real install.
"""

from __future__ import annotations

import argparse
import os
import statistics
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
        subprocess.run([str(python), "-m", "pip", "install", "-q", "schnapsen==0.0.5"], check=True)
    return python


OURS = """
import sys
sys.path.insert(0, sys.argv[2])
from engine import random_deals_per_second
print(random_deals_per_second("schnapsen", float(sys.argv[1])))
"""


def user_env(pythonpath: str | None) -> dict[str, str]:
    """This process's environment as a user's machine has it: without
    ``PYTHONDONTWRITEBYTECODE`` and ``PYTHONUNBUFFERED``; ``PYTHONPATH`` set when given."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    }
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return env


def _rate(cmd: list[str], env: dict[str, str]) -> float:
    # (run from this folder, which holds no tally: ``-c`` puts the working directory first
    # on the path, and a checkout there would be measured instead of the one PYTHONPATH names)
    return float(
        subprocess.run(cmd, env=env, cwd=HERE, check=True, capture_output=True, text=True).stdout
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--baseline", type=Path, help="a folder holding another tally to measure")
    args = ap.parse_args()
    python = schnapsen_python()
    env = user_env(os.environ.get("PYTHONPATH"))
    base_env = None if args.baseline is None else user_env(str(args.baseline.resolve()))
    ours_cmd = [sys.executable, "-c", OURS, str(args.seconds), str(HERE)]
    theirs: list[float] = []
    ours: list[float] = []
    base: list[float] = []
    for _ in range(args.rounds):  # interleaved, so that all see the same machine
        theirs.append(_rate([str(python), "-c", THEIRS, str(args.seconds)], user_env(None)))
        if base_env is not None:
            base.append(_rate(ours_cmd, base_env))
        ours.append(_rate(ours_cmd, env))
    mine, other = statistics.median(ours), statistics.median(theirs)
    print(f"median of {args.rounds} interleaved rounds of {args.seconds:g} s each")
    print(f"schnapsen 0.0.5 random games per second: {other:,.0f}")
    if base:
        before = statistics.median(base)
        print(
            f"baseline tally random Schnapsen deals per second: {before:,.0f} "
            f"({before / other:.1f} times schnapsen)"
        )
    print(f"tally random Schnapsen deals per second: {mine:,.0f}")
    print(f"tally is {mine / other:.1f} times faster")


if __name__ == "__main__":
    main()
