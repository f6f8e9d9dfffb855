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
import re
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tally.errors import LoadError, Message, Refused, TallyError
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
    "bool": ((bool,), "true or false"),
    "whole": ((int,), "a whole number"),
    "text": ((str,), "a text"),
}
#: the optional keys of event.toml -> (their types, what they must be, the keyword of
#: :func:`create_event`): those of every event, then each format's own
OPTIONAL: dict[str, tuple[tuple[type, ...], str, str]] = {
    "match_points_per_win": ((int, float), "a number", "match_points_per_win"),
    **{
        key: ((str,), "a text", key)
        for key in (
            "bye",
            "withdrawal",
            "rank_by",
            "language",
            "unplayed",
            "seed_by",
            "absence_score",
        )
    },
    "tiebreaks": ((list,), "a list of texts", "tiebreaks"),
    **{o.key: (*_TYPES[o.type], o.argument) for f in FORMATS.values() for o in f.options},
}


#: The largest record or event file tally reads, in bytes (1 MiB). Real ones are far smaller:
#: a record of a whole deal is about 1 KB, the event file of a 64-player round robin kept as
#: quick results about 300 KB.
MAX_FILE_BYTES: Final = 1024 * 1024

#: The longest file name of a record in ``event.toml`` (a path inside the folder).
MAX_RECORD_NAME: Final = 255

_POINTS = re.compile(r"[0-9]{1,3}")

#: where in an event folder a refusal is: the file, a match of it, a round of it
AT_FILE: Final = "%(file)s: %(message)s"
AT_MATCH: Final = N_("%(file)s, match %(match)s: %(message)s")
AT_ROUND: Final = N_("%(file)s: round %(round)s: %(message)s")


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


