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
  nobody plays (absences announced for a round not paired yet, ``0000 - Z``) is not stored:
  its ``H``/``Z`` lines become absences announced for it.
- **Results**: a won match (``1``/``0``, ``W``/``L``) is entered as a whole match result, the
  match target to 0 (a TRF has no game points). The pairing's bye (``U``, and ``F``) is the
  round's bye. A half-point bye ``H`` is an announced absence (absences score half a win); a
  ``Z`` (not paired) before a player's first round is a late entry, after their last round
  a withdrawal, between them an announced absence (absences score nothing). A forfeit
  (``+``/``-``) or a void game (``-``/``-``) lost by a player who is in no later round is a
  withdrawal: the player withdraws after that round, and the event's ``withdrawal`` rule
  follows the file (``forfeit``, or ``void`` for a ``-``/``-`` pair); lost by a player who
  plays on, or whose winner withdraws after the same round too, it is a no-show in that
  round (a one-round forfeit, :mod:`tally.store.noshows`; both players of a ``-``/``-`` pair).
- **A round paired and not played yet** (games with an opponent and a colour and a blank
  result, as ``tally event export --format trf --paired`` writes them) is started as the file
  pairs it, its games left to be played.
- **Points**: the file's point system (``XXS`` or bbpPairings' ``BBW``/``BBU`` lines,
  :class:`tally.files.trf.PointSystem`) gives the match points of a win, and the bye rule:
  ``win`` when the pairing's bye scores, ``none`` when it does not; a file without one
  follows its byes (``U``/``F``: ``win``).
- **Refused**, naming the file (and the player and the round): an event of the same name in
  the database already (the file imported twice; ``name`` gives another); a draw (``=``,
  ``D``), which card matches cannot have; two pairing byes in one round; a pairing the other
  player's line does not repeat (the opponent, one win and one loss, or a forfeit); absences
  scoring half and nothing in one file; a file asking for both withdrawal rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tally.errors import LoadError, Message
from tally.files.trf import TrfGame, TrfTournament, read_trf
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.views import EventView

__all__ = ["TrfImported", "event_settings", "import_trf"]

#: results of a won and of a lost match
_WON, _LOST = ("1", "W"), ("0", "L")
#: results of the pairing's bye, and of a player not paired (absent, not entered, withdrawn)
_BYE, _NOT_PAIRED = ("U", "F"), ("H", "Z")


@dataclass(frozen=True)
class TrfImported:
    """What importing a TRF did: the event, and how many rounds and matches it stored."""

    event: EventView
    rounds: int
    matches: int


@dataclass(frozen=True)
class _Round:
    """One round as the file pairs it: (white, black, winner) by player number (winner None:
    a forfeit or a void game, left to the withdrawal), the bye, the absences announced, the
    players entering before it and those withdrawing after it."""

    number: int
    pairings: list[tuple[int, int, int | None]]
    bye: int | None
    absent: list[int] = field(default_factory=list)
    #: the players who did not come to their match (a one-round forfeit)
    no_shows: list[int] = field(default_factory=list)
    enter: list[int] = field(default_factory=list)
    leave: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Plan:
    """What the file becomes: its rounds to store, the absences announced for rounds not
    paired yet (round, number), the players not in the event when it starts, and the
    event's withdrawal rule and absence score."""

    rounds: list[_Round]
    announced: list[tuple[int, int]]
    late: set[int]
    withdrawal: str
    absence_score: str


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


#: a refusal at a place of the file: no words of its own
_AT: Final = "%(where)s: %(message)s"
#: a player's line of the file in a round
_PLAYER_ROUND: Final = N_("%(file)s: %(player)s (number %(number)s), round %(round)s")


def _refused(where: object, template: str, **params: object) -> LoadError:
    """A refusal of the file at ``where`` (the file, a player's round of it)."""
    return LoadError(Message(_AT, where=where, message=Message(template, **params)))


