"""``tally --help`` to a file or a pipe is printed without Typer or rich from the text
generated from Typer's help (tally/cli/generated_help.py, tests/cli/test_reference.py): here
it is compared with what Typer and rich print, and what it cannot print goes to Typer."""

from __future__ import annotations

import itertools

import pytest

from tally.cli import run
from tally.cli.generated_help import LINES, TEXT
from tally.cli.plain_help import STYLING, WIDTH, plain_help


def test_the_plain_help_is_typers_help_to_the_letter(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    for name in STYLING:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("tally.cli.plain_help.console_width", lambda _env: WIDTH)
    assert run(["--help"], fast=False) == 0
    typer_help = capsys.readouterr()
    assert typer_help.err == ""
    assert typer_help.out == TEXT
    assert run(["--help"]) == 0  # the plain path (stdout is captured: not a terminal)
    assert capsys.readouterr() == typer_help


@pytest.mark.parametrize("width", [60, 79, 81, 120])
def test_the_help_at_another_width_is_typers(
    width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    for name in STYLING:
        monkeypatch.delenv(name, raising=False)
    assert plain_help() is None
    assert run(["--help"]) == 0
    out = capsys.readouterr().out
    assert out != TEXT
    # rich's layout at that width
    assert {len(line) for line in out.splitlines() if line} == {width}
    assert all(f"│ {name} " in out for name in LINES)


def test_what_the_plain_help_cannot_write_as_rich_does_goes_to_typer() -> None:
    assert plain_help({"COLUMNS": "80", "FORCE_COLOR": "1"}) is None
    assert plain_help({"COLUMNS": "80", "TYPER_USE_RICH": "0"}) is None
    assert plain_help({"COLUMNS": "100"}) is None
    assert plain_help({"COLUMNS": "80"}) == TEXT


def _help(
    args: list[str], width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    """What Typer prints for ``tally ARGS`` at ``width`` columns."""
    monkeypatch.setenv("COLUMNS", str(width))
    for name in STYLING:
        monkeypatch.delenv(name, raising=False)
    assert run(args, fast=False) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["event", "--help"],
        ["print", "--help"],
        ["event", "round", "--help"],
        ["player", "add", "--help"],
    ],
)
def test_help_shows_no_type_for_help_and_breaks_no_line_mid_sentence(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    wide = _help(args, 500, monkeypatch, capsys)
    help_rows = [line for line in wide.splitlines() if "--help" in line]
    assert help_rows and all("<bool>" not in line for line in help_rows)
    if "Commands" in wide:
        rows = wide.split("Commands")[1].splitlines()[1:-1]
        # 500 columns hold every help line: none goes on to a second line
        assert rows and all(row[2:3].strip() for row in rows), rows
    narrow = _help(args, 80, monkeypatch, capsys)
    if "Commands" in narrow:
        rows = [row[2:-2].rstrip() for row in narrow.split("Commands")[1].splitlines()[1:-1]]
        for row, after in itertools.pairwise(rows):
            if not after[:2].strip():  # goes on: the next word did not fit
                assert len(row) + 1 + len(after.split()[0]) > 76, (row, after)


def test_tally_print_help_names_every_sheet(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tally.cli.printing import print_app

    words = {
        "scoresheet": "score sheet",
        "ruling": "ruling",
        "analysis": "analysis",
        "standings": "standings",
        "pairings": "pairings",
        "ratings": "ratings",
        "series": "series",
        "bracket": "bracket",
        "report": "a player's evening",
        "reports": "a player's evening",
        "money": "money",
    }
    sheets = {info.name for info in print_app.registered_commands}
    assert sheets == set(words)  # a new sheet is named in the group's help line too
    line = " ".join(LINES["print"].split())
    assert all(word in line for word in words.values())
    listed = _help(["print", "--help"], 120, monkeypatch, capsys)
    assert all(f"│ {name} " in listed for name in sheets)
