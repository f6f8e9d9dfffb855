"""``tally deal``: recording trick by trick, interactively, by quick entry and by import;
corrections (undo, edit in $EDITOR, delete); refusals that leave the database as it was."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from tests.store_support import (
    DEALER_CLAIMS,
    DRAW_DEAL,
    FAILED_CLOSE,
    FOREHAND_CLAIMS,
    LATE_REVOKE,
    dump,
    lines,
    ok,
    refused,
    tally,
)


def setup_match(url: str, *options: str) -> None:
    ok(url, "player", "add", "Anna", "Bert")
    ok(url, "match", "start", "Anna", "Bert", "--dealer", "Anna", *options)


def score(url: str) -> tuple[int, int, int]:
    m = json.loads(ok(url, "match", "show", "1", "--json"))
    return m["score"]["Anna"], m["score"]["Bert"], m["carry"]


def test_a_whole_match_recorded_trick_by_trick(db_url: str) -> None:
    """Five deals through `tally deal play`: a draw (carry 1), a failed close that scores the
    carry, a revoke proven by a later trick, two claims; the score after each; then the match
    is over and one more deal is refused."""
    setup_match(db_url)
    expected = [
        (DRAW_DEAL, "Anna", (0, 0, 1), "Deal 1.1 ruled: drawn"),
        (
            FAILED_CLOSE,
            "Bert",
            (0, 4, 0),
            "Deal 1.2 ruled: Bert wins 4 game points, 1 of them carried in (failed close): "
            "Anna closed the stock and did not make 66",
        ),
        (
            LATE_REVOKE,
            "Anna",
            (3, 4, 0),
            "Deal 1.3 ruled: Anna wins 3 game points (illegal play): Bert broke a rule "
            "(follow-suit) in trick 6",
        ),
        (
            FOREHAND_CLAIMS,
            "Bert",
            (6, 4, 0),
            "Deal 1.4 ruled: Anna wins 3 game points (claim): Anna claimed 66 correctly",
        ),
        (
            DEALER_CLAIMS,
            "Anna",
            (9, 4, 0),
            "Deal 1.5 ruled: Anna wins 3 game points (claim): Anna claimed 66 correctly",
        ),
    ]
    for number, (deal, dealer, after, ruling) in enumerate(expected, start=1):
        started = ok(db_url, "deal", "start", "1", deal[0])
        assert started.startswith(f"Deal 1.{number} (deal {number}): {dealer} deals")
        # the last card proves Bert's revoke: recorded once the scorer says it happened
        outputs = [
            ok(
                db_url,
                "deal",
                "play",
                "1",
                *line.split(),
                *(["--as-played"] if deal is LATE_REVOKE and k == len(lines(deal)) - 1 else []),
            )
            for k, line in enumerate(lines(deal))
        ]
        for out in outputs[:-1]:
            assert "ruled" not in out and "Counted points" not in out
        assert ruling in outputs[-1]
        if deal is LATE_REVOKE:
            assert "Violation in trick 6: Bert broke follow-suit" in outputs[-1]
            assert not any("Violation" in out for out in outputs[:-1])
        assert score(db_url) == after
    assert "Match 1 is over: Anna wins, Anna 9, Bert 4." in outputs[-1]
    shown = ok(db_url, "match", "show", "1")
    assert "trick 6: Bert broke follow-suit" in shown
    refused(db_url, "deal", "start", "1", "QH", match="match 1 is over: Anna won 9-4")


def test_the_next_player_is_named_and_points_stay_hidden(db_url: str) -> None:
    setup_match(db_url)
    ok(db_url, "deal", "start", "1", "QH")
    assert ok(db_url, "deal", "play", "1", "KS") == (
        "Recorded KS in deal 1.1.\nTrick 1: Anna to follow.\nPosition: 1.1:1\n"
    )
    assert ok(db_url, "deal", "play", "--deal", "1.1", "AS") == (
        "Recorded AS in deal 1.1.\nTrick 2: Anna to lead.\nPosition: 1.1:2\n"
    )
    out = ok(db_url, "deal", "play", "1", "20", "QC", "--referee")
    assert out.endswith(
        "Trick 2: Bert to follow.\nCounted points (for the referee): "
        "Bert 0, Anna 35.\nPosition: 1.1:3\n"
    )
    assert ok(db_url, "deal", "undo", "1") == (
        "Undid 20 QC in deal 1.1.\nTrick 2: Anna to lead.\nPosition: 1.1:2\n"
    )
    shown = json.loads(ok(db_url, "deal", "show", "1", "--json"))
    assert shown["points"] is None and shown["record"].endswith("1. KS AS\n")


def test_recording_refusals_store_nothing(db_url: str) -> None:
    setup_match(db_url)
    refused(db_url, "deal", "play", "1", "KS", match="match 1 has no deal yet")
    refused(db_url, "deal", "start", "1", "XH", match='turn-up: "XH" is not a card')
    refused(db_url, "deal", "start", "9", "QH", match="there is no match 9")
    ok(db_url, "deal", "start", "1", "QH")
    ok(db_url, "deal", "play", "1", "KS", "AS")
    refused(
        db_url,
        "deal",
        "play",
        "1",
        "10C",
        "KS",
        match='"10C KS" refused, nothing was recorded: KS was already played in trick 1',
    )
    refused(db_url, "deal", "play", "1", "QH", match="QH is the turn-up")
    refused(db_url, "deal", "play", "1", "1S", match='"1S" is not a card')
    refused(db_url, "deal", "play", "1", "66@Carl", match='"Carl" does not play')
    refused(db_url, "deal", "play", "--deal", "5", "KD", match="there is no deal 5")
    refused(db_url, "deal", "play", "first", "KD", match='"first" is not a match number')
    refused(db_url, "deal", "start", "1", "JS", match="deal 1.1 is not finished")
    refused(
        db_url,
        "deal",
        "quick",
        "1",
        "--winner",
        "Anna",
        "--points",
        "1",
        match="deal 1.1 is not finished",
    )
    refused(db_url, "deal", "delete", "1.2", match="match 1 has no deal 2")
    refused(db_url, "deal", "export", "7", match="there is no deal 7")


def test_schnapsen_has_no_nines(db_url: str) -> None:
    setup_match(db_url, "--rules", "schnapsen")
    refused(db_url, "deal", "start", "1", "9H", match="9H is not in a Schnapsen deck")
    ok(db_url, "deal", "start", "1", "QH")
    refused(db_url, "deal", "play", "1", "9S", match="9S is not in a Schnapsen deck")


def test_interactive_recording_goes_deal_after_deal(db_url: str) -> None:
    setup_match(db_url, "--rules", "sixty-six match_target=4")
    feed = [
        DRAW_DEAL[0],
        *lines(DRAW_DEAL)[:-1],
        "kh",
        "undo",
        "9H",
        "kh qc",
        "",
        FAILED_CLOSE[0],
        "close KC",
        "KC",
        "quit",
    ]
    out = ok(db_url, "deal", "record", "1", input="\n".join(feed) + "\n")
    assert "Deal 1.1: Anna deals, Bert leads. Turn-up? Deal 1.1: turn-up JS." in out
    assert "[1.1 trick 1] Bert to lead> Recorded 10C AH in deal 1.1." in out
    assert "Undid KH in deal 1.1." in out
    assert 'Refused: "9H" refused, nothing was recorded: 9H was already played' in out
    assert "Deal 1.1 ruled: drawn" in out
    assert "Every trick is played. Claim (66, 66@Name), or Enter to go on> " in out
    assert "Deal 1.2: Bert deals, Anna leads. Turn-up? Deal 1.2: turn-up KH." in out
    assert 'Refused: "KC" refused, nothing was recorded: KC was already played' in out
    assert "Counted points" not in out.split("Deal 1.1 ruled")[0]
    # quitting keeps what was recorded; the next session goes on with the same deal
    out = ok(
        db_url,
        "deal",
        "record",
        "1",
        input="\n".join(" ".join(lines(FAILED_CLOSE)).split()[2:]) + "\n",
    )
    assert out.startswith("Deal 1.2 goes on.\n[1.2 trick 1] Bert to follow> Recorded JC")
    assert "Match 1 is over: Bert wins, Anna 0, Bert 4." in out
    assert ok(db_url, "deal", "record", "1", input="").strip() == (
        "Match 1 is over: Bert wins, Anna 0, Bert 4."
    )


def test_quick_entry(db_url: str) -> None:
    setup_match(db_url)
    out = ok(db_url, "deal", "quick", "1", "--draw")
    assert "Deal 1.1 ruled: drawn (entered as a result: drawn); carry 1" in out
    out = ok(
        db_url,
        "deal",
        "quick",
        "1",
        "--winner",
        "anna",
        "--points",
        "2",
        "--reason",
        "failed-close",
    )
    assert "Anna wins 3 game points, 1 of them carried in (failed close)" in out
    refused(
        db_url,
        "deal",
        "quick",
        "1",
        "--winner",
        "Anna",
        "--points",
        "5",
        match="a deal won by claim is worth 1 or 2 or 3 game point(s)",
    )
    refused(
        db_url,
        "deal",
        "quick",
        "1",
        "--winner",
        "Anna",
        "--points",
        "1",
        "--reason",
        "last-trick",
        match="under sixty-six an unclaimed deal ends draw",
    )
    refused(
        db_url, "deal", "quick", "1", "--winner", "Anna", "--draw", match="either --winner NAME"
    )
    refused(db_url, "deal", "play", "1", "KS", match="entered as a result")


def test_import_and_export(db_url: str, tmp_path: Path) -> None:
    setup_match(db_url)
    first = tmp_path / "first.deal"
    first.write_text(
        '[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "JS"]\n\n'
        + "\n".join(f"{n}. {line}" for n, line in enumerate(lines(DRAW_DEAL), 1))
        + "\n",
        encoding="utf-8",
    )
    second = tmp_path / "second.deal"
    second.write_text(
        '[Rules "sixty-six"]\n[Dealer "Bert"]\n[Forehand "Anna"]\n'
        '[Trump "QH"]\n[Carry "1"]\n\n1. KS AS\n2. 10C\n',
        encoding="utf-8",
    )
    bad = tmp_path / "bad.deal"
    bad.write_text(
        '[Dealer "Bert"]\n[Forehand "Anna"]\n[Trump "QH"]\n[Carry "1"]\n\n1. KS KS\n',
        encoding="utf-8",
    )
    refused(
        db_url,
        "deal",
        "import",
        "1",
        str(first),
        str(bad),
        match=f"{bad}: line 6: KS was already played",
    )
    out = ok(db_url, "deal", "import", "1", str(first), str(second))
    assert f"Imported {second} as deal 1.2 (deal " in out  # ids: PostgreSQL skips some
    assert ok(db_url, "deal", "play", "1", "AC") == (
        "Recorded AC in deal 1.2.\nTrick 3: Anna to lead.\nPosition: 1.2:4\n"
    )
    exported = ok(db_url, "deal", "export", "1.2")
    assert exported == (
        '[Rules "sixty-six"]\n[Dealer "Bert"]\n[Forehand "Anna"]\n'
        '[Trump "QH"]\n[Carry "1"]\n\n1. KS AS\n2. 10C AC\n'
    )
    target = tmp_path / "out.deal"
    assert ok(db_url, "deal", "export", "1.1", "-o", str(target)) == f"Wrote {target}.\n"
    code, out, _ = tally(db_url, "check", str(target))
    assert code == 0 and "drawn" in out


def _editor(tmp_path: Path, script: str) -> str:
    """An $EDITOR: a small Python script that edits the file it is given."""
    path = tmp_path / "editor.py"
    path.write_text(
        f"#!{sys.executable}\nimport sys\np = sys.argv[1]\n"
        f"text = open(p).read()\n{script}\nopen(p, 'w').write(text)\n"
    )
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def test_edit_in_the_editor_is_checked_before_it_is_saved(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup_match(db_url)
    ok(db_url, "deal", "start", "1", "QH")
    ok(db_url, "deal", "play", "1", "KS", "AS", "10C")
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "text = text.replace('10C', 'KS')"))
    err = refused(db_url, "deal", "edit", "1", match="KS was already played in trick 1")
    assert "your edit is kept in" in err
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "text = text.replace('KS AS', 'KD AS')"))
    assert ok(db_url, "deal", "edit", "1", "--yes").endswith("Saved deal 1.1.\n")
    assert ok(db_url, "deal", "export", "1").endswith("1. KD AS\n2. 10C\n")
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "pass"))
    assert ok(db_url, "deal", "edit", "1") == "No change.\n"
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "raise SystemExit(1)"))
    refused(db_url, "deal", "edit", "1", match="failed with status 1")
    assert json.loads(ok(db_url, "audit", "--json"))[-1]["command"] == "deal edit"


def test_a_correction_shows_the_match_moving_from_2_0_to_0_3_and_asks_first(
    db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tally.store import open_store
    from tests.store_support import HANDED_OVER_CHANGED, handed_over_match

    store = open_store(db_url, scorer="tester")
    mid, did = handed_over_match(store)
    store.close()
    corrected = tmp_path / "corrected.deal"
    corrected.write_text(HANDED_OVER_CHANGED, encoding="utf-8")
    before = dump(db_url)
    out = ok(db_url, "deal", "edit", str(did), "--record", str(corrected), "--dry-run")
    assert "Match 1, Anna v Bert: the score goes from 2:0 to 0:3." in out
    assert "Trick 2: the close moves from Bert to Anna." in out
    assert out.endswith("Nothing was stored (--dry-run).\n") and dump(db_url) == before
    out = ok(db_url, "deal", "edit", str(did), "--record", str(corrected), input="n\n")
    assert "the score goes from 2:0 to 0:3" in out and "Store this correction?" in out
    assert out.endswith("Nothing was stored.\n") and dump(db_url) == before
    monkeypatch.setenv("EDITOR", _editor(tmp_path, "text = text.replace('10C 10S', '10C 9C')"))
    out = ok(db_url, "deal", "edit", str(did), input="y\n")
    assert "the score goes from 2:0 to 0:3" in out and "Saved deal 1.1." in out
    assert "Bert 3" in ok(db_url, "match", "show", str(mid))


def test_a_quick_result_is_corrected_from_the_command_line_after_the_question(db_url: str) -> None:
    """Issue 32: a deal entered as a result, not the last, is corrected with ``tally deal
    edit`` (as the refusal to delete it says), shown and asked as the director's page does."""
    setup_match(db_url)
    ok(db_url, "deal", "quick", "1", "--winner", "Anna", "--points", "2")
    ok(db_url, "deal", "quick", "1", "--winner", "Bert", "--points", "1")
    refused(db_url, "deal", "delete", "1.1", match="correct this one with `tally deal edit 1`")
    before = dump(db_url)
    said = (
        "Deal 1: won by Anna with 2 game points (claim), after the correction won by Bert with "
        "3 game points (claim).\nMatch 1, Anna v Bert: the score goes from 2:1 to 0:4.\n"
    )
    out = ok(db_url, "deal", "edit", "1", "--winner", "Bert", "--points", "3", "--dry-run")
    assert out == said + "Nothing was stored (--dry-run).\n" and dump(db_url) == before
    out = ok(db_url, "deal", "edit", "1.1", "--winner", "bert", "--points", "3", input="n\n")
    assert out.startswith(said) and out.endswith("Nothing was stored.\n")
    assert dump(db_url) == before
    out = ok(db_url, "deal", "edit", "1.1", "--winner", "Bert", "--points", "3", input="y\n")
    assert "Store this correction?" in out and "Saved deal 1.1." in out
    assert score(db_url) == (0, 4, 0)
    refused(db_url, "deal", "edit", "1.1", match="was entered as a result: give the corrected")
    ok(db_url, "deal", "start", "1", "QH")
    refused(db_url, "deal", "edit", "1.3", "--draw", match="is recorded trick by trick")
    entry = json.loads(ok(db_url, "audit", "--json"))[-2]
    assert entry["command"] == "deal quick edit"
    ok(db_url, "audit", "undo", str(entry["id"]))
    assert score(db_url)[:2] == (2, 1)


def test_delete_only_the_last_deal_and_bring_it_back(db_url: str) -> None:
    setup_match(db_url)
    ok(db_url, "deal", "quick", "1", "--draw")
    ok(db_url, "deal", "start", "1", "QH")
    refused(db_url, "deal", "delete", "1.1", match="only the last deal can be deleted")
    before = dump(db_url)
    assert ok(db_url, "deal", "delete", "2") == "Deleted deal 1.2 (deal 2).\n"
    entries = json.loads(ok(db_url, "audit", "--json"))
    assert entries[-1]["command"] == "deal delete"
    ok(db_url, "audit", "undo", str(entries[-1]["id"]))
    after = dump(db_url)
    assert {k: v for k, v in after.items() if k != "audit_log"} == {
        k: v for k, v in before.items() if k != "audit_log"
    }