def import_trf(
    store: Store, path: Path, *, name: str | None = None, rules: str = "sixty-six"
) -> TrfImported:
    """Import the TRF-16 file ``path`` as a new event (module docstring), in one
    transaction."""
    from tally.files.loading import read_text_file

    t = read_trf(read_text_file(path, "TRF"), str(path))
    if not t.players:
        raise _refused(path, N_("no player (001 line) in the file"))
    plan = _plan(t, path)
    with store.transaction("tally event import"):
        return _store(store, t, plan, path, name or t.name or path.stem, rules)


def _paired(t: TrfTournament, r: int) -> bool:
    """Whether anybody plays in round ``r`` (0-based) of the file."""
    return any(g is not None and g.opponent is not None for p in t.players for g in [p.games[r]])


def _plan(t: TrfTournament, path: Path) -> _Plan:
    """The file's rounds, entries, withdrawals and absences, each checked (module
    docstring)."""
    stored = [r for r in range(t.rounds) if _paired(t, r)]
    span = {p.number: _span(p.games, stored) for p in t.players}
    rounds = [_round(t, r, span, path) for r in stored]
    announced = [
        (r + 1, p.number)
        for r in range(max(stored, default=-1) + 1, t.rounds)
        for p in t.players
        if (g := p.games[r]) is not None and g.result in _NOT_PAIRED and span[p.number][1] is None
    ]
    late = _late(span, stored)
    for r in rounds:
        r.enter.extend(n for n in sorted(late) if span[n][0] == r.number - 1)
        if r is rounds[-1]:  # in none of the rounds: joined while the last was paired
            r.enter.extend(n for n in sorted(late) if span[n][0] is None)
        r.leave.extend(n for n, (_, last) in span.items() if last == r.number - 1)
    results = {g.result for p in t.players for g in p.games if g is not None}
    middle_z = any(r.absent and _zero(t, r) for r in rounds)
    if "H" in results and middle_z:
        raise _refused(
            path,
            N_("some absences score half a point (H) and some none (Z); an event's absences "
               "all score alike"),
        )  # fmt: skip
    return _Plan(
        rounds, announced, late, _withdrawal(t, rounds, span, path), "zero" if middle_z else "half"
    )


def _late(span: dict[int, tuple[int | None, int | None]], stored: list[int]) -> set[int]:
    """The late entries: the last numbers of the file, each first in a later stored round
    than the one before it (tally numbers its players in entry order), not in the first; a
    player in none of its rounds among them enters after the last."""
    late: set[int] = set()
    since = len(stored)
    for n in sorted(span, reverse=True):
        first = len(stored) if span[n][0] is None else stored.index(span[n][0])  # type: ignore[arg-type]
        if first == 0 or first > since:
            break
        late.add(n)
        since = first
    return late


def _zero(t: TrfTournament, r: _Round) -> bool:
    """Whether an absence of round ``r`` is written ``Z`` (scores nothing)."""
    games = {p.number: p.games[r.number - 1] for p in t.players}
    return any(g is not None and g.result == "Z" for n, g in games.items() if n in r.absent)


def _span(games: tuple[TrfGame | None, ...], stored: list[int]) -> tuple[int | None, int | None]:
    """The first and last stored round (0-based) a player is in (paired, a bye, an
    absence asked for with ``H``); the last None when the player does not withdraw (in the
    file's last stored round: a forfeit lost there is a no-show, as the file cannot tell it
    from a withdrawal and both are written alike); (None, None) for a player in none.
    (A forfeit won stands when its winner withdraws later: a game played stands.)"""
    rounds = [r for r in stored if (g := games[r]) is not None and g.result != "Z"]
    if not rounds:
        return None, None
    stays = rounds[-1] == stored[-1]
    return rounds[0], None if stays else rounds[-1]


