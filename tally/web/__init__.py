"""``tally serve``: a local web application beside the command line.

Phones at the tables record deals trick by trick (:mod:`tally.web.table`), a projector shows
the live standings (:mod:`tally.web.standings`) and the director runs the evening with a PIN
(:mod:`tally.web.director`). Every change goes through the same store methods as the CLI
(:class:`tally.store.Store`, :mod:`tally.store.events`): no rule, query or score is computed
here. Who may change what is decided in :mod:`tally.web.access`.

Starlette, uvicorn, python-multipart and segno are installed with tally; nothing imports them
until :func:`tally.web.server.create_app` runs. Where one is missing (an install that skipped
dependencies), :func:`install_command` says what puts it back.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def install_command() -> str:
    """The command that installs tally's dependencies for the tally being run: ``pip install
    -e`` of its checkout when it runs from one (the Quick start's set-up), else ``pip install
    tally``; pip as the module of this very interpreter, so the command works whatever is on
    PATH.

    >>> "pip install" in install_command()
    True
    """
    python = sys.executable or "python3"
    try:
        python = os.path.relpath(python) if not os.path.relpath(python).startswith("..") else python
    except ValueError:  # another drive (Windows)
        pass
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "tally" / "web").is_dir():
        where = os.path.relpath(root) if Path.cwd() in (root, *root.parents) else str(root)
        return f"{python} -m pip install -e {where}"
    return f"{python} -m pip install tally"
