"""What a wheel ships: every package of tally/ is listed in pyproject.toml, so an install from
a wheel (not only an editable one) has the engine, the analysis, the events and the files."""

from __future__ import annotations

import tomllib
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent


def test_every_package_of_tally_is_shipped() -> None:
    config = tomllib.loads((TOP / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(TOP).parts)
        for init in (TOP / "tally").rglob("__init__.py")
        if "__pycache__" not in init.parts
    }
    assert found - listed == set()
