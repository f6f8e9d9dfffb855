"""A confirmation confirms what was proposed (``store.proposals``): a result proposed at a
table is stored as a proposal with its own id; the opponent's agreement names it and stores
its values once; changed values, a withdrawn proposal and one made before the match changed
are refused, storing nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tally.errors import NotFound, Refused
from tests.store_support import dump


def _match(store: Any) -> int:
    for name in ("Anna", "Bert"):
        store.players.add(name)
    return int(store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna").id)


def test_an_agreement_stores_the_proposed_result_once(store: Any) -> None:
    mid = _match(store)
    proposal = store.proposals.propose_deal(mid, winner="Anna", points=2, reason="claim")
    assert proposal.status == "pending" and proposal.number == 1
    assert store.matches.state(mid).deals == ()  # proposed, not recorded
    agreed = store.proposals.agree(proposal.id, mid, proposal.terms)
    assert agreed.stored and agreed.match.score == {"Anna": 2, "Bert": 0}
    again = store.proposals.agree(proposal.id, mid, proposal.terms)  # a second tap
    assert not again.stored and again.proposal.status == "agreed"
    assert len(store.matches.state(mid).deals) == 1


def test_an_agreement_with_changed_values_is_refused_and_stores_nothing(
    store: Any, db_url: str
) -> None:
    mid = _match(store)
    proposal = store.proposals.propose_deal(mid, winner="Anna", points=1, reason="claim")
    before = dump(db_url)
    for changed in (
        {**proposal.terms, "points": "3"},
        {**proposal.terms, "winner": "Bert"},
        {**proposal.terms, "reason": "false-claim"},
    ):
        with pytest.raises(Refused, match="not the one proposed"):
            store.proposals.agree(proposal.id, mid, changed)
    assert dump(db_url) == before
    other = _other_match(store)
    with pytest.raises(NotFound, match="no result proposed"):
        store.proposals.agree(proposal.id, other, proposal.terms)  # another table's


def _other_match(store: Any) -> int:
    store.players.add("Carla")
    return int(store.matches.start("Carla", "Bert", rules="sixty-six", first_dealer="Bert").id)


def test_a_stale_or_withdrawn_proposal_is_refused(store: Any, db_url: str) -> None:
    mid = _match(store)
    stale = store.proposals.propose_deal(mid, winner="Anna", points=1, reason="claim")
    store.deals.quick_result(mid, winner="Bert", points=1, reason="claim")  # the match moved
    before = dump(db_url)
    with pytest.raises(Refused, match="changed since this result was proposed"):
        store.proposals.agree(stale.id, mid, stale.terms)
    first = store.proposals.propose_deal(mid, winner="Anna", points=1, reason="claim")
    newer = store.proposals.propose_deal(mid, winner="Anna", points=2, reason="claim")
    with pytest.raises(Refused, match="withdrawn"):
        store.proposals.agree(first.id, mid, first.terms)
    assert store.proposals.withdraw(newer.id, mid).status == "withdrawn"  # "No"
    with pytest.raises(Refused, match="withdrawn"):
        store.proposals.agree(newer.id, mid, newer.terms)
    assert [d for d in dump(db_url)["deals"]] == before["deals"]


def test_a_match_result_proposed_at_the_table_is_agreed_as_proposed(store: Any) -> None:
    mid = _match(store)
    with pytest.raises(Refused):
        store.proposals.propose_match_result(mid, (3, 3))  # nobody at the target
    proposal = store.proposals.propose_match_result(mid, (3, 7))
    assert proposal.winner == "Bert" and proposal.terms == {"first": "3", "second": "7"}
    with pytest.raises(Refused, match="not the one proposed"):
        store.proposals.agree(proposal.id, mid, {"first": "7", "second": "3"})
    agreed = store.proposals.agree(proposal.id, mid, proposal.terms)
    assert agreed.match.winner == "Bert" and agreed.match.score == {"Anna": 3, "Bert": 7}
