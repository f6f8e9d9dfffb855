"""Importing a FIDE TRF-16 file (:mod:`tally.files.trf`) into the database as an event:
``tally event import FILE --format trf``.

What a TRF holds is stored through the store's own calls, in ONE transaction (a file refused
at any step leaves the database as it was):

- **Players** are found by name as the store compares names (case, spaces and accents
  ignored) or added, in the order of their numbers in the file (the seed order).
- **The event** is a Swiss event of the file's rounds (``XXR``, or as many as its lines
  hold), named by the ``012`` line (or ``name``), held on the ``042`` day when it is a date.
  A file whose ``092`` type says round robin is imported as a Swiss event too: tally's round
  robin plays its own Berger schedule, while a Swiss event keeps the rounds as the file paired
  them; it ranks by the round robin's tiebreaks (:func:`event_settings`).
- **Rounds**: each round in which anybody plays is stored as the file paired it, one match per
  pairing, tables in the order of the lower player number; the player written as white deals
  first (the reverse of what ``tally event export --format trf`` writes). A round where
  nobody plays (an absence announced for a round not paired yet, ``0000 - Z``) is left out.
- **Results**: a won match (``1``/``0``, ``W``/``L``, a forfeit ``+``/``-``) is entered as a
  whole match result, the match target to 0 (a TRF has no game points); tally records no
  forfeit between two players present, so a forfeit counts as a won match. A pairing's bye
  (``U``, ``F``: a full point; ``Z``: none) is the round's bye, and the event's ``bye`` rule
  follows the file (``win`` or ``none``).
- **Refused**, naming the file (and the player and the round): an event of the same name in
  the database already (the file imported twice; ``name`` gives another); a draw (``=``,
  ``D``) or a half-point bye (``H``), which card matches cannot have; two byes in one round;
  a pairing the other player's line does not repeat (the opponent, one win and one loss);
  byes that score and byes that do not in one file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tally.errors import LoadError
from tally.files.trf import TrfGame, TrfTournament, read_trf

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.views import EventView

__all__ = ["TrfImported", "event_settings", "import_trf"]

#: results of a won and of a lost match
_WON, _LOST = ("1", "+", "W"), ("0", "-", "L")
#: results of a bye that scores a win, and of one that scores nothing
_SCORING_BYE, _EMPTY_BYE = ("U", "F"), ("Z",)


@dataclass(frozen=True)
class TrfImported:
    """What importing a TRF did: the event, and how many rounds and matches it stored."""

    event: EventView
    rounds: int
    matches: int


@dataclass(frozen=True)
class _Round:
    """One round as the file pairs it: (white, black, winner) by player number, and the bye."""

    number: int
    pairings: list[tuple[int, int, int]]
    bye: int | None


def event_settings(t: TrfTournament) -> dict[str, Any]:
    """The event a TRF becomes (module docstring): a Swiss event of its rounds, with the
    round robin's tiebreaks when its type (``092``) says round robin."""
    from tally.events.tiebreaks import DEFAULT_TIEBREAKS, SWISS_TIEBREAKS

    robin = "robin" in t.kind.lower() or t.kind.strip().lower() in ("rr", "berger")
    return {
        "kind": "swiss",
        "rounds": max(t.rounds, 1),
        "tiebreaks": DEFAULT_TIEBREAKS if robin else SWISS_TIEBREAKS,
    }


def import_trf(
    store: Store, path: Path, *, name: str | None = None, rules: str = "sixty-six"
) -> TrfImported:
    """Import the TRF-16 file ``path`` as a new event (module docstring), in one
    transaction."""
    from tally.files.loading import read_text_file

    t = read_trf(read_text_file(path, "TRF"), str(path))
    if not t.players:
        raise LoadError(f"{path}: no player (001 line) in the file")
    rounds = _rounds(t, path)
    with store.transaction("tally event import"):
        return _store(store, t, rounds, path, name or t.name or path.stem, rules)


def _rounds(t: TrfTournament, path: Path) -> list[_Round]:
    """The file's rounds in which anybody plays, each checked (module docstring)."""
    names = {p.number: p.name for p in t.players}
    out: list[_Round] = []
    for r in range(t.rounds):
        games = {p.number: p.games[r] for p in t.players if p.games[r] is not None}
        if not any(g.opponent is not None for g in games.values() if g is not None):
            continue
        pairings: list[tuple[int, int, int]] = []
        byes: list[int] = []
        for number, game in sorted(games.items()):
            assert game is not None
            where = f"{path}: {names[number]} (number {number}), round {r + 1}"
            _refuse_half_points(game, where)
            if game.opponent is None:
                if game.result in _SCORING_BYE + _EMPTY_BYE:
                    byes.append(number)
                continue
            if game.opponent < number:
                continue  # the pairing is read from the lower number's line
            other = games.get(game.opponent)
            pairings.append(_pairing(number, game, game.opponent, other, names, where))
        if len(byes) > 1:
            raise LoadError(
                f"{path}: round {r + 1} gives byes to "
                f"{', '.join(names[b] for b in byes)}: a round of tally has one "
                "bye at most"
            )
        out.append(_Round(r + 1, pairings, byes[0] if byes else None))
    return out


