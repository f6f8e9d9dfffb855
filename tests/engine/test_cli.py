"""``tally check``: the contract of NOTATION.md (exit status, ``--json`` fields, stdin, the
readable ruling, no running points for an unfinished deal unless a referee asks).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from tally.cli import app

runner = CliRunner()

HEAD = '[Event "Thursday club"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "QH"]\n'

# Anna wins five tricks (15 + 12 + 11 + 12 + 4) and 20 in diamonds: 74; Bert has no trick.
CLEAN = HEAD + '[Result "Anna 3"]\n\n1. KS AS\n2. 10S JS\n3. AC 9C\n4. 10C JC\n5. 20 KD 9D 66\n'
# Bert discards 9D to 10C after Anna's close and shows KC later: follow-suit in trick 3.
REVOKE = HEAD + '[Result "Bert 1"]\n\n1. KS AS\n2. close AC 9C\n3. 10C 9D\n4. JC KC\n'
# KS played twice: a record error on line 7.
BROKEN = HEAD + "\n1. KS AS\n2. AC KS\n"
# Two tricks of an unfinished deal: Anna has 15 + 12 = 27 counted points.
UNFINISHED = HEAD + "\n1. KS AS\n2. 10S JS\n"

FIELDS = {
    "file",
    "rules",
    "players",
    "errors",
    "violations",
    "tricks",
    "points",
    "outcome",
    "agreed",
    "carry",
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for name, text in (
        ("clean", CLEAN),
        ("revoke", REVOKE),
        ("broken", BROKEN),
        ("unfinished", UNFINISHED),
    ):
        path = tmp_path / f"{name}.deal"
        path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    return out


def check(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["check", *args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


# --- exit status ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "status"),
    [
        (["clean"], 0),
        (["unfinished"], 0),
        (["revoke"], 1),
        (["broken"], 2),
        (["clean", "revoke"], 1),
        (["revoke", "clean"], 1),
        (["clean", "broken"], 2),
        (["broken", "revoke", "clean"], 2),
        (["revoke", "broken"], 2),
    ],
)
def test_exit_status_is_the_worst_of_the_files(
    files: dict[str, str], names: list[str], status: int
) -> None:
    code, _, _ = check(*[files[n] for n in names])
    assert code == status
    code, _, _ = check("--json", *[files[n] for n in names])
    assert code == status


def test_a_missing_file_gives_exit_two_and_no_traceback(
    files: dict[str, str], tmp_path: Path
) -> None:
    missing = str(tmp_path / "nope.deal")
    code, out, err = check(missing, files["clean"])
    assert code == 2
    assert "nope.deal" in err
    assert "Traceback" not in out + err
    assert "Anna" in out  # the readable file still gets its ruling


def test_a_directory_or_a_binary_file_cannot_be_read(tmp_path: Path) -> None:
    binary = tmp_path / "latin1.deal"
    binary.write_bytes(HEAD.encode() + "; K\xf6nig\n".encode("latin-1"))
    for target in (str(tmp_path), str(binary)):
        code, out, err = check(target)
        assert code == 2
        assert "Traceback" not in out + err


def test_a_record_longer_than_one_read_is_read_whole(tmp_path: Path) -> None:
    """A record is read to its end however long it is (here a comment of 200,000 characters
    before the tricks: three reads of the file), and ruled as the short one is."""
    long = tmp_path / "long.deal"
    long.write_text(CLEAN.replace("\n\n", "\n; " + "x" * 200_000 + "\n\n", 1), encoding="utf-8")
    short = tmp_path / "short.deal"
    short.write_text(CLEAN, encoding="utf-8")
    code, out, _ = check("--json", str(long), str(short))
    assert code == 0
    ruled = [json.loads(line) for line in out.splitlines()]
    assert [r["outcome"] for r in ruled] == [ruled[1]["outcome"]] * 2
    assert ruled[0]["outcome"] == {"winner": "Anna", "game_points": 3, "reason": "claim"}
    assert ruled[0]["agreed"] is True


def test_a_path_through_a_file_says_why_it_cannot_be_read(tmp_path: Path) -> None:
    """The system's reason is given as the system words it (here: a file taken for a
    folder), after the path as typed."""
    (tmp_path / "club.deal").write_text(CLEAN, encoding="utf-8")
    target = str(tmp_path / "club.deal" / "1.deal")
    code, out, err = check(target)
    assert (code, out) == (2, "")
    assert err == f"{target}: cannot be read: Not a directory\n"


def test_a_missing_file_in_json_is_an_object_with_an_error(tmp_path: Path) -> None:
    code, out, _ = check("--json", str(tmp_path / "nope.deal"))
    assert code == 2
    [line] = out.splitlines()
    obj = json.loads(line)
    assert obj["file"].endswith("nope.deal")
    assert obj["errors"] and obj["outcome"] is None


def test_a_missing_file_in_json_has_the_fields_of_every_other_object(tmp_path: Path) -> None:
    _, out, _ = check("--json", str(tmp_path / "nope.deal"))
    assert set(json.loads(out)) == FIELDS


# --- --json --------------------------------------------------------------------------------------


def test_json_prints_one_object_per_file_per_line(files: dict[str, str]) -> None:
    names = ["clean", "revoke", "broken", "unfinished"]
    _, out, _ = check("--json", *[files[n] for n in names])
    lines = out.splitlines()
    assert len(lines) == 4
    objs = [json.loads(line) for line in lines]
    assert [o["file"] for o in objs] == [files[n] for n in names]
    for obj in objs:
        assert set(obj) == FIELDS
        assert set(obj["players"]) == {"forehand", "dealer"}
        assert obj["players"] == {"forehand": "Bert", "dealer": "Anna"}
        assert obj["rules"] == "sixty-six"


def test_json_of_a_clean_record(files: dict[str, str]) -> None:
    _, out, _ = check("--json", files["clean"])
    obj = json.loads(out)
    assert obj["errors"] == [] and obj["violations"] == []
    assert obj["tricks"] == {"Bert": 0, "Anna": 5}
    assert obj["points"] == {"Bert": 0, "Anna": 74}
    assert obj["outcome"] == {"winner": "Anna", "game_points": 3, "reason": "claim"}
    assert obj["agreed"] is True
    assert obj["carry"] == 0


def test_json_of_a_violation(files: dict[str, str]) -> None:
    _, out, _ = check("--json", files["revoke"])
    obj = json.loads(out)
    [v] = obj["violations"]
    assert set(v) == {"trick", "player", "rule", "message"}
    assert (v["trick"], v["player"], v["rule"]) == (3, "Bert", "follow-suit")
    assert obj["outcome"] == {"winner": "Anna", "game_points": 3, "reason": "illegal-play"}
    assert obj["agreed"] is False


def test_json_of_a_record_error(files: dict[str, str]) -> None:
    _, out, _ = check("--json", files["broken"])
    obj = json.loads(out)
    [e] = obj["errors"]
    assert set(e) == {"line", "message"}
    assert e["line"] == 7 and "KS" in e["message"]
    assert obj["outcome"] is None


def test_json_rules_shows_preset_and_overrides_as_given() -> None:
    text = CLEAN.replace(HEAD, HEAD + '[Rules "pagat-66 carry=accumulate"]\n')
    _, out, _ = check("--json", "-", input=text)
    assert json.loads(out)["rules"] == "pagat-66 carry=accumulate"


def test_json_rules_defaults_to_sixty_six_without_a_rules_tag() -> None:
    _, out, _ = check("--json", "-", input=CLEAN)
    assert json.loads(out)["rules"] == "sixty-six"


def test_json_rules_are_one_space_apart_however_the_tag_was_typed() -> None:
    text = CLEAN.replace(HEAD, HEAD + '[Rules " pagat-66   carry=accumulate "]\n')
    _, out, _ = check("--json", "-", input=text)
    assert json.loads(out)["rules"] == "pagat-66 carry=accumulate"


def test_json_carry_after_a_drawn_deal() -> None:
    body = (
        "1. KC AC\n2. 9S 10S\n3. swap JD AD\n4. 20 KS AS\n5. 9C 10C\n6. 9D 10D\n"
        "7. KD QD\n8. JC 9H\n9. QS 10H\n10. QC KH\n11. JS JH\n12. QH AH\n"
    )
    _, out, _ = check("--json", "-", input=HEAD + '[Carry "1"]\n\n' + body)
    obj = json.loads(out)
    assert obj["outcome"] == {"winner": None, "game_points": 0, "reason": "draw"}
    assert obj["carry"] == 2


# --- stdin ---------------------------------------------------------------------------------------


def test_dash_reads_the_record_from_stdin() -> None:
    code, out, _ = check("--json", "-", input=REVOKE)
    assert code == 1
    obj = json.loads(out)
    assert obj["file"] == "-"
    assert obj["outcome"]["reason"] == "illegal-play"


# --- the readable ruling -------------------------------------------------------------------------


def test_readable_ruling_names_the_ruling_the_rule_and_the_trick() -> None:
    code, out, _ = check("-", input=REVOKE)
    assert code == 1
    assert "follow-suit" in out
    assert "Trick 3" in out or "trick 3" in out
    assert "Bert" in out and "Anna" in out
    assert "illegal-play" in out
    assert "3 game points" in out


def test_readable_ruling_says_plainly_when_the_players_result_is_wrong() -> None:
    _, out, _ = check("-", input=REVOKE)
    assert "Bert 1" in out
    assert "wrong" in out.lower()
    _, out, _ = check("-", input=CLEAN)
    assert "wrong" not in out.lower()
    assert "right" in out.lower()


def test_readable_ruling_of_a_record_error_gives_its_line() -> None:
    code, out, _ = check("-", input=BROKEN)
    assert code == 2
    assert "line 7" in out and "KS" in out


def test_readable_ruling_of_a_claim() -> None:
    _, out, _ = check("-", input=CLEAN)
    assert "Anna wins 3 game points" in out
    assert "claim" in out


def test_no_running_points_for_an_unfinished_deal() -> None:
    code, out, _ = check("-", input=UNFINISHED)
    assert code == 0
    assert "27" not in out
    assert "not over" in out


def test_a_referee_may_ask_for_the_running_points() -> None:
    _, out, _ = check("--referee", "-", input=UNFINISHED)
    assert "27" in out


def test_check_without_files_is_a_usage_error() -> None:
    result = runner.invoke(app, ["check"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# --- each line of --json is the JSON encoder's -------------------------------------------------


def _ruled_records() -> list[Any]:
    """Rulings of every kind: each conformance case (errors, violations, claims, draws,
    unfinished deals), the bundled examples, and random legal deals of every preset."""
    import random

    from tally.engine.deal import Deal
    from tally.engine.notation import write_deal
    from tally.engine.rules import RuleSet
    from tally.engine.ruling import rule_text
    from tests.conftest import CONFORMANCE

    root = Path(__file__).resolve().parents[2]
    paths = sorted(CONFORMANCE.rglob("*.deal")) + sorted((root / "examples").rglob("*.deal"))
    rulings = [rule_text(p.read_text(encoding="utf-8"), str(p)) for p in paths]
    rng = random.Random(9)
    for preset in ("sixty-six", "schnapsen", "pagat-66"):
        for _ in range(100):
            deal = Deal.random(RuleSet.parse(preset), rng)
            deal.play_out_randomly(rng)
            rulings.append(rule_text(write_deal(deal.record())))
    return rulings


def test_each_json_line_is_what_the_json_encoder_writes_of_the_ruling() -> None:
    """``tally check --json`` writes a ruling's line directly (:meth:`Ruling.json_line`): it
    is, byte for byte, the encoder's writing of the NOTATION.md object, for every kind."""
    rulings = _ruled_records()
    kinds = {
        (
            bool(r.errors),
            bool(r.violations),
            r.agreed,
            None if r.outcome is None else (r.outcome.winner is None, r.outcome.reason),
        )
        for r in rulings
    }
    assert len(kinds) >= 12  # (errors, violations, each reason, agreed or not, no winner)
    for r in rulings:
        assert r.json_line() == json.dumps(r.as_json(), ensure_ascii=False), r.file


NAMES = st.text(st.characters(codec="utf-8"), max_size=12)


@given(
    file=NAMES,
    forehand=NAMES,
    dealer=NAMES,
    agreed=st.sampled_from([None, True, False]),
    carry=st.integers(0, 20),
    drawn=st.booleans(),
)
def test_json_lines_quote_any_name_as_the_encoder_does(
    file: str, forehand: str, dealer: str, agreed: bool | None, carry: int, drawn: bool
) -> None:
    """Names and paths with quotes, backslashes, control characters, line separators or any
    other character are quoted as the JSON encoder quotes them."""
    import dataclasses

    from tally.engine.decision import Outcome, Reason
    from tally.engine.ruling import rule_text

    ruling = rule_text(CLEAN)
    outcome = Outcome(None, 0, Reason.DRAW) if drawn else Outcome(forehand, 3, Reason.CLAIM)
    ruling = dataclasses.replace(
        ruling,
        file=file,
        forehand=forehand,
        dealer=dealer,
        tricks={forehand: 5, dealer: 0},
        points={forehand: 74, dealer: 0},
        outcome=outcome,
        agreed=agreed,
        carry=carry,
    )
    assert ruling.json_line() == json.dumps(ruling.as_json(), ensure_ascii=False)
