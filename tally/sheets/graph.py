"""The deal's value over time as a small inline SVG: after each decision
(:mod:`tally.analysis.marks`), the value in game points for the forehand (up) against the dealer
(down), from +3 to -3, with each ``?`` and ``??`` written above its point. Plain SVG made here, no
drawing library; the printed ruling sheet and the web's match page embed the same markup.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from tally.analysis.marks import Mark
from tally.analysis.wording import mark_text

#: Width and height of the drawing, in SVG user units (CSS pixels when embedded).
WIDTH, HEIGHT = 480, 160
#: the bottom margin holds the trick numbers and, below them, the words for the hollow points
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 22, 14, 32
#: The most characters of a player's name written beside the drawing (the left margin holds
#: about that many at its size); a longer name is cut with an ellipsis.
NAME_CHARS = 12


def _short(name: str) -> str:
    """``name`` as written beside the drawing.

    >>> _short("Anna Berger"), _short("Maximilian Obermoser")
    ('Anna Berger', 'Maximilian …')
    """
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1].rstrip() + " …"


def _y(value: float) -> float:
    """The height of a value: +3 at the top, -3 at the bottom."""
    span = HEIGHT - _TOP - _BOTTOM
    return round(_TOP + (3 - max(-3.0, min(3.0, value))) / 6 * span, 1)


#: What a mark of closing or not is judged by: what the leader knew, not both hands.
_KNEW = ("close", "no-close")


def value_graph(found: Sequence[Mark], names: tuple[str, str], title: str, knew: str = "") -> str:
    """The SVG of the value after each decision of ``found`` ("" when there is none).

    The line joins one kind of value, with both hands known (or their mean over the sampled
    hands): cards and claims. A close or a chance to close is judged by what the leader knew
    (:mod:`tally.analysis.closer_view`): its point is drawn hollow, off the line, and ``knew``
    (the words for it) written beside the drawing.

    >>> from tally.analysis.marks import Mark
    >>> svg = value_graph([Mark(5, "Anna", "no-claim", "no claim", 3, -3, -3)],
    ...                   ("Anna", "Bert"), "value")
    >>> svg.startswith("<svg") and "??" in svg
    True
    """
    if not found:
        return ""
    step = (WIDTH - _LEFT - _RIGHT) / max(1, len(found))
    xs = [round(_LEFT + step * (k + 0.5), 1) for k in range(len(found))]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="value-graph" role="img" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}">',
        f"<title>{escape(title)}</title>",
    ]
    parts.extend(_scale(names))
    points = " ".join(
        f"{x},{_y(m.forehand_after)}" for x, m in zip(xs, found, strict=True) if m.kind not in _KNEW
    )
    parts.append(f'<polyline points="{points}" fill="none" stroke="#1f4e79" stroke-width="1.4"/>')
    if knew and any(m.kind in _KNEW for m in found):
        parts.append(f'<text x="{_LEFT}" y="{HEIGHT - 3}" font-size="7">○ {escape(knew)}</text>')
    parts.extend(_decisions(xs, found))
    parts.extend(_trick_numbers(xs, found))
    parts.append("</svg>")
    return "".join(parts)


def _scale(names: tuple[str, str]) -> list[str]:
    """The scale: a line for each value from +3 to -3 (0 darker), the values on the right,
    the forehand's name at the top left and the dealer's at the bottom left."""
    parts: list[str] = []
    for v in (3, 2, 1, 0, -1, -2, -3):
        y = _y(v)
        stroke = "#444" if v == 0 else "#ddd"
        parts.append(
            f'<line x1="{_LEFT}" y1="{y}" x2="{WIDTH - _RIGHT}" y2="{y}" '
            f'stroke="{stroke}" stroke-width="0.6"/>'
        )
        # the values on the right, so that the names have the left margin to themselves
        parts.append(
            f'<text x="{WIDTH - _RIGHT + 3}" y="{y + 3}" font-size="8">'
            f"{f'{v:+d}' if v else '0'}</text>"
        )
    parts.append(f'<text x="2" y="{_TOP + 4}" font-size="8">{escape(_short(names[0]))}</text>')
    parts.append(
        f'<text x="2" y="{HEIGHT - _BOTTOM}" font-size="8">{escape(_short(names[1]))}</text>'
    )
    return parts


def _decisions(xs: Sequence[float], found: Sequence[Mark]) -> list[str]:
    """A point for each decision at ``xs`` (red when marked, hollow when judged by what the
    leader knew), its tooltip the decision as the findings word it in the current language
    (:func:`tally.analysis.wording.mark_text`), and its ``?`` or ``??`` written above it."""
    parts: list[str] = []
    for x, m in zip(xs, found, strict=True):
        y = _y(m.forehand_after)
        colour = "#b00020" if m.symbol else "#1f4e79"
        fill = "#fff" if m.kind in _KNEW else colour
        parts.append(
            f'<circle cx="{x}" cy="{y}" r="2.2" fill="{fill}" stroke="{colour}"><title>'
            f"{escape(mark_text(m))}</title></circle>"
        )
        if m.symbol:
            parts.append(
                f'<text x="{x}" y="{y - 5}" font-size="9" font-weight="bold" '
                f'fill="#b00020" text-anchor="middle">{m.symbol}</text>'
            )
    return parts


def _trick_numbers(xs: Sequence[float], found: Sequence[Mark]) -> list[str]:
    """The trick's number below the first decision of each trick."""
    parts: list[str] = []
    trick = None
    for x, m in zip(xs, found, strict=True):
        if m.trick != trick:
            trick = m.trick
            parts.append(
                f'<text x="{x}" y="{HEIGHT - _BOTTOM + 16}" font-size="7" '
                f'text-anchor="middle">{m.trick}</text>'
            )
    return parts
