"""Many records analysed on every core (:mod:`tally.analysis.batch`): the same findings, in
the same order, however many processes share the work."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.analysis.batch import analyse_records, cores
from tally.analysis.findings import analyse
from tally.cli import app
from tally.engine.deal import Deal
from tally.engine.notation import DealRecord, read_deal, write_deal
from tally.engine.rules import RuleSet
from tests.analysis_support import late_claim_record


def _evening(count: int) -> list[tuple[str, DealRecord]]:
    rng = random.Random(7)
    out = []
    for k in range(count):
        deal = Deal.random(RuleSet.preset(("schnapsen", "sixty-six", "pagat-66")[k % 3]), rng)
        deal.play_out_randomly(rng)
        ref = f"1.{k + 1}"
        out.append((ref, read_deal(write_deal(deal.record()), source=ref)))
    return out


def test_one_process_gives_each_record_its_own_findings_in_order() -> None:
    records = _evening(3)
    found = list(analyse_records(records, samples=3, seed=2, jobs=1))
    assert [a.file for a in found] == ["1.1", "1.2", "1.3"]
    assert found == [analyse(record, samples=3, seed=2, file=ref) for ref, record in records]
    assert list(analyse_records([], jobs=0)) == []
    assert cores() >= 1


@pytest.mark.slow
def test_two_processes_find_what_one_finds() -> None:
    # processes are spawned: the findings must not depend on how the work was shared
    records = _evening(6)
    alone = list(analyse_records(records, samples=4, seed=5, jobs=1))
    shared = list(analyse_records(records, samples=4, seed=5, jobs=2))
    assert shared == alone
    assert [a.file for a in shared] == [ref for ref, _ in records]


@pytest.mark.slow
def test_analyse_prints_the_files_before_an_unreadable_one(tmp_path: Path) -> None:
    good = tmp_path / "good.deal"
    good.write_text(late_claim_record("Anna", "Bert"), encoding="utf-8")
    other = tmp_path / "other.deal"
    other.write_text(late_claim_record("Carla", "Dora"), encoding="utf-8")
    bad = tmp_path / "bad.deal"
    bad.write_text("[Rules nonsense]\n", encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(
        app, ["analyse", str(good), str(other), str(bad), str(good), "--jobs", "2"]
    )
    assert result.exit_code == 2, result.output
    out = result.output
    assert out.index("Anna") < out.index("Carla") < out.index("bad.deal")
    assert "Traceback" not in out
    assert out.count("the claim was possible") == 2