def read_text_file(path: Path, what: str = "", limit: int = MAX_FILE_BYTES) -> str:
    """The text of a regular file of at most ``limit`` bytes, UTF-8 (a byte-order mark is
    skipped); :class:`LoadError` naming the file otherwise.

    The file is checked with ``stat`` before it is opened (a FIFO, a device, a folder is
    refused unopened, so nothing blocks), opened non-blocking, checked again on the open file
    (in case it was swapped meanwhile) and read to at most ``limit`` + 1 bytes, so an
    oversized file is refused without being read whole.
    """
    where = f"{what}: {path}" if what else str(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise LoadError(f"{where}: cannot be read: {exc.strerror or exc}") from None
    _check_regular(info, where, limit)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise LoadError(f"{where}: cannot be read: {exc.strerror or exc}") from None
    try:
        _check_regular(os.fstat(fd), where, limit)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            try:
                chunk = os.read(fd, limit + 1 - size)
            except OSError as exc:
                raise LoadError(f"{where}: cannot be read: {exc.strerror or exc}") from None
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise LoadError(f"{where}: larger than {limit:,} bytes, more than any real one; not read")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LoadError(
            f"{where}: not UTF-8 text (byte {exc.start + 1} cannot be read as UTF-8)"
        ) from None


def _check_regular(info: os.stat_result, where: str, limit: int) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise LoadError(f"{where}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a named pipe (FIFO)"
            if stat.S_ISFIFO(info.st_mode)
            else "a device"
            if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "a socket"
            if stat.S_ISSOCK(info.st_mode)
            else "not a regular file"
        )
        kind = kind if kind.startswith("not") else f"is {kind}"
        raise LoadError(f"{where}: {kind}; only regular files are read")
    if info.st_size > limit:
        raise LoadError(
            f"{where}: {info.st_size:,} bytes, larger than {limit:,} bytes "
            "(more than any real one); not read"
        )


def _read_toml(path: Path) -> dict[str, Any]:
    """``event.toml`` read and parsed; one line naming the file for anything wrong."""
    text = read_text_file(path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LoadError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise LoadError(f"{path}: not valid TOML: arrays or tables nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python converts
        raise LoadError(f"{path}: not valid TOML: {exc}") from None


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
        raise LoadError(f"{path}: kind must be one of {', '.join(KINDS)}")
    players = _names(data.get("players"), path, "players")
    if any(e.name.casefold() == name.strip().casefold() for e in store.events.all()):
        raise LoadError(f'{path}: an event named "{name}" is loaded already')
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
        raise LoadError(f"{path}: {exc}") from None
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
        raise LoadError(f"{path}: matches must be a list of [[matches]] tables")
    staged = fmt.ranks_by_elimination
    if fmt.has_rounds:
        for index, m in enumerate(matches, start=1):
            if staged and m.get("playoff") is True and "round" not in m:
                continue
            for key in ("round", "table"):
                if not isinstance(m.get(key), int) or isinstance(m.get(key), bool):
                    raise LoadError(f"{path}, match {index}: {key} must be a whole number")
    return matches


def _add_new_players(store: Store, players: list[str], path: Path) -> None:
    """Add the event's players the store does not know yet (names compared ignoring case)."""
    known = {p.name.casefold() for p in store.players.all()}
    for player in players:
        if player.casefold() not in known:
            try:
                store.players.add(player)
            except TallyError as exc:
                raise LoadError(f"{path}: {exc}") from None


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
            raise LoadError(f"{path}, match {index}: {exc}") from None
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
        raise LoadError(
            f"{path}: a Swiss event's rounds are listed from 1 without a gap, "
            f"not {', '.join(map(str, numbers))}"
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
        raise LoadError(f"{path}: {exc}") from None
    schedule: dict[tuple[int, int], Pairing] = {}
    if fmt.has_rounds_made_in_advance:
        try:
            schedule = {
                (r.number, p.table): p
                for r in fmt.schedule(players, {"double_round": False, "swap_last_rounds": False})
                for p in r.pairings
            }
        except TallyError as exc:
            raise LoadError(f"{path}: {exc}") from None
    out: list[_Planned] = []
    for index, m in enumerate(matches, start=1):
        where = f"{path}, match {index}"
        pair = _names(m.get("players"), path, f"match {index} players")
        if len(pair) != 2:
            raise LoadError(f"{where}: a match has two players")
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
    where: str,
) -> None:
    """Refuse a round-robin match that is not the schedule's pairing at its round and table
    (players in order, the first one dealing first)."""
    p = schedule.get((m["round"], m["table"]))
    if p is None:
        raise LoadError(f"{where}: round {m['round']} table {m['table']} is not in the schedule")
    if pair != [p.first, p.second] or dealer != p.first:
        raise LoadError(
            f"{where}: round {m['round']} table {m['table']} is "
            f"{p.first} against {p.second}, {p.first} dealing first, by "
            "the schedule"
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

    where = f"{path}, match {index}"
    texts: list[tuple[str, str]] = []
    quick: list[tuple[str | None, int, str]] = []
    results: list[DealResult] = []
    for rel in _names(m.get("records", []), path, f"match {index} records"):
        texts.append(_check_record(folder, rel, where, rules, pair, dealer, results))
    for result in _names(m.get("results", []), path, f"match {index} results"):
        try:
            winner, points, reason = _result(result, where)
            if reason != MATCH_RESULT:  # a match result is checked whole as it is stored
                check_quick_result(rules, winner, points, reason)
        except TallyError as exc:
            raise LoadError(f"{where}: {exc}") from None
        results.append(DealResult(winner, points, reason))
        quick.append((winner, points, reason))
    try:
        score_match(rules, pair, dealer, results)
    except TallyError as exc:
        raise LoadError(f"{where}: {exc}") from None
    return _Planned(pair, dealer, texts, quick)


def _check_record(
    folder: Path,
    rel: str,
    where: str,
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
        raise LoadError(
            f"{where}: {_shown(rel)!r} is not a record's file name (a path "
            f"inside the folder, at most {MAX_RECORD_NAME} characters, "
            "no control characters)"
        )
    file = folder / rel
    try:
        inside = file.resolve().is_relative_to(folder.resolve())
    except (OSError, RuntimeError, ValueError) as exc:
        raise LoadError(f"{where}: {_shown(rel)}: cannot be read: {exc}") from None
    if not inside:
        raise LoadError(
            f"{where}: {_shown(rel)}: records are read from inside the event's folder only"
        )
    text = read_text_file(file, where)
    try:
        ruling = rule(read_deal(text, str(file)), str(file))
    except TallyError as exc:
        raise LoadError(f"{where}: {file}: {exc}") from None
    if ruling.errors or ruling.outcome is None:
        raise LoadError(f"{where}: {file}: {ruling.errors[0]}")
    state = score_match(rules, pair, dealer, results)
    if (ruling.dealer, ruling.forehand) != (
        state.next_dealer,
        pair[1] if state.next_dealer == pair[0] else pair[0],
    ):
        raise LoadError(
            f"{where}: {file}: {ruling.dealer} deals in the record, "
            f"{state.next_dealer} by the match"
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
            raise LoadError(f"{path}: round {number}: {exc}") from None
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
                    raise LoadError(f"{path}: withdrawal of {w['player']}: {exc}") from None
    for index in playoffs:
        plan = planned[index]
        try:
            mid = store.knockouts.record_playoff(
                event.id, *plan.players, first_dealer=plan.first_dealer
            )
            r, q = _play(store, mid, plan)
        except TallyError as exc:
            raise LoadError(f"{path}, match {index + 1}: {exc}") from None
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
        raise LoadError(
            f"{path}: withdrawals must be [[withdrawals]] tables with player "
            "(a text) and after_round (a whole number)"
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
            raise LoadError(f"{path}: {key} must be {what}")
        out[keyword] = value
    return out


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
    if isinstance(value, datetime):
        raise LoadError(f"{path}: date must be a day (YYYY-MM-DD), not a day and time")
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise LoadError(f'{path}: date must be YYYY-MM-DD, not "{_shown(str(value))}"') from None


def _result(text: str, where: str) -> tuple[str | None, int, str]:
    """``"Anna Berger 2 claim"`` -> ("Anna Berger", 2, "claim"); ``"draw"`` -> (None, 0, draw)."""
    if text.strip().lower() == "draw":
        return None, 0, "draw"
    words = text.split()
    if len(words) < 3 or not _POINTS.fullmatch(words[-2]):
        raise Refused(
            f'a result is "Winner N reason" (N in digits 0-9, at most 3) or "draw", '
            f'not "{_shown(text)}"'
        )
    return " ".join(words[:-2]), int(words[-2]), words[-1]
