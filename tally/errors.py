"""The small tree of exceptions tally raises.

Every one is a :class:`ValueError` with one meaning; the CLI turns any :class:`TallyError` into a
clean message on stderr and an exit status (see :mod:`tally.cli`).
"""

from __future__ import annotations


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
    """A record that cannot describe a real deal (RULES.md section 11)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)
        self.bare_message = message


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
