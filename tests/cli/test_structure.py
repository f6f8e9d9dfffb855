"""The command line's lazy start-up (see tally/cli/__init__.py): ``tally --help`` lists every
command with the same help as the full app, and running a command imports only its module."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import COMMANDS, app, load_all, plain_check, run

ROOT = Path(__file__).resolve().parents[2]
RECORD = sorted((ROOT / "examples" / "deals").glob("*.deal"))[0]


def _python(code: str, *args: str, columns: str = "100") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COLUMNS=columns, TERM="dumb")
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )


def test_tally_help_is_the_full_apps_help_word_for_word() -> None:
    lazy = _python("from tally.cli import main; main()", "--help")
    full = _python(
        "import sys\nfrom tally.cli import load_all\n"
        "load_all().main(sys.argv[1:], prog_name='tally')",
        "--help",
    )
    assert lazy.returncode == full.returncode == 0
    assert "check" in lazy.stdout and "player" in lazy.stdout
    assert lazy.stdout == full.stdout
    assert lazy.stderr == full.stderr == ""


def test_every_command_the_modules_register_is_listed_in_order_in_its_module() -> None:
    full = load_all()
    # The order is pinned by the help comparison above (in a fresh process): here the modules
    # other tests imported first register their commands first.
    assert sorted(full.commands) == sorted(COMMANDS)
    modules = {info.name: info.typer_instance for info in app.registered_groups}
    for name, module in COMMANDS.items():
        loaded = sys.modules[f"tally.cli.{module}"]
        if name in modules:  # a command group: its Typer is defined in that module
            assert any(value is modules[name] for value in vars(loaded).values()), name
        else:
            callback = full.commands[name].callback
            assert callback is not None and callback.__module__ == loaded.__name__, name


def test_running_a_command_imports_only_its_own_command_module() -> None:
    code = (
        "import sys\nfrom tally.cli import COMMANDS, run\nstatus = run(sys.argv[1:])\n"
        "commands = {f'tally.cli.{module}' for module in COMMANDS.values()}\n"
        "print(status, sorted(m for m in sys.modules if m in commands))"
    )
    checked = _python(code, "check", str(RECORD))
    # a plain check runs tally.cli.checking: no command module, not even its own
    assert checked.stdout.splitlines()[-1] == "0 []"
    heavy = _python(
        code.replace(
            "m in commands", "m in ('pydantic', 'sqlalchemy', 'rich', 'jinja2', 'typer', 'click')"
        ),
        "check",
        str(RECORD),
    )
    assert heavy.stdout.splitlines()[-1] == "0 []"  # a plain check imports no Typer or Click
    typed = _python(code, "check", "--lang", "de", str(RECORD))
    assert typed.stdout.splitlines()[-1] == "0 ['tally.cli.check']"  # Typer's path otherwise
    helped = _python(code, "--help", columns="80")
    assert helped.stdout.splitlines()[-1] == "0 []"
    # the help to a pipe is the generated text: no Typer, Click or rich at all
    bare = _python(
        code.replace(
            "m in commands",
            "m.partition('.')[0] in ('typer', 'click', 'rich', 'pydantic', 'sqlalchemy')",
        ),
        "--help",
        columns="80",
    )
    assert bare.stdout.splitlines()[-1] == "0 []"


MISTYPED = "tally: No such command 'chek'. Did you mean 'check'? (`tally --help` shows the usage)\n"


def test_a_mistyped_command_is_refused_with_a_suggestion_in_this_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # in the inner loop for the test below, which runs the console script in a fresh process
    assert run(["chek"]) == 2
    assert capsys.readouterr().err == MISTYPED


@pytest.mark.slow  # a real process; the test above keeps the refusal in the inner loop
def test_a_mistyped_command_is_refused_with_a_suggestion() -> None:
    done = _python("from tally.cli import main; main()", "chek")
    assert done.returncode == 2
    assert done.stderr == MISTYPED


def test_a_command_group_alone_prints_its_help_from_its_module() -> None:
    result = CliRunner().invoke(app, ["deal"])
    assert "Deals: start, play, undo" in result.output
    assert "record" in result.output


CHECKS = [
    ["check", str(RECORD)],
    ["check", "--referee", *map(str, sorted((ROOT / "examples" / "deals").glob("*.deal")))],
    ["check", *map(str, sorted((ROOT / "examples" / "deals").glob("*.deal"))), "--json"],
    ["check", str(ROOT / "no-such-record.deal"), str(RECORD)],
    ["check", "--json", str(ROOT / "no-such-record.deal"), str(ROOT / "README.md")],
    ["check", str(ROOT / "tests")],
]


@pytest.mark.parametrize(
    "args", CHECKS, ids=["one", "referee", "json", "missing", "json-errors", "folder"]
)
def test_a_plain_check_says_and_exits_the_same_on_the_fast_path_as_through_typer(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert plain_check(args) is not None
    fast = run(args)
    fast_out = capsys.readouterr()
    slow = run(args, fast=False)
    slow_out = capsys.readouterr()
    assert (fast, fast_out.out, fast_out.err) == (slow, slow_out.out, slow_out.err)
    assert fast_out.out or fast_out.err


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["check", "--help"],
        ["check", "--", "-x.deal"],
        ["check", "--jsn", "a.deal"],
        ["check", "--json=1", "a.deal"],
        ["rules"],
        [],
    ],
)
def test_anything_but_a_plain_check_goes_through_typer(args: list[str]) -> None:
    assert plain_check(args) is None
