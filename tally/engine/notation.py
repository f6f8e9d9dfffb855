"""The ``.deal`` record format: reading and writing deal records (NOTATION.md).

:func:`read_deal` and :func:`write_deal` are each other's inverse on records: whatever a scorer
typed, ``read_deal(write_deal(r)) == r``, and :func:`write_deal` prints one canonical form::

    >>> text = '[Dealer "Anna"]\\n[Forehand "Bert"]\\n[Trump "qh"]\\n1. ks as ; Anna wins\\n'
    >>> print(write_deal(read_deal(text)), end="")
    [Dealer "Anna"]
    [Forehand "Bert"]
    [Trump "qh"]
    <BLANKLINE>
    1. KS AS

Cards may be written in any spelling :mod:`tally.engine.cards` accepts, German names included; a
two-word name (``Herz König``) is paired inside a trick line, after ``20``/``40`` and in the
``Hands`` and ``Remaining`` tags. Trick numbers are ASCII digits (``①.`` or ``١.`` is no trick
number) and at most four of them. A record file is UTF-8; :func:`decode_record` skips a
byte-order mark and refuses other encodings with the line and byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from tally.engine.cards import (
    CARDS,
    HALVES,
    NOT_A_CARD,
    SPELLINGS,
    Card,
    half_key,
    pair_halves,
    parse_cards,
    shorten,
)
from tally.errors import Message, NotationError
from tally.i18n import N_

#: Tags in the order a canonical record prints them; others follow in the order given.
TAG_ORDER: Final = (
    "Event",
    "Date",
    "Round",
    "Table",
    "Rules",
    "Dealer",
    "Forehand",
    "Trump",
    "Carry",
    "Hands",
    "Remaining",
    "Result",
)
REQUIRED_TAGS: Final = ("Dealer", "Forehand", "Trump")


@dataclass(frozen=True, slots=True)
class CardItem:
    """A card played: the leader's first, then the follower's."""

    card: Card

    def __str__(self) -> str:
        return str(self.card)


@dataclass(frozen=True, slots=True)
class SwapItem:
    """``swap``: the player of the next card exchanges the exchange card for the turn-up."""

    def __str__(self) -> str:
        return "swap"


@dataclass(frozen=True, slots=True)
class CloseItem:
    """``close``: before the leader's card the leader closes; after the trick, its winner."""

    def __str__(self) -> str:
        return "close"


@dataclass(frozen=True, slots=True)
class MarriageItem:
    """``20 QC`` / ``40 KH``: the leader declares the marriage of that card's suit.

    The card is led, unless a claim follows at once.
    """

    value: int
    card: Card

    def __str__(self) -> str:
        return f"{self.value} {self.card}"


@dataclass(frozen=True, slots=True)
class ClaimItem:
    """``66``: a claim of 66 counted points; ``66@Name`` names the claimer."""

    player: str | None = None

    def __str__(self) -> str:
        if self.player is None:
            return "66"
        if re.fullmatch(r"[^\s\"\\;{}]+", self.player):
            return f"66@{self.player}"
        return "66@" + quote(self.player)


Item = CardItem | SwapItem | CloseItem | MarriageItem | ClaimItem

# Items are immutable, so the common ones exist once each (reading a record is then cheap).
CARD_ITEMS: Final = tuple(CardItem(c) for c in CARDS)
SWAP: Final = SwapItem()
CLOSE: Final = CloseItem()
CLAIM: Final = ClaimItem()
#: What a trick line's plain tokens mean, spelled as tally writes them or upper case.
_TOKEN_ITEMS: Final[dict[str, Item]] = {
    **{text: CARD_ITEMS[card] for text, card in SPELLINGS.items()},
    "SWAP": SWAP,
    "CLOSE": CLOSE,
    "66": CLAIM,
}


class TrickLine(NamedTuple):
    """One trick line: its number and its items in the order they happened.

    ``line`` is where the line stood in its file, for messages; two trick lines are equal
    when their numbers and items are (a named tuple rather than a dataclass: a record holds a
    dozen and they are made three times faster).
    """

    number: int
    items: tuple[Item, ...]
    line: int = 0

    def __str__(self) -> str:
        return " ".join([f"{self.number}.", *(str(i) for i in self.items)])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TrickLine):
            return NotImplemented
        return self.number == other.number and self.items == other.items

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.number, self.items))


