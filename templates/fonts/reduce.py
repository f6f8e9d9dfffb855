"""Make the fonts tally's sheets embed: DejaVu Sans reduced to the characters tally prints.

Run at development time, from the repository, after changing what the sheets may print::

    .venv/bin/python templates/fonts/reduce.py [SOURCE_DIR]

It reads the unmodified DejaVu Sans 2.37 files from SOURCE_DIR (default: Debian's
``fonts-dejavu-core``, ``/usr/share/fonts/truetype/dejavu``) and writes the reduced
fonts to ``templates/fonts/`` (same file names; they are committed). The reduced fonts keep
every glyph of :data:`UNICODES` (and the layout tables, such as kerning, that use them), drop
the ligatures (see :func:`reduce_font`) and the TrueType hinting, which a PDF does not use.

Why: WeasyPrint subsets every embedded font at run time, with HarfBuzz-Subset when the system
has ``libharfbuzz-subset0`` and otherwise with fontTools, logging a warning and taking a
good part of a second per sheet. tally embeds these already small fonts whole instead
(``full_fonts`` in :func:`tally.sheets.render.html_to_pdf`), so printing needs no subsetting
library, logs nothing and is faster; a sheet's PDF is some 40-60 KB larger.

Coverage: ASCII, Latin-1 Supplement, Latin Extended-A and -B and the combining diacritical
marks (names from all over Europe, also typed decomposed), Greek and Cyrillic (European names
in their own script), general punctuation (dashes, quotes, ellipsis), the euro sign, arrows,
the minus sign, ×, ≠ ≤ ≥, the ballot boxes and check marks, the suits ♠ ♥ ♦ ♣ (and their
white forms) and U+FFFD. A character outside these prints in a fallback font of the system
(fontconfig), as any character outside DejaVu always did.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: Where the unmodified DejaVu fonts are (Debian: fonts-dejavu-core); the first argument wins.
SOURCE = Path("/usr/share/fonts/truetype/dejavu")
TARGET = Path(__file__).resolve().parent
FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")

#: The characters kept, as (first, last) code points.
UNICODES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x00FF),  # Latin-1 Supplement (×, é, ß, ...)
    (0x0100, 0x017F),  # Latin Extended-A (č, ł, ő, ...)
    (0x0180, 0x024F),  # Latin Extended-B (ș, ț, ...)
    (0x0300, 0x036F),  # combining diacritical marks
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x04FF),  # Cyrillic
    (0x2000, 0x206F),  # general punctuation (– — “ ” … ‰)
    (0x20AC, 0x20AC),  # €
    (0x2190, 0x2199),  # arrows
    (0x2212, 0x2212),  # − (the minus sign of printed numbers)
    (0x2260, 0x2265),  # ≠ ≤ ≥
    (0x25A1, 0x25A1),  # □
    (0x2610, 0x2612),  # ballot boxes
    (0x2660, 0x2667),  # ♠ ♡ ♢ ♣ ♤ ♥ ♦ ♧
    (0x2713, 0x2717),  # check marks and crosses
    (0xFFFD, 0xFFFD),  # the replacement character
)


def reduce_font(source: Path, target: Path) -> int:
    """Write ``source`` reduced to :data:`UNICODES` as ``target``; its size in bytes."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = ["*"]  # keep the names (and the licence notice) as they are
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]
    # No ligatures: a ligature glyph (fi, ffi) has no character of its own, and a font
    # embedded whole gets its PDF text map from the font's character map, so "final" would
    # copy and search as garbage. Every glyph kept is one character.
    options.layout_features = [
        f for f in options.layout_features if f not in ("liga", "clig", "dlig", "hlig", "rlig")
    ]
    font = TTFont(source)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for first, last in UNICODES for c in range(first, last + 1)])
    subsetter.subset(font)
    font.save(target)
    return target.stat().st_size


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    for name in FILES:
        size = reduce_font(source / name, TARGET / name)
        print(f"{TARGET / name}: {size:,} bytes (from {(source / name).stat().st_size:,})")
    sys.exit(0)


if __name__ == "__main__":
    main()
