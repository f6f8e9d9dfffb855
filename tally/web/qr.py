"""QR codes of the table pages, as inline SVG: for the sheets the director prints (WeasyPrint
draws inline SVG without fetching anything) and for the director's page.

segno makes them: pure Python, maintained, no image library needed.
"""

from __future__ import annotations

import io


def qr_svg(url: str) -> str:
    """The QR code of ``url`` as an ``<svg>`` element sized by its container (no XML
    declaration, no fixed size), error correction M: readable from a crumpled sheet.

    >>> qr_svg("http://127.0.0.1:8066/t/1/abc").startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    True
    """
    import segno

    buf = io.BytesIO()
    segno.make(url, error="m").save(buf, kind="svg", xmldecl=False, svgns=True, nl=False,
                                   border=2, omitsize=True, svgclass="qr", lineclass=None)
    return buf.getvalue().decode("ascii")