def _refuse_half_points(game: TrfGame, where: str) -> None:
    """Refuse a draw or a half-point bye: a card match is won or lost."""
    if game.result in ("=", "D"):
        raise LoadError(
            f"{where}: a drawn game ({game.result}); a match of cards is won or lost, never drawn"
        )
    if game.result == "H":
        raise LoadError(f"{where}: a half-point bye (H); a bye scores a win or nothing")


def _pairing(
    a: int, game: TrfGame, b: int, other: TrfGame | None, names: dict[int, str], where: str
) -> tuple[int, int, int]:
    """(white, black, winner) of the pairing of ``a`` and ``b``, both lines checked."""
    if other is None or other.opponent != a:
        raise LoadError(
            f"{where}: meets number {b}, whose line does not meet {names[a]} that round"
        )
    if game.result in _WON and other.result in _LOST:
        winner = a
    elif game.result in _LOST and other.result in _WON:
        winner = b
    else:
        raise LoadError(
            f"{where}: the results {game.result} and {other.result} of "
            f"{names[a]} and {names[b]} are not one win and one loss"
        )
    if {game.colour, other.colour} == {"w", "b"}:
        return (a, b, winner) if game.colour == "w" else (b, a, winner)
    return a, b, winner


def _bye_rule(rounds: Sequence[_Round], t: TrfTournament, path: Path) -> str:
    """``win`` when the file's byes score a point, ``none`` when they score nothing."""
    games = [
        p.games[r.number - 1]
        for r in rounds
        if r.bye is not None
        for p in t.players
        if p.number == r.bye
    ]
    results = {g.result for g in games if g is not None}
    if results & set(_SCORING_BYE) and results & set(_EMPTY_BYE):
        raise LoadError(
            f"{path}: some byes score a point and some none; an event's byes all score alike"
        )
    return "win" if results & set(_SCORING_BYE) else "none"


def _store(
    store: Store, t: TrfTournament, rounds: list[_Round], path: Path, name: str, rules: str
) -> TrfImported:
    """Add the players, create the event, store its rounds and results."""
    from tally.files.importing import Place, find_or_add_players, refuse_loaded_name
    from tally.names import fold

    refuse_loaded_name(store, name, Place(path))
    ids = find_or_add_players(store, [(p.name, []) for p in t.players], Place(path))
    player = {p.number: ids[fold(p.name)][0] for p in t.players}
    ev = store.events.create(
        name,
        held_on=_day(t.start),
        rules=rules,
        players=[f"#{player[p.number]}" for p in t.players],
        bye=_bye_rule(rounds, t, path),
        **event_settings(t),
    )
    matches = 0
    for r in rounds:
        matches += _store_round(store, ev, r, player)
    return TrfImported(store.events.get(ev.id), len(rounds), matches)


def _store_round(store: Store, ev: EventView, r: _Round, player: dict[int, int]) -> int:
    """Store round ``r`` as the file paired it and enter its results; the matches stored."""
    from tally.store import eventrows
    from tally.store.derivation import rule_set
    from tally.store.roundrows import insert_round

    with store.writing() as conn:
        row = eventrows.resolve_event(conn, ev.id, lock=True)
        made = insert_round(
            store,
            conn,
            row,
            r.number,
            None if r.bye is None else player[r.bye],
            [
                (table, player[a], player[b], player[a])
                for table, (a, b, _winner) in enumerate(r.pairings, start=1)
            ],
            f'imported round {r.number} of event {ev.id} "{ev.name}" from a TRF',
        )
    target = rule_set(ev.rules).match_target
    for match_id, (_a, _b, winner) in zip(made, r.pairings, strict=True):
        store.deals.match_result(match_id, (target, 0), winner=f"#{player[winner]}")
    return len(made)


def _day(text: str) -> date | None:
    """The day of a TRF date (``YYYY/MM/DD``, ``YYYY-MM-DD`` or ``YYYY.MM.DD``), or None."""
    parts = text.strip().replace("-", "/").replace(".", "/").split("/")
    try:
        return date(int(parts[0]), int(parts[1]), int(parts[2]))
    except (ValueError, IndexError):
        return None