@dataclass
class DealRecord:
    """A deal record: tags, then trick lines. Tag values are kept as typed."""

    tags: dict[str, str] = field(default_factory=dict)
    tricks: list[TrickLine] = field(default_factory=list)
    #: where each tag was, for error messages
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False)
    #: comment lines before the first tag, kept on export
    header: list[str] = field(default_factory=list, compare=False)
    #: the file or source the record came from, for messages
    source: str = field(default="", compare=False)


def quote(value: str) -> str:
    """A tag value in quotes, with ``"`` and ``\\`` escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_deal(record: DealRecord) -> str:
    """The record in canonical form: header comments, tags in order, a blank line, tricks."""
    out: list[str] = [f"; {c}" if c else ";" for c in record.header]
    order: list[str] = [t for t in TAG_ORDER if t in record.tags]
    order += [t for t in record.tags if t not in TAG_ORDER]
    out += [f"[{name} {quote(record.tags[name])}]" for name in order]
    if record.tricks:
        out.append("")
        out += [str(t) for t in record.tricks]
    return "\n".join(out) + "\n"


_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# The fast path of the tag reader: a tag with no escape in its value (:func:`_read_tag` reads
# every other line, and says what is wrong).
_SIMPLE_TAG = re.compile(r'\s*\[([A-Za-z][A-Za-z0-9_]*)[ \t]*"([^"\\]*)"[ \t]*\]\s*')
# ASCII digits only: int() reads other digits (Arabic-Indic) or refuses them (①, ²).
_TRICK_NO = re.compile(r"([0-9]+)\.")
#: Digits a trick number may have (no deal has 10,000 tricks; int() refuses 4,300 digits).
_TRICK_DIGITS: Final = 4
#: What a UTF-8 file may start with (Windows Notepad writes it): skipped silently.
BOM: Final = "\ufeff"
_WORD = re.compile(r"\S+")

# The messages of text that is not valid notation, one template each, marked for the catalogue
# (an error carries its template and values, worded in the reader's language
# from them: tally.errors.Message).
MSG_TAG_AFTER_TRICK: Final = N_("a tag after the first trick (tags come first)")
MSG_NEITHER: Final = N_(
    '"%(text)s" starts neither a tag nor a trick line ("[Tag "value"]" or "N. cards")'
)
MSG_NUMBER_TOO_LONG: Final = N_(
    'trick number "%(digits)s..." is too long (expected trick %(expect)s)'
)
MSG_OUT_OF_ORDER: Final = N_("trick %(trick)s is out of order (expected trick %(expect)s)")
MSG_COMMENT_OPEN: Final = N_("a { comment is never closed")
MSG_TAG_REPEATED: Final = N_('tag "%(tag)s" is repeated (first on line %(line)s)')
MSG_BRACE: Final = N_('a "}" without its "{"')
MSG_TAG_NAME: Final = N_('a tag needs a name: [Name "value"]')
MSG_TAG_VALUE: Final = N_('tag "%(tag)s" needs a quoted value: [%(tag)s "value"]')
MSG_TAG_QUOTE: Final = N_('the value of tag "%(tag)s" has no closing quote')
MSG_TAG_BRACKET: Final = N_('tag "%(tag)s" needs a closing "]"')
MSG_TAG_TEXT_AFTER: Final = N_('text after tag "%(tag)s"')
MSG_CLAIMER_QUOTE: Final = N_("a quoted claimer's name has no closing quote")
MSG_MARRIAGE_CARD: Final = N_("%(points)s must be followed by the king or queen led")
MSG_CLAIMER_NAME: Final = N_("66@ needs the claimer's name")
MSG_NOT_UTF8: Final = N_(
    "not UTF-8 text: byte 0x%(byte)s at offset %(offset)s (save the file as UTF-8)"
)
MSG_NAME_CARDS: Final = N_('"%(text)s" should be "Name: cards"')
MSG_RESULT: Final = N_('Result should be "Name N" or "draw", not "%(text)s"')
#: Every template of a message of this module.
MESSAGES: Final = (
    MSG_TAG_AFTER_TRICK,
    MSG_NEITHER,
    MSG_NUMBER_TOO_LONG,
    MSG_OUT_OF_ORDER,
    MSG_COMMENT_OPEN,
    MSG_TAG_REPEATED,
    MSG_BRACE,
    MSG_TAG_NAME,
    MSG_TAG_VALUE,
    MSG_TAG_QUOTE,
    MSG_TAG_BRACKET,
    MSG_TAG_TEXT_AFTER,
    MSG_CLAIMER_QUOTE,
    MSG_MARRIAGE_CARD,
    MSG_CLAIMER_NAME,
    MSG_NOT_UTF8,
    MSG_NAME_CARDS,
    MSG_RESULT,
)


def read_deal(text: str, source: str = "") -> DealRecord:
    """Read one ``.deal`` record. Raises :class:`NotationError` with the line and column.

    Only the notation is checked here; whether the record describes a real deal is the
    ruling's business (:func:`tally.engine.ruling.rule`).
    """
    if text.startswith(BOM):
        text = text[1:]
    record = DealRecord(source=source)
    in_brace = False
    seen_trick = False
    expect = 1
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line, in_brace = _strip_comments(raw, lineno, in_brace)
        stripped = line.strip()
        if not stripped:
            if not seen_trick and not record.tags and raw.strip().startswith(";"):
                record.header.append(raw.strip()[1:].strip())
            continue
        col0 = len(line) - len(line.lstrip()) + 1
        if stripped.startswith("["):
            if seen_trick:
                raise NotationError(MSG_TAG_AFTER_TRICK, lineno, col0)
            _add_tag(record, line, lineno, col0)
            continue
        m = _TRICK_NO.match(stripped)
        if not m:
            word = stripped.split()[0]
            raise NotationError(Message(MSG_NEITHER, text=shorten(word)), lineno, col0)
        digits = m.group(1).lstrip("0") or "0"
        if len(digits) > _TRICK_DIGITS:
            raise NotationError(
                Message(MSG_NUMBER_TOO_LONG, digits=digits[: _TRICK_DIGITS + 1], expect=expect),
                lineno,
                col0,
            )
        number = int(digits)
        if number != expect:
            raise NotationError(
                Message(MSG_OUT_OF_ORDER, trick=number, expect=expect), lineno, col0
            )
        expect += 1
        seen_trick = True
        rest_start = col0 - 1 + m.end()
        items = _read_items(line, rest_start, lineno)
        record.tricks.append(TrickLine(number, tuple(items), lineno))
    if in_brace:
        raise NotationError(MSG_COMMENT_OPEN)
    return record


def _add_tag(record: DealRecord, line: str, lineno: int, col0: int) -> None:
    """Read the tag on ``line`` into ``record``; a tag given twice is an error."""
    simple = _SIMPLE_TAG.fullmatch(line)
    name, value = simple.groups() if simple else _read_tag(line, lineno)
    if name in record.tags:
        raise NotationError(
            Message(MSG_TAG_REPEATED, tag=shorten(name), line=record.tag_lines[name]), lineno, col0
        )
    record.tags[name] = value
    record.tag_lines[name] = lineno


def _strip_comments(raw: str, lineno: int, in_brace: bool) -> tuple[str, bool]:
    """The line with comments blanked out (kept as spaces, so columns stay right)."""
    if not in_brace and ";" not in raw and "{" not in raw and "}" not in raw:
        return raw, False
    out: list[str] = []
    in_quote = False
    i = 0
    n = len(raw)
    while i < n:
        ch = raw[i]
        if in_brace:
            out.append(" ")
            if ch == "}":
                in_brace = False
        elif in_quote:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(raw[i + 1])
                i += 1
            elif ch == '"':
                in_quote = False
        elif ch == '"':
            in_quote = True
            out.append(ch)
        elif ch == ";":
            break
        elif ch == "{":
            in_brace = True
            out.append(" ")
        elif ch == "}":
            raise NotationError(MSG_BRACE, lineno, i + 1)
        else:
            out.append(ch)
        i += 1
    return "".join(out), in_brace


def _read_tag(line: str, lineno: int) -> tuple[str, str]:
    start = line.index("[")
    m = _TAG_NAME.match(line, start + 1)
    if not m:
        raise NotationError(MSG_TAG_NAME, lineno, start + 2)
    name = m.group(0)
    i = m.end()
    while i < len(line) and line[i] in " \t":
        i += 1
    if i >= len(line) or line[i] != '"':
        raise NotationError(Message(MSG_TAG_VALUE, tag=shorten(name)), lineno, i + 1)
    i += 1
    value: list[str] = []
    while True:
        if i >= len(line):
            raise NotationError(Message(MSG_TAG_QUOTE, tag=shorten(name)), lineno, i + 1)
        ch = line[i]
        if ch == "\\" and i + 1 < len(line) and line[i + 1] in '"\\':
            value.append(line[i + 1])
            i += 2
            continue
        if ch == '"':
            break
        value.append(ch)
        i += 1
    i += 1
    while i < len(line) and line[i] in " \t":
        i += 1
    if i >= len(line) or line[i] != "]":
        raise NotationError(Message(MSG_TAG_BRACKET, tag=shorten(name)), lineno, i + 1)
    if line[i + 1 :].strip():
        raise NotationError(Message(MSG_TAG_TEXT_AFTER, tag=shorten(name)), lineno, i + 2)
    return name, "".join(value)


def _tokens(line: str, start: int, lineno: int) -> list[tuple[str, int]]:
    """Whitespace-separated tokens with their 1-based columns; ``66@"Two Words"`` is one."""
    if '66@"' not in line:
        return [(m.group(0), m.start() + 1) for m in _WORD.finditer(line, start)]
    out: list[tuple[str, int]] = []
    i = start
    n = len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        j = i
        if line.startswith('66@"', i):
            j = i + 4
            while j < n and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            if j >= n:
                raise NotationError(MSG_CLAIMER_QUOTE, lineno, i + 1)
            j += 1
        else:
            while j < n and not line[j].isspace():
                j += 1
        out.append((line[i:j], i + 1))
        i = j
    return out


def _read_items(line: str, start: int, lineno: int) -> list[Item]:
    items: list[Item] = []
    tokens = _tokens(line, start, lineno)
    k = 0
    while k < len(tokens):
        tok, col = tokens[k]
        plain = _TOKEN_ITEMS.get(tok.upper())
        if plain is not None:
            items.append(plain)
            k += 1
            continue
        low = tok.lower()
        if low in ("20", "40"):
            if k + 1 >= len(tokens):
                raise NotationError(Message(MSG_MARRIAGE_CARD, points=tok), lineno, col)
            card, used = _card_at(tokens, k + 1, lineno)
            items.append(MarriageItem(20 if low == "20" else 40, card))
            k += used
        elif low.startswith("66@"):
            name = tok[3:]
            if name.startswith('"'):
                name = name[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            if not name.strip():
                raise NotationError(MSG_CLAIMER_NAME, lineno, col)
            items.append(ClaimItem(name.strip()))
        else:
            card, used = _card_at(tokens, k, lineno)
            items.append(CARD_ITEMS[card])
            k += used - 1
        k += 1
    return items


def _card_at(tokens: list[tuple[str, int]], k: int, lineno: int) -> tuple[Card, int]:
    """The card at token ``k`` and how many tokens it takes: two for ``Herz König``."""
    tok, col = tokens[k]
    key = half_key(tok)
    card = SPELLINGS.get(key)
    if card is not None:
        return card, 1
    if k + 1 < len(tokens):
        following = tokens[k + 1][0]
        card = pair_halves(key, half_key(following))
        if card is not None:
            return card, 2
        if key in HALVES and half_key(following) in HALVES:
            tok = f"{tok} {following}"  # two halves that do not make a card: quote both
    raise NotationError(Message(NOT_A_CARD, text=shorten(tok)), lineno, col)


def decode_record(data: bytes) -> str:
    """The text of a record file: UTF-8, a leading byte-order mark skipped, newlines as ``\\n``.

    Raises :class:`NotationError` saying where the first byte that is not UTF-8 is (a file
    saved as Latin-1 or Windows-1252, say), so the scorer can save it again as UTF-8.

    >>> decode_record("\\ufeff[Dealer \\"Zoë\\"]\\r\\n".encode())
    '[Dealer "Zoë"]\\n'
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise NotationError(
            Message(MSG_NOT_UTF8, byte=f"{data[exc.start]:02x}", offset=exc.start), line
        ) from None
    if text.startswith(BOM):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_hands(value: str) -> list[tuple[str, list[Card]]]:
    """Read a ``Hands`` or ``Remaining`` value: ``"Bert: AS KS; Anna: 9D"``.

    Raises :class:`NotationError` (without a line; the caller knows it) when it is malformed.
    """
    out: list[tuple[str, list[Card]]] = []
    for part in value.split(";"):
        if not part.strip():
            continue
        name, colon, cards = part.partition(":")
        if not colon or not name.strip():
            raise NotationError(Message(MSG_NAME_CARDS, text=shorten(part.strip())))
        out.append((name.strip(), parse_cards(cards)))
    return out


