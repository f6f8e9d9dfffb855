"""The marks of phase-1 leads and exchanges (tally.analysis.phase1) against the independent
brute force (tests/brute_force.py, from RULES.md alone) on random deals of each preset: where
the record proves both hands at a lead and the face-down stock has few enough orders to count
them all, every such mark's value before and after (hence its ``?``/``??``) is the brute
force's mean over every order of the stock, each choice followed by best play."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import replace
from itertools import permutations

import pytest

from tally.analysis.closing import may_exchange
from tally.analysis.findings import phase1_marks
from tally.analysis.marks import Mark, lost_by
from tally.analysis.phase1 import PHASE1_ORDERS, LeadMoment, lead_marks
from tally.engine.cards import Card
from tally.engine.kernel import DECK_MASKS
from tally.engine.notation import read_deal
from tally.engine.rules import RuleSet
from tests.analysis.test_cases import case, said, told
from tests.brute_force import PRESETS, Open, Rules, play_deal, play_on, rank, suit


def _leads(hand: frozenset[str], trump: str, swap: bool) -> list[tuple[bool, str, int]]:
    """Each lead of ``hand``, a marriage declared with it where held."""
    out = []
    for card in sorted(hand):
        partner = {"K": "Q", "Q": "K"}.get(rank(card))
        m = 0
        if partner and partner + suit(card) in hand:
            m = 40 if suit(card) == trump else 20
        out.append((swap, card, m))
    return out


def _means(r: Rules, o: Open, choices: list[tuple[bool, str, int]]) -> list[float]:
    """The leader's mean game points of each choice over every order of the stock."""
    orders = list(permutations(o.down))
    sign = 1 if o.leader == 0 else -1
    out = []
    for choice in choices:
        total = 0
        for down in orders:
            at = Open(o.hands, o.leader, o.trump, down, o.turn_up, o.points, o.marriages, o.tricks)
            total += sign * play_on(r, at, first=choice)
        out.append(total / len(orders))
    return out


def _reply_means(r: Rules, o: Open, first: tuple[bool, str, int], hand: list[str]) -> list[float]:
    """The follower's mean game points of each reply in ``hand`` to the lead ``first`` over
    every order of the stock."""
    orders = list(permutations(o.down))
    sign = -1 if o.leader == 0 else 1
    out = []
    for reply in hand:
        total = 0
        for down in orders:
            at = Open(o.hands, o.leader, o.trump, down, o.turn_up, o.points, o.marriages, o.tricks)
            total += sign * play_on(r, at, first=first, reply=reply)
        out.append(total / len(orders))
    return out


def brute_marks(
    r: Rules, o: Open, swapped: bool, card: str, mar: int, reply: str | None = None
) -> dict[str, tuple[float, float]]:
    """``kind: (before, after)`` of the lead, and of exchanging or not where allowed; with
    ``reply``, of the follower's answer (``follow``)."""
    x = r.exchange_rank + o.trump
    hand = o.hands[o.leader]
    other_hand = hand - {x} | {o.turn_up}
    if swapped:
        hand, other_hand = other_hand, hand
    made = _leads(hand, o.trump, swapped)
    if (swapped, card, mar) not in made:
        made.append((swapped, card, mar))  # a marriage's card led without declaring it
    means = _means(r, o, made)
    after = means[made.index((swapped, card, mar))]
    out = {"card": (max(means), after)}
    may = x in o.hands[o.leader] and (o.tricks[o.leader] or not r.exchange_needs_trick)
    if swapped or (may and o.down):
        other = max(_means(r, o, _leads(other_hand, o.trump, not swapped)))
        best = max(means[: len(made) - (len(made) > len(hand))] or means)
        out["exchange" if swapped else "no-exchange"] = (max(best, other), best)
    if reply is not None:
        hand = sorted(o.hands[1 - o.leader])
        replies = _reply_means(r, o, (swapped, card, mar), hand)
        out["follow"] = (max(replies), replies[hand.index(reply)])
    return out


def _mask(cards: frozenset[str] | tuple[str, ...]) -> int:
    return sum(1 << int(Card.parse(c)) for c in cards)


