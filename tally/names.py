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
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tally.errors import NotFound, Refused

#: the largest id a database row can have (SQLite and PostgreSQL BIGINT: 2**63 - 1)
MAX_ID = 2**63 - 1

_NUMBER = re.compile(r"#?([0-9]+)")


class UnknownName(NotFound):
    """A reference that fits no player."""


class AmbiguousName(NotFound):
    """A reference that fits several players; ``candidates`` are they."""

    def __init__(self, message: str, candidates: Sequence[Candidate]) -> None:
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


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _shown(ref: str) -> str:
    """A reference for a message: one line, bytes that are not text shown as escapes."""
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
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


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


def resolve(ref: str, candidates: Iterable[Candidate], *, where: str = "") -> Candidate:
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
            f'"{shown}" matches {_join([c.label() for c in found])}{where}: '
            "say which (more of the name, the number, or an alias)",
            found,
        )
    raise UnknownName(unknown_message(ref, pool, where=where))


def unknown_message(
    ref: str, pool: Sequence[Candidate], *, where: str = "", what: str = "player"
) -> str:
    """Why ``ref`` finds nobody, with the closest names: the hint leads to the player who is
    there already, and suggests adding a player only when nobody's name is close. ``what``
    ``"event"``: the same for an event (:func:`find_event`).

    >>> unknown_message("Thursday clup", [Candidate(4, "Thursday club")], what="event")
    'there is no event "Thursday clup": did you mean Thursday club (#4)? (see `tally event list`)'
    """
    shown = _shown(ref)
    if what != "player":
        close = suggestions(ref, pool)
        if close:
            return (
                f'there is no {what} "{shown}": did you mean '
                f"{_join([c.label() for c in close])}? (see `tally {what} list`)"
            )
        return f'there is no {what} "{shown}" (see `tally {what} list`)'
    number = as_number(ref)
    if number is not None:
        digits = ref.strip().removeprefix("#")
        if len(digits) > 30:
            digits = f"{digits[:20]}... ({len(digits)} digits)"
        return (
            f"there is no player #{digits}{where} (`tally player list` shows the players' numbers)"
        )
    close = suggestions(ref, pool)
    if close:
        return (
            f'there is no player "{shown}"{where}: did you mean '
            f"{_join([c.label() for c in close])}? (`tally player list` shows every "
            "player and alias; `tally player alias NAME ALIAS` adds a name a player goes "
            "by)"
        )
    if where:
        return f'there is no player "{shown}"{where}'
    return (
        f'there is no player "{shown}" (`tally player list` shows every player and '
        'alias; to enter a new player, `tally player add "FULL NAME"`)'
    )


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
        best = max(difflib.SequenceMatcher(None, key, f).ratio() for f in forms)
        if any(key in f for f in forms[1:]):
            best = max(best, 0.9)
        if best >= 0.75:
            scored.append((-best, i, c))
    return [c for _, _, c in sorted(scored)[:limit]]


def resolve_among(ref: str, players: Sequence[Candidate], *, where: str = "") -> Candidate:
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
    names = _join([p.name for p in players])
    raise UnknownName(f'"{_shown(ref)}" does not play{where or " in this match"} ({names} do)')


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
            f'"{_shown(ref)}" matches {_join([c.label() for c in found])}: '
            "say which (more of the name, or the number)",
            found,
        )
    return found


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


def check_text(text: str, what: str) -> None:
    """Refuse text that cannot be stored or that could pass for other text: bytes that were
    not UTF-8 when typed (Python keeps them as surrogates), a NUL character, and the invisible
    format characters a name could hide behind (bidirectional controls such as U+202E, zero-
    width spaces and joiners: Unicode category Cf, which Unicode TR39 keeps out of
    identifiers). ``what`` names the input.

    >>> check_text("Café", "player")
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
    """
    if "\x00" in text or any("\ud800" <= ch <= "\udfff" for ch in text):
        raise Refused(
            f'{what} "{_shown(text)}": not UTF-8 text (set the terminal to UTF-8, '
            "or type the name again)"
        )
    hidden = next((ch for ch in text if unicodedata.category(ch) == "Cf"), None)
    if hidden is not None:
        raise Refused(
            f'{what} "{_shown(text)}": U+{ord(hidden):04X} is an invisible '
            "formatting character: type the name with letters, digits, spaces and "
            "punctuation only"
        )
