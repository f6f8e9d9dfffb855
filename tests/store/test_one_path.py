"""Small second paths closed (issue 34): ``tally serve``'s settings and sessions are kept
through a store part, not by SQL of the web's own; a deal's row is written by one function;
a result phrase ("Name N", "Name N reason") has one reader."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tally

SOURCE = Path(tally.__file__).parent


def test_the_web_reaches_its_settings_and_sessions_through_the_store() -> None:
    text = (SOURCE / "web" / "access.py").read_text()
    assert "store.engine" not in text and "tally.store.tables" not in text
    assert "store.serving." in text


def test_a_deals_row_is_written_in_one_place() -> None:
    inserts = {
        path.name: path.read_text().count("insert(t.deals)")
        for path in (SOURCE / "store").glob("*.py")
    }
    assert {name: n for name, n in inserts.items() if n} == {"derivation.py": 1}
    every_column = re.compile(r"quick_reason=deal\.quick_reason,\s*tags=")
    assert not any(every_column.search(p.read_text()) for p in (SOURCE / "store").glob("*.py"))


def test_a_result_phrase_has_one_reader() -> None:
    from tally.engine.notation import read_result, read_result_phrase
    from tally.errors import NotationError

    assert read_result("Anna  Maria 2") == ("Anna  Maria", 2)
    assert read_result_phrase("Anna  Maria 2 claim", reason=True) == ("Anna Maria", 2, "claim")
    assert read_result_phrase(" draw ", reason=True) == (None, 0, "draw")
    for bad in ("Anna 2", "2 claim", "Anna ² claim", "Anna 1000 claim", ""):
        with pytest.raises(NotationError):
            read_result_phrase(bad, reason=True, most_digits=3)
    loading = (SOURCE / "files" / "loading.py").read_text()
    assert "read_result_phrase(" in loading and ".split()" not in loading.split("def _result")[1]
