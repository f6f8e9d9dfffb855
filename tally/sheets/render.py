"""Printed sheets as PDF: standings, pairings, score sheets, rulings and match analyses.

Each ``render_*`` function takes one of the plain dataclasses of :mod:`tally.sheets.data` and
returns the bytes of a PDF; :func:`write_pdf` puts them in a file::

    pdf = render_standings(sheet, paper="letter")
    write_pdf(pdf, "standings.pdf")

How a sheet is made:

1. :func:`render_html` fills a Jinja2 template of :mod:`tally.templates` (``standings.html.j2``
   ...). Autoescaping is on for every template and undefined names raise
   (:class:`jinja2.StrictUndefined`), so a player called ``<b>x</b>`` prints as those characters.
2. :func:`html_to_pdf` lays the HTML out with WeasyPrint and the shared stylesheet
   ``tally.css`` that it links. Every file a sheet uses (the stylesheet, the DejaVu fonts it
   names, anything the HTML asks for) goes through a :class:`TemplateFiles` gate that serves
   only regular files inside the templates folder, after resolving symlinks and ``..``; any
   other address (``file:///etc/passwd``, ``http://``, ``data:``...) is refused and the render
   fails with :class:`PrintError` instead of printing a sheet without its font.

The stylesheet and its fonts are read, parsed and loaded once per process (:func:`_house_style`),
not for every sheet: that was about a third of a small sheet's time. Each render still passes
their addresses through its own gate, so a gate that would refuse them fails the render.

The fonts ship with tally, so a sheet looks the same on every machine. They ship already
reduced to the characters tally prints (``templates/fonts/reduce.py`` makes them from DejaVu Sans)
and are embedded whole (WeasyPrint's ``full_fonts``): WeasyPrint then subsets nothing at run
time, so printing needs no HarfBuzz-Subset library, logs no "Using fontTools instead of
HarfBuzz-Subset" warning and saves the time subsetting took.

WeasyPrint is imported only inside the functions that lay out a PDF, through
:func:`import_weasyprint`, which keeps that import from running ``ldconfig``, ``gcc`` and
``ld`` (see there).
"""

from __future__ import annotations

import atexit
import functools
import gc
import os
import tempfile
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from importlib import resources
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit
from urllib.request import url2pathname

import jinja2
from markupsafe import Markup, escape

from tally.engine.cards import PARSE_TABLE, Suit
from tally.errors import N_, FetchRefused, Joined, Message, PrintError
from tally.events.formats import format_of
from tally.events.tiebreaks import TABLE
from tally.i18n import current, decimal_comma, format_date, format_datetime, translations, worded
from tally.sheets.data import (
    AnalysisSheet,
    BracketSheet,
    EliminationSheet,
    PairingsSheet,
    Paper,
    RulingSheet,
    ScoreSheet,
    StandingsSheet,
)
from tally.sheets.money import MoneySheet
from tally.vocabulary import absent_words, elimination_ranking, stage_text, word

__all__ = [
    "PAPER_SIZES",
    "FetchRecord",
    "FetchRefused",
    "PrintError",
    "TemplateFiles",
    "environment",
    "html_to_pdf",
    "import_weasyprint",
    "make_url_fetcher",
    "render_analysis",
    "render_bracket",
    "render_elimination",
    "render_html",
    "render_pairings",
    "render_ruling",
    "render_scoresheet",
    "render_sheet",
    "render_standings",
    "templates_dir",
    "warm_up",
    "write_pdf",
]

#: The CSS ``@page`` size of each paper a sheet can be printed on.
PAPER_SIZES: Final[Mapping[str, str]] = {"A4": "A4", "letter": "letter"}

