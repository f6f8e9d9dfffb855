"""``tally print pairings|scoresheet --links URL``: the printed sheets carry each table's QR
code for its page on ``tally serve``, made by the same function as the director's print
(:func:`tally.web.qr.with_table_codes`)."""

from __future__ import annotations

import io
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest

pytest.importorskip("segno")

from tests.pdf_support import pages_text
from tests.store_support import tally

BASE = "http://192.168.1.20:8066"


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[str, Any, int]]:
    """A SQLite database with a four-player round robin whose round 1 has started: its URL,
    the open store and the event's number."""
    from tally.store import open_store

    url = f"sqlite:///{tmp_path / 'club.db'}"
    store = open_store(url, scorer="tester")
    for name in ("Anna", "Bert", "Cleo", "Dora"):
        store.players.add(name)
    ev = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert", "Cleo", "Dora"])
    store.events.start_round(ev.id, 1)
    try:
        yield url, store, ev.id
    finally:
        store.close()


def _drawing_ops(pdf: bytes) -> int:
    """How many path segments (``l``, ``h``, ``re`` operators) the first page draws: a QR
    code is hundreds of them."""
    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    data = page.get_contents()
    assert data is not None
    return len(re.findall(rb"\s(?:l|h|re)\s", data.get_data()))


def _print(url: str, out: Path, *args: str) -> bytes:
    code, _, err = tally(url, "print", *args, "-o", str(out))
    assert code == 0, err
    return out.read_bytes()


def test_pairings_with_links_carry_each_tables_code(
    club: tuple[str, Any, int], tmp_path: Path
) -> None:
    from tally.sheets.build import pairings_sheet
    from tally.web.access import server_keys
    from tally.web.qr import qr_svg, with_table_codes

    url, store, event = club
    plain = _print(url, tmp_path / "plain.pdf", "pairings", str(event), "--round", "1")
    coded = _print(
        url, tmp_path / "coded.pdf", "pairings", str(event), "--round", "1", "--links", BASE + "/"
    )
    assert "Record on a phone" not in pages_text(plain)[0]
    assert "Record on a phone" in pages_text(coded)[0]
    assert _drawing_ops(coded) > _drawing_ops(plain) + 200  # two codes' vector paths
    # what the codes hold: each table's own page, BASE/t/MATCH/SECRET
    keys = server_keys(store)
    sheet = with_table_codes(store, pairings_sheet(store, event, 1), BASE, event)
    matches = {p.table: p.match_ids[0] for p in store.events.rounds(event, 1)[0].pairings}
    assert len(sheet.tables) == 2
    for t in sheet.tables:
        page = f"{BASE}/t/{matches[t.table]}/{keys.table_secret(matches[t.table])}"
        assert t.qr == qr_svg(page)


def test_pairings_printed_again_after_a_withdrawal_carry_new_codes(
    club: tuple[str, Any, int],
) -> None:
    """Issue 32: a round's pairings withdrawn and the round started again (and another
    event's round started) give new matches, whose printed codes are new addresses: none is
    a code printed before (tests/web/test_table_over.py: what an old address says)."""
    from tally.sheets.build import pairings_sheet
    from tally.web.qr import with_table_codes

    _url, store, event = club

    def codes(ev: int) -> set[str]:
        sheet = with_table_codes(store, pairings_sheet(store, ev, 1), BASE, ev)
        return {t.qr for t in sheet.tables if t.qr}

    before = codes(event)
    store.pairings.withdraw(event, 1)
    other = store.events.create("Second", kind="round-robin", players=["Anna", "Bert"])
    store.events.start_round(other.id, 1)
    store.events.start_round(event, 1)
    after = codes(event) | codes(other.id)
    assert len(before) == 2 and len(after) == 3
    assert not before & after


def test_a_score_sheet_with_links_carries_its_tables_code(
    club: tuple[str, Any, int], tmp_path: Path
) -> None:
    from tally.sheets.build import match_scoresheet
    from tally.web.access import server_keys
    from tally.web.qr import qr_svg, with_table_codes
    from tally.web.server import create_app

    url, store, _ = club
    match = store.matches.all()[0].id
    plain = _print(url, tmp_path / "plain.pdf", "scoresheet", str(match))
    coded = _print(url, tmp_path / "coded.pdf", "scoresheet", str(match), "--links", BASE)
    assert "Record on a phone" in pages_text(coded)[0]
    assert "Record on a phone" not in pages_text(plain)[0]
    assert _drawing_ops(coded) > _drawing_ops(plain) + 100
    path = f"/t/{match}/{server_keys(store).table_secret(match)}"
    sheet = with_table_codes(store, match_scoresheet(store, match), BASE)
    assert sheet.qr == qr_svg(BASE + path)
    # and that address is the match's table page on the server
    pytest.importorskip("starlette")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    players = store.matches.state(match).players
    res = TestClient(create_app(store)).get(path)
    assert res.status_code == 200 and all(p in res.text for p in players)


@pytest.mark.parametrize(
    ("links", "said"),
    [
        ("192.168.1.20:8066", "give http:// or https://"),
        ("ftp://club/", "give http:// or https://"),
        ("http://", "give http:// or https://"),
        ("http://club :8066", "has spaces"),
        ("http://anna:secret@club:8066", "user name or password"),
        ("http://club:port", "port is not a number"),
        ("http://club:8066/?x=1", "query or fragment"),
    ],
)
def test_links_must_be_a_server_address(
    club: tuple[str, Any, int], tmp_path: Path, links: str, said: str
) -> None:
    url, store, event = club
    for args in (
        ("pairings", str(event), "--round", "1"),
        ("scoresheet", str(store.matches.all()[0].id)),
    ):
        out = tmp_path / "x.pdf"
        code, _, err = tally(url, "print", *args, "--links", links, "-o", str(out))
        assert code == 2 and err.startswith("tally: ") and said in err, err
        assert err.count("\n") == 1 and not out.exists()
        assert "secret" not in err  # a password is never repeated


def test_links_without_the_web_extra_say_how_to_install_it(
    club: tuple[str, Any, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    url, store, _ = club
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "segno" else real(name, *a)
    )
    code, _, err = tally(
        url,
        "print",
        "scoresheet",
        str(store.matches.all()[0].id),
        "--links",
        BASE,
        "-o",
        str(tmp_path / "x.pdf"),
    )
    assert code == 2 and err.startswith("tally: QR codes need segno: ")
    assert "-m pip install -e " in err  # this checkout's own command


def test_a_blank_form_has_no_table_to_link(club: tuple[str, Any, int]) -> None:
    url, _, _ = club
    code, _, err = tally(url, "print", "scoresheet", "--blank", "--links", BASE)
    assert code == 2 and "--links is for a match's sheet" in err
