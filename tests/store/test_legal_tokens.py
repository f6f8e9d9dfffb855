"""What a table's page offers to tap is exactly what the store would record without proving a
violation: worked out from the deal replayed once (each card tried on a copy of it), it must
agree with recording each candidate on the whole record (``store.deals.preview``), in
every position of randomly played matches, violations confirmed as played included."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tally.engine.cards import CARDS, Rank
from tally.errors import TallyError
from tally.store import Store


def _candidates(deck: int) -> list[str]:
    cards = [c for c in CARDS if deck == 24 or c.rank != Rank.NINE]
    marriages = [f"{w} {c}" for c in cards if c.rank in (Rank.KING, Rank.QUEEN) for w in (20, 40)]
    return ["swap", "close", "close-before-draw", "66", *marriages, *(str(c) for c in cards)]


def _accepted(store: Store, deal_id: int, deck: int) -> list[str]:
    """The candidates the whole record accepts without a new violation."""
    out = []
    for token in _candidates(deck):
        try:
            result = store.deals.preview(deal_id, token)
        except TallyError:
            continue
        if not result.new_violations:
            out.append(token)
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), rules=st.sampled_from(["sixty-six", "schnapsen"]))
def test_what_a_table_may_tap_is_what_the_whole_record_accepts(
    store: Store, seed: int, rules: str
) -> None:
    rng = random.Random(seed)
    for name in ("Anna", "Bert"):
        if name not in {p.name for p in store.players.all()}:
            store.players.add(name)
    mid = store.matches.start("Anna", "Bert", first_dealer="Anna", rules=rules).id
    deck = 24 if rules == "sixty-six" else 20
    cards = [str(c) for c in CARDS if deck == 24 or c.rank != Rank.NINE]
    for _ in range(40):
        match = store.matches.state(mid)
        last = match.deals[-1] if match.deals else None
        if match.over:
            break
        if last is None or last.finished:
            store.deals.start(mid, rng.choice(cards))
            continue
        legal = store.deals.legal_tokens(last.id)
        assert legal == _accepted(store, last.id, deck)
        if not legal:
            break
        pool = legal if rng.random() < 0.85 else cards  # now and then a violation, confirmed
        try:
            store.deals.play(last.id, rng.choice(pool), as_played=True)
        except TallyError:
            continue
