"""A team event: teams of the club (``tally team``) meet team against team, board k of one
against board k of the other, every team once (a round robin over the teams by the Berger
tables, :func:`team_schedule`).

The event's entries are the teams' players, team after team, each team's first ``boards``
players in its board order: the team at position p (from 1) holds seeds ``(p - 1) * boards
+ 1`` to ``p * boards``. The teams and their names are kept in ``event_teams``
(:mod:`tally.store.teams`); each board is an ordinary match of the event, recorded as any
match is, and the team standings are summed from those matches
(:func:`tally.events.teams.team_table`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tally.errors import Message, Refused
from tally.events.formats.base import (
    EventFormat,
    Given,
    Option,
    R,
    RoundMaker,
    Settings,
    refuse_draw_options,
    refuse_ordering,
    refuse_rounds,
)
from tally.events.formats.options import MATCHES_PER_PAIRING
from tally.events.schedule import Pairing, Round, berger_schedule, rounds_for
from tally.i18n import N_

#: the most boards a team match may have
MAX_BOARDS = 30

BOARDS = Option(
    "boards",
    "whole",
    low=1,
    high=MAX_BOARDS,
    optional=True,
    label=N_("Boards per team"),
    help=N_(
        "How many players of each team play each team match, board k against board k "
        "(a team's first N players in its board order)."
    ),
    column="events.boards",
    metavar="N",
    form_value="4",
    exported="always",
)
TEAM_RANK = Option(
    "team_rank",
    "text",
    default="bummerl",
    label=N_("Teams are ranked by"),
    help=N_(
        "What ranks the teams: 'bummerl' (Bummerl won, the default), or 'match-points' "
        "(2 for a team match won on boards, 1 drawn, 0 lost; then Bummerl won). "
        "See docs/events.md."
    ),
    column="events.team_rank",
    metavar="bummerl|match-points",
    choices=(("bummerl", N_("Bummerl won")), ("match-points", N_("team match points"))),
    exported="always",
)
TEAM_RANKS = TEAM_RANK.values
FIRST_TO = Option(
    "first_to",
    "whole",
    low=1,
    high=999,
    optional=True,
    label=N_("A race of two teams to N Bummerl won"),
    help=N_(
        "Two teams race to N Bummerl won (the Vergleichsschnapsen): each round every player "
        "meets the next player of the other team, until one team has won N."
    ),
    column="events.first_to",
    metavar="N",
)


@dataclass(frozen=True)
class TeamSettings(Settings):
    boards: int = 1
    team_rank: str = "bummerl"
    matches_per_pairing: int = 1
    first_to: int | None = None

    def columns(self) -> dict[str, Any]:
        return super().columns() | {
            "boards": self.boards,
            "team_rank": self.team_rank,
            "matches_per_pairing": self.matches_per_pairing,
            "first_to": self.first_to,
        }


def race_rounds(boards: int, first_to: int) -> int:
    """How many rounds a race of two teams of ``boards`` to ``first_to`` Bummerl may take:
    enough for ``2 * first_to - 1`` Bummerl, by which one team has won ``first_to``.

    >>> race_rounds(8, 5), race_rounds(3, 5)
    (2, 3)
    """
    return -(-(2 * first_to - 1) // boards)


def race_schedule(entrants: Sequence[str], boards: int, first_to: int) -> list[Round]:
    """The rounds of a race of two teams (``boards`` entrants each): in round r board k of
    the first team meets board ``k + r - 1`` (round about) of the second, so every player
    meets each of the other team in turn; the first team deals first at the odd tables of
    odd rounds and the even tables of even rounds.

    >>> [(p.first, p.second) for p in race_schedule("abcd", 2, 2)[1].pairings]
    [('d', 'a'), ('b', 'c')]
    """
    home, away = list(entrants[:boards]), list(entrants[boards : 2 * boards])
    out: list[Round] = []
    for r in range(race_rounds(boards, first_to)):
        pairings = []
        for k in range(boards):
            a, b = home[k], away[(k + r) % boards]
            first, second = (a, b) if (k + r) % 2 == 0 else (b, a)
            pairings.append(Pairing(k + 1, first, second))
        out.append(Round(r + 1, tuple(pairings), None))
    return out


def team_schedule(entrants: Sequence[str], boards: int) -> list[Round]:
    """Every round of a team round robin: the teams (``boards`` entrants each, in order) paired
    by the Berger tables, each team pairing played board k against board k at tables
    ``(t - 1) * boards + k``; the team listed first deals first at its odd boards, the other at
    the even ones. A team paired with the Berger dummy sits the round out (no bye is scored).

    >>> [(p.table, p.first, p.second) for p in team_schedule("abcd", 2)[0].pairings]
    [(1, 'a', 'c'), (2, 'd', 'b')]
    """
    teams = [list(entrants[i : i + boards]) for i in range(0, len(entrants), boards)]
    out: list[Round] = []
    for rnd in berger_schedule([str(i) for i in range(len(teams))]):
        pairings: list[Pairing] = []
        for pairing in rnd.pairings:
            first, second = teams[int(pairing.first)], teams[int(pairing.second)]
            for k in range(boards):
                a, b = (first[k], second[k]) if k % 2 == 0 else (second[k], first[k])
                pairings.append(Pairing((pairing.table - 1) * boards + k + 1, a, b))
        out.append(Round(rnd.number, tuple(pairings), None))
    return out


class TeamEvent(EventFormat):
    kind = "team"
    file_names = ("team",)
    title = N_("team event")
    audit_name = "team event"
    loaded_name = N_("team event")
    standings_name = N_("team event")
    article_name = "a team event"
    summary = N_("teams meet team against team, board k against board k")
    options = (BOARDS, TEAM_RANK, FIRST_TO, MATCHES_PER_PAIRING)
    has_rounds_made_in_advance = True
    has_scheduled_pairings = True
    has_scored_rounds = True
    plays_several_matches_per_pairing = True
    plays_in_teams = True

    def settings(self, given: Given) -> TeamSettings:
        refuse_rounds(given)
        refuse_ordering(given)
        refuse_draw_options(self, given)
        boards = given.value(BOARDS)
        if boards is None:
            raise Refused(N_("a team event needs --boards N: how many players of a team play"))
        for option, value in ((BOARDS, boards), (FIRST_TO, given.value(FIRST_TO))):
            if value is not None and not option.low <= value <= option.high:
                raise Refused(
                    Message(
                        N_("%(option)s must be from %(low)s to %(high)s, not %(value)s"),
                        option=option.option,
                        low=option.low,
                        high=option.high,
                        value=value,
                    )
                )
        rank = given.value(TEAM_RANK)
        if rank not in TEAM_RANKS:
            raise Refused(
                Message(
                    N_('--team-rank must be bummerl or match-points, not "%(rank)s"'), rank=rank
                )
            )
        if given.players < 2 * boards or given.players % boards:
            raise Refused(
                Message(
                    N_("a team event needs at least 2 teams of %(boards)s players each"),
                    boards=boards,
                )
            )
        first_to = given.value(FIRST_TO)
        if first_to is not None and given.players != 2 * boards:
            raise Refused(N_("a race to N Bummerl (--first-to) is between two teams"))
        return TeamSettings(boards, rank, given.matches_per_pairing, first_to)

    def start_round(self, rounds: RoundMaker[R], number: int) -> R:
        return rounds.from_schedule(number)

    def total_rounds(self, players: int, settings: Mapping[str, Any]) -> int:
        boards = int(settings.get("boards") or 0)
        if settings.get("first_to") and boards:
            return race_rounds(boards, int(settings["first_to"]))
        return rounds_for(players // boards) if boards and players >= 2 * boards else 0

    def schedule(self, entrants: Sequence[str], settings: Mapping[str, Any]) -> list[Round]:
        if settings.get("first_to"):
            return race_schedule(entrants, int(settings["boards"]), int(settings["first_to"]))
        return team_schedule(entrants, int(settings["boards"]))
