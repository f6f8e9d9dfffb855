"""The prize table of a Preisschnapsen: the pool (entry fees and buy-back fees), a share of it
per place, rounded as the club says. Pure functions of amounts in cents; nothing is stored.

**The pool** (:func:`pool`): every player entered pays the entry fee (a player who withdrew
has paid too), every buy-back ("Nachkauf") its fee.

**The shares** (:func:`check_shares`): a percentage of the pool per place, best first
(``50,30,20``), each more than 0 and at most 100, together at most 100, no more places than
players in the field.

**Rounding** (:func:`prize_table`): each place's prize is its share of the pool rounded
*down* to the club's unit (1 cent, 50 cents, a whole euro, ...), so the prizes never add up
to more than the pool. What is left over (the pool less the prizes: the shares below 100 %
and what rounding cut off) goes to the club (:attr:`PrizeTable.club`).

**Shared places** (:func:`prizes_by_rank`): players who share a rank share the prizes of the
places they hold together equally (two players sharing 2nd hold the prizes of 2nd and 3rd),
each share rounded down to the unit again; that remainder goes to the club too, so that
the pool is always what the players win and what is left for the club together, to the cent
(:func:`payout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from tally.errors import N_, Message, Refused
from tally.names import read_number, shown

__all__ = [
    "Payout",
    "PrizeTable",
    "check_shares",
    "money",
    "parse_money",
    "parse_shares",
    "payout",
    "pool",
    "prize_table",
    "prizes_by_rank",
]

#: The largest amount tally takes (a fee or a pool), in cents: 1,000,000 euros.
MAX_CENTS = 100_000_000


#: what an amount or a share that cannot be read is told
NOT_AN_AMOUNT: Final = N_(
    "%(what)s: %(text)s is not an amount in euros (such as 10, 7,50 or 10,-: digits, at most 2 "
    "decimals)"
)
TOO_MUCH = N_("%(what)s: %(text)s is not an amount from 0 to 1000000 euros")
NOT_A_SHARE = N_(
    "--prizes: %(text)s is not a percentage (write the places' shares best first, such as 50,30,20)"
)


def parse_money(text: str, what: str) -> int:
    """An amount in euros as typed (``10``, ``7.50``, ``7,50``, ``0.5``, ``7,50 €``, ``€ 10``,
    and ``10,-`` as Austrians write ten euros) in cents; refused unless it is 0 or more with at
    most 2 decimals.

    >>> parse_money("7,50 €", "--entry-fee"), parse_money("0.5", "--round-to")
    (750, 50)
    >>> parse_money("10,-", "--entry-fee"), parse_money("EUR 10.–", "--entry-fee")
    (1000, 1000)
    """
    given = text.strip().removeprefix("€").removeprefix("EUR").removesuffix("€")
    given = given.removesuffix("EUR").strip()
    for whole in (",-", ".-", ",\u2013", ".\u2013"):  # "10,-", "10.–": whole euros
        given = given.removesuffix(whole)
    value = read_number(given, 7, 2)
    if value is None:
        raise Refused(Message(NOT_AN_AMOUNT, what=what, text=shown(text)))
    cents = value * 100
    if cents > MAX_CENTS:
        raise Refused(Message(TOO_MUCH, what=what, text=shown(text)))
    return int(cents)


def money(cents: int, lang: str | None = None) -> str:
    """An amount in cents as a club writes it in ``lang`` (else the current language):
    ``"10"`` for whole euros, else ``"7.50"``; in German with a comma and the euro sign.

    >>> money(1000, "en"), money(750, "en"), money(750, "de"), money(32750, "de")
    ('10', '7.50', '7,50\xa0€', '327,50\xa0€')
    """
    from tally.i18n import current

    euros, rest = divmod(cents, 100)
    written = str(euros) if not rest else f"{euros}.{rest:02d}"
    if (lang or current()) == "de":
        return written.replace(".", ",") + "\u00a0€"
    return written


def parse_shares(text: str) -> tuple[Decimal, ...]:
    """The percentages per place as typed, best place first (``"50,30,20"``, also with
    spaces, ``;`` or ``%``); checked by :func:`check_shares` once the field is known."""
    parts = [
        p.strip().removesuffix("%").strip()
        for p in text.replace(";", ",").replace(" ", ",").split(",")
    ]
    out = []
    for p in (p for p in parts if p):
        share = read_number(p, 3, 2)
        if share is None:
            raise Refused(Message(NOT_A_SHARE, text=shown(p)))
        out.append(share)
    if not out:
        raise Refused(N_("--prizes: give a percentage per place, best first, such as 50,30,20"))
    return tuple(out)


def check_shares(shares: Sequence[Decimal], field: int) -> None:
    """Refuse percentages that are not a prize table: each more than 0 and at most 100 with
    at most 2 decimals, together at most 100, and no more places than ``field`` players
    (0: not known yet, not checked).

    >>> check_shares([Decimal(60), Decimal(50)], 8)
    Traceback (most recent call last):
    ...
    tally.errors.Refused: --prizes: the shares add up to 110 %, more than the pool (100 %)
    """
    for place, share in enumerate(shares, start=1):
        if not share.is_finite() or not 0 < share <= 100 or share != round(share, 2):
            raise Refused(
                Message(
                    N_(
                        "--prizes: the share of place %(place)s is %(share)s %%; a share is "
                        "more than 0 and at most 100 %% with at most 2 decimals"
                    ),
                    place=place,
                    share=share,
                )
            )
    total = sum(shares, Decimal(0))
    if total > 100:
        raise Refused(
            Message(
                N_("--prizes: the shares add up to %(total)s %%, more than the pool (100 %%)"),
                total=f"{total.normalize():f}",
            )
        )
    if field and len(shares) > field:
        raise Refused(
            Message(
                N_("--prizes: %(places)s places paid but only %(field)s players in the field"),
                places=len(shares),
                field=field,
            )
        )


def pool(entries: int, entry_fee: int, buybacks: int = 0, buyback_fee: int = 0) -> int:
    """The prize pool in cents: ``entries`` entry fees and ``buybacks`` buy-back fees."""
    return entries * entry_fee + buybacks * buyback_fee


@dataclass(frozen=True, slots=True)
class PrizeTable:
    """The pool, each place's prize (best first) and what goes to the club, in cents;
    ``unit`` is what the prizes are rounded down to."""

    pool: int
    unit: int
    prizes: tuple[int, ...]

    @property
    def paid(self) -> int:
        """What the prizes add up to (never more than the pool)."""
        return sum(self.prizes)

    @property
    def club(self) -> int:
        """What is left of the pool for the club."""
        return self.pool - self.paid


def _down(amount: Decimal | int, unit: int) -> int:
    return int(Decimal(amount) // unit) * unit


def prize_table(total: int, shares: Sequence[Decimal], unit: int = 1) -> PrizeTable:
    """Each place's prize: its share of ``total`` (cents) rounded down to ``unit`` cents.

    >>> t = prize_table(11_000, [Decimal(50), Decimal(30), Decimal(20)], 100)
    >>> t.prizes, t.club
    ((5500, 3300, 2200), 0)
    >>> t = prize_table(10_500, [Decimal(50), Decimal(30), Decimal(20)], 100)
    >>> t.prizes, t.club
    ((5200, 3100, 2100), 100)
    """
    if unit < 1:
        raise Refused(
            Message(
                N_("--round-to: prizes are rounded to at least 1 cent, not %(unit)s"), unit=unit
            )
        )
    prizes = tuple(_down(Decimal(total) * share / 100, unit) for share in shares)
    return PrizeTable(total, unit, prizes)


def prizes_by_rank(ranks: Sequence[int], table: PrizeTable) -> list[int]:
    """The prize of each player given their ``ranks`` (in the standings' order, 1 first;
    players sharing a rank share the prizes of the places they hold, rounded down to the
    table's unit).

    >>> t = prize_table(10_000, [Decimal(50), Decimal(30), Decimal(20)], 100)
    >>> prizes_by_rank([1, 2, 2, 4], t)
    [5000, 2500, 2500, 0]
    """
    out = []
    for rank in ranks:
        held = sum(1 for r in ranks if r == rank)
        places = table.prizes[rank - 1 : rank - 1 + held]
        out.append(_down(Decimal(sum(places)) / held, table.unit) if places else 0)
    return out


@dataclass(frozen=True, slots=True)
class Payout:
    """What each player wins (``won``, in the standings' order, cents) out of ``pool``."""

    pool: int
    won: tuple[int, ...]

    @property
    def paid(self) -> int:
        """What the players win together."""
        return sum(self.won)

    @property
    def club(self) -> int:
        """What is left of the pool for the club: the pool less what the players win, so
        that the two add up to the pool to the cent (shares below 100 %, rounding, places
        shared by a tie, places nobody holds)."""
        return self.pool - self.paid


def payout(ranks: Sequence[int], table: PrizeTable) -> Payout:
    """What each player of ``ranks`` wins (:func:`prizes_by_rank`) and what is left for the
    club.

    >>> t = prize_table(5_600, [Decimal(50), Decimal(30), Decimal(15)], 100)
    >>> p = payout([1, 2, 2, 2, 5], t)
    >>> t.prizes, p.won, p.paid, p.club
    ((2800, 1600, 800), (2800, 800, 800, 800, 0), 5200, 400)
    """
    return Payout(table.pool, tuple(prizes_by_rank(ranks, table)))