def _round(
    t: TrfTournament, r: int, span: dict[int, tuple[int | None, int | None]], path: Path
) -> _Round:
    """Round ``r`` (0-based) as the file pairs it, checked."""
    names = {p.number: p.name for p in t.players}
    games = {p.number: p.games[r] for p in t.players if p.games[r] is not None}
    pairings: list[tuple[int, int, int | None]] = []
    byes: list[int] = []
    absent: list[int] = []
    for number, game in sorted(games.items()):
        assert game is not None
        where = Message(
            _PLAYER_ROUND, file=str(path), player=names[number], number=number, round=r + 1
        )
        _refuse_draw(game, where)
        if game.opponent is None:
            if game.result in _BYE:
                byes.append(number)
            elif _in_event(span[number], r) and game.result in _NOT_PAIRED:
                absent.append(number)
            continue
        if game.opponent < number:
            continue  # the pairing is read from the lower number's line
        other = games.get(game.opponent)
        pairings.append(_pairing(number, game, game.opponent, other, names, where))
    if len(byes) > 1:
        raise _refused(
            path,
            N_("round %(round)s gives byes to %(players)s: a round of tally has one bye at most"),
            round=r + 1,
            players=", ".join(names[b] for b in byes),
        )
    return _Round(r + 1, pairings, byes[0] if byes else None, absent)


def _in_event(span: tuple[int | None, int | None], r: int) -> bool:
    """Whether a player of ``span`` (:func:`_span`) is in the event in round ``r``."""
    first, last = span
    return first is not None and first <= r and (last is None or r <= last)


def _refuse_draw(game: TrfGame, where: Message) -> None:
    """Refuse a draw: a card match is won or lost."""
    if game.result in ("=", "D"):
        raise _refused(
            where,
            N_("a drawn game (%(result)s); a match of cards is won or lost, never drawn"),
            result=game.result,
        )


def _pairing(
    a: int, game: TrfGame, b: int, other: TrfGame | None, names: dict[int, str], where: Message
) -> tuple[int, int, int | None]:
    """(white, black, winner) of the pairing of ``a`` and ``b``, both lines checked (winner
    None for a game not played: a forfeit or void)."""
    if other is None or other.opponent != a:
        raise _refused(
            where,
            N_("meets number %(number)s, whose line does not meet %(player)s that round"),
            number=b,
            player=names[a],
        )
    pair = (game.result, other.result)
    winner: int | None
    if game.result in _WON and other.result in _LOST:
        winner = a
    elif game.result in _LOST and other.result in _WON:
        winner = b
    elif pair in (("+", "-"), ("-", "+"), ("-", "-"), (" ", " ")):
        winner = None  # (blank: paired, not played yet)
    else:
        raise _refused(
            where,
            N_("the results %(first)s and %(second)s of %(a)s and %(b)s are not one win and "
               "one loss"),
            first=game.result, second=other.result, a=names[a], b=names[b],
        )  # fmt: skip
    if {game.colour, other.colour} == {"w", "b"}:
        return (a, b, winner) if game.colour == "w" else (b, a, winner)
    return a, b, winner


def _withdrawal(
    t: TrfTournament,
    rounds: list[_Round],
    span: dict[int, tuple[int | None, int | None]],
    path: Path,
) -> str:
    """The withdrawal rule the file's unplayed games ask for, and its no-shows (module
    docstring): a player losing one and withdrawing after that round leaves it to the
    withdrawal rule (``void`` for a ``-``/``-`` pair of two players withdrawing: under either
    rule the first of two players to withdraw loses the game, so only the void rule voids
    it); a player losing one and playing on did not come to that round (both players of a
    ``-``/``-`` pair one of whom plays on), and so did one losing a forfeit whose winner
    withdraws after the same round: the file does not say which of them withdrew first, and
    under the ``forfeit`` rule the first to withdraw loses, so only the no-show keeps the
    file's ``+`` and ``-`` where they are."""
    rules: set[str] = set()
    for r in rounds:
        for a, b, winner in r.pairings:
            if winner is not None or _result(t, a, r.number) == " ":
                continue  # (not played yet)
            losers = [n for n in (a, b) if _result(t, n, r.number) == "-"]
            leaving = [n for n in (a, b) if span[n][1] == r.number - 1]
            if leaving != losers:  # (a winner leaving too: who withdrew first is not known)
                r.no_shows.extend(losers)
                continue
            rules.add("forfeit" if len(losers) == 1 else "void")
    if len(rules) > 1:
        raise _refused(
            path,
            N_("some unplayed games are won by forfeit and some void; an event forfeits or "
               "voids them all"),
        )  # fmt: skip
    return rules.pop() if rules else "forfeit"


