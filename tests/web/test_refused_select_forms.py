"""A refused choice of the director's comes back on the event's page, not on an error page:
the players chosen still selected, the list at fault marked (``aria-invalid``) and the refusal
beside it (and at the top of the page, with a way to the page without it), in the page's
language: withdrawing a player, a swap, a pair kept apart, an
absence, a buy-back, best of N, a club evening's match (through Starlette's test client)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_absent import FOUR, swiss
from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_prizes import knockout
from tests.web.test_routes import Web


def _at(res: Any, form: str, field: str) -> str:
    """The refusal beside ``field`` of the form ``form`` on the event page that came back;
    the field is marked as the one at fault, and nothing else is."""
    assert res.status_code == 400, res.text[:2000]
    assert 'class="deskhead"' in res.text and "Not possible" not in res.text
    part = res.text.split(f'id="{form}"', 1)[1].split("</form>", 1)[0]
    assert re.search(
        rf'name="{field}"[^>]*aria-invalid="true" aria-describedby="{field}-error"', part
    ), part
    found = re.search(
        rf'<span class="field-error" id="{field}-error" role="alert">(.*?)</span>', part, re.S
    )
    assert found is not None, part
    assert res.text.count('aria-invalid="true"') == 1  # no other field is blamed
    said = html.unescape(found.group(1))
    top = res.text.split('id="refused" role="alert">', 1)[1].split("</p>", 1)[0]  # and at the top
    assert f'<a href="#{form}">' in top and said in html.unescape(top)
    assert res.text.count('role="alert"') == 2
    return said


def _selected(res: Any, form: str, field: str) -> str:
    """The option selected in the list ``field`` of the form ``form`` ("" when none)."""
    part = res.text.split(f'id="{form}"', 1)[1].split("</form>", 1)[0]
    select = part.split(f'name="{field}"', 1)[1].split("</select>", 1)[0]
    found = re.findall(r'<option value="([^"]*)" selected>', select)
    assert len(found) <= 1
    return html.unescape(found[0]) if found else ""


def _started_swiss(web: Web) -> int:
    eid = swiss(web)
    web.store.events.start_round(eid, 1)
    return eid


def test_a_refused_withdrawal_names_the_player_list(desk: Web) -> None:  # noqa: F811
    eid = swiss(desk)
    res = desk.client.get(f"/director/event/{eid}/withdraw?player=")
    assert _at(res, "withdraw", "player") == "choose a player"
    desk.store.events.withdraw(eid, "Bert Huber")
    # the page still showed Bert: the withdrawal asked, then sent, is refused at the list
    res = desk.client.get(f"/director/event/{eid}/withdraw?player=Bert+Huber")
    assert "Bert Huber" in _at(res, "withdraw", "player")
    res = desk.post(f"/director/event/{eid}/withdraw", player="Bert Huber")
    assert "Bert Huber" in _at(res, "withdraw", "player")


def test_a_refused_swap_keeps_both_players_chosen(desk: Web) -> None:  # noqa: F811
    eid = _started_swiss(desk)
    res = desk.client.get(f"/director/event/{eid}/swap?round=1&a=Anna+Berger&b=Anna+Berger")
    assert "named twice" in _at(res, "swap", "b")
    assert _selected(res, "swap", "a") == _selected(res, "swap", "b") == "Anna Berger"
    res = desk.post(
        f"/director/event/{eid}/swap", round="1", a="Carla Moser", b="Carla Moser", force="yes"
    )
    assert "named twice" in _at(res, "swap", "b")
    assert _selected(res, "swap", "a") == "Carla Moser"


def test_a_refused_pair_kept_apart_keeps_both_players_chosen(desk: Web) -> None:  # noqa: F811
    eid = swiss(desk)
    res = desk.post(f"/director/event/{eid}/apart", a="Carla Moser", b="Carla Moser")
    assert "named twice" in _at(res, "keep-apart", "b")
    assert _selected(res, "keep-apart", "a") == _selected(res, "keep-apart", "b") == "Carla Moser"
    res = desk.post(f"/director/event/{eid}/apart", a="Dora Wimmer", b="")
    assert _at(res, "keep-apart", "b") == "choose a player"
    assert _selected(res, "keep-apart", "a") == "Dora Wimmer"
    assert desk.store.pairings.apart(eid) == []


def test_a_refused_absence_keeps_the_player_and_names_the_round(desk: Web) -> None:  # noqa: F811
    eid = _started_swiss(desk)
    res = desk.post(f"/director/event/{eid}/absent", player="Dora Wimmer", round="1")
    assert "is paired already" in _at(res, "absent", "round")
    assert _selected(res, "absent", "player") == "Dora Wimmer"
    assert 'name="round" size="3" inputmode="numeric" required value="1"' in res.text
    res = desk.post(f"/director/event/{eid}/absent", player="Dora Wimmer", round="zwei")
    assert _at(res, "absent", "round") == "give the round's number"
    assert 'value="zwei"' in res.text


def test_the_field_at_fault_is_found_from_the_refusals_values_not_its_text(
    desk: Web,  # noqa: F811
) -> None:
    """An event named after a player: its refusal's English text holds the player's name
    (in the event's name) and the round, but only the round is a value of the refusal; the
    round is blamed, not the form as a whole (as reading the text back found two fields)."""
    eid = desk.store.events.create("Dora Wimmer Cup", kind="swiss", players=FOUR, rounds=3).id
    desk.store.events.start_round(eid, 1)
    res = desk.post(f"/director/event/{eid}/absent", player="Dora Wimmer", round="1")
    said = _at(res, "absent", "round")
    assert "Dora Wimmer" in said and "is paired already" in said
    assert _selected(res, "absent", "player") == "Dora Wimmer"


def test_an_absence_taken_back_and_refused_is_said_above_the_list(desk: Web) -> None:  # noqa: F811
    eid = swiss(desk)
    res = desk.post(f"/director/event/{eid}/absent", player="Anna Berger", round="2", cancel="yes")
    assert res.status_code == 400 and 'aria-invalid="true"' not in res.text
    above = res.text.split('id="absences"', 1)[0].rsplit("<h2>", 1)[1]
    assert "announced no absence" in html.unescape(above) and 'role="alert"' in above


def test_a_refused_buy_back_keeps_the_player_chosen(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    desk.store.prizes.set_money(eid, entry_fee=1000, buy_back_until=2, buy_back_fee=500)
    rnd = desk.store.events.start_round(eid, 1)
    for p in rnd.pairings:
        desk.store.deals.quick_result(
            p.matches[0].match_id, winner=p.first, points=3, reason="claim"
        )
    desk.store.events.start_round(eid, 2)
    loser = rnd.pairings[-1].second
    res = desk.post(f"/director/event/{eid}/buy-back", player=loser)
    assert loser in _at(res, "buy-back", "player")
    assert _selected(res, "buy-back", "player") == loser


def test_a_refused_best_of_is_said_beside_its_list(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    res = desk.post(f"/director/event/{eid}/best-of", best_of="4")
    assert "odd number" in _at(res, "best-of", "best_of")
    res = desk.post(f"/director/event/{eid}/best-of", best_of="")
    assert "best of" in _at(res, "best-of", "best_of")
    assert desk.store.knockouts.view(desk.store.events.get(eid)).best_of == 1


def test_a_refused_club_match_keeps_its_players_chosen(desk: Web) -> None:  # noqa: F811
    eid = desk.store.events.create("Club night", kind="club", players=CLUB[:4]).id
    res = desk.post(f"/director/event/{eid}/match", a="Anna Berger", b="Anna Berger")
    assert _at(res, "start-match", "b") == "choose two different players"
    assert _selected(res, "start-match", "a") == "Anna Berger"
    res = desk.post(
        f"/director/event/{eid}/match", a="Anna Huber", b="Bert Huber", dealer="Dora Wimmer"
    )
    assert "Dora Wimmer is not one" in _at(res, "start-match", "dealer")
    assert _selected(res, "start-match", "a") == "Anna Huber"
    assert _selected(res, "start-match", "b") == "Bert Huber"
    assert desk.store.matches.all(eid) == []


def test_a_refused_choice_is_said_in_the_pages_language(desk: Web) -> None:  # noqa: F811
    eid = swiss(desk)
    desk.client.cookies.set("tally_lang", "de")
    res = desk.post(f"/director/event/{eid}/apart", a="Carla Moser", b="")
    said = _at(res, "keep-apart", "b")
    assert said != "choose a player" and "Spieler" in said
    assert _selected(res, "keep-apart", "a") == "Carla Moser"


def test_a_refused_form_no_longer_on_the_page_is_said_at_its_top(desk: Web) -> None:  # noqa: F811
    eid = knockout(desk)
    desk.store.events.start_round(eid, 1)
    # the page shows no buy-back (no rule set), a stale form is still answered on the page
    res = desk.post(f"/director/event/{eid}/buy-back", player="Anna Berger")
    assert res.status_code == 400 and 'id="buy-back"' not in res.text
    top = res.text.split('id="refused" role="alert">', 1)[1].split("</p>", 1)[0]
    assert "cannot buy back" in top and f'href="/director/event/{eid}"' in top


def test_a_refused_quick_result_keeps_what_was_chosen_on_the_match_page(desk: Web) -> None:  # noqa: F811
    match = desk.store.matches.start("Anna Berger", "Bert Huber", first_dealer="Anna Berger")
    deal = desk.store.deals.quick_result(match.id, winner="Bert Huber", points=2, reason="claim")
    did = deal.id
    form = f"quick-{did}"
    res = desk.post(f"/director/deal/{did}/quick", winner="Anna Berger", points="0", reason="claim")
    assert "not 0" in _at(res, form, "points")
    assert "Score 0:2" in res.text  # the match's page, as it is
    assert _selected(res, form, "winner") == "Anna Berger"
    assert (_selected(res, form, "points"), _selected(res, form, "reason")) == ("0", "claim")
    res = desk.post(f"/director/deal/{did}/quick", winner="", points="1", reason="failed-close")
    assert "needs a winner" in _at(res, form, "winner")
    assert _selected(res, form, "reason") == "failed-close"
    res = desk.post(f"/director/deal/{did}/quick", winner="Anna Berger", points="x")
    assert _at(res, form, "points") == "game points: choose 0, 1, 2 or 3"
    assert desk.store.deals.view(did).winner == "Bert Huber"
