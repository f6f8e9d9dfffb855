"""Loading an event file exported as JSON (:mod:`tally.files.exporting`, ``docs/event-json.md``).

``tally load FILE.json`` runs :func:`load_paths`, which also loads event folders
(:mod:`tally.files.loading`): every path of one ``tally load`` in ONE transaction, so a file refused
at any step leaves the database exactly as it was (SQLite and PostgreSQL alike).

The file is read as defensively as a folder's files (:func:`tally.files.loading.read_text_file`):
a regular file only, at most :data:`MAX_JSON_BYTES` (an exported event of 100 players and 13
rounds kept trick by trick is about 2 MB), UTF-8. The JSON is strict: ``NaN``, ``Infinity``,
a number too large for a float, a key given twice, and nesting deeper than Python's reader
takes are refused. Every field is checked for its type and every key must be
known to this version (a misspelt key or a newer file is refused, never half read); each
refusal is one line naming the file and the place in it (``matches[3].deals[2].result``).

What is stored goes through the same store calls as the commands (``tally player add`` and
``alias``, ``tally event create``, ``round --start``, ``withdraw``, ``tally match start``,
``tally deal import`` and ``quick``), so every record is ruled by the engine and every result
checked against the rule set on the way in. Choices made where the issue is silent:

- Players are matched to the database's players by name as the store compares names
  (case, spaces and accents ignored); a name not found is added. Their aliases are added
  where missing; an alias that is another player's name or alias is refused.
- The rounds are started in the order the file lists them, each after the
  withdrawals the file puts before it (so the same matches and byes are made); the matches
  the schedule makes must be exactly the file's matches of that round (table, players, first
  dealer) and a round's bye what the file says. Withdrawals without a round come last.
- A Swiss event's, knockout's or groups event's rounds load the same way: each is paired
  by tally from the standings then, or drawn from the stored seed (or the groups' schedule
  and the bracket), and must make the file's matches and bye; the deals of a round are
  entered before the next is started. A play-off (``"playoff": true``, no round) is made
  with ``record_playoff`` at its place among the file's matches: after the rounds whose
  matches come before it, before the next round's withdrawals. An event whose results were
  corrected after a later round was made (so that round is no longer what the results give)
  is refused at that round.
- A record's ``Event``, ``Date``, ``Round`` and ``Table`` tags that repeat the match's place
  in the event are dropped (as ``tally deal edit`` does): they are written again on export.
- ``score`` and ``winner`` of a match, when given, must agree with what the engine makes of
  its deals.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NoReturn

from tally.engine.match import MATCH_RESULT
from tally.errors import LoadError, Message, TallyError, message
from tally.events.formats import FORMATS, EventFormat, Option, format_of
from tally.files.exporting import FORMAT, VERSION
from tally.files.loading import LOADED_ALREADY, MAX_FILE_BYTES, Loaded, load_event, read_text_file
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.given import GivenTable
    from tally.store.views import EventView

#: The largest event file ``tally load`` reads (32 MiB): a deal kept trick by trick takes
#: about 310 bytes of the file (measured on the bundled round robin), so an event of 100
#: players and 13 rounds of about 6 deals a match, all kept trick by trick, is about 2 MB.
MAX_JSON_BYTES: Final = 32 * 1024 * 1024

#: A refusal's place: the file, the place in it (``matches[3].players``), what is wrong
#: (no words of their own: every language says them so)
AT_FILE: Final = "%(file)s: %(message)s"
AT_PLACE: Final = "%(file)s: %(place)s: %(message)s"
NOT_JSON: Final = N_("not valid JSON: %(reason)s")
NOT_PLAYER: Final = N_('"%(player)s" is not one of the event\'s players')
NOT_STARTED: Final = N_("round %(round)s is not among the rounds started")

#: Tags of an exported record that say where its match is in the event.
CONTEXT_TAGS: Final = ("Event", "Date", "Round", "Table")


def load_paths(store: Store, paths: Sequence[Path], *, label: str = "tally load") -> list[Loaded]:
    """Load every path (an event folder, or an event file exported as JSON) into ``store``
    in ONE transaction: all are stored, or (when any is refused) none."""
    with store.transaction(label):
        return [load_event(store, p) if p.is_dir() else load_event_file(store, p) for p in paths]


class Place:
    """Where in the file a value is, for messages: ``file: matches[3].players``."""

    def __init__(self, path: Path, where: str = "") -> None:
        self.path = path
        self.where = where

    def __truediv__(self, key: str | int) -> Place:
        if isinstance(key, int):
            return Place(self.path, f"{self.where}[{key}]")
        return Place(self.path, f"{self.where}.{key}" if self.where else key)

    def fail(self, problem: str | Message) -> NoReturn:
        """Refuse the file: ``problem`` at this place."""
        raise LoadError(self.words(problem))

    def words(self, problem: str | Message) -> Message:
        """``problem`` at this place: ``file: matches[3].players: ...``."""
        if self.where:
            return Message(
                AT_PLACE, file=str(self.path), place=self.where, message=message(problem)
            )
        return Message(AT_FILE, file=str(self.path), message=message(problem))


class _Strict(ValueError):
    """What strict JSON refuses (its words a :class:`Message`)."""

    def __init__(self, words: Message) -> None:
        super().__init__(str(words))
        self.wording = words


def _reject_constant(name: str) -> NoReturn:
    raise _Strict(Message(N_("%(name)s is not a number in strict JSON"), name=name))


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Strict(Message(N_("%(number)s is too large a number"), number=text[:20]))
    return value


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Strict(
                Message(N_('the key "%(key)s" is given twice in one object'), key=key[:40])
            )
        out[key] = value
    return out


def read_json(path: Path, limit: int | None = None) -> Any:
    """The strict JSON of file ``path``, at most ``limit`` bytes (:data:`MAX_JSON_BYTES` by
    default; see the module docstring); :class:`LoadError` naming the file (and the line and
    column, for a syntax error) otherwise."""
    text = read_text_file(path, limit=MAX_JSON_BYTES if limit is None else limit)
    try:
        return json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_float,
            object_pairs_hook=_no_duplicates,
        )
    except json.JSONDecodeError as exc:
        where = Message(
            N_("%(reason)s (line %(line)s, column %(column)s)"),
            reason=exc.msg,
            line=exc.lineno,
            column=exc.colno,
        )
        Place(path).fail(Message(NOT_JSON, reason=where))
    except RecursionError:
        Place(path).fail(Message(NOT_JSON, reason=Message(N_("nested too deeply"))))
    except _Strict as exc:
        Place(path).fail(Message(NOT_JSON, reason=exc.wording))
    except ValueError as exc:  # an integer of thousands of digits
        Place(path).fail(Message(NOT_JSON, reason=str(exc)))


# --- checking the document -------------------------------------------------------------------


def _object(
    value: Any, at: Place, required: Sequence[str], optional: Sequence[str] = ()
) -> dict[str, Any]:
    if not isinstance(value, dict):
        at.fail(N_("must be an object ({...})"))
    for key in value:
        if key not in required and key not in optional:
            at.fail(
                Message(
                    N_('unknown key "%(key)s" (known: %(known)s)'),
                    key=str(key)[:40],
                    known=", ".join([*required, *optional]),
                )
            )
    for key in required:
        if key not in value:
            at.fail(Message(N_('"%(key)s" is missing'), key=key))
    return value


def _text(value: Any, at: Place, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not empty and not value.strip()):
        at.fail(N_("must be a text") if empty else N_("must be a text, not empty"))
    return value


def _maybe_text(value: Any, at: Place) -> str | None:
    return None if value is None else _text(value, at)


def _whole(value: Any, at: Place, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        at.fail(Message(N_("must be a whole number from %(low)s to %(high)s"), low=low, high=high))
    return value


def _maybe_whole(value: Any, at: Place, low: int, high: int) -> int | None:
    return None if value is None else _whole(value, at, low, high)


def _list(value: Any, at: Place, item: Callable[[Any, Place], Any]) -> list[Any]:
    if not isinstance(value, list):
        at.fail(N_("must be a list ([...])"))
    return [item(v, at / i) for i, v in enumerate(value)]


@dataclass(frozen=True)
class _Deal:
    record: str | None
    result: tuple[str | None, int, str] | None


@dataclass(frozen=True)
class _Match:
    at: Place
    round: int | None
    table: int | None
    players: tuple[str, str]
    first_dealer: str
    deals: list[_Deal]
    score: dict[str, int] | None
    winner: str | None
    has_winner: bool
    playoff: bool | None = None


def _deal(value: Any, at: Place) -> _Deal:
    if isinstance(value, dict) and len(value) != 1:
        at.fail(N_('a deal is {"record": ...} or {"result": ...}, one of the two'))
    d = _object(value, at, (), ("record", "result"))
    if not d:
        at.fail(N_('a deal is {"record": ...} or {"result": ...}'))
    if "record" in d:
        text = _text(d["record"], at / "record")
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:
            (at / "record").fail(
                Message(
                    N_("larger than %(limit)s bytes, more than any real record"),
                    limit=f"{MAX_FILE_BYTES:,}",
                )
            )
        return _Deal(text, None)
    where = at / "result"
    r = _object(d["result"], where, ("winner", "points", "reason"))
    return _Deal(
        None,
        (
            _maybe_text(r["winner"], where / "winner"),
            _whole(r["points"], where / "points", 0, 999),
            _text(r["reason"], where / "reason"),
        ),
    )


def _match(value: Any, at: Place) -> _Match:
    m = _object(
        value,
        at,
        ("players", "first_dealer", "deals"),
        ("round", "table", "playoff", "score", "winner"),
    )
    pair = _list(m["players"], at / "players", _text)
    if len(pair) != 2:
        (at / "players").fail(N_("a match has two players"))
    score: dict[str, int] | None = None
    if m.get("score") is not None:
        raw = _object(m["score"], at / "score", (), tuple(pair))
        score = {k: _whole(v, at / "score" / k, 0, 10**6) for k, v in raw.items()}
    return _Match(
        at,
        _maybe_whole(m.get("round"), at / "round", 1, 10_000),
        _maybe_whole(m.get("table"), at / "table", 1, 10_000),
        (pair[0], pair[1]),
        _text(m["first_dealer"], at / "first_dealer"),
        _list(m["deals"], at / "deals", _deal),
        score,
        _maybe_text(m.get("winner"), at / "winner"),
        "winner" in m,
        None if m.get("playoff") is None else _bool(m["playoff"], at / "playoff"),
    )


def _bool(value: Any, at: Place) -> bool:
    if not isinstance(value, bool):
        at.fail(N_("must be true or false"))
    return value


@dataclass(frozen=True)
class _Document:
    name: str
    kind: str
    date: date | None
    rules: str
    settings: dict[str, Any]
    players: list[tuple[str, list[str]]]
    joined: dict[str, int]
    rounds: list[tuple[int, str | None, bool]]
    withdrawals: list[tuple[str, int | None]]
    matches: list[_Match]
    #: what each player was seeded by (``seed_rating``: an event seeded by rating), by name
    seed_ratings: dict[str, float | None] = field(default_factory=dict)
    #: the categories of the players (``tally player category``), by name
    categories: dict[str, list[str]] = field(default_factory=dict)
    #: the money of ``tally event prizes``, as its keyword arguments of ``set_money``
    prizes: dict[str, Any] = field(default_factory=dict)
    #: the buy-backs made: player, the round after which, the fee (cents), where in the file
    buy_backs: list[tuple[str, int, int, Place]] = field(default_factory=list)
    #: the absences announced (a requested bye): player, round, where in the file
    absences: list[tuple[str, int, Place]] = field(default_factory=list)
    #: the no-shows (a one-round forfeit): player, round, where in the file
    no_shows: list[tuple[str, int, Place]] = field(default_factory=list)
    #: the treasurer's desk: player, here, paid, extra fees, paid out (cents), where
    desk: list[tuple[str, bool, int, int, int, Place]] = field(default_factory=list)
    #: only players checked in are paired (``tally event checkin --required``)
    check_in: bool = False
    #: the swaps the director made in each round: round -> (player, player, where)
    swaps: dict[int, list[tuple[str, str, Place]]] = field(default_factory=dict)
    #: the rounds kept as they were made, started with the file's pairings (``"given"``)
    given: set[int] = field(default_factory=set)
    #: what a round kept as made seeded: round -> (the bracket's slots by name, or None;
    #: whether it started the play-off)
    seeded: dict[int, tuple[list[str | None] | None, bool]] = field(default_factory=dict)
    #: the pairs kept apart as they changed: after which round, player, player, no longer
    #: (``undo``), where in the file
    apart: list[tuple[int, str, str, bool, Place]] = field(default_factory=list)
    #: a team event's teams by name, in order (their players are the entries, team after
    #: team: :mod:`tally.events.formats.team`)
    teams: list[str] = field(default_factory=list)

    @property
    def format(self) -> EventFormat:
        return format_of(self.kind)


_TOP_REQUIRED = ("format", "version", "name", "kind", "players", "matches")
_TOP_OPTIONAL = (
    "date",
    "rules",
    "match_points_per_win",
    "bye",
    "withdrawal",
    "tiebreaks",
    "rank_by",
    "language",
    "options",
    "rounds",
    "withdrawals",
    "prizes",
    "buy_backs",
    "absences",
    "no_shows",
    "apart",
    "desk",
    "check_in",
    "teams",
)
#: the keys of ``prizes`` -> (the keyword of ``set_money``, money in euros or a whole number)
_PRIZE_KEYS: Final = {
    "entry_fee": ("entry_fee", "money"),
    "prizes": ("shares", "text"),
    "round_to": ("unit", "money"),
    "buy_back_until": ("buy_back_until", "whole"),
    "buy_back_fee": ("buy_back_fee", "money"),
    "buy_backs": ("buy_backs", "whole"),
    "buy_back_at_once": ("buy_back_at_once", "flag"),
    "category_prizes": ("category_prizes", "texts"),
}
#: the options every event may have (the store refuses them where they do not apply)
_EVERY_EVENTS_OPTIONS: Final = ("unplayed", "seed_by", "absence_score")


def _option(option: Option, value: Any, at: Place) -> Any:
    """A format's option as the file gives it, checked for its type and rough range (the
    range checks proper are the store's)."""
    if option.type == "bool":
        return _bool(value, at)
    if option.type == "whole":
        whole = _maybe_whole if option.optional else _whole
        return whole(value, at, option.low, option.high)
    return _maybe_text(value, at) if option.optional else _text(value, at)