#: Media types of the files a template may pull in, by suffix.
_MEDIA_TYPES: Final[Mapping[str, str]] = {
    ".css": "text/css",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

# ------------------------------------------------------------------------------ WeasyPrint

#: The libraries WeasyPrint cannot work without, by their Linux sonames: when all of them load
#: directly, WeasyPrint's import is kept from searching for them with compilers.
_LINUX_SONAMES: Final = (
    "libgobject-2.0.so.0",
    "libpango-1.0.so.0",
    "libharfbuzz.so.0",
    "libfontconfig.so.1",
    "libpangoft2-1.0.so.0",
)


def import_weasyprint() -> Any:
    """Import WeasyPrint (once per process) without running ``ldconfig``, ``gcc`` or ``ld``.

    Why they ran: WeasyPrint (``weasyprint/text/ffi.py``) loads each native library by trying
    a list of names for all platforms in turn (``libgobject-2.0-0``, ``gobject-2.0-0``, ...,
    and only then the Linux soname ``libgobject-2.0.so.0``), and cffi's ``dlopen`` hands every
    name it cannot open directly to :func:`ctypes.util.find_library`, which on Linux runs
    ``/sbin/ldconfig -p``, then ``gcc`` and ``ld`` to look for it: 68 processes (about 0.25 s)
    on every ``tally print``. WeasyPrint's documented setting for library locations,
    ``WEASYPRINT_DLL_DIRECTORIES``, applies to Windows only.

    So on Linux, when every library WeasyPrint needs loads by its exact soname (the names the
    linker cache gives), ``find_library`` is answered "not found" for the duration of the
    import: WeasyPrint then skips the other platforms' names at once and opens the sonames,
    as it would have in the end. On other systems, when a soname does not load, or when
    ``WEASYPRINT_DLL_DIRECTORIES`` is set, WeasyPrint searches as it always does.

    WeasyPrint's import-time DeprecationWarning about a missing HarfBuzz-Subset is silenced:
    tally embeds fonts reduced in advance and never asks WeasyPrint to subset one.
    """
    import sys
    import warnings

    found = sys.modules.get("weasyprint")
    if found is not None:
        return found
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message="HarfBuzz-Subset will be required", category=DeprecationWarning
        )
        if not (
            sys.platform.startswith("linux")
            and _sonames_load()
            and not os.environ.get("WEASYPRINT_DLL_DIRECTORIES")
        ):
            import weasyprint  # type: ignore[import-untyped]

            return weasyprint
        import ctypes.util

        original = ctypes.util.find_library
        ctypes.util.find_library = _not_searched
        try:
            import weasyprint

            return weasyprint
        finally:
            ctypes.util.find_library = original


def _not_searched(name: str) -> None:
    """``ctypes.util.find_library`` while WeasyPrint is imported: no search (see
    :func:`import_weasyprint`)."""
    return None


def _sonames_load() -> bool:
    import ctypes

    try:
        for soname in _LINUX_SONAMES:
            ctypes.CDLL(soname)
    except OSError:
        return False
    return True


# ------------------------------------------------------------------------------ file gate


def templates_dir() -> Path:
    """The folder of the ``tally.templates`` package, symlinks resolved.

    Raises :class:`PrintError` when the package is not installed as plain files (a zip).
    """
    root = resources.files("tally.templates")
    if not isinstance(root, Path):
        raise PrintError(
            Message(N_("tally's templates are not a folder on disk: %(root)s"), root=root)
        )
    return root.resolve()


@dataclass(frozen=True)
class FetchRecord:
    """One address the renderer asked for, and what the gate did with it."""

    url: str
    #: The file served, or ``None`` when the address was refused.
    path: Path | None
    #: Why the address was refused; None when it was served.
    refusal: Message | None = None


#: A render that asked for files the gate refused (:class:`TemplateFiles`).
NOT_SERVED_STYLE: Final = N_("the stylesheet asked for files tally does not serve: %(refused)s")
NOT_SERVED: Final = N_("the sheet asked for files tally does not serve: %(refused)s")


def _refusals(records: list[FetchRecord]) -> Joined:
    """Why each of ``records`` was refused, one after the other."""
    return Joined("; ", (r.refusal for r in records if r.refusal is not None))


