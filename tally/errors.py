"""The one tree of exceptions tally raises; every error class lives here.

Every one is a :class:`ValueError` with one meaning; the CLI turns any :class:`TallyError` into a
clean message on stderr and an exit status (see :mod:`tally.cli`)::

    ValueError
    └── TallyError                  anything a user's input can cause
        ├── NotationError           not valid .deal notation        (line, column)
        ├── RulesError              unknown preset, option or value
        ├── RecordError             cannot describe a real deal     (line, tag, trick)
        ├── IllegalAction           against the rules of play now   (rule)
        ├── NotFound                no such player, match, deal or event
        │   └── Withdrawn               an address of a match withdrawn or replaced
        ├── Refused                 conflicts with what is stored
        │   ├── ViolationNotConfirmed   would record an unconfirmed violation
        │   ├── DealMoved               another scorer changed the deal meanwhile
        │   ├── AlreadyRecorded         a tap sent again that is stored already
        │   ├── BadRecord               a stored deal whose record has errors
        │   ├── NoPairing               no Swiss pairing avoids a rematch
        │   ├── MatchOver               a write into a match that is over
        │   └── AccessDenied            a web change without secret, PIN or form token
        ├── StoreUnavailable        the database cannot be opened or is too new
        ├── LoadError               an event kept as files that cannot be loaded
        ├── SheetError              data that cannot make a printed sheet
        └── PrintError              a sheet that cannot be printed
            └── FetchRefused            a file the renderer may not read

Every error carries its words as a :class:`Message` (``error.wording``): a template, the gettext
msgid with named placeholders (``error.template``: ``"%(card)s was already played in trick
%(trick)s"``), and its values (``error.params``). ``str(error)`` is the English text; the CLI and
the web word the same template and values in the user's language from the catalogue
(:func:`tally.i18n.worded`); no message is ever read back from its text. A message made of
another (the store's words around an engine's refusal, the line before a record error) holds
the inner one as a value. The place of an error is kept as attributes too (``line``,
``column``, ``tag``, ``trick``) beside ``bare`` (``bare_message`` in English), the message
without the line, so that a caller can put it in its own words.

One exception lives elsewhere because it is a signal, not an error: it is caught by its
own module's caller and never reaches a user: ``cli.deals._Stop`` (the scorer quit the
recorder, or its input ended).
"""

from __future__ import annotations

import errno
import re
from collections.abc import Callable, Iterable
from typing import Any, Final


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue (:func:`tally.i18n.N_`; this module imports nothing
    of tally)."""
    return message


#: Where a record's error is, before its message (:class:`NotationError`,
#: :class:`RecordError`, :class:`tally.engine.decision.ErrorEntry`).
AT_LINE: Final = N_("line %(line)s: %(message)s")
AT_LINE_COLUMN: Final = N_("line %(line)s, column %(column)s: %(message)s")
#: The words of :class:`BadRecord`.
BAD_RECORD: Final = N_("deal %(deal)s would not be a possible record: %(message)s")
#: The rule an :class:`IllegalAction` broke, or the tag a :class:`RecordError` is about, before
#: its message (no words of its own: every language says it so)
HEADED: Final = "%(head)s: %(message)s"
_PLACEHOLDER = re.compile(r"%\([a-z_]+\)s")


class Message:
    """Words for a person, in any language: ``template``, a gettext msgid with named
    placeholders (``%(card)s``), and ``params``, its values. ``str()`` is the English;
    :func:`tally.i18n.worded` words it in another language from the catalogue with the same
    values. A value that is a :class:`Message` is worded too: an inner message, or a word of
    the catalogue such as a rule's name (``Message("follow-suit")``, a template without
    placeholders).

    >>> str(Message("%(card)s was already played in trick %(trick)s", card="KS", trick=1))
    'KS was already played in trick 1'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params

    def with_values(self, **params: object) -> Message:
        """This message with more values, or others (a wrapper given the message it
        wraps)."""
        return Message(self.template, **{**self.params, **params})

    def fill(self, say: Callable[[str], str | None]) -> str | None:
        """The text, each template (its own and its values') said by ``say``; None when
        ``say`` cannot say one of them (then none: a message is never half translated)."""
        text = say(self.template)
        if text is None:
            return None
        if not self.params:
            return text
        values: dict[str, object] = {}
        for name, value in self.params.items():
            if isinstance(value, Message):
                value = value.fill(say)
                if value is None:
                    return None
            values[name] = value
        return text % values

    def __str__(self) -> str:
        return self.fill(str) or ""

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Message)
            and type(other) is type(self)
            and (self.template, self.params) == (other.template, other.params)
        )

    def __hash__(self) -> int:
        return hash(self.template)


