"""Each setting a format takes, described ONCE (:class:`Option`): its name, type, default, the
words a person reads (``label``, ``help``: catalogue templates), its command-line flag, its
form field, its key in event files and the column that keeps it.

A format lists the options it takes (:attr:`EventFormat.options
<tally.events.formats.base.EventFormat.options>`; the options several formats share are
here); everything else is made from those lists: ``store.events.create``'s options, the
options of ``tally event create`` and its ``--kind`` help, the director's new-event form,
the keys of ``event.toml`` and of the JSON event file, and the options table of
docs/events.md (:func:`docs_table`). A new format with an option of its own declares the
option in its module, adds itself to :data:`tally.events.formats.FORMATS` and, when the
option is kept in a new column, a migration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from tally.errors import Advice
from tally.errors import option as option_advice
from tally.i18n import N_

#: the most matches a pairing may play (a round robin, a Swiss event)
MAX_MATCHES_PER_PAIRING = 20


@dataclass(frozen=True)
class Option:
    """One setting of a format.

    ``key`` names it in ``event.toml`` and in the JSON event file's ``options``, ``keyword``
    in ``store.events.create`` (when it differs); ``type`` and the range a file may give
    (``low``, ``high``; ``optional``: JSON ``null`` allowed); ``default`` when not given.
    ``label`` names it on the director's form and in refusals, ``help`` says what it does
    (``tally event create --help``, docs/events.md): both catalogue templates. ``flag`` is
    its command-line option (``--`` and the key), ``metavar`` what the flag takes, ``field``
    its form field (the key), ``choices`` the values it may take with the form's words for
    them, ``form_value`` what the empty form shows and ``hint`` a line under the field.
    ``column`` is where it is kept: ``table.column`` (``events`` or ``event_formats``).
    ``exported`` says when an export writes it: ``"always"``, or ``"changed"`` (only when
    it is not the default)."""

    key: str
    type: Literal["bool", "whole", "text"]
    keyword: str = ""
    low: int = 0
    high: int = 0
    optional: bool = False
    default: Any = None
    label: str = ""
    help: str = ""
    column: str = ""
    flag: str = ""
    metavar: str = ""
    field: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    form_value: str = ""
    hint: str = ""
    exported: Literal["always", "changed"] = "changed"

    @property
    def argument(self) -> str:
        """Its keyword in ``store.events.create``."""
        return self.keyword or self.key

    @property
    def option(self) -> str:
        """Its command-line flag (``--matches``)."""
        return self.flag or "--" + self.key.replace("_", "-")

    @property
    def form_field(self) -> str:
        """Its field on the director's new-event form."""
        return self.field or self.key

    @property
    def values(self) -> tuple[str, ...]:
        """The values it may take, when it is one of a few."""
        return tuple(value for value, _ in self.choices)

    @property
    def draw(self) -> bool:
        """Whether it is an option of a draw (a knockout's, the groups'): kept in the
        ``event_formats`` row."""
        return self.column.startswith("event_formats.")

    def advice(self, *, metavar: bool = False, field: bool = False, value: str = "") -> Advice:
        """How a refusal names it: on the command line its flag (with ``metavar``: ``--final
        N``; with ``value``: ``--bye none``), on the director's pages its form field's label
        (with ``field``: ``the field "Final stage"``; :func:`tally.errors.option`).

        >>> from tally.errors import on_pages
        >>> final = Option("final", "whole", label="Final stage", metavar="N")
        >>> said = final.advice(metavar=True, field=True)
        >>> str(said), str(on_pages(said))
        ('--final N', 'the field "Final stage"')
        """
        typed = self.option
        if metavar and self.metavar:
            typed += " " + self.metavar
        if value:
            typed += " " + value
        return option_advice(typed, self.label, field=field, value=value)

    def events_column(self) -> str | None:
        """Its column of the ``events`` table; None when it is kept elsewhere."""
        table, _, column = self.column.partition(".")
        return column if table == "events" else None


class EventFormat(Protocol):
    """What this module reads of a format (:class:`tally.events.formats.base.EventFormat`)."""

    @property
    def kind(self) -> str: ...
    @property
    def options(self) -> tuple[Option, ...]: ...


# --- the options several formats share --------------------------------------------------------

