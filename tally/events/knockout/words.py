"""What a knockout says of itself, as :class:`~tally.errors.Message` values made where the fact
is known: its stage, how a round was made, how far a player got, a bracket round's name. The
CLI, the sheets and the pages word them (:func:`tally.i18n.worded`); ``str()`` is the English
the store always said."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from tally.errors import Message
from tally.i18n import N_

__all__ = ["InContext", "Said", "bracket_round_name", "lives_left", "ordinal"]


class Said(Message):
    """A message of what a knockout says of itself that reads as its English text too, as the
    views said it before they said it as messages (``line.stage == "final, out"``,
    ``.endswith("withdrew")``); the CLI, the sheets and the pages word it
    (:func:`tally.i18n.worded`)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return str(self) == other
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __bool__(self) -> bool:
        return bool(str(self))

    def __contains__(self, part: str) -> bool:
        return part in str(self)

    def __getattr__(self, name: str) -> Any:
        """What its English text has (``endswith``...), for a reader of the English."""
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(str(self), name)


class InContext(Said):
    """A message whose template is told apart from the same English words elsewhere by a
    gettext ``context`` (a bracket's ``final`` is not the ``final`` standings). Made by
    :meth:`pgettext`, which the catalogue's extraction finds."""

    __slots__ = ("context",)

    def __init__(self, context: str, template: str, /, **params: object) -> None:
        super().__init__(template, **params)
        self.context = context

    @classmethod
    def pgettext(cls, context: str, template: str, **params: object) -> InContext:
        return cls(context, template, **params)

    def fill(self, say: Callable[[str], str | None]) -> str | None:
        key = f"{self.context}\x04{self.template}"
        said = say(key)
        if said is None:
            return None
        text = self.template if said == key else said
        return Message(text, **self.params).fill(lambda t: t if t == text else say(t))

    def __hash__(self) -> int:
        return hash(str(self))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, InContext):
            return (self.context, self.template, self.params) == (
                other.context,
                other.template,
                other.params,
            )
        return super().__eq__(other)


def bracket_round_name(r: int, last: int) -> Message:
    """``final``, ``semi-final``, ``quarter-final``, ``round of 16``..., for round ``r`` of
    a bracket of ``last`` rounds."""
    left = last - r
    if left == 0:
        return InContext.pgettext("bracket round", "final")
    if left == 1:
        return InContext.pgettext("bracket round", "semi-final")
    if left == 2:
        return InContext.pgettext("bracket round", "quarter-final")
    return InContext.pgettext("bracket round", "round of %(n)s", n=2 ** (left + 1))


_ORDINALS: Final = {1: N_("%(n)sst"), 2: N_("%(n)snd"), 3: N_("%(n)srd")}
_NTH: Final = N_("%(n)sth")


def ordinal(n: int) -> Said:
    """A place: ``1st``, ``2nd``, ``11th`` (German ``1.``)."""
    template = _NTH if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, _NTH)
    return Said(template, n=n)


STILL_IN: Final = N_("still in, %(n)s lives")
STILL_IN_ONE: Final = N_("still in, %(n)s life")
OUT_IN: Final = N_("out in round %(n)s")
IN_GROUP: Final = N_("group %(group)s, %(place)s")
WINNER: Final = N_("winner")
OUT: Final = N_("%(stage)s, out")
WITHDREW: Final = N_("%(stage)s, withdrew")
IN_PLAYOFF: Final = N_("in the play-off for the final stage")
LOST_PLAYOFF: Final = N_("lost the play-off in round %(n)s")


def lives_left(lives: int) -> Said:
    """``still in, 2 lives``."""
    return Said(STILL_IN_ONE if lives == 1 else STILL_IN, n=lives)


#: where an event stands
OVER_AFTER: Final = N_("over after %(n)s rounds: %(player)s won")
NOT_STARTED: Final = N_("not started")
IN_BRACKET: Final = N_("round %(n)s, the bracket")
IN_PLAYOFF_ROUND: Final = N_("round %(n)s, the play-off for the final stage")
IN_GROUPS: Final = N_("round %(n)s of %(rounds)s of the groups")
PLAYERS_LEFT: Final = N_("round %(n)s, %(players)s players still in")
#: how a round was made
GROUP_ROUND_OF: Final = N_("group round %(n)s of %(rounds)s")
BRACKET_DRAW: Final = N_("bracket: %(round)s")
PLAYOFF_BY_LOT: Final = N_("play-off for the final stage, drawn by lot, seed %(seed)s")
BY_SEEDING: Final = N_("paired by the seeding list, first against last, seed %(seed)s")
BY_LOT: Final = N_("drawn by lot, seed %(seed)s")
