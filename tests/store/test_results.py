"""The result cache (``deal_results``): rewritten with every change to a match's deals, equal
to a fresh derivation after any sequence of writes, rebuilt when another version filled it;
and corrections to a match show in the standings at once."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, text, update

from tally.store import tables as t
from tests.store_support import DEALER_CLAIMS, DRAW_DEAL, lines


def cached(store: Any) -> dict[int, tuple[int | None, int, int, int, str]]:
    """The cache by deal: winner, points before the carry, carry in, game points, reason."""
    r = t.deal_results
    with store.engine.connect() as conn:
        return {
            row[0]: tuple(row[1:])
            for row in conn.execute(
                select(
                    r.c.deal_id,
                    r.c.winner_id,
                    r.c.deal_points,
                    r.c.carry_in,
                    r.c.game_points,
                    r.c.reason,
                )
            )
        }


def in_step(store: Any) -> None:
    """The cache is what the deals derive, row for row, and has a row for every deal."""
    assert store.results.stale() == []
    with store.engine.connect() as conn:
        deals = conn.execute(text("SELECT COUNT(*) FROM deals")).scalar_one()
    assert len(cached(store)) == deals


def test_the_cache_follows_every_change_to_a_matchs_deals(store: Any) -> None:
    for name in ("Anna", "Bert", "Carl", "Bertie"):
        store.players.add(name)  # ids 1-4
    m = store.matches.start("Anna", "Bert", first_dealer="Anna")
    d1 = store.deals.start(m.id, DRAW_DEAL[0])
    in_step(store)
    assert cached(store) == {d1.id: (None, 0, 0, 0, "incomplete")}
    for line in lines(DRAW_DEAL):
        store.deals.play(d1.id, line)
        in_step(store)
    assert cached(store)[d1.id] == (None, 0, 0, 0, "draw")
    store.deals.play(d1.id, "66")  # Anna claims after the last trick: 81 counted points
    assert cached(store)[d1.id] == (1, 1, 0, 1, "claim")
    store.deals.undo(d1.id)
    in_step(store)
    d2 = store.deals.quick_result(m.id, winner="Bert", points=2)  # with the carry of the draw
    assert cached(store)[d2.id] == (2, 2, 1, 3, "claim")
    record = (
        '[Rules "sixty-six"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "AH"]\n\n'
        "1. QD 10H\n2. AS QS\n3. 40 KH 66\n"
    )
    [d3] = store.deals.import_records(m.id, [("x.deal", record)])
    in_step(store)
    assert cached(store)[d3.id] == (1, 3, 0, 3, "claim")

    # Correcting the first deal changes the carry of the second: the whole match is rewritten.
    edited = store.deals.export(d1.id).replace("12. KH QC", "12. KH QC 66")
    store.deals.edit(d1.id, edited)
    in_step(store)
    assert cached(store)[d1.id] == (1, 1, 0, 1, "claim")
    assert cached(store)[d2.id] == (2, 2, 0, 2, "claim")
    edit_entry = store.audit.log()[-1].id

    store.deals.delete(d3.id)
    in_step(store)
    assert d3.id not in cached(store)
    store.audit.reverse(store.audit.log()[-1].id)  # the deleted deal comes back
    in_step(store)
    store.audit.reverse(edit_entry)  # the first deal is a draw again, the carry is back
    in_step(store)
    assert cached(store)[d2.id] == (2, 2, 1, 3, "claim")

    m2 = store.matches.start("Bertie", "Carl", first_dealer="Carl")
    d4 = store.deals.quick_result(m2.id, winner="Bertie", points=3)
    assert cached(store)[d4.id][0] == 4
    store.players.merge("Bert", "Bertie")  # Bertie's deals are Bert's now
    in_step(store)
    assert cached(store)[d4.id][0] == 2
    store.audit.reverse(store.audit.log()[-1].id)
    in_step(store)
    assert cached(store)[d4.id][0] == 4
    store.players.rename("Carl", "Karl")
    in_step(store)
    store.deals.delete(d4.id)
    store.audit.reverse(store.audit.log()[-1].id)
    in_step(store)


def test_a_correction_to_a_match_shows_in_the_standings_at_once(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    ev = store.events.create("Club", players=["Anna", "Bert"])
    m = store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev.id)
    d = store.deals.start(m.id, DEALER_CLAIMS[0])
    for line in lines(DEALER_CLAIMS):
        store.deals.play(d.id, line)  # Anna, the dealer, wins 3 (schwarz)
    store.deals.quick_result(m.id, winner="Anna", points=3)
    store.deals.quick_result(m.id, winner="Anna", points=1)

    def line(player: str) -> tuple[int, int, int, int, int, int]:
        r = next(r for r in store.events.standings(ev.id).rows if r.player == player)
        return (
            r.played,
            r.won,
            r.game_points_won,
            r.game_points_conceded,
            r.schneider_wins,
            r.schwarz_wins,
        )

    assert line("Anna") == (1, 1, 7, 0, 0, 2)
    # The first deal was a false claim by Anna after all: Bert, without a trick, scores 3;
    # Anna's 4 no longer win the match, which drops out of the standings until it ends.
    record = store.deals.export(d.id).replace("3. 40 KH 66", "3. 66")
    store.deals.edit(d.id, record)
    assert line("Anna") == (0, 0, 0, 0, 0, 0)
    store.deals.quick_result(m.id, winner="Anna", points=3)
    assert line("Anna") == (1, 1, 7, 3, 0, 2)
    assert line("Bert") == (1, 0, 3, 7, 0, 0)  # a false claim is no schwarz
    store.deals.delete(store.matches.state(m.id).deals[-1].id)
    assert line("Anna") == (0, 0, 0, 0, 0, 0)
    store.audit.reverse(store.audit.log()[-1].id)
    assert line("Anna") == (1, 1, 7, 3, 0, 2)


def test_a_cache_another_version_filled_is_rebuilt_before_it_is_read(store: Any) -> None:
    store.players.add("Anna")
    store.players.add("Bert")
    ev = store.events.create("Club", players=["Anna", "Bert"])
    m = store.matches.start("Anna", "Bert", first_dealer="Anna", event=ev.id)
    for _ in range(3):
        store.deals.quick_result(m.id, winner="Bert", points=3)
    assert store.results.ensure() is None  # stamped when the migrations created the database
    with store.engine.begin() as conn:  # as an older tally with other rulings left it
        conn.execute(update(t.deal_results).values(winner_id=1, game_points=1))
        conn.execute(update(t.cache_state).values(version="0:old"))
    assert store.results.stale() != []
    assert [(r.player, r.won, r.game_points_won) for r in store.events.standings(ev.id).rows] == [
        ("Bert", 1, 9),
        ("Anna", 0, 0),
    ]
    assert store.results.stale() == []


def test_a_database_written_under_earlier_rulings_is_re_derived_when_opened(db_url: str) -> None:
    """A database whose cache an earlier engine filled (its rulings version, or the tally
    version the cache was once keyed on) is ruled again by the first command that opens it."""
    from tally.engine.ruling import RULINGS_VERSION
    from tally.store import open_store

    for old in ("1:0.1.0", f"1:rulings-{RULINGS_VERSION - 1}"):
        with open_store(db_url, scorer="jo") as store:
            if not store.matches.all():
                store.players.add("Anna")
                store.players.add("Bert")
                m = store.matches.start("Anna", "Bert", first_dealer="Anna")
                store.deals.quick_result(m.id, winner="Bert", points=3)
            with store.engine.begin() as conn:  # as that engine's rulings left it
                conn.execute(update(t.deal_results).values(winner_id=1, game_points=1))
                conn.execute(update(t.cache_state).values(version=old))
        with open_store(db_url) as store:
            assert store.results.ensure() is None  # opening it rebuilt the cache already
            in_step(store)
            assert store.matches.state(store.matches.all()[0].id).score == {"Anna": 0, "Bert": 3}