def tally_marks(
    preset: str, o: Open, swapped: bool, card: str, mar: int, reply: str | None = None
) -> dict[str, Mark]:
    """tally's marks of the lead at ``o`` with both hands known (every order of the stock);
    the follower's (to ``reply``) as ``follow``."""
    rules = RuleSet.preset(preset)
    hands = (_mask(o.hands[0]), _mask(o.hands[1]))
    lying = int(Card.parse(o.turn_up))
    deck = DECK_MASKS[rules.deck]
    played = deck & ~hands[0] & ~hands[1] & ~_mask(o.down) & ~(1 << lying)
    m = LeadMoment(
        0,
        o.leader,
        played,
        lying,
        len(o.down),
        o.points,
        o.marriages,
        o.tricks,
        swapped,
        int(Card.parse(card)),
        mar,
        -1 if reply is None else int(Card.parse(reply)),
    )
    hand = hands[o.leader]
    swap = may_exchange(rules, lying // 6, hand, o.tricks[o.leader], lying) and bool(o.down)
    found = lead_marks(m, [hands], rules, ("Anna", "Bert"), swap, random.Random(1))
    return {("follow" if x.player != ("Anna", "Bert")[o.leader] else x.kind): x for x in found}


def check(preset: str, deals: int, seed: int, most_cards: int, proof: bool = False) -> Counter[str]:
    """Every phase-1 lead of ``deals`` random deals with at most ``most_cards`` in the hands
    and the stock: tally's marks with both hands known against the brute force's means over
    every order of the stock; and wherever tally finds the hands proven by the record, they
    are the hands the deal had (with ``proof``: the whole analysis of phase 1, slower)."""
    r = PRESETS[preset]
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for _ in range(deals):
        played = play_deal(r, rng)
        seen["deals"] += 1
        proven: dict[tuple[int, str], Mark] = {}
        leaders = {line: played.names[o.leader] for line, o, *_ in played.leads}
        if proof:  # the record's own marks where it proves both hands at the lead
            proven = {
                (m.trick, m.kind if m.player == leaders.get(m.trick) else "follow"): m
                for m in phase1_marks(read_deal(played.record))
                if m.all_orders
            }
        for line, o, swapped, card, mar in played.leads:
            left = len(o.hands[0]) + len(o.hands[1]) + len(o.down) + 1
            if left > most_cards:
                continue
            reply = played.replies.get(line)
            found = tally_marks(preset, o, swapped, card, mar, reply)
            expected = brute_marks(r, o, swapped, card, mar, reply)
            assert set(found) == set(expected), (played.record, line, found, expected)
            for kind, (before, after) in expected.items():
                m = found[kind]
                assert m.all_orders, (played.record, line)
                if (line, kind) in proven:  # (the same mark, at the record's own trick)
                    assert replace(proven[line, kind], trick=m.trick) == m, (played.record, line)
                    seen["marks of the record, hands proven"] += 1
                assert (m.before, m.after) == pytest.approx((before, after)), (
                    played.record,
                    line,
                    kind,
                    m,
                    expected,
                )
                seen[kind + " marks"] += 1
                seen["marked"] += bool(m.symbol)
    return seen


#: the most cards in the hands and the stock at a lead the brute force values in a test's time:
#: the last round of drawing (one order of the stock left)
LAST_ROUND = {"schnapsen": 12, "sixty-six": 14, "pagat-66": 14}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_phase1_marks_agree_with_the_brute_force_on_random_deals(preset: str) -> None:
    # random deals close and claim early often: about one in ten reaches its last lead
    deals = int(os.environ.get("TALLY_BRUTE_DEALS", "60"))
    seen = check(preset, deals, 37, LAST_ROUND[preset])
    print(preset, dict(seen))
    assert seen["card marks"] >= deals // 15, seen


@pytest.mark.slow
@pytest.mark.timeout(7200)
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_phase1_marks_agree_with_the_brute_force_on_many_deals(preset: str) -> None:
    # more deals, Schnapsen's last two rounds of drawing (six orders of the stock), and the
    # record's own marks where it proves both hands at the lead (the proof of hands_at)
    # (TALLY_BRUTE_DEALS=600 for a longer check: hours on two cores; the 1,000-deal check of
    # these marks is python -m benchmarks.phase1_marks, docs/analysis.md)
    deals = int(os.environ.get("TALLY_BRUTE_DEALS", "10"))
    seen = check(preset, deals, 1037, 14, proof=True)
    print(preset, dict(seen))
    assert seen["card marks"] >= deals // 15, seen


def test_a_record_with_hands_marks_its_phase1_leads_and_exchanges_and_the_losses_add_up() -> None:
    # D3 (Schnapsen, Hands and Remaining): each phase-1 lead from the second (the first is
    # out of the search's reach in a deal's 2 s) gets a mark, the follower's answer too, and
    # Bert's exchange at trick 5; the draws are sampled around what the record proves (a
    # dagger and the loss's interval in the text); the game points lost per player are the
    # marks' losses, in the text and --json
    import json

    a = case("D3-hands-exchange.deal", samples=20)
    phase1 = [m for m in a.marks if m.orders]
    assert [m.trick for m in phase1 if m.kind == "card"] == [2, 2, 3, 3, 4, 4, 5, 5]
    assert [m.player for m in phase1 if m.kind == "card" and m.trick == 2] == ["Anna", "Bert"]
    assert (5, "exchange", "exchange") in [(m.trick, m.kind, m.action) for m in phase1]
    assert all(0 <= m.loss_low <= m.loss <= m.loss_high + 1e-9 or m.all_orders for m in phase1)
    first = next(m for m in phase1 if m.trick == 2)
    assert first.action == "10D" and first.orders == PHASE1_ORDERS and not first.all_orders
    for name in a.players:
        lost = lost_by(a.marks, name)
        assert lost["cards"] == pytest.approx(
            sum(
                m.loss
                for m in a.marks
                if m.player == name and m.kind in ("card", "exchange", "no-exchange")
            ),
            abs=1e-4,
        )
    out = json.loads(said("D3-hands-exchange.deal", "--json", "--samples", "20"))
    shown = out["marks"] if "marks" in out else out["deals"][0]["marks"]
    assert [m for m in shown if "orders" in m]
    for name, lost in out["lost"].items():
        assert lost["cards"] == pytest.approx(
            sum(
                m["loss"]
                for m in shown
                if m["player"] == name and m["kind"] in ("card", "exchange", "no-exchange")
            ),
            abs=0.01,
        )
    text = told("D3-hands-exchange.deal", samples=20)
    assert "†" in text and "loss" in text, text


def test_a_record_without_hands_marks_its_phase1_leads_and_follows_over_deals_it_allows() -> None:
    # The bundled Schnapsen evening's failed close has no Hands: its phase-1 lead and the
    # answer to it (trick 2; the first lead is out of the search's reach) are judged over
    # deals the record allows, every figure a sample's mean with the loss's 95% interval,
    # and the text says the hands were sampled
    from pathlib import Path

    from tally.analysis.findings import analyse
    from tally.analysis.wording import every_decision

    path = (
        Path(__file__).resolve().parents[2] / "examples" / "deals" / "schnapsen-failed-close.deal"
    )
    a = analyse(read_deal(path.read_text(encoding="utf-8")), samples=20)
    phase1 = [m for m in a.marks if m.orders]
    assert [(m.trick, m.player, m.action) for m in phase1] == [
        (2, "Martin", "JC"),
        (2, "Elfi", "AC"),
    ]
    for m in phase1:
        assert m.orders == PHASE1_ORDERS and not m.all_orders
        assert 0 <= m.loss_low <= m.loss <= m.loss_high
        assert m.loss_high > 0  # a sample's interval, never a certainty
    words = every_decision(a)
    assert "2. Martin JC" in words and "†" in words and "hands the record does not prove" in words


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_deals_a_record_without_hands_allows_hold_each_card_when_it_is_played(
    preset: str,
) -> None:
    # each sampled way a record without Hands was dealt gives hands of the right size at every
    # phase-1 lead, disjoint, the leader holding the card they led and the follower theirs
    from tally.analysis.findings import _plays, _replay
    from tally.analysis.phase1 import draws_of, hands_at
    from tally.engine.deal import Deal
    from tally.engine.evidence import proven_in_phase2
    from tally.engine.notation import write_deal

    rules = RuleSet.preset(preset)
    rng = random.Random(37)
    checked = 0
    for _ in range(40):
        deal = Deal.random(rules, rng)
        deal.play_out_randomly(rng)
        record = read_deal(write_deal(deal.record()))
        replayed, watch = _replay(record, rules)
        facts = replayed.facts()
        rounds = (rules.stock_size + 1 - replayed.stock_left - (replayed.face_up is not None)) // 2
        final = proven_in_phase2(facts, {})
        if final[0].bit_count() + final[1].bit_count() < 2 * replayed.stock_left:
            continue  # phase 2 leaves cards unplaced: analyse deals them around its samples
        drawn = draws_of(facts, _plays(record, watch.leaders), final, rounds, (rules.hand, rng))
        if drawn is None:
            continue
        for m in watch.leads:
            ((h0, h1),) = hands_at(m, drawn, 1, rng)
            hands = (h0, h1)
            assert not h0 & h1 and h0.bit_count() == h1.bit_count() == rules.hand
            held = hands[m.leader] | (1 << m.lying if m.exchanged else 0)
            assert held >> m.card & 1, (write_deal(record), m)
            if m.reply >= 0:
                assert hands[1 - m.leader] >> m.reply & 1, (write_deal(record), m)
            checked += 1
    assert checked >= 20
