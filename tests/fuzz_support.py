"""A mutation fuzzer for ``.deal`` records: what no input may do is end in an internal error.

Records from ``examples/`` and the conformance cases are mutated (bytes flipped, lines
duplicated, deleted or swapped, digits replaced by huge or non-ASCII digits, hostile unicode
inserted, tokens of the notation inserted, the size blown up) and each mutant goes the way
``tally check`` takes it: :func:`tally.engine.notation.decode_record`, then
:func:`tally.engine.ruling.rule_text`, the printed ruling and its JSON, and the referee's summary.
Anything but a :class:`~tally.errors.TallyError` from those is a crash.

Run it for longer by hand::

    python -m tests.fuzz_support --seconds 300
"""

from __future__ import annotations

import argparse
import json
import random
import time
import traceback
from collections.abc import Callable
from pathlib import Path

from tally.cli.check import describe
from tally.engine.deal import Deal
from tally.engine.notation import decode_record, read_deal, write_deal
from tally.engine.rules import RuleSet
from tally.engine.ruling import rule_text, summarize
from tally.errors import TallyError
from tests.conftest import CONFORMANCE, PRESET_DIRS, ROOT

HOSTILE = [
    "\x00",
    "\ufeff",
    "\u2028",
    "\x85",
    "\x0c",
    "\x0b",
    "\x1c",
    "\r",
    "\t",
    "\u0308",
    "\u202e",
    "😀",
    "①",
    "²",
    "١",
    "１",
    "Ⅻ",
    "ß",
    "İ",
    "ﬀ",
    "\\",
    '"',
    ";",
    "{",
    "}",
    "[",
    "]",
    "@",
    ".",
    "-",
    " ",
    "\n",
]
TOKENS = [
    "swap",
    "close",
    "66",
    "66@Anna",
    '66@"Two Words"',
    "66@",
    "20",
    "40",
    "KS",
    "QH",
    "9C",
    "10D",
    "TH",
    "Herz",
    "König",
    "Herz König",
    "Eichel-Ober",
    "HK",
    "♥K",
    '[Carry "1"]',
    '[Rules "schnapsen"]',
    '[Result "draw"]',
    '[Hands "x: KS"]',
    '[Remaining "Anna: AS"]',
    "1.",
    "13.",
    "0.",
    "{",
    "}",
    ";",
    "[",
    '"',
]
DIGITS = ["9" * 5000, "1" * 30, "0" * 50 + "1", "①", "²", "١٢", "１", "٣", "߁", "9" * 20]
RULES = [
    "deck=20",
    "hand=0",
    "hand=99",
    "carry=none",
    "deck=24 exchange_card=J",
    "last_trick_bonus=" + "9" * 5000,
    "match_target=²",
    "illegal_play_points=١",
    "hand=5",
    "hand=7",
    "hand=1",
    "hand=12",
]


