"""Private players on the published site: each appears by their initials, everywhere.

The names are replaced in the finished pages (the ruling's sentences, the analysis, the
graphs and the tables alike), so no page can forget one: the full name as the templates escape it,
and the shortened form the value graph writes beside its drawing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable


def initials(name: str) -> str:
    """A name as its initials.

    >>> initials("Anna Berger"), initials("Hans-Peter Obermoser"), initials("Zoë")
    ('A. B.', 'H.-P. O.', 'Z.')
    """
    parts = []
    for word in name.split():
        parts.append("-".join(piece[:1] + "." for piece in word.split("-") if piece))
    return " ".join(parts)


class Privacy:
    """What :meth:`hide` replaces: each private player's name by their initials."""

    def __init__(self, private: Iterable[str]) -> None:
        from markupsafe import escape

        from tally.sheets.graph import NAME_CHARS

        shown: dict[str, str] = {}
        for name in private:
            short = initials(name)
            shown[str(escape(name))] = short
            if len(name) > NAME_CHARS:  # (the value graph's shortened name)
                cut = name[: NAME_CHARS - 1].rstrip() + " …"
                shown[str(escape(cut))] = short
        self.shown = shown
        words = sorted(shown, key=len, reverse=True)
        self._pattern = (
            re.compile(r"(?<!\w)(" + "|".join(re.escape(w) for w in words) + r")(?!\w)")
            if words
            else None
        )

    def hide(self, page: str) -> str:
        """``page`` with every private name replaced by its initials.

        >>> Privacy(["Anna Berger"]).hide("<td>Anna Berger</td><td>Anna Bergerova</td>")
        '<td>A. B.</td><td>Anna Bergerova</td>'
        """
        if self._pattern is None:
            return page
        return self._pattern.sub(lambda m: self.shown[m.group(1)], page)
