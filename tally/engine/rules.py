"""Rule sets: the three presets of RULES.md section 1 and their options.

A rule set is a preset plus optional overrides, written as in a record's ``Rules`` tag::

    >>> rules = RuleSet.parse("sixty-six exchange_when=lead")
    >>> rules.exchange_when, rules.deck, rules.spec
    ('lead', 24, 'sixty-six exchange_when=lead')
    >>> RuleSet.parse("schnapsen").match_target
    7
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass, field
from typing import Any, Final

from tally.engine.cards import CARDS, Rank
from tally.engine.cards import shorten as _short
from tally.engine.kernel import in_deck
from tally.errors import Message, RecordError, RulesError
from tally.i18n import N_

DEFAULT_PRESET: Final = "sixty-six"


@dataclass(frozen=True)
class Option:
    """One option of a rule set: its name, meaning and the values it takes. The meaning is
    English, marked for the catalogue (:func:`tally.i18n.N_`) and translated where it is shown
    (``tally rules``)."""

    name: str
    meaning: str
    values: tuple[str, ...] | None  # None: a whole number within ``bounds``
    bounds: tuple[int, int] = (0, 0)

    def allowed(self) -> str:
        """The allowed values, for error messages."""
        if self.values is None:
            return f"a whole number from {self.bounds[0]} to {self.bounds[1]}"
        return ", ".join(self.values)


OPTIONS: Final[dict[str, Option]] = {
    o.name: o
    for o in (
        Option("deck", N_("cards in play"), ("24", "20")),
        Option("hand", N_("cards each player holds"), ("6", "5")),
        Option("exchange_card", N_("trump rank that may be swapped for the turn-up"), ("9", "J")),
        Option(
            "exchange_when", N_("when the turn-up may be exchanged"), ("lead", "lead-or-follow")
        ),
        Option(
            "exchange_needs_trick", N_("the exchanger must already have won a trick"), ("yes", "no")
        ),
        Option("marriage_in_phase2", N_("marriages may be declared in phase 2"), ("yes", "no")),
        Option(
            "close_before_draw", N_("the trick winner may close before the draws"), ("yes", "no")
        ),
        Option(
            "close_scored_at",
            N_(
                "a closer's win is scored on the opponent's points and tricks as at the "
                "claim or the close"
            ),
            ("claim", "close"),
        ),
        Option(
            "last_trick_bonus", N_("points for the last trick of an unclosed deal"), None, (0, 100)
        ),
        Option("claim_when", N_("who may claim between tricks"), ("any", "on-lead")),
        Option(
            "unclaimed_end",
            N_("result of an unclosed deal played out with no correct claim"),
            ("draw", "last-trick", "higher-total"),
        ),
        Option(
            "false_claim_points", N_("game points for the opponent of a false claim"), ("2or3", "2")
        ),
        Option(
            "carry",
            N_("a drawn deal adds a game point to the next decided deal"),
            ("accumulate", "none"),
        ),
        Option(
            "illegal_play_points",
            N_("game points to the opponent of a player who breaks a rule"),
            None,
            (1, 100),
        ),
        Option("match_target", N_("game points that win a match"), None, (1, 1000)),
        Option("next_dealer", N_("who deals the next deal"), ("alternate", "winner")),
    )
}

PRESETS: Final[dict[str, dict[str, str]]] = {
    "sixty-six": {
        "deck": "24",
        "hand": "6",
        "exchange_card": "9",
        "exchange_when": "lead-or-follow",
        "exchange_needs_trick": "yes",
        "marriage_in_phase2": "no",
        "close_before_draw": "yes",
        "close_scored_at": "claim",
        "last_trick_bonus": "10",
        "claim_when": "any",
        "unclaimed_end": "draw",
        "false_claim_points": "2or3",
        "carry": "accumulate",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "alternate",
    },
    "schnapsen": {
        "deck": "20",
        "hand": "5",
        "exchange_card": "J",
        "exchange_when": "lead",
        "exchange_needs_trick": "no",
        "marriage_in_phase2": "yes",
        "close_before_draw": "no",
        "close_scored_at": "close",
        "last_trick_bonus": "0",
        "claim_when": "on-lead",
        "unclaimed_end": "last-trick",
        "false_claim_points": "2or3",
        "carry": "none",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "alternate",
    },
    "pagat-66": {
        "deck": "24",
        "hand": "6",
        "exchange_card": "9",
        "exchange_when": "lead",
        "exchange_needs_trick": "yes",
        "marriage_in_phase2": "no",
        "close_before_draw": "yes",
        "close_scored_at": "claim",
        "last_trick_bonus": "10",
        "claim_when": "on-lead",
        "unclaimed_end": "higher-total",
        "false_claim_points": "2",
        "carry": "none",
        "illegal_play_points": "3",
        "match_target": "7",
        "next_dealer": "winner",
    },
}

# The messages of a rule set that cannot be read and of a card the deck lacks, one template
# each, marked for the catalogue (an error carries its template and values,
# worded in the reader's language from them: tally.errors.Message).
MSG_PRESET_FIRST: Final = N_(
    'the rule set must start with a preset, not "%(text)s" (presets: %(presets)s)'
)
MSG_UNKNOWN_PRESET: Final = N_('unknown preset "%(text)s" (presets: %(presets)s)')
MSG_NOT_OVERRIDE: Final = N_('"%(text)s" is not an option=value override')
MSG_UNKNOWN_OPTION: Final = N_('unknown option "%(text)s" (options: %(options)s)')
MSG_OPTION_TWICE: Final = N_('option "%(text)s" is given twice')
MSG_NUMBER_VALUE: Final = N_(
    'option "%(option)s" takes a whole number from %(low)s to %(high)s, not "%(text)s"'
)
MSG_VALUE: Final = N_('option "%(option)s" takes %(values)s, not "%(text)s"')
MSG_NINE_NEEDS_24: Final = N_(
    "exchange_card=9 needs the 24-card deck (deck=24): a 20-card deck has no nines"
)
MSG_NOT_IN_20: Final = N_("%(card)s is not in a Schnapsen deck (20 cards, no nines)")
MSG_NOT_IN_20_AT: Final = N_("%(card)s is not in a Schnapsen deck (20 cards, no nines) (%(where)s)")
MSG_NOT_IN_24: Final = N_("%(card)s is not in a 24-card deck")
MSG_NOT_IN_24_AT: Final = N_("%(card)s is not in a 24-card deck (%(where)s)")
#: Where :func:`check_in_deck` finds a card besides the tags ``Hands`` and ``Remaining``.
STOCK: Final = N_("the stock")
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_PRESET_FIRST,
    MSG_UNKNOWN_PRESET,
    MSG_NOT_OVERRIDE,
    MSG_UNKNOWN_OPTION,
    MSG_OPTION_TWICE,
    MSG_NUMBER_VALUE,
    MSG_VALUE,
    MSG_NINE_NEEDS_24,
    MSG_NOT_IN_20,
    MSG_NOT_IN_20_AT,
    MSG_NOT_IN_24,
    MSG_NOT_IN_24_AT,
)

#: Each preset's title, marked for the catalogue and translated where it is shown.
PRESET_TITLES: Final = {
    "sixty-six": N_("Sixty-Six as in the seed article (24 cards)"),
    "schnapsen": N_("Schnapsen as played in Austria (20 cards)"),
    "pagat-66": N_("Sechsundsechzig as on pagat.com (24 cards)"),
}


@dataclass(frozen=True)
class RuleSet:
    """The options a deal is played under. Build one with :meth:`parse` or :meth:`preset`."""

    preset_name: str
    deck: int
    hand: int
    exchange_card: Rank
    exchange_when: str
    exchange_needs_trick: bool
    marriage_in_phase2: bool
    close_before_draw: bool
    close_scored_at: str
    last_trick_bonus: int
    claim_when: str
    unclaimed_end: str
    false_claim_points: str
    carry: str
    illegal_play_points: int
    match_target: int
    next_dealer: str
    overrides: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @staticmethod
    def preset(name: str = DEFAULT_PRESET) -> RuleSet:
        """The rule set of a preset with no overrides."""
        return RuleSet.parse(name)

    @staticmethod
    def parse(text: str) -> RuleSet:
        """Read ``"PRESET [option=value ...]"``; an empty text is the default preset.

        Raises :class:`RulesError` listing what is allowed when a preset, option or value is
        unknown.
        """
        return _parse_cached(" ".join(text.split()))

    @staticmethod
    def _parse(text: str) -> RuleSet:
        """Read ``"PRESET [option=value ...]"``; an empty text is the default preset.

        Raises :class:`RulesError` listing what is allowed when a preset, option or value is
        unknown.
        """
        words = text.split()
        name = words[0] if words else DEFAULT_PRESET
        if name not in PRESETS:
            if "=" in name:
                raise RulesError(
                    Message(MSG_PRESET_FIRST, text=_short(name), presets=", ".join(PRESETS))
                )
            raise RulesError(
                Message(MSG_UNKNOWN_PRESET, text=_short(name), presets=", ".join(PRESETS))
            )
        values = dict(PRESETS[name])
        overrides: list[tuple[str, str]] = []
        seen: set[str] = set()
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                raise RulesError(Message(MSG_NOT_OVERRIDE, text=_short(word)))
            option = OPTIONS.get(key)
            if option is None:
                raise RulesError(
                    Message(MSG_UNKNOWN_OPTION, text=_short(key), options=", ".join(OPTIONS))
                )
            if key in seen:
                raise RulesError(Message(MSG_OPTION_TWICE, text=_short(key)))
            seen.add(key)
            _check_value(option, value)
            values[key] = value
            overrides.append((key, value))
        return _build(name, values, tuple(overrides))

    @functools.cached_property
    def spec(self) -> str:
        """The rule set as written: the preset, then the overrides as given."""
        return " ".join([self.preset_name, *(f"{k}={v}" for k, v in self.overrides)])

    @functools.cached_property
    def stock_size(self) -> int:
        """Face-down cards in the stock at the start (11 in Sixty-Six, 9 in Schnapsen)."""
        return self.deck - 2 * self.hand - 1

    @property
    def tricks_in_deal(self) -> int:
        """Tricks in a deal played out without a close: 12, or 10 in Schnapsen."""
        return self.deck // 2

    def value(self, name: str) -> str:
        """An option's value as written in a rule set (``"yes"``, ``"24"``, ``"lead"``)."""
        v: Any = getattr(self, name)
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, Rank):
            return v.letter
        return str(v)

    def describe(self) -> list[tuple[str, str, str]]:
        """``(option, value, meaning)`` for every option, in the order of RULES.md (the
        meaning in English: :func:`tally.i18n.gettext` words it where it is shown)."""
        return [(o.name, self.value(o.name), o.meaning) for o in OPTIONS.values()]


