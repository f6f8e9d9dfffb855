"""The tiebreaks are described once, in their table (tally.events.tiebreaks.TABLE): the
docs' table is made from it and current, every place that shows a tiebreak reads it, the
settings of a ranking are one value, and a refusal about tiebreaks reads German on a German
laptop."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tally.errors import TallyError
from tally.events.tiebreak_docs import PAGE, page_with_table
from tally.events.tiebreaks import (
    TABLE,
    TIEBREAKS,
    MatchResult,
    Ranking,
    option_help,
    pairs_of,
    rank_pairs,
    standings,
)
from tally.i18n import worded
from tests.i18n.german_support import english_words, refusal_in_german

PLAYERS = ["Anna", "Bela", "Cili", "Dora"]
RESULTS = [
    MatchResult("Anna", "Bela", "Anna", 7, 3),
    MatchResult("Cili", "Dora", "Cili", 7, 5),
    MatchResult("Anna", "Cili", "Cili", 4, 7),
    MatchResult("Bela", "Dora", "Bela", 7, 0),
]


def test_the_tiebreak_table_of_the_docs_is_made_from_the_records() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert page_with_table(page) == page, "run python -m tally.events.tiebreak_docs"
    for t in TABLE.values():
        assert f"| `{t.name}` |" in page
        assert t.help in page


def test_the_docs_give_each_tiebreak_its_column_in_english_and_german() -> None:
    page = PAGE.read_text(encoding="utf-8")
    assert "| `head-to-head` | H2H | DV |" in page
    assert "| `buchholz-cut-1` | BH-C1 | BH-S1 |" in page
    assert "| `wins` | none (the matches won column) | keine (Spalte gewonnene Bummerl) |" in page


def test_every_tiebreak_has_one_record_with_a_head_or_a_column_it_repeats() -> None:
    assert tuple(TABLE) == TIEBREAKS
    for t in TABLE.values():
        assert (t.head is None) != (t.repeats is None), t.name
        assert t.legend and t.help and callable(t.key)


def test_the_tiebreaks_option_help_names_every_tiebreak_and_what_it_counts() -> None:
    text = option_help()
    for t in TABLE.values():
        assert f"{t.name}: {t.help}" in text


def test_a_ranking_is_one_checked_value_the_keywords_make_too() -> None:
    ranking = Ranking(["buchholz", "wins"], "percentage", 2.0, 2.0, 1.0, "virtual-opponent")
    assert ranking.tiebreaks == ("buchholz", "wins")
    assert ranking.needs_rounds
    by_keywords = standings(PLAYERS, RESULTS, tiebreaks=["wins", "head-to-head"])
    by_value = rank_pairs(PLAYERS, pairs_of(PLAYERS, RESULTS), Ranking(("wins", "head-to-head")))
    assert by_keywords == by_value
    with pytest.raises(TallyError, match="unknown tiebreak 'toss'"):
        Ranking(("toss",))
    with pytest.raises(TallyError, match="not one string"):
        Ranking("wins")
    with pytest.raises(TallyError, match="rank by points or percentage, not 'luck'"):
        Ranking(rank_by="luck")


# --- the refusals in German ---------------------------------------------------------------


def _refused(call: Callable[[], object]) -> TallyError:
    with pytest.raises(TallyError) as caught:
        call()
    return caught.value


LIBRARY_REFUSALS: list[tuple[str, Callable[[], object]]] = [
    ("one string", lambda: standings(PLAYERS, [], tiebreaks="wins")),
    ("unknown tiebreak", lambda: standings(PLAYERS, [], tiebreaks=["toss"])),
    ("winner elsewhere", lambda: standings(PLAYERS, [MatchResult("Anna", "Bela", "Cili", 7, 3)])),
    ("not a player", lambda: standings(PLAYERS, [MatchResult("Anna", "Emil", "Anna", 7, 3)])),
    ("twice", lambda: standings(PLAYERS, [MatchResult("Anna", "Anna", "Anna", 7, 3)])),
    ("negative points", lambda: standings(PLAYERS, [MatchResult("Anna", "Bela", "Anna", 7, -3)])),
    ("negative requested", lambda: standings(PLAYERS, [], match_points_per_requested_bye=-1)),
    ("rank by", lambda: standings(PLAYERS, [], rank_by="luck")),
    ("negative win", lambda: standings(PLAYERS, [], match_points_per_win=-1)),
    ("unplayed", lambda: standings(PLAYERS, [], unplayed="fide")),
    ("no rounds", lambda: standings(PLAYERS, [], tiebreaks=["progressive"])),
    ("rounds of a stranger", lambda: standings(PLAYERS, [], rounds={"Emil": []})),
    ("byes of a stranger", lambda: standings(PLAYERS, [], byes={"Emil": 1})),
    ("negative byes", lambda: standings(PLAYERS, [], byes={"Anna": -1})),
    ("negative running", lambda: standings(PLAYERS, [], running={"Anna": -1})),
    ("requested of a stranger", lambda: standings(PLAYERS, [], requested_byes={"Emil": 1})),
]


@pytest.mark.parametrize(("case", "call"), LIBRARY_REFUSALS, ids=[c for c, _ in LIBRARY_REFUSALS])
def test_a_refusal_of_the_standings_is_worded_in_german(
    case: str, call: Callable[[], object]
) -> None:
    error = _refused(call)
    german = worded(error.wording, "de")
    assert german != str(error), case
    names = ["Anna", "Bela", "Cili", "Emil", "toss", "luck", "fide", "wins"]
    assert not english_words(german, names), german


CLI_REFUSALS = [
    (["standings", "--season", "--tiebreaks", "nonsense"], "nonsense", "Feinwertung"),
    (["standings", "--season", "--tiebreaks", "wins,wins"], "wins", "zweimal"),
    (["event", "create", "Cup", "--tiebreaks", "luck"], "luck", "Feinwertung"),
]


@pytest.mark.parametrize(("args", "typed", "word"), CLI_REFUSALS)
def test_a_tiebreak_refused_on_the_command_line_is_refused_in_german(
    store: Any, db_url: str, args: list[str], typed: str, word: str
) -> None:
    del store  # the database, made
    said = refusal_in_german(db_url, *args, names=[typed])
    assert word in said
