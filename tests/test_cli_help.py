"""``tally --help`` to a file or a pipe is written from the registry (tally/cli/helptext.py)
without Typer or rich: here it is compared with what Typer and rich print, width by width."""

from __future__ import annotations

import pytest

from tally.cli import COMMANDS, HELP, run
from tally.cli.helptext import MIN_WIDTH, STYLING, plain_help, render, wrap

LINES = {name: line for name, (_module, line) in COMMANDS.items()}
WIDTHS = [*range(MIN_WIDTH, 161), 199, 250, 333, 500]


@pytest.mark.parametrize("width", WIDTHS)
def test_the_plain_help_is_typers_help_to_the_letter(
        width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    for name in STYLING:
        monkeypatch.delenv(name, raising=False)
    assert run(["--help"], fast=False) == 0
    typer_help = capsys.readouterr()
    assert typer_help.err == ""
    assert render(LINES, HELP, width) == typer_help.out
    assert run(["--help"]) == 0  # the plain path (stdout is captured: not a terminal)
    assert capsys.readouterr() == typer_help


def test_what_the_plain_help_cannot_write_as_rich_does_goes_to_typer() -> None:
    assert render(LINES, HELP, MIN_WIDTH - 1) is None  # rich squeezes the columns
    assert render({**LINES, "x": "Uses [bold]markup[/bold]."}, HELP, 80) is None
    assert render({**LINES, "x": "Größe."}, HELP, 80) is None
    assert render({**LINES, "x": "a" * 80}, HELP, 80) is None  # a word wider than its column
    assert plain_help(LINES, HELP, {"COLUMNS": "80", "FORCE_COLOR": "1"}) is None
    assert plain_help(LINES, HELP, {"COLUMNS": "80", "TYPER_USE_RICH": "0"}) is None
    assert plain_help(LINES, HELP, {"COLUMNS": "80"}) == render(LINES, HELP, 80)


def test_words_are_filled_greedily_and_lines_are_kept() -> None:
    assert wrap("aa bb cc\ndd", 5) == ["aa bb", "cc", "dd"]
    assert wrap("aaaaaa b", 5) is None
