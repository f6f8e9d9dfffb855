"""What every event format is: :class:`EventFormat`, its :class:`Settings` and the options it
reads from files (:class:`Option`). The formats themselves are the other modules of this
package; :data:`tally.events.formats.FORMATS` finds them by kind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol, TypeVar

from tally.errors import Advice, Joined, Message, Refused, option
from tally.events.formats.options import MAX_MATCHES_PER_PAIRING as MAX_MATCHES_PER_PAIRING
from tally.events.formats.options import TABLE
from tally.events.formats.options import Option as Option
from tally.events.knockout.state import KnockoutState
from tally.events.schedule import Round
from tally.events.swiss import ACCELERATIONS, Played
from tally.events.tiebreaks import DEFAULT_TIEBREAKS
from tally.i18n import N_


@dataclass(frozen=True)
class Given:
    """The options ``store.events.create`` was given that belong to one
    format or another (None: not given), before any format has checked them; with the number
    of players and the bye rule, which a format may check them against."""

    double: bool = False
    matches_per_pairing: int = 1
    rounds: int | None = None
    swap_last_rounds: bool = False
    acceleration: str = "none"
    repeated_floats: str = "allow"
    max_absences: int | None = None
    no_absence_last: int = 0
    apart_until: int | None = None
    apart_keeps_bye: bool = False
    lives: int | None = None
    draw_seed: str | None = None
    final_size: int | None = None
    final_fill: str | None = None
    groups: int | None = None
    advance: int | None = None
    best_of: int | None = None
    players: int = 0
    bye: str = "none"
    #: every option by its keyword (:class:`Option`), a format's own included
    options: Mapping[str, Any] = field(default_factory=dict)

    def value(self, option: Option) -> Any:
        """The value given for ``option`` (its default when not given)."""
        return self.options.get(option.argument, option.default)

    @classmethod
    def of(cls, options: Mapping[str, Any], *, players: int, bye: str) -> Given:
        """The options ``options`` names (each by its keyword), for ``players`` entries."""
        mine = {f.name for f in fields(cls)} - {"players", "bye", "options"}
        return cls(
            **{k: v for k, v in options.items() if k in mine},
            players=players,
            bye=bye,
            options=dict(options),
        )


@dataclass(frozen=True)
class Settings:
    """A format's own settings, checked: what the ``events`` row keeps of them
    (:meth:`columns`) and, for a format with a draw, its ``event_formats`` row
    (:meth:`draw`)."""

    def columns(self) -> dict[str, Any]:
        """The values of the ``events`` columns that hold the format's settings (the other
        options' columns keep their defaults: :class:`Option`)."""
        return {}

    def draw(self) -> dict[str, Any] | None:
        """The ``event_formats`` row of a format with a draw; None for the others."""
        return None


class StoredEvent(Protocol):
    """What a stored event says of its format's settings (:class:`tally.store.views.EventView`
    has it)."""

    @property
    def double(self) -> bool: ...
    @property
    def matches_per_pairing(self) -> int: ...
    @property
    def rounds(self) -> int: ...
    @property
    def swap_last_rounds(self) -> bool: ...
    @property
    def acceleration(self) -> str: ...
    @property
    def repeated_floats(self) -> str: ...
    @property
    def max_absences(self) -> int | None: ...
    @property
    def no_absence_last(self) -> int: ...
    @property
    def apart_until(self) -> int | None: ...
    @property
    def apart_keeps_bye(self) -> bool: ...
    @property
    def options(self) -> Mapping[str, Any]:
        """Every format option kept in the ``events`` row, by its key."""
        ...


R = TypeVar("R", covariant=True)


class RoundMaker(Protocol[R]):
    """The store's ways of making a round's matches (``store.events.start_round``);
    a format picks its own in :meth:`EventFormat.start_round`."""

    def from_schedule(self, number: int) -> R:
        """Round ``number`` of the schedule made in advance (:meth:`EventFormat.schedule`)."""
        ...

    def paired_now(self, number: int) -> R:
        """Round ``number`` paired (a knockout's drawn) when it starts
        (:meth:`EventFormat.next_round`), once the round before it is finished."""
        ...

    def refused(self) -> R:
        """No round: the format has none."""
        ...


