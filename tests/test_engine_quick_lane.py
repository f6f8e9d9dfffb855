"""The quick lane (:func:`tally.replay.quick_replay`) rules exactly as the full replay does.

:func:`tally.ruling.rule` takes the quick lane for a plain record; :func:`tally.ruling.summarize`
always replays through a :class:`~tally.deal.Deal` (its visitor needs one). Their rulings must
be equal in every field (errors, violations, points, outcome, explanation, the deal's state),
so the JSON of ``tally check --json`` and its plain words are too: over every conformance case,
every example record, random legal deals of every preset under random options (Hypothesis),
and mutated records of the fuzzer.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tally.cards import Card
from tally.cli.check import describe
from tally.deal import Deal
from tally.errors import TallyError
from tally.notation import (
    DealRecord,
    decode_record,
    item_codes,
    read_deal,
    read_plain,
    write_deal,
)
from tally.replay import quick_replay
from tally.rules import RuleSet
from tally.ruling import rule, rule_text, summarize
from tests.conftest import CONFORMANCE, PRESET_DIRS, ROOT
from tests.fuzz_support import corpus, mutate

OVERRIDES = ["", " exchange_when=lead", " exchange_needs_trick=no", " marriage_in_phase2=yes",
             " marriage_in_phase2=no", " close_before_draw=no", " close_scored_at=close",
             " claim_when=on-lead", " unclaimed_end=last-trick", " unclaimed_end=higher-total",
             " false_claim_points=2", " carry=none", " hand=5", " last_trick_bonus=0"]


def _same(record: DealRecord, text: str | None = None) -> None:
    """The quick ruling of ``record`` (and of its ``text``, which goes from the text straight
    to the quick lane) equals the full replay's, field by field."""
    full = summarize(record, "r.deal")[0]
    rulings = [rule(record, "r.deal")]
    if text is not None:
        rulings.append(rule_text(text, "r.deal"))
    for quick in rulings:
        assert quick == full
        assert quick.as_json() == full.as_json()
        assert describe(quick, referee=True) == describe(full, referee=True)


def _lane_taken(record: DealRecord) -> bool:
    """Whether the quick lane rules ``record`` itself (rather than leaving it to the deal)."""
    tags = record.tags
    codes = [item_codes(tl.items) for tl in record.tricks]
    assert None not in codes
    return quick_replay(RuleSet.parse(tags.get("Rules", "sixty-six")),
                        (tags["Forehand"], tags["Dealer"]), int(Card.parse(tags["Trump"])),
                        int(tags.get("Carry", "0")), codes) is not None  # type: ignore[arg-type]


def _text_lane_taken(text: str) -> bool:
    """Whether the text of a record goes straight to the quick lane."""
    plain = read_plain(text)
    return plain is not None and plain.lines == [item_codes(tl.items)
                                                 for tl in read_deal(text).tricks]


@pytest.mark.parametrize("preset", PRESET_DIRS)
def test_every_conformance_case_is_ruled_alike(preset: str) -> None:
    files = sorted((CONFORMANCE / preset).glob("*.deal"))
    assert files
    for path in files:
        try:
            text = decode_record(path.read_bytes())
            record = read_deal(text, source=path.name)
        except TallyError:
            continue
        _same(record, text)


def test_every_example_record_is_ruled_alike() -> None:
    files = sorted((ROOT / "examples").rglob("*.deal"))
    assert files
    taken = 0
    for path in files:
        text = decode_record(path.read_bytes())
        record = read_deal(text, source=path.name)
        _same(record, text)
        taken += ("Hands" not in record.tags and "Remaining" not in record.tags
                  and _text_lane_taken(text))
    assert taken  # some example records go the quick lane, from their text


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(PRESET_DIRS), st.sampled_from(OVERRIDES),
       st.booleans(), st.integers(0, 3), st.integers(0, 14))
def test_random_legal_deals_are_ruled_alike(seed: int, preset: str, override: str,
                                            hands: bool, carry: int, cut: int) -> None:
    try:
        rules = RuleSet.parse(preset + override)
    except TallyError:
        return
    rng = random.Random(seed)
    deal = Deal.random(rules, rng, carry=carry)
    deal.play_out_randomly(rng)
    record = deal.record(hands=hands, Result="Anna 1")
    if cut:  # a record that stops early
        record = DealRecord(record.tags, record.tricks[:cut])
    text = write_deal(record)
    record = read_deal(text)
    _same(record, text)
    if not hands:  # a legal deal without its hands is what the quick lane is for
        assert _lane_taken(record)
        assert _text_lane_taken(text)


def test_mutated_records_are_ruled_alike() -> None:
    rng = random.Random(99)
    base = corpus(30)
    checked = 0
    for _ in range(1500):
        data = mutate(rng.choice(base), rng)
        try:
            text = decode_record(data)
        except TallyError:
            continue
        try:
            record = read_deal(text)
        except TallyError:
            assert rule_text(text).errors  # the text lane never rules an unreadable record
            continue
        _same(record, text)
        checked += 1
    assert checked > 500


# --- lines read before ----------------------------------------------------------------------
#
# tally.notation keeps the plain trick and tag lines it has read (by their text), and the
# ruling keeps the starts of the tags it has read; a record made of such lines is read by
# lookups alone. What the careful reader checks must still be checked.

PLAIN = """[Dealer "Bert"]
[Forehand "Anna"]
[Trump "10D"]

1. 20 QS 9S
2. KS 10H
3. AD 9D close
4. JD QC
5. KD JC
6. QH KH
7. KC AS
8. AH 10S
"""


