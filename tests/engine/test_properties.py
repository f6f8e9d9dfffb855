"""Invariants over many deals, with Hypothesis choosing the shuffles.

The outcome test replays random legal deals through a small referee written here from
RULES.md alone (trick winners, card points, marriages, bonus, claims, closing, the end of a
deal, game points and carry), independent of the engine, under random option overrides.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tally.engine.cards import CARDS, SUIT_MASKS, Card, cards_of
from tally.engine.deal import Claim, Close, Deal, Draw
from tally.engine.notation import read_deal, write_deal
from tally.engine.rules import OPTIONS, PRESETS, RuleSet
from tally.engine.ruling import rule_text

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
ORDER = ["9", "J", "Q", "K", "10", "A"]


# --- cards -------------------------------------------------------------------------------------

card_names = st.sampled_from(
    [r + s for r in ("A", "10", "T", "K", "Q", "J", "9") for s in "CDHS♣♦♥♠"]
)


@given(card_names, st.booleans())
def test_a_card_reads_back_from_its_canonical_form(text: str, lower: bool) -> None:
    card = Card.parse(text.lower() if lower else text)
    assert Card.parse(str(card)) == card
    assert str(card) == str(card).upper() and "T" not in str(card)


# --- an independent referee ---------------------------------------------------------------------


def split(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def beats(follow: str, lead: str, trump: str) -> bool:
    (fr, fs), (lr, ls) = split(follow), split(lead)
    if fs == ls:
        return ORDER.index(fr) > ORDER.index(lr)
    return fs == trump


def referee(
    opts: dict[str, str], names: tuple[str, str], turn_up: str, lines: list[list[str]], carry: int
) -> dict[str, object]:
    """The ruling RULES.md gives a record of legal play (no violations)."""
    hand = int(opts["hand"])
    rounds = (int(opts["deck"]) - 2 * hand) // 2
    trump = split(turn_up)[1]
    leader = 0
    cards = [0, 0]
    tricks = [0, 0]
    marriages = [0, 0]
    held = [hand, hand]
    draws = 0
    closer: int | None = None
    at_close = (0, 0)
    pending = False
    last = -1
    claim: tuple[int, bool] | None = None

    def counted(p: int, bonus: bool = True) -> int:
        total = cards[p] + (marriages[p] if tricks[p] else 0)
        if bonus and closer is None and held == [0, 0] and last == p:
            total += int(opts["last_trick_bonus"])
        return total

    for items in lines:
        if pending:
            pending, draws = False, draws + 1
            held = [held[0] + 1, held[1] + 1]
        lead: str | None = None
        i = 0
        while i < len(items):
            item = items[i]
            if item == "close":
                closer, pending = leader, False
                at_close = (counted(1 - leader, False), tricks[1 - leader])
            elif item in ("20", "40"):
                marriages[leader] += int(item)
                i += 1
                lead = items[i]
            elif item.startswith("66"):
                who = leader if item == "66" else names.index(item[3:])
                ok = counted(who) >= 66 and (opts["claim_when"] == "any" or who == leader)
                claim = (who, ok)
            elif item != "swap":
                if lead is None:
                    lead = item
                else:
                    taker = 1 - leader if beats(item, lead, trump) else leader
                    cards[taker] += POINTS[split(item)[0]] + POINTS[split(lead)[0]]
                    tricks[taker] += 1
                    held = [held[0] - 1, held[1] - 1]
                    leader = last = taker
                    lead = None
                    pending = closer is None and draws < rounds
            i += 1

    def game_points(opp_points: int, opp_tricks: int) -> int:
        return 3 if opp_tricks == 0 else 2 if opp_points < 33 else 1

    winner: int | None = None
    base, reason = 0, "incomplete"
    if claim is not None:
        c, ok = claim
        if not ok:
            winner, reason = 1 - c, "false-claim"
            base = 3 if opts["false_claim_points"] == "2or3" and tricks[1 - c] == 0 else 2
        elif closer is not None and c != closer:
            winner, reason, base = c, "failed-close", 3 if at_close[1] == 0 else 2
        else:
            winner, reason = c, "claim"
            if closer is not None and opts["close_scored_at"] == "close":
                base = game_points(*at_close)
            else:
                base = game_points(counted(1 - c), tricks[1 - c])
    elif held == [0, 0]:
        if closer is not None:
            if opts["unclaimed_end"] == "draw" and counted(closer) >= 66:
                reason = "draw"
            else:
                winner, reason = 1 - closer, "failed-close"
                base = 3 if at_close[1] == 0 else 2
        elif opts["unclaimed_end"] == "draw":
            reason = "draw"
        elif opts["unclaimed_end"] == "last-trick":
            winner, base, reason = last, 1, "last-trick"
        elif counted(0) == counted(1):
            reason = "draw"
        else:
            winner = 0 if counted(0) > counted(1) else 1
            base = game_points(counted(1 - winner), tricks[1 - winner])
            reason = "higher-total"
    if winner is not None:
        outcome = {"winner": names[winner], "game_points": base + carry, "reason": reason}
        carry_out = 0
    else:
        outcome = {"winner": None, "game_points": 0, "reason": reason}
        carry_out = carry + (reason == "draw" and opts["carry"] == "accumulate")
    return {
        "tricks": {names[p]: tricks[p] for p in (0, 1)},
        "points": {names[p]: counted(p) for p in (0, 1)},
        "outcome": outcome,
        "carry": carry_out,
    }


VARIABLE = (
    "close_scored_at",
    "claim_when",
    "unclaimed_end",
    "false_claim_points",
    "carry",
    "last_trick_bonus",
    "close_before_draw",
    "marriage_in_phase2",
    "exchange_when",
    "exchange_needs_trick",
)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_rulings_of_legal_deals_agree_with_an_independent_referee(seed: int) -> None:
    rng = random.Random(seed)
    preset = rng.choice(list(PRESETS))
    overrides = []
    for name in VARIABLE:
        if rng.random() < 0.3:
            values = OPTIONS[name].values or ("0", "10", "20")
            overrides.append(f"{name}={rng.choice(values)}")
    rules = RuleSet.parse(" ".join([preset, *overrides]))
    carry = rng.choice((0, 0, 1, 2))
    d = Deal.random(rules, rng, names=("Bert", "Anna"), carry=carry)
    d.play_out_randomly(rng)
    text = write_deal(d.record())
    if rng.random() < 0.5:  # cut the record after a trick and let anybody claim, rightly or not
        lines = text.rstrip("\n").split("\n")
        tricks = [i for i, line in enumerate(lines) if line[:1].isdigit()]
        k = rng.choice(tricks)
        words = [w for w in lines[k].split() if not w.startswith("66")]
        if sum(w not in ("swap", "close", "20", "40") for w in words[1:]) >= 2:
            words.append(rng.choice(["66", "66@Bert", "66@Anna"]))
            text = "\n".join([*lines[:k], " ".join(words)]) + "\n"
    record = read_deal(text)
    items = [" ".join(str(i) for i in tl.items).split() for tl in record.tricks]
    opts = {name: rules.value(name) for name in OPTIONS}
    expected = referee(opts, ("Bert", "Anna"), record.tags["Trump"], items, carry)
    got = rule_text(text).as_json()
    assert got["errors"] == [] and got["violations"] == []
    assert {k: got[k] for k in expected} == expected


# --- what a record proves ---------------------------------------------------------------


def duty_broken(hand: int, lead: int, card: int, trump: int) -> str | None:
    """The phase-2 duty ``card`` breaks, for a follower holding ``hand`` (RULES.md section 4)."""
    others = hand & ~(1 << card)
    suit = lead // 6
    if card // 6 != suit:
        if others & SUIT_MASKS[suit]:
            return "follow-suit"
        if card // 6 != trump and others & SUIT_MASKS[trump]:
            return "must-trump"
        return None
    beaters = [c for c in cards_of(others & SUIT_MASKS[suit]) if c % 6 > lead % 6]
    return "must-head" if card % 6 < lead % 6 and beaters else None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_every_revoke_is_found_when_remaining_shows_the_hands(seed: int) -> None:
    rng = random.Random(seed)
    rules = RuleSet.parse(rng.choice(list(PRESETS)))
    d = Deal.random(rules, rng, names=("Bert", "Anna"))

    def hand(p: int) -> int:
        cards = d.hand(d.names[p])
        assert cards is not None
        return sum(1 << c for c in cards)

    revokes = set()
    drew_last = False
    for _ in range(rng.randrange(8, 40)):
        if d.is_over:
            break
        actions = [a for a in d.legal_actions() if not isinstance(a, Claim)]
        if d.lead is not None and d.phase == 2 and rng.random() < 0.3:
            p = 1 - d.names.index(d.leader)
            legal = {int(a) for a in actions if isinstance(a, int)}
            wrong = [c for c in cards_of(hand(p)) if c not in legal]
            if wrong:
                card = rng.choice(wrong)
                name = duty_broken(hand(p), d.lead, card, int(d.trumps))
                assert name is not None
                revokes.add((d.trick, d.names[p], name))
                d.play(CARDS[card])
                continue
        if not actions:
            break
        action = rng.choice(actions)
        d.apply(action)
        drew_last = isinstance(action, Draw)
        if isinstance(action, Draw | Close) and d.lead is None and rng.random() < 0.2:
            break
    if drew_last and not d.is_over:
        # a record shows the draws only by the next lead: lead a card so Remaining is right
        d.play(cards_of(hand(d.names.index(d.leader)))[0])
    record = d.record()
    held = [
        f"{d.names[p]}: " + " ".join(str(c) for c in cards_of(hand(p))) for p in (0, 1) if hand(p)
    ]
    if held:
        record.tags["Remaining"] = "; ".join(held)
    got = rule_text(write_deal(record)).as_json()
    assert got["errors"] == []
    assert {(v["trick"], v["player"], v["rule"]) for v in got["violations"]} == revokes
