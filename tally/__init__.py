"""tally: scoring and tournament tool for Sixty-Six and Schnapsen.

Imports run one way: the command line (:mod:`tally.cli`) and the web app (:mod:`tally.web`)
over sheets and printing, over the store (:mod:`tally.store`), over the rules engine
(:mod:`tally.engine.ruling` down to :mod:`tally.engine.kernel`), over :mod:`tally.errors`. The
engine imports no CLI, database or template code. docs/architecture.md lists every
module and where each rule lives; tests/test_import_structure.py keeps the direction.
"""

__version__ = "0.1.0"
