"""Who may change what through ``tally serve``: table secrets, the director's PIN, sessions,
CSRF tokens, and referee mode; all kept in the ``web_settings`` table (migration 0004), so
that every ``tally serve`` process over one database agrees, and a restart changes nothing.

- the server's **key** is 32 random bytes made once per database;
- a table's **secret** is an HMAC of its match number (and of the tables' key generation, once
  the director has made new ones) under that key: printed on the sheets as part of the table's
  address, never stored, and only good for that one match. Making new keys (``tally serve
  --new-keys``, or the director's page) bumps the generation, and every old address stops
  working;
- the director's **PIN** (4 to 12 digits) is stored as a salted PBKDF2 hash. Each attempt is
  counted in the database *before* the slow hash is computed (:func:`count_attempt`, in one
  write transaction): ten attempts from one address within ten minutes lock it out for the
  rest of those ten minutes, whatever the number of processes or parallel guesses; the
  window starts again with the next attempt after it;
- a director who typed the PIN gets a **session** cookie signed with the key, carrying the
  sessions' generation: logging out and a new PIN bump the generation in the database, so
  every cookie made before stops working at once, in every process;
- a **CSRF** token is a random nonce (in a cookie) with its HMAC under the key, bound to the
  director's session when there is one (a signed double submit): another site can make the
  browser send the cookie but can neither read nor forge the token.

The table is reached through the store's engine (``Store.engine``) only, in transactions of
its own: the store's tables are read and written through the store's public methods.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from tally.errors import AccessDenied, Refused
from tally.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Callable

    from tally.store import Store

#: PBKDF2 rounds for the PIN's hash: a fraction of a second, once per login
PIN_ROUNDS = 200_000
#: PIN attempts one address may make in a window of :data:`LOCKOUT_SECONDS`
LOCKOUT_ATTEMPTS = 10
LOCKOUT_SECONDS = 600.0
#: the settings of the generations and of an address's PIN attempts (its address follows)
SESSIONS = "director-sessions"
TABLES = "table-keys"
ATTEMPTS = "pin-attempts:"
#: how long a director's session lasts (seconds): one long club evening
SESSION_SECONDS = 12 * 3600
PIN_DIGITS = 6


@dataclass(frozen=True)
class Keys:
    """The server's signing key (what table secrets, session cookies and CSRF tokens are made
    with) and the tables' key generation (0 until the director first makes new keys)."""

    key: bytes
    tables: int = 0

    def table_secret(self, match_id: int) -> str:
        """The secret of a match's table page, 16 letters and digits.

        >>> len(Keys(b"k" * 32).table_secret(3))
        16
        >>> Keys(b"k" * 32).table_secret(3) != Keys(b"k" * 32, tables=1).table_secret(3)
        True
        """
        text = f"table:{match_id}" if self.tables == 0 else f"table:{self.tables}:{match_id}"
        return self._mac(text)[:16]

    def check_table(self, match_id: int, secret: str) -> bool:
        """True when ``secret`` is the secret of match ``match_id``'s table."""
        return hmac.compare_digest(self.table_secret(match_id), secret)

    def session(self, generation: int, now: float | None = None) -> str:
        """A director's session cookie of the sessions' ``generation``, valid for
        :data:`SESSION_SECONDS`."""
        until = int((now if now is not None else time.time()) + SESSION_SECONDS)
        return f"{until}.{generation}.{self._mac(f'director:{until}:{generation}')}"

    def check_session(self, cookie: str | None, generation: int, now: float | None = None) -> bool:
        """True when ``cookie`` is a director's session of ``generation`` (the current one)
        that has not expired.

        >>> keys = Keys(b"k" * 32)
        >>> keys.check_session(keys.session(4), 4), keys.check_session(keys.session(4), 5)
        (True, False)
        """
        until, gen, mac = (
            (cookie or "").split(".", 2) if (cookie or "").count(".") == 2 else ("", "", "")
        )
        if not (until.isascii() and until.isdigit() and gen.isascii() and gen.isdigit()):
            return False
        if not hmac.compare_digest(self._mac(f"director:{until}:{gen}"), mac):
            return False
        return int(gen) == generation and int(until) > (now if now is not None else time.time())

    def csrf(self, nonce: str, session: str | None) -> str:
        """The CSRF token of a browser's ``nonce``, bound to its director's ``session`` cookie
        (None: no session)."""
        mac = self._mac(f"csrf:{nonce}:{session or ''}")
        return f"{nonce}.{mac[:32]}"

    def check_csrf(self, nonce: str | None, session: str | None, token: str | None) -> None:
        """Refuse a form whose token is not this browser's, for its session."""
        if not nonce or not token or not hmac.compare_digest(self.csrf(nonce, session), token):
            raise AccessDenied(
                N_(
                    "the form has expired or did not come from this page: "
                    "reload the page and try again"
                )
            )

    def _mac(self, text: str) -> str:
        digest = hmac.new(self.key, text.encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode().rstrip("=").lower()


def new_nonce() -> str:
    """A fresh random nonce for a browser's CSRF cookie."""
    return secrets.token_urlsafe(18)


def hash_pin(pin: str, salt: bytes | None = None) -> str:
    """The stored form of a PIN: ``pbkdf2$ROUNDS$SALT$HASH`` (hex)."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, PIN_ROUNDS)
    return f"pbkdf2${PIN_ROUNDS}${salt.hex()}${digest.hex()}"


def pin_matches(pin: str, stored: str) -> bool:
    """True when ``pin`` is the PIN ``stored`` (:func:`hash_pin`) was made from.

    >>> pin_matches("123456", hash_pin("123456", b"salt"))
    True
    >>> pin_matches("654321", hash_pin("123456", b"salt"))
    False
    """
    try:
        _, rounds, salt, digest = stored.split("$")
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


# --- the web_settings table ------------------------------------------------------------------


def _get(store: Store, name: str) -> str | None:
    from sqlalchemy import select

    from tally.store.tables import web_settings as ws

    with store.engine.connect() as conn:
        return conn.execute(select(ws.c.value).where(ws.c.name == name)).scalar_one_or_none()


def _put(store: Store, name: str, value: str, *, replace: bool = True) -> str:
    """Store a setting; with ``replace`` False keep the one another process stored first.
    Returns the value stored."""
    from sqlalchemy import delete, insert, select
    from sqlalchemy.exc import IntegrityError

    from tally.store.tables import web_settings as ws

    try:
        with store.engine.begin() as conn:
            if replace:
                conn.execute(delete(ws).where(ws.c.name == name))
            conn.execute(insert(ws).values(name=name, value=value, updated_at=datetime.now(UTC)))
        return value
    except IntegrityError:
        with store.engine.connect() as conn:
            return str(conn.execute(select(ws.c.value).where(ws.c.name == name)).scalar_one())


def _delete(store: Store, name: str) -> None:
    from sqlalchemy import delete

    from tally.store.tables import web_settings as ws

    with store.engine.begin() as conn:
        conn.execute(delete(ws).where(ws.c.name == name))


def _update(store: Store, name: str, change: Callable[[str | None], str | None]) -> str | None:
    """Read-modify-write one setting atomically: ``change`` gets the value stored (None: none)
    and gives the one to store (None: delete it), in one write transaction (SQLite: ``BEGIN
    IMMEDIATE``; PostgreSQL: the row locked), so that processes and threads counting at once
    never overwrite each other. Returns what was stored."""
    from sqlalchemy import delete, insert, select, update
    from sqlalchemy.exc import IntegrityError

    from tally.store.tables import web_settings as ws

    for _attempt in range(3):
        try:
            with store.engine.begin() as conn:
                old = conn.execute(
                    select(ws.c.value).where(ws.c.name == name).with_for_update()
                ).scalar_one_or_none()
                new = change(old)
                now = datetime.now(UTC)
                if new is None:
                    conn.execute(delete(ws).where(ws.c.name == name))
                elif old is None:
                    conn.execute(insert(ws).values(name=name, value=new, updated_at=now))
                elif new != old:
                    conn.execute(
                        update(ws).where(ws.c.name == name).values(value=new, updated_at=now)
                    )
            return new
        except IntegrityError:  # another process inserted the row first: read it again
            continue
    raise Refused(f"the setting {name!r} is being changed by another process: try again")


def _number(value: str | None) -> int:
    return int(value) if value is not None and value.isascii() and value.isdigit() else 0


def _bump(store: Store, name: str) -> int:
    """Add one to a counter setting; returns the new value."""
    return int(_update(store, name, lambda old: str(_number(old) + 1)) or 0)


@dataclass(frozen=True)
class Generations:
    """The generations in force: of the director's sessions and of the tables' keys."""

    sessions: int
    tables: int


def generations(store: Store) -> Generations:
    """The generations stored now (one small query: asked once per request)."""
    from sqlalchemy import select

    from tally.store.tables import web_settings as ws

    with store.engine.connect() as conn:
        found = {
            name: value
            for name, value in conn.execute(
                select(ws.c.name, ws.c.value).where(ws.c.name.in_((SESSIONS, TABLES)))
            )
        }
    return Generations(_number(found.get(SESSIONS)), _number(found.get(TABLES)))


def end_sessions(store: Store) -> int:
    """End every director's session (logging out, a new PIN); returns the new generation."""
    return _bump(store, SESSIONS)


def new_table_keys(store: Store) -> int:
    """Make new table secrets: every table address printed or shown so far stops working."""
    return _bump(store, TABLES)


def count_attempt(store: Store, address: str, now: float | None = None) -> bool:
    """Count a PIN attempt from ``address`` before the PIN is checked; False (nothing counted,
    nothing to check) when the address has made :data:`LOCKOUT_ATTEMPTS` attempts in the
    :data:`LOCKOUT_SECONDS` since the first of them. The window starts again after it."""
    at = now if now is not None else time.time()
    allowed = True

    def change(old: str | None) -> str | None:
        nonlocal allowed
        count, _, since = (old or "").partition(" ")
        first = float(since) if since.replace(".", "", 1).isdigit() else at
        if old is None or at - first >= LOCKOUT_SECONDS:
            return f"1 {at}"
        if _number(count) >= LOCKOUT_ATTEMPTS:
            allowed = False
            return old
        return f"{_number(count) + 1} {first}"

    _update(store, f"{ATTEMPTS}{address[:40]}", change)
    return allowed


def clear_attempts(store: Store, address: str) -> None:
    """Forget the attempts of ``address`` (after a correct PIN)."""
    _delete(store, f"{ATTEMPTS}{address[:40]}")


def server_keys(store: Store) -> Keys:
    """The database's signing key, made on first use (the first process to store one wins),
    with the tables' key generation in force."""
    found = _get(store, "key")
    if found is None:
        found = _put(store, "key", secrets.token_hex(32), replace=False)
    return Keys(bytes.fromhex(found), generations(store).tables)


def set_pin(store: Store, pin: str | None = None) -> str:
    """Set the director's PIN (a new random one unless given); returns it. Every director's
    session made before ends."""
    pin = pin if pin is not None else f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise Refused("a PIN has 4 to 12 digits")
    _put(store, "pin", hash_pin(pin))
    end_sessions(store)
    return pin


def has_pin(store: Store) -> bool:
    """True once a director's PIN has been set."""
    return _get(store, "pin") is not None


def check_pin(store: Store, pin: str) -> bool:
    """True when ``pin`` is the director's PIN (the slow hash: count the attempt first)."""
    stored = _get(store, "pin")
    return stored is not None and pin_matches(pin.strip()[:40], stored)


def referee_mode(store: Store, match_id: int) -> bool:
    """True when the director switched on referee mode (counted points) for a match."""
    return _get(store, f"referee:{match_id}") is not None


def set_referee_mode(store: Store, match_id: int, on: bool) -> None:
    """Switch referee mode of a match's table on or off."""
    if on:
        _put(store, f"referee:{match_id}", "1")
    else:
        _delete(store, f"referee:{match_id}")


def reopened(store: Store, match_id: int) -> bool:
    """True when the director reopened a finished match for its table (corrections from the
    phone); a finished match refuses every change from its table otherwise."""
    return _get(store, f"reopened:{match_id}") is not None


def set_reopened(store: Store, match_id: int, on: bool) -> None:
    """Reopen a match for its table's phone, or close it to the phone again."""
    if on:
        _put(store, f"reopened:{match_id}", "1")
    else:
        _delete(store, f"reopened:{match_id}")


def https_certificate(store: Store, make: Callable[[], str]) -> str:
    """The self-signed certificate of this database with its key (PEM), made by ``make()``
    on first use, as :func:`server_keys` is. A setting holds at most 400 characters, so it
    is kept in pieces under a mark of its own, and the setting ``https-certificate`` names
    the mark and the count in force: the first process to store one wins."""
    found = _get(store, "https-certificate")
    if found is None:
        made, mark = make(), secrets.token_hex(4)
        pieces = [made[i : i + 400] for i in range(0, len(made), 400)]
        for number, piece in enumerate(pieces):
            _put(store, f"https-certificate:{mark}:{number}", piece)
        found = _put(store, "https-certificate", f"{mark}:{len(pieces)}", replace=False)
    mark, count = found.split(":")
    names = [f"https-certificate:{mark}:{number}" for number in range(int(count))]
    return "".join(_get(store, name) or "" for name in names)
