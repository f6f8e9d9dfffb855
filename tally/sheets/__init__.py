"""tally's printed sheets: what a sheet shows, how it is built, how it is laid out.

- :mod:`tally.sheets.data`: the plain frozen dataclasses a template receives (re-exported here,
  so ``from tally.sheets import ScoreSheet`` works);
- :mod:`tally.sheets.build`: those sheets made from what the store holds (imports the store);
- :mod:`tally.sheets.render`: a sheet as HTML (Jinja2) and PDF (WeasyPrint);
- :mod:`tally.sheets.report`: a player's evening, its data built and rendered.

Only the data is imported with this package: building brings in the database and rendering
brings in Jinja2, so each is imported from its own module where it is needed.
"""

from __future__ import annotations

from tally.errors import SheetError
from tally.sheets.data import (
    AnalysisLine,
    AnalysisRow,
    AnalysisSheet,
    AnalysisTotal,
    BracketCell,
    BracketSheet,
    CrossTable,
    DealAnalysisPart,
    DecisionRow,
    Declaration,
    DeclarationKind,
    EliminationRow,
    EliminationSheet,
    PairingsSheet,
    PairingTable,
    Paper,
    Ruling,
    RulingSheet,
    ScoreRow,
    ScoreSheet,
    StandingRow,
    StandingsSheet,
    TrickRow,
    Violation,
)

__all__ = [
    "AnalysisLine",
    "AnalysisRow",
    "AnalysisSheet",
    "AnalysisTotal",
    "BracketCell",
    "BracketSheet",
    "CrossTable",
    "DealAnalysisPart",
    "DecisionRow",
    "Declaration",
    "DeclarationKind",
    "EliminationRow",
    "EliminationSheet",
    "PairingTable",
    "PairingsSheet",
    "Paper",
    "Ruling",
    "RulingSheet",
    "ScoreRow",
    "ScoreSheet",
    "SheetError",
    "StandingRow",
    "StandingsSheet",
    "TrickRow",
    "Violation",
]
