"""The engine stands alone: it imports no CLI, database or template code."""

from __future__ import annotations

import subprocess
import sys

ENGINE = ("tally.cards", "tally.rules", "tally.deal", "tally.notation", "tally.ruling",
          "tally.match", "tally.rulebook", "tally.schedule", "tally.tiebreaks")
HEAVY = ("typer", "click", "sqlmodel", "sqlalchemy", "alembic", "jinja2", "weasyprint", "rich",
         "tally.cli", "tally.store", "tally.printing")


def test_importing_the_engine_loads_no_cli_database_or_template_library() -> None:
    code = (f"import sys\nfor m in {ENGINE!r}: __import__(m)\n"
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_engine_plays_and_rules_a_whole_match_on_its_own() -> None:
    code = ("import random\nfrom tally.match import simulate_match\n"
            "from tally.rules import RuleSet\nfrom tally.ruling import rule\n"
            "rs = simulate_match(RuleSet.parse('sixty-six'), ('A', 'B'), 'A', random.Random(1))\n"
            "print(all(rule(r).agreed for r in rs))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "True"