@dataclass(frozen=True)
class RoundState:
    """What a format pairs round ``number`` from, as the store reads it when the round starts:
    the entries (player ids as text, in seed order), who has withdrawn, and for a format that
    :attr:`~EventFormat.pairs_from_standings` the players not withdrawn in the order of the
    standings, their match points, the pairings played so far, the byes had and the pairs
    kept apart."""

    number: int
    entrants: tuple[str, ...]
    withdrawn: frozenset[str]
    settings: Mapping[str, Any]
    ranked: Sequence[str] = ()
    points: Mapping[str, float] = field(default_factory=dict)
    played: Sequence[Played] = ()
    byes: Mapping[str, int] = field(default_factory=dict)
    #: pairs of entrants kept apart while any other pairing exists (same family, same club)
    apart: tuple[tuple[str, str], ...] = ()
    #: entrants who announced they miss this round: not paired (a requested bye)
    absent: frozenset[str] = frozenset()
    #: how many players round 1 was paired among (paired, the bye, absent; 0 before round 1
    #: is paired): Baku acceleration's groups are fixed by it, late entries change nothing
    first_round: int = 0
    #: how each player floated in the round before: ``"down"`` (met a lower score, or had
    #: the pairing's bye) or ``"up"`` (met a higher score); a player level with the
    #: opponent is not in it
    floats: Mapping[str, str] = field(default_factory=dict)
    #: the director accepts the least bad pairing when none avoids a rematch
    rematches: bool = False
    #: a knockout's or groups event's state (:mod:`tally.events.knockout`)
    knockout: KnockoutState | None = None


class EventFormat:
    """One kind of event. Subclasses set the class attributes and override the methods their
    format needs; the store, the files, the CLI and the web ask these, never the kind."""

    #: the kind as stored and as the JSON event file's ``kind`` says it
    kind: ClassVar[str]
    #: what ``event.toml``'s ``kind`` may say (the first is what an export writes)
    file_names: ClassVar[tuple[str, ...]] = ()
    #: what the CLI calls it (``tally event show``), to be translated
    title: ClassVar[str]
    #: what the audit and refusals call it ("created round robin 3")
    audit_name: ClassVar[str]
    #: what ``tally load`` calls it, to be translated
    loaded_name: ClassVar[str]
    #: what the standings' heading calls it, to be translated
    standings_name: ClassVar[str]
    #: "a round robin": what a refusal to start a match by hand calls it
    article_name: ClassVar[str] = ""
    #: how its matches are made, for that refusal
    matches_made: ClassVar[str] = "from the schedule"
    #: what makes its rounds, in a refusal of a file whose rounds differ from them
    round_maker: ClassVar[str] = "the schedule"
    #: what ranks its standings by elimination, to be translated (``%(tiebreaks)s``: the
    #: tiebreaks named); :func:`tally.vocabulary.elimination_ranking`
    ranking_note: ClassVar[str] = ""
    #: the settings it takes (:mod:`tally.events.formats.options`): from these the
    #: store's, the command line's, the form's and the files' options are made
    options: ClassVar[tuple[Option, ...]] = ()
    #: what ``tally event create --kind`` says of it (a catalogue template)
    summary: ClassVar[str] = ""

    #: it plays rounds (a club evening plays matches in any pairing instead)
    has_rounds: ClassVar[bool] = True
    #: every round is fixed by the entries when the first one starts (a round robin)
    has_rounds_made_in_advance: ClassVar[bool] = False
    #: pairings are listed before their matches are made (a round robin, the groups)
    has_scheduled_pairings: ClassVar[bool] = False
    #: each round is paired from the standings when it starts (a Swiss event)
    pairs_from_standings: ClassVar[bool] = False
    #: every round pairs all players and adds to match points, so byes may score and scores
    #: before a round are shown (a round robin, a Swiss event; what a TRF file holds)
    has_scored_rounds: ClassVar[bool] = False
    #: ranked by how far each player got; its rounds, draw and standings are
    #: :mod:`tally.store.knockouts`'
    ranks_by_elimination: ClassVar[bool] = False
    #: each player has lives (a knockout)
    has_lives: ClassVar[bool] = False
    #: the players are drawn into groups first
    has_groups: ClassVar[bool] = False
    #: takes players after its first round has started
    takes_late_entries: ClassVar[bool] = False
    #: its events make up a season's standings (``tally standings --season``)
    counts_in_the_season: ClassVar[bool] = False
    #: ``tally event export --folder`` can write it as an event folder
    exports_as_folder: ClassVar[bool] = False
    #: a pairing may play several matches (``matches_per_pairing``)
    plays_several_matches_per_pairing: ClassVar[bool] = False
    #: its entries are teams' players, team after team (``store.events.create(teams=...)``:
    #: :mod:`tally.events.formats.team`)
    plays_in_teams: ClassVar[bool] = False
    #: its seeding list (initial order, draw, snake) may follow the ratings
    #: (``seed_by="rating"``: :mod:`tally.store.seeding`)
    seeds_by_rating: ClassVar[bool] = False

    #: what the standings rank by unless told
    default_rank_by: ClassVar[str] = "points"
    #: the tiebreaks unless told
    default_tiebreaks: ClassVar[tuple[str, ...]] = DEFAULT_TIEBREAKS

    def describe(self, double: bool) -> str:
        """What the CLI calls an event of this format (to be translated)."""
        return self.title

    def settings(self, given: Given) -> Settings:
        """The format's settings from the options given, checked: refused when an option is
        not the format's or out of its range."""
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        refuse_draw_options(self, given)
        return Settings()

    def total_rounds(self, players: int, settings: Mapping[str, Any]) -> int:
        """How many rounds an event of ``players`` entries plays (0: not known yet), from the
        stored ``events`` row's ``settings``."""
        return 0

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        """Make round ``number``'s matches the format's way (paired when it starts, unless
        the format says otherwise)."""
        return rounds.paired_now(number)

    def schedule(self, entrants: Sequence[str], settings: Mapping[str, Any]) -> list[Round]:
        """Every round, made in advance from the entries (player ids as text, seed order),
        for a format that :attr:`has_rounds_made_in_advance`."""
        raise Refused(Message(N_("a %(format)s has no schedule"), format=Message(self.audit_name)))

    def next_round(self, state: RoundState) -> Round:
        """Round ``state.number`` as paired now; the first player of each pairing deals
        first."""
        return self.schedule(state.entrants, state.settings)[state.number - 1]

    def json_options(self, event: StoredEvent, draw: Mapping[str, Any] | None) -> dict[str, Any]:
        """The settings an export writes, named as :attr:`options` name them: those kept in
        the ``events`` table, each always or when it is not the default (:class:`Option`)."""
        kept = [o for o in self.options if o.key in event.options]
        values = {o.key: event.options[o.key] for o in kept}
        return {o.key: values[o.key] for o in kept if o.exported == "always"} | {
            o.key: values[o.key]
            for o in kept
            if o.exported == "changed" and values[o.key] != o.default
        }


