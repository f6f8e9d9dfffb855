"""The values an event is given, checked: its name, match points for a win, ranking, kind,
bye, withdrawal rule, seeding and tiebreaks (:meth:`tally.store.events.Events.create` and the
standings)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tally.errors import Message, Refused
from tally.events.formats import EventFormat, format_of, kinds
from tally.events.tiebreaks import RANK_BY, UNPLAYED
from tally.i18n import LANGUAGES, N_
from tally.names import check_text
from tally.store.eventrows import BYES, WITHDRAWALS
from tally.store.seeding import SEED_BY

__all__ = [
    "EVENT_NAME_LENGTH",
    "MAX_POINTS_PER_WIN",
    "check_choices",
    "check_points_per_win",
    "check_rank_by",
    "check_round_tiebreaks",
    "check_seed_by",
    "clean_event_name",
    "either",
    "one_of",
]

EVENT_NAME_LENGTH = 100
#: the most match points a won match may earn (``--points-per-win``): clubs give 1, 2 or 3;
#: anything finite up to this keeps every sum of standings exact and printable.
MAX_POINTS_PER_WIN = 100


def clean_event_name(name: str) -> str:
    """An event's name as stored (spaces collapsed), refused when empty, too long or with
    control characters: what ``store.events.create`` checks first, and the director's form
    before it."""
    check_text(name, "event name")
    clean = " ".join(name.split())
    if not clean:
        raise Refused(N_("an event needs a name"))
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in clean):
        raise Refused(
            Message(
                N_("%(name)s: an event name cannot contain control characters"),
                name=repr(clean[:20]),
            )
        )
    if len(clean) > EVENT_NAME_LENGTH:
        raise Refused(
            Message(
                N_('"%(name)s...": an event name has at most %(most)s characters'),
                name=clean[:20],
                most=EVENT_NAME_LENGTH,
            )
        )
    return clean


def check_points_per_win(value: float) -> float:
    """Match points of a won match, checked: a finite number from 0 to
    :data:`MAX_POINTS_PER_WIN` (``nan``, ``inf``, ``1e308`` or a negative number would make
    standings that no JSON or spreadsheet reads).

    >>> check_points_per_win(2)
    2.0
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refused(
            Message(N_("match points per win must be a number, not %(value)s"), value=repr(value))
        )
    huge = isinstance(value, int) and abs(value) > 10**18
    number = math.inf if huge else float(value)
    if not (math.isfinite(number) and 0 <= number <= MAX_POINTS_PER_WIN):
        shown: Message | str = (
            Message(N_("a number of more than 18 digits")) if huge else f"{number:g}"
        )
        raise Refused(
            Message(
                N_("match points per win must be a number from 0 to %(most)s, not %(value)s"),
                most=MAX_POINTS_PER_WIN,
                value=shown,
            )
        )
    return number


def check_rank_by(value: str) -> str:
    """``points`` or ``percentage``, checked.

    >>> check_rank_by("percentage")
    'percentage'
    """
    return one_of(N_("the ranking"), value, RANK_BY)


def one_of(what: str, value: str, allowed: Sequence[str]) -> str:
    """``value`` if it is one of ``allowed``; refused naming ``what`` (a catalogue word, or
    an option as it is typed: ``--seed-by``)."""
    if value not in allowed:
        raise Refused(
            Message(
                N_('%(what)s must be %(allowed)s, not "%(value)s"'),
                what=what if what.startswith("--") else Message(what),
                allowed=either(allowed),
                value=value,
            )
        )
    return value


def either(values: Sequence[str]) -> Message | str:
    """``a``, ``a or b``, ``a or b or c``: the choices a refusal offers, in any language.

    >>> str(either(["none", "win", "half"]))
    'none or win or half'
    """
    if len(values) < 2:
        return "".join(values)
    return Message(N_("%(some)s or %(last)s"), some=either(values[:-1]), last=values[-1])


def check_choices(kind: str, bye: str, withdrawal: str, language: str) -> EventFormat:
    """The format of ``kind``; refuse a kind of event, bye rule, withdrawal rule or language
    (when given) this tally does not know."""
    one_of(N_("the kind of event"), kind, kinds())
    one_of(N_("a bye"), bye, BYES)
    one_of(N_("the withdrawal rule"), withdrawal, WITHDRAWALS)
    if language:
        one_of(N_("the event's language"), language, LANGUAGES)
    return format_of(kind)


def check_seed_by(fmt: EventFormat, seed_by: str) -> None:
    """Refuse a seeding this tally does not know, and seeding by rating for a format
    without a seeding list."""
    one_of("--seed-by", seed_by, SEED_BY)
    if seed_by != "entry" and not fmt.seeds_by_rating:
        raise Refused(
            Message(
                N_(
                    "--seed-by %(value)s is for a Swiss event, a knockout or groups, "
                    "not a %(kind)s event"
                ),
                value=seed_by,
                kind=fmt.kind,
            )
        )


def check_round_tiebreaks(fmt: EventFormat, tiebreaks: Sequence[str], unplayed: str) -> None:
    """Refuse a rule for unplayed rounds this tally does not know, and the progressive score
    or FIDE's virtual opponent for an event that plays no numbered rounds."""
    one_of(N_("unplayed rounds"), unplayed, UNPLAYED)
    if fmt.has_scored_rounds:
        return
    if "progressive" in tiebreaks:
        raise Refused(
            N_("the progressive score adds up the rounds: it is for a round robin or a Swiss event")
        )
    if unplayed != "as-scored":
        raise Refused(
            Message(
                N_(
                    "--unplayed %(value)s counts byes and forfeits round by round: it is "
                    "for a round robin or a Swiss event"
                ),
                value=unplayed,
            )
        )
