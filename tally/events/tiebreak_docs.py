"""The table of the tiebreaks in docs/events.md, made from their records
(:data:`tally.events.tiebreaks.TABLE`): each tiebreak's name, the head of its column in English
and in German (from the catalogue) and what it counts.

    python -m tally.events.tiebreak_docs           # write the table into docs/events.md
    python -m tally.events.tiebreak_docs --check   # exit 1 if docs/events.md is not current

``tests/events/test_tiebreak_table.py`` runs the check.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tally.events.tiebreaks import TABLE
from tally.i18n import translations

PAGE = Path(__file__).resolve().parents[2] / "docs" / "events.md"
BEGIN = "<!-- the tiebreak table: made by `python -m tally.events.tiebreak_docs`, do not edit -->"
END = "<!-- end of the tiebreak table -->"


def table() -> str:
    """The Markdown table of every tiebreak, in the order of :data:`TABLE`.

    >>> table().splitlines()[2][:41]
    '| `head-to-head` | H2H | DV | match point'
    """
    german = translations("de").gettext
    lines = ["| Tiebreak | Column | Column in German | What it counts |", "|---|---|---|---|"]
    for t in TABLE.values():
        if t.head is None:
            # it repeats a column: named by its words in the legend
            heads = f"none (the {t.legend} column)", f"keine (Spalte {german(t.legend)})"
        else:
            heads = t.head, german(t.head)
        lines.append(f"| `{t.name}` | {heads[0]} | {heads[1]} | {t.help} |")
    return "\n".join(lines) + "\n"


def page_with_table(page: str) -> str:
    """``page`` with the text between :data:`BEGIN` and :data:`END` replaced by :func:`table`."""
    start = page.index(BEGIN) + len(BEGIN)
    end = page.index(END, start)
    return f"{page[:start]}\n{table()}{page[end:]}"


def main(argv: list[str] | None = None) -> int:
    """Write the table into docs/events.md, or (``--check``) say whether it is current."""
    args = sys.argv[1:] if argv is None else argv
    page = PAGE.read_text(encoding="utf-8")
    wanted = page_with_table(page)
    if "--check" in args:
        if wanted != page:
            print(f"{PAGE}: the tiebreak table is not current; run {__doc__.split()[0]}")
            return 1
        return 0
    PAGE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
