"""A deal the analysis tests share: both hands known, the forehand wins every trick and has 71
counted points after trick 6 (the stock is exhausted), yet claims only after trick 8: two
tricks late."""

from __future__ import annotations


def late_claim_record(dealer: str, forehand: str) -> str:
    """The late-claim deal with these two players (``forehand`` claims)."""
    return f"""[Dealer "{dealer}"]
[Forehand "{forehand}"]
[Trump "9C"]
[Hands "{forehand}: AC 10C KC QC JC AH; {dealer}: AS 10S KS QS JS 9S"]

1. AH 9S
2. AC 10S
3. 10C KS
4. KC QS
5. QC JS
6. JC AS
7. AD 9D
8. 10D JD 66
"""
