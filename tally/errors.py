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
        ├── Refused                 conflicts with what is stored
        │   ├── ViolationNotConfirmed   would record an unconfirmed violation
        │   ├── DealMoved               another scorer changed the deal meanwhile
        │   ├── BadRecord               a stored deal whose record has errors
        │   ├── NoPairing               no Swiss pairing avoids a rematch
        │   └── AccessDenied            a web change without secret, PIN or form token
        ├── StoreUnavailable        the database cannot be opened or is too new
        ├── LoadError               an event kept as files that cannot be loaded
        ├── SheetError              data that cannot make a printed sheet
        └── PrintError              a sheet that cannot be printed
            └── FetchRefused            a file the renderer may not read

The place of an error is kept as attributes (``line``, ``column``, ``tag``, ``trick``) beside
``bare_message``, the message without the line, so that a caller can put it in its own words.

One exception lives elsewhere because it is a signal, not an error: it is caught by its
own module's caller and never reaches a user: ``cli.deals._Stop`` (the scorer quit the
recorder, or its input ended).
"""

from __future__ import annotations

from typing import Any


class TallyError(ValueError):
    """Base of every error a user's input can cause."""


class NotationError(TallyError):
    """Text that is not valid `.deal` notation (a bad card, tag or token)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)
        self.bare_message = message


class RulesError(TallyError):
    """An unknown preset, option or option value."""


class RecordError(TallyError):
    """A record that cannot describe a real deal (RULES.md section 11).

    ``tag`` names the tag at fault (its name heads ``bare_message``: ``Trump: ...``), ``trick``
    the trick line, ``line`` the line of the record when known.
    """

    def __init__(self, message: str, line: int | None = None, *, tag: str | None = None,
                 trick: int | None = None) -> None:
        self.line = line
        self.tag = tag
        self.trick = trick
        self.detail = message
        bare = f"{tag}: {message}" if tag else message
        super().__init__(f"line {line}: {bare}" if line is not None else bare)
        self.bare_message = bare


class IllegalAction(TallyError):
    """An action the rules forbid now; ``rule`` is its name from RULES.md section 10."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}")
        self.bare_message = message


class NotFound(TallyError):
    """A player, match, deal or event that does not exist."""


class Refused(TallyError):
    """A request that conflicts with what is stored (a finished match, a duplicate name...)."""


class ViolationNotConfirmed(Refused):
    """Recording would store a violation (RULES.md section 10) nobody confirmed happened.

    Nothing was stored. ``violations`` are the violations the record would newly prove
    (:class:`tally.store.views.ViolationView`), ``outcome`` the ruling it would then have
    (``"Anna wins 3 game points (illegal-play)"``) and ``decided`` whether these violations
    decide the deal (False when an earlier violation decided it already), ``entry`` what was
    typed and ``deal`` the deal as it would then be (a :class:`tally.store.views.DealView`, its
    ruling the outcome), so that a recorder can word it in the scorer's language. Record it
    anyway by asking again with ``as_played=True`` (``tally deal play --as-played``).
    """

    def __init__(self, message: str, violations: tuple[Any, ...], outcome: str,
                 decided: bool, *, entry: str = "", deal: Any = None) -> None:
        super().__init__(message)
        self.violations = violations
        self.outcome = outcome
        self.decided = decided
        self.entry = entry
        self.deal = deal


class DealMoved(Refused):
    """Another scorer recorded (or undid) something in the deal since this scorer saw it.

    Nothing was stored. ``position`` is where the deal stands now (``"1.3:12"``, see
    :class:`tally.store.views.Position`), for the scorer to look and pass back.
    """

    def __init__(self, message: str, position: str) -> None:
        super().__init__(message)
        self.position = position


class BadRecord(Refused):
    """A stored (or about to be stored) deal whose record has errors; ``deal`` is its
    reference (``3.2``), ``message`` the record's first error."""

    def __init__(self, deal: str, message: str) -> None:
        super().__init__(f"deal {deal} would not be a possible record: {message}")
        self.deal = deal
        self.message = message


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


class NoPairing(Refused):
    """No pairing of a Swiss round avoids a rematch (:func:`tally.swiss.pair_round`)."""
