"""The copies of the command line's help are generated from the commands' own help (Typer's:
docstrings and options' help) by ``python -m tally.cli.reference``: the text ``tally --help``
prints without Typer (tally/cli/generated_help.py) and the CLI reference (docs/cli.md). A
command whose help changed without regenerating them fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_generated_help_and_the_cli_reference_are_the_commands_help() -> None:
    # a fresh process: Typer lists the commands in the order their modules registered them
    done = subprocess.run(
        [sys.executable, "-m", "tally.cli.reference", "--check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_the_cli_reference_shows_every_commands_help() -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in (
        "tally deal play",
        "tally event round",
        "tally print scoresheet",
        "tally series standings",
    ):
        assert f"## {command}\n" in page
        assert f"$ {command} --help\n\n Usage: {command} [OPTIONS]" in page
    assert "--as-played" in page.split("## tally deal play\n")[1].split("## ")[0]