def read_items(text: str) -> list[Item]:
    """Read the items of a trick line typed on their own: ``"20 QC KD"``, ``"swap JD"``.

    >>> [str(i) for i in read_items("swap 20 kd ah 66")]
    ['swap', '20 KD', 'AH', '66']
    >>> [str(i) for i in read_items("40 Herz König Pik Ass")]
    ['40 KH', 'AS']
    """
    return _read_items(text, 0, 1)


def line_is_complete(items: tuple[Item, ...] | list[Item]) -> bool:
    """Whether a trick line holds both cards of its trick (or ends in a claim).

    A marriage counts as the leader's card, unless a claim follows it at once.
    """
    cards = 0
    for item in items:
        if isinstance(item, ClaimItem):
            return True
        if isinstance(item, CardItem | MarriageItem):
            cards += 1
    return cards >= 2


def add_items(record: DealRecord, items: list[Item]) -> DealRecord:
    """A copy of ``record`` with ``items`` added where a scorer means them.

    Items go on the last line while its trick is unfinished. Once it holds both cards,
    ``close`` and ``66`` still go on it (the trick's winner acting before the draws), and
    anything else starts the next trick's line. The copy is not checked against the rules.
    """
    tricks = list(record.tricks)
    current: list[Item] = list(tricks[-1].items) if tricks else []
    number = tricks[-1].number if tricks else 0
    line = tricks[-1].line if tricks else 0
    if tricks:
        tricks.pop()
    for item in items:
        if number == 0 or (
            line_is_complete(current)
            and not (isinstance(item, CloseItem | ClaimItem) and not _after_draw_items(current))
        ):
            if number:
                tricks.append(TrickLine(number, tuple(current), line))
            number += 1
            current = []
            line = 0
        current.append(item)
    if number:
        tricks.append(TrickLine(number, tuple(current), line))
    return DealRecord(
        dict(record.tags), tricks, dict(record.tag_lines), list(record.header), record.source
    )


