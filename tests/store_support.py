"""What the storage tests share: a fresh database per test, on SQLite always and on PostgreSQL
when ``TALLY_TEST_DATABASE_URL`` is set; a dump of every table; running ``tally`` commands.

Each PostgreSQL test gets a schema of its own (``search_path`` set in the URL), dropped
afterwards, so tests never see each other's rows. Test modules import the fixtures they use::

    from tests.store_support import db_url, store  # noqa: F401
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PG_ENV = "TALLY_TEST_DATABASE_URL"
ROOT = Path(__file__).resolve().parents[1]

#: SQLite always; PostgreSQL when ``TALLY_TEST_DATABASE_URL`` is set, as a ``slow`` parameter:
#: the same behaviour on a second database, which the whole suite runs and the inner loop
#: (``-m "not slow"``) leaves out; ``-k postgresql`` runs those alone
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=[
            pytest.mark.slow,
            pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set"),
        ],
    ),
]


def pg_schema_url(base: str, schema: str) -> str:
    """``base`` with its search path set to ``schema``."""
    from sqlalchemy.engine import make_url

    return (
        make_url(base)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of an empty database: a SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'tally.db'}"
        return
    from sqlalchemy import create_engine

    base = os.environ[PG_ENV]
    schema = "tally_test_" + uuid.uuid4().hex[:12]
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    try:
        yield pg_schema_url(base, schema)
    finally:
        with engine.begin() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        engine.dispose()


class Template:
    """The schema the migrations make, taken once from a database they created, and laid
    down again on a new SQLite database in one transaction (milliseconds, where running the
    migrations takes a tenth of a second: most tests start from a new database)."""

    def __init__(self, folder: Path) -> None:
        from sqlalchemy import create_engine, inspect, text

        from tally.store.engine import upgrade

        engine = create_engine(f"sqlite:///{folder / 'template.db'}")
        try:
            upgrade(engine)
            with engine.connect() as conn:
                #: CREATE statements as SQLite keeps them, tables before what refers to them
                self.ddl: list[str] = [
                    row[0]
                    for row in conn.execute(
                        text(
                            "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name"
                            " NOT LIKE 'sqlite_%' ORDER BY type != 'table', rowid"
                        )
                    )
                ]
                #: the rows the migrations write (the revision, seeded tables)
                self.rows: dict[str, list[dict[str, Any]]] = {}
                for table in inspect(conn).get_table_names():
                    rows = conn.execute(text(f'SELECT * FROM "{table}"')).mappings().all()
                    if rows:
                        self.rows[table] = [dict(r) for r in rows]
        finally:
            engine.dispose()

    def lay_down(self, engine: Any) -> bool:
        """Give the empty SQLite database of ``engine`` the migrated schema; False (nothing
        done) for any other database."""
        from sqlalchemy import inspect, text

        if engine.dialect.name != "sqlite":
            return False
        with engine.begin() as conn:
            if inspect(conn).get_table_names():
                return False
            for statement in self.ddl:
                conn.exec_driver_sql(statement)
            for table, rows in self.rows.items():
                names = ", ".join(f'"{c}"' for c in rows[0])
                values = ", ".join(f":{c}" for c in rows[0])
                conn.execute(text(f'INSERT INTO "{table}" ({names}) VALUES ({values})'), rows)
        return True


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory: pytest.TempPathFactory) -> Template:
    """The migrated schema, made once per test process by the real migrations."""
    return Template(tmp_path_factory.mktemp("template"))


@pytest.fixture(autouse=True)
def migrate_from_the_template(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new SQLite database gets the schema the migrations make copied from
    :class:`Template` instead of running them again; an older revision is still upgraded by
    the migrations. Tests marked ``migrations`` (tests/store/test_schema.py) and every
    process a test starts run the real migrations."""
    if request.node.get_closest_marker("migrations"):
        return
    from tally.store import engine as store_engine

    template: Template = request.getfixturevalue("schema_template")
    real = store_engine.upgrade

    def upgrade(engine: Any, revision: str = "head") -> None:
        if revision != "head" or not template.lay_down(engine):
            real(engine, revision)

    monkeypatch.setattr(store_engine, "upgrade", upgrade)


