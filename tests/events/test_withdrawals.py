"""The round robin's withdrawal rule (tally.events.withdrawals.annulled): a withdrawn player
who finished fewer than half of their scheduled matches is struck out; half or more, never."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tally.events.withdrawals import annulled


@given(st.lists(st.tuples(st.integers(0, 14), st.integers(1, 14), st.booleans()), max_size=8))
def test_only_a_withdrawn_player_short_of_half_their_matches_is_struck_out(
    players: list[tuple[int, int, bool]],
) -> None:
    finished = {p: min(f, n) for p, (f, n, _) in enumerate(players)}
    scheduled = {p: n for p, (_, n, _) in enumerate(players)}
    withdrawn = [p for p, (_, _, gone) in enumerate(players) if gone]
    struck = annulled(withdrawn, finished, scheduled)
    assert struck <= set(withdrawn)
    for p in withdrawn:
        assert (p in struck) == (finished[p] * 2 < scheduled[p])


def test_exactly_half_keeps_the_results() -> None:
    assert annulled(["Anna"], {"Anna": 2}, {"Anna": 4}) == frozenset()
    assert annulled(["Anna"], {"Anna": 2}, {"Anna": 5}) == frozenset({"Anna"})
    assert annulled(["Anna"], {"Anna": 3}, {"Anna": 5}) == frozenset()
