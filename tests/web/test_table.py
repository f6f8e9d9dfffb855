"""The table page as a phone shows it, opened afresh at any moment: the card led, the tricks of
the deal, the card face up after an exchange, the stock (open, closed by whom, exhausted), the
score and the carry; what it says after each tap, in English and German; the quick result's
reasons fitting its winner."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_routes import Web, _client

#: a deal with an exchange, a marriage and a close (sixty-six, hearts trumps): Bert leads
#: first, Anna takes the first trick and exchanges the nine, Bert declares 20 in clubs,
#: closes and leads the ten of clubs
MARRIAGE_DEAL = ("KS", "AS", "swap", "JH", "AH", "20 QC", "JC", "close", "10C")
#: six tricks of phase 1 without a close: the stock is exhausted after them
SIX_TRICKS = ("KS", "AS", "9S", "JS", "10S", "QS", "9C", "JC", "QC", "KC", "10C", "AC")


@pytest.fixture
def web(db_url: str) -> Iterator[Web]:
    from tally.store import open_store
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    for name in ("Anna", "Bert"):
        store.players.add(name)
    match = store.matches.start("Anna", "Bert", first_dealer="Anna")
    app = create_app(store)
    try:
        yield Web(_client(app), app, store, 0, match.id)
    finally:
        store.close()


def _start(web: Web, turn_up: str = "QH") -> str:
    fields = web.form(web.table())
    res = web.post(web.table() + "/start", turn_up=turn_up, at=fields["at"], last=fields["last"])
    assert res.status_code == 303, res.text
    return _notice(web, res)


def _notice(web: Web, res: object) -> str:
    """The notice of the page a change led to."""
    html = web.client.get(res.headers["location"]).text  # type: ignore[attr-defined]
    found = re.search(r'<p class="banner notice" role="status">([^<]*)</p>', html)
    return found.group(1).replace("&#39;", "'") if found else ""


def _said(web: Web, *tokens: str) -> list[str]:
    """Tap ``tokens`` one by one; what the page said after each."""
    said = []
    for token in tokens:
        res = web.tap(token)
        assert res.status_code == 303, (token, res.text)
        said.append(_notice(web, res))
    return said


def _by_id(html: str, name: str) -> str:
    """The text of the element with id ``name`` (its tags taken out)."""
    found = re.search(rf'<(\w+)[^>]*id="{name}"[^>]*>(.*?)</\1>', html, re.S)
    assert found is not None, f"no #{name} on the page"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(2))).strip()


def test_each_tap_is_said_as_people_say_it(web: Web) -> None:
    assert _start(web) == "Deal 1 started: Anna deals, turn-up Q♥."
    assert _said(web, *MARRIAGE_DEAL) == [
        "Bert played K♠.",
        "Anna played A♠. Anna won the trick.",
        "Anna exchanged 9♥ for Q♥.",
        "Anna played J♥.",
        "Bert played A♥. Bert won the trick.",
        "Bert declared 20 in clubs and led Q♣.",
        "Anna played J♣. Bert won the trick.",
        "Bert closed after drawing.",
        "Bert played 10♣.",
    ]
    said = _said(web, "9C", "66")
    assert said[0] == "Anna played 9♣. Bert won the trick."
    assert said[1].startswith("Bert claimed 66. Deal 1 is over: ")


def test_a_claim_says_what_it_is_worth_and_why(web: Web) -> None:
    _start(web)
    _said(web, "AS", "9S", "10S", "JS", "AH", "KS", "10H", "9C", "AC", "JC", "9D", "AD")
    said = _said(web, "JD", "10D", "66")[-1]
    assert said.endswith(
        "Deal 1 is over: Bert claimed 66 correctly with 73 counted points. "
        "Bert scores 2 game points (Anna had under 33: schneider)."
    ), said


def test_a_close_before_drawing_names_the_trick_winner(web: Web) -> None:
    _start(web)
    assert _said(web, "KS", "AS", "close-before-draw") == [
        "Bert played K♠.",
        "Anna played A♠. Anna won the trick.",
        "Anna closed before drawing.",
    ]


def test_a_fresh_page_shows_the_card_led_the_tricks_and_the_exchanged_card(web: Web) -> None:
    _start(web)
    _said(web, *MARRIAGE_DEAL[:4])  # Anna exchanged and led the jack of hearts
    html = web.page(web.table())
    assert _by_id(html, "led") == "Anna led J♥"
    assert _by_id(html, "faceup") == "Face up: 9♥ (exchanged for Q♥)"
    assert _by_id(html, "stock") == "Stock open (face down: 9)"
    tricks = _by_id(html, "tricks")
    assert tricks.startswith("Tricks of deal 1, the latest first")
    # the latest trick first, each with who led, the cards, who won and what was declared
    assert tricks.index("Anna J♥") < tricks.index("Bert K♠ · A♠ → Anna")
    assert "Anna exchanged 9♥ for Q♥" in tricks


def test_a_fresh_page_says_who_closed_and_what_follows(web: Web) -> None:
    _start(web)
    _said(web, *MARRIAGE_DEAL)
    html = web.page(web.table())
    assert _by_id(html, "stock") == "Bert closed the stock: follow suit, head the trick"
    assert 'id="faceup"' not in html  # the card face up lies under the closed stock
    assert _by_id(html, "led") == "Bert led 10♣"
    tricks = _by_id(html, "tricks")
    assert "Bert Q♣ · J♣ → Bert Bert declared 20 in clubs" in tricks
    assert "Bert 10♣ Bert closed" in tricks


def test_a_fresh_page_says_when_the_stock_is_exhausted(web: Web) -> None:
    _start(web)
    _said(web, *SIX_TRICKS[:-2])
    html = web.page(web.table())
    assert _by_id(html, "stock") == "Stock open (face down: 1)"
    assert 'id="led"' not in html  # between tricks nothing is led
    _said(web, *SIX_TRICKS[-2:])
    html = web.page(web.table())
    # right after the sixth trick its winner may still close before the last draw
    assert _by_id(html, "stock") == (
        "The last draw exhausts the stock: follow suit, head the trick"
    )
    assert 'value="close-before-draw"' in html and 'value="close"' not in html
    _said(web, "KH")  # the next lead: both have drawn
    html = web.page(web.table())
    assert _by_id(html, "stock") == "Stock exhausted: follow suit, head the trick"
    assert 'id="faceup"' not in html  # the loser of the last draw took it


def test_the_score_and_the_carry_show_on_a_fresh_page(web: Web) -> None:
    web.store.deals.quick_result(web.match, winner=None, points=0, reason="draw")
    html = web.page(web.table())
    assert 'id="score">0&thinsp;:&thinsp;0</span>' in html
    assert _by_id(html, "carry") == "1 game point carried into this deal"
    web.store.deals.quick_result(web.match, winner="Bert", points=2, reason="claim")
    html = web.page(web.table())
    assert 'id="carry"' not in html
    assert 'id="score">0&thinsp;:&thinsp;3</span>' in html
    assert '<li value="2">Bert +3 <span class="why">(claim, result only)</span></li>' in html


def test_reasons_read_as_words_on_the_table_page(web: Web) -> None:
    web.store.deals.quick_result(web.match, winner="Bert", points=2, reason="false-claim")
    web.store.deals.quick_result(web.match, winner="Anna", points=2, reason="failed-close")
    html = web.page(web.table())
    assert "(false claim, result only)" in html and "(failed close, result only)" in html
    assert "false-claim" not in html.replace('value="false-claim"', "")
    assert "failed-close" not in html.replace('value="failed-close"', "")


def _offered(html: str) -> list[tuple[str, str]]:
    return re.findall(
        r'<label data-side="(\w+)" data-did="[^"]*" data-points="[\d ]*">'
        r'<input type="radio" name="reason" value="([\w-]+)"',
        html,
    )


def test_the_quick_result_offers_the_reasons_of_the_rule_set_by_whose_doing(web: Web) -> None:
    html = web.page(web.table())
    assert _offered(html) == [
        ("winner", "claim"),
        ("loser", "false-claim"),
        ("loser", "failed-close"),
        ("loser", "illegal-play"),
        ("nobody", "draw"),
    ]
    assert '<input type="radio" name="winner" value="">' in html
    assert '<script src="/static/quick.js" defer></script>' in html
    assert web.client.get("/static/quick.js").status_code == 200


def test_every_reason_of_a_quick_result_has_its_side() -> None:
    from tally.engine.ruling import REASONS
    from tally.web.table import QUICK_CHOICES

    assert sorted(c[1] for c in QUICK_CHOICES) == sorted(r for r in REASONS if r != "incomplete")


def test_where_the_last_trick_decides_no_draw_is_offered(web: Web) -> None:
    match = web.store.matches.start("Anna", "Bert", first_dealer="Bert", rules="schnapsen")
    html = web.page(web.table(match.id))
    assert ("winner", "last-trick") in _offered(html)
    assert ("nobody", "draw") not in _offered(html)
    assert '<input type="radio" name="winner" value="">' not in html


def test_a_draw_with_a_winner_or_a_win_without_one_is_refused(web: Web) -> None:
    web.page(web.table())
    for winner, reason in (("Anna", "draw"), ("", "claim")):
        res = web.post(
            web.table() + "/quick",
            winner=winner,
            points="1",
            reason=reason,
            at=f"{web.match}.0:0",
            last="",
            agree="yes",
        )
        assert res.status_code == 400 and "a drawn deal has no winner" in res.text
    assert web.store.matches.state(web.match).deals == ()
    res = web.post(
        web.table() + "/quick", winner="", points="1", reason="draw", at=f"{web.match}.0:0", last=""
    )
    assert 'name="points" value="0"' in res.text  # a draw's points are none, whatever was checked
    res = web.agree(res)
    assert res.status_code == 303
    assert web.store.matches.state(web.match).carry == 1


def test_the_table_in_german(web: Web) -> None:
    html = web.page(web.table() + "?lang=de")
    assert (
        '<label data-side="loser" data-did="sagte 66 falsch an" data-points="2 3">'
        '<input type="radio" name="reason" value="false-claim"> '
        "<span>Der Verlierer sagte 66 falsch an</span>"
    ) in html
    assert _start(web) == "Spiel 1 begonnen: Anna gibt, Atoutkarte D♥."
    assert _said(web, *MARRIAGE_DEAL) == [
        "Bert spielte K♠.",
        "Anna spielte A♠. Anna machte den Stich.",
        "Anna tauschte 9♥ gegen D♥.",
        "Anna spielte B♥.",
        "Bert spielte A♥. Bert machte den Stich.",
        "Bert meldete 20 in Kreuz und spielte D♣ aus.",
        "Anna spielte B♣. Bert machte den Stich.",
        "Bert drehte nach dem Ziehen zu.",
        "Bert spielte 10♣.",
    ]
    html = web.page(web.table())
    assert _by_id(html, "stock") == "Bert hat zugedreht: Farbzwang und Stichzwang"
    assert _by_id(html, "led") == "Bert spielte 10♣ aus"
    assert "Bert meldete 20 in Kreuz" in _by_id(html, "tricks")
    # German letters on the buttons, the same tokens posted
    assert 'name="token" value="QC">D♣</button>' in html
    assert 'name="token" value="JS">B♠</button>' in html


def test_a_violation_reads_as_a_rule_broken_in_german(web: Web) -> None:
    web.page(web.table() + "?lang=de")
    _start(web)
    _said(web, *MARRIAGE_DEAL)
    res = web.tap("JC")  # Anna played JC in trick 3: a card played twice is refused
    assert res.status_code == 400
    res = web.tap("9D")  # Anna holds the queen of hearts (the exchange): she must trump
    assert res.status_code == 200
    assert (
        "Anna verletzte eine Regel (<strong>Atoutzwang</strong>): Anna gab 9♦ zu 10♣ zu, "
        "ohne Farbe zu bekennen oder mit Atout zu stechen, mit D♥ in der Hand"
    ) in res.text


def test_a_refused_tap_names_the_card_as_the_page_shows_it(web: Web) -> None:
    _start(web)
    res = web.tap("QH")  # the turn-up, face up on the table, cannot be played
    assert res.status_code == 400
    text = res.text.split('role="alert"')[1].split("</p>")[0]
    assert "Q♥" in text and "QH" not in text, text


def test_a_tap_refused_from_a_plain_form_comes_back_to_the_tables_address(web: Web) -> None:
    _start(web)
    fields = web.form(web.table())
    res = web.client.post(
        web.table() + "/play",
        data={"token": "QH", "csrf": web.csrf(), **fields},
        headers={"sec-fetch-mode": "navigate"},  # a browser without the page's script
        follow_redirects=False,
    )
    assert res.status_code == 303 and res.headers["location"].endswith(web.table())
    html = web.client.get(res.headers["location"]).text
    assert "nothing was recorded: Q♥ is the turn-up" in html  # said once, on the table page
    assert "nothing was recorded" not in web.client.get(web.table()).text  # a reload: gone
    assert web.store.matches.state(web.match).deals[-1].actions == 0


def test_a_claim_sure_to_be_false_is_asked_first(web: Web) -> None:
    _start(web)
    res = web.tap("66")  # Bert leads trick 1 with no trick won: 0 counted points
    assert res.status_code == 200 and "Claim 66 now?" in res.text
    assert "Bert has won no trick yet" in res.text and "Anna wins the deal" in res.text
    assert web.store.matches.state(web.match).deals[-1].actions == 0  # nothing recorded
    fields = web.form(web.table())
    res = web.post(web.table() + "/play", token="66", confirm="yes", **fields)
    assert res.status_code == 303
    assert web.store.matches.state(web.match).deals[-1].reason == "false-claim"


def test_a_claim_after_a_trick_won_is_recorded_at_once(web: Web) -> None:
    _start(web)
    _said(web, "AS", "9S")
    assert web.tap("66").status_code == 303


def test_the_claim_button_names_who_claims(web: Web) -> None:
    _start(web)
    _said(web, *MARRIAGE_DEAL[:6])  # Bert declared 20 and led; Anna is to follow
    html = web.page(web.table())
    assert 'id="turn">Trick 3: <strong>Anna</strong> to follow' in html
    assert 'name="token" value="66">Bert claims 66</button>' in html


def test_the_opponent_is_asked_who_did_what(web: Web) -> None:
    web.page(web.table())
    res = web.post(
        web.table() + "/quick",
        winner="Anna",
        points="2",
        reason="false-claim",
        at=f"{web.match}.0:0",
        last="",
    )
    assert res.status_code == 200
    assert (
        '<p class="claim" id="claim">Anna wins deal 1: 2 game points (Bert claimed 66 falsely)</p>'
    ) in res.text
    res = web.agree(res)
    assert _notice(web, res) == "Anna wins deal 1: 2 game points (Bert claimed 66 falsely)."