class Advice(Message):
    """Words inside a message that speak to the command line: a command to type
    (``(`tally audit undo 4` takes it back)``) or an option (``--rounds N``). ``page`` says
    the same on the director's pages (where to do it, the field of the form meant); None:
    nothing there, the advice is left out. The command line says the template as any
    message; :func:`on_pages` puts in the page's words. Nothing is read back from text.

    >>> undo = Advice(" (`tally audit undo %(entry)s` takes it back)", entry=4)
    >>> said = Message("audit entry %(entry)s was reversed%(advice)s", entry=3, advice=undo)
    >>> str(said)
    'audit entry 3 was reversed (`tally audit undo 4` takes it back)'
    >>> str(on_pages(said))
    'audit entry 3 was reversed'
    """

    __slots__ = ("page",)

    def __init__(self, template: str, /, page: Message | None = None, **params: object) -> None:
        super().__init__(template, **params)
        self.page = page

    def __repr__(self) -> str:
        return f"Advice({self.template!r}, page={self.page!r}, **{self.params!r})"


#: Nothing: the words of an advice that has none on the pages.
_NOTHING: Final = Message("")
#: Where on the director's pages to do what a command does (an :class:`Advice`'s ``page``),
#: to follow "with" or stand as the subject of a sentence.
ON_THE_CHANGES_PAGE: Final = Message(N_("reversing the change on the Changes page"))
ON_THE_MATCH_PAGE: Final = Message(N_("on the match's page"))
ON_THE_EVENT_PAGE: Final = Message(N_("on the event's page"))
ASK_TO_MERGE: Final = Message(N_("ask the club's scorer to merge the two players"))


def option(typed: str, label: str, *, field: bool = False, value: str = "") -> Advice:
    """An option of the command line (``typed``: ``--rounds N``, the same in every language),
    on the pages the form's field of that ``label`` (``"Rounds"``; with ``field``: ``the
    field "Rounds"``, with ``value`` its value: ``the field "A bye": none``; both marked for
    the catalogue). A format's option is named from its record
    (:meth:`tally.events.formats.options.Option.advice`).

    >>> said = option("--rounds N", "Rounds", field=True)
    >>> str(said), str(on_pages(said))
    ('--rounds N', 'the field "Rounds"')
    """
    name = Message('"%(label)s"', label=Message(label))
    page = Message(N_("the field %(name)s"), name=name) if field else name
    if value:
        page = Message("%(page)s: %(value)s", page=page, value=Message(value))
    return Advice("%(typed)s", page=page, typed=typed)


def on_pages(words: Message) -> Message:
    """``words`` as the director's pages say them: each :class:`Advice` among them (its
    values too) by its ``page`` words, or left out."""
    if isinstance(words, Advice):
        return _NOTHING if words.page is None else on_pages(words.page)
    if type(words) is not Message or not words.params:
        return words
    return Message(
        words.template,
        **{
            name: on_pages(value) if isinstance(value, Message) else value
            for name, value in words.params.items()
        },
    )


class Joined(Message):
    """Values joined by a word of the catalogue (``2 or 3``: ``2 oder 3``); a value that is a
    :class:`Message` is worded too."""

    __slots__ = ()

    def __init__(self, separator: str, items: Iterable[object]) -> None:
        super().__init__(separator, items=tuple(items))

    def fill(self, say: Callable[[str], str | None]) -> str | None:
        """The values, joined by the separator as ``say`` says it."""
        separator = say(self.template)
        items = self.params["items"]
        assert isinstance(items, tuple)
        said = [x.fill(say) if isinstance(x, Message) else str(x) for x in items]
        if separator is None or None in said:
            return None
        return separator.join(x or "" for x in said)