def _lines_moved(text: str) -> list[str]:
    """``text`` with its known lines in other places: each a record the careful reader must
    judge (most are wrong)."""
    lines = text.splitlines()
    tags, tricks = lines[:3], lines[4:]
    return [
        "\n".join([*tags, "", tricks[1], tricks[0], *tricks[2:]]),  # numbered out of order
        "\n".join([*tags, "", *tricks[:3], *tricks[4:]]),  # a trick line left out
        "\n".join([*tags[:2], "", *tricks, tags[2]]),  # a tag after the trick lines
        "\n".join([*tags, tags[0], "", *tricks]),  # a tag given twice
        "\n".join([*tags, "", tricks[0], "{", tricks[1], "}", *tricks[2:]]),  # a comment
        "\n".join([*tags, "", *tricks, "   "]),  # a line of spaces
        "\n".join([*tags, "", *tricks, tricks[-1]]),  # the last line again
        "\n".join([*tags, *tricks]),  # no empty line between
        "\n".join([tags[2], tags[0], tags[1], "", "", *tricks, ""]),  # tags reordered
        "\n".join([*tags, "", *tricks[:4]]),  # the record stops early
        "\r\n".join([*tags, "", *tricks]),  # Windows line ends
        "\n".join([*tags[1:], "", *tricks]),  # a required tag missing
        "\n".join([tags[0], tags[1].replace("Anna", "Bert"), tags[2], "", *tricks]),
        "\n".join([*tags, '[Result "Anna 3"]', "", *tricks]),  # a result
        "\n".join([*tags, '[Result "Carl 3"]', "", *tricks]),  # nobody at the table
    ]


def test_lines_read_before_are_judged_as_the_careful_reader_judges_them() -> None:
    for _ in range(2):  # (the second time round every line is one read before)
        assert read_plain(PLAIN) == (read_deal(PLAIN).tags,
                                      [item_codes(tl.items) for tl in read_deal(PLAIN).tricks])
        for text in _lines_moved(PLAIN):
            try:
                record = read_deal(text)
            except TallyError:
                assert read_plain(text) is None
                assert rule_text(text).errors
                continue
            _same(record, text)
            plain = read_plain(text)
            if plain is not None:
                assert plain.tags == record.tags
                assert plain.lines == [item_codes(tl.items) for tl in record.tricks]


def test_a_record_of_moved_lines_gets_the_careful_reader_s_error() -> None:
    out_of_order = _lines_moved(PLAIN)[0]
    read_plain(PLAIN)
    ruling = rule_text(out_of_order)
    assert ruling.outcome is None
    assert [str(e) for e in ruling.errors] == [
        "line 5: trick 2 is out of order (expected trick 1)"]


def test_what_is_kept_of_lines_read_before_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    import tally.notation as notation
    import tally.replay as replay_module
    import tally.ruling as ruling_module

    lines = notation._known_lines()
    tags: dict[str, object] = {}
    starts: dict[object, object] = {}
    monkeypatch.setattr(notation, "_KNOWN_LINES", lines)
    monkeypatch.setattr(notation, "_KNOWN_TAGS", tags)
    monkeypatch.setattr(notation, "_KNOWN_MOST", 3)
    monkeypatch.setattr(ruling_module, "_STARTS", starts)
    monkeypatch.setattr(ruling_module, "_STARTS_MOST", 0)
    forms: tuple[dict[object, object], ...] = ({}, {}, {}, {})
    monkeypatch.setattr(replay_module, "_FORMS", forms)
    monkeypatch.setattr(replay_module, "_FORMS_MOST", 4)
    expected = rule(read_deal(PLAIN))
    for _ in range(3):
        assert rule_text(PLAIN) == expected
    tricks = len(read_deal(PLAIN).tricks)
    assert [len(t) for t in lines[1:tricks + 1]] == [1] * tricks
    assert len(tags) == 3 and not starts
    for i in range(50):  # many different players: nothing more is kept
        text = PLAIN.replace("Anna", f"Anna{i}")
        assert rule_text(text) == rule(read_deal(text)) == summarize(read_deal(text))[0]
    assert len(tags) == 3 and not starts
    rng = random.Random(5)
    for _ in range(30):  # many different lines: at most three kept for each trick, none beyond
        deal = Deal.random(RuleSet.parse("sixty-six"), rng)
        deal.play_out_randomly(rng)
        text = write_deal(deal.record())
        assert rule_text(text) == rule(read_deal(text)) == summarize(read_deal(text))[0]
    assert max(len(t) for t in lines) == 3
    assert not lines[0] and not lines[-1]
    assert max(len(t) for t in forms) == 4  # (the forms of lines played: four a trump suit)


def test_every_form_of_line_is_met_and_ruled_alike() -> None:
    import tally.replay as replay_module
    from tally.notation import CLAIM_CODE, CLOSE_CODE, MARRIAGE_20, SWAP_CODE

    rng = random.Random(11)
    seen: set[str] = set()
    names = {0: "", SWAP_CODE: "exchange", CLOSE_CODE: "close", CLAIM_CODE: "claim"}
    for _ in range(300):
        deal = Deal.random(RuleSet.parse("sixty-six"), rng)
        deal.play_out_randomly(rng)
        text = write_deal(deal.record())
        record = read_deal(text)
        _same(record, text)
        assert _text_lane_taken(text) and _lane_taken(record)
        trump = int(Card.parse(record.tags["Trump"])) // 6
        for tl in record.tricks:
            codes = item_codes(tl.items)
            assert codes is not None
            form = replay_module._form_of(codes, trump)
            if form is replay_module._ODD:
                seen.add("odd")
            else:
                before = "marriage" if form[0] >= MARRIAGE_20 else names[form[0]]
                seen.add(f"{before} cards {names[form[8]]}".strip())
    assert seen == {"cards", "exchange cards", "close cards", "marriage cards", "cards close",
                    "cards claim", "odd"}
