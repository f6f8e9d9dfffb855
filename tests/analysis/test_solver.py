"""The exact solver on hand-worked positions (the reasoning is written in each test) and against a
brute-force minimax without pruning on random positions of each preset."""

from __future__ import annotations

import random

import pytest

from tally.analysis.solver import End, Position, Search, move_values, play, solve
from tally.engine.cards import Card
from tally.engine.kernel import DECK_MASKS, cards_in, game_points, legal_follows
from tally.engine.rules import RuleSet

CLUBS, HEARTS = 0, 2


def hand(text: str) -> int:
    """A hand as a mask, from cards written as in a record: ``"AH 10H KS"``."""
    return sum(1 << Card.parse(word) for word in text.split())


def test_close_wins_schwarz_with_best_play() -> None:
    # Sixty-six, hearts trumps. Anna (0) closes at the first lead holding all six hearts (30
    # points); Bert (1) holds the aces and tens of the other suits (63 points). Every trump lead
    # wins (Bert has no heart to follow and no trump), so Anna takes every trick and reaches 66
    # with the fourth (30 + 63 counted by then is more than 66): she claims with Bert trickless,
    # schwarz, 3 game points.
    pos = Position(
        (hand("AH 10H KH QH JH 9H"), hand("AS 10S AC 10C AD 10D")),
        leader=0,
        trump=HEARTS,
        closer=0,
        at_close=((0, 0), (0, 0)),
    )
    sol = solve(pos, RuleSet.preset("sixty-six"))
    assert sol.value == 3
    assert sol.line[-1].end == End.CLAIM and sol.line[-1].player == 0
    assert all(step.player == 0 for step in sol.line[::2])


def test_close_fails_against_best_defence() -> None:
    # Schnapsen, clubs trumps. Anna (0) closed at 30 to Bert's 20, one trick each. Anna: AS 10S
    # KD; Bert: AC 10C JS. Whatever Anna leads first, Bert must follow spades with his only
    # spade JS (Anna wins 13 or 12: at most 43), then Bert trumps everything else: Anna never
    # reaches 66, the close fails and Bert, who had a trick when the stock was closed, scores 2.
    pos = Position(
        (hand("AS 10S KD"), hand("AC 10C JS")),
        leader=0,
        trump=CLUBS,
        points=(30, 20),
        tricks=(1, 1),
        closer=0,
        at_close=((30, 20), (1, 1)),
    )
    sol = solve(pos, RuleSet.preset("schnapsen"))
    assert sol.value == -2
    assert sol.line[-1].end == End.FAILED_CLOSE and sol.line[-1].player == 1


def test_failed_close_scores_three_when_the_opponent_had_no_trick_at_the_close() -> None:
    # Same cards, but Bert had no trick when Anna closed: the failed close is worth 3.
    pos = Position(
        (hand("AS 10S KD"), hand("AC 10C JS")),
        leader=0,
        trump=CLUBS,
        points=(30, 0),
        tricks=(2, 0),
        closer=0,
        at_close=((30, 0), (2, 0)),
    )
    assert solve(pos, RuleSet.preset("schnapsen")).value == -3


def test_phase_two_marriage_decides_in_schnapsen() -> None:
    # Stock exhausted, clubs trumps, Anna (0) on lead with 50 points and a trick, holding KH QH;
    # Bert holds AH 10H and 40 points. Schnapsen allows the marriage in phase 2: Anna leads KH,
    # shows QH (20), has 70 and claims at once: 1 game point (Bert has 40, not schneider).
    # Without phase-2 marriages Bert heads both hearts and reaches 40 + 4 + 3 + 11 + 10 = 68.
    pos = Position(
        (hand("KH QH"), hand("AH 10H")), leader=0, trump=CLUBS, points=(50, 40), tricks=(1, 1)
    )
    sol = solve(pos, RuleSet.preset("schnapsen"))
    assert sol.value == 1
    assert (sol.line[0].marriage, sol.line[1].end) == (20, End.CLAIM)
    assert solve(pos, RuleSet.parse("schnapsen marriage_in_phase2=no")).value == -1