class TemplateFiles:
    """The only files a render may read: regular files inside one folder (the templates).

    Every request is kept in :attr:`log`, served or refused, in order.
    """

    def __init__(self, root: Path | None = None) -> None:
        """Gate the files under ``root`` (default: :func:`templates_dir`)."""
        self.root: Path = (root if root is not None else templates_dir()).resolve(strict=True)
        self.log: list[FetchRecord] = []

    @property
    def served(self) -> list[Path]:
        """The files served so far."""
        return [r.path for r in self.log if r.path is not None]

    @property
    def refused(self) -> list[FetchRecord]:
        """The requests refused so far."""
        return [r for r in self.log if r.path is None]

    def base_url(self) -> str:
        """The ``file://`` URL of the root folder, with the trailing slash relative URLs need."""
        return self.root.as_uri() + "/"

    def resolve(self, url: str) -> Path:
        """The file inside the root that ``url`` names; :class:`FetchRefused` for anything else.

        Only ``file:`` URLs without a host (or with ``localhost``) are considered; the path is
        resolved (symlinks, ``..``, percent-escapes) before it is compared with the root.
        """
        try:
            path = self._check(url)
        except FetchRefused as exc:
            self.log.append(FetchRecord(url, None, exc.wording))
            raise
        self.log.append(FetchRecord(url, path))
        return path

    def read(self, url: str) -> tuple[bytes, str]:
        """The bytes and media type of the file ``url`` names, if the gate lets it through."""
        path = self.resolve(url)
        media_type = _MEDIA_TYPES.get(path.suffix.lower(), "application/octet-stream")
        return path.read_bytes(), media_type

    def _check(self, url: str) -> Path:
        shown = url if len(url) <= 80 else url[:77] + "..."
        try:
            parts = urlsplit(url)
        except ValueError as exc:
            raise FetchRefused(Message(N_("malformed address %(url)s"), url=repr(shown))) from exc
        if parts.scheme.lower() != "file":
            raise FetchRefused(
                Message(
                    N_("only tally's own template files may be read, not %(url)s"), url=repr(shown)
                )
            )
        if parts.netloc not in ("", "localhost"):
            raise FetchRefused(
                Message(N_("file address on another host refused: %(url)s"), url=repr(shown))
            )
        raw = Path(url2pathname(parts.path))
        if not raw.is_absolute():
            raise FetchRefused(
                Message(N_("relative file address refused: %(url)s"), url=repr(shown))
            )
        try:
            path = raw.resolve(strict=True)
        except (OSError, RuntimeError) as exc:
            raise FetchRefused(
                Message(N_("no such template file: %(url)s"), url=repr(shown))
            ) from exc
        if not path.is_relative_to(self.root):
            raise FetchRefused(
                Message(N_("file outside tally's templates refused: %(url)s"), url=repr(shown))
            )
        if not path.is_file():
            raise FetchRefused(Message(N_("not a regular file: %(url)s"), url=repr(shown)))
        return path


@functools.cache
def _fetcher_class() -> type[Any]:
    """The WeasyPrint fetcher class, built on first use so that WeasyPrint loads lazily."""
    import_weasyprint()
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # type: ignore[import-untyped]

    class TemplateURLFetcher(URLFetcher):  # type: ignore[misc]
        """A WeasyPrint 70 URL fetcher that reads through a :class:`TemplateFiles` gate.

        It never calls :class:`urllib.request.OpenerDirector`, so no handler (http, ftp,
        data...) of the base class is ever reached.
        """

        def __init__(self, files: TemplateFiles) -> None:
            super().__init__(
                allowed_protocols=("file",), allow_redirects=False, fail_on_errors=False
            )
            self.files = files

        def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> Any:
            body, media_type = self.files.read(url)
            content_type = media_type + ("; charset=utf-8" if media_type == "text/css" else "")
            return URLFetcherResponse(url, body=body, headers={"Content-Type": content_type})

        def open(self, url: Any, data: Any = None, timeout: Any = None) -> Any:
            return self.fetch(getattr(url, "full_url", url))

    return TemplateURLFetcher


def make_url_fetcher(files: TemplateFiles | None = None) -> Any:
    """A ``weasyprint.urls.URLFetcher`` that serves only what ``files`` lets through.

    Calling it with any address outside the templates raises :class:`FetchRefused`.
    """
    return _fetcher_class()(files if files is not None else TemplateFiles())


# ------------------------------------------------------------------------------ Jinja


def card_html(card: object) -> Markup:
    """``"10H"`` as ``10`` and a red ♥: rank, then the suit symbol in a coloured span.

    Anything that is not a card in tally's notation prints as escaped text.
    """
    text = str(card).strip()
    found = PARSE_TABLE.get(text.upper())
    if found is None:
        return escape(text)
    return Markup('<span class="card">{}{}</span>').format(
        found.rank.letter, suit_html(found.suit.letter)
    )


