"""A bounded cache that the threads of ``tally serve`` may share: every read and write under
one lock, the oldest entry dropped when it is full. The value is made outside the lock, so a
slow one does not hold up the others (two threads may both make it; the first stored stays)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedCache(Generic[K, V]):
    """At most ``size`` values by key, the least recently used dropped first.

    >>> cache: BoundedCache[str, int] = BoundedCache(2)
    >>> cache.get("a", lambda: 1), cache.get("b", lambda: 2), cache.get("a", lambda: 9)
    (1, 2, 1)
    >>> cache.get("c", lambda: 3), cache.get("b", lambda: 20)  # "b" was dropped for "c"
    (3, 20)
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value of ``key``, made by ``make()`` and kept when it is not there yet."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        with self._lock:
            kept = self._values.setdefault(key, value)
            self._values.move_to_end(key)
            while len(self._values) > self._size:
                self._values.popitem(last=False)
        return kept

    def __len__(self) -> int:
        with self._lock:
            return len(self._values)