def test_claim_comes_at_the_earliest_correct_moment() -> None:
    # Sixty-six, stock exhausted, hearts trumps. Anna has 50 points and leads AH: Bert must head
    # if he can (he cannot) and follow hearts with 9H; Anna has 61, not yet 66. Her 10H then
    # takes Bert's JH (12 more: 73): she claims there, before the last trick is played.
    pos = Position(
        (hand("AH 10H AS"), hand("9H JH 9S")),
        leader=0,
        trump=HEARTS,
        points=(50, 40),
        tricks=(2, 2),
    )
    sol = solve(pos, RuleSet.preset("sixty-six"))
    assert sol.value == 1
    assert [str(s) for s in sol.line][-1] == "claim 0"
    assert len([s for s in sol.line if s.card is not None]) == 4


def test_close_scored_at_the_close_keeps_the_opponents_count_of_that_moment() -> None:
    # Schnapsen scores a closer's win on the opponent's count at the close: Bert had no trick
    # then, so Anna's win is schwarz (3) even though Bert wins a trick afterwards. Under the
    # seed's rules (close_scored_at=claim) the same play is worth 2 (Bert under 33).
    pos = Position(
        (hand("AC 10C KC AS"), hand("QC JC 10S JS")),
        leader=0,
        trump=CLUBS,
        points=(30, 0),
        tricks=(2, 0),
        closer=0,
        at_close=((30, 0), (2, 0)),
    )
    assert solve(pos, RuleSet.preset("schnapsen")).value == 3


def test_move_values_give_every_lead_its_exact_value() -> None:
    pos = Position(
        (hand("KH QH"), hand("AH 10H")), leader=0, trump=CLUBS, points=(50, 40), tricks=(1, 1)
    )
    values = move_values(pos, RuleSet.preset("schnapsen"))
    assert values == {(Card.parse("KH"), 20): 1, (Card.parse("QH"), 20): 1}


# --- brute force: plain minimax, no pruning, no table, its own reading of the ending rules ---


def brute(pos: Position, rules: RuleSet) -> int:
    """The value by trying every move, written from RULES.md sections 4 to 9 directly."""
    if pos.lead is None:
        end = brute_end(pos, rules)
        if end is not None:
            return end
        values = []
        own = pos.hands[pos.leader]
        for card in cards_in(own):
            mar = 0
            if rules.marriage_in_phase2 and card % 6 in (2, 3):
                partner = card + 1 if card % 6 == 2 else card - 1
                if own >> partner & 1:
                    mar = 40 if card // 6 == pos.trump else 20
            nxt = play(pos, (card, mar))
            if mar and pos.tricks[pos.leader] and nxt.counted(pos.leader) >= 66:
                values.append(claim(nxt, pos.leader, rules))
            else:
                values.append(brute(nxt, rules))
        return max(values) if pos.leader == 0 else min(values)
    follower = 1 - pos.leader
    values = [
        brute(play(pos, (c, 0)), rules)
        for c in cards_in(legal_follows(pos.hands[follower], pos.lead, pos.trump))
    ]
    return max(values) if follower == 0 else min(values)


def claim(pos: Position, who: int, rules: RuleSet) -> int:
    sign = 1 if who == 0 else -1
    opp = 1 - who
    if pos.closer is not None and pos.at_close is not None:
        if pos.closer != who:
            return sign * (2 if pos.at_close[1][who] else 3)
        if rules.close_scored_at == "close":
            return sign * game_points(pos.at_close[0][opp], pos.at_close[1][opp])
    return sign * game_points(pos.counted(opp), pos.tricks[opp])


def brute_end(pos: Position, rules: RuleSet) -> int | None:
    last = not (pos.hands[0] | pos.hands[1])
    counted = [pos.counted(0), pos.counted(1)]
    if last and pos.closer is None:
        counted[pos.leader] += rules.last_trick_bonus
    claimers = [pos.leader] if rules.claim_when == "on-lead" else [pos.leader, 1 - pos.leader]
    for who in claimers:
        if counted[who] >= 66:
            bonus_pos = Position(
                pos.hands,
                pos.leader,
                pos.trump,
                (
                    counted[0] - pos.counted(0) + pos.points[0],
                    counted[1] - pos.counted(1) + pos.points[1],
                ),
                pos.marriages,
                pos.tricks,
                pos.closer,
                pos.at_close,
            )
            return claim(bonus_pos, who, rules)
    if not last:
        return None
    if pos.closer is not None and pos.at_close is not None:
        if rules.unclaimed_end == "draw" and counted[pos.closer] >= 66:
            return 0
        opp = 1 - pos.closer
        return (1 if opp == 0 else -1) * (2 if pos.at_close[1][opp] else 3)
    if rules.unclaimed_end == "last-trick":
        return 1 if pos.leader == 0 else -1
    if rules.unclaimed_end == "higher-total" and counted[0] != counted[1]:
        win = 0 if counted[0] > counted[1] else 1
        return (1 if win == 0 else -1) * game_points(counted[1 - win], pos.tricks[1 - win])
    return 0


