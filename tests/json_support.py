"""Strict JSON for the tests: what a program other than Python's ``json`` would accept.

Python's ``json.loads`` takes ``NaN``, ``Infinity`` and ``-Infinity``, which are not JSON; every
``--json`` output of tally is read here with them refused, so a test fails if tally prints one.
"""

from __future__ import annotations

import json
from typing import Any


def _refuse(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def strict_json(text: str) -> Any:
    """``text`` parsed as strict JSON (``NaN``/``Infinity`` refused with ValueError)."""
    return json.loads(text, parse_constant=_refuse)


def strict_json_lines(text: str) -> list[Any]:
    """Each non-empty line of ``text`` parsed as strict JSON."""
    return [strict_json(line) for line in text.splitlines() if line.strip()]
