"""Writing a published site: only the files whose bytes changed, each replaced whole.

A page is written to a temporary file beside it and moved over the old one, so a web
server or a folder sync never sees half a page; a page whose bytes are the same is not
touched (its time stays, a sync moves nothing). Pages of the site's own folders that the
site no longer has (a deleted match) are removed.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: the folders of the site's numbered pages (``events/3.html``, ``seasons/2026.html``...)
FOLDERS = ("events", "players", "matches", "deals", "series", "seasons", "reports")
_NUMBERED = re.compile(r"\d+(?:-\d+)?\.html")


@dataclass(frozen=True)
class Written:
    """What a publishing changed: the files written and removed (paths in the site), and
    how many were already as they should be."""

    written: tuple[str, ...]
    removed: tuple[str, ...]
    unchanged: int


def _same(path: Path, data: bytes) -> bool:
    try:
        if path.stat().st_size != len(data):
            return False
        return path.read_bytes() == data
    except OSError:
        return False


def _stale(out: Path, files: Mapping[str, bytes]) -> list[str]:
    """The numbered pages in the site's folders that ``files`` no longer has."""
    gone = []
    for folder in FOLDERS:
        where = out / folder
        if not where.is_dir():
            continue
        for entry in sorted(where.iterdir()):
            rel = f"{folder}/{entry.name}"
            if _NUMBERED.fullmatch(entry.name) and entry.is_file() and rel not in files:
                gone.append(rel)
    return gone


def write_site(out: Path, files: Mapping[str, bytes], *, whole: bool = True) -> Written:
    """Write ``files`` (bytes by their path in the site) under ``out``: only those that
    differ from what is there; when they are the ``whole`` site, remove the site's pages
    it no longer has."""
    written, unchanged = [], 0
    out.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        path = out / rel
        if _same(path, data):
            unchanged += 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.part")
        part.write_bytes(data)
        os.replace(part, path)
        written.append(rel)
    removed = _stale(out, files) if whole else []
    for rel in removed:
        (out / rel).unlink()
    return Written(tuple(written), tuple(removed), unchanged)