class Counted(Message):
    """A message with a singular and a plural form (``template`` and ``plural``), the one said
    chosen by ``n`` as the language counts (gettext's ``ngettext``); made by :meth:`ngettext`,
    which the catalogue's extraction finds.

    >>> str(Counted.ngettext("%(n)s game point", "%(n)s game points", 3, n=3))
    '3 game points'
    """

    __slots__ = ("n", "plural")

    def __init__(self, singular: str, plural: str, n: int, /, **params: object) -> None:
        super().__init__(singular, **params)
        self.plural = plural
        self.n = n

    @classmethod
    def ngettext(cls, singular: str, plural: str, n: int, /, **params: object) -> Counted:
        return cls(singular, plural, n, **params)

    @property
    def key(self) -> str:
        """What :meth:`fill` asks its ``say`` for: both forms and the count, apart by NULs (a
        ``say`` that counts, :func:`tally.i18n.worded`'s, says the form; any other says the key
        back, then the English form is taken)."""
        return f"{self.template}\x00{self.plural}\x00{self.n}"

    def fill(self, say: Callable[[str], str | None]) -> str | None:
        said = say(self.key)
        if said is None:
            return None
        if said == self.key:
            said = self.template if self.n == 1 else self.plural
        text = said
        return Message(text, **self.params).fill(lambda t: t if t == text else say(t))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counted) and (self.template, self.plural, self.n, self.params) == (
            other.template,
            other.plural,
            other.n,
            other.params,
        )

    def __hash__(self) -> int:
        return hash(self.template)


def message(text: str | Message) -> Message:
    """``text`` as a :class:`Message` (a plain text: a template without placeholders)."""
    return text if isinstance(text, Message) else Message(str(text))


def neutral(template: str) -> bool:
    """Whether ``template`` has no words of its own (``%(head)s: %(message)s``): every
    language says it as it is.

    >>> neutral(HEADED), neutral(AT_LINE)
    (True, False)
    """
    return not any(ch.isalpha() for ch in _PLACEHOLDER.sub("", template))


class TallyError(ValueError):
    """Base of every error a user's input can cause: its words are ``wording`` (a
    :class:`Message`: ``template`` and ``params``), ``str(error)`` their English."""

    def __init__(self, text: str | Message = "") -> None:
        self.wording = message(text)
        super().__init__(str(self.wording))

    @property
    def template(self) -> str:
        """The gettext msgid of the message, with its named placeholders."""
        return self.wording.template

    @property
    def params(self) -> dict[str, object]:
        """The values of the template's placeholders."""
        return self.wording.params


def at_line(text: str | Message, line: int | None, column: int | None = None) -> Message:
    """``text`` with the line (and column) it is on before it, when known."""
    if line is None:
        return message(text)
    if column is None:
        return Message(AT_LINE, line=line, message=message(text))
    return Message(AT_LINE_COLUMN, line=line, column=column, message=message(text))


class NotationError(TallyError):
    """Text that is not valid `.deal` notation (a bad card, tag or token)."""

    def __init__(
        self, text: str | Message, line: int | None = None, column: int | None = None
    ) -> None:
        self.line = line
        self.column = column
        self.bare = message(text)
        super().__init__(at_line(self.bare, line, column))
        self.bare_message = str(self.bare)


class RulesError(TallyError):
    """An unknown preset, option or option value."""


class RecordError(TallyError):
    """A record that cannot describe a real deal (RULES.md section 11).

    ``tag`` names the tag at fault (its name heads ``bare_message``: ``Trump: ...``), ``trick``
    the trick line, ``line`` the line of the record when known.
    """

    def __init__(
        self,
        text: str | Message,
        line: int | None = None,
        *,
        tag: str | None = None,
        trick: int | None = None,
    ) -> None:
        self.line = line
        self.tag = tag
        self.trick = trick
        self.detail = message(text)
        self.bare = Message(HEADED, head=tag, message=self.detail) if tag else self.detail
        super().__init__(at_line(self.bare, line))
        self.bare_message = str(self.bare)


class IllegalAction(TallyError):
    """An action the rules forbid now; ``rule`` is its name from RULES.md section 10."""

    def __init__(self, rule: str, text: str | Message) -> None:
        self.rule = rule
        self.bare = message(text)
        super().__init__(Message(HEADED, head=Message(rule), message=self.bare))
        self.bare_message = str(self.bare)


class NotFound(TallyError):
    """A player, match, deal or event that does not exist."""


class Withdrawn(NotFound):
    """An address that opened something once and never will again: a table of pairings
    withdrawn, of a match deleted, or made before the director made new table addresses."""


