"""Who may change what through ``tally serve``: table secrets, the director's PIN, sessions,
CSRF tokens, and referee mode; all kept in the ``web_settings`` table (migration 0004) and
the sessions in ``director_sessions`` (migration 0028), so that every ``tally serve`` process
over one database agrees, and a restart changes nothing.

- the server's **key** is 32 random bytes made once per database;
- a table's **secret** is an HMAC of its match number (and of the tables' key generation, once
  the director has made new ones) under that key: printed on the sheets as part of the table's
  address, never stored, and only good for that one match. Making new keys (``tally serve
  --new-keys``, or the director's page) bumps the generation, and every old address stops
  working;
- the director's **PIN** (4 to 12 digits) is stored as a salted PBKDF2 hash. Each attempt is
  counted in the database *before* the slow hash is computed (:func:`count_attempt`, in one
  write transaction), twice: per address (ten attempts within ten minutes lock it out for the
  rest of those ten minutes) and for the PIN itself, from every address together
  (:func:`pin_wait`: :data:`FREE_ATTEMPTS` attempts, then a wait before each next one that
  doubles up to :data:`LONGEST_WAIT`), so that a few hundred addresses get no more guesses
  than one; whatever the number of processes or parallel guesses;
- a way in no guest has: the **login link** ``tally serve`` prints on the laptop's screen
  (:func:`new_login_link`), good once, whatever the PIN's waits; and ``tally serve
  --new-pin``, which also forgets the waits;
- a director who typed the PIN (or used the link) gets a **session**: a random token in the
  cookie, its SHA-256 in the ``director_sessions`` table with the device and address it
  came from and since when (:func:`start_session`); the director sees them all and ends any
  (:func:`end_session`); logging out ends the browser's own, a new PIN every one, in every
  process at once;
- a **CSRF** token is a random nonce (in a cookie) with its HMAC under the key, bound to the
  director's session when there is one (a signed double submit): another site can make the
  browser send the cookie but can neither read nor forge the token.

The tables are read and written through the store's part ``store.serving``
(:mod:`tally.store.serving`), each operation a transaction of its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from tally.errors import AccessDenied, Refused
from tally.i18n import N_

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlalchemy.engine import Connection

    from tally.store import Store

#: PBKDF2 rounds for the PIN's hash: a fraction of a second, once per login
PIN_ROUNDS = 200_000
#: PIN attempts one address may make in a window of :data:`LOCKOUT_SECONDS`
LOCKOUT_ATTEMPTS = 10
LOCKOUT_SECONDS = 600.0
#: PIN attempts from every address together before each next one must wait
FREE_ATTEMPTS = 30
#: the longest wait between two PIN attempts once the free ones are spent (seconds): the
#: wait doubles with each attempt up to this, so an evening gives a few dozen guesses more
LONGEST_WAIT = 300.0
#: a day without any PIN attempt forgets the attempts counted for the PIN
QUIET_SECONDS = 24 * 3600.0
#: how long the login link ``tally serve`` prints stays good (once)
LINK_SECONDS = 12 * 3600
#: the settings of the tables' generation, of an address's PIN attempts (its address
#: follows), of the attempts from everywhere, and of the login link
TABLES = "table-keys"
ATTEMPTS = "pin-attempts:"
ALL_ATTEMPTS = "pin-attempts"
LOGIN_LINK = "login-link"
#: how long a director's session lasts (seconds): one long club evening
SESSION_SECONDS = 12 * 3600
PIN_DIGITS = 6


@dataclass(frozen=True)
class Keys:
    """The server's signing key (what table secrets and CSRF tokens are made
    with) and the tables' key generation (0 until the director first makes new keys)."""

    key: bytes
    tables: int = 0

    def table_secret(self, match_id: int, generation: int | None = None) -> str:
        """The secret of a match's table page, 16 letters and digits (of the tables' key
        ``generation``, the one in force by default). A match's number is never given
        again (:class:`tally.store.models.Match`), so a secret opens one match for ever.

        >>> len(Keys(b"k" * 32).table_secret(3))
        16
        >>> Keys(b"k" * 32).table_secret(3) != Keys(b"k" * 32, tables=1).table_secret(3)
        True
        """
        gen = self.tables if generation is None else generation
        text = f"table:{match_id}" if gen == 0 else f"table:{gen}:{match_id}"
        return self._mac(text)[:16]

    def check_table(self, match_id: int, secret: str) -> bool:
        """True when ``secret`` is the secret of match ``match_id``'s table."""
        return hmac.compare_digest(self.table_secret(match_id), secret)

    def replaced_table(self, match_id: int, secret: str) -> bool:
        """True when ``secret`` was the secret of match ``match_id``'s table before the
        director made new table addresses (an older key generation).

        >>> old = Keys(b"k" * 32).table_secret(3)
        >>> Keys(b"k" * 32, tables=2).replaced_table(3, old), Keys(b"k" * 32).replaced_table(3, old)
        (True, False)
        """
        return any(
            hmac.compare_digest(self.table_secret(match_id, gen), secret)
            for gen in range(self.tables)
        )

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


