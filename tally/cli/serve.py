"""``tally serve``: the web application for a club evening (:mod:`tally.web`).

Phones at the tables record deals, a projector shows the live standings, the director runs
the evening from a browser with a PIN. Starlette, uvicorn, python-multipart and segno come with
tally; where one is missing the command says how to install it and exits with 2.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tally.cli import app
from tally.cli.common import fail, guard
from tally.cli.options import LangOption
from tally.cli.storage import DbOption
from tally.errors import Message
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.store import Store

#: how long Ctrl-C waits for the requests being answered, in seconds
STOP_SECONDS = 1
#: what ``tally serve`` says once it has stopped
STOPPED = (
    "tally serve stopped: everything acknowledged is stored. Start it again to carry on: "
    "table addresses, the director's session and taps waiting on phones stay valid."
)

#: the modules ``tally serve`` needs beyond tally's own dependencies
WEB_MODULES = ("starlette", "uvicorn", "multipart", "segno")


def missing_web_modules() -> list[str]:
    """The modules of the ``web`` extra that cannot be imported."""
    import importlib.util

    return [m for m in WEB_MODULES if importlib.util.find_spec(m) is None]


@app.command()
@guard
def serve(
    db: DbOption = None,
    host: Annotated[
        str,
        typer.Option(
            "--host", help="Address to listen on (0.0.0.0: every network of this computer)."
        ),
    ] = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8066,
    url: Annotated[
        str | None,
        typer.Option(
            "--url",
            metavar="URL",
            help="The address phones open (http://HOST:PORT), for a name "
            "or a reverse proxy: used for table links and QR codes.",
        ),
    ] = None,
    new_pin: Annotated[
        bool,
        typer.Option(
            "--new-pin",
            help="Make a new director's PIN (the old one, and every director's "
            "session, stops working; the waits after many wrong PINs are forgotten).",
        ),
    ] = False,
    pin: Annotated[
        str | None,
        typer.Option(
            "--pin", metavar="DIGITS", help="Set the director's PIN to these 4-12 digits."
        ),
    ] = None,
    new_keys: Annotated[
        bool,
        typer.Option(
            "--new-keys",
            help="Make new table addresses: every table link and QR code printed "
            "before stops working.",
        ),
    ] = False,
    https: Annotated[
        tuple[Path, Path] | None,
        typer.Option(
            "--https",
            metavar="CERT KEY",
            help="Serve https with this certificate and its private key (PEM files).",
        ),
    ] = None,
    self_signed: Annotated[
        bool,
        typer.Option(
            "--self-signed",
            help="Serve https with a certificate made for this database (kept in it); "
            "prints its fingerprint. Each phone warns once.",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="Behind a reverse proxy: the "
            "proxy's addresses (comma-separated), whose X-Forwarded-For/-Proto are trusted.",
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Serve the table pages, the live standings and the director's pages on the local
    network; prints the address phones reach, the director's PIN and a login link good once.
    Stop it with Ctrl-C: everything acknowledged is stored, a restart carries on."""
    missing = missing_web_modules()
    if missing:
        from tally.web import install_command

        fail(
            Message(
                N_("tally serve needs %(modules)s: %(command)s"),
                modules=", ".join(missing),
                command=install_command(),
            )
        )
    import threading

    import uvicorn

    from tally.sheets.render import warm_up
    from tally.store import open_store
    from tally.web.access import has_pin, new_login_link, new_table_keys, set_pin
    from tally.web.address import allowed_hosts, host_of, phone_bases
    from tally.web.app import compile_pages
    from tally.web.https import certificate_files, fingerprint
    from tally.web.server import create_app
    from tally.web.serving import more_open_files, server_config

    if https is not None and self_signed:
        fail(Message(N_("--https and --self-signed: give one of them")))
    scheme = "https" if https or self_signed else "http"
    bases = phone_bases(host, port, url, scheme)
    store = open_store(db, scorer="web")
    try:
        if pin is not None or new_pin or not has_pin(store):
            shown = f"Director's PIN: {set_pin(store, pin)}"
        else:
            shown = (
                "Director's PIN: unchanged (forgotten? stop the server and start it again "
                "with --new-pin)"
            )
        if new_keys:
            new_table_keys(store)
        base = bases[0] if bases else f"{scheme}://127.0.0.1:{port}"
        tls = _certificate(store, https, self_signed, [host_of(b) for b in bases])
        said = "" if tls is None else f"\nhttps certificate (SHA-256): {fingerprint(tls[0])}"
        link = f"{base}/director/enter/{new_login_link(store)}"
        typer.echo(
            _addresses(store.where, bases, base, port)
            + f"\n{shown}{said}\nLogin link, good once (keep it on this screen): {link}"
            + "\nStop with Ctrl-C."
        )
        app = create_app(store, base=base, hosts=allowed_hosts(bases or [base]))
        compile_pages()
        more_open_files()
        # the printing layer loaded while the room gets ready: the first sheet as quick as the next
        threading.Thread(target=warm_up, name="tally-print-warm-up", daemon=True).start()
        with certificate_files(*tls) if tls else nullcontext() as files:
            config = server_config(app, host, port, forwarded_allow_ips, files)
            # Ctrl-C stops within STOP_SECONDS even while a request is being answered: its
            # transaction rolls back unacknowledged, and the phone sends the tap again
            config.timeout_graceful_shutdown = STOP_SECONDS
            try:
                uvicorn.Server(config).run()
            except KeyboardInterrupt:  # (uvicorn raises the Ctrl-C again once it has stopped)
                pass
        typer.echo(STOPPED)
    finally:
        store.close()


def _certificate(
    store: Store, given: tuple[Path, Path] | None, self_signed: bool, hosts: list[str]
) -> tuple[str, str] | None:
    """The certificate and key (PEM) to serve https with: the files ``--https`` names
    (checked: a certificate and the key that belongs to it), the one made for this database
    (``--self-signed``), or none (http)."""
    import ssl

    from tally.web.https import certificate_files, pem_of
    from tally.web.https import self_signed as made_for

    if self_signed:
        return made_for(store, hosts)
    if given is None:
        return None
    try:
        pair = pem_of(given[0]), pem_of(given[1])
        with certificate_files(*pair) as files:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(*files)
    except (OSError, ValueError, ssl.SSLError) as exc:
        fail(
            Message(
                N_("--https %(cert)s %(key)s: not a certificate and its key in PEM (%(why)s)"),
                cert=str(given[0]),
                key=str(given[1]),
                why=str(exc)[:100],
            )
        )
    return pair


def _addresses(where: str, bases: list[str], base: str, port: int) -> str:
    """What ``tally serve`` says of where it is reached: the database, the director's and the
    wall's address, every other address of this computer, or why phones cannot reach it."""
    lines = [f"tally serve: {where}", f"Director:  {base}/director", f"Standings: {base}/"]
    for other in bases[1:]:
        lines.append(f"Also at:   {other} (another network of this computer)")
    if not bases:
        lines.append(
            f"Phones cannot reach 127.0.0.1: connect this computer to the club's "
            f"network and start again, or give --url http://ADDRESS:{port}."
        )
    return "\n".join(lines)
