"""The specification's conformance cases: `tally check --json` must agree with every one."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tally.engine.ruling import rule_text
from tests.conftest import CONFORMANCE, PRESET_DIRS


@pytest.mark.slow  # a real process
@pytest.mark.parametrize("preset", PRESET_DIRS)
def test_every_conformance_case_agrees_through_the_cli(preset: str) -> None:
    """Runs the specification's own compare script against the real command."""
    cmd = f"{sys.executable} -m tally check --json"
    proc = subprocess.run(
        [
            sys.executable,
            str(CONFORMANCE / "compare.py"),
            str(CONFORMANCE / preset),
            cmd,
            "--batch",
            "200",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    last = proc.stdout.strip().splitlines()[-1]
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    done, total = last.split()[0].split("/")
    assert done == total and int(total) > 100, last


@pytest.mark.parametrize("preset", PRESET_DIRS)
def test_conformance_rulings_match_field_by_field_in_process(preset: str) -> None:
    """The same cases in-process, so a failure names the file and the field."""
    folder = CONFORMANCE / preset
    expected = [
        json.loads(line)
        for line in (folder / "expected.jsonl").read_text().splitlines()
        if line.strip()
    ]
    for exp in expected:
        got = rule_text((folder / exp["file"]).read_text(encoding="utf-8"), exp["file"]).as_json()
        if exp.get("errors"):
            assert got["errors"] and got["outcome"] is None, exp["file"]
            continue
        assert not got["errors"], (exp["file"], got["errors"])
        assert got["outcome"] == {
            k: exp["outcome"][k] for k in ("winner", "game_points", "reason")
        }, exp["file"]
        assert got["tricks"] == exp["tricks"], exp["file"]
        assert got["points"] == exp["points"], exp["file"]
        assert got["carry"] == exp["carry"], exp["file"]
        triples = {(v["trick"], v["player"], v["rule"]) for v in got["violations"]}
        assert triples == {(v["trick"], v["player"], v["rule"]) for v in exp["violations"]}, exp[
            "file"
        ]
        if exp.get("agreed") is not None:
            assert got["agreed"] == exp["agreed"], exp["file"]