# --- the web_settings table (store.serving) -----------------------------------------------


def _get(store: Store, name: str) -> str | None:
    return store.serving.get(name)


def _put(store: Store, name: str, value: str, *, replace: bool = True) -> str:
    """Store a setting; with ``replace`` False keep the one another process stored first.
    Returns the value stored."""
    return store.serving.put(name, value, replace=replace)


def _delete(store: Store, name: str) -> None:
    store.serving.delete(name)


def _update(store: Store, name: str, change: Callable[[str | None], str | None]) -> str | None:
    """Read-modify-write one setting atomically (:meth:`tally.store.serving.Serving.update`):
    ``change`` gets the value stored (None: none) and gives the one to store (None: delete
    it). Returns what was stored."""
    return store.serving.update(name, change)


def _number(value: str | None) -> int:
    return int(value) if value is not None and value.isascii() and value.isdigit() else 0


def _bump(store: Store, name: str) -> int:
    """Add one to a counter setting; returns the new value."""
    return int(_update(store, name, lambda old: str(_number(old) + 1)) or 0)


def tables_generation(store: Store) -> int:
    """The tables' key generation stored now."""
    return _number(_get(store, TABLES))


# --- the director's sessions (table director_sessions) ----------------------------------------


@dataclass(frozen=True)
class DirectorSession:
    """A director's session as the director's page lists it: its number, the device and
    address it came from, since when."""

    id: int
    device: str
    address: str
    since: datetime


@dataclass(frozen=True)
class Settled:
    """What a request needs to know before its page runs: the tables' key generation, and
    the director's session its cookie carries (None: none, ended or expired)."""

    tables: int
    session: int | None
    #: the stored language of the event the address's match counts for (``""``: none), when
    #: asked (:func:`settle` with ``match``); None when not asked
    language: str | None = None


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def describe_device(user_agent: str) -> str:
    """A device as a director recognises it, from what its browser says of itself.

    >>> describe_device("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")
    'Firefox on Linux'
    >>> describe_device("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1")
    'Safari on iPhone'
    >>> describe_device("")
    'unknown device'
    """
    systems = ("Android", "iPhone", "iPad", "Windows", "Macintosh", "CrOS", "Linux")
    browsers = ("Edg", "OPR", "Firefox", "Chrome", "Safari")
    system = next((x for x in systems if x in user_agent), None)
    browser = next((x for x in browsers if x in user_agent), None)
    if system is None and browser is None:
        text = " ".join(user_agent.split())[:60]
        return text if text.isascii() and text.isprintable() and text else "unknown device"
    names = {"Edg": "Edge", "OPR": "Opera", "Macintosh": "Mac", "CrOS": "Chromebook"}
    found = [names.get(x, x) for x in (browser, system) if x is not None]
    return " on ".join(found)


def start_session(store: Store, device: str, address: str, now: float | None = None) -> str:
    """Start a director's session; returns the token its cookie carries (only the token's
    hash is stored). Sessions expired are deleted on the way."""
    at = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    token = secrets.token_urlsafe(32)
    store.serving.start_session(
        _token_hash(token),
        describe_device(device)[:120],
        address[:60],
        at,
        at + timedelta(seconds=SESSION_SECONDS),
    )
    return token


def settle(
    store: Store, cookie: str | None, now: float | None = None, *, match: int | None = None
) -> Settled:
    """The tables' key generation, the session of ``cookie`` and, given a ``match`` (the
    address names one and the reader chose no language), the stored language of its event
    (:meth:`~tally.store.events.Events.language_of`): one read, asked once per request."""
    at = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    token = _token_hash(cookie) if cookie and len(cookie) <= 100 else None
    with store.snapshot():
        tables, session = store.serving.settle(TABLES, token, at)
        language = None if match is None else store.events.language_of(match=match)
    return Settled(_number(tables), session, language)


def sessions(store: Store, now: float | None = None) -> list[DirectorSession]:
    """The director's sessions in force, oldest first."""
    at = datetime.fromtimestamp(now if now is not None else time.time(), UTC)
    return [DirectorSession(*row) for row in store.serving.sessions(at)]


