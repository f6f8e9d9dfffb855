"""Shared fixtures: where the conformance cases are, and a CLI runner.

The tests expect tally's English unless they ask for German: a machine whose locale is German
(``LANG=de_AT.UTF-8``, which tally follows, see tally/i18n.py) runs them under ``C.UTF-8``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tally.i18n import LOCALE_VARIABLES, locale_language

# fixtures for every test
from tests.store_support import db_url, migrate_from_the_template, schema_template, store  # noqa: F401

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


#: Hypothesis profiles: "full" (each test's own example count, what the whole suite runs) and
#: "quick" (at most QUICK_EXAMPLES a test), which the inner loop ``pytest -m "not slow"`` takes
#: unless ``--hypothesis-profile`` names one.
QUICK_EXAMPLES = 25
settings.register_profile("full", settings())
settings.register_profile("quick", settings(max_examples=QUICK_EXAMPLES))


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("hypothesis_profile", None) is None:
        inner_loop = "not slow" in (config.getoption("markexpr", "") or "")
        settings.load_profile("quick" if inner_loop else "full")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under the "quick" profile a test's own ``@settings(max_examples=N)`` is capped too."""
    cap = settings.default.max_examples
    if cap >= settings.get_profile("full").max_examples:
        return
    for item in items:
        test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > cap:
            test._hypothesis_internal_use_settings = settings(own, max_examples=cap)


@pytest.fixture(scope="session", autouse=True)
def tally_group_built_once() -> Iterator[None]:
    """Typer turns every registered command into a click command each time an app runs, and
    the tests import every command module; tally's top group (``LazyGroup``,
    tally/cli/application.py) ignores those and builds only the command that runs, from its
    module (afresh each time: its parameters keep state, tally.cli.application.PlainParam), so
    here the group is built once for the whole session, and each command once by its name
    (a built command runs again as click runs it again; its parameters' converters, once
    Typer's replace a plain one, stay Typer's, which take every value too)."""
    import functools

    import typer.main
    import typer.testing

    from tally.cli import application

    built = typer.main.get_command(application.app)
    real = typer.main.get_command

    def get_command(instance: typer.Typer) -> Any:
        return built if instance is application.app else real(instance)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.main, "get_command", get_command)
        patch.setattr(typer.testing, "_get_command", get_command)
        patch.setattr(application, "command", functools.cache(application.command))
        yield


@pytest.fixture
def runner():  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    return CliRunner()