def _suit(value: object) -> Suit | None:
    letter = str(value).strip().upper()
    return Suit("CDHS".index(letter)) if len(letter) == 1 and letter in "CDHS" else None


def suit_html(suit: object) -> Markup:
    """A suit letter (``"H"``) as its symbol, red for hearts and diamonds, black otherwise."""
    found = _suit(suit)
    if found is None:
        return escape(str(suit))
    colour = "red" if found.is_red else "black"
    return Markup('<span class="suit {}">{}</span>').format(colour, found.symbol)


def suit_name(suit: object) -> str:
    """A suit letter (``"H"``) as its English name (``hearts``); anything else as given."""
    found = _suit(suit)
    return found.title if found is not None else str(suit)


def format_number(value: int | float, lang: str = "en") -> str:
    """A count or score as printed: ``7``, ``7.5``, ``−2`` (a true minus sign); German
    ``7,5``.

    Floats are rounded to two decimals and printed without trailing zeros.
    """
    if isinstance(value, float):
        value = round(value, 2)
        text = str(int(value)) if value.is_integer() else f"{value:.2f}".rstrip("0")
    else:
        text = str(value)
    return decimal_comma(text.replace("-", "\u2212"), lang)


def format_signed(value: int | float, lang: str = "en") -> str:
    """A difference with its sign: ``+3``, ``−2`` (a true minus sign), ``0``."""
    text = format_number(value, lang)
    return "+" + text if value > 0 and text != "0" else text