def end_session(store: Store, session: int) -> bool:
    """End one director's session (logging out, or the director ending it from the list);
    False when there was none of that number."""
    return store.serving.end_session(session)


def end_sessions(store: Store) -> int:
    """End every director's session (a new PIN); returns how many there were."""
    return store.serving.end_sessions()


def new_login_link(store: Store, now: float | None = None) -> str:
    """A new one-time login link's token (``/director/enter/TOKEN``), for ``tally serve`` to
    print on the laptop's screen: good once, for :data:`LINK_SECONDS`, whatever the waits of
    the PIN; a link printed before stops working."""
    at = now if now is not None else time.time()
    token = secrets.token_urlsafe(24)
    _put(store, LOGIN_LINK, f"{_token_hash(token)} {int(at + LINK_SECONDS)}")
    return token


def use_login_link(store: Store, token: str, now: float | None = None) -> bool:
    """True (and the link used up, in every process) when ``token`` is the login link's and
    it has not expired."""
    at = now if now is not None else time.time()
    good = False

    def change(old: str | None) -> str | None:
        nonlocal good
        digest, _, until = (old or "").partition(" ")
        if not digest or len(token) > 100:
            return old
        good = hmac.compare_digest(digest, _token_hash(token)) and _figures(until, 1)[0] > at
        return None if good else old

    _update(store, LOGIN_LINK, change)
    return good


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
    """Forget the attempts of ``address`` and those counted against the PIN (after a
    correct PIN)."""
    _delete(store, f"{ATTEMPTS}{address[:40]}")
    _delete(store, ALL_ATTEMPTS)


def _figures(value: str | None, count: int) -> list[float]:
    """The ``count`` numbers a setting keeps, space-separated (0 for any unreadable)."""
    parts = (value or "").split()
    out = []
    for i in range(count):
        part = parts[i] if i < len(parts) else ""
        out.append(float(part) if part.replace(".", "", 1).isdigit() else 0.0)
    return out


def wait_after(attempts: int) -> float:
    """The wait before the next PIN attempt once ``attempts`` were made from anywhere: none
    for the first :data:`FREE_ATTEMPTS`, then 1, 2, 4 ... seconds up to
    :data:`LONGEST_WAIT`.

    >>> [wait_after(n) for n in (1, FREE_ATTEMPTS - 1, FREE_ATTEMPTS, FREE_ATTEMPTS + 3, 99)]
    [0.0, 0.0, 1.0, 8.0, 300.0]
    """
    if attempts < FREE_ATTEMPTS:
        return 0.0
    return float(min(2.0 ** min(attempts - FREE_ATTEMPTS, 30), LONGEST_WAIT))


def pin_wait(store: Store, now: float | None = None) -> float:
    """Count a PIN attempt against the PIN itself, from every address together, before the
    PIN is checked: 0.0 when it is counted (check it), else the seconds until the next
    attempt may be made (nothing counted, nothing to check). A day without attempts, a
    correct PIN (:func:`clear_attempts`) and a new PIN forget the attempts."""
    at = now if now is not None else time.time()
    wait = 0.0

    def change(old: str | None) -> str | None:
        nonlocal wait
        count, next_at, last = _figures(old, 3)
        if at - last >= QUIET_SECONDS:
            count, next_at = 0.0, 0.0
        if at < next_at:
            wait = next_at - at
            return old
        made = int(count) + 1
        return f"{made} {at + wait_after(made)} {at}"

    _update(store, ALL_ATTEMPTS, change)
    return wait


def server_keys(store: Store) -> Keys:
    """The database's signing key, made on first use (the first process to store one wins),
    with the tables' key generation in force."""
    found = _get(store, "key")
    if found is None:
        found = _put(store, "key", secrets.token_hex(32), replace=False)
    return Keys(bytes.fromhex(found), tables_generation(store))


def set_pin(store: Store, pin: str | None = None) -> str:
    """Set the director's PIN (a new random one unless given); returns it. Every director's
    session made before ends, and the attempts counted against the old PIN are forgotten."""
    pin = pin if pin is not None else f"{secrets.randbelow(10**PIN_DIGITS):0{PIN_DIGITS}d}"
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise Refused(N_("a PIN has 4 to 12 digits"))
    _put(store, "pin", hash_pin(pin))
    _delete(store, ALL_ATTEMPTS)
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


def reopened_on(conn: Connection, match_id: int) -> bool:
    """:func:`reopened`, read on ``conn``: what a table's write asks inside its transaction
    (:class:`tally.store.transactions.TableWriter`)."""
    from tally.store.serving import setting_on

    return setting_on(conn, f"reopened:{match_id}") is not None


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
