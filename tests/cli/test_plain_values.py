"""How a database command starts: plain values converted without pydantic
(tally.cli.application.PlainParam: each value it converts itself comes out as Typer's pydantic
converter gives it, every other value goes to that converter, and a database command imports
no pydantic), and Python's garbage collector held while tally starts (tally.cli.main,
started, opening), on for the command's own work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import pytest
import typer
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param
from typer.core import _TyperParameter

from tally.cli.application import NOT_PLAIN, PlainParam, plain_value, plainly

ROOT = Path(__file__).resolve().parents[2]

VALUES: list[Any] = [
    "",
    "0",
    "7",
    "007",
    "-12",
    "-0",
    "-",
    "--3",
    "+3",
    " 5",
    "5 ",
    "1_000",
    "1e3",
    "2.5",
    "\u0663",  # an Arabic-Indic digit: not plain
    "\u00b2",
    "9" * 18,
    "9" * 19,
    "9" * 40,
    "Anna",
    "Caf\udce9",  # bytes that were not UTF-8, kept as surrogate escapes
    "true",
    True,
    False,
    0,
    1,
    3,
    2.0,
    2.5,
    (),
    ("a", "b"),
    ["a"],
    ("a", 1),
]


def _command() -> Any:
    """A click command with one parameter of every kind a tally command takes."""
    sub = typer.Typer()

    @sub.command()
    def every(
        text: Annotated[str, typer.Argument()],
        names: Annotated[list[str], typer.Argument()],
        number: Annotated[int, typer.Option()] = 1,
        bounded: Annotated[int, typer.Option(min=1, max=9)] = 1,
        share: Annotated[float, typer.Option()] = 2.0,
        flag: Annotated[bool, typer.Option()] = False,
    ) -> None:
        """Every kind."""

    @sub.command()
    def other() -> None:
        """A second command, so that the app is a group."""

    return typer.main.get_command(sub)


def _outcome(run: Any, value: Any) -> tuple[str, Any]:
    try:
        found = run(value)
    except BadParameter as exc:
        return "refused", exc.format_message()
    return type(found).__name__, found


@pytest.mark.parametrize("name", ["text", "names", "number", "bounded", "share", "flag"])
def test_a_value_converted_plainly_is_what_typers_converter_gives(name: str) -> None:
    group = plainly(_command())
    command = group.commands["every"]
    param = next(p for p in command.params if p.name == name)
    assert isinstance(param, _TyperParameter) and isinstance(param._runtime_param, PlainParam)
    ctx = command.make_context("every", ["x", "y"], resilient_parsing=True)
    typers = build_runtime_param(param.type_descriptor)
    plain_ones = 0
    for value in VALUES:
        param._runtime_param = PlainParam(
            param.type_descriptor.parameter_info, param.type_descriptor.annotation
        )
        plain = _outcome(lambda v: param.get_runtime_param().coerce(v, param, ctx), value)
        expected = _outcome(lambda v: typers.coerce(v, param, ctx), value)
        assert plain == expected, (name, value)
        plain_ones += plain_value(param.type_descriptor.annotation, value) is not NOT_PLAIN
    assert plain_ones >= (0 if name == "bounded" else 1)
    assert plain_value(int, "\u0663") is NOT_PLAIN and plain_value(int, "9" * 19) is NOT_PLAIN


def test_a_database_command_imports_no_pydantic(tmp_path: Path) -> None:
    env = dict(os.environ, TALLY_DB=f"sqlite:///{tmp_path / 'club.db'}", TALLY_SCORER="t")
    code = (
        "import sys\nfrom tally.cli import run\nstatus = run(sys.argv[1:])\n"
        "print(status, sorted(m for m in sys.modules if m.partition('.')[0] == 'pydantic'))"
    )
    commands = (
        ["init"],
        ["player", "add", "Anna", "Bert"],
        ["player", "list"],
        ["match", "show", "1"],
    )
    for args in commands:
        done = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            check=False,
        )
        status = "2" if args[0] == "match" else "0"  # no match 1: refused, in plain words
        if args != ["init"]:  # creating the database runs the migrations, with SQLModel
            assert done.stdout.splitlines()[-1] == f"{status} []", (args, done.stderr)


GC_SPY = """
import atexit, gc
import tally.cli.application, tally.cli.players, tally.store

seen = []


def spy(name, real):
    def called(*args, **kwargs):
        seen.append((name, gc.isenabled()))
        return real(*args, **kwargs)

    return called


tally.cli.application.command = spy("built", tally.cli.application.command)
tally.cli.players.reading = spy("command", tally.cli.players.reading)
tally.store.open_store = spy("opened", tally.store.open_store)
atexit.register(lambda: print(seen, gc.isenabled(), gc.get_freeze_count() > 0))
from tally.cli import main

main()
"""


def test_the_garbage_collector_is_held_while_tally_starts_and_on_for_the_command(
    tmp_path: Path,
) -> None:
    env = dict(os.environ, TALLY_DB=f"sqlite:///{tmp_path / 'club.db'}", TALLY_SCORER="t")
    python = [sys.executable, "-c", GC_SPY]
    added = subprocess.run(
        [*python, "player", "add", "Anna"], capture_output=True, env=env, cwd=ROOT, check=False
    )
    assert added.returncode == 0
    done = subprocess.run(
        [*python, "player", "list"], capture_output=True, text=True, env=env, cwd=ROOT, check=False
    )
    assert done.returncode == 0, done.stderr
    # held while Typer builds the command, on for the command's work, held while the store
    # opens, on again afterwards; what start-up made is frozen (never collected again)
    expected = "[('built', False), ('command', True), ('opened', False)] True True"
    assert done.stdout.splitlines()[-1] == expected


def test_run_leaves_the_garbage_collector_alone(tmp_path: Path) -> None:
    import gc

    from tally.cli import run

    frozen = gc.get_freeze_count()
    assert run(["player", "list", "--db", str(tmp_path / "none.db")]) == 2  # no database
    assert gc.isenabled() and gc.get_freeze_count() == frozen
