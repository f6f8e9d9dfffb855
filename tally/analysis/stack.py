"""The searches run on a stretch of CPython's frame stack of their own.

CPython 3.11 keeps frames in chunks of 16 KiB and frees a chunk as soon as the frame at its start
returns: a recursion that keeps crossing such a boundary near its leaves maps and unmaps memory
on every crossing. Where the boundary falls depends on how deep the caller was, so the same
analysis took from 1.2 s to 3 s by where it was called from (the command line, a web page, a
test). :func:`own_stack` first enters a frame reserving :data:`RESERVED_SLOTS`, so the search
starts on a chunk large enough for its deepest line, wherever it is called from.
docs/performance.md measures it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Final, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: frame slots reserved (8 bytes each): the chunk made for this frame leaves as many again for
#: the search, several times its deepest line (a whole Sixty-Six deal, phase 1 and 2)
RESERVED_SLOTS: Final = 8192

_inside = threading.local()


def _enter(
    fn: Callable[..., object], args: tuple[object, ...], kwargs: dict[str, object]
) -> object:
    """Call ``fn`` from a frame whose value stack is :data:`RESERVED_SLOTS` deep."""
    return fn(*args, **kwargs)


_enter.__code__ = _enter.__code__.replace(co_stacksize=RESERVED_SLOTS)


def own_stack(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` run on a frame chunk of its own (once per thread: a call from inside one runs
    where it is)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if getattr(_inside, "on", False):
            return fn(*args, **kwargs)
        _inside.on = True
        try:
            return _enter(fn, args, kwargs)  # type: ignore[return-value]
        finally:
            _inside.on = False

    return run
