"""FIDE's Tournament Report File (TRF-16), the exchange file of chess pairing programs
(JaVaFo, bbpPairings, Swiss-Manager): writing one and reading one.

A TRF is a text file of fixed columns. Lines starting ``012`` (the tournament's name),
``042``/``052`` (start and end date), ``062`` (the number of players), ``092`` (the type)
and ``XXR`` (the number of rounds, the pairing programs' extension) make the head; each
player is a ``001`` line::

    columns  1-3   001
             5-8   the starting rank (the player's number in the file)
            15-47  the name
            49-52  the rating (blank for none)
            81-84  the points
            86-89  the rank
            92-    one block of 8 characters per round, 2 spaces apart (92-99, 102-109...):
                   the opponent's starting rank (4, ``0000`` for none), a space, the colour
                   (``w``, ``b`` or ``-``), a space, the result

Results: ``1`` won, ``0`` lost, ``=`` drawn, ``+``/``-`` won/lost by forfeit, ``U`` the
pairing's bye, ``F``/``H``/``Z`` a bye of a full point, half a point or none asked for (``Z``
also: not paired); a blank result after an opponent and a colour (``0003 w  ``) a game paired
and not played yet (the round a pairing checker such as ``bbpPairings -c`` checks); a blank
block not paired.

What each result is worth is the file's point system (:class:`PointSystem`, a win 1 and a
draw 0.5 unless it says otherwise), written twice, for each kind of program: the ``XXS`` line
of JaVaFo and py4swiss (``XXS WW=3 BW=3 ... PAB=0``) and the ``BBW``/``BBD``/``BBL``/``BBZ``/
``BBF``/``BBU`` lines of bbpPairings (``BBW  3.0``). This module knows the file, not tally's
events: :mod:`tally.files.trf_export` and :mod:`tally.files.trf_import` map one to the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from tally.errors import Message, TallyError
from tally.i18n import N_

__all__ = [
    "RESULTS",
    "PointSystem",
    "TrfGame",
    "TrfPlayer",
    "TrfTournament",
    "point_system",
    "read_trf",
    "write_trf",
]

#: the results a round's block may hold, and the points each is worth (blank: a game paired
#: and not played yet, with an opponent and a colour)
RESULTS: dict[str, float] = {
    "1": 1.0,
    "0": 0.0,
    "=": 0.5,
    "+": 1.0,
    "-": 0.0,
    "U": 1.0,
    "F": 1.0,
    "H": 0.5,
    "Z": 0.0,
    "W": 1.0,
    "D": 0.5,
    "L": 0.0,
    " ": 0.0,
}
_FIRST_ROUND = 91  # 0-based column of the first round's block (column 92)
_BLOCK = 10


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One round of a player: ``opponent`` their starting rank (None for no opponent),
    ``colour`` ``w``, ``b`` or ``-``, ``result`` one of :data:`RESULTS`."""

    opponent: int | None
    colour: str
    result: str


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A ``001`` line: ``games[r]`` is round ``r + 1`` (None: not paired that round; as
    read, one per round of the file, a short line's last rounds None)."""

    number: int
    name: str
    points: float
    rank: int
    rating: int | None = None
    games: tuple[TrfGame | None, ...] = ()


@dataclass(frozen=True, slots=True)
class PointSystem:
    """What each result is worth: ``win`` a won game, a forfeit win and a full-point bye;
    ``draw`` a draw and a half-point bye; ``bye`` the pairing's bye (``U``); anything else 0."""

    win: float = 1.0
    draw: float = 0.5
    bye: float = 1.0

    def worth(self, game: TrfGame | None) -> float:
        """The points ``game`` scores (0 for a round not paired)."""
        if game is None:
            return 0.0
        if game.result == "U":
            return self.bye
        return {1.0: self.win, 0.5: self.draw}.get(RESULTS[game.result], 0.0)

    def lines(self) -> list[str]:
        """The ``XXS`` line and bbpPairings' ``BB*`` lines saying it."""
        w, d, u = (f"{x:.1f}" for x in (self.win, self.draw, self.bye))
        xxs = f"XXS WW={w} BW={w} WD={d} BD={d} WL=0.0 BL=0.0 FW={w} FL=0.0 ZPB=0.0 "
        xxs += f"HPB={d} FPB={w} PAB={u}"
        bbp = [("BBW", w), ("BBD", d), ("BBL", "0.0"), ("BBZ", "0.0"), ("BBF", "0.0")]
        return [xxs] + [f"{code} {value:>4}" for code, value in [*bbp, ("BBU", u)]]


def point_system(per_win: float, bye_scores: bool) -> PointSystem:
    """The point system of an event whose won match is worth ``per_win`` (a half-point bye
    half of it) and whose pairing's bye scores a win (``bye_scores``) or nothing."""
    return PointSystem(per_win, per_win / 2, per_win if bye_scores else 0.0)


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A whole file: its head, its players in the order of their numbers and its point
    system (None: the format's own, a win 1)."""

    name: str
    start: str
    end: str
    kind: str
    rounds: int
    players: tuple[TrfPlayer, ...] = field(default_factory=tuple)
    points: PointSystem | None = None


def write_trf(t: TrfTournament) -> str:
    """The TRF-16 text of ``t`` (lines end with a newline).

    >>> p = TrfPlayer(1, "Anna", 1.0, 1, None, (TrfGame(2, "w", "1"),))
    >>> line = write_trf(TrfTournament("Open", "2026/11/28", "2026/11/28", "Swiss", 1,
    ...                                (p,))).splitlines()[-1]
    >>> line[14:18], line[80:84], line[85:89], line[91:99]
    ('Anna', ' 1.0', '   1', '0002 w 1')
    """
    head = [
        f"012 {t.name}",
        f"042 {t.start}",
        f"052 {t.end}",
        f"062 {len(t.players)}",
        f"092 {t.kind}",
        f"XXR {t.rounds}",
    ]
    system = [] if t.points is None else t.points.lines()
    return "\n".join(head + [_player_line(p) for p in t.players] + system) + "\n"


def _player_line(p: TrfPlayer) -> str:
    """A player's ``001`` line, column for column."""
    rating = "" if p.rating is None else str(p.rating)
    line = (
        f"001 {p.number:>4}{'':6}{p.name[:33]:<33} {rating:>4}{'':28}{p.points:>4.1f} {p.rank:>4}  "
    )
    for game in p.games:
        if game is None:
            line += " " * _BLOCK
        else:
            opponent = "0000" if game.opponent is None else f"{game.opponent:04}"
            line += f"{opponent} {game.colour} {game.result}  "
    return line


#: a refusal at a place of the file (``x.trf line 3: ...``): no words of its own
_AT: Final = "%(where)s: %(message)s"
#: a line of the file, and a column of a line
_LINE: Final = N_("%(file)s line %(line)s")
_COLUMN: Final = N_("%(line)s column %(column)s")


def _refused(where: object, template: str, **params: object) -> TallyError:
    """A refusal of the file at ``where`` (its name, a line, a column)."""
    return TallyError(Message(_AT, where=where, message=Message(template, **params)))


def read_trf(text: str, where: object = "TRF") -> TrfTournament:
    """A TRF's head and players; lines of other kinds are skipped. Raises
    :class:`~tally.errors.TallyError` naming ``where`` and the line for a ``001`` line that
    does not keep to the columns, a player numbered twice, or an opponent not in the file."""
    head: dict[str, str] = {}
    players: list[TrfPlayer] = []
    for number, line in enumerate(text.splitlines(), start=1):
        code = line[:3]
        if code == "001":
            players.append(_read_player(line, Message(_LINE, file=where, line=number)))
        elif code in ("012", "042", "052", "092", "XXR", "XXS", "BBW", "BBU"):
            head[code] = line[4:].strip()
    numbers = [p.number for p in players]
    if len(set(numbers)) != len(numbers):
        raise _refused(where, N_("a starting rank is given to two players"))
    for p in players:
        for g in p.games:
            if g is not None and g.opponent is not None and g.opponent not in numbers:
                raise _refused(
                    where,
                    N_("%(player)s meets number %(number)s, who is not in the file"),
                    player=p.name,
                    number=g.opponent,
                )
    rounds = max([len(p.games) for p in players] + [_int(head.get("XXR", "0"), where)])
    padded = (
        replace(p, games=p.games + (None,) * (rounds - len(p.games)))
        for p in sorted(players, key=lambda p: p.number)
    )
    return TrfTournament(
        head.get("012", ""),
        head.get("042", ""),
        head.get("052", ""),
        head.get("092", ""),
        rounds,
        tuple(padded),
        _point_system(head, where),
    )


def _point_system(head: dict[str, str], where: object) -> PointSystem | None:
    """The file's point system from its ``XXS`` line, else bbpPairings' ``BBW``/``BBU``
    lines (None when it has neither)."""
    codes: dict[str, str] = {}
    for part in head.get("XXS", "").split():
        code, _, value = part.partition("=")
        codes[code] = value
    win = codes.get("WW", codes.get("W", head.get("BBW")))
    if win is None:
        return None
    bye = codes.get("PAB", head.get("BBU", win))
    draw = codes.get("HPB", codes.get("D", str(_number(win, where) / 2)))
    return PointSystem(_number(win, where), _number(draw, where), _number(bye, where))


def _number(text: str, where: object) -> float:
    try:
        return float(text)
    except ValueError:
        raise _refused(
            where, N_("points %(points)s of the point system are not a number"), points=repr(text)
        ) from None


def _int(text: str, where: object) -> int:
    try:
        return int(text)
    except ValueError:
        raise _refused(where, N_("%(text)s is not a number"), text=repr(text)) from None


def _read_player(line: str, where: object) -> TrfPlayer:
    """One ``001`` line (see the module docstring for its columns)."""
    name = line[14:47].strip()
    if not name:
        raise _refused(where, N_("a player without a name (columns 15-47)"))
    rating = line[48:52].strip()
    points = line[80:84].strip() or "0"
    try:
        value = float(points)
    except ValueError:
        raise _refused(
            where, N_("points %(points)s (columns 81-84) are not a number"), points=repr(points)
        ) from None
    rank = line[85:89].strip()
    games = tuple(
        _read_game(line[at : at + 8], Message(_COLUMN, line=where, column=at + 1))
        for at in range(_FIRST_ROUND, len(line.rstrip()), _BLOCK)
    )
    return TrfPlayer(
        _int(line[4:8].strip(), where),
        name,
        value,
        _int(rank, where) if rank else 0,
        _int(rating, where) if rating else None,
        games,
    )


def _read_game(block: str, where: object) -> TrfGame | None:
    """One round's block: ``OOOO C R`` (None when blank: not paired)."""
    if not block.strip():
        return None
    block = block.ljust(8)
    opponent, colour, result = block[0:4].strip(), block[5], block[7]
    if colour not in "wb-" or result not in RESULTS:
        raise _refused(
            where,
            N_("%(block)s is not a round (opponent, colour w/b/-, result one of %(results)s)"),
            block=repr(block),
            results=" ".join(r for r in RESULTS if r.strip()),
        )
    number = _int(opponent, where) if opponent else 0
    if result == " " and (not number or colour == "-"):
        raise _refused(
            where,
            N_("%(block)s has no result: only a game paired (an opponent and a colour w/b) may "
               "wait for one"),
            block=repr(block),
        )  # fmt: skip
    return TrfGame(number or None, colour, result)