MATCHES_PER_PAIRING = Option(
    "matches_per_pairing",
    "whole",
    low=1,
    high=MAX_MATCHES_PER_PAIRING,
    default=1,
    label=N_("Matches per pairing"),
    help=N_("Matches (Bummerl) per pairing."),
    column="events.matches_per_pairing",
    flag="--matches",
    metavar="N",
    field="matches",
    form_value="1",
    exported="always",
)
UNPLAYED = Option(
    "unplayed",
    "text",
    default="as-scored",
    label=N_("A bye or a forfeit counts in the Buchholz tiebreaks"),
    help=N_(
        "What a bye or a forfeit counts for in the Buchholz tiebreaks. 'as-scored' (the "
        "default): a bye adds nothing, a forfeit counts the opponent as met. "
        "'virtual-opponent' (FIDE C.07): each round not played counts a virtual opponent who "
        "had the player's score before that round, got the other side of its result and drew "
        "every round after; an opponent's unplayed rounds count as drawn. See docs/events.md."
    ),
    column="events.unplayed",
    metavar="as-scored|virtual-opponent",
    choices=(("as-scored", N_("as scored")), ("virtual-opponent", N_("a virtual opponent (FIDE)"))),
    hint=N_(
        "As scored: a bye adds nothing, a forfeit counts the opponent met. A virtual opponent "
        "(FIDE C.07): each round not played counts an opponent with the player's score before "
        "it, the other side of its result and draws after; an opponent's unplayed rounds count "
        "as drawn."
    ),
)
SEED_BY = Option(
    "seed_by",
    "text",
    default="entry",
    label=N_("Seeding list"),
    help=N_(
        "What the seeding list follows (a Swiss event's initial order, the order a knockout "
        "is drawn from, the groups' snake): the order of entry (the default), or the ratings "
        "(`tally ratings`) when round 1 is started, players without a rating after the rated "
        "ones; fixed then. See docs/events.md."
    ),
    column="events.seed_by",
    metavar="entry|rating",
    choices=(("entry", N_("order of entry")), ("rating", N_("by rating"))),
    hint=N_(
        "By rating: the ratings when round 1 is started order the seeding list (a Swiss "
        "event's initial order, the groups' snake, the draw), players without a rating after "
        "the rated ones; fixed then."
    ),
)
BEST_OF = Option(
    "best_of",
    "whole",
    low=1,
    high=99,
    label=N_("Bracket pairings are played best of"),
    help=N_(
        "The bracket's pairings (a knockout's final stage, --final; the groups' knockout) "
        "are played best of N matches (1, 3, 5, 7 or 9; default 1); `tally event best-of` "
        "changes it until the bracket is seeded."
    ),
    column="event_formats.best_of",
    metavar="N",
    hint=N_("empty: 1"),
)


# --- the table made from the formats' lists ---------------------------------------------------


def every_option(formats: Iterable[EventFormat]) -> dict[str, Option]:
    """Every option of ``formats`` by keyword, each once, in the order the formats list them
    (:func:`tally.events.formats.every_option`: those of the table of formats)."""
    out: dict[str, Option] = {}
    for fmt in formats:
        for option in fmt.options:
            out.setdefault(option.argument, option)
    return out


def taking(option: Option, formats: Iterable[EventFormat]) -> tuple[str, ...]:
    """The kinds of ``formats`` that take ``option``."""
    return tuple(f.kind for f in formats if option in f.options)


def given_options(options: Mapping[str, Any], known: Mapping[str, Option]) -> dict[str, Any]:
    """Every option's value: those of ``options``, the defaults for the rest; a keyword that
    names no option is refused as Python refuses an unknown keyword."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise TypeError(f"create() got an unexpected keyword argument {unknown[0]!r}")
    return {name: options.get(name, option.default) for name, option in known.items()}


def _kinds_said(kinds: Iterable[str]) -> str:
    names = list(kinds)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def cli_help(option: Option, formats: Iterable[EventFormat]) -> str:
    """What ``tally event create --help`` says of ``option``: its help, then the kinds that
    take it."""
    return f"{option.help} (--kind {_kinds_said(taking(option, formats))})"


def _cell(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def docs_table(formats: Iterable[EventFormat]) -> str:
    """The options table of docs/events.md, in Markdown."""
    chosen = list(formats)
    lines = [
        "| Option | Kinds | Type | Default | File key | Column | What it does |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for option in every_option(chosen).values():
        kinds = ", ".join(taking(option, chosen))
        kind_of = "/".join(option.values) if option.choices else option.type
        help_text = " ".join(option.help.split()).replace("|", "\\|")
        lines.append(
            f"| `{option.option}` | {kinds} | {kind_of} | {_cell(option.default)} "
            f"| `{option.key}` | `{option.column}` | {help_text} |"
        )
    return "\n".join(lines) + "\n"


#: where docs/events.md keeps the table (:func:`docs_table`)
DOCS_START = "<!-- options table: generated, do not edit -->\n"
DOCS_END = "<!-- end of options table -->\n"


def with_docs_table(page: str, formats: Iterable[EventFormat]) -> str:
    """docs/events.md's text ``page`` with its options table made anew."""
    head, _, rest = page.partition(DOCS_START)
    _, _, tail = rest.partition(DOCS_END)
    return head + DOCS_START + docs_table(formats) + DOCS_END + tail


#: Every format's option by its keyword, in the order of the table of formats, filled once by
#: :mod:`tally.events.formats` when it has made its formats: the refusals of
#: :mod:`~tally.events.formats.base` read it (they cannot import the formats they are the base of).
TABLE: dict[str, Option] = {}