def _settings(d: dict[str, Any], kind: str, top: Place) -> dict[str, Any]:
    """The event's settings from the file's fields (its options by kind, match points, bye,
    withdrawal, ranking, language, tiebreaks), each checked for its type."""
    settings: dict[str, Any] = {}
    mine = format_of(kind).options
    options = _object(
        d.get("options", {}), top / "options", (), (*(o.key for o in mine), *_EVERY_EVENTS_OPTIONS)
    )
    for option in mine:
        if option.key in options:
            settings[option.argument] = _option(
                option, options[option.key], top / "options" / option.key
            )
    for key in _EVERY_EVENTS_OPTIONS:
        if key in options:
            settings[key] = _text(options[key], top / "options" / key)
    if "match_points_per_win" in d:
        value = d["match_points_per_win"]
        if isinstance(value, bool) or not isinstance(value, int | float):
            (top / "match_points_per_win").fail(N_("must be a number"))
        settings["match_points_per_win"] = value
    for key in ("bye", "withdrawal", "rank_by"):
        if key in d:
            settings[key] = _text(d[key], top / key)
    if d.get("language", "") != "":  # "": no language of its own (the locale decides)
        settings["language"] = _text(d["language"], top / "language")
    if "tiebreaks" in d:
        settings["tiebreaks"] = _list(d["tiebreaks"], top / "tiebreaks", _text)
    return settings