class Refused(TallyError):
    """A request that conflicts with what is stored (a finished match, a duplicate name...)."""


class ViolationNotConfirmed(Refused):
    """Recording would store a violation (RULES.md section 10) nobody confirmed happened.

    Nothing was stored. ``violations`` are the violations the record would newly prove
    (:class:`tally.store.views.ViolationView`), ``outcome`` the ruling it would then have
    in English (``"Anna wins 3 game points (illegal play)"``), ``ruling`` its words for a
    person (a :class:`Message`), ``decided`` whether these violations
    decide the deal (False when an earlier violation decided it already), ``entry`` what was
    typed and ``deal`` the deal as it would then be (a :class:`tally.store.views.DealView`, its
    ruling the outcome). Its ``wording`` is the one sentence of the refusal, which the CLI and
    the pages word in the scorer's language (:func:`tally.i18n.worded`). Record it
    anyway by asking again with ``as_played=True`` (``tally deal play --as-played``).
    """

    def __init__(
        self,
        text: str | Message,
        violations: tuple[Any, ...],
        outcome: str | Message,
        decided: bool,
        *,
        entry: str = "",
        deal: Any = None,
    ) -> None:
        super().__init__(text)
        self.violations = violations
        self.ruling = message(outcome)
        self.outcome = str(outcome)
        self.decided = decided
        self.entry = entry
        self.deal = deal


class DealMoved(Refused):
    """Another scorer recorded (or undid) something in the deal since this scorer saw it.

    Nothing was stored. ``position`` is where the deal stands now (``"1.3:12"``, see
    :class:`tally.store.views.Position`), for the scorer to look and pass back.
    """

    def __init__(self, text: str | Message, position: str) -> None:
        super().__init__(text)
        self.position = position


class AlreadyRecorded(Refused):
    """A tap sent again (its page lost the answer to the first sending) that is stored
    already: nothing was stored twice, the tap counts once (:class:`tally.store.views.Tap`)."""


class BadRecord(Refused):
    """A stored (or about to be stored) deal whose record has errors; ``deal`` is its
    reference (``3.2``), ``message`` the record's first error (``record_error`` its words)."""

    def __init__(self, deal: str, text: str | Message) -> None:
        self.record_error = message(text)
        super().__init__(Message(BAD_RECORD, deal=deal, message=self.record_error))
        self.deal = deal
        self.message = str(self.record_error)


class AccessDenied(Refused):
    """A change without the table's secret, the director's PIN or a valid form token."""


class StoreUnavailable(TallyError):
    """The database cannot be opened, or its schema is newer than this tally."""


class LoadError(TallyError):
    """An event folder that cannot be loaded: the file, the match and what is wrong."""


class SheetError(TallyError):
    """Data that cannot make a printed sheet (a row that does not fit its table...)."""


class PrintError(TallyError):
    """A sheet that cannot be printed: an unknown paper size, a missing or refused file."""


class FetchRefused(PrintError):
    """A file or network address the renderer may not read (anything outside the templates)."""


class MatchOver(Refused):
    """A write into a match that is over (:func:`tally.store.over.why_over`); nothing was
    stored. ``kind`` says how it ended: ``finished``, ``forfeit``, ``void`` or
    ``not-needed``."""

    def __init__(self, text: str | Message, kind: str) -> None:
        self.kind = kind
        super().__init__(text)


class NoPairing(Refused):
    """No pairing of a Swiss round avoids a rematch (:func:`tally.events.swiss.pair_round`)."""


#: The system's reasons a file cannot be read or written that a person meets, in words of
#: the catalogue: the English is the system's own text (``strerror``), which is English
#: whatever the locale.
SYSTEM_REASONS: Final = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Permission denied"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
    errno.ELOOP: N_("Too many levels of symbolic links"),
    errno.ENAMETOOLONG: N_("File name too long"),
}


def system_reason(exc: OSError) -> Message:
    """Why the system refused a file, as a message: a reason of :data:`SYSTEM_REASONS`, else
    the system's own text (English).

    >>> str(system_reason(FileNotFoundError(2, "No such file or directory")))
    'No such file or directory'
    """
    known = SYSTEM_REASONS.get(exc.errno or 0)
    return Message(known) if known else Message(exc.strerror or str(exc))
