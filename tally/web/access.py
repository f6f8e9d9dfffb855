"""Who may change what through ``tally serve``: table secrets, the director's PIN, sessions,
CSRF tokens, and referee mode; all kept in the ``web_settings`` table (migration 0004).

Nothing here is guessable from a match number:

- the server's **key** is 32 random bytes made once per database (so several server
  processes against one PostgreSQL database, and a server restarted mid-evening, agree);
- a table's **secret** is an HMAC of its match number under that key: printed on the sheets
  as part of the table's address, never stored, and only good for that one match;
- the director's **PIN** (6 digits) is stored as a salted PBKDF2 hash; a director who typed
  it gets a session cookie signed with the key;
- a **CSRF** token is a random value in a cookie that every form repeats in a hidden field
  (double submit): a page of another site can make the browser send the cookie but cannot
  read it to fill in the field.

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
    from tally.store import Store

#: PBKDF2 rounds for the PIN's hash: a fraction of a second, once per login
PIN_ROUNDS = 200_000
#: how long a director's session lasts (seconds): one long club evening
SESSION_SECONDS = 12 * 3600
PIN_DIGITS = 6


@dataclass(frozen=True)
class Keys:
    """The server's signing key (what table secrets and session cookies are made with)."""

    key: bytes

    def table_secret(self, match_id: int) -> str:
        """The secret of a match's table page, 16 letters and digits.

        >>> len(Keys(b"k" * 32).table_secret(3))
        16
        """
        return self._mac(f"table:{match_id}")[:16]

    def check_table(self, match_id: int, secret: str) -> bool:
        """True when ``secret`` is the secret of match ``match_id``'s table."""
        return hmac.compare_digest(self.table_secret(match_id), secret)

    def session(self, now: float | None = None) -> str:
        """A director's session cookie, valid for :data:`SESSION_SECONDS`."""
        until = int((now if now is not None else time.time()) + SESSION_SECONDS)
        return f"{until}.{self._mac(f'director:{until}')}"

    def check_session(self, cookie: str | None, now: float | None = None) -> bool:
        """True when ``cookie`` is a director's session that has not expired."""
        if not cookie or "." not in cookie:
            return False
        until, _, mac = cookie.partition(".")
        if not (until.isascii() and until.isdigit()) or not hmac.compare_digest(self._mac(f"director:{until}"), mac):
            return False
        return int(until) > (now if now is not None else time.time())

    def _mac(self, text: str) -> str:
        digest = hmac.new(self.key, text.encode(), hashlib.sha256).digest()
        return base64.b32encode(digest).decode().rstrip("=").lower()


def new_csrf() -> str:
    """A fresh CSRF token for a browser's cookie."""
    return secrets.token_urlsafe(24)


def check_csrf(cookie: str | None, field: str | None) -> None:
    """Refuse a form whose hidden token is not the browser's CSRF cookie."""
    if not cookie or not field or not hmac.compare_digest(cookie, field):
        raise AccessDenied(N_("the form has expired or did not come from this page: "
                              "reload the page and try again"))


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


def server_keys(store: Store) -> Keys:
    """The database's signing key, made on first use (the first process to store one wins)."""
    found = _get(store, "key")
    if found is None:
        found = _put(store, "key", secrets.token_hex(32), replace=False)
    return Keys(bytes.fromhex(found))


def set_pin(store: Store, pin: str | None = None) -> str:
    """Set the director's PIN (a new random one unless given); returns it."""
    pin = pin if pin is not None else f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise Refused("a PIN has 4 to 12 digits")
    _put(store, "pin", hash_pin(pin))
    return pin


def has_pin(store: Store) -> bool:
    """True once a director's PIN has been set."""
    return _get(store, "pin") is not None


def check_pin(store: Store, pin: str) -> bool:
    """True when ``pin`` is the director's PIN."""
    stored = _get(store, "pin")
    return stored is not None and pin_matches(pin.strip(), stored)


def referee_mode(store: Store, match_id: int) -> bool:
    """True when the director switched on referee mode (counted points) for a match."""
    return _get(store, f"referee:{match_id}") is not None


def set_referee_mode(store: Store, match_id: int, on: bool) -> None:
    """Switch referee mode of a match's table on or off."""
    if on:
        _put(store, f"referee:{match_id}", "1")
    else:
        _delete(store, f"referee:{match_id}")