def _held_on(d: dict[str, Any], top: Place) -> date | None:
    """The event's day from the file's ``date`` (``YYYY-MM-DD``), if it gives one."""
    if d.get("date") is None:
        return None
    text = _text(d["date"], top / "date")
    try:
        held_on = date.fromisoformat(text)
    except ValueError:
        (top / "date").fail(
            Message(N_('must be a day, YYYY-MM-DD, not "%(text)s"'), text=text[:40])
        )
    if len(text) != 10:
        (top / "date").fail(
            Message(N_('must be a day, YYYY-MM-DD, not "%(text)s"'), text=text[:40])
        )
    return held_on


def _document(data: Any, top: Place) -> _Document:
    """The event file's fields, each checked for its type (not yet for its meaning)."""
    d, kind = _head(data, top)
    settings = _settings(d, kind, top)
    held_on = _held_on(d, top)
    name = _text(d["name"], top / "name")
    rules = _text(d.get("rules", "sixty-six"), top / "rules")
    categories: dict[str, list[str]] = {}
    players, joined, seed_ratings = _players_listed(d, kind, top, categories)
    rounds = _Rounds()
    return _Document(
        name=name,
        kind=kind,
        date=held_on,
        rules=rules,
        settings=settings,
        players=players,
        joined=joined,
        rounds=_list(d.get("rounds", []), top / "rounds", rounds.read),
        withdrawals=_list(d.get("withdrawals", []), top / "withdrawals", _withdrawal),
        matches=_list(d["matches"], top / "matches", _match),
        seed_ratings=seed_ratings,
        categories=categories,
        prizes=_prizes(d.get("prizes", {}), top / "prizes"),
        buy_backs=_list(d.get("buy_backs", []), top / "buy_backs", _buy_back),
        absences=_list(d.get("absences", []), top / "absences", _absence),
        no_shows=_list(d.get("no_shows", []), top / "no_shows", _absence),
        swaps=rounds.swaps,
        given=rounds.given,
        seeded=rounds.seeded,
        apart=_list(d.get("apart", []), top / "apart", _apart),
        desk=_list(d.get("desk", []), top / "desk", _desk_row),
        check_in=_bool(d.get("check_in", False), top / "check_in"),
        teams=_list(d.get("teams", []), top / "teams", _team_name),
    )


def _team_name(value: Any, at: Place) -> str:
    """A team of a team event's file: ``{"name": ..., "players": [...]}`` (its players are
    the entries: they are read there)."""
    found = _object(value, at, ("name",), ("players",))
    return _text(found["name"], at / "name")


