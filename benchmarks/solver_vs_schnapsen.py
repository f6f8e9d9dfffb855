"""tally's exact solver against the `schnapsen` package's (0.0.5) alpha-beta bot, on the same
phase-2 positions: do they agree on the best moves, and how much faster is tally?

    python benchmarks/solver_vs_schnapsen.py [--positions 1000] [--seed 1]

The package runs in a virtual environment of its own (``benchmarks/.venv-schnapsen``, made on
first use as :mod:`vs_schnapsen` does). There it draws random phase-2 positions (its
``get_random_phase_two_state``: random phase-1 play until the talon is exhausted, 5 cards
each), keeps those where its rules and tally's ``schnapsen`` preset agree (below), and for
each one times its ``AlphaBetaBot.get_move`` and computes the exact value of every move of the
leader (its own ``value`` recursion with a full window per move). In this process tally then
times :func:`tally.analysis.solver.solve` on each position and computes
:func:`tally.analysis.solver.move_values`.

A position agrees when every best move of the solver is a best move of the bot. The speed
figure is the ratio of the median times per position (bot's ``get_move`` against tally's
``solve``, each a full search for the best move of a fresh position). Goal (issue 10): at
least 1,000 agreeing positions, tally at least 10 times faster.

Where the package's rules differ from tally's ``schnapsen`` preset (so positions where it
matters are left out):

- a marriage always leads the king (``Marriage.underlying_regular_move``; its docstring says
  the queen), and the follower's duty is judged against the queen; tally lets the declarer
  lead either card: positions where a player holds a king and queen of one suit are left out;
- marriage points stay *pending* until the declarer wins a later trick, even one who has
  already won a trick (tally counts them at once then, so ``40 KH 66`` is a claim): positions
  with pending marriage points are left out (with no marriage left in either hand, none can
  arise in phase 2);
- no closing of the talon (its phase 2 starts only when the talon is exhausted), and the deal
  ends by itself as soon as a trick's winner reaches 66 (tally: a claim, which the solver makes
  at the earliest correct moment: the same value);
- schwarz is "the opponent has no points" rather than "no trick" (the same here, a trick being
  worth at least 4 points in a 20-card deck).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

THEIRS = r"""
import json, random, sys, time
from schnapsen.game import (SchnapsenGamePlayEngine, LeaderPerspective, RegularMove)
from schnapsen.bots import AlphaBetaBot
from schnapsen.deck import Rank, Suit

RANKS = {Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.TEN: 4, Rank.ACE: 5}
SUITS = {Suit.CLUBS: 0, Suit.DIAMONDS: 1, Suit.HEARTS: 2, Suit.SPADES: 3}

def index(card):
    return SUITS[card.suit] * 6 + RANKS[card.rank]

def has_marriage(hand):
    cards = set(hand.get_cards())
    return any(c.rank is Rank.QUEEN and any(k.rank is Rank.KING and k.suit == c.suit
                                            for k in cards) for c in cards)

want, seed = int(sys.argv[1]), int(sys.argv[2])
engine = SchnapsenGamePlayEngine()
rng = random.Random(seed)
bot = AlphaBetaBot()
kept = 0
while kept < want:
    state = engine.get_random_phase_two_state(rng)
    lead, foll = state.leader, state.follower
    if has_marriage(lead.hand) or has_marriage(foll.hand):
        continue
    if lead.score.pending_points or foll.score.pending_points:
        continue
    kept += 1
    start = time.perf_counter()
    bot.get_move(LeaderPerspective(state, engine), None)
    elapsed = time.perf_counter() - start
    values = {}
    for move in LeaderPerspective(state, engine).valid_moves():
        assert isinstance(move, RegularMove)
        value, _ = bot.value(state, engine, leader_move=move, maximizing=False)
        values[index(move.card)] = value
    print(json.dumps({
        "hands": [sum(1 << index(c) for c in lead.hand.get_cards()),
                  sum(1 << index(c) for c in foll.hand.get_cards())],
        "trump": SUITS[state.trump_suit],
        "points": [lead.score.direct_points, foll.score.direct_points],
        "tricks": [len(lead.won_cards) // 2, len(foll.won_cards) // 2],
        "values": values, "seconds": elapsed}), flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from vs_schnapsen import schnapsen_python

    from tally.analysis.solver import Position, move_values, solve
    from tally.engine.rules import RuleSet

    rules = RuleSet.preset("schnapsen")
    out = subprocess.run(
        [str(schnapsen_python()), "-c", THEIRS, str(args.positions), str(args.seed)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    agree, ours, theirs, differ = 0, [], [], []
    for line in out.splitlines():
        p = json.loads(line)
        pos = Position(
            hands=(p["hands"][0], p["hands"][1]),
            leader=0,
            trump=p["trump"],
            points=(p["points"][0], p["points"][1]),
            tricks=(p["tricks"][0], p["tricks"][1]),
        )
        start = time.perf_counter()
        solve(pos, rules)
        ours.append(time.perf_counter() - start)
        theirs.append(p["seconds"])
        mine = move_values(pos, rules)
        best = max(mine.values())
        bot = {int(k): v for k, v in p["values"].items()}
        bot_best = max(bot.values())
        if {c for (c, _), v in mine.items() if v == best} <= {
            c for c, v in bot.items() if v == bot_best
        } and best == bot_best:
            agree += 1
        else:
            differ.append((p, mine, bot))
    n = len(ours)
    print(f"positions: {n}; the solver's best moves among the bot's (same value): {agree}")
    for p, mine, bot in differ[:5]:
        print("  differs:", p, mine, bot)
    mt, tt = statistics.median(ours), statistics.median(theirs)
    print(
        f"median per position: tally solve {mt * 1e3:.3f} ms, schnapsen AlphaBetaBot.get_move "
        f"{tt * 1e3:.1f} ms (worst {max(ours) * 1e3:.2f} ms against {max(theirs) * 1e3:.0f} ms)"
    )
    print(f"tally is {tt / mt:.0f} times faster")


if __name__ == "__main__":
    main()
