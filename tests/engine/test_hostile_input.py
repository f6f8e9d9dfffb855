"""Whatever a file or standard input holds, ``tally check`` rules on it or refuses it cleanly.

No input may end in an internal error (exit 3): long numbers, digits that are not ASCII, a
byte-order mark, another encoding, and whatever the fuzzer of :mod:`tests.fuzz_support`
makes of the example records.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tally.cli import app
from tally.engine.notation import decode_record, read_deal
from tally.engine.ruling import Ruling, rule_text
from tally.errors import NotationError
from tests.fuzz_support import check_bytes, corpus, mutate

HEAD = '[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n'
runner = CliRunner()


def only_error(ruling: Ruling) -> tuple[int | None, str]:
    assert ruling.outcome is None
    [error] = ruling.errors
    return error.line, error.message


def test_a_carry_of_5000_digits_is_a_record_error_on_its_line() -> None:
    line, message = only_error(rule_text(HEAD + f'[Carry "{"9" * 5000}"]\n\n1. KS AS\n'))
    assert line == 4 and "Carry" in message and len(message) < 200


def test_a_carry_larger_than_any_real_one_is_refused_and_a_real_one_kept() -> None:
    assert "999" in only_error(rule_text(HEAD + '[Carry "1000"]\n'))[1]
    assert rule_text(HEAD + '[Carry "12"]\n\n1. KS AS\n').carry == 12


def test_a_trick_number_of_260_kb_is_a_notation_error_on_its_line() -> None:
    line, message = only_error(rule_text(HEAD + "\n1. KS AS\n" + "2" * 260_000 + ". AC 9C\n"))
    assert line == 6 and "too long" in message and len(message) < 200


@pytest.mark.parametrize("number", ["①", "²", "١", "١٢", "１", "1①", "߁"])
def test_a_trick_number_in_digits_other_than_ascii_is_refused(number: str) -> None:
    with pytest.raises(NotationError) as info:
        read_deal(HEAD + f"\n{number}. KS AS\n")
    assert info.value.line == 5
    line, _ = only_error(rule_text(HEAD + f"\n{number}. KS AS\n"))
    assert line == 5


@pytest.mark.parametrize(
    ("tag", "value"),
    [
        ("Carry", "١"),
        ("Carry", "²"),
        ("Carry", "１"),
        ("Result", "Anna ²"),
        ("Result", "Anna ١"),
        ("Result", "Anna " + "3" * 5000),
        ("Rules", "sixty-six match_target=١"),
        ("Rules", "sixty-six last_trick_bonus=²"),
        ("Rules", "sixty-six match_target=" + "7" * 5000),
    ],
)
def test_digits_other_than_ascii_or_too_many_in_a_tag_are_a_record_error(
    tag: str, value: str
) -> None:
    line, message = only_error(rule_text(HEAD + f'[{tag} "{value}"]\n\n1. KS AS\n'))
    assert line == 4 and len(message) < 400


def test_a_byte_order_mark_is_accepted_silently(tmp_path: Path) -> None:
    text = HEAD + "\n1. KS AS\n"
    plain = rule_text(text)
    assert rule_text("\ufeff" + text).as_json() == plain.as_json()
    path = tmp_path / "notepad.deal"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode())
    result = runner.invoke(app, ["check", "--json", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["tricks"] == {"Bert": 0, "Anna": 1}


def test_a_latin1_file_is_refused_naming_the_file_and_the_encoding(tmp_path: Path) -> None:
    path = tmp_path / "latin1.deal"
    path.write_bytes((HEAD.replace("Anna", "Zoé") + "\n1. KS AS\n").encode("latin-1"))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 2
    assert f"{path}: cannot be read" in result.output
    assert "not UTF-8" in result.output and "0xe9" in result.output
    assert "Traceback" not in result.output


LATIN1 = (HEAD.replace("Anna", "Zoé") + "\n1. KS AS\n").encode("latin-1")


def test_standard_input_is_held_to_the_same_utf8_rule_as_a_file(tmp_path: Path) -> None:
    path = tmp_path / "same.deal"
    path.write_bytes(LATIN1)
    from_file = runner.invoke(app, ["check", "--json", str(path)])
    from_stdin = runner.invoke(app, ["check", "--json", "-"], input=LATIN1)
    assert from_file.exit_code == from_stdin.exit_code == 2
    file_json, stdin_json = json.loads(from_file.output), json.loads(from_stdin.output)
    assert file_json["errors"] == stdin_json["errors"]
    assert "not UTF-8" in stdin_json["errors"][0]["message"]
    good = (HEAD.replace("Anna", "Zoé") + "\n1. KS AS\n").encode()
    ok = runner.invoke(app, ["check", "--json", "-"], input=b"\xef\xbb\xbf" + good)
    assert ok.exit_code == 0 and json.loads(ok.output)["players"]["dealer"] == "Zoé"


@pytest.mark.slow  # a real process
def test_standard_input_of_a_real_process_refuses_latin1_and_accepts_utf8() -> None:
    cmd = [sys.executable, "-m", "tally", "check", "-"]
    bad = subprocess.run(cmd, input=LATIN1, capture_output=True, timeout=60)
    assert bad.returncode == 2
    assert b"-: cannot be read: line 1: not UTF-8 text: byte 0xe9" in bad.stderr
    good = subprocess.run(
        cmd, input=LATIN1.decode("latin-1").encode(), capture_output=True, timeout=60
    )
    assert good.returncode == 0, good.stderr
    assert "Zoé (dealer)" in good.stdout.decode()


def test_decode_record_names_the_line_of_the_first_bad_byte() -> None:
    with pytest.raises(NotationError) as info:
        decode_record(b'[Dealer "A"]\n[Forehand "B"]\n\xff')
    assert info.value.line == 3 and "0xff at offset 28" in str(info.value)


def test_mutated_records_never_end_in_an_internal_error() -> None:
    """A few seconds of the fuzzer (``python -m tests.fuzz_support`` runs it for longer)."""
    rng = random.Random(8)
    records = corpus()
    start = time.monotonic()
    done = 0
    while done < 600 and time.monotonic() - start < 4:
        check_bytes(mutate(rng.choice(records), rng))  # raises only on a crash
        done += 1
    assert done >= 100


def test_mutated_records_through_tally_check_exit_0_1_or_2() -> None:
    rng = random.Random(9)
    records = corpus()
    seen = set()
    for _ in range(40):
        data = mutate(rng.choice(records), rng)[:20_000]
        for args in (["check", "-"], ["check", "--json", "-"]):
            result = runner.invoke(app, args, input=data)
            assert result.exit_code in (0, 1, 2), (data[:300], result.output[-500:])
            assert result.exception is None or isinstance(result.exception, SystemExit), data
            seen.add(result.exit_code)
    assert 2 in seen and (0 in seen or 1 in seen)