def _head(data: Any, top: Place) -> tuple[dict[str, Any], str]:
    """The file as an object of the keys an event file has, and its kind: refused unless it
    is a tally event file of this version and of a kind this tally loads."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        top.fail(
            Message(
                N_('not a tally event file (it is a JSON object with "format": "%(format)s")'),
                format=FORMAT,
            )
        )
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > VERSION:
        top.fail(
            Message(
                N_("written by a newer tally (event file version %(version)s); this tally "
                   "reads version %(known)s"),
                version=version,
                known=VERSION,
            )
        )  # fmt: skip
    if version != VERSION or isinstance(version, bool):
        (top / "version").fail(Message(N_("must be %(version)s"), version=VERSION))
    d = _object(data, top, _TOP_REQUIRED, _TOP_OPTIONAL)
    kind = _text(d["kind"], top / "kind")
    if kind not in FORMATS:
        (top / "kind").fail(
            Message(
                N_('"%(kind)s" is not a kind of event this tally loads (%(kinds)s)'),
                kind=kind[:40],
                kinds=", ".join(FORMATS),
            )
        )
    return d, kind


def _players_listed(
    d: dict[str, Any], kind: str, top: Place, categories: dict[str, list[str]]
) -> tuple[list[tuple[str, list[str]]], dict[str, int], dict[str, float | None]]:
    """The file's players (name, aliases), in order; who joined after which round (a late
    entry); and what each player was seeded by (``seed_rating``), by name; their categories
    go into ``categories``, by name."""
    joined: dict[str, int] = {}
    seed_ratings: dict[str, float | None] = {}

    def player(value: Any, at: Place) -> tuple[str, list[str]]:
        if isinstance(value, str):
            return _text(value, at), []
        p = _object(
            value, at, ("name",), ("aliases", "joined_after_round", "seed_rating", "categories")
        )
        name = _text(p["name"], at / "name")
        if p.get("categories"):
            categories[name] = _list(p["categories"], at / "categories", _text)
        if "seed_rating" in p:
            seed_ratings[name] = _maybe_number(p["seed_rating"], at / "seed_rating")
        if p.get("joined_after_round") is not None:
            if not format_of(kind).takes_late_entries:
                (at / "joined_after_round").fail(
                    N_("only a Swiss event or knockout takes players after a round")
                )
            joined[name] = _whole(p["joined_after_round"], at / "joined_after_round", 1, 10_000)
        return name, _list(p.get("aliases", []), at / "aliases", _text)

    return _list(d["players"], top / "players", player), joined, seed_ratings


@dataclass
class _Rounds:
    """The file's rounds as they are read (:meth:`read`, one each), and what they say
    besides their number and bye: the swaps made in each, the rounds kept as made, what
    such a round seeded."""

    swaps: dict[int, list[tuple[str, str, Place]]] = field(default_factory=dict)
    given: set[int] = field(default_factory=set)
    seeded: dict[int, tuple[list[str | None] | None, bool]] = field(default_factory=dict)

    def read(self, value: Any, at: Place) -> tuple[int, str | None, bool]:
        """One round: its number, its bye and whether the file gives one."""
        r = _object(value, at, ("round",), ("bye", "swaps", "given", "bracket", "playoff"))
        number = _whole(r["round"], at / "round", 1, 10_000)
        if "given" in r and _bool(r["given"], at / "given"):
            self.given.add(number)
        if "bracket" in r or "playoff" in r:
            self.seeded[number] = (
                _list(r["bracket"], at / "bracket", _maybe_text) if "bracket" in r else None,
                _bool(r.get("playoff", False), at / "playoff"),
            )
        if "swaps" in r:
            self.swaps[number] = _list(r["swaps"], at / "swaps", _two_players)
        return number, _maybe_text(r.get("bye"), at / "bye"), "bye" in r


def _withdrawal(value: Any, at: Place) -> tuple[str, int | None]:
    """A withdrawal: the player and the round it came before (None: after the last)."""
    w = _object(value, at, ("player",), ("before_round",))
    return (
        _text(w["player"], at / "player"),
        _maybe_whole(w.get("before_round"), at / "before_round", 1, 10_000),
    )


def _two_players(value: Any, at: Place) -> tuple[str, str, Place]:
    pair = _list(value, at, _text)
    if len(pair) != 2:
        at.fail(N_("two players"))
    return pair[0], pair[1], at


def _apart(value: Any, at: Place) -> tuple[int, str, str, bool, Place]:
    a = _object(value, at, ("players", "after_round"), ("undo",))
    first, second, _ = _two_players(a["players"], at / "players")
    undo = _bool(a["undo"], at / "undo") if "undo" in a else False
    return _whole(a["after_round"], at / "after_round", 0, 10_000), first, second, undo, at


def _maybe_number(value: Any, at: Place) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        at.fail(N_("must be a number or null"))
    return float(value)


def _euros(value: Any, at: Place) -> int:
    """An amount in euros (a number, at most 2 decimals) in cents."""
    from tally.events.prizes import parse_money

    if isinstance(value, bool) or not isinstance(value, int | float):
        at.fail(N_("must be an amount in euros (a number such as 10 or 7.5)"))
    try:
        return parse_money(repr(value), "an amount")
    except TallyError as exc:
        at.fail(exc.wording)


def _prizes(value: Any, at: Place) -> dict[str, Any]:
    """``prizes``: the keyword arguments of ``store.prizes.set_money``."""
    d = _object(value, at, (), tuple(_PRIZE_KEYS))
    out: dict[str, Any] = {}
    for key, given in d.items():
        keyword, kind = _PRIZE_KEYS[key]
        if kind == "money":
            out[keyword] = _euros(given, at / key)
        elif kind == "text":
            out[keyword] = _text(given, at / key)
        elif kind == "flag":
            out[keyword] = _bool(given, at / key)
        elif kind == "texts":
            out[keyword] = _list(given, at / key, _text)
        else:
            out[keyword] = _whole(given, at / key, 1, 10_000)
    return out


def _absence(value: Any, at: Place) -> tuple[str, int, Place]:
    a = _object(value, at, ("player", "round"))
    return _text(a["player"], at / "player"), _whole(a["round"], at / "round", 1, 10_000), at


def _announce(
    store: Store, ev: EventView, doc: _Document, ref: Callable[[str], str], number: int | None
) -> None:
    """Announce the file's absences from round ``number`` (None: from the rounds the file
    does not start), before that round is paired, as ``tally event absent`` does."""

    started = {n for n, _bye, _given in doc.rounds}
    for player, n, at in doc.absences:
        if n == number or (number is None and n not in started):
            try:
                store.absences.announce(ev.id, ref(player), n)
            except KeyError:
                (at / "player").fail(Message(NOT_PLAYER, player=player))
            except TallyError as exc:
                at.fail(exc.wording)


def _no_shows(
    store: Store, ev: EventView, doc: _Document, ref: Callable[[str], str], number: int
) -> None:
    """Record the file's no-shows in round ``number`` once it has started, before its
    deals, as ``tally event forfeit`` does."""

    for player, n, at in doc.no_shows:
        if n == number:
            try:
                store.no_shows.record(ev.id, n, ref(player))
            except KeyError:
                (at / "player").fail(Message(NOT_PLAYER, player=player))
            except TallyError as exc:
                at.fail(exc.wording)


def _keep_apart(
    store: Store, ev: EventView, doc: _Document, after: int, ref: Callable[[str], str]
) -> None:
    """Keep apart (or no longer) the file's pairs that changed after round ``after`` (0:
    before the first round), as ``tally event apart`` does."""

    for when, first, second, undo, at in doc.apart:
        if when == after:
            try:
                store.pairings.keep_apart(ev.id, ref(first), ref(second), undo=undo)
            except KeyError:
                (at / "players").fail(N_("names a player who is not one of the event's"))
            except TallyError as exc:
                at.fail(exc.wording)


def _buy_back(value: Any, at: Place) -> tuple[str, int, int, Place]:
    b = _object(value, at, ("player", "after_round", "fee"))
    return (
        _text(b["player"], at / "player"),
        _whole(b["after_round"], at / "after_round", 0, 10_000),
        _euros(b["fee"], at / "fee"),
        at,
    )


def _desk_row(value: Any, at: Place) -> tuple[str, bool, int, int, int, Place]:
    b = _object(value, at, ("player",), ("present", "paid", "extra", "paid_out"))
    return (
        _text(b["player"], at / "player"),
        _bool(b.get("present", False), at / "present"),
        _euros(b.get("paid", 0), at / "paid"),
        _euros(b.get("extra", 0), at / "extra"),
        _euros(b.get("paid_out", 0), at / "paid_out"),
        at,
    )


def _check_meaning(doc: _Document, top: Place) -> None:
    """What the types cannot say: names listed once and known, rounds and tables where the
    kind needs them, withdrawals once each and before a listed round."""
    seen = _check_players(doc, top)
    numbers = _check_rounds(doc, top, seen)
    _check_withdrawals(doc, top, seen, numbers)
    _check_buy_backs(doc, seen, numbers)
    for m in doc.matches:
        _check_match(doc, m, seen, numbers)


def _check_players(doc: _Document, top: Place) -> set[str]:
    """Each player listed once, late entries after a round listed and in the order they
    joined. The players' names, folded."""
    from tally.names import fold

    seen: set[str] = set()
    for i, (name, _aliases) in enumerate(doc.players):
        if fold(name) in seen:
            (top / "players" / i).fail(Message(N_('"%(name)s" is listed twice'), name=name))
        seen.add(fold(name))
    numbers = [r for r, _bye, _given in doc.rounds]
    late = 0
    for i, (name, _aliases) in enumerate(doc.players):
        after = doc.joined.get(name, 0)
        if after and after not in numbers and doc.rounds:
            (top / "players" / i / "joined_after_round").fail(Message(NOT_STARTED, round=after))
        place = numbers.index(after) + 1 if after in numbers else 0
        if place < late:
            (top / "players" / i).fail(
                N_("the players are listed in the order they joined (seed order)")
            )
        late = place
    return seen


