"""Shared fixtures: where the conformance cases are, and a CLI runner.

The tests expect tally's English unless they ask for German: a machine whose locale is German
(``LANG=de_AT.UTF-8``, which tally follows, see tally/i18n.py) runs them under ``C.UTF-8``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tally.i18n import LOCALE_VARIABLES, locale_language
from tests.store_support import db_url, store  # noqa: F401  (fixtures for every test)

if locale_language() not in (None, "en"):
    for _name in LOCALE_VARIABLES:
        os.environ.pop(_name, None)
    os.environ["LANG"] = "C.UTF-8"

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
