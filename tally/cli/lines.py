"""What the scorer is told: the lines ``tally deal`` and ``tally match`` print about a deal,
its ruling and the score.

No Typer here: the plain path of ``tally deal play`` (:mod:`tally.cli.quickplay`) prints with
these lines too, so both paths say the same words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
            "id": match.id, "winner": match.winner, "score": text}
    line = _("Match %(id)s: %(score)s, playing to %(target)s.") % {
        "id": match.id, "score": text, "target": match.target}
    if match.current_deal is None:
        line += _(" Next deal: %(dealer)s deals.") % {"dealer": match.next_dealer}
    return line


def ruling_line(deal: DealView) -> str:
    """The ruling of a finished deal in a sentence."""
    name = f"Deal {deal.match_id}.{deal.number}"
    if deal.winner is None:
        carry = f"; carry {deal.carry_out} to the next deal" if deal.carry_out else ""
        return f"{name} ruled: drawn ({deal.explanation}){carry}."
    carried = f", {deal.carry_in} of them carried in" if deal.carry_in else ""
    return (f"{name} ruled: {deal.winner} wins {plural(deal.game_points, 'game point')}"
            f"{carried} ({deal.reason}): {deal.explanation}.")


def counted_line(deal: DealView) -> str | None:
    """Counted points and tricks, when the view carries them (a finished deal, a referee)."""
    if deal.points is None:
        return None
    pts = ", ".join(f"{n} {p}" for n, p in deal.points.items())
    tricks = ", ".join(f"{n} {k}" for n, k in deal.tricks.items())
    return f"Counted points: {pts}. Tricks: {tricks}."


def turn_line(deal: DealView) -> str:
    """Whose turn it is: ``Trick 3: Bert to lead.``"""
    if deal.to_move is None:
        return f"Deal {deal.match_id}.{deal.number} is over."
    return f"Trick {deal.trick}: {deal.to_move} to {deal.to_move_as}."


def describe_play(result: PlayResult, *, referee: bool, undo: bool = False) -> list[str]:
    """What recording (or undoing) told the table, line by line.

    Every entry gets its line, also after a violation decided the deal; once the deal is
    over (a claim, the last trick) its ruling is printed, even when an earlier violation had
    decided it already.
    """
    d = result.deal
    tokens = " ".join(result.tokens)
    out = [f"Undid {tokens} in deal {d.match_id}.{d.number}." if undo
           else f"Recorded {tokens} in deal {d.match_id}.{d.number}."]
    for v in result.new_violations:
        out.append(f"Violation in trick {v.trick}: {v.player} broke {v.rule}: {v.message}.")
    if d.finished and (result.ruling_changed or d.to_move is None):
        out.append(ruling_line(d))
        counted = counted_line(d)
        if counted:
            out.append(counted)
        out.append(score_line(result.match))
        if d.claimable:
            out.append("Every trick is played: a claim may still follow (66 or 66@Name).")
        elif d.to_move is not None:
            out.append(f"The deal is ruled; play may still be recorded in it ({turn_line(d)})")
        return out
    if d.finished and d.to_move is not None:
        from tally.store.recording import ruling_words

        out.append(f"Deal {d.match_id}.{d.number} is ruled already: {ruling_words(d)}. "
                   f"Play may still be recorded in it: {turn_line(d)}")
        return out
    if d.to_move is not None:
        out.append(turn_line(d))
    if referee and d.points is not None and d.to_move is not None:
        pts = ", ".join(f"{n} {p}" for n, p in d.points.items())
        out.append(f"Counted points (for the referee): {pts}.")
    return out


def position_line(position: str) -> str:
    """The last line of ``tally deal start/play/undo``: where the deal stands, to pass back
    with ``--at`` so that an entry is refused if someone else recorded in between."""
    return f"Position: {position}"
