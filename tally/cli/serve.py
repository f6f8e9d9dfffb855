"""``tally serve``: the web application for a club evening (:mod:`tally.web`).

Phones at the tables record deals, a projector shows the live standings, the director runs
the evening from a browser with a PIN. Starlette, uvicorn, python-multipart and segno come with
tally; where one is missing the command says how to install it and exits with 2.
"""

from __future__ import annotations

from typing import Annotated

import typer

from tally.cli import app
from tally.cli.common import fail, guard
from tally.cli.storage import DbOption

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
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on (0.0.0.0: every network of this computer).")
    ] = "0.0.0.0",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port.")] = 8066,
    new_pin: Annotated[bool, typer.Option(
        "--new-pin", help="Make a new director's PIN (the old one stops working).")] = False,
    pin: Annotated[str | None, typer.Option(
        "--pin", metavar="DIGITS", help="Set the director's PIN to these 4-12 digits.")] = None,
) -> None:
    """Serve the table pages, the live standings and the director's pages on the local
    network; prints the director's address and PIN. Stop it with Ctrl-C: everything
    acknowledged is stored, a restart carries on."""
    missing = missing_web_modules()
    if missing:
        from tally.web import install_command

        fail(f"tally serve needs {', '.join(missing)}: {install_command()}")
    import uvicorn

    from tally.store import open_store
    from tally.web.access import has_pin, set_pin
    from tally.web.server import create_app, local_address

    store = open_store(db, scorer="web")
    try:
        if pin is not None or new_pin or not has_pin(store):
            shown = f"Director's PIN: {set_pin(store, pin)}"
        else:
            shown = "Director's PIN: unchanged (tally serve --new-pin makes a new one)"
        where = local_address() if host in ("0.0.0.0", "::") else host
        typer.echo(f"tally serve: {store.where}\n"
                   f"Director:  http://{where}:{port}/director\n{shown}\n"
                   f"Standings: http://{where}:{port}/\nStop with Ctrl-C.")
        uvicorn.run(create_app(store), host=host, port=port, log_level="warning")
    finally:
        store.close()
