"""The engine's rulings version: a change in how any record is ruled must come with a new
``RULINGS_VERSION``, so that databases re-derive the rulings they cached (standings are
summed from that cache)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tally.engine.ruling import RULINGS_VERSION, rule_text
from tests.conftest import BUNDLED, ROOT

#: The version and the digest of the rulings below that it stands for.
GOLDEN = ROOT / "tests" / "data" / "rulings-version.json"


def _records() -> list[Path]:
    """Every conformance case kept in the repository and every example record."""
    return sorted([*BUNDLED.glob("*/*.deal"), *(ROOT / "examples").rglob("*.deal")])


def _decided(path: Path) -> dict[str, object]:
    """What a ruling decides (not how it is worded): who won what and why, the tricks, the
    points, the carry, each violation, whether a claim was agreed, whether it is an error."""
    got = rule_text(path.read_text(encoding="utf-8"), path.name).as_json()
    return {
        "errors": bool(got["errors"]),
        "outcome": got["outcome"]
        and {k: got["outcome"][k] for k in ("winner", "game_points", "reason")},
        "tricks": got["tricks"],
        "points": got["points"],
        "carry": got["carry"],
        "agreed": got.get("agreed"),
        "violations": sorted((v["trick"], v["player"], v["rule"]) for v in got["violations"]),
    }


def rulings_digest() -> str:
    """One SHA-256 over what every record's ruling decides, in file order."""
    digest = hashlib.sha256()
    for path in _records():
        line = json.dumps([path.relative_to(ROOT).as_posix(), _decided(path)], sort_keys=True)
        digest.update(line.encode() + b"\n")
    return digest.hexdigest()


def test_a_change_in_the_rulings_comes_with_a_new_rulings_version() -> None:
    golden = json.loads(GOLDEN.read_text())
    digest = rulings_digest()
    assert len(_records()) > 500
    if digest != golden["digest"]:
        assert RULINGS_VERSION > golden["version"], (
            "the engine rules some record differently now: bump RULINGS_VERSION in "
            f'tally/engine/ruling.py and write {{"version": N, "digest": "{digest}"}} to {GOLDEN}'
        )
    assert (RULINGS_VERSION, digest) == (golden["version"], golden["digest"]), (
        f"RULINGS_VERSION changed: write the new version and digest {digest} to {GOLDEN}"
    )
