"""Reading printed sheets back in tests: the text of each page, the page size."""

from __future__ import annotations

import functools
import io
import re

import pypdf


def pages_text(pdf: bytes) -> list[str]:
    """The extracted text of each page.

    pypdf takes a tenth to a quarter of a second a sheet (it reads the whole embedded fonts'
    character maps), and tests read one module-scoped sheet many times: the text of the same
    bytes is extracted once per process (a pure function of an immutable value).
    """
    return list(_pages_text(pdf))


@functools.lru_cache(maxsize=64)
def _pages_text(pdf: bytes) -> tuple[str, ...]:
    return tuple(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)


def squash(text: str) -> str:
    """Text without whitespace, so that where a cell wraps does not matter."""
    return re.sub(r"\s+", "", text)


def page_size(pdf: bytes) -> tuple[float, float]:
    """Width and height of the first page, in points."""
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)
