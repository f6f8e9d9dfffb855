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

**Category prizes** (:func:`parse_category_prizes`, :func:`award_prizes`): a category (women,
juniors, club members, the club's own) may have a prize table of its own, as percentages of
the pool (rounded down to the unit as the places are) or as fixed amounts. As Austrian and
Skat prize lists do it, a player wins at most one prize, the higher: the prizes are handed
out highest first, each to the best-placed player of its list (the whole field, or the
category's players) who has none yet; between equal amounts the overall prize goes first.
So a woman who wins an overall prize does not also win the women's prize: the next woman
moves up. Players sharing a rank share the places they hold together, as in the overall
table. What nobody wins is left for the club, so the pool is the overall prizes, the
category prizes and the club's part together, to the cent (fixed amounts above what the
pool holds make the club's part negative: the club adds it).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Final

from tally.errors import N_, Message, Refused
from tally.names import read_number, shown

__all__ = [
    "Award",
    "CategoryPrizes",
    "Payout",
    "PrizeList",
    "PrizeTable",
    "award_prizes",
    "check_shares",
    "money",
    "parse_category_prizes",
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
    """What each player wins (``won``, in the standings' order, cents) out of ``pool``, and
    from which prize list (``lists``: 0 the overall table, 1 the first category's, ...; -1
    no prize)."""

    pool: int
    won: tuple[int, ...]
    lists: tuple[int, ...] = ()

    @property
    def paid(self) -> int:
        """What the players win together."""
        return sum(self.won)

    def paid_from(self, prize_list: int) -> int:
        """What the players win from one prize list (0 the overall table)."""
        return sum(w for w, n in zip(self.won, self.lists, strict=True) if n == prize_list)

    @property
    def club(self) -> int:
        """What is left of the pool for the club: the pool less what the players win, so
        that the two add up to the pool to the cent (shares below 100 %, rounding, places
        shared by a tie, places nobody holds)."""
        return self.pool - self.paid


def payout(ranks: Sequence[int], table: PrizeTable, categories: Sequence[PrizeList] = ()) -> Payout:
    """What each player of ``ranks`` wins and what is left for the club: the places of
    ``table`` and of each category's prize list, at most one prize a player, the higher
    (:func:`award_prizes`).

    >>> t = prize_table(5_600, [Decimal(50), Decimal(30), Decimal(15)], 100)
    >>> p = payout([1, 2, 2, 2, 5], t)
    >>> t.prizes, p.won, p.paid, p.club
    ((2800, 1600, 800), (2800, 800, 800, 800, 0), 5200, 400)
    """
    awards = award_prizes(ranks, [PrizeList(table.prizes, None, table.unit), *categories])
    return Payout(table.pool, tuple(a.amount for a in awards), tuple(a.prize_list for a in awards))


#: what a category prize table that cannot be read is told
NOT_CATEGORY_PRIZES: Final = N_(
    "--category-prizes: %(text)s is not a category's prize table: write the category, = and "
    "its places best first, as percentages of the pool (Damen=10,5) or as amounts in euros "
    "with the euro sign, separated by ; (Jugend=20 €;10 €)"
)


@dataclass(frozen=True, slots=True)
class CategoryPrizes:
    """A category's prize table as given: its name and its places best first, either as
    percentages of the pool (``shares``) or as fixed amounts in cents (``amounts``); one of the
    two is empty."""

    category: str
    shares: tuple[Decimal, ...] = ()
    amounts: tuple[int, ...] = ()

    def prize_list(self, total: int, unit: int, members: Collection[int]) -> PrizeList:
        """The category's prizes out of the pool ``total`` for its players ``members``
        (positions in the standings): each share rounded down to ``unit``
        (:func:`prize_table`), or the fixed amounts (shared to the cent)."""
        if self.amounts:
            return PrizeList(self.amounts, members, 1)
        return PrizeList(prize_table(total, self.shares, unit).prizes, members, unit)

    def written(self) -> str:
        """The table as ``--category-prizes`` takes it (``Damen=10,5``, ``Jugend=20 €;10 €``):
        how it is stored and exported.

        >>> parse_category_prizes("jugend = 20€; 7,50").written()
        'jugend=20 €;7.50 €'
        """
        if self.amounts:
            return f"{self.category}=" + ";".join(f"{money(a, 'en')} €" for a in self.amounts)
        return f"{self.category}=" + ",".join(f"{x.normalize():f}" for x in self.shares)


def parse_category_prizes(text: str) -> CategoryPrizes:
    """A category's prize table as typed: ``Damen=10,5`` (percentages of the pool, read as
    ``--prizes`` is: :func:`parse_shares`), ``Jugend=20 €;10 €`` (amounts in euros, read as
    ``--entry-fee`` is: :func:`parse_money`; once a place has the euro sign they all are
    amounts), or ``Damen=`` (no table: it is taken away). The category's name is read as
    every category's (:func:`tally.names.category_name`).

    >>> parse_category_prizes("Damen=10,5")
    CategoryPrizes(category='Damen', shares=(Decimal('10'), Decimal('5')), amounts=())
    >>> parse_category_prizes("Jugend = € 20; 10,- €").amounts
    (2000, 1000)
    """
    from tally.names import category_name

    name, sign, places = text.partition("=")
    if not sign or not name.strip():
        raise Refused(Message(NOT_CATEGORY_PRIZES, text=shown(text)))
    category = category_name(name)[0]
    if not places.strip():
        return CategoryPrizes(category)
    if "€" in places or "EUR" in places.upper():
        parts = [p for p in places.split(";") if p.strip()]
        return CategoryPrizes(
            category, amounts=tuple(parse_money(p, "--category-prizes") for p in parts)
        )
    return CategoryPrizes(category, shares=parse_shares(places))


@dataclass(frozen=True, slots=True)
class Award:
    """The prize a player wins: from which list (0 the overall table, 1 the first category's
    and so on; -1 none) and how much (cents)."""

    prize_list: int
    amount: int


NO_AWARD = Award(-1, 0)


@dataclass(frozen=True, slots=True)
class PrizeList:
    """A list of prizes handed out (:func:`award_prizes`): each place's prize (cents, best
    first), whose it is (the positions in the standings of the category's players; None:
    everyone's, the overall table) and the unit a shared place's prize is rounded down to
    (fixed amounts: 1 cent)."""

    prizes: Sequence[int]
    members: Collection[int] | None = None
    unit: int = 1


def _offer(
    ranks: Sequence[int],
    won: Sequence[Award | None],
    members: Collection[int] | None,
    prizes: Sequence[int],
    unit: int,
) -> tuple[int, list[int]] | None:
    """What a list offers next: the best-placed players of it without a prize yet (all of
    one rank) and what each of them wins, sharing the places they hold; None when the list
    has no place left or nobody left to give it to."""
    eligible = [
        i for i in range(len(ranks)) if won[i] is None and (members is None or i in members)
    ]
    if not eligible or not prizes:
        return None
    top = min(ranks[i] for i in eligible)
    group = [i for i in eligible if ranks[i] == top]
    held = prizes[: len(group)]
    each = _down(Decimal(sum(held)) / len(group), unit)
    return (each, group) if each > 0 else None


def award_prizes(ranks: Sequence[int], lists: Sequence[PrizeList]) -> list[Award]:
    """Who wins which prize (see the module docstring): ``ranks`` the players' ranks in the
    standings' order; ``lists`` the prize lists, the overall one first, then each
    category's. A player wins at most one prize, the higher; equal amounts go to the
    earlier list; players sharing a rank share the places they hold, rounded down to the
    list's unit.

    >>> award_prizes([1, 2, 3, 4], [PrizeList([5000, 3000]), PrizeList([2000, 1000], {1, 3})])
    [Award(prize_list=0, amount=5000), Award(prize_list=0, amount=3000), \
Award(prize_list=-1, amount=0), Award(prize_list=1, amount=2000)]
    """
    won: list[Award | None] = [None] * len(ranks)
    left = [list(x.prizes) for x in lists]
    while True:
        best: tuple[int, int, list[int]] | None = None
        for number, x in enumerate(lists):
            offer = _offer(ranks, won, x.members, left[number], x.unit)
            if offer is not None and (best is None or offer[0] > best[0]):
                best = (offer[0], number, offer[1])
        if best is None:
            return [NO_AWARD if w is None else w for w in won]
        each, number, group = best
        for i in group:
            won[i] = Award(number, each)
        del left[number][: len(group)]
