"""QR codes of the table pages, as inline SVG: for the sheets the director prints (WeasyPrint
draws inline SVG without fetching anything), for ``tally print ... --links URL`` and for the
director's page.

segno makes them: pure Python, maintained, no image library needed.

:func:`with_table_codes` is the one place that turns a sheet and the server's address into a
sheet carrying each table's code (its secret from :mod:`tally.web.access`): the director's
print and the CLI both call it.
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import replace
from typing import TYPE_CHECKING, overload
from urllib.parse import urlsplit

from tally.errors import N_, Message, Refused

if TYPE_CHECKING:
    from tally.sheets import PairingsSheet, ScoreSheet
    from tally.store import Store
    from tally.web.access import Keys


@functools.lru_cache(maxsize=512)
def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an ``<svg>`` element sized by its container (no XML
    declaration, no fixed size), error correction M: readable from a crumpled sheet. Kept
    for the addresses drawn lately (the director's event page draws the open tables' codes at
    every view).

    >>> qr_svg("http://127.0.0.1:8066/t/1/abc").startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    """
    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(
        buf,
        kind="svg",
        xmldecl=False,
        svgns=True,
        nl=False,
        border=2,
        omitsize=True,
        svgclass="qr",
        lineclass=None,
    )
    return buf.getvalue().decode("ascii")


def base_url(text: str) -> str:
    """The server's address as the players' phones reach it, checked: http or https, a host,
    no user name or password, no spaces, no query; without a trailing slash.

    >>> base_url("http://192.168.1.20:8066/")
    'http://192.168.1.20:8066'
    >>> base_url("ftp://club")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tally.errors.Refused: 'ftp://club' is not a server address: give http:// or https://...
    """
    example = Message(N_("e.g. %(url)s"), url="http://192.168.1.20:8066")
    shown = repr(text[:60])
    if re.search(r"\s", text) or not text.isprintable():
        raise Refused(
            Message(
                N_("%(text)s is not a server address: it has spaces in it (%(example)s)"),
                text=shown,
                example=example,
            )
        )
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number
    except ValueError:
        raise Refused(
            Message(
                N_("%(text)s is not a server address: its port is not a number (%(example)s)"),
                text=shown,
                example=example,
            )
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise Refused(
            Message(
                N_(
                    "%(text)s is not a server address: give http:// or https://, a host "
                    "and maybe a port, %(example)s"
                ),
                text=shown,
                example=example,
            )
        )
    if parts.username is not None or parts.password is not None:
        # the address itself is not repeated: it holds a password
        raise Refused(
            N_(
                "a server address with a user name or password would be printed on "
                "every sheet; give it without"
            )
        )
    if parts.query or parts.fragment:
        raise Refused(
            Message(
                N_("%(text)s is not a server address: it has a query or fragment (%(example)s)"),
                text=shown,
                example=example,
            )
        )
    return text.rstrip("/")


def table_url(base: str, keys: Keys, match_id: int) -> str:
    """The address of a match's table page on the server at ``base``: what its QR code holds.

    >>> from tally.web.access import Keys
    >>> table_url("http://club:8066", Keys(b"k" * 32), 3).startswith("http://club:8066/t/3/")
    True
    """
    return f"{base}/t/{match_id}/{keys.table_secret(match_id)}"


@overload
def with_table_codes(store: Store, sheet: ScoreSheet, base: str) -> ScoreSheet: ...
@overload
def with_table_codes(
    store: Store, sheet: PairingsSheet, base: str, event_id: int
) -> PairingsSheet: ...
def with_table_codes(
    store: Store, sheet: PairingsSheet | ScoreSheet, base: str, event_id: int | None = None
) -> PairingsSheet | ScoreSheet:
    """``sheet`` (a match's score sheet, or the pairings of round-robin ``event_id``) with
    the QR code of each table's page at ``base`` (the server's address, checked by
    :func:`base_url`): ``BASE/t/MATCH/SECRET``.

    Refused, saying what to install, when segno is missing.
    """
    import importlib.util

    from tally.sheets import ScoreSheet
    from tally.web.access import server_keys

    base = base_url(base)
    if importlib.util.find_spec("segno") is None:
        from tally.web import install_command

        raise Refused(Message(N_("QR codes need segno: %(command)s"), command=install_command()))
    keys = server_keys(store)

    def code(match_id: int) -> str:
        return qr_svg(table_url(base, keys, match_id))

    if isinstance(sheet, ScoreSheet):
        if sheet.match_id is None:
            raise Refused(N_("a blank score sheet belongs to no table: it has no QR code"))
        return replace(sheet, qr=code(sheet.match_id))
    if sheet.round_number is None:  # a club evening's tables name their matches
        return replace(
            sheet,
            tables=tuple(
                replace(t, qr=code(t.match_id)) if t.match_id is not None else t
                for t in sheet.tables
            ),
        )
    if event_id is None:
        raise Refused(N_("the pairings' QR codes need the event's number"))

    made = {
        p.table: p.match_ids for p in store.events.rounds(event_id, sheet.round_number)[0].pairings
    }
    return replace(
        sheet,
        tables=tuple(
            replace(t, qr=code(made[t.table][0])) if made.get(t.table) else t for t in sheet.tables
        ),
    )
