"""Deals as stored rows and as records: building a ``.deal`` record from what is stored, and
the stored form (turn-up, tags, action tokens) of a record.

Nothing here touches the database or decides a rule: the record goes to
:func:`tally.ruling.rule`, the placement of items to :func:`tally.notation.add_items`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from tally.cards import Card
from tally.errors import NotationError, NotFound, Refused
from tally.names import Candidate, matches, resolve_among
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


@dataclass(frozen=True)
class CloseBeforeDraw:
    """``close-before-draw`` typed by a scorer: the winner of the trick just finished closes
    the stock before anyone draws. Stored as ``close`` on that trick's line (NOTATION.md)."""

    def __str__(self) -> str:
        return "close-before-draw"


#: what a scorer may type for a close before the draws (any case)
CLOSE_BEFORE_DRAW_WORDS = ("close-before-draw", "cbd")

#: an item as a scorer types it: a notation item, or the explicit close before the draws
ScorerItem = Item | CloseBeforeDraw


def parse_items(text: str) -> list[ScorerItem]:
    """Items typed by a scorer, ``"20 QC KD"``; the error names the word, not a line.

    ``close-before-draw`` (or ``cbd``) is the trick's winner closing before the draws;
    everything else is read as notation (:func:`tally.notation.read_items`).

    >>> [str(i) for i in parse_items("KS AS cbd 10c")]
    ['KS', 'AS', 'close-before-draw', '10C']
    """
    out: list[ScorerItem] = []
    words: list[str] = []
    for word in [*text.split(), None]:
        if word is not None and word.casefold() not in CLOSE_BEFORE_DRAW_WORDS:
            words.append(word)
            continue
        if words:
            try:
                out.extend(read_items(" ".join(words)))
            except NotationError as exc:
                raise NotationError(exc.bare) from None
            words = []
        if word is not None:
            out.append(CloseBeforeDraw())
    return out


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


def place_items(record: DealRecord, items: Iterable[ScorerItem],
                rules: RuleSet) -> DealRecord:
    """``record`` with ``items`` added where the scorer means them (:func:`add_items`).

    ``close`` typed at the lead (the last trick finished, no card on the next one yet) is the
    leader's close *after* the draws: it opens the next trick's line (``7. close``), as the
    players see it at the table: they have drawn, they close now. Closing before the draws
    is typed explicitly, ``close-before-draw`` (:class:`CloseBeforeDraw`), and goes on the
    finished trick's line (``6. KS AS close``); it is refused where no trick has just been
    finished. ``rules`` is kept for callers; whether a close is allowed is the engine's
    ruling.
    """
    del rules  # the engine rules on the close; placement no longer depends on the rule set
    for item in items:
        last = record.tricks[-1] if record.tricks else None
        at_lead = (last is not None and line_is_complete(last.items)
                   and not any(isinstance(i, ClaimItem) for i in last.items))
        if isinstance(item, CloseBeforeDraw):
            if last is None or not at_lead:
                raise Refused("close-before-draw: a close before the draws comes right after a "
                              "trick's second card (type close to close at the lead)")
            record = replace(record, tricks=[*record.tricks[:-1], TrickLine(
                last.number, (*last.items, CloseItem()), last.line)])
        elif isinstance(item, CloseItem) and last is not None and at_lead:
            record = replace(record, tricks=[*record.tricks, TrickLine(last.number + 1,
                                                                       (item,))])
        else:
            record = add_items(record, [item])
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


def _renamed_item(item: Item, rename: Callable[[str], str]) -> Item:
    if isinstance(item, ClaimItem) and item.player is not None:
        return ClaimItem(rename(item.player))
    return item


def renamed_tags(tags: dict[str, str], rename: Callable[[str], str]) -> dict[str, str]:
    """``tags`` with the player names in Dealer, Forehand, Hands, Remaining and Result passed
    through ``rename``; values that cannot be read are left for the ruling to report."""
    out = dict(tags)
    for tag in ("Dealer", "Forehand"):
        if tag in out:
            out[tag] = rename(out[tag].strip())
    for tag in ("Hands", "Remaining"):
        if tag in out:
            try:
                hands = read_hands(out[tag])
            except NotationError:
                continue
            out[tag] = "; ".join(f"{rename(n)}: {' '.join(str(c) for c in cards)}"
                                 for n, cards in hands)
    if "Result" in out and out["Result"].strip().lower() != "draw":
        name, _, points = out["Result"].strip().rpartition(" ")
        if name.strip() and points.isdigit():
            out["Result"] = f"{rename(name.strip())} {points}"
    return out


def rename_in_record(record: DealRecord, rename: Callable[[str], str]) -> DealRecord:
    """A copy of ``record`` with player names (tags, ``66@Name``) passed through ``rename``;
    line numbers are kept for messages."""
    tricks = [TrickLine(tl.number, tuple(_renamed_item(i, rename) for i in tl.items), tl.line)
              for tl in record.tricks]
    return DealRecord(renamed_tags(record.tags, rename), tricks, dict(record.tag_lines),
                      list(record.header), record.source)


def rename_in_deal(deal: StoredDeal, rename: Callable[[str], str]) -> StoredDeal:
    """A copy of a stored deal with player names in its claims and tags passed through
    ``rename`` (for a renamed or merged player)."""
    actions = []
    for seq, trick, token in deal.actions:
        items = token_items(token)
        if len(items) == 1 and isinstance(items[0], ClaimItem):
            token = str(_renamed_item(items[0], rename))
        actions.append((seq, trick, token))
    return replace(deal, actions=actions, tags=renamed_tags(deal.tags, rename))


def _as_candidates(players: Sequence[str | Candidate]) -> list[Candidate]:
    return [p if isinstance(p, Candidate) else Candidate(None, p) for p in players]


def name_matcher(players: Sequence[str | Candidate]) -> Callable[[str], str]:
    """A function giving the stored spelling of a match's player named in a record or
    typed by a scorer: any case, accents, a unique prefix or first name, and (given as
    :class:`~tally.names.Candidate`) an alias or number (:func:`tally.names.matches`).

    Names that fit neither player, or both, come back unchanged (the caller or the engine
    reports them).
    """
    pool = _as_candidates(players)

    def match(name: str) -> str:
        found = matches(name, pool)
        return found[0].name if len(found) == 1 else name

    return match


def claimers_known(items: Iterable[ScorerItem],
                   players: Sequence[str | Candidate]) -> list[ScorerItem]:
    """``items`` with ``66@name`` spelt as the player is stored; the claimer is found among
    the match's two players as :func:`tally.names.resolve_among` finds them (``66@Eva``
    for Eva Maria Koch, ``66@2`` for player #2 when the players come with their numbers);
    refuses unknown or ambiguous claimers."""
    pool = _as_candidates(players)
    out: list[ScorerItem] = []
    for item in items:
        if isinstance(item, ClaimItem) and item.player is not None:
            try:
                item = ClaimItem(resolve_among(item.player, pool).name)
            except NotFound as exc:
                raise Refused(f"66@{item.player}: {exc}") from None
        out.append(item)
    return out
