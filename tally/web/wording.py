"""The web's words for the store's refusals that speak to the command line: a refusal that
advises ``tally audit undo 12`` or names ``--rounds N`` says, on a page, where in the
director's pages to do it or which field of the form is meant (:func:`web_words`, which
:func:`tally.web.app.refusal` applies to every refusal shown on a page)."""

from __future__ import annotations

import re

from tally.events.formats import every_option

#: the form's name of each option the store's refusals name: the formats' options by their
#: flag (:mod:`tally.events.formats.options`), then the others
FIELDS = {
    **{o.option[2:]: o.label for o in every_option().values()},
    "bye": "A bye",
    "kind": "Kind",
    "points-per-win": "Match points per win",
    "winner": "Winner",
    "dealer": "First dealer",
}
#: where on the pages to do what each command does (the command's first words), to follow
#: "with", "use" or stand as the subject of a sentence
COMMANDS = (
    ("tally audit undo", "reversing the change on the Changes page"),
    ("tally deal edit", "on the match's page"),
    ("tally deal delete", "on the match's page"),
    ("tally event withdraw", "on the event's page"),
    ("tally event round", "on the event's page"),
    ("tally match start", "on the event's page"),
    ("tally player merge", "ask the club's scorer to merge the two players"),
    ("tally player add", "a new name on the event's page"),
)
_PARENTHESIS = re.compile(r"\s*\([^()]*`tally [^`]*`[^()]*\)")
_COMMAND = re.compile(r"(?:\b(?:with|use) )?`(tally [^`]*)`")
_OPTION = re.compile(r"(\()?--([a-z][a-z-]*)(?: [A-Z]\b| (none|win|groups|knockout))?(\))?")


def _command(found: re.Match[str]) -> str:
    text = found[1]
    return next(
        (say for command, say in COMMANDS if text.startswith(command)), "ask the club's scorer"
    )


def _option(found: re.Match[str]) -> str:
    if found[2] not in FIELDS:  # not an option of the pages' forms: left as it is
        return found[0]
    name = f'"{FIELDS.get(found[2], found[2])}"' + (f": {found[3]}" if found[3] else "")
    return f"(the field {name})" if found[1] and found[4] else name


def web_words(text: str) -> str:
    """A refusal as a page says it: command-line advice in parentheses left out, any other
    command replaced by where to do it in the director's pages, an option named by its field.

    >>> web_words("audit entry 3 was reversed (`tally audit undo 4` takes it back)")
    'audit entry 3 was reversed'
    >>> web_words("only the last deal can be deleted (correct this one with `tally deal "
    ...           "edit 7`)")
    'only the last deal can be deleted'
    >>> web_words("groups then knockout needs --groups G and --advance K")
    'groups then knockout needs "Groups" and "Going through"'
    >>> web_words("a Swiss event plays 1 to 99 rounds: give their number (--rounds N)")
    'a Swiss event plays 1 to 99 rounds: give their number (the field "Rounds")'
    >>> web_words("a bye in a group scores nothing (--bye none)")
    'a bye in a group scores nothing (the field "A bye": none)'
    >>> web_words("it cannot be deleted: `tally audit undo 7` takes the round back; a deal "
    ...           "is corrected with `tally deal edit` or `tally deal delete`")
    "it cannot be deleted: reversing the change on the Changes page takes the round back; \
a deal is corrected on the match's page"
    >>> web_words("Anna--Maria --db x")
    'Anna--Maria --db x'
    >>> web_words("to make them one, use `tally player merge`")
    "to make them one, ask the club's scorer to merge the two players"
    """
    text = _PARENTHESIS.sub("", text)
    text = _COMMAND.sub(_command, text)
    for _, say in COMMANDS:  # two commands done in one place: said once
        text = text.replace(f"{say} or {say}", say)
    return _OPTION.sub(_option, text)