def corpus(random_deals: int = 60) -> list[bytes]:
    """The records mutated: every example record, every conformance case, and random legal
    deals of each preset (with their hands, so that more of what a record proves is tried)."""
    files = sorted((ROOT / "examples").rglob("*.deal"))
    for preset in PRESET_DIRS:
        files += sorted((CONFORMANCE / preset).glob("*.deal"))
    out = [f.read_bytes() for f in files]
    rng = random.Random(66)
    for i in range(random_deals):
        deal = Deal.random(RuleSet.parse(PRESET_DIRS[i % 3]), rng)
        deal.play_out_randomly(rng)
        out.append(write_deal(deal.record(hands=i % 2 == 0)).encode())
    return out


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four random mutations of ``data``; half the time only ones that keep the
    notation valid, so that the engine's rules are reached rather than the reader's."""
    kinds = _MUTATIONS if rng.random() < 0.5 else _GENTLE
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(kinds)(data, rng)[:MAX_SIZE]
    return data


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        b[rng.randrange(len(b))] = rng.randrange(256)
    return bytes(b)


def _dup_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _del_line(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    del lines[rng.randrange(len(lines))]
    return b"\n".join(lines)


def _swap_lines(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _digits(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    spots = [i for i, ch in enumerate(text) if ch.isdigit()]
    if not spots:
        return data
    i = rng.choice(spots)
    return (text[:i] + rng.choice(DIGITS) + text[i + 1 :]).encode()


def _unicode(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    i = rng.randrange(len(text) + 1)
    ch = rng.choice(HOSTILE) if rng.random() < 0.7 else chr(rng.randrange(0x20, 0x3000))
    return (text[:i] + ch + text[i:]).encode("utf-8", "surrogatepass")


def _token(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    spaces = [i for i, ch in enumerate(text) if ch in " \n"] or [len(text)]
    i = rng.choice(spaces)
    return (text[:i] + " " + rng.choice(TOKENS) + " " + text[i:]).encode()


def _rules(data: bytes, rng: random.Random) -> bytes:
    head = f'[Rules "{rng.choice(["sixty-six", "schnapsen", "pagat-66"])} {rng.choice(RULES)}"]'
    lines = [ln for ln in _lines(data) if not ln.startswith(b"[Rules")]
    return b"\n".join([head.encode(), *lines])


def _blow_up(data: bytes, rng: random.Random) -> bytes:
    lines = _lines(data)
    i = rng.randrange(len(lines))
    if rng.random() < 0.5:
        lines[i : i + 1] = [lines[i]] * rng.randint(50, 2000)
    else:
        lines[i] = lines[i] * rng.randint(50, 5000)
    return b"\n".join(lines)


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _bom_or_latin1(data: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return b"\xef\xbb\xbf" + data
    return data.decode("utf-8", "replace").encode("latin-1", "replace")


_CARDS = [r + s for r in ("A", "10", "K", "Q", "J", "9") for s in "CDHS"]
_VALID = [
    "deck=20 exchange_card=J",
    "hand=5",
    "exchange_card=J",
    "exchange_when=lead",
    "exchange_when=lead-or-follow",
    "exchange_needs_trick=no",
    "marriage_in_phase2=yes",
    "close_before_draw=no",
    "close_scored_at=close",
    "last_trick_bonus=0",
    "claim_when=on-lead",
    "unclaimed_end=last-trick",
    "unclaimed_end=higher-total",
    "false_claim_points=2",
    "carry=none",
    "illegal_play_points=2",
    "next_dealer=winner",
]


def _card_swap(data: bytes, rng: random.Random) -> bytes:
    """A card of a trick line replaced by another: a deal with a revoke, or impossible."""
    lines = _lines(data)
    tricks = [i for i, ln in enumerate(lines) if ln[:1].isdigit()]
    if not tricks:
        return data
    i = rng.choice(tricks)
    words = lines[i].split(b" ")
    spots = [k for k, w in enumerate(words) if w.decode("utf-8", "replace") in _CARDS]
    if spots:
        words[rng.choice(spots)] = rng.choice(_CARDS).encode()
    lines[i] = b" ".join(words)
    return b"\n".join(lines)


def _card_exchange(data: bytes, rng: random.Random) -> bytes:
    """Two cards of the trick lines trade places: each card still played once."""
    lines = _lines(data)
    spots = [
        (i, k)
        for i, ln in enumerate(lines)
        if ln[:1].isdigit()
        for k, w in enumerate(ln.split(b" "))
        if w.decode("utf-8", "replace") in _CARDS
    ]
    if len(spots) < 2:
        return data
    (i, k), (j, m) = rng.sample(spots, 2)
    wi, wj = lines[i].split(b" "), lines[j].split(b" ")
    a, b = wi[k], wj[m]
    wi[k] = b
    lines[i] = b" ".join(wi)
    wj = lines[j].split(b" ")
    wj[m] = a
    lines[j] = b" ".join(wj)
    return b"\n".join(lines)


def _action(data: bytes, rng: random.Random) -> bytes:
    """swap, close, 66 or a marriage inserted among the items of a trick line."""
    lines = _lines(data)
    tricks = [i for i, ln in enumerate(lines) if ln[:1].isdigit()]
    if not tricks:
        return data
    i = rng.choice(tricks)
    words = lines[i].split(b" ")
    item = rng.choice(
        [
            "swap",
            "close",
            "66",
            "66@Anna",
            f"20 {rng.choice(_CARDS)}",
            f"40 {rng.choice(_CARDS)}",
            "close-before-draw",
        ]
    )
    words.insert(rng.randint(1, len(words)), item.encode())
    lines[i] = b" ".join(words)
    return b"\n".join(lines)


def _valid_rules(data: bytes, rng: random.Random) -> bytes:
    chosen = " ".join(rng.sample(_VALID, rng.randint(1, 3)))
    head = f'[Rules "{rng.choice(["sixty-six", "schnapsen", "pagat-66"])} {chosen}"]'
    lines = [ln for ln in _lines(data) if not ln.startswith(b"[Rules")]
    return b"\n".join([head.encode(), *lines])


def _hand_tag(data: bytes, rng: random.Random) -> bytes:
    """A Hands or Remaining tag for a player of the record, with random cards."""
    text = data.decode("utf-8", "replace")
    names = [
        ln.split('"')[1]
        for ln in text.splitlines()
        if ln.startswith(("[Dealer", "[Forehand")) and ln.count('"') >= 2
    ]
    if not names:
        return data
    tag = rng.choice(["Hands", "Remaining"])
    parts = [
        f"{n}: {' '.join(rng.sample(_CARDS, rng.randint(0, 7)))}"
        for n in rng.sample(names, rng.randint(1, len(names)))
    ]
    lines = [ln for ln in text.splitlines() if not ln.startswith(f"[{tag}")]
    return "\n".join([f'[{tag} "{"; ".join(parts)}"]', *lines]).encode()


_MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    _flip,
    _dup_line,
    _del_line,
    _swap_lines,
    _digits,
    _unicode,
    _token,
    _rules,
    _blow_up,
    _truncate,
    _bom_or_latin1,
    _card_swap,
    _card_swap,
    _action,
    _action,
    _valid_rules,
    _hand_tag,
]
_GENTLE: list[Callable[[bytes, random.Random], bytes]] = [
    _card_swap,
    _card_exchange,
    _card_exchange,
    _card_exchange,
    _action,
    _action,
    _valid_rules,
    _hand_tag,
    _truncate,
]
#: Mutants are cut to this size: tally check reads what it is given, the fuzzer tests logic.
MAX_SIZE = 1 << 20


def check_bytes(data: bytes) -> None:
    """Take ``data`` the way ``tally check`` does; raises only what is a crash."""
    try:
        text = decode_record(data)
    except TallyError:
        return
    ruling = rule_text(text, "fuzz.deal")
    describe(ruling)
    describe(ruling, referee=True)
    json.dumps(ruling.as_json(), allow_nan=False)
    try:
        record = read_deal(text)
    except TallyError:
        return
    summarize(record)


def crash_class(exc: BaseException) -> str:
    """The exception's type and the innermost line of tally where it was raised."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/tally/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {where}: {str(exc)[:100]}"


def run(seconds: float, seed: int) -> dict[str, bytes]:
    """Mutate for ``seconds``; the first input of each crash class found."""
    rng = random.Random(seed)
    records = corpus()
    crashes: dict[str, bytes] = {}
    n = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        data = mutate(rng.choice(records), rng)
        n += 1
        try:
            check_bytes(data)
        except Exception as exc:
            crashes.setdefault(crash_class(exc), data)
    print(f"{n} mutants, {len(crashes)} crash classes")
    return crashes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save", type=Path, help="folder to write one input per crash class")
    args = ap.parse_args()
    crashes = run(args.seconds, args.seed)
    for i, (what, data) in enumerate(sorted(crashes.items())):
        print(what)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"crash{i}.deal").write_bytes(data)


if __name__ == "__main__":
    main()