@pytest.fixture
def store(db_url: str) -> Iterator[Any]:
    """An open store on a fresh database, scorer "tester"."""
    from tally.store import open_store

    s = open_store(db_url, scorer="tester")
    try:
        yield s
    finally:
        s.close()


TABLES = (
    "players",
    "player_aliases",
    "matches",
    "deals",
    "actions",
    "audit_log",
    "alembic_version",
    "events",
    "event_players",
    "event_rounds",
    "deal_results",
    "cache_state",
    "series",
    "series_events",
    "event_formats",
)


def dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order: compare two dumps to see a change."""
    from sqlalchemy import inspect, text

    from tally.store.engine import make_engine

    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            present = set(inspect(conn).get_table_names())
            out = {}
            for table in TABLES:
                if table in present:
                    rows = conn.execute(text(f"SELECT * FROM {table}")).all()
                    out[table] = sorted((tuple(r) for r in rows), key=repr)
            return out
    finally:
        engine.dispose()


def tally(
    url: str, *args: str, input: str | None = None, scorer: str = "tester"
) -> tuple[int, str, str]:
    """Run ``tally ARGS`` in-process (Typer's CliRunner) on the database at ``url``: the exit
    status, stdout and stderr."""
    from typer.testing import CliRunner

    from tally.cli import app

    result = CliRunner().invoke(
        app,
        list(args),
        input=input,
        catch_exceptions=False,
        env={"TALLY_DB": url, "TALLY_SCORER": scorer},
    )
    return result.exit_code, result.stdout, result.stderr


def as_from_a_terminal() -> None:
    """Signals as a terminal gives them to the command it starts: none blocked, Ctrl-C at its
    default, whatever the test runner inherited (a background job or a pytest-xdist worker
    ignores SIGINT; a CI runner may block signals, and a signal blocked stays pending for
    ever: the recorder's Ctrl-C test once waited out CI's limit so)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def tally_process(url: str, *args: str, **kwargs: Any) -> subprocess.Popen[str]:
    """Start ``tally ARGS`` as a process of its own on the database at ``url``, as from a
    terminal (see :func:`as_from_a_terminal`)."""
    env = dict(os.environ, TALLY_DB=url, TALLY_SCORER="tester")
    return subprocess.Popen(
        [sys.executable, "-m", "tally", *args],
        env=env,
        text=True,
        cwd=ROOT,
        preexec_fn=as_from_a_terminal,
        **kwargs,
    )


# Whole deals from the conformance cases (their trick lines, turn-up and expected outcome),
# with the dealer and forehand as roles: a test gives them the names of its match.
DRAW_DEAL = (
    "JS",
    """10c ah / 10d qd / jh 9s / jd jc / ad ks / 9c kc / 10s js / qs kd /
                     as 10h / 9d ac / qh 9h / kh qc""",
)  # sixty-six 0036: drawn
FAILED_CLOSE = ("KH", "close KC JC / KD 10D / JS QS / KS AS / JD AD / 9D QH")  # 0031: dealer 3
LATE_REVOKE = (
    "KS",
    """10H QC / 10D QH / 9C JC close-before-draw / 10S KD / QS KH / 9H AD /
                       AS KC / 10C AH""",
)  # 0046: forehand's follow-suit in trick 6, proven
# in trick 8 (typed as a scorer types it: the record has "3. 9C JC close")
FOREHAND_CLAIMS = ("QD", "TH JH / swap 40 QD KC / TD TC / 66")  # 0010: forehand 3
DEALER_CLAIMS = ("AH", "QD 10H / AS QS / 40 KH 66")  # 0008: dealer 3


def lines(deal: tuple[str, str]) -> list[str]:
    """The trick lines of one of the deals above, as a scorer types them."""
    return [" ".join(part.split()) for part in deal[1].split("/")]


def ok(url: str, *args: str, input: str | None = None) -> str:
    """Run a command that must succeed; its stdout."""
    code, out, err = tally(url, *args, input=input)
    assert code == 0, f"tally {' '.join(args)} exited {code}: {err}{out}"
    return out


def refused(url: str, *args: str, match: str, input: str | None = None) -> str:
    """Run a command that must be refused: exit status 2, a one-line reason on stderr that
    contains ``match``, no traceback, and the database unchanged. Its stderr."""
    before = dump(url)
    code, out, err = tally(url, *args, input=input)
    assert code == 2, f"tally {' '.join(args)} exited {code}: {err}{out}"
    assert err.startswith("tally: ") and match in err, err
    assert "Traceback" not in err + out
    assert dump(url) == before
    return err


def random_deal_lines(rules: Any, rng: Any, dealer: str, forehand: str) -> list[str]:
    """A random legal deal as a scorer types it into ``tally deal record``: the turn-up, then
    one action per line (a close after the draws together with the card led, "close 10D",
    a close before the draws as "close-before-draw"), and an empty line when the deal ends
    without a claim (the prompt that offers one)."""
    from tally.engine.cards import CARDS
    from tally.engine.deal import Claim, Close, Deal, Draw, Exchange, Marriage

    deal = Deal.random(rules, rng, names=(forehand, dealer))
    out = [str(CARDS[deal.turn_up])]
    close_next = False
    while not deal.is_over:
        actions = deal.legal_actions()
        claims = [a for a in actions if isinstance(a, Claim)]
        closes = [a for a in actions if isinstance(a, Close)]
        if claims and rng.random() < 0.8:
            action: Any = claims[0]
        elif closes and rng.random() < 0.03:
            action = closes[0]
        elif any(isinstance(a, Draw) for a in actions):
            deal.draw()  # nothing to type: the draws happen before the next card
            continue
        else:
            action = rng.choice([a for a in actions if not isinstance(a, Claim | Close)])
        if isinstance(action, Claim):
            text = "66"
        elif isinstance(action, Marriage):
            text = f"{action.points} {action.card}"
        elif isinstance(action, Exchange):
            text = "swap"
        elif isinstance(action, Close):
            text = "close-before-draw" if action.before_draws else "close"
        else:
            text = str(action)
        if close_next:
            out[-1] += " " + text
            close_next = False
        else:
            out.append(text)
        # a close after the draws is typed with the card led next
        close_next = isinstance(action, Close) and not action.before_draws and deal.trick > 1
        deal.apply(action)
    if not deal.claimed:
        out.append("")
    return out


def random_match_deals(
    seed: int, actions: int, first_dealer: str = "Anna", other: str = "Bert"
) -> list[list[str]]:
    """Random legal Sixty-Six deals (dealers alternating) as typed into ``tally deal record``
    (see :func:`random_deal_lines`), enough to hold at least ``actions`` actions."""
    import random

    from tally.engine.rules import RuleSet

    rng = random.Random(seed)
    rules = RuleSet.preset("sixty-six")
    deals: list[list[str]] = []
    dealer, forehand = first_dealer, other
    while sum(len(deal_actions(d)) for d in deals) < actions:
        deals.append(random_deal_lines(rules, rng, dealer, forehand))
        dealer, forehand = forehand, dealer
    return deals


def deal_actions(deal: list[str]) -> list[str]:
    """The actions typed in one deal of :func:`random_match_deals`, one item each."""
    from tally.engine.notation import read_items

    return [
        str(item)
        for line in deal[1:]
        if line
        for item in read_items(line.replace("close-before-draw", "close"))
    ]


#: a deal Anna (dealer) wins 2 game points in: Bert closes in trick 2 and fails. With one card
#: of trick 2 changed (10S to 9C) Anna wins that trick, so every later trick line is played the
#: other way round and the close moves to Anna, who fails: Bert wins 3 (the match 2:0 -> 0:3).
HANDED_OVER = (
    '[Rules "sixty-six"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "9S"]\n\n'
    "1. JC AS\n2. 10C 10S close\n3. QC JS\n4. QH JH\n5. JD 10D\n6. AC KS\n7. QD 9D\n"
)
#: :data:`HANDED_OVER` with the one card changed
HANDED_OVER_CHANGED = HANDED_OVER.replace("2. 10C 10S close", "2. 10C 9C close")


def handed_over_match(store: Any) -> tuple[int, int]:
    """A match of Anna and Bert (sixty-six, Anna deals first) whose first deal is
    :data:`HANDED_OVER`: (match id, deal id)."""
    for name in ("Anna", "Bert"):
        if not any(p.name == name for p in store.players.all()):
            store.players.add(name)
    m = store.matches.start("Anna", "Bert", rules="sixty-six", first_dealer="Anna")
    [deal] = store.deals.import_records(m.id, [("deal.deal", HANDED_OVER)])
    return m.id, deal.id
