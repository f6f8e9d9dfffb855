"""The golden records in ``examples/deals``: every one is a real club deal whose ``Result``
tag ``tally check`` confirms, and together they show every outcome reason and every violation.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.notation import read_deal, write_deal
from tally.engine.ruling import REASONS, rule_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "deals"
FILES = sorted(EXAMPLES.glob("*.deal"))

#: RULES.md section 10
VIOLATIONS = {
    "follow-suit",
    "must-head",
    "must-trump",
    "marriage-not-allowed",
    "false-marriage",
    "exchange-not-allowed",
    "false-exchange",
    "close-not-allowed",
}
#: NOTATION.md, outcome.reason
OUTCOMES = {
    "claim",
    "false-claim",
    "failed-close",
    "illegal-play",
    "last-trick",
    "higher-total",
    "draw",
    "incomplete",
}

runner = CliRunner()


def check_json(path: Path) -> tuple[int, dict[str, object]]:
    result = runner.invoke(app, ["check", "--json", str(path)])
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.output
    return result.exit_code, json.loads(lines[0])


def test_there_are_examples() -> None:
    assert len(FILES) >= 16


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_is_confirmed_by_tally_check(path: Path) -> None:
    code, ruling = check_json(path)
    assert ruling["errors"] == []
    outcome = ruling["outcome"]
    assert isinstance(outcome, dict)
    if outcome["reason"] == "incomplete":
        # a deal still being recorded has no agreed result yet
        assert "Result" not in read_deal(path.read_text(encoding="utf-8")).tags
        assert ruling["agreed"] is None
    else:
        assert ruling["agreed"] is True
    assert code == (1 if ruling["violations"] else 0)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_says_what_it_shows_and_where_it_was_played(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("; "), "a comment line at the top says what the example shows"
    record = read_deal(text)
    assert record.tags.get("Event")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_example_rules_the_same_once_written_canonically(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    canonical = write_deal(read_deal(text))
    assert rule_text(canonical).as_json() == rule_text(text).as_json()


def test_examples_cover_every_outcome_reason_and_every_violation() -> None:
    reasons: set[str] = set()
    names: set[str] = set()
    for path in FILES:
        ruling = rule_text(path.read_text(encoding="utf-8"), file=path.name)
        assert ruling.outcome is not None, path.name
        reasons.add(ruling.outcome.reason)
        names.update(v.rule for v in ruling.violations)
    assert set(REASONS) == OUTCOMES
    assert reasons >= OUTCOMES, sorted(OUTCOMES - reasons)
    assert names >= VIOLATIONS, sorted(VIOLATIONS - names)


def test_examples_cover_all_three_presets() -> None:
    presets = {
        read_deal(p.read_text(encoding="utf-8")).tags.get("Rules", "sixty-six").split()[0]
        for p in FILES
    }
    assert presets == {"sixty-six", "schnapsen", "pagat-66"}


def test_checking_all_examples_at_once_exits_with_one() -> None:
    # some examples show violations, none has record errors
    result = runner.invoke(app, ["check", "--json", *map(str, FILES)])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == len(FILES)


SWISS = EXAMPLES.parent / "swiss"


def test_the_swiss_example_meets_the_swiss_rules() -> None:
    """examples/swiss (9 players, 5 rounds): nobody meets anyone twice, five different
    players sit out, every first-deal balance is -1, 0 or 1 (`tally load` also checks that
    every table is tally's own pairing)."""
    import tomllib
    from collections import Counter

    data = tomllib.loads((SWISS / "event.toml").read_text(encoding="utf-8"))
    players = set(data["players"])
    assert (data["kind"], data["rounds"], len(players)) == ("swiss", 5, 9)
    met: list[frozenset[str]] = []
    byes: list[str] = []
    balance: Counter[str] = Counter()
    for number in range(1, 6):
        tables = [m for m in data["matches"] if m["round"] == number]
        assert sorted(m["table"] for m in tables) == [1, 2, 3, 4]
        seated = [p for m in tables for p in m["players"]]
        assert len(set(seated)) == 8
        byes.extend(players - set(seated))
        for m in tables:
            met.append(frozenset(m["players"]))
            first = m["first_dealer"]
            other = next(p for p in m["players"] if p != first)
            balance[first] += 1
            balance[other] -= 1
    assert len(met) == len(set(met)) == 20
    assert len(byes) == len(set(byes)) == 5
    assert all(abs(b) <= 1 for b in balance.values()), balance
    records = sorted((SWISS / "deals").glob("*.deal"))
    assert records and all(
        read_deal(p.read_text(encoding="utf-8")).tags.get("Event") == data["name"] for p in records
    )
