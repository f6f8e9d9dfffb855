"""Events: the ``Events`` part of the store (``store.events``); see :mod:`tally.store.standings`."""

from tally.store.standings import Events, clean_event_name

__all__ = ["Events", "clean_event_name"]
