"""The caches the threads of ``tally serve`` share: hammered from 8 threads, never an error,
never more than their bound, every value the one its key makes."""

from __future__ import annotations

import random
import threading
from typing import Any

from tally.store.caching import BoundedCache
from tally.store.derivation import RULINGS


def _hammer(work: Any, threads: int = 8) -> list[BaseException]:
    errors: list[BaseException] = []
    start = threading.Barrier(threads)

    def run(seed: int) -> None:
        start.wait()
        try:
            work(random.Random(seed))
        except BaseException as exc:
            errors.append(exc)

    pool = [threading.Thread(target=run, args=(seed,)) for seed in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(timeout=60)
    return errors


def test_a_bounded_cache_hammered_from_eight_threads_stays_right_and_bounded() -> None:
    cache: BoundedCache[int, int] = BoundedCache(16)

    def work(rng: random.Random) -> None:
        for _ in range(20_000):
            key = rng.randrange(64)
            assert cache.get(key, lambda key=key: key * key) == key * key  # type: ignore[misc]
            assert len(cache) <= 16

    assert _hammer(work) == []


def test_the_rulings_of_stored_deals_are_shared_safely_by_threads(store: Any) -> None:
    """Eight threads reading matches whose deals overflow the rulings cache (what 24 table
    pages did to the old cache: a KeyError, HTTP 500) all get every match right."""
    store.players.add("Anna")
    store.players.add("Bert")
    matches = []
    for n in range(40):
        m = store.matches.start("Anna", "Bert", first_dealer="Anna")
        store.deals.start(m.id, "QH")
        for card in ["KS", "AS", "10S"][: 1 + n % 3]:
            store.deals.play(store.deals.current(m.id), card)
        matches.append(m.id)
    expected = {mid: store.matches.state(mid).deals[-1].actions for mid in matches}
    RULINGS._size = 8
    try:

        def work(rng: random.Random) -> None:
            for _ in range(150):
                mid = rng.choice(matches)
                assert store.matches.state(mid).deals[-1].actions == expected[mid]

        assert _hammer(work) == []
    finally:
        RULINGS._size = 512