@functools.lru_cache(maxsize=256)
def _parse_cached(text: str) -> RuleSet:
    return RuleSet._parse(text)


def _check_value(option: Option, value: str) -> None:
    if option.values is None:
        low, high = option.bounds
        # ASCII digits only, and few of them: int() takes other digits, or refuses long ones
        if not (
            value.isascii() and value.isdigit() and len(value) <= 9 and low <= int(value) <= high
        ):
            raise RulesError(
                Message(
                    MSG_NUMBER_VALUE, option=option.name, low=low, high=high, text=_short(value)
                )
            )
    elif value not in option.values:
        raise RulesError(
            Message(MSG_VALUE, option=option.name, values=option.allowed(), text=_short(value))
        )


def _build(name: str, values: dict[str, str], overrides: tuple[tuple[str, str], ...]) -> RuleSet:
    exchange_rank = Rank.NINE if values["exchange_card"] == "9" else Rank.JACK
    deck = int(values["deck"])
    if deck == 20 and exchange_rank == Rank.NINE:
        raise RulesError(MSG_NINE_NEEDS_24)
    kwargs: dict[str, Any] = {}
    for f in dataclasses.fields(RuleSet):
        if f.name in ("preset_name", "overrides", "exchange_card", "deck"):
            continue
        raw = values[f.name]
        if raw in ("yes", "no"):
            kwargs[f.name] = raw == "yes"
        elif OPTIONS[f.name].values is None or f.name == "hand":
            kwargs[f.name] = int(raw)
        else:
            kwargs[f.name] = raw
    return RuleSet(
        preset_name=name, deck=deck, exchange_card=exchange_rank, overrides=overrides, **kwargs
    )


def check_in_deck(card: int, rules: RuleSet, where: str = "") -> None:
    """Refuse a card the deck lacks: a 20-card deck has no nines (RULES.md section 2)."""
    if not in_deck(card, rules.deck):
        if rules.deck == 20:
            template = MSG_NOT_IN_20_AT if where else MSG_NOT_IN_20
        else:
            template = MSG_NOT_IN_24_AT if where else MSG_NOT_IN_24
        # the stock is a word of the catalogue; a tag (Hands, Remaining) is as typed
        raise RecordError(
            Message(template, card=CARDS[card], where=Message(where) if where == STOCK else where)
        )
