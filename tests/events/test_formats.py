"""Each event format has a home (tally/events/formats/): a format made up here, a ladder, is
created, paired and ranked through the store by adding it to the one table of formats and
touching no other file; and nothing outside the formats asks an event's kind by comparing
its name."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tally.errors import NotFound, Refused
from tally.events.formats import FORMATS, format_of
from tally.events.formats.base import (
    EventFormat,
    Given,
    RoundState,
    Settings,
    refuse_double_and_several_matches,
    refuse_draw_options,
    refuse_ordering,
)
from tally.events.schedule import Pairing, Round

TALLY = Path(__file__).resolve().parents[2] / "tally"
FORMATS_DIR = TALLY / "events" / "formats"


# --- a sixth format, defined only here ---------------------------------------------------------


@dataclass(frozen=True)
class LadderSettings(Settings):
    rounds: int

    def columns(self) -> dict[str, Any]:
        return super().columns() | {"rounds": self.rounds}


class Ladder(EventFormat):
    """A ladder: every round pairs the standings' first with the second, the third with the
    fourth, ...; the last of an odd number sits out."""

    kind = "ladder"
    file_names = ("ladder",)
    title = audit_name = loaded_name = standings_name = "ladder"
    article_name = "a ladder"
    matches_made = "from the ladder"
    pairs_from_standings = True
    has_scored_rounds = True
    default_tiebreaks: ClassVar[tuple[str, ...]] = ("wins",)

    def settings(self, given: Given) -> LadderSettings:
        rounds = given.rounds
        if rounds is None or not 1 <= rounds <= 10:
            raise Refused(f"a ladder climbs 1 to 10 rounds, not {rounds}")
        refuse_ordering(given)
        refuse_double_and_several_matches(self, given)
        refuse_draw_options(self, given)
        return LadderSettings(rounds)

    def total_rounds(self, players: int, settings: Any) -> int:
        return int(settings["rounds"])

    def next_round(self, state: RoundState) -> Round:
        ranked = list(state.ranked)
        bye = ranked.pop() if len(ranked) % 2 else None
        return Round(
            state.number,
            tuple(
                Pairing(k + 1, ranked[2 * k], ranked[2 * k + 1]) for k in range(len(ranked) // 2)
            ),
            bye,
        )


@pytest.fixture
def ladder() -> Iterator[EventFormat]:
    """The ladder in the table of formats for one test."""
    FORMATS["ladder"] = Ladder()
    try:
        yield FORMATS["ladder"]
    finally:
        del FORMATS["ladder"]


def _win_round(db: Any, event: int, number: int, winners: set[str]) -> None:
    rnd = db.events.start_round(event, number)
    for p in rnd.pairings:
        winner = p.first if p.first in winners else p.second
        for m in p.matches:
            for points in (3, 3, 1):
                db.deals.quick_result(m.match_id, winner=winner, points=points, reason="claim")


def test_a_sixth_format_in_the_table_is_created_paired_and_ranked_by_the_store(
    store: Any, ladder: EventFormat
) -> None:
    players = ["Anna", "Bert", "Carl", "Dora", "Emil"]
    for name in players:
        store.players.add(name)
    ev = store.events.create("Ladder night", kind="ladder", players=players, rounds=2)
    assert (ev.kind, ev.rounds, ev.tiebreaks, ev.rank_by) == ("ladder", 2, ("wins",), "points")
    assert ev.format is ladder

    # round 1 from the seeds (everyone on 0): 1-2, 3-4, Emil sits out
    first = store.events.rounds(ev.id)[0]
    assert [(p.first, p.second) for p in first.pairings] == [("Anna", "Bert"), ("Carl", "Dora")]
    assert first.bye == "Emil"
    _win_round(store, ev.id, 1, {"Bert", "Dora"})
    # round 2 from the standings: the winners meet, the losers meet, Emil is paired
    second = store.events.start_round(ev.id, 2)
    assert [(p.first, p.second) for p in second.pairings] == [("Bert", "Dora"), ("Anna", "Carl")]
    assert second.bye == "Emil"
    for p in second.pairings:
        for m in p.matches:
            for points in (3, 3, 1):
                store.deals.quick_result(m.match_id, winner=p.second, points=points, reason="claim")

    table = store.events.standings(ev.id)
    assert [(r.player, r.match_points) for r in table.rows][:2] == [("Dora", 2.0), ("Bert", 1.0)]
    assert table.stage == "final"
    with pytest.raises(NotFound, match=r"ladder .* has rounds 1 to 2, not 3"):
        store.events.start_round(ev.id, 3)


def test_a_sixth_format_checks_its_own_options(store: Any, ladder: EventFormat) -> None:
    store.players.add("Anna")
    with pytest.raises(Refused, match="a ladder climbs 1 to 10 rounds, not 11"):
        store.events.create("Too long", kind="ladder", players=["Anna"], rounds=11)
    with pytest.raises(Refused, match="--lives: only for a knockout or groups, not a ladder"):
        store.events.create("Lives", kind="ladder", players=["Anna"], rounds=2, lives=3)


def test_a_format_taken_out_of_the_table_is_refused(store: Any) -> None:
    with pytest.raises(Refused, match=r'the kind of event must be club or .*, not "ladder"'):
        store.events.create("Gone", kind="ladder", rounds=2)
    with pytest.raises(Refused, match='not "ladder"'):
        format_of("ladder")


def test_every_format_of_the_table_lives_in_its_own_module_of_the_formats_package() -> None:
    modules = {type(f).__module__ for f in FORMATS.values()}
    assert len(modules) == len(FORMATS) == 6
    assert all(m.startswith("tally.events.formats.") for m in modules)


# --- no kind compared outside the formats ------------------------------------------------------


def _kind_names() -> set[str]:
    return {name for f in FORMATS.values() for name in (f.kind, *f.file_names)}


def _literals(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [x for e in node.elts for x in _literals(e)]
    return []


def kind_comparisons() -> list[str]:
    """Every comparison with the name of a kind of event (``kind == "swiss"``, ``x in
    ("knockout", "groups")``) and every table keyed by such names, in tally/ outside
    tally/events/formats/."""
    names = _kind_names()
    found = []
    for path in sorted(TALLY.rglob("*.py")):
        if FORMATS_DIR in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(TALLY.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if set(x for side in sides for x in _literals(side)) & names:
                    found.append(f"{where}: {ast.unparse(node)}")
            elif isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if len(names.intersection(keys)) >= 2:
                    found.append(f"{where}: a table keyed by kinds")
    return found


def test_the_checker_sees_a_kind_compared() -> None:
    tree = ast.parse('if ev.kind in ("knockout", "groups") or kind == "swiss": pass')
    compares = [n for n in ast.walk(tree) if isinstance(n, ast.Compare)]
    assert [
        set(x for s in [c.left, *c.comparators] for x in _literals(s)) & _kind_names()
        for c in compares
    ] == [{"knockout", "groups"}, {"swiss"}]


def test_no_kind_of_event_is_compared_outside_the_formats() -> None:
    assert kind_comparisons() == []


def template_kind_comparisons(text: str) -> list[str]:
    """Comparisons of a kind of event with its name in a Jinja template (``kind == 'swiss'``,
    ``sheet.kind != "club"``) and tables keyed by those names: a template asks the format
    instead (``(kind | event_format).has_lives``)."""
    names = "|".join(re.escape(n) for n in sorted(_kind_names()))
    compared = re.compile(rf"""kind\s*(==|!=|in)\s*\(?\s*["']({names})["']""")
    keyed = re.compile(rf"""\{{\s*["']({names})["']\s*:""")
    return [m.group(0) for pattern in (compared, keyed) for m in pattern.finditer(text)]


def test_the_template_checker_sees_a_kind_compared() -> None:
    assert template_kind_comparisons("""{% if sheet.kind == "knockout" %}""") != []
    assert template_kind_comparisons("""{{ {"club": _("club evening")}[kind] }}""") != []
    assert template_kind_comparisons("""{% if d.kind == "quick" %}""") == []


def test_no_template_compares_a_kind_of_event() -> None:
    found = [
        f"{path.relative_to(TALLY.parent)}: {hit}"
        for path in sorted((TALLY.parent / "templates").rglob("*.j2"))
        for hit in template_kind_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == []
