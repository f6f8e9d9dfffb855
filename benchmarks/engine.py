"""Engine speed on one core: records replayed and ruled per second, random deals per second.

    python benchmarks/engine.py [--seconds 3] [--baseline DIR]

``--baseline DIR`` measures the same figures, in the same run and interleaved, with the
``tally`` package found in DIR (a checkout of main: ``git archive main tally | tar -x -C DIR``)
and prints both side by side, with the ratio. ``--check-json`` adds ``tally check --json`` over
3,000 records as a whole process, less the start-up of ``tally check`` on one record.

Replays a fixed set of random legal Sixty-Six deals, written as a scorer would write them
(``.deal`` text), and reports:
- records ruled per second, records already read (the engine's replay and ruling);
- records read and ruled per second (the whole ``tally check`` path, text to ruling);
- random legal deals played per second, for each preset (:func:`tally.deal.play_random_deal`,
  or ``Deal.play_out_randomly`` in a tally from before it).

Every process this starts runs as on a user's machine: without ``PYTHONDONTWRITEBYTECODE``
and ``PYTHONUNBUFFERED`` (a sandbox may set them), so compiled ``.pyc`` files are written
once and then used, as in a real install.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tally.deal import Deal

try:
    from tally.deal import play_random_deal
except ImportError:  # a tally from before it (a baseline): the deal plays itself
    play_random_deal = None  # type: ignore[assignment]
from tally.notation import read_deal, write_deal
from tally.rules import RuleSet
from tally.ruling import rule


def _rate(fn: object, items: list[object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for item in items:
            fn(item)  # type: ignore[operator]
        n += len(items)
    return n / (time.perf_counter() - start)


def sample_records(preset: str, count: int, seed: int = 66) -> list[str]:
    """``count`` random legal deals of ``preset`` as ``.deal`` texts."""
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        deal = Deal.random(rules, rng)
        deal.play_out_randomly(rng)
        texts.append(write_deal(deal.record()))
    return texts


def random_deals_per_second(preset: str, seconds: float, seed: int = 1) -> float:
    """Random legal deals of ``preset`` played to the end per second (no history kept)."""
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    if play_random_deal is not None:
        while time.perf_counter() - start < seconds:
            play_random_deal(rules, rng)
            n += 1
    else:
        while time.perf_counter() - start < seconds:
            Deal.random(rules, rng, keep_history=False).play_out_randomly(rng)
            n += 1
    return n / (time.perf_counter() - start)


def user_env(**extra: str) -> dict[str, str]:
    """This process's environment as a user's machine has it, plus ``extra``: without
    ``PYTHONDONTWRITEBYTECODE`` (so ``.pyc`` files are written and used) and
    ``PYTHONUNBUFFERED``, which a sandbox may set."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")}
    env.update(extra)
    return env


def figures(seconds: float) -> dict[str, float]:
    """Every figure of this benchmark, with the tally importable here."""
    texts = sample_records("sixty-six", 500)
    records = [read_deal(t) for t in texts]
    out = {"records ruled per second (read already)": _rate(rule, records, seconds),  # type: ignore[arg-type]
           "records read and ruled per second": _rate(lambda t: rule(read_deal(t)), texts,  # type: ignore[arg-type]
                                                      seconds)}
    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        out[f"{preset} random legal deals per second"] = random_deals_per_second(preset, seconds)
    return out


def check_json_rate(folder: Path, env: dict[str, str]) -> tuple[float, float]:
    """Records per second of ``tally check --json`` over the records in ``folder``, less the
    start-up (the same command on one record): by the clock, and by the processor time the
    command used (user and system, which other work on a busy machine does not inflate)."""
    files = sorted(str(p) for p in folder.glob("*.deal"))
    cmd = [sys.executable, "-m", "tally", "check", "--json"]

    def run(args: list[str]) -> tuple[float, float]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        # (run from the records' folder: ``-m`` puts the working directory first on the path,
        # and a checkout there would be measured instead of the one PYTHONPATH names)
        subprocess.run(cmd + args, env=env, cwd=folder, stdout=subprocess.DEVNULL, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    whole = [run(files) for _ in range(3)]
    one = [run(files[:1]) for _ in range(3)]
    rates = []
    for k in (0, 1):
        spent = statistics.median(w[k] for w in whole) - statistics.median(o[k] for o in one)
        rates.append((len(files) - 1) / max(spent, 1e-9))
    return rates[0], rates[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--baseline", type=Path, help="a folder holding the tally to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--check-json", action="store_true")
    ap.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.json:
        print(json.dumps(figures(args.seconds)))
        return
    if args.baseline is None:
        for name, value in figures(args.seconds).items():
            print(f"{name}: {value:,.0f}")
        return
    envs = {"this": user_env(PYTHONPATH=str(Path(__file__).resolve().parents[1])),
            "baseline": user_env(PYTHONPATH=str(args.baseline.resolve()))}
    runs: dict[str, list[dict[str, float]]] = {"this": [], "baseline": []}
    for _ in range(args.rounds):  # interleaved, so that both see the same machine
        for which in ("baseline", "this"):
            out = subprocess.run([sys.executable, __file__, "--json", "--seconds",
                                  str(args.seconds)], env=envs[which], check=True,
                                 capture_output=True, text=True).stdout
            runs[which].append(json.loads(out))
    if args.check_json:
        with tempfile.TemporaryDirectory() as tmp:
            for i, text in enumerate(sample_records("sixty-six", 3000, seed=3)):
                (Path(tmp) / f"r{i:04}.deal").write_text(text, encoding="utf-8")
            for _ in range(args.rounds):
                for which in ("baseline", "this"):
                    wall, cpu = check_json_rate(Path(tmp), envs[which])
                    runs[which][_]["tally check --json records per second (clock)"] = wall
                    runs[which][_]["tally check --json records per second (CPU time)"] = cpu
    print(f"{'median of ' + str(args.rounds) + ' interleaved rounds':56} {'baseline':>10} "
          f"{'this':>10} {'ratio':>6}")
    for name in runs["this"][0]:
        old = statistics.median(r[name] for r in runs["baseline"])
        new = statistics.median(r[name] for r in runs["this"])
        print(f"{name:56} {old:10,.0f} {new:10,.0f} {new / old:6.2f}")


if __name__ == "__main__":
    main()