def _check_rounds(doc: _Document, top: Place, seen: set[str]) -> list[int]:
    """Each round listed once, its bye one of the players (``seen``), rounds only where the
    kind has them (a Swiss event's from 1 without a gap). The rounds' numbers, in order."""
    from tally.names import fold

    numbers = [r for r, _bye, _given in doc.rounds]
    for i, (number, bye, _given) in enumerate(doc.rounds):
        if numbers.index(number) != i:
            (top / "rounds" / i).fail(Message(N_("round %(round)s is listed twice"), round=number))
        if bye is not None and fold(bye) not in seen:
            (top / "rounds" / i / "bye").fail(Message(NOT_PLAYER, player=bye))
    if not doc.format.has_rounds and doc.rounds:
        (top / "rounds").fail(N_("a club evening has no rounds"))
    if doc.format.pairs_from_standings and sorted(numbers) != list(range(1, len(numbers) + 1)):
        (top / "rounds").fail(N_("a Swiss event's rounds are paired from 1 without a gap"))
    return numbers


def _check_withdrawals(doc: _Document, top: Place, seen: set[str], numbers: list[int]) -> None:
    """Each withdrawal of one of the players (``seen``), once, before a round listed."""
    from tally.names import fold

    gone: set[str] = set()
    for i, (name, before) in enumerate(doc.withdrawals):
        at = top / "withdrawals" / i
        if fold(name) not in seen:
            (at / "player").fail(Message(NOT_PLAYER, player=name))
        if fold(name) in gone:
            (at / "player").fail(Message(N_('"%(name)s" withdraws twice'), name=name))
        gone.add(fold(name))
        if before is not None and before not in numbers:
            (at / "before_round").fail(Message(NOT_STARTED, round=before))


def _check_match(doc: _Document, m: _Match, seen: set[str], numbers: list[int]) -> None:
    """A match of two of the players (``seen``), its first dealer one of them, with a round
    and a table where the kind has them (a play-off without), in a round listed."""
    from tally.names import fold

    for k, name in enumerate(m.players):
        if fold(name) not in seen:
            (m.at / "players" / k).fail(Message(NOT_PLAYER, player=name))
    if fold(m.first_dealer) not in {fold(p) for p in m.players}:
        (m.at / "first_dealer").fail(
            Message(N_('"%(player)s" does not play in this match'), player=m.first_dealer)
        )
    if not doc.format.has_rounds and (m.round is not None or m.table is not None):
        m.at.fail(N_("a club evening's match has no round or table"))
    if m.playoff is not None and not doc.format.ranks_by_elimination:
        (m.at / "playoff").fail(N_("only a knockout or groups event has play-offs"))
    if m.playoff:
        if m.round is not None or m.table is not None:
            m.at.fail(N_("a play-off has no round or table"))
    elif doc.format.has_rounds:
        if m.round is None or m.table is None:
            m.at.fail(
                Message(
                    N_('a match of a %(kind)s event has a round and a table (a play-off: '
                       '"playoff": true)')
                    if doc.format.ranks_by_elimination
                    else N_("a match of a %(kind)s event has a round and a table"),
                    kind=doc.kind,
                )
            )  # fmt: skip
        if m.round not in numbers and doc.rounds:
            (m.at / "round").fail(Message(NOT_STARTED, round=m.round))


def _check_buy_backs(doc: _Document, seen: set[str], numbers: list[int]) -> None:
    """Each buy-back names one of the players (``seen``: folded) and a round started; each
    change of a pair kept apart a round started (or 0)."""
    from tally.names import fold

    for name, after, _fee, at in doc.buy_backs:
        if fold(name) not in seen:
            (at / "player").fail(Message(NOT_PLAYER, player=name))
        if after not in numbers:
            (at / "after_round").fail(Message(NOT_STARTED, round=after))
    for after, _first, _second, _undo, at in doc.apart:
        if after and after not in numbers:
            (at / "after_round").fail(Message(NOT_STARTED, round=after))


# --- storing -----------------------------------------------------------------------------------


