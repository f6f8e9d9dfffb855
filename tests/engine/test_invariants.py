"""Properties of the engine that must hold for every deal, checked with Hypothesis."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tally.engine.cards import CARDS, FULL_DECK_MASK, NINES_MASK, points_of
from tally.engine.deal import Deal
from tally.engine.notation import (
    CardItem,
    ClaimItem,
    CloseItem,
    DealRecord,
    MarriageItem,
    SwapItem,
    TrickLine,
    read_deal,
    write_deal,
)
from tally.engine.rules import PRESETS, RuleSet
from tally.engine.ruling import rule, rule_text

PRESET_NAMES = sorted(PRESETS)
presets = st.sampled_from(PRESET_NAMES)
names = st.sampled_from([("Anna", "Bert"), ("Mary Lou", "Karl Heinz"), ("Zoë", "Øystein")])


def _played_with_choices(
    rules: RuleSet, seed: int, data: st.DataObject, players: tuple[str, str]
) -> Deal:
    """A fully known deal played to its end, every action chosen by Hypothesis."""
    deal = Deal.random(rules, random.Random(seed), names=players)
    while not deal.is_over:
        actions = deal.legal_actions()
        deal.apply(data.draw(st.sampled_from(actions), label="action"))
    return deal


def _same(a: object, b: object) -> None:
    from tally.engine.ruling import Ruling

    assert isinstance(a, Ruling) and isinstance(b, Ruling)
    assert a.errors == b.errors == ()
    assert a.outcome == b.outcome
    assert a.points == b.points
    assert a.tricks == b.tricks
    assert [(v.trick, v.player, v.rule) for v in a.violations] == [
        (v.trick, v.player, v.rule) for v in b.violations
    ]
    assert a.carry == b.carry


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=presets, seed=st.integers(0, 2**32), players=names, data=st.data())
def test_a_legal_deal_written_as_a_scorer_sees_it_replays_to_the_same_ruling(
    preset: str, seed: int, players: tuple[str, str], data: st.DataObject
) -> None:
    deal = _played_with_choices(RuleSet.parse(preset), seed, data, players)
    full = deal.ruling()
    assert full.violations == ()
    assert full.outcome is not None and full.outcome.reason != "incomplete"
    text = write_deal(deal.record())
    record = read_deal(text)
    assert record == deal.record()
    assert write_deal(record) == text
    _same(rule(record), full)
    # The hands as dealt tell the engine more; the ruling of a legal deal stays the same.
    _same(rule(deal.record(hands=True)), full)


@settings(max_examples=300, deadline=None)
@given(preset=presets, seed=st.integers(0, 2**32), carry=st.integers(0, 3))
def test_random_play_replays_the_same_and_conserves_card_points(
    preset: str, seed: int, carry: int
) -> None:
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    deal = Deal.random(rules, rng, carry=carry)
    deal.play_out_randomly(rng)
    full = deal.ruling()
    replay = rule_text(write_deal(deal.record()))
    _same(replay, full)
    deck = FULL_DECK_MASK if rules.deck == 24 else FULL_DECK_MASK & ~NINES_MASK
    unplayed = deck & ~deal.played
    assert deal.card_points[0] + deal.card_points[1] + points_of(unplayed) == 120
    assert sum(deal.tricks) * 2 == bin(deal.played).count("1")
    outcome = full.outcome
    assert outcome is not None
    if outcome.winner is not None:
        assert outcome.game_points == full.deal_points + carry
        assert full.carry == 0
    elif outcome.reason == "draw":
        assert full.carry == carry + (1 if rules.carry == "accumulate" else 0)


@settings(max_examples=200, deadline=None)
@given(preset=presets, seed=st.integers(0, 2**32), data=st.data())
def test_every_prefix_of_a_legal_record_is_a_deal_in_progress(
    preset: str, seed: int, data: st.DataObject
) -> None:
    rules = RuleSet.parse(preset)
    rng = random.Random(seed)
    deal = Deal.random(rules, rng)
    deal.play_out_randomly(rng)
    record = deal.record()
    items = [(t.number, i) for t in record.tricks for i in t.items]
    cut = data.draw(st.integers(0, len(items)), label="items kept")
    lines: dict[int, list[object]] = {}
    for number, item in items[:cut]:
        lines.setdefault(number, []).append(item)
    prefix = DealRecord(dict(record.tags), [TrickLine(n, tuple(v)) for n, v in lines.items()])  # type: ignore[arg-type]
    ruling = rule(prefix)
    assert ruling.errors == ()
    assert ruling.violations == ()
    assert ruling.outcome is not None
    if cut < len(items) and not deal.all_tricks_played:
        assert ruling.outcome.reason == "incomplete"


# --- corrupted records -------------------------------------------------------------------

TOKENS = [
    "swap",
    "close",
    "20",
    "40",
    "66",
    "66@Anna",
    "66@Nobody",
    "KS",
    "9H",
    "AX",
    "10",
    "{",
    "}",
    ";",
    '"',
    "[",
    "]",
    '[Trump "QH"]',
    "1.",
    "99.",
    "\\",
    "♥",
    "T♠",
    "",
    " ",
]


@st.composite
def corrupted(draw: st.DrawFn) -> str:
    preset = draw(presets)
    seed = draw(st.integers(0, 2**32))
    rng = random.Random(seed)
    deal = Deal.random(RuleSet.parse(preset), rng)
    deal.play_out_randomly(rng)
    with_hands = draw(st.booleans())
    lines = write_deal(deal.record(hands=with_hands)).splitlines()
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.integers(0, 6))
        i = draw(st.integers(0, max(0, len(lines) - 1)))
        if not lines:
            lines.append("")
        words = lines[i].split(" ")
        j = draw(st.integers(0, max(0, len(words) - 1)))
        if kind == 0:  # replace a word
            words[j] = draw(st.sampled_from(TOKENS + [str(c) for c in CARDS]))
        elif kind == 1:  # delete a word
            del words[j]
        elif kind == 2:  # insert a word
            words.insert(j, draw(st.sampled_from(TOKENS + [str(c) for c in CARDS])))
        elif kind == 3:  # drop a line
            del lines[i]
            continue
        elif kind == 4:  # duplicate a line
            lines.insert(i, lines[i])
            continue
        elif kind == 5:  # swap two lines
            k = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[k] = lines[k], lines[i]
            continue
        else:  # random characters
            words[j] = draw(st.text(max_size=6))
        lines[i] = " ".join(words)
    return "\n".join(lines)


@settings(max_examples=500, deadline=None)
@given(text=corrupted())
def test_a_corrupted_record_gets_errors_or_a_ruling_never_an_exception(text: str) -> None:
    ruling = rule_text(text)
    if ruling.errors:
        assert ruling.outcome is None
        assert all(e.message for e in ruling.errors)
    else:
        assert ruling.outcome is not None
        assert ruling.outcome.reason in (
            "claim",
            "false-claim",
            "failed-close",
            "illegal-play",
            "last-trick",
            "higher-total",
            "draw",
            "incomplete",
        )
        for v in ruling.violations:
            assert v.rule in (
                "follow-suit",
                "must-head",
                "must-trump",
                "marriage-not-allowed",
                "false-marriage",
                "exchange-not-allowed",
                "false-exchange",
                "close-not-allowed",
            )
    ruling.as_json()


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300))
def test_arbitrary_text_never_crashes_the_reader(text: str) -> None:
    ruling = rule_text(text)
    assert ruling.errors or ruling.outcome is not None


# --- the notation round trip on records that need not be legal ----------------------------

tag_names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True)
tag_values = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
player_names = st.from_regex(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ \"\\;{}]{0,10}[A-Za-zÀ-ÿ]", fullmatch=True)
cards = st.sampled_from(CARDS)
items = st.one_of(
    cards.map(CardItem),
    st.just(SwapItem()),
    st.just(CloseItem()),
    st.builds(MarriageItem, st.sampled_from([20, 40]), cards),
    st.one_of(st.none(), player_names).map(ClaimItem),
)


@st.composite
def records(draw: st.DrawFn) -> DealRecord:
    tags = draw(st.dictionaries(tag_names, tag_values, max_size=6))
    n = draw(st.integers(0, 12))
    tricks = [
        TrickLine(k, tuple(draw(st.lists(items, min_size=1, max_size=5)))) for k in range(1, n + 1)
    ]
    return DealRecord(tags, tricks)


@settings(max_examples=400, deadline=None)
@given(record=records())
def test_reading_what_was_written_gives_the_same_record(record: DealRecord) -> None:
    text = write_deal(record)
    again = read_deal(text)
    assert again == record
    assert write_deal(again) == text