# --- the refusals of options a format does not take -------------------------------------------


def refuse_double_and_several_matches(fmt: EventFormat, given: Given) -> None:
    """Refuse ``double`` and several matches per pairing where the format has no such
    schedule."""
    if fmt.plays_several_matches_per_pairing or not (
        given.double or given.matches_per_pairing != 1
    ):
        return
    if not fmt.has_rounds:
        raise Refused(
            Message(
                N_(
                    "a %(format)s has no schedule: double and matches per pairing "
                    "are for round robins"
                ),
                format=Message(fmt.audit_name),
            )
        )
    raise Refused(Message(N_("a %(kind)s event plays one match per pairing, once"), kind=fmt.kind))


def refuse_rounds(given: Given) -> None:
    """Refuse a number of rounds for a format whose rounds come from elsewhere."""
    if given.rounds is not None:
        raise Refused(
            N_(
                "only a Swiss event has a number of rounds to give; a round robin's "
                "come from its schedule"
            )
        )


#: what a Swiss event does with a float repeated from the round before
REPEATED_FLOATS: tuple[str, ...] = ("allow", "avoid")


def refuse_ordering(given: Given, *, swap: bool = False, accelerate: bool = False) -> None:
    """Refuse the swap of the last two rounds but for a double round robin, and an
    acceleration or a rule for repeated floats but for a Swiss event."""
    if given.swap_last_rounds and not swap:
        raise Refused(
            Message(
                N_("--swap-last-rounds is for a double round robin (%(kind)s %(double)s)"),
                kind=kind_option("round-robin"),
                double=table_option("double").advice(),
            )
        )
    if given.acceleration not in ACCELERATIONS:
        raise Refused(
            Message(
                N_('acceleration must be %(choices)s, not "%(text)s"'),
                choices=Joined(N_(" or "), ACCELERATIONS),
                text=given.acceleration,
            )
        )
    if given.acceleration != "none" and not accelerate:
        raise Refused(
            Message(
                N_("--acceleration %(value)s is for a Swiss event (%(kind)s)"),
                value=given.acceleration,
                kind=_SWISS,
            )
        )
    if given.repeated_floats not in REPEATED_FLOATS:
        raise Refused(
            Message(
                N_('--repeated-floats must be %(choices)s, not "%(text)s"'),
                choices=Joined(N_(" or "), REPEATED_FLOATS),
                text=given.repeated_floats,
            )
        )
    _refuse_byes_and_apart(given, accelerate=accelerate)
    if given.repeated_floats != "allow" and not accelerate:
        raise Refused(
            Message(
                N_("--repeated-floats %(value)s is for a Swiss event (%(kind)s)"),
                value=given.repeated_floats,
                kind=_SWISS,
            )
        )