def _after_draw_items(items: list[Item]) -> bool:
    """Whether a complete line already has a claim (nothing may follow it)."""
    return any(isinstance(i, ClaimItem) for i in items)


def read_result(value: str) -> tuple[str | None, int]:
    """Read a ``Result`` tag: ``"Anna 3"`` is ``("Anna", 3)``, ``"draw"`` is ``(None, 0)``.

    The one reader of the tag (:func:`read_result_phrase`). Raises :class:`NotationError`
    (without a line) when it is neither; the game points are at most four ASCII digits.

    >>> read_result(" Anna Maria 2 "), read_result("Draw")
    (('Anna Maria', 2), (None, 0))
    """
    name, points, _ = read_result_phrase(value)
    return (name, points)


def read_result_phrase(
    value: str, *, reason: bool = False, most_digits: int = 4
) -> tuple[str | None, int, str]:
    """Read a result phrase: ``"Name N"`` (a ``Result`` tag), or with ``reason`` ``"Name N
    reason"`` (a quick result in an event file); ``"draw"`` is ``(None, 0, "draw")``. The one
    reader of both. Raises :class:`NotationError` (without a line) when it is neither; the
    game points are at most ``most_digits`` ASCII digits.

    >>> read_result_phrase("Anna Maria 2 claim", reason=True)
    ('Anna Maria', 2, 'claim')
    >>> read_result_phrase("Anna 2")
    ('Anna', 2, '')
    """
    text = value.strip()
    if text.lower() == "draw":
        return (None, 0, "draw")
    why = ""
    if reason:  # (an event file's phrase: its words, however spaced)
        words = text.split()
        text, why = " ".join(words[:-1]), words[-1] if words else ""
    name, _, num = text.rpartition(" ")
    good = num.isascii() and num.isdigit() and len(num) <= most_digits
    if not good or not name.strip() or (reason and not why):
        raise NotationError(Message(MSG_RESULT, text=shorten(value)))
    return (name.strip(), int(num), why)


def read_tags(text: str) -> dict[str, str]:
    """The tags of a record as far as they can be read, skipping what cannot.

    For messages about a record that :func:`read_deal` refuses: who played, under what rules.
    """
    tags: dict[str, str] = {}
    if text.startswith(BOM):
        text = text[1:]
    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.lstrip().startswith("["):
            continue
        try:
            name, value = _read_tag(raw, lineno)
        except NotationError:
            continue
        tags.setdefault(name, value)
    return tags
