"""The formats of events, one module each, found by kind in ONE table, :data:`FORMATS`.

Everything that depends on the kind of an event asks its format (``format_of(kind)``) a
property or a method (:class:`~tally.events.formats.base.EventFormat`), never the kind
itself. Adding a format is a new module here and a line in :data:`FORMATS`
(docs/architecture.md)."""

from __future__ import annotations

from tally.errors import Joined, Message, Refused
from tally.events.formats.base import EventFormat, Given, Option, RoundState, Settings
from tally.events.formats.club import ClubEvening
from tally.events.formats.groups import Groups
from tally.events.formats.knockout import Knockout
from tally.events.formats.options import TABLE
from tally.events.formats.options import every_option as _every_option
from tally.events.formats.round_robin import RoundRobin
from tally.events.formats.swiss import Swiss
from tally.events.formats.team import TeamEvent
from tally.i18n import N_

__all__ = [
    "FORMATS",
    "EventFormat",
    "Given",
    "Option",
    "RoundState",
    "Settings",
    "every_option",
    "format_of",
    "kinds",
]

#: Every event format by its kind, in the order the CLI and the forms list them.
FORMATS: dict[str, EventFormat] = {
    f.kind: f for f in (ClubEvening(), RoundRobin(), Swiss(), Knockout(), Groups(), TeamEvent())
}


def kinds() -> tuple[str, ...]:
    """The kinds of event, as stored."""
    return tuple(FORMATS)


def format_of(kind: str) -> EventFormat:
    """The format of ``kind``; refused for a kind this tally does not know."""
    found = FORMATS.get(kind)
    if found is None:
        raise Refused(
            Message(
                N_('the kind of event must be %(kinds)s, not "%(kind)s"'),
                kinds=Joined(N_(" or "), FORMATS),
                kind=kind,
            )
        )
    return found


def every_option() -> dict[str, Option]:
    """Every format's option by its keyword in ``store.events.create``, each once, in the order
    of the table of formats (:mod:`tally.events.formats.options`)."""
    return _every_option(FORMATS.values())


TABLE.update(every_option())