def _refuse_byes_and_apart(given: Given, *, accelerate: bool) -> None:
    """Refuse requested byes (``--max-absences``, ``--no-absence-last``) and players kept
    apart (``--apart-until-round``, ``--apart-keeps-bye``) but for a Swiss event, and their
    counts out of range."""
    if (given.max_absences is not None or given.no_absence_last) and not accelerate:
        raise Refused(
            Message(
                N_("--max-absences and --no-absence-last are for a Swiss event (%(kind)s)"),
                kind=_SWISS,
            )
        )
    if (given.apart_until is not None or given.apart_keeps_bye) and not accelerate:
        raise Refused(
            Message(
                N_("--apart-until-round and --apart-keeps-bye are for a Swiss event (%(kind)s)"),
                kind=_SWISS,
            )
        )
    if given.apart_until is not None and given.apart_until < 1:
        raise Refused(
            Message(
                N_("--apart-until-round is a round from 1, not %(value)s"), value=given.apart_until
            )
        )
    if (given.max_absences or 0) < 0 or given.no_absence_last < 0:
        raise Refused(
            N_(
                "--max-absences and --no-absence-last count requested byes and rounds: "
                "give 0 or more"
            )
        )


def kind_option(kind: str) -> Advice:
    """``--kind KIND`` as a refusal names it; on the pages the form's field and the kind."""
    return option("--kind " + kind, N_("Kind"), field=True, value=kind)


#: ``--kind swiss``, as the refusals of an option only a Swiss event takes name it.
_SWISS = kind_option("swiss")


def table_option(keyword: str) -> Option:
    """The option of the table of formats (:func:`tally.events.formats.every_option`) by its
    keyword: a refusal of one format that names another's option."""
    return TABLE[keyword]


def named_options(options: Sequence[Option]) -> Message:
    """The options of a draw given as a refusal names them (``--lives, --seed``); on the
    pages the fields of the form (:meth:`Option.advice`).

    >>> from tally.errors import on_pages
    >>> said = named_options([table_option("lives"), table_option("final_fill")])
    >>> str(said)
    '--lives, --final-fill'
    >>> str(on_pages(said))
    '"Lives", "A final stage left short by a round is filled by"'
    """
    said: Message | None = None
    for one in options:
        advice = one.advice()
        said = advice if said is None else Message("%(list)s, %(next)s", list=said, next=advice)
    assert said is not None
    return said


def given_draw_options(given: Given, but: Sequence[Option] = ()) -> list[Option]:
    """The options of a draw given (:attr:`Option.draw`, in the order of the table of
    formats), but those of ``but`` (a format's own)."""
    return [
        one
        for one in TABLE.values()
        if one.draw and one not in but and given.value(one) is not None
    ]


def refuse_draw_options(fmt: EventFormat, given: Given) -> None:
    """Refuse the options of a draw for a format without one."""
    extra = given_draw_options(given)
    if extra:
        raise Refused(
            Message(
                N_("%(options)s: only for a knockout or groups, not a %(kind)s"),
                options=named_options(extra),
                kind=Message(fmt.kind),
            )
        )
