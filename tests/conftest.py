"""Shared fixtures: where the conformance cases are, and a CLI runner."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The specification's conformance cases: shared/ beside the repository when it is there
#: (CI, the developers' machines), else the copy kept in tests/data (a fresh clone elsewhere).
SHARED = ROOT.parent / "shared" / "conformance"
BUNDLED = ROOT / "tests" / "data" / "conformance"
CONFORMANCE = SHARED if (SHARED / "compare.py").exists() else BUNDLED
PRESET_DIRS = ("sixty-six", "schnapsen", "pagat-66")


@pytest.fixture
def runner():  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    return CliRunner()
