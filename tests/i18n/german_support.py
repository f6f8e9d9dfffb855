"""Running a command in a German locale and finding any English left in what it says.

A refusal under ``LANG=de_AT.UTF-8`` must be German from its first word to its last: the
words below are common English that no German message of tally contains. What a person typed
(a name, a card) and commands and options quoted to type (in backticks, after ``tally``, an
``--option``) are left out
of the look: they are the same in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from typer.testing import CliRunner

GERMAN = {"LANG": "de_AT.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}

#: English words that no German sentence of tally contains (each as a whole word).
ENGLISH_WORDS = frozenset(
    """
    the is are were not cannot can't already no such has have had does did would
    should must may only yet which who whose what when where there this that these those
    with without from into of for and or but than then been being it its round rounds
    player players match matches event events deal deals trick tricks table tables
    refused missing unknown invalid started finished withdrawn withdrew over
    """.split()
)

_QUOTED = re.compile(r"`[^`]*`|\btally(?: [a-z-]+)+|--[a-z][a-z-]*(?: [A-Z]+\b)?")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß']+")


def english_words(text: str, names: Sequence[str] = ()) -> list[str]:
    """The English words of :data:`ENGLISH_WORDS` in ``text``, leaving out commands to type
    and the given names (what a person typed).

    >>> english_words("Runde 3 kann noch nicht beginnen: Anna spielt noch (`tally match show 4`).")
    []
    >>> english_words("Round 3 cannot start yet", ["Anna"])
    ['round', 'cannot', 'yet']
    """
    bare = _QUOTED.sub(" ", text)
    for name in names:
        bare = bare.replace(name, " ")
    return [w.lower() for w in _WORD.findall(bare) if w.lower() in ENGLISH_WORDS]


def refusal_in_german(
    url: str, *args: str, names: Sequence[str] = (), input: str | None = None
) -> str:
    """Run ``tally args`` on ``url`` in a German locale; it must refuse (exit 1 or 2) with no
    traceback and no English word. Returns what it said on stderr (or stdout)."""
    from tally.cli import app

    result = CliRunner().invoke(
        app, list(args), env={"TALLY_DB": url, "TALLY_SCORER": "test", **GERMAN}, input=input
    )
    said = result.stderr or result.stdout
    assert result.exit_code in (1, 2), (args, result.exit_code, said)
    assert "Traceback" not in said, said
    assert said.strip(), args
    found = english_words(said, names)
    assert not found, f"tally {' '.join(args)} said English words {found}: {said!r}"
    return said
