"""Start-up of ``tally`` as whole processes, as a ratio to a bare ``python3 -c pass`` timed in
the same run (the machine's load cancels out).

    python benchmarks/startup.py [--runs 15] [--against /path/to/other/checkout]

Measured, interleaved run by run (so a busy neighbour slows every command alike): ``python -c
pass``, ``tally --help``, ``tally check ONE.deal``, and the one-shot database commands ``tally
deal play MATCH CARD`` (one card, then its undo, untimed), ``tally player list``, ``tally
standings EVENT`` and ``tally match show MATCH`` on a fresh SQLite database. ``--against``
times another checkout's ``tally`` too (its folder first on PYTHONPATH), side by side.

Also timed, as the floor of every database command: ``python -c 'import sqlalchemy'``, the
import of the library the one store is built on (docs/performance.md: on the project's
machines it alone is about 8.5 times ``python -c pass``, above the database commands' target).

Output goes to a pipe, as from a script. Targets (docs/performance.md): ``--help`` and
``check`` at most 3.5 times ``python -c pass``, every one-shot database command at most 8
times. Prints the median of each, its ratio and the best run, and the median processor time
(user and system) of each, as a ratio too: on a machine other work loads, the clock's ratios
grow with the load, the processor time's much less. Every process runs as on a user's
machine: without ``PYTHONDONTWRITEBYTECODE`` (so the compiled ``.pyc`` files are written on
the first, untimed, runs and used after) and without ``PYTHONUNBUFFERED``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS = {
    "--help": 3.5,
    "check": 3.5,
    "deal play": 8.0,
    "player list": 8.0,
    "standings": 8.0,
    "match show": 8.0,
}
#: the floor of a database command: the one store is on SQLAlchemy Core, whose import alone
#: (its ``__init__`` loads the engine, the SQL compiler, asyncio) is timed beside the commands
FLOOR = "python -c 'import sqlalchemy'"
#: the commands timed, by name
COMMANDS = (
    ("--help", ["--help"]),
    ("deal play", ["deal", "play", "1", "KS"]),
    ("player list", ["player", "list"]),
    ("standings", ["standings", "Club"]),
    ("match show", ["match", "show", "1"]),
)
#: the environment of a user's machine: this sandbox sets PYTHONDONTWRITEBYTECODE (every
#: process would compile tally from source) and PYTHONUNBUFFERED, a user's shell does not
USER_ENV = {
    k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
}


def tally(env: dict[str, str], *args: str) -> list[str]:
    """The command running ``tally ARGS`` with this interpreter in ``env``."""
    del env
    return [sys.executable, "-c", "from tally.cli import main; main()", *args]


#: the processor time (user and system) of each run, by :func:`timed`
CPU: dict[str, list[float]] = {}


def children_cpu() -> float:
    """User and system seconds used so far by the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], env: dict[str, str], check: bool = False, label: str = "") -> float:
    """Wall time of one run of ``cmd``; its processor time is kept in :data:`CPU` under
    ``label``."""
    cpu = children_cpu()
    start = time.perf_counter()
    # run outside any checkout: ``python -c`` puts the working folder first on sys.path
    done = subprocess.run(cmd, capture_output=True, env=env, check=False, cwd=tempfile.gettempdir())
    elapsed = time.perf_counter() - start
    CPU.setdefault(label, []).append(children_cpu() - cpu)
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr.decode(errors='replace')}")
    return elapsed


def prepare(env: dict[str, str]) -> None:
    """A database with one match and a deal started, for ``deal play``."""
    for args in (
        ["init"],
        ["player", "add", "Anna", "Bert"],
        ["event", "create", "Club", "Anna", "Bert"],
        ["match", "start", "Anna", "Bert", "--dealer", "Anna", "--event", "Club"],
        ["deal", "start", "1", "QH"],
    ):
        timed(tally(env, *args), env, check=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--against", type=Path, help="another checkout of tally to time alongside")
    args = ap.parse_args()
    record = str(next(iter(sorted((ROOT / "examples" / "deals").glob("*.deal")))))
    tmp = Path(tempfile.mkdtemp(prefix="tally-startup-"))
    versions = {"this": ROOT} | ({"other": args.against.resolve()} if args.against else {})
    envs = {}
    for label, root in versions.items():
        env = dict(
            USER_ENV,
            PYTHONPATH=str(root),
            TALLY_SCORER="bench",
            TALLY_DB=f"sqlite:///{tmp / (label + '.db')}",
        )
        prepare(env)
        envs[label] = env
    times: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for label, code in (("python -c pass", "pass"), (FLOOR, "import sqlalchemy")):
            times.setdefault(label, []).append(
                timed([sys.executable, "-c", code], envs["this"], label=label)
            )
        for label, env in envs.items():
            for name, cmd in (*COMMANDS, ("check", ["check", record])):
                key = f"{label}: tally {name}"
                times.setdefault(key, []).append(timed(tally(env, *cmd), env, True, key))
                if name == "deal play":
                    timed(tally(env, "deal", "undo", "1"), env, check=True)
    base = statistics.median(times["python -c pass"])
    cpu_base = statistics.median(CPU["python -c pass"])
    for label, found in times.items():
        median = statistics.median(found)
        cpu = statistics.median(CPU[label])
        target = next((f" (target <= {t})" for n, t in TARGETS.items() if label.endswith(n)), "")
        print(
            f"{label:28s} median {median:.3f} s = {median / base:4.1f} x python{target}, "
            f"best {min(found):.3f} s; CPU {cpu:.3f} s = {cpu / cpu_base:4.1f} x"
        )


if __name__ == "__main__":
    main()
