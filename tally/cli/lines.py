"""What the scorer is told: the lines ``tally deal`` and ``tally match`` print about a deal,
its ruling and the score.

No Typer here: these are plain words, for any command that tells a scorer about a deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from tally.errors import Message
from tally.i18n import N_

if TYPE_CHECKING:
    from tally.errors import ViolationNotConfirmed
    from tally.store.views import DealView, MatchView, PlayResult


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game point``, ``2 game points``; ``words`` is the plural when not ``word + "s"``."""
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def score_line(match: MatchView) -> str:
    """``Anna 3, Bert 5`` with the carry, and who deals next or who won (in the current
    language, :func:`tally.i18n.use`)."""
    from tally.i18n import gettext as _

    a, b = match.players
    text = f"{a} {match.score[a]}, {b} {match.score[b]}"
    if match.carry:
        text += _(" (carry %(carry)s)") % {"carry": match.carry}
    if match.over:
        return _("Match %(id)s is over: %(winner)s wins, %(score)s.") % {
            "id": match.id,
            "winner": match.winner,
            "score": text,
        }
    line = _("Match %(id)s: %(score)s, playing to %(target)s.") % {
        "id": match.id,
        "score": text,
        "target": match.target,
    }
    if match.current_deal is None:
        line += _(" Next deal: %(dealer)s deals.") % {"dealer": match.next_dealer}
    return line


def ruling_line(deal: DealView) -> str:
    """The ruling of a finished deal in a sentence."""
    from tally.i18n import gettext as _
    from tally.i18n import ngettext
    from tally.vocabulary import message_words, spoken

    name = _("Deal %(match)s.%(number)s") % {"match": deal.match_id, "number": deal.number}
    if deal.winner is None:
        carry = (
            _("; carry %(carry)s to the next deal") % {"carry": deal.carry_out}
            if deal.carry_out
            else ""
        )
        return _("%(name)s ruled: drawn (%(why)s)%(carry)s.") % {
            "name": name,
            "why": message_words(deal.wording),
            "carry": carry,
        }
    carried = _(", %(n)s of them carried in") % {"n": deal.carry_in} if deal.carry_in else ""
    points = ngettext("%(n)s game point", "%(n)s game points", deal.game_points) % {
        "n": deal.game_points
    }
    return _("%(name)s ruled: %(winner)s wins %(points)s%(carried)s (%(reason)s): %(why)s.") % {
        "name": name,
        "winner": deal.winner,
        "points": points,
        "carried": carried,
        "reason": spoken(deal.reason),
        "why": message_words(deal.wording),
    }


def outcome_words(deal: DealView) -> str:
    """A deal's ruling in a few words, in the current language: ``Anna wins 3 game points
    (illegal play)``, ``drawn (draw)`` (:func:`tally.vocabulary.ruling_words`, as the store
    says it in its refusals)."""
    from tally.vocabulary import ruling_words

    return ruling_words(deal.winner, deal.game_points, deal.reason)


#: The recorder's words before its question about a violation, around the store's refusal.
CAREFUL: Final = N_("Careful: %(message)s.")


def careful_line(exc: ViolationNotConfirmed) -> str:
    """What ``tally deal record`` says before it asks whether a violation happened at the
    table: the store's refusal in the current language (``Careful: "KD JC" would record a
    violation: Bert broke follow-suit in trick 2: ...; the deal ends: Anna wins 3 game points
    (illegal play). Nothing was recorded.``)."""
    from tally.i18n import current, worded

    return worded(Message(CAREFUL, message=exc.wording), current())


def counted_line(deal: DealView) -> str | None:
    """Counted points and tricks, when the view carries them (a finished deal, a referee)."""
    from tally.i18n import gettext as _

    if deal.points is None:
        return None
    pts = ", ".join(f"{n} {p}" for n, p in deal.points.items())
    tricks = ", ".join(f"{n} {k}" for n, k in deal.tricks.items())
    return _("Counted points: %(points)s. Tricks: %(tricks)s.") % {"points": pts, "tricks": tricks}


def turn_line(deal: DealView) -> str:
    """Whose turn it is: ``Trick 3: Bert to lead.``"""
    from tally.i18n import gettext as _

    if deal.to_move is None:
        return _("Deal %(match)s.%(number)s is over.") % {
            "match": deal.match_id,
            "number": deal.number,
        }
    if deal.to_move_as == "lead":
        return _("Trick %(trick)s: %(player)s to lead.") % {
            "trick": deal.trick,
            "player": deal.to_move,
        }
    if deal.to_move_as == "follow":
        return _("Trick %(trick)s: %(player)s to follow.") % {
            "trick": deal.trick,
            "player": deal.to_move,
        }
    return f"Trick {deal.trick}: {deal.to_move} to {deal.to_move_as}."


def describe_play(result: PlayResult, *, referee: bool, undo: bool = False) -> list[str]:
    """What recording (or undoing) told the table, line by line.

    Every entry gets its line, also after a violation decided the deal; once the deal is
    over (a claim, the last trick) its ruling is printed, even when an earlier violation had
    decided it already.
    """
    from tally.i18n import gettext as _
    from tally.vocabulary import message_words, word

    d = result.deal
    where = {"tokens": " ".join(result.tokens), "match": d.match_id, "number": d.number}
    out = [
        _("Undid %(tokens)s in deal %(match)s.%(number)s.") % where
        if undo
        else _("Recorded %(tokens)s in deal %(match)s.%(number)s.") % where
    ]
    for v in result.new_violations:
        out.append(
            _("Violation in trick %(trick)s: %(player)s broke %(rule)s: %(message)s.")
            % {
                "trick": v.trick,
                "player": v.player,
                "rule": word(v.rule),
                "message": message_words(v.wording),
            }
        )
    if d.finished and (result.ruling_changed or d.to_move is None):
        out.append(ruling_line(d))
        counted = counted_line(d)
        if counted:
            out.append(counted)
        out.append(score_line(result.match))
        if d.claimable:
            out.append(_("Every trick is played: a claim may still follow (66 or 66@Name)."))
        elif d.to_move is not None:
            out.append(
                _("The deal is ruled; play may still be recorded in it (%(turn)s)")
                % {"turn": turn_line(d)}
            )
        return out
    if d.finished and d.to_move is not None:
        out.append(
            _(
                "Deal %(match)s.%(number)s is ruled already: %(ruling)s. "
                "Play may still be recorded in it: %(turn)s"
            )
            % {
                "match": d.match_id,
                "number": d.number,
                "ruling": outcome_words(d),
                "turn": turn_line(d),
            }
        )
        return out
    if d.to_move is not None:
        out.append(turn_line(d))
    if referee and d.points is not None and d.to_move is not None:
        pts = ", ".join(f"{n} {p}" for n, p in d.points.items())
        out.append(_("Counted points (for the referee): %(points)s.") % {"points": pts})
    return out


def position_line(position: str) -> str:
    """The last line of ``tally deal start/play/undo``: where the deal stands, to pass back
    with ``--at`` so that an entry is refused if someone else recorded in between."""
    from tally.i18n import gettext as _

    return _("Position: %(position)s") % {"position": position}
