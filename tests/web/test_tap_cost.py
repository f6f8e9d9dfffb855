"""A tap costs what it should: a card from a table's phone is one write transaction and a
handful of statements, and the table page it leads to reads its match once, whatever the
deal's position (issue 40: the floor is one small write and one page). Counted with
SQLAlchemy's ``before_cursor_execute`` event, on SQLite and (slow) PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("multipart")

from tests.web.test_routes import Web, _client
from tests.web.test_table import SIX_TRICKS

#: the most statements a card's POST may send (the session and the event's language, read
#: together, the deal's id, and one transaction: the match read and locked, the tap and "is
#: it over" checked, the action, its result, its audit entry and its tap written), BEGIN and
#: COMMIT included
POST_STATEMENTS = 17
#: the most statements the table page may send (the session and language read, then the
#: match read once, in one read)
PAGE_STATEMENTS = 11


@pytest.fixture
def web(db_url: str) -> Iterator[Web]:
    from tally.store import open_store
    from tally.web.server import create_app

    store = open_store(db_url, scorer="tester")
    for name in ("Anna", "Bert"):
        store.players.add(name)
    event = store.events.create("Club night", players=["Anna", "Bert"])
    match = store.matches.start("Anna", "Bert", first_dealer="Anna", event=event.id)
    app = create_app(store)
    try:
        yield Web(_client(app), app, store, event.id, match.id)
    finally:
        store.close()


class Counted:
    """The statements sent to the store's database while it is open."""

    def __init__(self, web: Web) -> None:
        self.engine = web.store.engine
        self.sent: list[str] = []

    def _count(self, *args: Any) -> None:
        self.sent.append(str(args[2]).split("\n", 1)[0])

    def __enter__(self) -> Counted:
        from sqlalchemy import event

        event.listen(self.engine, "before_cursor_execute", self._count)
        return self

    def __exit__(self, *exc: object) -> None:
        from sqlalchemy import event

        event.remove(self.engine, "before_cursor_execute", self._count)


def _mid_deal(web: Web, cards: int) -> None:
    """Start a deal and tap its first ``cards`` cards."""
    fields = web.form(web.table())
    assert web.post(web.table() + "/start", turn_up="QH", at=fields["at"]).status_code == 303
    for card in SIX_TRICKS[:cards]:
        assert web.tap(card).status_code == 303


@pytest.mark.parametrize("cards", [0, 5, 11])
def test_a_card_tapped_mid_deal_is_one_write_and_its_page_one_read_of_a_few_statements(
    web: Web, cards: int
) -> None:
    _mid_deal(web, cards)
    fields = web.form(web.table())
    data = {"token": SIX_TRICKS[cards], "at": fields["at"], "last": fields["last"]}
    with Counted(web) as posted:
        res = web.post(web.table() + "/play", **data, tap=f"cost-tap-{cards:04d}")
    assert res.status_code == 303
    with Counted(web) as shown:
        page = web.client.get(res.headers["location"])
    assert page.status_code == 200
    assert len(posted.sent) <= POST_STATEMENTS, posted.sent
    assert len(shown.sent) <= PAGE_STATEMENTS, shown.sent  # however many card buttons
    assert page.text.count('name="token"') > 5
    assert len(page.content) < 30 * 1024
    writes = [s for s in posted.sent if s.startswith("BEGIN IMMEDIATE")]
    assert len(writes) <= 1 or web.store.engine.dialect.name != "sqlite", posted.sent
