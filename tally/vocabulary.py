"""Words tally stores or computes and shows to people: tiebreak names, outcome reasons and
violated rules, event kinds, statuses, suits, an event's stage; and words made where the fact
is known (the engine's explanations, an event's stage) in a language (:func:`message_words`).
(Errors carry their template and values: :mod:`tally.errors`, :func:`tally.i18n.worded`.)

They stay English in the data (and in every JSON output); they are marked here with
:func:`~tally.i18n.N_` so that ``python -m tally.i18n update`` puts them in the catalogue, and a
sheet or a terminal line translates them where it shows them (:func:`word`; the templates'
``word`` filter). A word not listed here prints as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

from tally.errors import Counted, Message
from tally.i18n import N_, current, gettext, translations

if TYPE_CHECKING:
    from tally.engine.cards import Card


class Staged(Protocol):
    """A view that says how far an event is (:class:`tally.store.views.StandingsView`,
    :class:`tally.store.views.SeriesEventView`)."""

    @property
    def stage(self) -> str | Message: ...
    @property
    def stage_wording(self) -> Message | None: ...


__all__ = [
    "ACTION_WORDS",
    "WORDS",
    "action_label",
    "card_label",
    "change_words",
    "message_words",
    "ruling_message",
    "ruling_words",
    "spoken",
    "stage_text",
    "stage_words",
    "word",
]

#: Every word of the data that a person reads, marked for the catalogue.
WORDS: Final = (
    # tiebreaks (tally.events.tiebreaks.TIEBREAKS)
    N_("head-to-head"),
    N_("game-point-difference"),
    N_("game-points-won"),
    N_("sonneborn-berger"),
    N_("wins"),
    N_("buchholz"),
    N_("median-buchholz"),
    N_("buchholz-cut-1"),
    N_("koya"),
    N_("progressive"),
    N_("as-scored"),
    N_("virtual-opponent"),
    # outcome reasons (tally.engine.kernel.Reason)
    N_("claim"),
    N_("false-claim"),
    N_("failed-close"),
    N_("illegal-play"),
    N_("last-trick"),
    N_("higher-total"),
    N_("draw"),
    N_("incomplete"),
    # a line of a match result entered whole (tally.engine.match.MATCH_RESULT)
    N_("match-result"),
    # violated rules (tally.engine.kernel.Rule)
    N_("follow-suit"),
    N_("must-head"),
    N_("must-trump"),
    N_("marriage-not-allowed"),
    N_("false-marriage"),
    N_("exchange-not-allowed"),
    N_("false-exchange"),
    N_("close-not-allowed"),
    # suits (tally.engine.cards.Suit.title)
    N_("clubs"),
    N_("diamonds"),
    N_("hearts"),
    N_("spades"),
    # event kinds, pairing and match states, what a sheet says for a season's rules
    N_("club evening"),
    N_("round robin"),
    N_("double round robin"),
    N_("per event"),
    N_("playing"),
    N_("played"),
    N_("scheduled"),
    N_("forfeit"),
    N_("void"),
    N_("annulled"),
    N_("bye"),
    N_("started"),
    N_("not started"),
    N_("final"),
    # the better choice at a lead (tally.analysis.findings.CloseDecision.better)
    N_("close"),
    N_("play on"),
    # claim verdicts and notes of the analysis (tally.analysis.wording)
    N_("correct"),
    N_("false"),
    N_("the record has errors or violations"),
    N_("the record has errors or violations: nothing to analyse"),
    N_("the deal never reached phase 2"),
    N_("the hands the record proves do not fit its phase 2"),
    # terms of the formats of issue 11 (Swiss, knockout with lives), ready in the catalogue
    N_("play-off"),
    N_("life"),
    N_("lives"),
    N_("knockout"),
    N_("Swiss"),
    N_("bracket"),
    N_("eliminated"),
    N_("provisional"),
    # the kinds of events as the terminal names them (tally.cli.events, tally.cli.load)
    N_("groups event"),
    N_("Swiss event"),
    N_("knockout with lives"),
    N_("groups then knockout"),
    N_("knockout, ranked by elimination"),
    N_("groups then knockout, ranked by elimination"),
    # how far a knockout's player got (tally.store.knockouts), a bracket's rounds
    N_("winner"),
    N_("B"),
    # a rated match's result for its player (tally.store.ratings)
    N_("won"),
    N_("lost"),
    N_("drawn"),
    N_("Final"),
    N_("Semi-finals"),
    N_("Quarter-finals"),
    # the events a season's standings count (tally.store.standings.season_standings)
    N_("all events"),
    N_("club evenings"),
    # what a ruling says of a record it cannot rule on (tally.engine.ruling)
    N_("the record has errors"),
    # event kinds and deal kinds as stored (EventView.kind, DealView.kind: the director's
    # pages of tally serve)
    N_("club"),
    N_("round-robin"),
    N_("swiss"),
    N_("groups"),
    N_("recorded"),
    N_("quick"),
)


#: The words of the data that are identifiers (an outcome's reason, a violated rule): on a
#: page or a sheet (``spoken``) they read as words where the catalogue has none (English),
#: ``failed close``; the command line keeps them as typed (``--reason failed-close``).
SPOKEN: Final = frozenset(
    (
        "false-claim",
        "failed-close",
        "illegal-play",
        "last-trick",
        "higher-total",
        "follow-suit",
        "must-head",
        "must-trump",
        "marriage-not-allowed",
        "false-marriage",
        "exchange-not-allowed",
        "false-exchange",
        "close-not-allowed",
        "match-result",
    )
)


def word(text: str, lang: str | None = None, *, spoken: bool = False) -> str:
    """``text`` translated when the catalogue has it (in ``lang``, else the current language),
    else as it is; with ``spoken`` (pages and sheets) a reason or a rule (:data:`SPOKEN`) as
    words, never as an identifier.

    >>> word("failed-close", "en"), word("failed-close", "en", spoken=True)
    ('failed-close', 'failed close')
    >>> word("failed-close", "de", spoken=True), word("head-to-head", "en", spoken=True)
    ('misslungenes Zudrehen', 'head-to-head')
    """
    if not text:
        return text
    said = translations(lang).gettext(text) if lang is not None else gettext(text)
    return text.replace("-", " ") if spoken and said == text and text in SPOKEN else said


def spoken(text: str, lang: str | None = None) -> str:
    """:func:`word` with ``spoken``: the filter ``word`` of the pages and the sheets, and how
    every ruling says its reason (:func:`ruling_words`)."""
    return word(text, lang, spoken=True)


_DRAWN: Final = N_("drawn (%(reason)s)")


class SpokenWord(Message):
    """A reason's or a rule's name (:data:`SPOKEN`) as a message: the catalogue's word for it,
    else its name with spaces for hyphens (``illegal play``), as :func:`spoken` says it."""

    __slots__ = ()

    def fill(self, say: Callable[[str], str | None]) -> str | None:
        said = say(self.template)
        if said is None or said == self.template:
            name = self.template
            return name.replace("-", " ") if name in SPOKEN else name
        return said


def ruling_message(winner: str | None, points: int, reason: str) -> Message:
    """A deal's ruling in a few words (``Anna wins 3 game points (illegal play)``), made where
    the ruling is known and worded where it is shown (:func:`tally.i18n.worded`). In English it
    has always said "game points", one or more; the catalogue gives the singular its own
    form."""
    said = SpokenWord(reason)
    if winner is None:
        return Message(_DRAWN, reason=said)
    return Counted.ngettext(
        "%(winner)s wins %(n)s game points (%(reason)s)",
        "%(winner)s wins %(n)s game points (%(reason)s)",
        points,
        winner=winner,
        n=points,
        reason=said,
    )


def ruling_words(winner: str | None, points: int, reason: str, lang: str | None = None) -> str:
    """A deal's ruling (:func:`ruling_message`) in ``lang``, else the current language: the
    command line's lines; the pages and the sheets say a reason by :func:`spoken` too.

    >>> ruling_words("Anna", 3, "illegal-play", "en"), ruling_words(None, 0, "draw", "de")
    ('Anna wins 3 game points (illegal play)', 'unentschieden (unentschieden)')
    >>> ruling_words("Anna", 1, "illegal-play", "de")
    'Anna gewinnt 1 Spielpunkt (regelwidriges Spiel)'
    """
    from tally.i18n import worded

    return worded(ruling_message(winner, points, reason), lang or current())


_AND_TIEBREAKS: Final = N_("and the tiebreaks (%(list)s)")


def elimination_ranking(kind: str, tiebreaks: Sequence[str], lang: str | None = None) -> str:
    """The line that says what ranks the standings by elimination of a knockout or groups
    event, naming its ``tiebreaks``, in ``lang``: the one legend of the terminal and the
    sheet.

    >>> elimination_ranking("groups", [], "en")[-56:]
    'the group), then match points, then play-offs (Stechen).'
    """
    t = translations(lang) if lang is not None else None
    say = t.gettext if t is not None else gettext
    listed = ", ".join(word(name, lang) for name in tiebreaks)
    more = " " + say(_AND_TIEBREAKS) % {"list": listed} if tiebreaks else ""
    from tally.events.formats import format_of

    return say(format_of(kind).ranking_note) % {"tiebreaks": more}


def stage_words(view: Staged, lang: str | None = None) -> str:
    """How far an event is (``round 2 of 5``, ``final``, ``not started (5 rounds)``) in
    ``lang``: its words as the store made them (``view.stage_wording``, else ``view.stage``,
    a knockout's :class:`~tally.errors.Message`).

    >>> from tally.errors import Message
    >>> from types import SimpleNamespace as View
    >>> at = Message("round %(round)s of %(rounds)s", round=2, rounds=5)
    >>> stage_words(View(stage=str(at), stage_wording=at), "de")
    'Runde 2 von 5'
    """
    return stage_text(view.stage if view.stage_wording is None else view.stage_wording, lang)


def stage_text(stage: str | Message, lang: str | None = None) -> str:
    """A stage as made (a :class:`~tally.errors.Message`) in ``lang``; a plain word (``final``)
    as :func:`word` says it."""
    from tally.errors import Message

    if isinstance(stage, Message):
        return message_words(stage, lang)
    return word(stage, lang)


#: What the store says of a deal entered as a result (quick entry), which has no ruling to
#: explain it (:func:`tally.store.derivation.view_of_deal`); worded by :func:`message_words`.
QUICK_WON: Final = N_("entered as a result: %(winner)s won by %(reason)s")
QUICK_DRAWN: Final = N_("entered as a result: drawn")
#: What the store says of a line of a match result entered whole
#: (:data:`tally.engine.match.MATCH_RESULT`).
MATCH_SCORED: Final = N_("the match result entered whole: %(winner)s scored %(points)s")


def message_words(words: Message, lang: str | None = None, *, spoken: bool = False) -> str:
    """Words made for a person where the fact is known (a ruling's explanation, a violation's
    message: :attr:`tally.engine.decision.Ruling.wording`; an event's stage) in ``lang``
    (else the current language); a word of the data among its values (a rule's or a
    reason's name: a :class:`~tally.errors.Message` without values) as :func:`word` says it
    (``spoken``: on a page or a sheet), a date as the language writes it.

    >>> from tally.errors import Message
    >>> message_words(Message("nobody claimed; %(player)s won the last trick", player="Anna"),
    ...               "de")
    'niemand sagte an; Anna machte den letzten Stich'
    >>> quick = Message("entered as a result: %(winner)s won by %(reason)s", winner="Anna",
    ...                 reason=Message("false-claim"))
    >>> message_words(quick, "en", spoken=True)
    'entered as a result: Anna won by false claim'
    >>> message_words(quick, "de")
    'als Ergebnis eingetragen: Anna gewann (falsche Ansage)'
    """
    from datetime import date

    from tally.errors import Message
    from tally.i18n import format_date, worded

    lang = lang or current()
    shown: dict[str, object] = {}
    for name, value in words.params.items():
        if type(value) is Message:
            value = (
                message_words(value, lang, spoken=spoken)
                if value.params
                else word(value.template, lang, spoken=spoken)
            )
        elif isinstance(value, date):
            value = format_date(value, lang)
        shown[name] = value
    return worded(Message(words.template, **shown), lang)


_ABSENT: Final = N_("Absent (requested bye, %(points)s): %(players)s")


def absent_words(players: Sequence[str], points: float, lang: str | None = None) -> str:
    """A round's announced absences as a pairings sheet, the director's page and the
    terminal show them: "Absent (requested bye, ½): Carl, Dora"; ``points`` the match points
    each requested bye scores (½ for half of one, as a score sheet writes it)."""
    worth = "½" if points == 0.5 else f"{points:g}"
    said = translations(lang).gettext(_ABSENT) if lang is not None else gettext(_ABSENT)
    return said % {"points": worth, "players": ", ".join(players)}


#: the ranks a German page writes otherwise: Dame, Bube (A, 10, K and 9 are the same)
GERMAN_RANKS: Final = {"Q": "D", "J": "B"}
#: an action other than a card, as a change in the audit log names it
ACTION_WORDS: Final = {
    "swap": N_("swap"),
    "close": N_("close"),
    "close-before-draw": N_("close before drawing"),
    "66": N_("claim 66"),
}
#: the values of a change's words that are card tokens, or actions as typed (``KS AS``)
_CARD_VALUES: Final = ("card", "turn_up")
_ACTION_VALUES: Final = ("actions",)


def card_label(card: Card, lang: str | None = None) -> str:
    """A card as a page or a list in ``lang`` shows it (by default the current language): its
    rank letter and suit symbol, a German queen and jack as D and B.

    >>> from tally.engine.cards import Card
    >>> card_label(Card.parse("QH"), "en"), card_label(Card.parse("QH"), "de")
    ('Q♥', 'D♥')
    >>> card_label(Card.parse("10C"), "de")
    '10♣'
    """
    symbol = card.symbol
    if (lang or current()) == "de" and symbol[:-1] in GERMAN_RANKS:
        return GERMAN_RANKS[symbol[:-1]] + symbol[-1]
    return symbol


def action_label(token: str, lang: str | None = None) -> str:
    """An action as typed (``KS``, ``20 QC``, ``swap``) in words of ``lang``: cards as
    :func:`card_label` shows them.

    >>> action_label("20 QC", "de"), action_label("KS", "en"), action_label("swap", "de")
    ('20 D♣', 'K♠', 'tauschen')
    """
    from tally.engine.cards import Card
    from tally.errors import NotationError

    if token in ACTION_WORDS:
        return translations(lang or current()).gettext(ACTION_WORDS[token])
    out = []
    for part in token.split():
        try:
            out.append(card_label(Card.parse(part), lang))
        except NotationError:
            out.append(part)
    return " ".join(out)


def change_words(words: Message, lang: str | None = None) -> str:
    """A change of the audit log (:attr:`tally.store.views.AuditView.wording`) in ``lang``
    (else the current language), its cards as the pages show them: the one wording of an
    entry, for ``tally audit`` and the director's Changes page.

    >>> from tally.errors import Message
    >>> said = Message("%(player)s played %(card)s in deal %(deal)s, trick %(trick)s",
    ...                player="Anna", card="KS", deal=3, trick=2)
    >>> change_words(said, "en"), change_words(said, "de")
    ('Anna played K♠ in deal 3, trick 2', 'Anna spielte K♠ in Spiel 3, Stich 2')
    """
    from tally.errors import Message
    from tally.i18n import worded

    lang = lang or current()
    shown: dict[str, object] = {}
    for name, value in words.params.items():
        if isinstance(value, Message):
            value = change_words(value, lang)
        elif name in _CARD_VALUES + _ACTION_VALUES and isinstance(value, str):
            value = ", ".join(action_label(x.strip(), lang) for x in value.split(","))
        shown[name] = value
    return worded(Message(words.template, **shown), lang)
