"""Loading an event kept as files: ``event.toml`` and the ``.deal`` records of its matches.

The format is the one of the bundled examples (``examples/club-evening``,
``examples/round-robin``, ``examples/swiss``)::

    name = "Thursday Club Evening"
    kind = "club-evening"            # or "round-robin", or "swiss" (with rounds = N)
    date = "2026-11-19"
    rules = "sixty-six"
    players = ["Anna Berger", "Bert Huber"]
    # optional: double, swap_last_rounds (a double round robin), matches_per_pairing,
    # match_points_per_win, bye, withdrawal, tiebreaks, rank_by ("points" or "percentage";
    # a club evening's default: "percentage"); acceleration ("baku", a Swiss event);
    # unplayed ("as-scored" or "virtual-opponent", a round robin or Swiss event);
    # seed_by ("entry" or "rating": a Swiss event, a knockout or groups, seeded by the
    # ratings of the database loaded into when its first round is started);
    # absence_score ("half" or "zero": what a requested bye scores, a Swiss event);
    # a knockout (kind = "knockout"): lives, seed, final, final_fill ("playoff" or
    # "tiebreaks"), best_of (the final stage's pairings); groups (kind = "groups"): groups,
    # advance, best_of; language ("de" or "en": what its sheets and readable output speak; see
    # tally.i18n)

    [[matches]]
    round = 1                        # round robins and Swiss: the round and table
    table = 1
    players = ["Anna Berger", "Bert Huber"]
    first_dealer = "Anna Berger"
    records = ["deals/match1-deal1.deal"]            # kept trick by trick, or
    results = ["Anna Berger 2 claim", "draw"]        # kept on paper: winner, points, reason

A knockout with lives (``examples/knockout``) or groups then knockout keeps its matches with
their round and table too; a match with ``playoff = true`` and no round is a play-off
(Stechen) between tied players. Its rounds are started one by one as ``tally event round
--start`` does, each round's results stored before the next is drawn (the draw depends on
them): a file whose pairings, tables or first dealers are not the draw of the event's
``seed`` (or the groups' schedule, or the bracket) is refused. ``[[withdrawals]]`` tables
(``player``, ``after_round``: the rounds whose results were in when the player withdrew)
withdraw a player between two rounds.

Every record goes through the engine as ``tally deal import`` does, every result through
``tally deal quick``; a round robin's matches are made from its schedule, so a file whose
pairings do not follow the Berger tables is refused. A **Swiss** event (``kind = "swiss"``,
``rounds = N``) is loaded round by round as it was played: each round the file has matches
for is paired by tally (:mod:`tally.events.swiss`) from the standings after the rounds before it,
and the file's matches of that round must be those pairings (the same two players at each
table, the same first dealer), or the file is refused naming the table and tally's pairing;
then the round's records and results are stored, and the next round is paired. So a Swiss
file always holds the pairings tally would make (an event paired by other rules is kept as a
club evening instead); rounds are listed from 1 without a gap, and a round is paired only
once every match of the round before it is finished. Withdrawals and late entries are not
part of the file format (``tally event withdraw`` / ``add`` after loading).

Everything in the folder is checked through the engine before anything is stored (every
record ruled, every result checked against the rule set, dealers and carry followed through
each match, a round robin's pairings against the schedule; a Swiss event's pairings as each
round is paired, inside the same transaction), so a folder with a mistake is refused whole,
naming the file and the match.
Everything a load stores (the players it adds, the event, its matches and deals, and the
audit entry of each step, whose command reads ``tally load: ...``) is written in one
transaction (:meth:`Store.transaction`, :func:`load_events`): a folder refused at any step,
also for a name the store refuses (a player name too long, an event name of 200 characters),
leaves the database exactly as it was, on SQLite and PostgreSQL alike; so does any folder of
a ``tally load A B`` when another is refused.

Files are read defensively: only regular files (a FIFO, a device or a folder named as a record
or as ``event.toml`` is refused without being opened, so nothing blocks), each at most
:data:`MAX_FILE_BYTES` (1 MiB; a real record is about 1 KB and the event file of a 64-player
round robin kept as results about 300 KB), checked before reading and never read beyond it;
UTF-8 (a byte-order mark is allowed). TOML nested too deeply for the reader, and results that
are not ``"Winner N reason"`` with N in ASCII digits (``"Anna ² claim"``, a 5,000-digit
number), are refused with one line naming the file.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tally.errors import (
    LoadError,
    Message,
    NotationError,
    Refused,
    TallyError,
    message,
    system_reason,
)
from tally.events.formats import FORMATS, EventFormat, format_of
from tally.i18n import N_
from tally.store import Store
from tally.store.views import EventView, RoundView

if TYPE_CHECKING:
    from tally.engine.match import DealResult
    from tally.engine.rules import RuleSet
    from tally.events.schedule import Pairing

#: what ``kind`` may say -> the format's kind
KINDS = {name: f.kind for f in FORMATS.values() for name in f.file_names}
_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "bool": ((bool,), N_("true or false")),
    "whole": ((int,), N_("a whole number")),
    "text": ((str,), N_("a text")),
}
#: the optional keys of event.toml -> (their types, what they must be, the keyword of
#: :func:`create_event`): those of every event, then each format's own (its options:
#: :mod:`tally.events.formats.options`)
OPTIONAL: dict[str, tuple[tuple[type, ...], str, str]] = {
    "match_points_per_win": ((int, float), N_("a number"), "match_points_per_win"),
    **{key: ((str,), N_("a text"), key) for key in ("bye", "withdrawal", "rank_by", "language")},
    "tiebreaks": ((list,), N_("a list of texts"), "tiebreaks"),
    **{o.key: (*_TYPES[o.type], o.argument) for f in FORMATS.values() for o in f.options},
}


#: The largest record or event file tally reads, in bytes (1 MiB). Real ones are far smaller:
#: a record of a whole deal is about 1 KB, the event file of a 64-player round robin kept as
#: quick results about 300 KB.
MAX_FILE_BYTES: Final = 1024 * 1024

#: The longest file name of a record in ``event.toml`` (a path inside the folder).
MAX_RECORD_NAME: Final = 255

#: where in an event folder a refusal is: the file, a match of it, a round of it
AT_FILE: Final = "%(file)s: %(message)s"
AT_MATCH: Final = N_("%(file)s, match %(match)s: %(message)s")
AT_ROUND: Final = N_("%(file)s: round %(round)s: %(message)s")
#: a place (a file, a match of it) before what is wrong there
PLACED: Final = "%(where)s: %(message)s"
MATCH_PLACE: Final = N_("%(file)s, match %(match)s")
CANNOT_READ: Final = N_("cannot be read: %(reason)s")
MUST_BE: Final = N_("%(key)s must be %(what)s")
LOADED_ALREADY: Final = N_('an event named "%(name)s" is loaded already')
NOT_TOML: Final = N_("not valid TOML: %(reason)s")


def refused_at(where: object, problem: str | Message) -> LoadError:
    """A refusal of what is wrong (``problem``) at ``where``: a file, a match of it."""
    return LoadError(Message(PLACED, where=where, message=message(problem)))


def _match_key(index: int, key: str) -> Message:
    """A key of match ``index`` (from 1): ``match 3 players``."""
    return Message(N_("match %(match)s %(key)s"), match=index, key=key)


def _match_place(path: Path, index: int) -> Message:
    """Match ``index`` (from 1) of the file ``path``, as a place."""
    return Message(MATCH_PLACE, file=str(path), match=index)


def _shown(text: str, most: int = 60) -> str:
    """``text`` for a message: cut to ``most`` characters."""
    return text if len(text) <= most else text[: most - 3] + "..."


@dataclass(frozen=True)
class Loaded:
    """What loading one event did."""

    event: EventView
    matches: int
    recorded_deals: int
    quick_deals: int


def load_events(
    store: Store, folders: Sequence[Path], *, label: str = "tally load"
) -> list[Loaded]:
    """Load the events kept in ``folders`` into ``store`` in ONE transaction: every folder is
    stored, or (when any is refused) none, and the database is as it was."""
    with store.transaction(label):
        return [load_event(store, folder) for folder in folders]


def read_text_file(path: Path, what: object = "", limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes, UTF-8 (a byte-order mark is
    skipped); :class:`LoadError` naming the file otherwise.

    The file is checked with ``stat`` before it is opened (a FIFO, a device, a folder is
    refused unopened, so nothing blocks), opened non-blocking, checked again on the open file
    (in case it was swapped meanwhile) and read to at most ``limit`` + 1 bytes, so an
    oversized file is refused without being read whole.
    """
    where: object = Message(PLACED, where=what, message=str(path)) if what else str(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise refused_at(where, Message(CANNOT_READ, reason=system_reason(exc))) from None
    _check_regular(info, where, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise refused_at(where, Message(CANNOT_READ, reason=system_reason(exc))) from None
    try:
        _check_regular(os.fstat(fd), where, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:
                chunk = os.read(fd, limit + 1 - size)
            except OSError as exc:
                raise refused_at(where, Message(CANNOT_READ, reason=system_reason(exc))) from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise refused_at(
            where,
            Message(
                N_("larger than %(limit)s bytes, more than any real one; not read"),
                limit=f"{limit:,}",
            ),
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise refused_at(
            where,
            Message(
                N_("not UTF-8 text (byte %(byte)s cannot be read as UTF-8)"), byte=exc.start + 1
            ),
        ) from None


def _check_regular(info: os.stat_result, where: object, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise refused_at(where, N_("is a folder, not a file"))
    if not stat.S_ISREG(info.st_mode):
        kind = (
            N_("is a named pipe (FIFO); only regular files are read")
            if stat.S_ISFIFO(info.st_mode)
            else N_("is a device; only regular files are read")
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else N_("is a socket; only regular files are read")
            if stat.S_ISSOCK(info.st_mode)
            else N_("not a regular file; only regular files are read")
        )
        raise refused_at(where, kind)
    if info.st_size > limit:
        raise refused_at(
            where,
            Message(
                N_(
                    "%(size)s bytes, larger than %(limit)s bytes (more than any real one); not read"
                ),
                size=f"{info.st_size:,}",
                limit=f"{limit:,}",
            ),
        )


def _read_toml(path: Path) -> dict[str, Any]:
    """``event.toml`` read and parsed; one line naming the file for anything wrong."""
    text = read_text_file(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise refused_at(path, Message(NOT_TOML, reason=str(exc))) from None
    except RecursionError:
        raise refused_at(
            path, Message(NOT_TOML, reason=Message(N_("arrays or tables nested too deeply")))
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise refused_at(path, Message(NOT_TOML, reason=str(exc))) from None


def load_event(store: Store, folder: Path) -> Loaded:
    """Load the event kept in ``folder`` into ``store`` (see the module docstring).

    Called on its own, each stored step commits by itself; :func:`load_events` (what ``tally
    load`` runs) makes the whole load one transaction.
    """
    path = folder / "event.toml"
    data = _read_toml(path)
    name = _text(data, "name", path)
    kind = KINDS.get(_text(data, "kind", path))
    if kind is None:
        raise refused_at(path, Message(N_("kind must be one of %(kinds)s"), kinds=", ".join(KINDS)))
    players = _names(data.get("players"), path, "players")
    if any(e.name.casefold() == name.strip().casefold() for e in store.events.all()):
        raise refused_at(path, Message(LOADED_ALREADY, name=name))
    options = _options(data, path)
    held_on = _date(data.get("date"), path)
    fmt = format_of(kind)
    matches = _match_tables(data, fmt, path)
    rules_spec = _text(data, "rules", path) if "rules" in data else "sixty-six"
    planned = _check_matches(folder, path, fmt, players, rules_spec, matches)
    _add_new_players(store, players, path)
    try:
        event = store.events.create(
            name, kind=kind, players=players, held_on=held_on, rules=rules_spec, **options
        )
    except TallyError as exc:
        raise refused_at(path, exc.wording) from None
    if fmt.ranks_by_elimination:
        recorded, quick = _staged_matches(store, event, matches, planned, data, path)
    elif fmt.pairs_from_standings:
        recorded, quick = _swiss_rounds(store, event, matches, planned, path)
    else:
        recorded, quick = _club_or_round_robin_matches(store, event, fmt, matches, planned, path)

    return Loaded(store.events.get(event.id), len(matches), recorded, quick)


def _match_tables(data: dict[str, Any], fmt: EventFormat, path: Path) -> list[dict[str, Any]]:
    """The file's ``[[matches]]`` tables, each with a whole-number round and table where the
    kind needs them (round robins, Swiss, knockouts and groups; a play-off needs none)."""
    matches = data.get("matches", [])
    if not isinstance(matches, list) or not all(isinstance(m, dict) for m in matches):
        raise refused_at(path, N_("matches must be a list of [[matches]] tables"))
    staged = fmt.ranks_by_elimination
    if fmt.has_rounds:
        for index, m in enumerate(matches, start=1):
            if staged and m.get("playoff") is True and "round" not in m:
                continue
            for key in ("round", "table"):
                if not isinstance(m.get(key), int) or isinstance(m.get(key), bool):
                    raise refused_at(
                        _match_place(path, index),
                        Message(N_("%(key)s must be a whole number"), key=key),
                    )
    return matches


def _add_new_players(store: Store, players: list[str], path: Path) -> None:
    """Add the event's players the store does not know yet (names compared ignoring case)."""
    known = {p.name.casefold() for p in store.players.all()}
    for player in players:
        if player.casefold() not in known:
            try:
                store.players.add(player)
            except TallyError as exc:
                raise refused_at(path, exc.wording) from None


def _club_or_round_robin_matches(
    store: Store,
    event: EventView,
    fmt: EventFormat,
    matches: list[dict[str, Any]],
    planned: list[_Planned],
    path: Path,
) -> tuple[int, int]:
    """A club evening's or round robin's matches, in the file's order: each one made (a round
    robin's by starting its rounds first) and its deals stored. How many deals were recorded
    and kept as results."""
    made = (
        _round_robin_matches(store, event, matches, path) if fmt.has_rounds_made_in_advance else {}
    )
    recorded = quick = 0
    for index, (m, plan) in enumerate(zip(matches, planned, strict=True), start=1):
        try:
            if fmt.has_rounds_made_in_advance:
                match_id = made[(m["round"], m["table"])]
            else:
                match_id = store.matches.start(
                    *plan.players, first_dealer=plan.first_dealer, event=event.id
                ).id
            deals = _play(store, match_id, plan)
        except TallyError as exc:
            raise refused_at(_match_place(path, index), exc.wording) from None
        recorded, quick = recorded + deals[0], quick + deals[1]
    return recorded, quick


def _swiss_rounds(
    store: Store,
    event: EventView,
    matches: list[dict[str, Any]],
    planned: list[_Planned],
    path: Path,
) -> tuple[int, int]:
    """Load a Swiss event round by round (module docstring): pair each round as tally does,
    check the file's matches of the round against it, store their deals. How many deals were
    recorded and kept as results."""
    numbers = sorted({m["round"] for m in matches})
    if numbers != list(range(1, len(numbers) + 1)):
        raise refused_at(
            path,
            Message(
                N_("a Swiss event's rounds are listed from 1 without a gap, not %(rounds)s"),
                rounds=", ".join(map(str, numbers)),
            ),
        )
    recorded = quick = 0
    for number in numbers:
        r, q = _replay_round(store, event, number, matches, planned, path, swiss=True)
        recorded, quick = recorded + r, quick + q
    return recorded, quick


def _replay_round(
    store: Store,
    event: EventView,
    number: int,
    matches: list[dict[str, Any]],
    planned: list[_Planned],
    path: Path,
    *,
    swiss: bool = False,
) -> tuple[int, int]:
    """Start round ``number`` as the event's format makes it, check the file's matches of
    the round against it table by table (:mod:`tally.files.replay`; a Swiss round's players
    in either order, and only the tables the file lists) and store their deals. Returns
    (records, results) stored."""
    from tally.files import replay

    indices = [i for i, m in enumerate(matches) if m.get("round") == number]
    try:
        rnd = replay.start_round(store, event.id, number)
    except TallyError as exc:
        raise LoadError(
            Message(AT_ROUND, file=str(path), round=number, message=exc.wording)
        ) from None
    listed = [
        replay.Listed(matches[i]["table"], planned[i].players, planned[i].first_dealer)
        for i in indices
    ]
    try:
        made = replay.match_round(
            number,
            _maker(event, rnd),
            replay.made_matches(rnd),
            listed,
            ordered=not swiss,
            complete=not swiss,
        )
    except replay.Mismatch as exc:
        if exc.index is None:
            raise LoadError(Message(AT_FILE, file=str(path), message=exc.wording)) from None
        raise _at_match(path, indices[exc.index] + 1, exc) from None
    recorded = quick = 0
    for i, match_id in zip(indices, made, strict=True):
        try:
            r, q = _play(store, match_id, planned[i])
        except TallyError as exc:
            raise _at_match(path, i + 1, exc) from None
        recorded, quick = recorded + r, quick + q
    return recorded, quick


def _maker(event: EventView, rnd: RoundView) -> Message:
    """Who made a round, for a refusal: the Swiss pairing, the schedule, the draw (a
    knockout's: how it was drawn)."""
    from tally.files.replay import DRAWN

    if rnd.draw:
        return Message(DRAWN, draw=rnd.draw)
    return Message(event.format.round_maker)


def _at_match(path: Path, index: int, exc: TallyError) -> LoadError:
    """A refusal of match ``index`` (from 1) of the file ``path``."""
    return LoadError(Message(AT_MATCH, file=str(path), match=index, message=exc.wording))


@dataclass(frozen=True)
class _Planned:
    """One match of the file, checked: who plays, who deals first, its records as
    ``(file, text)`` pairs and its quick results as ``(winner, points, reason)``."""

    players: tuple[str, str]
    first_dealer: str
    records: list[tuple[str, str]]
    results: list[tuple[str | None, int, str]]


def _check_matches(
    folder: Path,
    path: Path,
    fmt: EventFormat,
    players: list[str],
    spec: str,
    matches: list[dict[str, Any]],
) -> list[_Planned]:
    """Check every match of the file before anything is stored: its records (read and ruled
    by the engine, fitting the match's dealers and carry), its results (against the rule
    set) and, for a round robin, its place in the schedule. Returns each match as planned."""
    from tally.engine.rules import RuleSet

    try:
        rules = RuleSet.parse(spec)
    except TallyError as exc:
        raise refused_at(path, exc.wording) from None
    schedule: dict[tuple[int, int], Pairing] = {}
    if fmt.has_rounds_made_in_advance:
        try:
            schedule = {
                (r.number, p.table): p
                for r in fmt.schedule(players, {"double_round": False, "swap_last_rounds": False})
                for p in r.pairings
            }
        except TallyError as exc:
            raise refused_at(path, exc.wording) from None
    out: list[_Planned] = []
    for index, m in enumerate(matches, start=1):
        where = _match_place(path, index)
        pair = _names(m.get("players"), path, _match_key(index, "players"))
        if len(pair) != 2:
            raise refused_at(where, N_("a match has two players"))
        dealer = _text(m, "first_dealer", path)
        if fmt.has_rounds_made_in_advance:
            _check_in_schedule(schedule, m, pair, dealer, where)
        out.append(_check_match(folder, path, rules, m, index, (pair[0], pair[1]), dealer))
    return out


def _check_in_schedule(
    schedule: dict[tuple[int, int], Pairing],
    m: dict[str, Any],
    pair: list[str],
    dealer: str,
    where: Message,
) -> None:
    """Refuse a round-robin match that is not the schedule's pairing at its round and table
    (players in order, the first one dealing first)."""
    p = schedule.get((m["round"], m["table"]))
    if p is None:
        raise refused_at(
            where,
            Message(
                N_("round %(round)s table %(table)s is not in the schedule"),
                round=m["round"],
                table=m["table"],
            ),
        )
    if pair != [p.first, p.second] or dealer != p.first:
        from tally.files.replay import Made, mismatch

        raise refused_at(
            where,
            mismatch(
                m["round"],
                Made(m["table"], p.first, p.second, p.first, 0),
                Message(N_("the schedule")),
            ),
        )


def _check_match(
    folder: Path,
    path: Path,
    rules: RuleSet,
    m: dict[str, Any],
    index: int,
    pair: tuple[str, str],
    dealer: str,
) -> _Planned:
    """One match of the file checked: its records, then its quick results, then the whole
    match as the engine scores it."""
    from tally.engine.match import MATCH_RESULT, DealResult, check_quick_result, score_match

    where = _match_place(path, index)
    texts: list[tuple[str, str]] = []
    quick: list[tuple[str | None, int, str]] = []
    results: list[DealResult] = []
    for rel in _names(m.get("records", []), path, _match_key(index, "records")):
        texts.append(_check_record(folder, rel, where, rules, pair, dealer, results))
    for result in _names(m.get("results", []), path, _match_key(index, "results")):
        try:
            winner, points, reason = _result(result, where)
            if reason != MATCH_RESULT:  # a match result is checked whole as it is stored
                check_quick_result(rules, winner, points, reason)
        except TallyError as exc:
            raise refused_at(where, exc.wording) from None
        results.append(DealResult(winner, points, reason))
        quick.append((winner, points, reason))
    try:
        score_match(rules, pair, dealer, results)
    except TallyError as exc:
        raise refused_at(where, exc.wording) from None
    return _Planned(pair, dealer, texts, quick)


def _check_record(
    folder: Path,
    rel: str,
    where: Message,
    rules: RuleSet,
    pair: tuple[str, str],
    dealer: str,
    results: list[DealResult],
) -> tuple[str, str]:
    """One record file of a match: inside the folder, read and ruled by the engine, dealt
    by whom the match says after ``results``; appends its result and returns
    ``(file, text)``."""
    from tally.engine.match import DealResult, score_match
    from tally.engine.notation import read_deal
    from tally.engine.ruling import rule

    if (
        not rel.strip()
        or any(ord(c) < 32 or c == "\x7f" for c in rel)
        or len(rel) > MAX_RECORD_NAME
    ):
        raise refused_at(
            where,
            Message(
                N_("%(name)s is not a record's file name (a path inside the folder, at most "
                   "%(most)s characters, no control characters)"),
                name=repr(_shown(rel)),
                most=MAX_RECORD_NAME,
            ),
        )  # fmt: skip
    file = folder / rel
    at_file = Message(PLACED, where=where, message=_shown(rel))
    try:
        inside = file.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError) as exc:
        raise refused_at(at_file, Message(CANNOT_READ, reason=str(exc))) from None
    if not inside:
        raise refused_at(at_file, N_("records are read from inside the event's folder only"))
    text = read_text_file(file, where)
    at_file = Message(PLACED, where=where, message=str(file))
    try:
        ruling = rule(read_deal(text, str(file)), str(file))
    except TallyError as exc:
        raise refused_at(at_file, exc.wording) from None
    if ruling.errors or ruling.outcome is None:
        raise refused_at(at_file, ruling.errors[0].said)
    state = score_match(rules, pair, dealer, results)
    if (ruling.dealer, ruling.forehand) != (
        state.next_dealer,
        pair[1] if state.next_dealer == pair[0] else pair[0],
    ):
        raise refused_at(
            at_file,
            Message(
                N_("%(dealer)s deals in the record, %(next)s by the match"),
                dealer=ruling.dealer,
                next=state.next_dealer,
            ),
        )
    results.append(DealResult(ruling.outcome.winner, ruling.deal_points, ruling.outcome.reason))
    return str(file), text


def _round_robin_matches(
    store: Store, event: EventView, matches: list[Any], path: Path
) -> dict[tuple[int, int], int]:
    """Start every round the file has matches for (checked against the schedule already by
    :func:`_check_matches`); (round, table) -> match id. The rounds are all started before
    any deal is stored (``force``: a file is what was played, not a round started early)."""
    made: dict[tuple[int, int], int] = {}
    for number in sorted({m["round"] for m in matches}):
        try:
            rnd = store.events.start_round(event.id, number, force=True)
        except TallyError as exc:
            raise LoadError(
                Message(AT_ROUND, file=str(path), round=number, message=exc.wording)
            ) from None
        for pairing in rnd.pairings:
            if pairing.matches:
                made[(number, pairing.table)] = pairing.matches[0].match_id
    return made


def _play(store: Store, match_id: int, plan: _Planned) -> tuple[int, int]:
    """Store a planned match's records and results; (records, results) stored."""
    from tally.files.replay import play

    return play(store, match_id, plan.records, plan.results)


def _staged_matches(
    store: Store,
    event: EventView,
    matches: list[dict[str, Any]],
    planned: list[_Planned],
    data: dict[str, Any],
    path: Path,
) -> tuple[int, int]:
    """A knockout's or groups event's matches: round by round, each round started (drawn),
    checked against the file and its results stored before the next; then the withdrawals
    after that round; then the play-offs. Returns (records, results) stored."""

    withdrawals = _withdrawal_tables(data, path)
    by_round: dict[int, list[int]] = {}
    playoffs: list[int] = []
    for index, m in enumerate(matches):
        if "round" in m:
            by_round.setdefault(m["round"], []).append(index)
        else:
            playoffs.append(index)
    last = max([*by_round, *(w["after_round"] for w in withdrawals)], default=0)
    recorded = quick = 0
    for number in range(0, last + 1):
        if number:
            r, q = _replay_round(store, event, number, matches, planned, path)
            recorded, quick = recorded + r, quick + q
        for w in withdrawals:
            if w["after_round"] == number:
                try:
                    store.events.withdraw(event.id, w["player"])
                except TallyError as exc:
                    raise refused_at(
                        path,
                        Message(
                            N_("withdrawal of %(player)s: %(message)s"),
                            player=w["player"],
                            message=exc.wording,
                        ),
                    ) from None
    for index in playoffs:
        plan = planned[index]
        try:
            mid = store.knockouts.record_playoff(
                event.id, *plan.players, first_dealer=plan.first_dealer
            )
            r, q = _play(store, mid, plan)
        except TallyError as exc:
            raise refused_at(_match_place(path, index + 1), exc.wording) from None
        recorded, quick = recorded + r, quick + q
    return recorded, quick


def _withdrawal_tables(data: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    """The file's ``[[withdrawals]]`` tables, each with a player and an after_round."""
    withdrawals = data.get("withdrawals", [])
    if not isinstance(withdrawals, list) or not all(
        isinstance(w, dict)
        and isinstance(w.get("player"), str)
        and isinstance(w.get("after_round"), int)
        for w in withdrawals
    ):
        raise refused_at(
            path,
            N_(
                "withdrawals must be [[withdrawals]] tables with player (a text) and "
                "after_round (a whole number)"
            ),
        )
    return withdrawals


def _options(data: dict[str, Any], path: Path) -> dict[str, Any]:
    """The event's optional settings, each checked for its type."""
    out: dict[str, Any] = {}
    for key, (types, what, keyword) in OPTIONAL.items():
        if key not in data:
            continue
        value = data[key]
        wrong = not isinstance(value, types) or (isinstance(value, bool) and bool not in types)
        if key == "tiebreaks" and not wrong:
            wrong = not all(isinstance(v, str) for v in value)
        if wrong:
            raise refused_at(path, Message(MUST_BE, key=key, what=Message(what)))
        out[keyword] = value
    return out


def _text(data: dict[str, Any], key: str, path: Path) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise refused_at(path, Message(MUST_BE, key=key, what=Message(N_("a text"))))
    return value


def _names(value: Any, path: Path, what: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise refused_at(path, Message(MUST_BE, key=what, what=Message(N_("a list of texts"))))
    return list(value)


def _date(value: Any, path: Path) -> date | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        raise refused_at(path, N_("date must be a day (YYYY-MM-DD), not a day and time"))
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise refused_at(
            path, Message(N_('date must be YYYY-MM-DD, not "%(value)s"'), value=_shown(str(value)))
        ) from None


def _result(text: str, where: object) -> tuple[str | None, int, str]:
    """``"Anna Berger 2 claim"`` -> ("Anna Berger", 2, "claim"); ``"draw"`` -> (None, 0, draw)
    (:func:`tally.engine.notation.read_result_phrase`)."""
    from tally.engine.notation import read_result_phrase

    try:
        return read_result_phrase(text, reason=True, most_digits=3)
    except NotationError:
        raise Refused(
            Message(
                N_(
                    'a result is "Winner N reason" (N in digits 0-9, at most 3) or "draw", '
                    'not "%(text)s"'
                ),
                text=_shown(text),
            )
        ) from None
