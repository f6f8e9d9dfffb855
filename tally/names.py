"""Finding a player by the name people use at the table: the one place every command that
takes a player (``match start``, ``--dealer``, ``--winner``, claims ``66@Name``, event player
lists, withdrawals, ``player rename/merge/alias``) resolves its reference; an event's name is
found the same way (:func:`find_event`: the same steps but aliases, the same suggestions).

A reference is tried, in order:

1. a player number, ``#2`` or ``2`` (as ``tally player list`` shows it): a name always has a
   letter, so a number is never a name;
2. the exact name, ignoring case, spaces, and accents (``"jurgen roth"`` is Jürgen Roth);
3. an alias (``tally player alias``), exactly, ignoring case, spaces and accents. An alias
   is tried before prefixes on purpose: it is a name the director chose to tell players
   apart, so a prefix that also fits another player must not shadow it;
4. a prefix of the full name (``"Anna"`` finds Anna Berger, ``"Eva"`` Eva Maria Koch,
   ``"jur"`` Jürgen Roth), if only one player's name starts with it; when several do, the
   ones whose first word(s) the reference is, whole, are preferred (``"Anna"`` is Anna Berger
   rather than Annabel Fox).

Several players left over make an :class:`AmbiguousName` that lists them; none makes a
:class:`UnknownName` whose message suggests the closest names (and the commands that list
players or add an alias) rather than adding a new player, so a director does not end up with
a duplicate entry for someone already there.

Within a match (claims, ``--winner``, ``--dealer``) the candidates are the match's two players
(:func:`resolve` over them first); see :func:`resolve_among`.

Pure: no database, no CLI; the store passes the candidates in.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from tally.errors import N_, Advice, Message, NotFound, Refused

#: the largest id a database row can have (SQLite and PostgreSQL BIGINT: 2**63 - 1)
MAX_ID = 2**63 - 1

#: the most characters of an input a message quotes
QUOTED = 100

_NUMBER = re.compile(r"#?([0-9]+)")
_DECIMAL = re.compile(r"([0-9]*)(?:[.,]([0-9]*))?")


class UnknownName(NotFound):
    """A reference that fits no player; ``close`` are the players whose names are close
    (:func:`suggestions`), when they were looked for."""

    def __init__(self, message: str | Message, close: Sequence[Candidate] = ()) -> None:
        super().__init__(message)
        self.close = tuple(close)


class AmbiguousName(NotFound):
    """A reference that fits several players; ``candidates`` are they."""

    def __init__(self, message: str | Message, candidates: Sequence[Candidate]) -> None:
        super().__init__(message)
        self.candidates = tuple(candidates)


@dataclass(frozen=True)
class Candidate:
    """A player a reference may mean: number (None when unknown), name and aliases."""

    id: int | None
    name: str
    aliases: tuple[str, ...] = ()

    def label(self) -> str:
        """``Anna Berger (#1)``, or the name alone when the number is unknown."""
        return self.name if self.id is None else f"{self.name} (#{self.id})"


def fold(text: str) -> str:
    """A name as compared: spaces collapsed, case folded, accents dropped.

    >>> fold("  Jürgen   ROTH ")
    'jurgen roth'
    >>> fold("Zoë") == fold("zoe")
    True
    >>> fold("Straße")
    'strasse'
    """
    return _folded(text) if len(text) <= 200 else _fold(text)


@functools.lru_cache(maxsize=8192)
def _folded(text: str) -> str:
    """:func:`fold` of a short text, remembered: a list of names is compared with every
    player's name, again and again."""
    return _fold(text)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def as_number(ref: str) -> int | None:
    """The player number a reference gives (``#2``, ``2``), or None; ASCII digits only.

    A number too long for any id (``"9" * 5000``) is given as ``MAX_ID + 1``, which no
    player has.

    >>> as_number("#12"), as_number(" 7 "), as_number("Anna"), as_number("²")
    (12, 7, None, None)
    >>> as_number("9" * 5000) == MAX_ID + 1
    True
    """
    m = _NUMBER.fullmatch(ref.strip())
    if m is None:
        return None
    digits = m.group(1).lstrip("0") or "0"
    return int(digits) if len(digits) <= 19 else MAX_ID + 1  # no row has a larger id


def read_number(text: str, most_digits: int = 18, places: int = 0) -> Decimal | None:
    """``text`` as a number when it is ASCII digits (1 to ``most_digits`` before the mark),
    with at most ``places`` decimals after a ``.`` or a ``,``; else None. The one reading of
    a number a person types, on every route a request takes: ``１``, ``١`` and ``²`` are not
    digits here, whatever ``str.isdigit`` says, and neither ``1e999999999``, ``NaN`` nor
    ``Infinity`` is a number.

    >>> read_number("12"), read_number("7,50", places=2), read_number(".5", places=1)
    (Decimal('12'), Decimal('7.50'), Decimal('0.5'))
    >>> [read_number(t, places=2) for t in ("1１", "5١", "1e9", "sNaN", "-1", "1.234", "")]
    [None, None, None, None, None, None, None]
    """
    found = _DECIMAL.fullmatch(text.strip()) if text.isascii() else None
    if found is None:
        return None
    whole, part = found.group(1), found.group(2) or ""
    if not (whole or part) or len(whole) > most_digits or len(part) > places:
        return None
    return Decimal(f"{whole or 0}.{part or 0}") if part else Decimal(whole)


def _join(names: Sequence[str]) -> str | Message:
    if len(names) == 1:
        return names[0]
    return Message(N_("%(first)s and %(last)s"), first=", ".join(names[:-1]), last=names[-1])


def _shown(ref: str) -> str:
    """A reference for a message: one line, bytes that are not text shown as escapes, cut
    to :data:`QUOTED` characters."""
    text = (
        " ".join(ref.split())
        .encode(
            "utf-8",
            "surrogateescape"
            if all(ch < "\ud800" or "\udc80" <= ch <= "\udcff" or ch > "\udfff" for ch in ref)
            else "backslashreplace",
        )
        .decode("utf-8", "backslashreplace")
    )
    text = "".join(
        ch if ch.isprintable() and not _invisible(ch) else ascii(ch)[1:-1]
        for ch in text[: QUOTED + 1]
    )
    return text if len(text) <= QUOTED else f"{text[: QUOTED - 1]}…"


def shown(text: str) -> str:
    """What a message quotes of an input: in quotes, one line, what is not printable as
    escapes, at most :data:`QUOTED` characters (a 60,000-character input is not echoed).

    >>> shown("Anna"), len(shown("x" * 60_000))
    ('"Anna"', 102)
    """
    return f'"{_shown(text)}"'


def matches(ref: str, candidates: Iterable[Candidate]) -> list[Candidate]:
    """The candidates ``ref`` fits at the first step that fits any (see the module
    docstring): one, several (ambiguous) or none.

    >>> people = [Candidate(1, "Anna Berger"), Candidate(2, "Anna Huber"),
    ...           Candidate(3, "Jürgen Roth", ("Jogi",)), Candidate(4, "Annabel Fox")]
    >>> [c.name for c in matches("jurgen", people)]
    ['Jürgen Roth']
    >>> [c.name for c in matches("Anna", people)]
    ['Anna Berger', 'Anna Huber']
    >>> [c.name for c in matches("anna b", people)], [c.name for c in matches("#4", people)]
    (['Anna Berger'], ['Annabel Fox'])
    >>> [c.name for c in matches("JOGI", people)], matches("Zed", people)
    (['Jürgen Roth'], [])
    """
    pool = list(candidates)
    number = as_number(ref)
    if number is not None:
        return [c for c in pool if c.id == number]
    key = fold(ref)
    if not key:
        return []
    exact = [c for c in pool if fold(c.name) == key]
    if exact:
        return exact
    aliased = [c for c in pool if any(fold(a) == key for a in c.aliases)]
    if aliased:
        return aliased
    prefixed = [c for c in pool if fold(c.name).startswith(key)]
    if len(prefixed) > 1:
        whole = [c for c in prefixed if fold(c.name).startswith(key + " ")]
        if whole:
            return whole
    return prefixed


def resolve(ref: str, candidates: Iterable[Candidate], *, where: str | Message = "") -> Candidate:
    """The one candidate ``ref`` means; :class:`AmbiguousName` or :class:`UnknownName`.

    ``where`` names the candidates in messages (``" in match 3"``).

    >>> people = [Candidate(1, "Anna Berger"), Candidate(2, "Anna Huber")]
    >>> resolve("anna h", people).name
    'Anna Huber'
    >>> resolve("Anna", people)
    Traceback (most recent call last):
    ...
    tally.names.AmbiguousName: "Anna" matches Anna Berger (#1) and Anna Huber (#2): say which \
(more of the name, the number, or an alias)
    >>> resolve("Ana Berger", people)
    Traceback (most recent call last):
    ...
    tally.names.UnknownName: there is no player "Ana Berger": did you mean Anna Berger (#1)? \
(`tally player list` shows every player and alias; `tally player alias NAME ALIAS` adds a \
name a player goes by)
    """
    pool = list(candidates)
    found = matches(ref, pool)
    if len(found) == 1:
        return found[0]
    shown = _shown(ref)
    if found:
        raise AmbiguousName(
            Message(
                N_(
                    '"%(text)s" matches %(names)s%(where)s: '
                    "say which (more of the name, the number, or an alias)"
                ),
                text=shown,
                names=_join([c.label() for c in found]),
                where=where,
            ),
            found,
        )
    close = suggestions(ref, pool) if as_number(ref) is None else []
    raise UnknownName(unknown_message(ref, pool, where=where, close=close), close)


#: What :func:`unknown_message` advises on the command line (left out on the pages).
_SEE_EVENTS = Advice(N_(" (see `tally event list`)"))
_SEE_NUMBERS = Advice(N_(" (`tally player list` shows the players' numbers)"))
_SEE_ALIASES = Advice(
    N_(
        " (`tally player list` shows every player and alias; `tally player alias NAME ALIAS` "
        "adds a name a player goes by)"
    )
)
_SEE_PLAYERS = Advice(
    N_(
        " (`tally player list` shows every player and alias; to enter a new player, "
        '`tally player add "FULL NAME"`)'
    )
)


def unknown_message(
    ref: str,
    pool: Sequence[Candidate],
    *,
    where: str | Message = "",
    what: str = "player",
    close: Sequence[Candidate] | None = None,
) -> Message:
    """Why ``ref`` finds nobody, with the closest names: the hint leads to the player who is
    there already, and suggests adding a player only when nobody's name is close. ``what``
    ``"event"``: the same for an event (:func:`find_event`); ``close``: the closest names,
    when already found. What it advises to type is an :class:`~tally.errors.Advice`.

    >>> str(unknown_message("Thursday clup", [Candidate(4, "Thursday club")], what="event"))
    'there is no event "Thursday clup": did you mean Thursday club (#4)? (see `tally event list`)'
    """
    shown = _shown(ref)
    if what != "player":
        close = suggestions(ref, pool) if close is None else close
        if close:
            return Message(
                N_('there is no event "%(name)s": did you mean %(close)s?%(advice)s'),
                name=shown,
                close=_join([c.label() for c in close]),
                advice=_SEE_EVENTS,
            )
        return Message(N_('there is no event "%(name)s"%(advice)s'), name=shown, advice=_SEE_EVENTS)
    number = as_number(ref)
    if number is not None:
        digits: str | Message = ref.strip().removeprefix("#")
        if len(str(digits)) > 30:
            whole = str(digits)
            digits = Message(
                N_("%(start)s... (%(digits)s digits)"), start=whole[:20], digits=len(whole)
            )
        return Message(
            N_("there is no player #%(number)s%(where)s%(advice)s"),
            number=digits,
            where=where,
            advice=_SEE_NUMBERS,
        )
    close = suggestions(ref, pool) if close is None else close
    if close:
        return Message(
            N_('there is no player "%(name)s"%(where)s: did you mean %(close)s?%(advice)s'),
            name=shown,
            where=where,
            close=_join([c.label() for c in close]),
            advice=_SEE_ALIASES,
        )
    if where:
        return Message(N_('there is no player "%(name)s"%(where)s'), name=shown, where=where)
    return Message(N_('there is no player "%(name)s"%(advice)s'), name=shown, advice=_SEE_PLAYERS)


def suggestions(ref: str, pool: Sequence[Candidate], limit: int = 3) -> list[Candidate]:
    """The candidates whose name, a word of it, or an alias is close to ``ref`` (typos,
    a surname, a first name spelt another way).

    >>> [c.name for c in suggestions("Berger", [Candidate(1, "Anna Berger")])]
    ['Anna Berger']
    >>> suggestions("Qx", [Candidate(1, "Anna Berger")])
    []
    """
    key = fold(ref)
    if not key:
        return []
    scored: list[tuple[float, int, Candidate]] = []
    for i, c in enumerate(pool):
        forms = [fold(c.name), *fold(c.name).split(), *(fold(a) for a in c.aliases)]
        best = max(_closeness(key, f) for f in forms)
        if any(key in f for f in forms[1:]):
            best = max(best, 0.9)
        if best >= 0.75:
            scored.append((-best, i, c))
    return [c for _, _, c in sorted(scored)[:limit]]


def _closeness(key: str, form: str, least: float = 0.75) -> float:
    """How alike ``key`` and ``form`` are (difflib's ratio), 0.0 when it cannot reach
    ``least``: difflib's upper bounds first (the lengths, then the letters in common), so a
    list of names is weighed against a club in a fraction of a second, not in seconds."""
    total = len(key) + len(form)
    if not total or 2 * min(len(key), len(form)) < least * total:
        return 0.0
    if 2 * sum((_letters(key[:200]) & _letters(form[:200])).values()) < least * total:
        return 0.0
    return difflib.SequenceMatcher(None, key, form).ratio()


@functools.lru_cache(maxsize=8192)
def _letters(text: str) -> Counter[str]:
    """The letters of a (short, folded) name with how often each comes."""
    return Counter(text)


@functools.cache
def _prototypes() -> dict[str, str]:
    """The look-alikes of Latin letters and digits (``tally/confusables.txt``: the lines of
    Unicode's confusables.txt whose prototype is ASCII), source character to prototype."""
    from importlib.resources import files

    table: dict[str, str] = {}
    for line in files("tally").joinpath("confusables.txt").read_text("utf-8").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2 and fields[0].strip():
            source, target = (
                "".join(chr(int(code, 16)) for code in field.split()) for field in fields[:2]
            )
            table[source] = target
    return table


def skeleton(text: str) -> str:
    """What a name looks like (Unicode TR39's skeleton, compared as names are: case, spaces
    and accents aside): each look-alike of a Latin letter or digit as that letter (Cyrillic
    "а", Greek "ο", "1" and "I" as "l", "m" as "rn"); two names of one skeleton are told
    apart by nobody reading them.

    >>> skeleton("Anna Berger") == skeleton("Аnnа Вегgег") == skeleton("ΑNNA BERGER")
    True
    >>> skeleton("Ilse") == skeleton("llse"), skeleton("Anna") == skeleton("Anne")
    (True, False)
    """
    return _skeleton(text) if len(text) <= 200 else _shape(text)


@functools.lru_cache(maxsize=8192)
def _skeleton(text: str) -> str:
    """:func:`skeleton` of a short text, remembered (every name is compared with each new
    one)."""
    return _shape(text)


def _shape(text: str) -> str:
    table = _prototypes()
    return fold("".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def lookalike(name: str, pool: Iterable[Candidate]) -> tuple[Candidate, str] | None:
    """The first candidate whose name or alias looks like ``name`` (:func:`skeleton`) but is
    not it (case, spaces and accents aside: that is the same name), with the name it has.

    >>> lookalike("Anna Bergerl", [Candidate(1, "Anna BergerI")])
    (Candidate(id=1, name='Anna BergerI', aliases=()), 'Anna BergerI')
    >>> lookalike("Anna Huber", [Candidate(1, "Anna Berger")]) is None
    True
    """
    shape, key = skeleton(name), fold(name)
    for c in pool:
        for known in (c.name, *c.aliases):
            if fold(known) != key and skeleton(known) == shape:
                return c, known
    return None


def resolve_among(
    ref: str, players: Sequence[Candidate], *, where: str | Message = ""
) -> Candidate:
    """A player of a match: ``ref`` resolved among ``players`` (the match's two); the error
    names them.

    >>> pair = [Candidate(1, "Eva Maria Koch"), Candidate(2, "Anna Berger")]
    >>> resolve_among("Eva", pair).name, resolve_among("2", pair).name
    ('Eva Maria Koch', 'Anna Berger')
    >>> resolve_among("Clara", pair, where=" in match 3")
    Traceback (most recent call last):
    ...
    tally.names.UnknownName: "Clara" does not play in match 3 (Eva Maria Koch and Anna Berger do)
    """
    found = matches(ref, players)
    if len(found) == 1:
        return found[0]
    if found:
        return resolve(ref, players, where=where)
    raise UnknownName(
        Message(
            N_('"%(name)s" does not play%(where)s (%(players)s do)'),
            name=_shown(ref),
            where=where or _IN_THIS_MATCH,
            players=_join([p.name for p in players]),
        )
    )


#: Where the players of a match are, when nobody said (:func:`resolve_among`).
_IN_THIS_MATCH = Message(N_(" in this match"))


def find_event(ref: str, events: Sequence[Candidate]) -> list[Candidate]:
    """The events ``ref`` (a name, not a number) may mean, as a player's name is found
    (:func:`matches`: the name ignoring case, spaces and accents, else a prefix only one
    event's name has; a reference of digits only whole); several events of the same name
    are all returned (the caller asks for the number); :class:`UnknownName` with the
    closest names when none fits.

    >>> nights = [Candidate(1, "Thursday club"), Candidate(2, "Spring Swiss")]
    >>> [c.id for c in find_event("thursday", nights)]
    [1]
    >>> find_event("Thursday clup", nights)
    Traceback (most recent call last):
    ...
    tally.names.UnknownName: there is no event "Thursday clup": did you mean Thursday club \
(#1)? (see `tally event list`)
    """
    found = (
        matches(ref, events)
        if as_number(ref) is None
        else [c for c in events if fold(c.name) == fold(ref)]
    )  # a name of digits, whole
    if not found:
        raise UnknownName(unknown_message(ref, events, what="event"))
    if len(found) > 1 and len({fold(c.name) for c in found}) > 1:
        raise AmbiguousName(
            Message(
                N_('"%(text)s" matches %(names)s: say which (more of the name, or the number)'),
                text=_shown(ref),
                names=_join([c.label() for c in found]),
            ),
            found,
        )
    return found


#: code points that show nothing: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt,
#: 14.0: soft hyphen, combining grapheme joiner, Hangul fillers, zero-width spaces and joiners,
#: bidirectional controls, variation selectors, tags ...), as ranges
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: blank symbols that are no Default_Ignorable but show as nothing all the same (TR39 keeps
#: them out of identifiers): the braille pattern blank
_BLANK = frozenset({0x2800})
#: scripts that TR39's "highly restrictive" level lets one name mix (with Latin): Japanese,
#: Chinese with Bopomofo, Korean
_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: the first word of a letter's Unicode name that is not its script's
_SCRIPT_WORDS = {"CJK": "HAN", "IDEOGRAPHIC": "HAN", "MODIFIER": "", "KATAKANA-HIRAGANA": ""}


def short_name(name: str, letters: int = 1) -> str:
    """A name shortened as a person reads it where the whole name does not fit (the wall):
    each given name to its first ``letters`` letters and a full stop, the family name (the
    last word) whole, never cut mid-word; a name of one word stays as it is.

    >>> short_name("Bartholomäus Mühlbacher"), short_name("Maria-Theresia von Wallnöfer")
    ('B. Mühlbacher', 'M.-T. v. Wallnöfer')
    >>> short_name("Ferdinand Oberhollenzer", 2), short_name("Xaver")
    ('Fe. Oberhollenzer', 'Xaver')
    """
    words = name.split()
    if len(words) < 2:
        return name
    given = [
        "-".join(part if len(part) <= letters else part[:letters] + "." for part in w.split("-"))
        for w in words[:-1]
    ]
    return " ".join([*given, words[-1]])


def short_names(names: Iterable[str]) -> dict[str, str]:
    """Each of ``names`` shortened (:func:`short_name`) with as few letters of the given names
    as tell it from every other: Ferdinand and Friederike Oberhollenzer are "Fe. Oberhollenzer"
    and "Fr. Oberhollenzer", never both "F. Oberhollenzer"; a name no shortening tells apart
    stays whole.

    >>> names = ["Ferdinand Oberhollenzer", "Friederike Oberhollenzer", "Anna Berger"]
    >>> list(short_names(names).values())
    ['Fe. Oberhollenzer', 'Fr. Oberhollenzer', 'A. Berger']
    """
    everyone = list(dict.fromkeys(names))
    out: dict[str, str] = {}
    longest = max((len(w) for n in everyone for w in n.split()), default=0)
    for letters in range(1, longest + 1):
        tried = {name: short_name(name, letters) for name in everyone}
        taken = Counter([*tried.values(), *everyone])
        for name in everyone:
            if name not in out and (taken[tried[name]] == 1 or tried[name] == name):
                out[name] = tried[name]
    return {name: out.get(name, name) for name in everyone}


#: what :func:`check_text` says of a name it refuses
NOT_UTF8 = N_(
    '%(what)s "%(text)s": not UTF-8 text (set the terminal to UTF-8, or type the name again)'
)
INVISIBLE = N_(
    '%(what)s "%(text)s": U+%(code)s is an invisible formatting character: type the name '
    "with letters, digits, spaces and punctuation only"
)
STYLED = N_(
    '%(what)s "%(text)s": "%(letter)s" is a styled form of "%(plain)s": type plain letters '
    "and digits"
)
PILED = N_('%(what)s "%(text)s": too many accents on one letter')
MIXED = N_(
    '%(what)s "%(text)s": "%(one)s" is a %(script)s letter and "%(other)s" a %(other_script)s '
    "one: type the name in one script"
)
#: the inputs :func:`check_text` names, as words of the catalogue
_WHAT = {
    "name": N_("name"),
    "player": N_("player"),
    "event name": N_("event name"),
    "series name": N_("series name"),
    "category": N_("category"),
}


def _invisible(ch: str) -> bool:
    """True for a character a name may not hold because it shows as nothing (or is no
    character at all): a format or control character, a default-ignorable or blank one,
    private use, unassigned."""
    code = ord(ch)
    category = unicodedata.category(ch)
    return (
        category in ("Cf", "Co", "Cn")
        or (category == "Cc" and not ch.isspace())
        or code in _BLANK
        or any(low <= code <= high for low, high in _IGNORABLE)
    )


def script(ch: str) -> str:
    """The script of a letter as its Unicode name begins (``LATIN``, ``CYRILLIC``,
    ``GREEK``, ``HAN`` ...); ``""`` for what every script shares (digits, spaces,
    punctuation, accents, modifier letters). Python's :mod:`unicodedata` has no Script
    property; a letter's name starts with its script's (how Unicode names letters).

    >>> script("a"), script("а"), script("α"), script("漢"), script("1"), script("-")
    ('LATIN', 'CYRILLIC', 'GREEK', 'HAN', '', '')
    """
    if not unicodedata.category(ch).startswith("L"):
        return ""
    word = unicodedata.name(ch, "").split(" ", 1)[0]
    return _SCRIPT_WORDS.get(word, word)


def _mixed(text: str) -> tuple[str, str] | None:
    """Two letters of ``text`` in scripts one name may not mix (:data:`_MIXES`), or None."""
    first: dict[str, str] = {}
    for ch in text:
        found = script(ch)
        if found and found not in first:
            first[found] = ch
    if len(first) < 2 or any(set(first) <= allowed for allowed in _MIXES):
        return None
    one, other = list(first.values())[:2]
    return one, other


def _styled(ch: str) -> bool:
    """True for a letter, digit or symbol that is a styled form of another (mathematical bold,
    fullwidth, circled, a ligature: what NFKC changes); spaces and punctuation pass."""
    return (
        unicodedata.normalize("NFKC", ch) != ch
        and not ch.isspace()
        and not unicodedata.category(ch).startswith("P")
    )


def _piled_marks(text: str) -> bool:
    """True when a letter carries more than four accents, or one accent twice (TR39's
    check of nonspacing marks: text that runs over the lines above and below)."""
    run: list[str] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.category(ch) != "Mn":
            run = []
            continue
        if ch in run or len(run) >= 4:
            return True
        run.append(ch)
    return False


def check_text(text: str, what: str) -> None:
    """Refuse a name that cannot be stored or that could pass for another (Unicode TR39's
    checks of identifiers, for names): bytes that were not UTF-8 when typed (Python keeps them
    as surrogates), a NUL character; a character that shows as nothing (bidirectional controls
    such as U+202E, zero-width spaces and joiners, the Hangul fillers U+3164 and U+115F, the
    braille blank U+2800, the combining grapheme joiner U+034F); a styled letter (mathematical
    bold, fullwidth: what NFKC changes); accents piled on one letter; and letters of scripts
    one name does not mix (Cyrillic or Greek letters in a Latin name). ``what`` names the
    input.

    >>> check_text("Café", "player"), check_text("Ελένη Παππά", "player")
    (None, None)
    >>> check_text("Caf\\udce9", "player")
    Traceback (most recent call last):
    ...
    tally.errors.Refused: player "Caf\\xe9": not UTF-8 text (set the terminal to UTF-8, or \
type the name again)
    >>> check_text("Anna\\u202eregreB", "name")
    Traceback (most recent call last):
    ...
    tally.errors.Refused: name "Anna\\u202eregreB": U+202E is an invisible formatting \
character: type the name with letters, digits, spaces and punctuation only
    >>> check_text("Аnna Berger", "name")
    Traceback (most recent call last):
    ...
    tally.errors.Refused: name "Аnna Berger": "А" is a Cyrillic letter and "n" a Latin one: \
type the name in one script
    """
    said = {"what": Message(_WHAT.get(what, what)), "text": _shown(text)}
    if "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text):
        raise Refused(Message(NOT_UTF8, **said))
    hidden = next((ch for ch in text if _invisible(ch)), None)
    if hidden is not None:
        raise Refused(Message(INVISIBLE, code=f"{ord(hidden):04X}", **said))
    styled = next((ch for ch in text if _styled(ch)), None)
    if styled is not None:
        plain = unicodedata.normalize("NFKC", styled)
        raise Refused(Message(STYLED, letter=styled, plain=plain, **said))
    if _piled_marks(text):
        raise Refused(Message(PILED, **said))
    mixed = _mixed(text)
    if mixed is not None:
        one, other = mixed
        raise Refused(
            Message(
                MIXED,
                one=one,
                script=script(one).title(),
                other=other,
                other_script=script(other).title(),
                **said,
            )
        )


#: the longest name of a category (``tally player category``)
#: the longest name of a category (``tally player category``; the column's length)
CATEGORY_LENGTH = 40

#: what a category name may not hold: the separators of a category prize table
#: (``--category-prizes``) and of the records
_NOT_IN_CATEGORY = re.compile(r'[,;:=%"\\{}\[\]@#]')


def category_name(text: str) -> tuple[str, str]:
    """A category's name as typed (``Damen``, ``Jugend U18``, ``club members``) read as every
    name is (:func:`check_text`): spaces collapsed, at most :data:`CATEGORY_LENGTH`
    characters, at least one letter, none of ``, ; : = % " \\ { } [ ] @ #``; with its key
    (:func:`fold`: case, spaces and accents ignored), which tells two categories apart.

    >>> category_name("  Jugend   U18 "), category_name("Senioren")[1]
    (('Jugend U18', 'jugend u18'), 'senioren')
    >>> category_name("A=B")
    Traceback (most recent call last):
    ...
    tally.errors.Refused: category "A=B": a category's name cannot contain '='
    """
    check_text(text, "category")
    clean = " ".join(text.split())
    said = {"text": shown(clean)}
    if not any(ch.isalpha() for ch in clean):
        raise Refused(Message(N_("category %(text)s: a category's name needs a letter"), **said))
    if len(clean) > CATEGORY_LENGTH:
        raise Refused(
            Message(
                N_("category %(text)s: a category's name has at most %(most)s characters"),
                most=CATEGORY_LENGTH,
                **said,
            )
        )
    bad = _NOT_IN_CATEGORY.search(clean)
    if bad:
        raise Refused(
            Message(
                N_("category %(text)s: a category's name cannot contain %(char)s"),
                char=repr(bad.group(0)),
                **said,
            )
        )
    return clean, fold(clean)
