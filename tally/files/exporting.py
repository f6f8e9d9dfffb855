"""Exporting an event: one JSON file that ``tally load`` reads back, a CSV for spreadsheets,
or a folder in the ``event.toml`` format of :mod:`tally.files.loading`.

``tally event export EVENT --format json|csv|folder [-o PATH]`` runs these. The JSON file is
described field by field in ``docs/event-json.md``; in short::

    {"format": "tally-event", "version": 1,
     "name": "Autumn cup", "kind": "round-robin", "date": "2026-11-19", "rules": "sixty-six",
     "match_points_per_win": 1.0, "bye": "none", "withdrawal": "forfeit",
     "tiebreaks": ["head-to-head", ...], "rank_by": "points",
     "options": {"double": false, "matches_per_pairing": 1},   # what the kind adds
     "players": [{"name": "Anna Berger", "aliases": ["Anni"]}, ...],   # seed order
     "rounds": [{"round": 1, "bye": "Emil Wagner"}, ...],   # in the order started
     # (a round's "swaps": [["Anna Berger", "Carl Moser"]] when the director swapped two)
     "withdrawals": [{"player": "Emil Wagner", "before_round": 3}],
     "absences": [{"player": "Carl Moser", "round": 2}],   # announced (a requested bye)
     "no_shows": [{"player": "Dora Lang", "round": 1}],   # did not come (a forfeit)
     "apart": [{"players": ["Anna Berger", "Bert Huber"], "after_round": 0}],  # kept apart
     "matches": [{"round": 1, "table": 1, "players": ["Anna Berger", "Bert Huber"],
                  "first_dealer": "Anna Berger",
                  "deals": [{"record": "[Rules \\"sixty-six\\"]\\n..."},
                            {"result": {"winner": "Anna Berger", "points": 2,
                                        "reason": "claim"}}],
                  "score": {"Anna Berger": 7, "Bert Huber": 3}, "winner": "Anna Berger"}]}

Choices made where the issue is silent:

- No database numbers and no time stamps are written (event, match and deal numbers differ
  from one database to the next; a time stamp would make two exports of the same event
  differ): matches are listed in the order they were made, deals in match order, and the
  order of rounds and withdrawals is what the time stamps said. So an event exported, loaded
  into another database and exported again gives the same bytes.
- A deal kept trick by trick is its canonical ``.deal`` record, exactly as ``tally deal
  export`` writes it (with its ``Event``, ``Date``, ``Round`` and ``Table`` tags); a deal
  entered as a result is its winner (None for a draw), points before the carry and reason.
- ``score`` and ``winner`` of a match are derived (the engine works them out from the deals);
  they are written for programs that read the file, and a load refuses a file where they do
  not agree with the deals.
- Kind-specific settings live in ``options`` (a Swiss event's ``rounds`` and
  ``matches_per_pairing``; a knockout's ``lives``, ``seed`` and ``final``; groups'
  ``groups`` and ``advance``: the names of ``tally event create``'s options); a knockout's or
  groups event's matches carry ``playoff`` (true for a play-off, which has no round or
  table); a player who joined a Swiss event or knockout late carries ``joined_after_round``
  (see :func:`_joined`). The draws, pairings and bracket are not written: they are what
  tally makes of the seed and the results, and a load makes them again and checks them
  against the matches. A reader refuses keys and kinds it does not know, so a newer file is
  never half read.
- The CSV has one row per deal (a match with no deal yet has one row with the deal columns
  empty). It is for spreadsheets and is not read back: it does not carry the event's
  settings, withdrawals, byes or the records of the deals.
- The folder export writes what :mod:`tally.files.loading` reads (``event.toml`` and
  ``deals/matchN-dealK.deal``); that format has no place for withdrawals, aliases, a deal
  still being played, a record after a result in one match, or several matches per pairing,
  so an event with any of these is refused there (with the reason) and should be exported as
  JSON.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from tally.errors import Message, Refused
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store
    from tally.store.views import EventView, MatchView

#: What the ``format`` field of an event file says.
FORMAT: Final = "tally-event"
#: The version of the event file this tally writes and reads.
VERSION: Final = 1

#: The columns of the CSV export, one row per deal.
CSV_COLUMNS: Final = (
    "match",
    "round",
    "table",
    "player_1",
    "player_2",
    "first_dealer",
    "deal",
    "dealer",
    "entered",
    "winner",
    "points",
    "reason",
    "game_points",
    "carry",
    "score_1",
    "score_2",
    "match_winner",
)

Cell = str | int | float | None


@dataclass(frozen=True)
class _Exported:
    """An event as read for export: its view, what the timeline says, each match with its
    deals' records (None for a deal entered as a result) and the players' aliases."""

    event: EventView
    rounds: list[dict[str, Any]]
    withdrawals: list[dict[str, Any]]
    matches: list[tuple[MatchView, list[str | None]]]
    aliases: dict[str, tuple[str, ...]]
    #: the players' categories (``tally player category``), by name
    categories: dict[str, tuple[str, ...]]


def _read(store: Store, ref: str | int) -> _Exported:

    ev = store.events.get(ref)
    line = store.timeline.of_event(ev.id)
    swaps: dict[int, list[list[str]]] = {}
    for number, first, second in store.swaps.made(ev.id):
        swaps.setdefault(number, []).append([first, second])
    fmt = ev.format
    kept = fmt.pairs_from_standings or fmt.ranks_by_elimination
    given = store.given.rounds(ev.id) if kept else set()
    # a round kept as made that seeded the bracket or started the play-off says so: the
    # load cannot draw it again
    seeded = store.given.seeding(ev.id) if given and fmt.ranks_by_elimination else {}
    matches = [
        (store.matches.state(match_id), records)
        for match_id, records in zip(
            line.match_ids, store.timeline.records(line.match_ids), strict=True
        )
    ]
    entrants = {p.name for p in ev.players}
    everyone = [p for p in store.players.all() if p.name in entrants]
    aliases = {p.name: p.aliases for p in everyone}
    return _Exported(
        ev,
        [
            {"round": r.number, "bye": r.bye}
            | ({"swaps": swaps[r.number]} if r.number in swaps else {})
            | ({"given": True} | seeded.get(r.number, {}) if r.number in given else {})
            for r in line.rounds
        ],
        [{"player": w.player, "before_round": w.before_round} for w in line.withdrawals],
        matches,
        aliases,
        {p.name: p.categories for p in everyone if p.categories},
    )


def _format_row(store: Store, ev: EventView) -> dict[str, Any] | None:
    """A knockout's or groups event's format, money and buy-backs
    (``store.knockouts.settings``); None for the other kinds."""
    if not ev.format.ranks_by_elimination:
        return None

    return store.knockouts.settings(ev.id)


def _options(ev: EventView, draw: dict[str, Any] | None) -> dict[str, Any]:
    """The settings only the event's format has (named as its file options), and the rule
    for unplayed rounds, the seeding and a requested bye's score where they are not the
    default."""
    fide = {"unplayed": ev.unplayed} if ev.unplayed != "as-scored" else {}
    seeding = {"seed_by": ev.seed_by} if ev.seed_by != "entry" else {}
    absence = {"absence_score": ev.absence_score} if ev.absence_score != "half" else {}
    return ev.format.json_options(ev, draw) | fide | seeding | absence


def _euros(cents: int) -> int | float:
    """An amount of money as the file writes it: euros, a whole number when it is one."""
    return cents // 100 if cents % 100 == 0 else cents / 100


def _prizes(draw: dict[str, Any] | None) -> dict[str, Any]:
    """The ``prizes`` of an event file: the money set with ``tally event prizes``, named as
    its options (what is not set is left out); {} when nothing is set."""
    if draw is None:
        return {}
    out: dict[str, Any] = {}
    if draw["entry_fee"] is not None:
        out["entry_fee"] = _euros(draw["entry_fee"])
    if draw["prize_shares"]:
        out["prizes"] = draw["prize_shares"]
    if draw["prize_unit"] != 1:
        out["round_to"] = _euros(draw["prize_unit"])
    if draw["buy_back_until"] is not None:
        out["buy_back_until"] = draw["buy_back_until"]
    if draw["buy_back_fee"] is not None:
        out["buy_back_fee"] = _euros(draw["buy_back_fee"])
    if draw["buy_backs"] != 1:
        out["buy_backs"] = draw["buy_backs"]
    if draw["buy_back_at_once"]:
        out["buy_back_at_once"] = True
    if draw["category_prizes"]:
        out["category_prizes"] = draw["category_prizes"].splitlines()
    return out


def _match(ev: EventView, m: MatchView, records: list[str | None]) -> dict[str, Any]:
    out: dict[str, Any] = {"round": m.round, "table": m.table}
    if ev.format.ranks_by_elimination:
        out["playoff"] = m.round is None
    return out | {
        "players": list(m.players),
        "first_dealer": m.first_dealer,
        "deals": [_deal(d, r) for d, r in zip(m.deals, records, strict=True)],
        "score": {p: m.score[p] for p in m.players},
        "winner": m.winner,
    }


def _joined(x: _Exported) -> dict[str, int]:
    """The players of a Swiss event or knockout who joined late: name -> the last round
    started before they joined.

    The store keeps no time of entry, so it is read from the rounds: every round of these
    kinds pairs (or draws, or gives the bye or a requested bye to) every player who is in and
    has not withdrawn, so a player joined just before the first round they play or sit out
    in; one who plays in no round joined just before the round their withdrawal came before,
    or after the last round. A player who joined before the first round counts as entered
    with the event (the same event either way)."""
    if not x.event.format.takes_late_entries or not x.rounds:
        return {}
    order = [r["round"] for r in x.rounds]
    seen: dict[str, int] = {}
    for r in x.rounds:
        if r["bye"] is not None:
            seen.setdefault(r["bye"], order.index(r["round"]))
    for number, name in x.event.absences:  # a requested bye: in, but not paired
        if number in order:
            seen[name] = min(seen.get(name, len(order)), order.index(number))
    for m, _records in x.matches:
        if m.round in order:
            for name in m.players:
                seen[name] = min(seen.get(name, len(order)), order.index(m.round))
    gone = {w["player"]: w["before_round"] for w in x.withdrawals}
    joined: dict[str, int] = {}
    for entrant in x.event.players:
        first = seen.get(entrant.name)
        if first is None:
            before = gone.get(entrant.name)
            first = len(order) if before is None else order.index(before)
        if first > 0:
            joined[entrant.name] = order[first - 1]
    return joined


def _deal(deal: Any, record: str | None) -> dict[str, Any]:
    if record is not None:
        return {"record": record}
    return {"result": {"winner": deal.winner, "points": deal.deal_points, "reason": deal.reason}}


def _by_round(ev: EventView) -> dict[str, Any]:
    """An event's absences announced and no-shows, each left out when there is none."""
    out: dict[str, Any] = {}
    if ev.absences:
        out["absences"] = [{"player": name, "round": n} for n, name in ev.absences]
    if ev.no_shows:
        out["no_shows"] = [{"player": name, "round": n} for n, name in ev.no_shows]
    return out