def load_event_file(store: Store, path: Path) -> Loaded:
    """Load the event kept in the JSON event file ``path`` (see the module docstring).

    Called on its own, each stored step commits by itself; :func:`load_paths` (what ``tally
    load`` runs) makes the whole load one transaction."""
    from tally.names import fold

    _refuse_other_files(path)
    top = Place(path)
    doc = _document(read_json(path), top)
    _check_meaning(doc, top)
    if doc.format.has_rounds and not doc.rounds:
        doc = _rounds_from_matches(doc)
    refuse_loaded_name(store, doc.name, top / "name")
    ids = _players(store, doc, top)

    def ref(name: str) -> str:
        return f"#{ids[fold(name)][0]}"

    try:
        ev = store.events.create(
            doc.name,
            kind=doc.kind,
            held_on=doc.date,
            rules=doc.rules,
            players=[ref(name) for name, _aliases in doc.players if name not in doc.joined],
            team_names=doc.teams,
            **doc.settings,
        )
    except TallyError as exc:
        top.fail(exc.wording)
    _seed(store, ev, doc, ids, top)
    _set_money(store, ev, doc, top, buy_back=True)
    _keep_apart(store, ev, doc, 0, ref)
    if not doc.format.has_rounds:
        recorded, quick = _club_matches(store, ev, doc, ids, ref)
    else:
        recorded, quick = _rounds_in_order(store, ev, doc, ids, ref, top)
    _withdraw(store, ev, doc, None, ref, top)
    _set_money(store, ev, doc, top, buy_back=False)
    _at_the_desk(store, ev, doc, ref, top)

    return Loaded(store.events.get(ev.id), len(doc.matches), recorded, quick)


def _seed(
    store: Store, ev: EventView, doc: _Document, ids: dict[str, tuple[int, str]], top: Place
) -> None:
    """Fix the seeding of an event seeded by rating as the file says (each player's
    ``seed_rating``, missing: unrated) when the file gives ratings or rounds; otherwise it
    is fixed by the ratings of this database when its first round is started."""
    from tally.names import fold

    if ev.seed_by != "rating" or not (doc.seed_ratings or doc.rounds):
        return
    ratings = {ids[fold(name)][0]: doc.seed_ratings.get(name) for name, _ in doc.players}
    try:
        store.seeding.fix(ev.id, ratings)
    except TallyError as exc:
        (top / "players").fail(exc.wording)


#: the settings of ``prizes`` a buy-back needs before the rounds are played
_BUY_BACK_SETTINGS: Final = ("buy_back_until", "buy_back_fee", "buy_backs", "buy_back_at_once")


def _set_money(store: Store, ev: EventView, doc: _Document, top: Place, *, buy_back: bool) -> None:
    """Set the file's ``prizes``: the buy-back settings before the rounds (``buy_back``),
    the entry fee and prize table after them (when every player is in)."""

    given = {k: v for k, v in doc.prizes.items() if (k in _BUY_BACK_SETTINGS) == buy_back}
    if not given:
        return
    try:
        store.prizes.set_money(ev.id, **given)
    except TallyError as exc:
        (top / "prizes").fail(exc.wording)


def _buy_backs(
    store: Store, ev: EventView, doc: _Document, after: int, ref: Callable[[str], str]
) -> None:
    """The file's buy-backs made after round ``after``, each at the fee the file says."""

    for name, when, fee, at in doc.buy_backs:
        if when == after:
            try:
                store.prizes.buy_back(ev.id, ref(name), fee=fee)
            except TallyError as exc:
                at.fail(exc.wording)


def _at_the_desk(
    store: Store, ev: EventView, doc: _Document, ref: Callable[[str], str], top: Place
) -> None:
    """The file's treasurer's desk, once the rounds are played (``tally event checkin``), and
    whether only players checked in are paired."""
    from tally.store.treasurer import Desk

    for name, present, paid, extra, paid_out, at in doc.desk:
        try:
            store.treasurer.check_in(ev.id, ref(name), Desk(present, paid, False, extra, paid_out))
        except KeyError:
            (at / "player").fail(Message(NOT_PLAYER, player=name))
        except TallyError as exc:
            at.fail(exc.wording)
    if doc.check_in:
        store.treasurer.require(ev.id, True)


def refuse_loaded_name(store: Store, name: str, at: Place) -> None:
    """Refuse a file's event whose name (as the store compares names) an event has already:
    the same file loaded twice."""
    from tally.names import fold

    if any(fold(e.name) == fold(name) for e in store.events.all()):
        at.fail(Message(LOADED_ALREADY, name=name))


def _refuse_other_files(path: Path) -> None:
    """Refuse an ``event.toml`` (its folder is loaded instead) and a CSV export (not read
    back), saying what to load."""
    if path.name.lower().endswith(".toml"):
        Place(path).fail(
            Message(
                N_("an event kept as files is loaded by its folder: tally load %(folder)s"),
                folder=path.parent,
            )
        )
    if path.suffix.lower() == ".csv":
        Place(path).fail(
            N_(
                "a CSV export is for spreadsheets and is not read back (it has no records, "
                "settings or withdrawals): load the event's JSON export (tally event export "
                "EVENT --format json)"
            )
        )


def _club_matches(
    store: Store,
    ev: EventView,
    doc: _Document,
    ids: dict[str, tuple[int, str]],
    ref: Callable[[str], str],
) -> tuple[int, int]:
    """Start a club evening's matches in the file's order and enter their deals.
    (recorded, quick) counts."""
    recorded = quick = 0
    for m in doc.matches:
        try:
            match_id = store.matches.start(
                ref(m.players[0]), ref(m.players[1]), first_dealer=ref(m.first_dealer), event=ev.id
            ).id
        except TallyError as exc:
            m.at.fail(exc.wording)
        r, q = _deals(store, ev, match_id, m, ids)
        recorded, quick = recorded + r, quick + q
    return recorded, quick


