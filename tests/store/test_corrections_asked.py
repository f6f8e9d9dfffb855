"""A correction says what it changes before it is stored (``store.consequences``'s
``record_correction``, ``quick_correction``, ``match_result_correction``): one changed card
that hands a deal to the other player is shown as such, trick by trick, with the match's
score before and after; nothing is stored by asking, and a correction confirmed on a question
about a match that has changed since is refused."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import Refused
from tally.i18n import worded
from tests.store_support import HANDED_OVER_CHANGED, dump, handed_over_match


def _said(lines: list[Any], lang: str = "en") -> str:
    return "\n".join(worded(m, lang) for m in lines)


def test_one_changed_card_that_hands_the_deal_over_is_said_before_it_is_stored(
    store: Any, db_url: str
) -> None:
    mid, did = handed_over_match(store)
    before = dump(db_url)
    asked = store.consequences.record_correction(did, HANDED_OVER_CHANGED)
    assert dump(db_url) == before  # asking stores nothing
    assert (asked.score_before, asked.score_after) == ((2, 0), (0, 3))
    said = _said(asked.lines())
    assert "the score goes from 2:0 to 0:3" in said
    assert "Trick 2: 10C 10S won by Bert, after the correction 10C 9C won by Anna." in said
    assert "Trick 2: the close moves from Bert to Anna." in said
    assert "Trick 3 (QC JS): won by Anna, after the correction by Bert." in said
    assert (
        "Deal 1: won by Anna with 2 game points (failed close), after the correction won by "
        "Bert with 3 game points (failed close)." in said
    )
    german = _said(asked.lines(), "de")
    assert "2:0" in german and "0:3" in german and "Zudrehen" in german
    view = store.deals.edit(did, HANDED_OVER_CHANGED, expect=asked.mark)
    assert view is not None and view.winner == "Bert"
    assert store.matches.state(mid).score == {"Anna": 0, "Bert": 3}


def test_a_correction_asked_about_a_match_that_changed_since_is_refused(
    store: Any, db_url: str
) -> None:
    mid, did = handed_over_match(store)
    asked = store.consequences.record_correction(did, HANDED_OVER_CHANGED)
    store.deals.start(mid, "QH")  # the match moved on meanwhile
    before = dump(db_url)
    with pytest.raises(Refused, match="has changed since this correction was shown"):
        store.deals.edit(did, HANDED_OVER_CHANGED, expect=asked.mark)
    assert dump(db_url) == before


def test_a_quick_result_correction_says_the_score_before_and_after(store: Any) -> None:
    handed_over_match(store)
    m = store.matches.start("Bert", "Anna", rules="sixty-six", first_dealer="Bert")
    quick = store.deals.quick_result(m.id, winner="Anna", points=2, reason="claim")
    asked = store.consequences.quick_correction(quick.id, winner="Bert", points=3, reason="claim")
    assert (asked.score_before, asked.score_after) == ((0, 2), (3, 0))
    assert (
        "Deal 1: won by Anna with 2 game points (claim), after the correction won by Bert"
        in _said(asked.lines())
    )
    assert store.matches.state(m.id).score == {"Bert": 0, "Anna": 2}
    store.deals.edit_quick_result(
        quick.id, winner="Bert", points=3, reason="claim", expect=asked.mark
    )
    assert store.matches.state(m.id).score == {"Bert": 3, "Anna": 0}


def test_a_whole_match_result_typed_the_wrong_way_round_is_corrected_and_reversible(
    store: Any,
) -> None:
    for name in ("Anna", "Bert"):
        store.players.add(name)
    m = store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    store.deals.match_result(m.id, "7:3")
    asked = store.consequences.match_result_correction(m.id, "3:7")
    assert (asked.score_before, asked.score_after) == ((7, 3), (3, 7))
    said = _said(asked.lines())
    assert "Anna has then not won the match." in said and "Bert has then won the match." in said
    assert store.matches.state(m.id).winner == "Anna"
    view = store.deals.edit_match_result(m.id, "3:7", expect=asked.mark)
    assert view is not None and view.winner == "Bert" and view.score == {"Anna": 3, "Bert": 7}
    assert store.deals.edit_match_result(m.id, "3:7") is None
    assert store.deals.edit_match_result(m.id, "7:0") is not None  # one line instead of two
    assert len(store.matches.state(m.id).deals) == 1
    for entry in reversed(store.audit.log(limit=2)):
        store.audit.reverse(entry.id)
    assert store.matches.state(m.id).score == {"Anna": 7, "Bert": 3}
    other = store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    store.deals.quick_result(other.id, winner="Anna", points=3, reason="claim")
    with pytest.raises(Refused, match="no result entered whole"):
        store.deals.edit_match_result(other.id, "7:3")