def format_when(value: datetime | date | None, lang: str = "en") -> str:
    """A timestamp as ``2024-05-11 18:30``, a date as ``2024-05-11`` (German
    ``11.05.2024 18:30``, ``11.05.2024``); nothing for ``None``."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return format_datetime(value, lang)
    return format_date(value, lang)


def plural(count: int, singular: str, many: str = "") -> str:
    """``1 game point``, ``2 game points``."""
    return f"{count} {singular if count == 1 else (many or singular + 's')}"


@functools.cache
def environment(lang: str = "en") -> jinja2.Environment:
    """The Jinja2 environment of tally's templates in ``lang`` (built once per language and
    process).

    Autoescaping is on for ``.html.j2`` templates (and any other name, including templates
    built from strings), and an undefined name raises instead of printing nothing. The i18n
    extension fills ``{% trans %}`` and ``_()`` from :func:`tally.i18n.translations`
    (new-style gettext: placeholders are escaped like any other value); the ``num``,
    ``signed`` and ``when`` filters write numbers and dates as ``lang`` does.
    """
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html", "html.j2", "j2"), default_for_string=True, default=True
        ),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = lang
    env.filters["card"] = card_html
    env.filters["suit"] = suit_html
    env.filters["suit_name"] = lambda suit: word(suit_name(suit), lang)
    env.filters["num"] = lambda value: format_number(value, lang)
    env.filters["signed"] = lambda value: format_signed(value, lang)
    env.filters["when"] = lambda value: format_when(value, lang)
    env.filters["plural"] = plural
    env.filters["word"] = lambda value: word(str(value), lang, spoken=True)
    env.filters["stage"] = lambda value: stage_text(value, lang)
    env.filters["draw"] = lambda value: worded(value, lang)
    env.filters["absent"] = lambda names, points: absent_words(names, points, lang)
    env.filters["progress"] = lambda value: worded(value, lang)
    env.filters["comma"] = lambda value: decimal_comma(str(value), lang)
    env.filters["ranking"] = lambda sheet: elimination_ranking(sheet.kind, sheet.tiebreaks, lang)
    env.filters["event_format"] = format_of
    # (a player's name; the published site's environment links it to the player's page)
    env.filters["person"] = str
    env.globals["tiebreaks"] = TABLE
    return env


def _page_size(paper: str) -> str:
    size = PAPER_SIZES.get(paper)
    if size is None:
        raise PrintError(
            Message(
                N_("unknown paper %(paper)s (use %(choices)s)"),
                paper=repr(paper),
                choices=Joined(N_(" or "), PAPER_SIZES),
            )
        )
    return size


def render_html(
    template: str, sheet: object, *, paper: Paper | str = "A4", lang: str | None = None
) -> str:
    """The HTML of ``template`` filled with ``sheet`` for ``paper`` (``"A4"`` or ``"letter"``),
    in ``lang`` (``"en"`` or ``"de"``; by default the current language of
    :func:`tally.i18n.use`, English unless set)."""
    page_size = _page_size(paper)
    return (
        environment(lang or current())
        .get_template(template)
        .render(sheet=sheet, page_size=page_size)
    )


# ------------------------------------------------------------------------------ PDF

#: The one stylesheet of every sheet, in the templates folder, and how base.html.j2 links it.
STYLESHEET: Final = "tally.css"
STYLESHEET_LINK: Final = f'<link rel="stylesheet" href="{STYLESHEET}">'

#: WeasyPrint lays out one sheet at a time in a process: the stylesheet and the font
#: configuration of :func:`_house_style` are shared by every render, and Pango's font map is
#: not made for threads (``tally serve`` prints from its worker threads).
_LAYOUT: Final = threading.Lock()


@dataclass(frozen=True)
class _HouseStyle:
    """``tally.css`` parsed, its fonts loaded, and the addresses that took."""

    css: Any
    fonts: Any
    urls: tuple[str, ...]


@functools.cache
def _house_style(root: Path) -> _HouseStyle:
    """``tally.css`` of the templates folder ``root`` parsed and its ``@font-face`` fonts
    loaded, once per process and folder, read through a :class:`TemplateFiles` gate of its
    own. Raises :class:`PrintError` (and caches nothing) if the gate refused a file."""
    weasyprint = import_weasyprint()
    from weasyprint.text.fonts import FontConfiguration  # type: ignore[import-untyped]

    gate = TemplateFiles(root)
    fonts = FontConfiguration()
    css = weasyprint.CSS(
        url=(gate.root / STYLESHEET).as_uri(), url_fetcher=make_url_fetcher(gate), font_config=fonts
    )
    if gate.refused:
        raise PrintError(Message(NOT_SERVED_STYLE, refused=_refusals(gate.refused)))
    # The font configuration keeps the fonts in a temporary folder that it removes when it is
    # deleted: at exit, while the modules its __del__ needs are still there (left to the
    # interpreter's teardown, the folder stayed behind and a TypeError was printed).
    atexit.register(_forget_house_styles)
    return _HouseStyle(css, fonts, tuple(r.url for r in gate.log))


def warm_up() -> None:
    """Import WeasyPrint and load the house style (its stylesheet and fonts) now, so that the
    first sheet printed does not pay for them (``tally serve`` calls it in the background as
    it starts: the director's first PDF of the evening is then as quick as the next). Quiet:
    a printing layer that cannot start says so when a sheet is asked for, as without it."""
    try:
        import_weasyprint()
        _house_style(TemplateFiles().root)
    except Exception:  # (OSError of a missing library, PrintError...: told at the first sheet)
        return


def _forget_house_styles() -> None:
    """Drop the parsed stylesheets and their font configurations (their folders go with
    them)."""
    _house_style.cache_clear()
    gc.collect()


def html_to_pdf(html: str, *, files: TemplateFiles | None = None) -> bytes:
    """Lay ``html`` out as PDF, reading files only through ``files`` (the templates gate).

    Relative addresses in the HTML resolve against the templates folder. HTML that links
    ``tally.css`` as the sheets do (:data:`STYLESHEET_LINK`) is laid out with the stylesheet and
    fonts :func:`_house_style` parsed and loaded once per process; their addresses still pass
    through ``files``, as if read again. Raises :class:`PrintError` if the layout asked for
    anything the gate refused, or for a file that is missing, rather than return a sheet
    without its stylesheet or font.
    """
    weasyprint = import_weasyprint()
    gate = files if files is not None else TemplateFiles()
    already_refused = len(gate.refused)
    options: dict[str, Any] = {}
    if STYLESHEET_LINK in html:
        style = _house_style(gate.root)
        for url in style.urls:
            try:
                gate.resolve(url)
            except FetchRefused:
                pass  # kept in gate.refused: the render fails below
        # In place of the link, as a user stylesheet: after it a sheet has only a <style>
        # setting the paper, which wins either way (the same PDF bar its dates).
        html = html.replace(STYLESHEET_LINK, "", 1)
        options = {"stylesheets": [style.css], "font_config": style.fonts}
    document = weasyprint.HTML(
        string=html, base_url=gate.base_url(), url_fetcher=make_url_fetcher(gate)
    )
    # The shipped fonts are reduced already (templates/fonts/reduce.py): embed them whole.
    with _LAYOUT:
        pdf = document.write_pdf(full_fonts=True, **options)
    refused = gate.refused[already_refused:]
    if refused:
        raise PrintError(Message(NOT_SERVED, refused=_refusals(refused)))
    if not isinstance(pdf, bytes):  # pragma: no cover - write_pdf() without target gives bytes
        raise PrintError(N_("WeasyPrint returned no PDF"))
    return pdf


def _render(
    template: str,
    sheet: object,
    paper: Paper | str,
    files: TemplateFiles | None,
    lang: str | None = None,
) -> bytes:
    return html_to_pdf(render_html(template, sheet, paper=paper, lang=lang), files=files)


def render_standings(
    data: StandingsSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """The standings (and, for a round robin, the cross-table) as PDF bytes."""
    return _render("standings.html.j2", data, paper, files, lang)


def render_pairings(
    data: PairingsSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """The pairings of one round, with a result box per table, as PDF bytes."""
    return _render("pairings.html.j2", data, paper, files, lang)


def render_bracket(
    data: BracketSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """A knockout bracket, round by round to the champion, as PDF bytes."""
    return _render("bracket.html.j2", data, paper, files, lang)


def render_elimination(
    data: EliminationSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """The standings of a knockout by elimination (lives, rounds, marks), as PDF bytes."""
    return _render("elimination.html.j2", data, paper, files, lang)


def render_scoresheet(
    data: ScoreSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """A score sheet to fill in by hand (a blank form when it names no players)."""
    return _render("scoresheet.html.j2", data, paper, files, lang)


def render_ruling(
    data: RulingSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """The dispute sheet of one deal: tags, tricks and the ruling, as PDF bytes."""
    return _render("ruling.html.j2", data, paper, files, lang)


def render_analysis(
    data: AnalysisSheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """A match's closes and claims, a row per recorded deal and totals per player, as PDF."""
    return _render("analysis.html.j2", data, paper, files, lang)


def render_money(
    data: MoneySheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """The treasurer's money sheet of an event or a season (its text), as PDF bytes."""
    return _render("money.html.j2", data, paper, files, lang)


def render_sheet(
    data: StandingsSheet
    | PairingsSheet
    | ScoreSheet
    | RulingSheet
    | AnalysisSheet
    | BracketSheet
    | EliminationSheet
    | MoneySheet,
    *,
    paper: Paper | str = "A4",
    files: TemplateFiles | None = None,
    lang: str | None = None,
) -> bytes:
    """Any sheet of :mod:`tally.sheets` as PDF bytes, by its type."""
    if isinstance(data, BracketSheet):
        return render_bracket(data, paper=paper, files=files, lang=lang)
    if isinstance(data, MoneySheet):
        return render_money(data, paper=paper, files=files, lang=lang)
    if isinstance(data, EliminationSheet):
        return render_elimination(data, paper=paper, files=files, lang=lang)
    if isinstance(data, AnalysisSheet):
        return render_analysis(data, paper=paper, files=files, lang=lang)
    if isinstance(data, StandingsSheet):
        return render_standings(data, paper=paper, files=files, lang=lang)
    if isinstance(data, PairingsSheet):
        return render_pairings(data, paper=paper, files=files, lang=lang)
    if isinstance(data, ScoreSheet):
        return render_scoresheet(data, paper=paper, files=files, lang=lang)
    return render_ruling(data, paper=paper, files=files, lang=lang)


def write_pdf(pdf: bytes, path: str | os.PathLike[str]) -> Path:
    """Write ``pdf`` to ``path`` atomically (a reader never sees half a file); return the path.

    The file appears complete or not at all: the bytes go to a temporary file in the same
    folder, which then replaces ``path``. Raises :class:`PrintError` if ``pdf`` is not a PDF.
    """
    if not pdf.startswith(b"%PDF-"):
        raise PrintError(N_("refusing to write something that is not a PDF"))
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(pdf)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
