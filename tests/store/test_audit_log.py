"""The audit log read a page at a time, newest first, for one event or one match, each entry
with its change in words (a template and its values, worded in any language), and the
entries written before words were kept placed in their event and match by the upgrade."""

from __future__ import annotations

from typing import Any

from sqlalchemy import text

from tally.vocabulary import change_words


def _cup(store: Any) -> tuple[int, int, int]:
    """A round robin of four with round 1 started, a card played at one table, a friendly
    match: the event, its match with the card, the friendly."""
    for name in ("Anna", "Bert", "Carl", "Dora"):
        store.players.add(name)
    ev = store.events.create("Cup", kind="round-robin", players=["Anna", "Bert", "Carl", "Dora"])
    rnd = store.events.start_round(ev.id, 1)
    mid = rnd.pairings[0].matches[0].match_id
    deal = store.deals.start(mid, "QH")
    store.deals.play(deal.id, "KS")
    friendly = store.matches.start("Anna", "Bert", first_dealer="Anna").id
    return ev.id, mid, friendly


def test_the_log_pages_back_to_its_first_entry_newest_first(store: Any) -> None:
    _cup(store)
    for n in range(60):
        store.players.add(f"Guest {n}")
    total = len(store.audit.log())
    seen, before = [], None
    while True:
        page = store.audit.page(size=25, before=before)
        seen += [e.id for e in page.entries]
        if page.older is None:
            break
        before = page.older
    assert seen == list(range(total, 0, -1))
    assert store.audit.page(size=25).newer is None  # the newest page has none above it
    assert store.audit.page(size=25, before=total - 24).newer == 0  # the newest is above
    assert store.audit.page(size=25, before=total - 49).newer == total + 1 - 25


def test_an_event_and_a_match_have_their_own_changes_in_words(store: Any) -> None:
    eid, mid, friendly = _cup(store)
    player = store.matches.state(mid).deals[0].forehand
    of_match = store.audit.log(match=mid)
    assert [e.command for e in of_match] == ["deal start", "deal play"]
    played = of_match[-1]
    assert (played.event_id, played.match_id, played.event_name) == (eid, mid, "Cup")
    assert change_words(played.wording, "en") == f"{player} played K♠ in deal 1, trick 1"
    assert change_words(played.wording, "de") == f"{player} spielte K♠ in Spiel 1, Stich 1"
    assert [e.command for e in store.audit.log(event=eid)] == [
        "event create",
        "event round",
        "deal start",
        "deal play",
    ]
    assert [e.command for e in store.audit.log(match=friendly)] == ["match start"]
    assert store.audit.log(match=friendly)[0].event_id is None
    undone = store.audit.reverse(played.id)
    assert change_words(undone.wording, "de") == (
        f"Eintrag {played.id} zurückgenommen: {player} spielte K♠ in Spiel 1, Stich 1"
    )
    assert undone.match_id == mid


def test_entries_from_before_are_placed_in_their_event_and_match_by_the_upgrade(
    db_url: str,
) -> None:
    from tally.store import open_store
    from tally.store.engine import alembic_config, make_engine, upgrade

    with open_store(db_url) as store:
        _, mid, _ = _cup(store)
        expected = [(e.id, e.event_id, e.match_id) for e in store.audit.log()]
        summaries = [e.summary for e in store.audit.log()]
    engine = make_engine(db_url)
    try:
        from alembic import command

        with engine.connect() as conn:
            command.downgrade(alembic_config(connection=conn), "0022")
        upgrade(engine, "head")
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT id, event_id, match_id, words FROM audit_log"))
            placed = sorted(rows.all())
    finally:
        engine.dispose()
    assert [r[:3] for r in placed] == expected
    assert all(r[3] is None for r in placed)
    with open_store(db_url) as store:
        # written before words were kept: the summary as it was written
        assert [str(e.wording) for e in store.audit.log()] == summaries
        assert [e.command for e in store.audit.log(match=mid)] == ["deal start", "deal play"]


def test_each_action_of_a_deal_is_said_as_the_table_says_it(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    mid = store.matches.start("Anna", "Bert", first_dealer="Anna").id
    deal = store.deals.start(mid, "QH")
    for token in ["KS", "AS", "swap", "40 KH", "9C", "close", "AC", "10C", "66"]:
        store.deals.play(deal.id, token)
    said = [change_words(e.wording, "en") for e in store.audit.log(match=mid)]
    assert said[2:] == [
        "Bert played K♠ in deal 1, trick 1",
        "Anna played A♠ in deal 1, trick 1",
        "Anna exchanged the trump card in deal 1, trick 2",
        "Anna declared 40 with K♥ in deal 1, trick 2",
        "Bert played 9♣ in deal 1, trick 2",
        "Anna closed in deal 1, trick 3",
        "Anna played A♣ in deal 1, trick 3",
        "Bert played 10♣ in deal 1, trick 3",
        "Anna claimed 66 in deal 1, trick 3",  # on the line of the trick it follows
    ]
    german = [change_words(e.wording, "de") for e in store.audit.log(match=mid)]
    assert german[5:7] == [
        "Anna meldete 40 mit K♥ in Spiel 1, Stich 2",
        "Bert spielte 9♣ in Spiel 1, Stich 2",
    ]


def test_a_card_is_named_by_its_deal_of_the_match_not_the_deals_number_in_the_database(
    store: Any,
) -> None:
    """Issue 32's words: "Anna played K♠ in deal 3, trick 2", where the deal is the match's
    third (stored as deal 7, after another match's four)."""
    for name in ("Anna", "Bert", "Carla", "Dora"):
        store.players.add(name)
    other = store.matches.start("Carla", "Dora", first_dealer="Carla").id
    for _ in range(4):
        store.deals.quick_result(other, winner="Carla", points=1, reason="claim")
    mid = store.matches.start("Bert", "Anna", first_dealer="Bert").id
    for winner in ("Anna", "Bert"):
        store.deals.quick_result(mid, winner=winner, points=1, reason="claim")
    deal = store.deals.start(mid, "QH")  # Bert deals, Anna leads
    assert deal.id == 7 and deal.number == 3
    for token in ("AS", "10S", "KS"):
        store.deals.play(deal.id, token)
    said = [change_words(e.wording, "en") for e in store.audit.log(match=mid)]
    assert said[-1] == "Anna played K♠ in deal 3, trick 2"
    assert "deal 7" not in " ".join(said)
