"""tally: scoring and tournament tool for Sixty-Six and Schnapsen.

The rules engine lives in :mod:`tally.cards`, :mod:`tally.rules`, :mod:`tally.deal`,
:mod:`tally.notation` and :mod:`tally.ruling`; it imports no CLI, database or template code.
"""

__version__ = "0.1.0"