def _rounds_in_order(
    store: Store,
    ev: EventView,
    doc: _Document,
    ids: dict[str, tuple[int, str]],
    ref: Callable[[str], str],
    top: Place,
) -> tuple[int, int]:
    """Start the file's rounds in the order it lists them and enter their deals (module
    docstring): before each round, the play-offs listed before its matches, the pairs kept
    apart after the round before and the withdrawals before it; the late entries after a
    round once it has started, before its deals; then the play-offs left. (recorded, quick)
    counts."""
    recorded = quick = 0
    playoffs = [(i, m) for i, m in enumerate(doc.matches) if m.round is None]
    for j, (number, bye, bye_given) in enumerate(doc.rounds):
        later = {n for n, _bye, _given in doc.rounds[j:]}
        place = min(
            (i for i, m in enumerate(doc.matches) if m.round in later), default=len(doc.matches)
        )
        while playoffs and playoffs[0][0] < place:
            r, q = _playoff(store, ev, playoffs.pop(0)[1], ids)
            recorded, quick = recorded + r, quick + q
        if j:
            _keep_apart(store, ev, doc, doc.rounds[j - 1][0], ref)
        _withdraw(store, ev, doc, number, ref, top)
        _announce(store, ev, doc, ref, number)
        made = _start_round(store, ev, doc, number, bye, bye_given, ids, top)
        # a late entry after this round joined once it had started, before its results
        # (a knockout takes them until its first player is out)
        _join(store, ev, doc, number, ref, top)
        _no_shows(store, ev, doc, ref, number)
        r, q = _fill_round(store, ev, made, ids)
        recorded, quick = recorded + r, quick + q
        _buy_backs(store, ev, doc, number, ref)
    for _i, m in playoffs:
        r, q = _playoff(store, ev, m, ids)
        recorded, quick = recorded + r, quick + q
    if doc.rounds:
        _keep_apart(store, ev, doc, doc.rounds[-1][0], ref)
    _announce(store, ev, doc, ref, None)
    return recorded, quick


def _playoff(
    store: Store, ev: EventView, m: _Match, ids: dict[str, tuple[int, str]]
) -> tuple[int, int]:
    """Make play-off ``m`` as ``tally event playoff`` does (refused unless its players are
    tied then) and enter its deals."""
    from tally.names import fold

    a, b, dealer = (f"#{ids[fold(name)][0]}" for name in (*m.players, m.first_dealer))
    try:
        match_id = store.knockouts.record_playoff(ev.id, a, b, first_dealer=dealer)
    except TallyError as exc:
        m.at.fail(exc.wording)
    return _deals(store, ev, match_id, m, ids)


def _rounds_from_matches(doc: _Document) -> _Document:
    """An event with rounds written without ``rounds``: its matches' rounds, in order, byes
    not checked."""
    from dataclasses import replace

    numbers = sorted({m.round for m in doc.matches if m.round is not None})
    return replace(doc, rounds=[(n, None, False) for n in numbers])


def _players(store: Store, doc: _Document, top: Place) -> dict[str, tuple[int, str]]:
    """The file's players found or added in the store, with their aliases and the categories
    they are not in yet: folded name -> (number, name as stored)."""
    from tally.names import fold

    ids = find_or_add_players(store, doc.players, top)
    for i, (name, _aliases) in enumerate(doc.players):
        given = doc.categories.get(name)
        if not given:
            continue
        pid = ids[fold(name)][0]
        have = {fold(c) for c in store.players.get(f"#{pid}").categories}
        missing = [c for c in dict.fromkeys(given) if fold(c) not in have]
        try:
            if missing:
                store.players.set_categories(f"#{pid}", missing)
        except TallyError as exc:
            (top / "players" / i / "categories").fail(exc.wording)
    return ids


def find_or_add_players(
    store: Store, players: Sequence[tuple[str, list[str]]], top: Place
) -> dict[str, tuple[int, str]]:
    """``players`` (name, aliases) of a file found in the store by name as the store compares
    names (case, spaces and accents ignored) or added, with their aliases: folded name ->
    (number, name as stored). A refusal names ``top / "players" / i``."""
    from tally.names import fold

    known = {fold(p.name): p for p in store.players.all()}
    ids: dict[str, tuple[int, str]] = {}
    for i, (name, aliases) in enumerate(players):
        at = top / "players" / i
        found = known.get(fold(name))
        try:
            if found is None:
                found = store.players.add(name)
            have = {fold(a) for a in found.aliases}
            for alias in aliases:
                if fold(alias) not in have:
                    store.players.add_alias(f"#{found.id}", alias)
                    have.add(fold(alias))
        except TallyError as exc:
            at.fail(exc.wording)
        ids[fold(name)] = (found.id, found.name)
    return ids


def _join(
    store: Store, ev: EventView, doc: _Document, after: int, ref: Callable[[str], str], top: Place
) -> None:
    """Add the file's players who joined after round ``after`` (a late entry)."""

    for i, (name, _aliases) in enumerate(doc.players):
        if doc.joined.get(name) == after:
            try:
                store.events.add_players(ev.id, [ref(name)])
            except TallyError as exc:
                (top / "players" / i / "joined_after_round").fail(exc.wording)


def _withdraw(
    store: Store,
    ev: EventView,
    doc: _Document,
    before: int | None,
    ref: Callable[[str], str],
    top: Place,
) -> None:
    """The file's withdrawals that come before round ``before`` (None: after the last)."""

    for i, (name, when) in enumerate(doc.withdrawals):
        if when == before:
            try:
                store.events.withdraw(ev.id, ref(name))
            except TallyError as exc:
                (top / "withdrawals" / i).fail(exc.wording)


def _start_round(
    store: Store,
    ev: EventView,
    doc: _Document,
    number: int,
    bye: str | None,
    bye_given: bool,
    ids: dict[str, tuple[int, str]],
    top: Place,
) -> list[tuple[int, _Match]]:
    """Start round ``number`` (and make its swaps), check that it made the file's matches
    (and bye): each of the file's matches of the round with the match made for it."""
    from tally.files import replay
    from tally.names import fold

    at = top / "rounds" / next(i for i, r in enumerate(doc.rounds) if r[0] == number)
    listed = [m for m in doc.matches if m.round == number]
    try:
        given = _given_tables(doc, number, ids) if number in doc.given else None
        slots, playoff = doc.seeded.get(number, (None, False)) if given else (None, False)
        rnd = replay.start_round(
            store,
            ev.id,
            number,
            given,
            None if given is None or bye is None else _seat(doc, number, ids, bye),
            bracket=None if slots is None else [_number(ids, n, at / "bracket") for n in slots],
            playoff=playoff,
        )
    except TallyError as exc:
        at.fail(exc.wording)
    if number in doc.swaps:
        _swap(store, ev, doc, number, ids)
        rnd = store.events.rounds(ev.id, number)[0]
    scored = store.timeline.of_event(ev.id).rounds[-1].bye
    if bye_given and fold(scored or "") != fold(bye or ""):
        (at / "bye").fail(
            Message(
                N_("%(maker)s gives round %(round)s's bye to %(scored)s, the file to %(bye)s"),
                maker=Message(doc.format.round_maker),
                round=number,
                scored=scored or Message(N_("nobody")),
                bye=bye or Message(N_("nobody")),
            )
        )
    mine = [
        replay.Listed(
            m.table or 0,
            (_stored(ids, m.players[0]), _stored(ids, m.players[1])),
            _stored(ids, m.first_dealer),
        )
        for m in listed
    ]
    try:
        made = replay.match_round(
            number, Message(doc.format.round_maker), replay.made_matches(rnd), mine
        )
    except replay.Mismatch as exc:
        (at if exc.index is None else listed[exc.index].at).fail(exc.wording)
    return list(zip(made, listed, strict=True))


