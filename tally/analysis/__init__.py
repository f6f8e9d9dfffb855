"""Analysis of recorded deals: the exact solver, what a record says of its close and its
claim, a mark on every decision, the close as the closer saw it, and the sums per player.

Pure, over the engine (:mod:`tally.engine`); docs/analysis.md explains the figures.
"""