def _result(t: TrfTournament, number: int, r: int) -> str:
    """Player ``number``'s result in round ``r`` ("" when not paired)."""
    game = next(p for p in t.players if p.number == number).games[r - 1]
    return "" if game is None else game.result


def _bye_rule(t: TrfTournament, rounds: Sequence[_Round]) -> str:
    """``win`` when the file's pairing byes score, ``none`` when they do not."""
    if t.points is not None:
        return "win" if t.points.bye > 0 else "none"
    return "win" if any(r.bye is not None for r in rounds) else "none"


def _store(
    store: Store, t: TrfTournament, plan: _Plan, path: Path, name: str, rules: str
) -> TrfImported:
    """Add the players, create the event, store its rounds and results."""
    from tally.files.importing import Place, find_or_add_players, refuse_loaded_name
    from tally.names import fold

    refuse_loaded_name(store, name, Place(path))
    ids = find_or_add_players(store, [(p.name, []) for p in t.players], Place(path))
    player = {p.number: f"#{ids[fold(p.name)][0]}" for p in t.players}
    ev = store.events.create(
        name,
        held_on=_day(t.start),
        rules=rules,
        players=[player[p.number] for p in t.players if p.number not in plan.late],
        bye=_bye_rule(t, plan.rounds),
        withdrawal=plan.withdrawal,
        absence_score=plan.absence_score,
        match_points_per_win=1.0 if t.points is None else t.points.win,
        **event_settings(t),
    )
    matches = 0
    for r in plan.rounds:
        matches += _store_round(store, ev, r, player)
    for number, who in plan.announced:
        store.absences.announce(ev.id, player[who], number)
    return TrfImported(store.events.get(ev.id), len(plan.rounds), matches)


def _store_round(store: Store, ev: EventView, r: _Round, player: dict[int, str]) -> int:
    """Store round ``r`` as the file paired it, enter its results and withdrawals; the
    matches stored."""
    from tally.files import replay
    from tally.store.derivation import rule_set
    from tally.store.given import GivenTable

    if r.enter:
        store.events.add_players(ev.id, [player[n] for n in r.enter])
    for n in r.absent:
        store.absences.announce(ev.id, player[n], r.number)
    rnd = replay.start_round(
        store,
        ev.id,
        r.number,
        [
            GivenTable(table, player[a], player[b], player[a])
            for table, (a, b, _winner) in enumerate(r.pairings, start=1)
        ],
        None if r.bye is None else player[r.bye],
    )
    made = [m.match_id for m in replay.made_matches(rnd)]
    for n in r.no_shows:
        store.no_shows.record(ev.id, r.number, player[n])
    target = rule_set(ev.rules).match_target
    for match_id, (_a, _b, winner) in zip(made, r.pairings, strict=True):
        if winner is not None:
            store.deals.match_result(match_id, (target, 0), winner=player[winner])
    for n in r.leave:
        store.events.withdraw(ev.id, player[n])
    return len(made)


def _day(text: str) -> date | None:
    """The day of a TRF date (``YYYY/MM/DD``, ``YYYY-MM-DD`` or ``YYYY.MM.DD``), or None."""
    parts = text.strip().replace("-", "/").replace(".", "/").split("/")
    try:
        return date(int(parts[0]), int(parts[1]), int(parts[2]))
    except (ValueError, IndexError):
        return None
