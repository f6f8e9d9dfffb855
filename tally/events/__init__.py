"""Events: what a club evening, a round robin, a Swiss event, a knockout with lives and groups
then knockout each are (:mod:`tally.events.formats`). The store keeps and runs them
(:mod:`tally.store.events`)."""
