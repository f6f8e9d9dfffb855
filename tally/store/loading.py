"""Loading an event kept as files: ``event.toml`` and the ``.deal`` records of its matches.

The format is the one of the bundled examples (``examples/club-evening``,
``examples/round-robin``)::

    name = "Thursday Club Evening"
    kind = "club-evening"            # or "round-robin"
    date = "2026-11-19"
    rules = "sixty-six"
    players = ["Anna Berger", "Bert Huber"]
    # optional: double, matches_per_pairing, match_points_per_win, bye, withdrawal, tiebreaks

    [[matches]]
    round = 1                        # round robins: the round and table of the schedule
    table = 1
    players = ["Anna Berger", "Bert Huber"]
    first_dealer = "Anna Berger"
    records = ["deals/match1-deal1.deal"]            # kept trick by trick, or
    results = ["Anna Berger 2 claim", "draw"]        # kept on paper: winner, points, reason

Every record goes through the engine as ``tally deal import`` does, every result through
``tally deal quick``; a round robin's matches are made from its schedule, so a file whose
pairings do not follow the Berger tables is refused. An event is loaded whole or not at all
in the sense that loading stops at the first problem, naming the file and the match; what was
loaded before stays (each step is its own audited change) and can be removed with
``tally audit undo``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from tally.errors import Refused, TallyError
from tally.store.events import create_event, events, start_round
from tally.store.store import Store
from tally.store.views import EventView

KINDS = {"club-evening": "club", "club": "club", "round-robin": "round-robin"}
OPTIONAL = ("double", "matches_per_pairing", "match_points_per_win", "bye", "withdrawal",
            "tiebreaks")


class LoadError(TallyError):
    """An event folder that cannot be loaded: the file, the match and what is wrong."""


@dataclass(frozen=True)
class Loaded:
    """What loading one event did."""

    event: EventView
    matches: int
    recorded_deals: int
    quick_deals: int


def load_event(store: Store, folder: Path) -> Loaded:
    """Load the event kept in ``folder`` into ``store`` (see the module docstring)."""
    path = folder / "event.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LoadError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LoadError(f"{path}: not valid TOML: {exc}") from None
    name = _text(data, "name", path)
    kind = KINDS.get(_text(data, "kind", path))
    if kind is None:
        raise LoadError(f'{path}: kind must be one of {", ".join(KINDS)}')
    players = _names(data.get("players"), path, "players")
    if any(e.name.casefold() == name.strip().casefold() for e in events(store)):
        raise LoadError(f'{path}: an event named "{name}" is loaded already')
    known = {p.name.casefold() for p in store.players()}
    for player in players:
        if player.casefold() not in known:
            store.add_player(player)
    options: dict[str, Any] = {k: data[k] for k in OPTIONAL if k in data}
    held_on = _date(data.get("date"), path)
    try:
        event = create_event(store, name, kind=kind, players=players, held_on=held_on,
                             rules=_text(data, "rules", path) if "rules" in data
                             else "sixty-six", **options)
    except TypeError as exc:
        raise LoadError(f"{path}: {exc}") from None
    matches = data.get("matches", [])
    if not isinstance(matches, list):
        raise LoadError(f"{path}: matches must be a list of [[matches]] tables")
    made = _round_robin_matches(store, event, matches, path) if kind == "round-robin" else {}
    recorded = quick = 0
    for index, m in enumerate(matches, start=1):
        where = f"{path}, match {index}"
        if not isinstance(m, dict):
            raise LoadError(f"{where}: not a table")
        pair = _names(m.get("players"), path, f"match {index} players")
        if len(pair) != 2:
            raise LoadError(f"{where}: a match has two players")
        dealer = _text(m, "first_dealer", path)
        try:
            if kind == "round-robin":
                match_id = made[(int(m.get("round", 0)), int(m.get("table", 0)))]
            else:
                match_id = store.start_match(pair[0], pair[1], first_dealer=dealer,
                                             event=event.id).id
            if "records" in m:
                sources = []
                for rel in _names(m["records"], path, f"match {index} records"):
                    file = folder / rel
                    try:
                        sources.append((str(file), file.read_text(encoding="utf-8")))
                    except OSError as exc:
                        raise LoadError(f"{where}: {file}: {exc.strerror or exc}") from None
                recorded += len(store.import_deals(match_id, sources))
            for result in _names(m.get("results", []), path, f"match {index} results"):
                winner, points, reason = _result(result, where)
                store.quick_result(match_id, winner=winner, points=points, reason=reason)
                quick += 1
        except KeyError:
            raise LoadError(f"{where}: round {m.get('round')} table {m.get('table')} is not "
                            "in the schedule") from None
        except LoadError:
            raise
        except TallyError as exc:
            raise LoadError(f"{where}: {exc}") from None
    from tally.store.events import event as event_view

    return Loaded(event_view(store, event.id), len(matches), recorded, quick)


def _round_robin_matches(store: Store, event: EventView, matches: list[Any],
                         path: Path) -> dict[tuple[int, int], int]:
    """Start every round the file has matches for; (round, table) -> match id.

    Each match of the file must be the schedule's pairing at its round and table, with the
    schedule's first dealer.
    """
    made: dict[tuple[int, int], int] = {}
    wanted = sorted({int(m.get("round", 0)) for m in matches if isinstance(m, dict)})
    for number in wanted:
        try:
            rnd = start_round(store, event.id, number)
        except TallyError as exc:
            raise LoadError(f"{path}: round {number}: {exc}") from None
        for pairing in rnd.pairings:
            key = (number, pairing.table)
            if not pairing.matches:
                continue
            made[key] = pairing.matches[0].match_id
            for index, m in enumerate(matches, start=1):
                if (int(m.get("round", 0)), int(m.get("table", 0))) != key:
                    continue
                if (list(m.get("players") or []) != [pairing.first, pairing.second]
                        or m.get("first_dealer") != pairing.first_dealer):
                    raise LoadError(
                        f"{path}, match {index}: round {number} table {pairing.table} is "
                        f"{pairing.first} against {pairing.second}, {pairing.first_dealer} "
                        "dealing first, by the schedule")
    return made


def _text(data: dict[str, Any], key: str, path: Path) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise LoadError(f"{path}: {key} must be a text")
    return value


def _names(value: Any, path: Path, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LoadError(f"{path}: {what} must be a list of texts")
    return list(value)


def _date(value: Any, path: Path) -> date | None:
    if value is None:
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise LoadError(f'{path}: date must be YYYY-MM-DD, not "{value}"') from None


def _result(text: str, where: str) -> tuple[str | None, int, str]:
    """``"Anna Berger 2 claim"`` -> ("Anna Berger", 2, "claim"); ``"draw"`` -> (None, 0, draw)."""
    if text.strip().lower() == "draw":
        return None, 0, "draw"
    words = text.split()
    if len(words) < 3 or not words[-2].isdigit():
        raise Refused(f'a result is "Winner N reason" or "draw", not "{text}" ({where})')
    return " ".join(words[:-2]), int(words[-2]), words[-1]
