"""Seeding by rating (``create_event(..., seed_by="rating")``, tally.store.seeding): the seeding
list follows the ratings when the first round is started, the unrated after the rated in order
of entry, and is fixed then; a Swiss event's round 1, a knockout's final stage and the groups'
snake follow it. On SQLite and (when configured) PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused
from tally.store.seeding import seeded_order
from tests.store.test_ratings import played

FIELD = ["Anna", "Bert", "Carl", "Dora", "Emil", "Fini"]


def rated_field(store: Any) -> None:
    """Six players; Fini and Emil have won friendly matches (Fini twice), Dora lost one;
    Anna, Bert and Carl have no rating."""
    for name in [*FIELD, "Xaver"]:
        store.players.add(name)
    played(store, "Fini", "Xaver", "Fini")
    played(store, "Fini", "Xaver", "Fini")
    played(store, "Emil", "Xaver", "Emil")
    played(store, "Dora", "Xaver", "Xaver")


def test_the_seeding_list_puts_the_rated_best_first_and_the_unrated_after_in_entry_order() -> None:
    assert seeded_order([5, 1, 2, 3], {1: 2.0, 2: None, 3: 2.0, 5: None}) == [
        (1, 2.0),
        (3, 2.0),
        (5, None),
        (2, None),
    ]


def test_a_swiss_event_seeded_by_rating_pairs_round_one_from_the_ratings(store: Any) -> None:
    rated_field(store)
    ev = store.events.create("Open", kind="swiss", rounds=3, players=FIELD, seed_by="rating")
    assert (ev.seed_by, ev.seeded) == ("rating", False)
    assert [p.name for p in store.events.get(ev.id).players] == FIELD  # entry order until round 1
    rnd = store.events.start_round(ev.id, 1)
    seeded = store.events.get(ev.id)
    order = [p.name for p in seeded.players]
    assert order == ["Fini", "Emil", "Dora", "Anna", "Bert", "Carl"]
    ratings = [p.seed_rating for p in seeded.players]
    assert ratings[0] is not None and ratings[1] is not None and ratings[2] is not None
    assert ratings[0] > ratings[1] > ratings[2] and ratings[3:] == [None, None, None]
    assert seeded.seeded
    # round 1: the top half meets the bottom half in seeding order
    assert [(p.first, p.second) for p in rnd.pairings] == [
        ("Fini", "Anna"),
        ("Bert", "Emil"),
        ("Dora", "Carl"),
    ]


def test_the_seeding_is_fixed_when_round_one_starts_and_later_ratings_do_not_move_it(
    store: Any,
) -> None:
    rated_field(store)
    ev = store.events.create("Open", kind="swiss", rounds=3, players=FIELD, seed_by="rating")
    store.events.start_round(ev.id, 1)
    before = store.events.get(ev.id).players
    for _ in range(3):  # Carl, unrated at round 1, now the best rated of all
        played(store, "Carl", "Xaver", "Carl")
    assert store.events.get(ev.id).players == before


def test_an_event_seeded_by_entry_keeps_its_order_of_entry(store: Any) -> None:
    rated_field(store)
    ev = store.events.create("Open", kind="swiss", rounds=3, players=FIELD)
    store.events.start_round(ev.id, 1)
    seeded = store.events.get(ev.id)
    assert [p.name for p in seeded.players] == FIELD
    assert (seeded.seed_by, seeded.seeded) == ("entry", False)
    assert all(p.seed_rating is None for p in seeded.players)


def test_groups_are_snaked_by_the_seeding_list(store: Any) -> None:

    rated_field(store)
    ev = store.events.create(
        "Cup",
        kind="groups",
        players=FIELD,
        groups=2,
        advance=1,
        seed_by="rating",
        rules="sixty-six match_target=3",
    )
    store.events.start_round(ev.id, 1)
    view = store.knockouts.view(store.events.get(ev.id))
    groups = [sorted(g) for g in view.groups]
    # the snake over Fini, Emil, Dora, Anna, Bert, Carl: 1 4 5 and 2 3 6
    assert groups == [sorted(["Fini", "Anna", "Bert"]), sorted(["Emil", "Dora", "Carl"])]


def test_seeding_by_rating_is_refused_where_there_is_no_seeding_list(store: Any) -> None:
    rated_field(store)
    for kind in ("club", "round-robin"):
        with pytest.raises(Refused, match=f"--seed-by rating is for a Swiss event.*{kind}"):
            store.events.create(f"E {kind}", kind=kind, players=FIELD, seed_by="rating")
    with pytest.raises(Refused, match='--seed-by must be entry or rating, not "elo"'):
        store.events.create("E", kind="swiss", rounds=3, players=FIELD, seed_by="elo")


def test_undoing_the_first_round_keeps_the_seeding_fixed(store: Any) -> None:
    rated_field(store)
    ev = store.events.create("Open", kind="swiss", rounds=3, players=FIELD, seed_by="rating")
    store.events.start_round(ev.id, 1)
    seeded = store.events.get(ev.id).players
    store.audit.reverse(store.audit.log()[-1].id)
    assert store.events.get(ev.id).rounds_started == ()
    assert store.events.get(ev.id).players == seeded
    played(store, "Carl", "Xaver", "Carl")
    store.events.start_round(ev.id, 1)
    assert store.events.get(ev.id).players == seeded


def test_the_pairings_shown_before_round_one_are_those_the_ratings_will_make(store: Any) -> None:

    rated_field(store)
    ev = store.events.create("Open", kind="swiss", rounds=3, players=FIELD, seed_by="rating")
    shown = [(p.first, p.second) for p in store.events.rounds(ev.id, 1)[0].pairings]
    made = [(p.first, p.second) for p in store.events.start_round(ev.id, 1).pairings]
    assert shown == made == [("Fini", "Anna"), ("Bert", "Emil"), ("Dora", "Carl")]
    cup = store.events.create(
        "Cup",
        kind="groups",
        players=FIELD,
        groups=2,
        advance=1,
        seed_by="rating",
        rules="sixty-six match_target=3",
    )
    shown = [(p.first, p.second) for p in store.events.rounds(cup.id, 1)[0].pairings]
    made = [(p.first, p.second) for p in store.events.start_round(cup.id, 1).pairings]
    assert shown == made


def test_a_knockout_seeded_by_rating_pairs_round_one_first_seed_against_last(store: Any) -> None:
    rated_field(store)
    ev = store.events.create("Cup", kind="knockout", players=FIELD, lives=2, seed_by="rating")
    rnd = store.events.start_round(ev.id, 1)
    # seeding list: Fini, Emil, Dora, Anna, Bert, Carl
    assert [{p.first, p.second} for p in rnd.pairings] == [
        {"Fini", "Carl"},
        {"Emil", "Bert"},
        {"Dora", "Anna"},
    ]


def test_a_knockout_seeded_by_entry_still_draws_round_one_by_lot(store: Any) -> None:
    rated_field(store)
    drawn = [
        [
            frozenset((p.first, p.second))
            for p in store.events.start_round(
                store.events.create(f"Cup {s}", kind="knockout", players=FIELD, draw_seed=s).id, 1
            ).pairings
        ]
        for s in ("a", "b", "c", "d")
    ]
    assert len({frozenset(d) for d in drawn}) > 1


def test_the_seeded_first_round_says_how_it_was_paired_in_english_and_german(store: Any) -> None:
    from tally.i18n import worded

    rated_field(store)
    ev = store.events.create(
        "Cup", kind="knockout", players=FIELD, lives=2, seed_by="rating", draw_seed="s"
    )
    first = store.events.start_round(ev.id, 1)
    assert first.draw == "paired by the seeding list, first against last, seed s"
    assert worded(first.draw, "de") == (
        "nach der Setzliste gepaart, der Erste gegen den Letzten, Startwert s"
    )
