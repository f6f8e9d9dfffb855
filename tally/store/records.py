"""Deals as stored rows and as records: building a ``.deal`` record from what is stored, and
the stored form (turn-up, tags, action tokens) of a record.

Nothing here touches the database or decides a rule: the record goes to
:func:`tally.ruling.rule`, the placement of items to :func:`tally.notation.add_items`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from tally.cards import Card
from tally.errors import NotationError, Refused
from tally.notation import (
    ClaimItem,
    CloseItem,
    DealRecord,
    Item,
    TrickLine,
    add_items,
    line_is_complete,
    read_hands,
    read_items,
)
from tally.rules import RuleSet

#: tags a stored deal derives from its match and position; all others are kept as given
DERIVED_TAGS = ("Rules", "Dealer", "Forehand", "Trump", "Carry")
#: tags whose values name players (rewritten when a player is renamed or merged)
NAME_TAGS = ("Hands", "Remaining", "Result")


@dataclass
class StoredDeal:
    """A deal row with its actions ``(seq, trick, token)`` in order."""

    id: int
    match_id: int
    number: int
    kind: str
    turn_up: str | None
    quick_winner_id: int | None
    quick_points: int | None
    quick_reason: str | None
    tags: dict[str, str]
    created_at: datetime
    actions: list[tuple[int, int, str]] = field(default_factory=list)


@lru_cache(maxsize=512)
def token_items(token: str) -> tuple[Item, ...]:
    """The notation items of a stored token (one, but ``20 QC`` is read as a pair of words)."""
    return tuple(read_items(token))


def parse_items(text: str) -> list[Item]:
    """Items typed by a scorer, ``"20 QC KD"``; the error names the word, not a line."""
    try:
        return read_items(text)
    except NotationError as exc:
        raise NotationError(exc.bare_message) from None


def build_record(deal: StoredDeal, rules: str, dealer: str, forehand: str,
                 carry: int) -> DealRecord:
    """The ``.deal`` record of a stored deal; Dealer, Forehand and Carry come from the match."""
    tags = {"Rules": rules, "Dealer": dealer, "Forehand": forehand, "Trump": deal.turn_up or ""}
    if carry:
        tags["Carry"] = str(carry)
    for name, value in deal.tags.items():
        tags.setdefault(name, value)
    lines: dict[int, list[Item]] = {}
    for _seq, trick, token in deal.actions:
        lines.setdefault(trick, []).extend(token_items(token))
    return DealRecord(tags, [TrickLine(n, tuple(items)) for n, items in sorted(lines.items())])


def flatten(record: DealRecord) -> list[tuple[int, Item]]:
    """Every item of a record with its trick line, in play order."""
    return [(tl.number, item) for tl in record.tricks for item in tl.items]


def place_items(record: DealRecord, items: Iterable[Item], rules: RuleSet) -> DealRecord:
    """``record`` with ``items`` added where the scorer means them (:func:`add_items`).

    One reading is added: where the rule set does not let a trick's winner close before the
    draws (``close_before_draw=no``, Schnapsen), ``close`` typed after a finished trick means
    the close before the next lead, the only one allowed, so it opens the next line.
    """
    for item in items:
        placed = add_items(record, [item])
        if (isinstance(item, CloseItem) and not rules.close_before_draw and record.tricks
                and len(placed.tricks) == len(record.tricks)
                and line_is_complete(record.tricks[-1].items)
                and not any(isinstance(i, ClaimItem) for i in record.tricks[-1].items)):
            last = record.tricks[-1]
            placed = replace(record, tricks=[*record.tricks, TrickLine(last.number + 1, (item,))])
        record = placed
    return record


def stored_form(record: DealRecord) -> tuple[str, dict[str, str], list[tuple[int, int, str]]]:
    """What is stored of a record: the canonical turn-up, the kept tags and the actions."""
    trump = record.tags.get("Trump", "")
    try:
        turn_up = str(Card.parse(trump))
    except NotationError:
        turn_up = trump.strip()
    tags = {k: v for k, v in record.tags.items() if k not in DERIVED_TAGS}
    actions = [(seq, trick, str(item))
               for seq, (trick, item) in enumerate(flatten(record), start=1)]
    return turn_up, tags, actions


def rename_in_deal(deal: StoredDeal, rename: Callable[[str], str]) -> StoredDeal:
    """A copy of ``deal`` with player names in claims (``66@Name``) and in the Hands,
    Remaining and Result tags passed through ``rename``."""
    actions = []
    for seq, trick, token in deal.actions:
        items = token_items(token)
        if len(items) == 1 and isinstance(items[0], ClaimItem) and items[0].player is not None:
            token = str(ClaimItem(rename(items[0].player)))
        actions.append((seq, trick, token))
    tags = dict(deal.tags)
    for tag in ("Hands", "Remaining"):
        if tag in tags:
            try:
                hands = read_hands(tags[tag])
            except NotationError:
                continue  # kept as typed; the ruling reports it
            tags[tag] = "; ".join(f"{rename(n)}: {' '.join(str(c) for c in cards)}"
                                  for n, cards in hands)
    if "Result" in tags and tags["Result"].strip().lower() != "draw":
        name, _, points = tags["Result"].strip().rpartition(" ")
        if name.strip() and points.isdigit():
            tags["Result"] = f"{rename(name.strip())} {points}"
    return replace(deal, actions=actions, tags=tags)


def name_matcher(players: tuple[str, str]) -> Callable[[str], str]:
    """A function giving the stored spelling of a player's name typed in any case.

    Names that are neither player's come back unchanged (the engine reports them).
    """
    known = {" ".join(p.split()).casefold(): p for p in players}

    def match(name: str) -> str:
        return known.get(" ".join(name.split()).casefold(), name)

    return match


def claimers_known(items: Iterable[Item], players: tuple[str, str]) -> list[Item]:
    """``items`` with ``66@name`` spelt as the player is stored; refuses unknown claimers."""
    canonical = name_matcher(players)
    out: list[Item] = []
    for item in items:
        if isinstance(item, ClaimItem) and item.player is not None:
            name = canonical(item.player)
            if name not in players:
                raise Refused(f'66@{item.player}: "{item.player}" does not play in this match '
                              f"({players[0]} and {players[1]} do)")
            item = ClaimItem(name)
        out.append(item)
    return out
