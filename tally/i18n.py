"""The languages tally speaks: English (the source) and German, from one gettext catalogue.

Every word a person reads on a printed sheet, on the readable (non-JSON) output of the
commands (with the engine's and the store's refusals), and on the pages of the web app (the
wall, the tables' phones, the director's) is written in English in the source and marked for
translation; the German words live in one message catalogue,
``tally/locale/de/LC_MESSAGES/tally.po``, compiled to
``tally.mo`` beside it (shipped as package data, read with the standard :mod:`gettext`:
nothing else is needed at run time). JSON output is never translated.

Which language (:func:`resolve`), first that applies:

1. the command's ``--lang de|en``;
2. the event's stored language (``tally event create --lang``, ``language = "de"`` in an
   ``event.toml`` for ``tally load``), for a command about one event;
3. the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set and not empty
   decides, as POSIX says (``de_AT.UTF-8`` is German; ``C``, ``POSIX`` or a language tally does
   not have is English);
4. English.

(The web app chooses per page the same way, with the browser in place of the locale:
:func:`tally.web.app.language`, :func:`accepted`.)

In Python, mark a string with :func:`gettext` (imported as ``_``) or :func:`ngettext`; they
translate into the language made current by :func:`use` (a :class:`contextvars.ContextVar`, so
one web request cannot change another's). A string that must be marked where it is defined and
translated later (a table of texts) is marked with :func:`N_`. Templates use Jinja2's i18n
extension (``{% trans %}...{% endtrans %}`` or ``_("...")``), filled with :func:`translations`.

Updating the catalogue after marking new strings (needs the ``dev`` extra, for Babel)::

    python -m tally.i18n update     # extract, merge into tally.po, compile tally.mo
    python -m tally.i18n check      # fail on untranslated or fuzzy entries, or a stale .mo

Dates and numbers: :func:`format_date`, :func:`format_datetime` and :func:`decimal_comma`
write them as the language does (``21.11.2026``, ``7,5`` in German). They are written here by
hand rather than with Babel so that printing needs no locale data at run time: tally prints
only numeric dates and plain numbers.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from tally.errors import Message

__all__ = [
    "DEFAULT",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_VARIABLES",
    "N_",
    "accepted",
    "current",
    "decimal_comma",
    "format_date",
    "format_datetime",
    "gettext",
    "locale_dir",
    "locale_language",
    "ngettext",
    "normalize",
    "pgettext",
    "problems",
    "resolve",
    "translations",
    "update",
    "use",
]

#: The languages tally has, the source language first.
LANGUAGES: Final = ("en", "de")
#: The language when nothing chooses another.
DEFAULT: Final = "en"
#: The gettext domain: ``tally.po`` / ``tally.mo``.
DOMAIN: Final = "tally"
#: The locale variables that choose a language, in the order POSIX gives them precedence.
LOCALE_VARIABLES: Final = ("LC_ALL", "LC_MESSAGES", "LANG")

_current: ContextVar[str] = ContextVar("tally_language", default=DEFAULT)


def locale_dir() -> Path:
    """The folder of the compiled catalogues (``tally/locale``)."""
    return Path(__file__).resolve().parent / "locale"


def normalize(value: str | None) -> str | None:
    """The language tally has that a locale name or language code means, else ``None``.

    >>> normalize("de_AT.UTF-8"), normalize("en"), normalize("C"), normalize("fr_FR")
    ('de', 'en', None, None)
    """
    if not value:
        return None
    code = value.split(".", 1)[0].split("@", 1)[0].replace("-", "_").split("_", 1)[0].lower()
    return code if code in LANGUAGES else None


def locale_language(environ: Mapping[str, str] | None = None) -> str | None:
    """The language the locale asks for: the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    that is set and not empty decides (``None`` when it names a language tally lacks, or when
    none is set).

    >>> locale_language({"LANG": "de_AT.UTF-8"}), locale_language({"LC_ALL": "C", "LANG": "de"})
    ('de', None)
    """
    env = os.environ if environ is None else environ
    for name in LOCALE_VARIABLES:
        value = env.get(name, "")
        if value:
            return normalize(value)
    return None


def accepted(header: str) -> str | None:
    """The language tally has that a browser's ``Accept-Language`` header prefers most (its
    ``q`` weights, then its order; ``de-AT`` is German), else ``None``: what ``tally serve``
    speaks when neither the reader nor the event chose.

    >>> accepted("de-AT,de;q=0.9,en;q=0.8"), accepted("en-GB,en;q=0.9,de;q=0.8")
    ('de', 'en')
    >>> accepted("fr-FR, en;q=0.5, de;q=0.7"), accepted("fr, *;q=0.1"), accepted("")
    ('de', None, None)
    """
    ranked = []
    for order, part in enumerate(header.split(",")[:40]):
        tag, *params = part.split(";")
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        lang = normalize(tag.strip())
        if lang is not None and 0 < weight <= 1:
            ranked.append((-weight, order, lang))
    return min(ranked)[2] if ranked else None


def resolve(
    requested: str | None = None, event: str | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The language to speak: ``requested`` (``--lang``), else the event's stored language,
    else the locale's (:func:`locale_language`), else English.

    >>> resolve("en", "de", {"LANG": "de"}), resolve(None, "de", {}), resolve(None, None, {})
    ('en', 'de', 'en')
    """
    for choice in (normalize(requested), normalize(event), locale_language(environ)):
        if choice is not None:
            return choice
    return DEFAULT


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (English: the source strings as they are).

    A missing compiled catalogue falls back to English rather than fail a print.
    """
    if normalize(lang) in (None, DEFAULT):
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, locale_dir(), languages=[lang], fallback=True)


def current() -> str:
    """The language made current by :func:`use` (English by default)."""
    return _current.get()


@contextmanager
def use(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block (for this thread or task only)."""
    token = _current.set(normalize(lang) or DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells two uses of the same
    English word apart (a verb and a column heading)."""
    return translations(_current.get()).pgettext(context, message)


def worded(message: Message | str, lang: str | None = None) -> str:
    """``message`` (an error's ``wording``, see :mod:`tally.errors`) in ``lang``, else the
    current language: its template and those of its values from the catalogue, filled with
    the same values. Worded whole or not at all: a template the catalogue does not hold (an
    administrative refusal typed as English text) leaves the whole message English. A
    template without words of its own (``%(head)s: %(message)s``) says itself.

    >>> from tally.errors import Message
    >>> worded(Message("%(card)s was already played in trick %(trick)s", card="KS", trick=1),
    ...        "de")
    'KS wurde schon in Stich 1 gespielt'
    >>> worded(Message("line %(line)s: %(message)s", line=2, message=Message("moon")), "de")
    'line 2: moon'
    """
    from tally.errors import neutral

    if isinstance(message, str):
        return message
    chosen = normalize(lang) or _current.get()
    if chosen == DEFAULT:
        return str(message)
    catalogue: dict[object, str] = getattr(translations(chosen), "_catalog", {})

    def say(template: str) -> str | None:
        if not template:  # (the catalogue's header)
            return template
        if template in catalogue:
            return catalogue[template]
        if "\x00" in template:  # (a Counted message: both forms and the count)
            singular, plural, n = template.split("\x00")
            if (singular, 0) not in catalogue:
                return None
            return translations(chosen).ngettext(singular, plural, int(n))
        return template if neutral(template) else None

    return message.fill(say) or str(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (a table of texts
    translated where it is shown)."""
    return message


def decimal_comma(text: str, lang: str | None = None) -> str:
    """A number already written with a decimal point, in ``lang``'s way (German: a comma).

    >>> decimal_comma("7.5", "de"), decimal_comma("7.5", "en")
    ('7,5', '7.5')
    """
    return text.replace(".", ",") if (lang or _current.get()) == "de" else text


def format_date(value: date, lang: str | None = None) -> str:
    """A date: ``2026-11-21`` in English (as tally always printed it), ``21.11.2026`` in
    German."""
    if (lang or _current.get()) == "de":
        return f"{value.day:02d}.{value.month:02d}.{value.year:04d}"
    return value.isoformat()


def format_datetime(value: datetime, lang: str | None = None) -> str:
    """A time stamp to the minute: ``2026-11-21 18:30``, ``21.11.2026 18:30``."""
    return f"{format_date(value.date(), lang)} {value:%H:%M}"


# ------------------------------------------------------------------------------ catalogue

#: Where the sources, the template and the German catalogue are, from the repository root.
_ROOT = Path(__file__).resolve().parent.parent
_POT = _ROOT / "tally" / "locale" / f"{DOMAIN}.pot"
_CFG = _ROOT / "tally" / "locale" / "babel.cfg"


def _po(lang: str) -> Path:
    return locale_dir() / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _pybabel(*args: str) -> None:
    import subprocess

    subprocess.run([sys.executable, "-m", "babel.messages.frontend", *args], check=True, cwd=_ROOT)


def update() -> None:
    """Extract every marked string (tally/ and templates/), merge it into each catalogue and
    compile the ``.mo`` files. Needs Babel (the ``dev`` extra)."""
    _pybabel(
        "extract",
        "-F",
        str(_CFG),
        "-k",
        "N_",
        "-k",
        "pgettext:1c,2",
        "--no-location",
        "--sort-output",
        "--width=100",
        "--project=tally",
        "--copyright-holder=tally",
        "--msgid-bugs-address=",
        "-o",
        str(_POT),
        "tally",
        "templates",
    )
    for lang in LANGUAGES[1:]:
        _pybabel(
            "update",
            "-i",
            str(_POT),
            "-d",
            str(locale_dir()),
            "-D",
            DOMAIN,
            "-l",
            lang,
            "--no-fuzzy-matching",
            "--ignore-obsolete",
            "--width=100",
        )
    compile_all()


def compile_all() -> None:
    """Compile each ``.po`` into its ``.mo``."""
    for lang in LANGUAGES[1:]:
        _pybabel("compile", "-d", str(locale_dir()), "-D", DOMAIN, "-l", lang)


def problems(lang: str = "de") -> list[str]:
    """What is wrong with a catalogue: untranslated or fuzzy entries, a ``.mo`` that is not
    the ``.po`` compiled now. Needs Babel."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    po = _po(lang)
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            out.append(f"untranslated: {message.id!r}")
        if message.fuzzy:
            out.append(f"fuzzy: {message.id!r}")
    fresh = io.BytesIO()
    write_mo(fresh, catalog)
    mo = po.with_suffix(".mo")
    if not mo.is_file() or _messages(mo.read_bytes()) != _messages(fresh.getvalue()):
        out.append(f"{mo} is not {po.name} compiled: run `python -m tally.i18n update`")
    return out


def _messages(mo: bytes) -> set[tuple[object, object, object]]:
    """The translations a compiled catalogue holds: ``(id, string, context)`` of each message,
    without the header (which names the Babel version that compiled it, so a newer Babel
    would otherwise call an unchanged catalogue stale). Needs Babel."""
    import io

    from babel.messages.mofile import read_mo

    def frozen(value: object) -> object:  # (a plural's forms come as a list)
        return tuple(value) if isinstance(value, list | tuple) else value

    return {(frozen(m.id), frozen(m.string), m.context) for m in read_mo(io.BytesIO(mo)) if m.id}


def main(argv: list[str] | None = None) -> int:
    """``python -m tally.i18n update|compile|check``."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["update"]:
        update()
        return 0
    if args == ["compile"]:
        compile_all()
        return 0
    if args == ["check"]:
        found = [p for lang in LANGUAGES[1:] for p in problems(lang)]
        print("\n".join(found) or "catalogue complete")
        return 1 if found else 0
    print("usage: python -m tally.i18n update|compile|check", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