def random_position(rng: random.Random, rules: RuleSet) -> Position:
    """A random phase-2 position of 1 to 4 cards a hand, with random counts and maybe a close."""
    deck = cards_in(DECK_MASKS[rules.deck])
    rng.shuffle(deck)
    n = rng.randint(1, 4)
    tricks = (rng.randint(0, 3), rng.randint(0, 3))
    points = tuple(rng.randint(0, 60) if t else 0 for t in tricks)
    marriages = (rng.choice((0, 0, 20, 40)), rng.choice((0, 0, 20)))
    closer = rng.choice((None, 0, 1))
    at_close = (
        ((points[0] // 2, points[1] // 2), (rng.randint(0, tricks[0]), rng.randint(0, tricks[1])))
        if closer is not None
        else None
    )
    lead = None
    h0 = sum(1 << c for c in deck[:n])
    h1 = sum(1 << c for c in deck[n : 2 * n])
    leader = rng.randrange(2)
    pos = Position(
        (h0, h1),
        leader,
        rng.randrange(4),
        (points[0], points[1]),
        marriages,
        tricks,
        closer,
        at_close,
        lead,
    )
    if rng.random() < 0.3:  # the follower to play: a card already led
        return play(pos, (rng.choice(cards_in(h0 if leader == 0 else h1)), 0))
    return pos


@pytest.mark.parametrize("preset", ["sixty-six", "schnapsen", "pagat-66"])
def test_solver_agrees_with_brute_force_on_2000_random_positions(preset: str) -> None:
    rules = RuleSet.preset(preset)
    rng = random.Random(preset)
    for _ in range(2000):
        pos = random_position(rng, rules)
        if max(pos.counted(0), pos.counted(1)) >= 66:
            continue  # a claim before any play: nothing to search
        assert solve(pos, rules).value == brute(pos, rules), pos


def test_a_marriage_counts_at_once_with_a_trick_and_waits_without_one() -> None:
    # The one way both searches declare (phase 2's and phase 1's): Anna (0) with a trick and
    # 50 counted points declares 20 and reaches 70, a claim at once (Bert has 40 and a trick:
    # 1 game point); without a trick her 20 waits for her first one; Bert's 40 waits too.
    search = Search(RuleSet.preset("sixty-six"), Position((0, 0), 0, HEARTS))
    assert search.declare(0, 20, 50, 40, 0, 0, 1, 1) == (1, 70, 40, 0, 0)
    assert search.declare(0, 20, 0, 30, 0, 0, 0, 1) == (None, 0, 30, 20, 0)
    assert search.declare(1, 40, 10, 0, 0, 0, 1, 0) == (None, 10, 0, 0, 40)
    assert search.declare(1, 20, 10, 40, 0, 0, 1, 1) == (None, 10, 60, 0, 0)


def test_an_exchange_swaps_the_exchange_card_for_the_card_lying_face_up() -> None:
    # Sixty-Six, hearts trumps (the 9 exchanges): whoever exchanges, before leading or before
    # following, gives the 9H and takes the turn-up (AH); the other hand stays as it was
    from tally.analysis.closing import Opening, _PlayOn

    turn_up = Card.parse("AH")
    o = Opening(
        0,
        HEARTS,
        (hand("9H KS"), hand("QC")),
        (int(Card.parse("JC")), turn_up),
        (0, 0),
        (0, 0),
        (0, 0),
    )
    search = _PlayOn(o, RuleSet.preset("sixty-six"))
    assert search.exchanged(hand("9H KS"), hand("QC"), 0, turn_up) == (hand("AH KS"), hand("QC"))
    assert search.exchanged(hand("KS"), hand("9H QC"), 1, turn_up) == (hand("KS"), hand("AH QC"))
