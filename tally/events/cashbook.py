"""The treasurer's cash book of an event: what each player owes, has paid and has won, and
the evening's money sheet. Pure functions of amounts in cents; the store keeps the desk's rows
(:mod:`tally.store.treasurer`) and the prizes come from :mod:`tally.events.prizes`.

**What a player owes** (:attr:`Account.owed`): the entry fee (every player entered, one who
withdrew too, as the pool counts them), each buy-back's fee ("Nachkauf"), and the extra fees
the treasurer took down (a meal, a late entry). Entry fees and buy-backs make the prize pool;
extra fees go to the club. What is still due is what is owed less what was paid (less than 0:
change to hand back).

**What a player wins** (:attr:`Account.prize`): the prize of their place or of their category,
as the standings by elimination give it; what is still to be paid out is the prize less what
was handed over.

**The money sheet** (:class:`CashBook`) adds up to the cent, by construction and checked by
:meth:`CashBook.balances`:

- entry fees + buy-backs = the pool = prizes (overall and per category) + the club's part of
  the pool;
- the club's part of the evening = the club's part of the pool + the extra fees;
- cash in hand (paid in less paid out) + still due - still to pay out = the club's part of the
  evening: once everyone has paid and every prize is handed over, the cash box holds the
  club's part.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = ["Account", "CashBook", "SeasonTotals", "cash_book", "season_totals"]


@dataclass(frozen=True, slots=True)
class Account:
    """A player's money in an event, in cents: owed (entry fee, buy-backs with their number,
    extra fees), paid, won (with the rank and the category whose prize it is: None overall)
    and paid out; ``present``: checked in at the desk."""

    player: str
    present: bool = False
    entry: int = 0
    buy_backs: int = 0
    buy_back_fees: int = 0
    extra: int = 0
    paid: int = 0
    rank: int | None = None
    prize: int = 0
    prize_category: str | None = None
    paid_out: int = 0

    @property
    def owed(self) -> int:
        """The entry fee, the buy-backs and the extra fees together."""
        return self.entry + self.buy_back_fees + self.extra

    @property
    def due(self) -> int:
        """What the player still has to pay (less than 0: change to hand back)."""
        return self.owed - self.paid

    @property
    def to_pay_out(self) -> int:
        """The prize not handed over yet."""
        return self.prize - self.paid_out


def _total(values: Iterable[int]) -> int:
    return sum(values, 0)


@dataclass(frozen=True, slots=True)
class CashBook:
    """An event's money sheet: every player's account (in the standings' order) and what the
    pool says (``pool``: the prize table's pool, entry fees and buy-backs); the totals are
    properties, so they can never disagree with the accounts."""

    accounts: tuple[Account, ...]
    pool: int = 0
    entry_fee: int = 0

    @property
    def entries(self) -> int:
        """The entry fees of every player entered."""
        return _total(a.entry for a in self.accounts)

    @property
    def buy_back_fees(self) -> int:
        """The buy-backs' fees."""
        return _total(a.buy_back_fees for a in self.accounts)

    @property
    def buy_backs(self) -> int:
        """How many lives were bought back."""
        return _total(a.buy_backs for a in self.accounts)

    @property
    def extra(self) -> int:
        """The extra fees (to the club)."""
        return _total(a.extra for a in self.accounts)

    @property
    def owed(self) -> int:
        """Everything the players owe."""
        return _total(a.owed for a in self.accounts)

    @property
    def paid(self) -> int:
        """Everything paid in at the desk."""
        return _total(a.paid for a in self.accounts)

    @property
    def due(self) -> int:
        """What is still due, all players together (change owed counts against it)."""
        return self.owed - self.paid

    @property
    def prizes(self) -> int:
        """Every prize won, overall and in the categories."""
        return _total(a.prize for a in self.accounts)

    @property
    def overall_prizes(self) -> int:
        """The prizes of the overall table."""
        return _total(a.prize for a in self.accounts if a.prize_category is None)

    def category_prizes(self) -> list[tuple[str, int]]:
        """What each category's prizes add up to, in the order first won."""
        out: dict[str, int] = {}
        for a in self.accounts:
            if a.prize_category is not None:
                out[a.prize_category] = out.get(a.prize_category, 0) + a.prize
        return list(out.items())

    @property
    def paid_out(self) -> int:
        """The prize money handed over."""
        return _total(a.paid_out for a in self.accounts)

    @property
    def to_pay_out(self) -> int:
        """The prize money still to hand over."""
        return self.prizes - self.paid_out

    @property
    def club_from_pool(self) -> int:
        """What is left of the pool for the club (shares below 100 %, rounding, ties)."""
        return self.entries + self.buy_back_fees - self.prizes

    @property
    def club(self) -> int:
        """The club's part of the evening: its part of the pool and the extra fees."""
        return self.club_from_pool + self.extra

    @property
    def cash(self) -> int:
        """What the cash box holds now: paid in less paid out."""
        return self.paid - self.paid_out

    @property
    def present(self) -> int:
        """How many players are checked in."""
        return sum(1 for a in self.accounts if a.present)

    def balances(self) -> bool:
        """Whether the sheet adds up to the cent (see the module docstring)."""
        return (
            self.entries + self.buy_back_fees == self.pool
            and self.overall_prizes + _total(x for _, x in self.category_prizes()) == self.prizes
            and self.prizes + self.club_from_pool == self.pool
            and self.cash + self.due - self.to_pay_out == self.club
        )


def cash_book(accounts: Sequence[Account], pool: int, entry_fee: int = 0) -> CashBook:
    """The money sheet of ``accounts`` (standings' order) with the prize table's ``pool``."""
    return CashBook(tuple(accounts), pool, entry_fee)


@dataclass(frozen=True, slots=True)
class SeasonTotals:
    """The money of the events of a season: each event's money sheet by name and date, and
    the totals."""

    events: tuple[tuple[int, str, str, CashBook], ...]

    def total(self, what: str) -> int:
        """The season's total of one of the sheets' amounts (``entries``, ``club``, ...)."""
        return _total(int(getattr(book, what)) for *_, book in self.events)


def season_totals(events: Iterable[tuple[int, str, str, CashBook]]) -> SeasonTotals:
    """The totals of a season's money sheets (id, name, date, sheet)."""
    return SeasonTotals(tuple(events))