def _number(ids: dict[str, tuple[int, str]], name: str | None, at: Place) -> str | None:
    """A player of the file as ``#number`` (None stays None); refused for a name that is
    not one of the file's players."""
    from tally.names import fold

    if name is None:
        return None
    if fold(name) not in ids:
        at.fail(Message(NOT_PLAYER, player=name))
    return f"#{ids[fold(name)][0]}"


def _stored(ids: dict[str, tuple[int, str]], name: str) -> str:
    """A player of the file by the name the store keeps."""
    from tally.names import fold

    return ids[fold(name)][1]


def _seat(doc: _Document, number: int, ids: dict[str, tuple[int, str]], name: str) -> str:
    """The player (``#number``) who sat where ``name`` sits in round ``number`` of the file
    before the round's swaps were made (each swap undone, the latest first)."""
    from tally.names import fold

    seat = fold(name)
    for first, second, _at in reversed(doc.swaps.get(number, [])):
        a, b = fold(first), fold(second)
        seat = b if seat == a else a if seat == b else seat
    return f"#{ids[seat][0]}"


def _given_tables(doc: _Document, number: int, ids: dict[str, tuple[int, str]]) -> list[GivenTable]:
    """The file's tables of round ``number`` as given (a round kept as it was made:
    ``store.given``), as they were before the round's swaps (those are made after it, as
    for any round)."""
    from tally.store.given import GivenTable

    tables: dict[int, GivenTable] = {}
    for m in doc.matches:
        if m.round != number or m.table is None:
            continue
        known = tables.get(m.table)
        if known is not None:
            tables[m.table] = replace(known, matches=known.matches + 1)
        else:
            first, second, dealer = (
                _seat(doc, number, ids, name) for name in (*m.players, m.first_dealer)
            )
            tables[m.table] = GivenTable(m.table, first, second, dealer)
    return list(tables.values())


def _fill_round(
    store: Store, ev: EventView, made: list[tuple[int, _Match]], ids: dict[str, tuple[int, str]]
) -> tuple[int, int]:
    """Enter the deals of the file's matches of a round into the matches made for them.
    (recorded, quick) counts."""
    recorded = quick = 0
    for match_id, m in made:
        r, q = _deals(store, ev, match_id, m, ids)
        recorded, quick = recorded + r, quick + q
    return recorded, quick


def _swap(
    store: Store, ev: EventView, doc: _Document, number: int, ids: dict[str, tuple[int, str]]
) -> None:
    """Make the file's swaps of round ``number``, just started, as the director made them
    (``tally event swap --force``: what an arbiter is warned of was confirmed then)."""
    from tally.names import fold

    for first, second, at in doc.swaps[number]:
        if fold(first) not in ids or fold(second) not in ids:
            at.fail(N_("names a player who is not one of the event's"))
        try:
            store.swaps.make(
                ev.id, number, f"#{ids[fold(first)][0]}", f"#{ids[fold(second)][0]}", force=True
            )
        except TallyError as exc:
            at.fail(exc.wording)


def _without_place(words: Message, where: str) -> Message:
    """A store's refusal of a record without the place it names first (the record's file
    name is its place in the file: ``matches[3].deals[2]``)."""
    from tally.errors import HEADED

    if words.template == HEADED and words.params.get("head") == where:
        inner = words.params.get("message")
        return inner if isinstance(inner, Message) else message(str(inner))
    text = str(words)
    if text.startswith(f"{where}: "):  # words of the store's that name it in English
        return message(text.removeprefix(f"{where}: "))
    return words


def _without_context(text: str, context: dict[str, str]) -> str:
    """A record without the tags that repeat its match's place in the event."""
    from tally.engine.notation import read_deal, write_deal

    record = read_deal(text)
    if not any(record.tags.get(tag, "").strip() == value for tag, value in context.items()):
        return text
    for tag, value in context.items():
        if record.tags.get(tag, "").strip() == value:
            del record.tags[tag]
    return write_deal(record)


def _deals(
    store: Store, ev: EventView, match_id: int, m: _Match, ids: dict[str, tuple[int, str]]
) -> tuple[int, int]:
    """Enter match ``m``'s deals into stored match ``match_id``, in order; check its score
    and winner when the file gives them. (recorded, quick) counts."""
    from tally.names import fold

    context = {"Event": ev.name, "Date": ev.date.isoformat()}
    if m.round is not None:
        context |= {"Round": str(m.round), "Table": str(m.table)}
    recorded = quick = 0
    whole: list[tuple[str | None, int, str]] = []  # the lines of a match result entered whole
    for k, d in enumerate(m.deals):
        at = m.at / "deals" / k
        try:
            if d.record is not None:
                store.deals.import_records(
                    match_id, [(str(at.where), _without_context(d.record, context))]
                )
                recorded += 1
            else:
                assert d.result is not None
                winner, points, reason = d.result
                line = (
                    None
                    if winner is None
                    else f"#{ids[fold(winner)][0]}"
                    if fold(winner) in ids
                    else winner,
                    points,
                    reason,
                )
                if reason == MATCH_RESULT:
                    whole.append(line)
                else:
                    store.deals.enter_results(match_id, [line])
                quick += 1
        except TallyError as exc:
            at.fail(_without_place(exc.wording, at.where))
    if whole:
        try:
            store.deals.enter_results(match_id, whole)
        except TallyError as exc:
            (m.at / "deals").fail(exc.wording)
    if m.score is not None or m.has_winner:
        state = store.matches.state(match_id)
        if m.score is not None:
            got = {fold(p): state.score[p] for p in state.players}
            if {fold(p): v for p, v in m.score.items()} != got:
                shown = ", ".join(f"{p} {state.score[p]}" for p in state.players)
                (m.at / "score").fail(
                    Message(N_("the deals make the score %(score)s"), score=shown)
                )
        if m.has_winner and fold(m.winner or "") != fold(state.winner or ""):
            (m.at / "winner").fail(
                Message(
                    N_("the deals make %(winner)s the winner"),
                    winner=state.winner or Message(N_("nobody (not over)")),
                )
            )
    return recorded, quick
