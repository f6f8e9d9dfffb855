"""Events: the formats (:mod:`tally.events.formats`: a club evening, a round robin, a Swiss
event, a knockout with lives, groups then knockout), their pairings (Berger schedules, Swiss,
the knockout draw, brackets), tiebreaks, prize tables, ratings and series.

Pure: the store keeps events and runs them through these (:mod:`tally.store.events`);
docs/events.md is the director's guide.
"""
