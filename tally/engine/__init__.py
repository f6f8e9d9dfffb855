"""The rules engine: cards, rule sets, a deal played one action at a time, the ``.deal``
record format, rulings and matches. It imports no CLI, database or template code.

The engine's public names are re-exported here, each loaded when first used (so a command
that needs only the cards does not pay for the rest)::

    >>> from tally.engine import Card, RuleSet, read_deal
    >>> Card.parse("QH").points
    3

docs/architecture.md lists the modules and the rule each one holds.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tally.engine.cards import Card as Card
    from tally.engine.cards import Rank as Rank
    from tally.engine.cards import Suit as Suit
    from tally.engine.cards import parse_cards as parse_cards
    from tally.engine.deal import Claim as Claim
    from tally.engine.deal import Close as Close
    from tally.engine.deal import Deal as Deal
    from tally.engine.deal import Draw as Draw
    from tally.engine.deal import Exchange as Exchange
    from tally.engine.deal import Marriage as Marriage
    from tally.engine.deal import Play as Play
    from tally.engine.match import MatchState as MatchState
    from tally.engine.match import score_match as score_match
    from tally.engine.match import simulate_match as simulate_match
    from tally.engine.notation import DealRecord as DealRecord
    from tally.engine.notation import read_deal as read_deal
    from tally.engine.notation import write_deal as write_deal
    from tally.engine.rules import RuleSet as RuleSet
    from tally.engine.ruling import RULINGS_VERSION as RULINGS_VERSION
    from tally.engine.ruling import Reason as Reason
    from tally.engine.ruling import Ruling as Ruling
    from tally.engine.ruling import rule as rule
    from tally.engine.ruling import summarize as summarize

#: Each public name -> the engine module it lives in.
_HOMES = {
    **dict.fromkeys(("Card", "Rank", "Suit", "parse_cards"), "cards"),
    **dict.fromkeys(("Claim", "Close", "Deal", "Draw", "Exchange", "Marriage", "Play"), "deal"),
    **dict.fromkeys(("MatchState", "score_match", "simulate_match"), "match"),
    **dict.fromkeys(("DealRecord", "read_deal", "write_deal"), "notation"),
    "RuleSet": "rules",
    **dict.fromkeys(("RULINGS_VERSION", "Reason", "Ruling", "rule", "summarize"), "ruling"),
}
__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'tally.engine' has no attribute {name!r}")
    return getattr(importlib.import_module(f"tally.engine.{home}"), name)