def event_document(store: Store, ref: str | int) -> dict[str, Any]:
    """Event ``ref`` as the JSON document ``tally load`` reads back (plain data)."""
    x = _read(store, ref)
    ev = x.event
    joined = _joined(x)
    draw = _format_row(store, ev)
    ratings = {p.name: p.seed_rating for p in ev.players}

    def player(name: str) -> dict[str, Any]:
        out: dict[str, Any] = {"name": name, "aliases": list(x.aliases.get(name, ()))}
        if name in x.categories:
            out["categories"] = list(x.categories[name])
        if name in joined:
            out["joined_after_round"] = joined[name]
        if ev.seeded and name not in joined:
            out["seed_rating"] = ratings[name]
        return out

    money = _prizes(draw)
    bought = [] if draw is None else draw["bought"]
    apart = [
        {"players": [first, second], "after_round": after} | ({} if kept else {"undo": True})
        for after, first, second, kept in store.pairings.apart_history(ev.id)
    ]
    return (
        {
            "format": FORMAT,
            "version": VERSION,
            "name": ev.name,
            "kind": ev.kind,
            "date": ev.date.isoformat(),
            "rules": ev.rules,
            "match_points_per_win": ev.match_points_per_win,
            "bye": ev.bye,
            "withdrawal": ev.withdrawal,
            "tiebreaks": list(ev.tiebreaks),
            "rank_by": ev.rank_by,
            "language": ev.language,
            "options": _options(ev, draw),
            "players": [player(p.name) for p in ev.players],
            "rounds": x.rounds,
            "withdrawals": x.withdrawals,
            "matches": [_match(ev, m, records) for m, records in x.matches],
        }
        | ({"prizes": money} if money else {})
        | _by_round(ev)
        | (
            {
                "buy_backs": [
                    {"player": name, "after_round": after, "fee": _euros(fee)}
                    for name, after, fee in bought
                ]
            }
            if bought
            else {}
        )
        | ({"apart": apart} if apart else {})
        | _desk(store, ev)
        | _teams(ev)
    )


