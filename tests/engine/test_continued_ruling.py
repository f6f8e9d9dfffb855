"""What a table may tap is worked out by ruling each candidate action added to the deal; the
non-card actions continue the deal as replayed up to the record's last trick line
(:func:`rule_continued`) instead of replaying the whole record. It must rule exactly as the
whole record is ruled, whatever the record and the action added (well placed or not)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tally.engine.deal import Deal
from tally.engine.notation import DealRecord, read_deal, write_deal
from tally.engine.rules import PRESETS, RuleSet
from tally.engine.ruling import rule, rule_before_last_line, rule_continued

_ADDED = ("swap", "close", "close-before-draw", "66", "66@Bert", "66@Anna")


def _cut(rng: random.Random) -> tuple[str, list[str]]:
    """A randomly played deal's record without its hands, cut after a random item, and its
    trick lines' words."""
    rules = RuleSet.parse(rng.choice(list(PRESETS)))
    d = Deal.random(rules, rng, names=("Bert", "Anna"), carry=rng.choice((0, 1)))
    d.play_out_randomly(rng)
    lines = write_deal(d.record()).rstrip("\n").split("\n")
    head = [x for x in lines if not x[:1].isdigit() and not x.startswith(("[Hands", "[Rem"))]
    tricks = [x for x in lines if x[:1].isdigit()]
    k = rng.randrange(len(tricks))
    words = tricks[k].split()
    cut = words[: rng.randint(1, len(words))]
    return "\n".join(head) + "\n", [*tricks[:k], " ".join(cut)]


def _added(rng: random.Random, trick_lines: list[str]) -> list[str]:
    """The trick lines with an action or a card added: on the last line, or on a new one."""
    token = rng.choice(
        [*_ADDED, f"{rng.choice((20, 40))} {rng.choice('KQ')}{rng.choice('CDHS')}"]
        + [f"{r}{s}" for r in ("A", "10", "K", "Q", "J") for s in "CDHS"]
    )
    if rng.random() < 0.5:
        return [*trick_lines[:-1], f"{trick_lines[-1]} {token}"]
    number = int(trick_lines[-1].split(".")[0].split()[0]) + 1
    return [*trick_lines, f"{number}. {token}"]


def _read(text: str) -> DealRecord | None:
    try:
        return read_deal(text)
    except ValueError:
        return None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_an_action_added_is_ruled_as_on_the_whole_record(seed: int) -> None:
    rng = random.Random(seed)
    head, trick_lines = _cut(rng)
    before = _read(head + "\n".join(trick_lines) + "\n")
    after = _read(head + "\n".join(_added(rng, trick_lines)) + "\n")
    if before is None or after is None:
        return
    deal = rule_before_last_line(before)
    if deal is None:
        return
    continued = rule_continued(after, before, deal)
    if continued is not None:
        assert continued == rule(after)
