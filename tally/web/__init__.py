"""``tally serve``: a local web application beside the command line.

Phones at the tables record deals trick by trick (:mod:`tally.web.table`), a projector shows
the live standings (:mod:`tally.web.standings`) and the director runs the evening with a PIN
(:mod:`tally.web.director`). Every change goes through the same store methods as the CLI
(:class:`tally.store.Store`, :mod:`tally.store.events`): no rule, query or score is computed
here. Who may change what is decided in :mod:`tally.web.access`.

Starlette, uvicorn, python-multipart and segno are optional (``pip install 'tally[web]'``):
nothing imports them until :func:`tally.web.server.create_app` runs.
"""

from __future__ import annotations