def _desk(store: Store, ev: EventView) -> dict[str, Any]:
    """The treasurer's desk (``tally event checkin``): each player with a row there (here,
    paid, extra fees, prize paid out, in euros) and whether only players checked in are
    paired; {} when the desk is empty."""
    rows = [
        {
            "player": a.player,
            "present": a.present,
            "paid": _euros(a.paid),
            "extra": _euros(a.extra),
            "paid_out": _euros(a.paid_out),
        }
        for a in store.treasurer.book(ev.id).accounts
        if a.present or a.paid or a.extra or a.paid_out
    ]
    return ({"desk": rows} if rows else {}) | ({"check_in": True} if ev.check_in else {})


def _teams(ev: EventView) -> dict[str, Any]:
    """A team event's teams, by name with their players (:mod:`tally.events.formats.team`)."""
    if not ev.teams:
        return {}
    return {"teams": [{"name": name, "players": list(names)} for name, names in ev.teams]}


def dump_json(document: Any) -> str:
    """``document`` as the text of an event file: strict JSON (no NaN or Infinity), UTF-8
    characters as they are, two-space indents, a newline at the end; the same document
    always gives the same text."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, indent=2) + "\n"


def event_json(store: Store, ref: str | int) -> str:
    """Event ``ref`` as the text of its JSON event file."""
    return dump_json(event_document(store, ref))


def event_csv(store: Store, ref: str | int) -> tuple[tuple[str, ...], list[list[Cell]]]:
    """Event ``ref`` as CSV: :data:`CSV_COLUMNS` and a row per deal (a match without deals:
    one row, the deal columns empty). ``match`` numbers the matches of the event from 1 in
    the order they were made; ``points`` are the deal's game points before the carry,
    ``game_points`` what the winner scored with the carry, ``carry`` what a draw carries
    on; ``score_1``/``score_2`` the running score of ``player_1``/``player_2``."""
    x = _read(store, ref)
    rows: list[list[Cell]] = []
    for number, (m, records) in enumerate(x.matches, start=1):
        a, b = m.players
        head: list[Cell] = [number, m.round, m.table, a, b, m.first_dealer]
        if not m.deals:
            rows.append([*head, *([None] * 10), m.winner])
        for d, record in zip(m.deals, records, strict=True):
            finished = d.finished
            rows.append(
                [
                    *head,
                    d.number,
                    d.dealer,
                    "record" if record is not None else "result",
                    d.winner,
                    d.deal_points if finished else None,
                    d.reason,
                    d.game_points if finished else None,
                    d.carry_out if finished else None,
                    d.score_after.get(a),
                    d.score_after.get(b),
                    m.winner,
                ]
            )
    return CSV_COLUMNS, rows


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        assert math.isfinite(value)
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


def event_folder(store: Store, ref: str | int) -> dict[str, str]:
    """Event ``ref`` in the folder format of :mod:`tally.files.loading`: file name (``event.toml``,
    ``deals/matchN-dealK.deal``) -> text. Refused (saying why, and that JSON keeps it) for an
    event that format cannot hold: withdrawals, aliases, a deal still being played, a record
    after a result in one match, several matches per pairing."""
    x = _read(store, ref)
    ev = x.event
    why = _why_no_folder(x)
    if why is not None:
        raise Refused(
            Message(
                N_('event %(id)s "%(name)s" cannot be written as a folder (%(why)s): export '
                   "it as JSON (--format json), which keeps everything"),
                id=ev.id,
                name=ev.name,
                why=why,
            )
        )  # fmt: skip
    lines = _folder_settings(ev)
    files: dict[str, str] = {}
    for number, (m, records) in enumerate(x.matches, start=1):
        table, deal_files = _folder_match(number, m, records)
        lines += table
        files.update(deal_files)
    return {"event.toml": "\n".join(lines) + "\n", **files}


def _why_no_folder(x: _Exported) -> Message | None:
    """Why the folder format cannot hold the event (the first reason found), or None."""
    ev = x.event
    if not ev.format.exports_as_folder:
        return Message(
            N_("this tally writes folders of club evenings and round robins, not a %(kind)s"),
            kind=Message(ev.format.audit_name),
        )
    if x.withdrawals:
        return Message(N_("players withdrew from it"))
    if any(x.aliases.values()):
        return Message(N_("its players have aliases"))
    if ev.matches_per_pairing != 1:
        return Message(N_("its pairings play several matches"))
    for number, (m, records) in enumerate(x.matches, start=1):
        kinds = ["record" if r is not None else "result" for r in records]
        if "result" in kinds and "record" in kinds[kinds.index("result") :]:
            return Message(
                N_("match %(match)s has a deal kept trick by trick after one entered as a result"),
                match=number,
            )
        if any(not d.finished for d in m.deals):
            return Message(
                N_("deal %(deal)s is still being played"), deal=f"{number}.{len(m.deals)}"
            )
    return None


def _folder_settings(ev: EventView) -> list[str]:
    """The lines of ``event.toml`` before its matches: a comment, the event and its settings
    (``double`` for a round robin only, ``rank_by`` only when not the kind's default)."""
    kind = ev.format.file_names[0]
    lines = [
        f"# {ev.name}: exported by tally event export (the format: tally/files/loading.py)",
        f"name = {_toml_string(ev.name)}",
        f"kind = {_toml_string(kind)}",
        f"date = {_toml_string(ev.date.isoformat())}",
        f"rules = {_toml_string(ev.rules)}",
        f"players = {_toml_value([p.name for p in ev.players])}",
    ]
    settings: dict[str, Any] = {
        "match_points_per_win": ev.match_points_per_win,
        "bye": ev.bye,
        "withdrawal": ev.withdrawal,
        "tiebreaks": list(ev.tiebreaks),
    }
    # a folder's pairings play one match each (_why_no_folder), so that option is left out
    settings |= {
        key: value
        for key, value in ev.format.json_options(ev, None).items()
        if key != "matches_per_pairing"
    }
    if ev.rank_by != ev.format.default_rank_by:
        settings["rank_by"] = ev.rank_by
    return lines + [f"{key} = {_toml_value(value)}" for key, value in settings.items()]


def _folder_match(
    number: int, m: MatchView, records: list[str | None]
) -> tuple[list[str], dict[str, str]]:
    """Match ``number``'s ``[[matches]]`` table (lines of ``event.toml``, from the blank line
    before it) and its deals' record files (name -> text); deals without a record are
    listed as results."""
    lines = ["", "[[matches]]"]
    if m.round is not None:
        lines += [f"round = {m.round}", f"table = {m.table}"]
    lines += [
        f"players = {_toml_value(list(m.players))}",
        f"first_dealer = {_toml_string(m.first_dealer)}",
    ]
    files: dict[str, str] = {}
    names: list[str] = []
    results: list[str] = []
    for d, record in zip(m.deals, records, strict=True):
        if record is not None:
            name = f"deals/match{number}-deal{d.number}.deal"
            files[name] = record
            names.append(name)
        else:
            results.append("draw" if d.winner is None else f"{d.winner} {d.deal_points} {d.reason}")
    if names:
        lines.append(f"records = {_toml_value(names)}")
    if results:
        lines.append(f"results = {_toml_value(results)}")
    return lines, files


def write_folder(files: dict[str, str], folder: Path) -> None:
    """Write :func:`event_folder`'s files into ``folder`` (made if missing; refused if it
    holds an ``event.toml`` already, so no event kept as files is overwritten)."""
    if (folder / "event.toml").exists() or (folder / "event.toml").is_symlink():
        raise Refused(
            Message(
                N_("%(folder)s holds an event.toml already: give another folder"), folder=folder
            )
        )
    if folder.exists() and not folder.is_dir():
        raise Refused(Message(N_("%(folder)s is not a folder"), folder=folder))
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def write_text(text: str, path: Path) -> None:
    """Write ``text`` (UTF-8) to ``path`` in one piece: through a temporary file in the same
    folder that then replaces ``path``, so a reader never sees half an export. Refused when
    ``path`` is a folder or its folder is missing."""
    import os
    import tempfile

    if path.is_dir():
        raise Refused(Message(N_("%(path)s is a folder: give a file to write"), path=path))
    if not path.parent.is_dir():
        raise Refused(
            Message(
                N_("%(path)s: there is no folder %(folder)s to write in"),
                path=path,
                folder=repr(str(path.parent)),
            )
        )
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
