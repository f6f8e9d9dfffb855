"""The searches' own frame chunk (tally.analysis.stack): results and errors pass through, a
nested call runs where it is, and each thread starts afresh."""

from __future__ import annotations

import threading

import pytest

from tally.analysis import stack
from tally.analysis.stack import own_stack


@own_stack
def depth(n: int) -> int:
    """A recursion as deep as a search's deepest line, and deeper."""
    return 0 if n == 0 else 1 + depth(n - 1)


@own_stack
def refuse(message: str) -> None:
    raise ValueError(message)


def test_a_deep_recursion_returns_its_value_from_any_depth() -> None:
    def at(k: int) -> int:
        return depth(300) if k == 0 else at(k - 1)

    assert [at(k) for k in (0, 37, 150)] == [300, 300, 300]


def test_an_error_passes_through_and_the_next_call_gets_its_own_chunk_again() -> None:
    with pytest.raises(ValueError, match="no"):
        refuse("no")
    assert not getattr(stack._inside, "on", False)
    assert depth(3) == 3


def test_each_thread_enters_its_own_chunk() -> None:
    seen: list[bool] = []

    @own_stack
    def inside() -> None:
        worker = threading.Thread(target=lambda: seen.append(getattr(stack._inside, "on", False)))
        worker.start()
        worker.join()
        seen.append(stack._inside.on)

    inside()
    assert seen == [False, True]


def test_the_reserved_frame_is_as_large_as_promised() -> None:
    assert stack._enter.__code__.co_stacksize == stack.RESERVED_SLOTS >= 4096
