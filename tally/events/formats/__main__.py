"""``python -m tally.events.formats``: write the options table of docs/events.md anew
(:func:`tally.events.formats.options.with_docs_table`)."""

from __future__ import annotations

from pathlib import Path

from tally.events.formats import FORMATS
from tally.events.formats.options import with_docs_table

DOCS = Path(__file__).resolve().parents[3] / "docs" / "events.md"

if __name__ == "__main__":
    DOCS.write_text(
        with_docs_table(DOCS.read_text(encoding="utf-8"), FORMATS.values()), encoding="utf-8"
    )
    print(f"wrote {DOCS}")
