"""The director sets a Preisschnapsen's prize table and buy-back rule on the event's page and
a player out buys back a life there; the wall shows each player's prize and the pool
(through Starlette's test client)."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_director import CLUB, desk  # noqa: F401
from tests.web.test_routes import Web


def knockout(web: Web) -> int:

    ev = web.store.events.create(
        "Preisschnapsen",
        kind="knockout",
        players=CLUB,
        rules="sixty-six match_target=3",
        lives=1,
        draw_seed="2026",
    )
    return int(ev.id)


def test_the_director_sets_the_prize_table_and_a_player_buys_back(desk: Web) -> None:  # noqa: F811

    eid = knockout(desk)
    res = desk.post(
        f"/director/event/{eid}/prizes",
        entry_fee="10",
        prizes="50,30,20",
        round_to="1",
        buy_back_until="2",
        buy_back_fee="5",
    )
    assert res.status_code == 303, res.text[:2000]
    page = desk.client.get(res.headers["location"]).text
    assert "Prize pool: 60 (6 entries at 10, 0 buy-backs)." in page
    assert "1. 30 (50 %)" in page and "until round 2" in page
    assert "only straight after elimination" not in page.split('id="prizes"')[0]
    res = desk.post(f"/director/event/{eid}/prizes", buy_back_at_once="yes")
    page = desk.client.get(res.headers["location"]).text
    assert "A buy-back only straight after elimination, before the next round." in page
    desk.post(f"/director/event/{eid}/prizes", buy_back_at_once="no")
    bad = desk.post(f"/director/event/{eid}/prizes", prizes="60,50")
    assert bad.status_code == 400 and "add up to 110 %" in bad.text
    rnd = desk.store.events.start_round(eid, 1)
    for p in rnd.pairings:
        desk.store.deals.quick_result(
            p.matches[0].match_id, winner=p.first, points=3, reason="claim"
        )
    loser = rnd.pairings[0].second
    page = desk.client.get(f"/director/event/{eid}").text
    assert 'id="buy-back"' in page and f'<option value="{loser}">' in page
    res = desk.post(f"/director/event/{eid}/buy-back", player=loser)
    assert res.status_code == 303
    assert f"{loser} bought back a life for 5" in desk.client.get(res.headers["location"]).text
    line = next(
        x for x in desk.store.knockouts.view(desk.store.events.get(eid)).lines if x.player == loser
    )
    assert (line.lives, line.out_in) == (1, None)
    wall = desk.client.get(f"/standings/{eid}/live").json()["html"]
    assert '<th class="num">Bought back</th>' in wall
    assert wall.count('<td class="num bought">1</td>') == 1
    row = next(r for r in wall.split("<tr") if f">{loser}<" in r)
    assert '<td class="num bought">1</td>' in row


def test_the_wall_shows_the_prizes(desk: Web) -> None:  # noqa: F811

    eid = knockout(desk)
    html = desk.client.get(f"/standings/{eid}").text
    assert "Prize pool" not in html
    desk.store.prizes.set_money(eid, entry_fee=1000, shares="50,30,20", unit=100)
    html = desk.client.get(f"/standings/{eid}").text
    assert '<th class="num">Prize</th>' in html
    assert "Prize pool 60: 1. 30, 2. 18, 3. 12" in html
    # before the first round all six share 1st and the three prizes: 10 each
    assert html.count('<td class="num prize">10</td>') == 6
    assert "Paid to the players: 60; left for the club: 0." in html


def test_the_wall_adds_the_money_up_to_the_cent_and_writes_it_in_german(desk: Web) -> None:  # noqa: F811

    eid = knockout(desk)
    desk.store.prizes.set_money(eid, entry_fee=1050, shares="50,30,15", unit=50)
    html = desk.client.get(f"/standings/{eid}/live?lang=de").json()["html"]
    # 63 € in the pool; six sharing 1st hold 59,50 €: 9,50 € each, 57 € paid, 6 € left
    assert "63\u00a0€" in html and "Ausbezahlt: 57\u00a0€; für den Verein: 6\u00a0€." in html
    assert html.count('<td class="num prize">9,50\u00a0€</td>') == 6


def test_the_director_has_the_bracket_played_best_of_three(desk: Web) -> None:  # noqa: F811

    eid = knockout(desk)
    res = desk.post(f"/director/event/{eid}/best-of", best_of="3")
    assert res.status_code == 303, res.text[:2000]
    assert "played best of 3 matches" in desk.client.get(res.headers["location"]).text
    assert desk.store.knockouts.view(desk.store.events.get(eid)).best_of == 3
    bad = desk.post(f"/director/event/{eid}/best-of", best_of="2")
    assert bad.status_code == 400 and "an odd number" in bad.text


def test_the_director_gives_a_category_prizes_and_the_wall_shows_whose_they_are(
    desk: Web,  # noqa: F811
) -> None:
    eid = knockout(desk)
    rnd = desk.store.events.start_round(eid, 1)
    for p in rnd.pairings:
        desk.store.deals.quick_result(
            p.matches[0].match_id, winner=p.first, points=3, reason="claim"
        )
    losers = sorted(p.second for p in rnd.pairings)
    for name in losers[:2]:
        desk.store.players.set_categories(name, ["Damen"])
    res = desk.post(
        f"/director/event/{eid}/prizes", entry_fee="10", prizes="50", category_prizes="Damen=10,5"
    )
    assert res.status_code == 303, res.text[:2000]
    page = desk.client.get(res.headers["location"]).text
    # 60 in the pool: the three winners share 30 (10 each), the two women out share 6 + 3
    assert "Prizes of the category Damen: 1. 6 (10 %), 2. 3 (5 %)." in page
    assert "Won by the category's players: 9." in page
    bad = desk.post(f"/director/event/{eid}/prizes", category_prizes="Damen 10")
    assert bad.status_code == 400 and "is not a category&#39;s prize table" in bad.text
    wall = desk.client.get(f"/standings/{eid}/live").json()["html"]
    assert wall.count('4.50 <span class="prize-category">Damen</span>') == 2
    assert "Damen: 1. 6, 2. 3. One prize a player, the higher." in wall
    german = desk.client.get(f"/standings/{eid}/live?lang=de").json()["html"]
    assert "Ein Preis je Spieler, der höhere." in german
