"""The interactive ``tally deal record``, ``tally rules``, ``tally deal import/edit/delete`` and
``tally audit undo`` speak German when the locale (or ``--lang``, for ``rules``) says so, and
stay English otherwise; the recorder's ``Refused:`` lines are worded as a command's refusal
(``tally: ...``, tests/i18n/test_errors.py): the engine's messages German, the store's English."""

from __future__ import annotations

import json
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import typer
from typer.testing import CliRunner

from tally.cli import app
from tests.store_support import DRAW_DEAL

GERMAN = {"LANG": "de_AT.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
ENGLISH = {"LANG": "C", "LC_ALL": "", "LC_MESSAGES": ""}

#: a short recording session: help at the turn-up, the turn-up, help, status, a refused
#: entry, a trick, undo, the trick again, a close with its tricks, a revoke asked about and
#: declined, then confirmed; the deal is ruled, a card played after it, and the scorer quits
SESSION = [
    "?",
    "QH",
    "help",
    "status",
    "XX",
    "KS AS",
    "undo",
    "AS",
    "close 10C 9D",
    "KD JC",
    "",
    "KD JC",
    "j",
    "AD",
    "quit",
]


def _run(url: str, env: dict[str, str], *args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(
        app,
        list(args),
        input=input,
        catch_exceptions=False,
        env={"TALLY_DB": url, "TALLY_SCORER": "test", **env},
    )
    assert result.exit_code == 0, result.output
    return result.stdout


def _match(tmp_path: Path, env: dict[str, str]) -> str:
    url = f"sqlite:///{tmp_path / 'tally.db'}"
    _run(url, env, "player", "add", "Anna", "Bert")
    _run(url, env, "match", "start", "Anna", "Bert", "--dealer", "Anna")
    return url


def _record(tmp_path: Path, env: dict[str, str]) -> str:
    url = _match(tmp_path, env)
    return _run(url, env, "deal", "record", "1", input="\n".join(SESSION) + "\n")


def test_the_recorder_speaks_german_in_a_german_locale(tmp_path: Path) -> None:
    out = _record(tmp_path, GERMAN)
    assert out.startswith(
        "Spiel 1.1: Anna gibt, Bert spielt aus. Atoutkarte? Die Atoutkarte eingeben (z. B. QH "
        "oder Herz Dame), status oder quit.\n"
        "Spiel 1.1: Anna gibt, Bert spielt aus. Atoutkarte? Spiel 1.1: Atoutkarte QH.\n"
        "[1.1 Stich 1] Bert spielt aus> Bert darf jetzt:\n"
        "  eine Karte spielen: 9C JC QC KC 10C AC 9D JD QD KD 10D AD 9H JH KH 10H AH 9S JS "
        "QS KS 10S AS\n"
        "  close: den Talon jetzt zudrehen, nach dem Ziehen (dann ausspielen)\n"
        "  66: 66 ansagen (66@Name: dieser Spieler sagt an)\n"
        "  melden und die Karte ausspielen: 20 QC, 20 KC, 20 QD, 20 KD, 20 QS, 20 KS\n"
        "  (die Karten in der Hand sind unbekannt: eine Karte kann später noch eine Verletzung "
        "des Farbzwangs beweisen)\n"
        "Außerdem: undo (die letzte Eingabe zurücknehmen), status (das Spiel bisher), help oder "
        "?, quit. Mehrere Eingaben in einer Zeile gehen auch: KS AS.\n"
        "[1.1 Stich 1] Bert spielt aus> Spiel 1.1: Anna gab, Bert spielte aus (Vorhand), "
        "Atoutkarte QH.\n  (noch nichts eingetragen)\nStich 1: Bert spielt aus.\n"
    )
    # a refusal is worded as a command's: the engine's message in German
    assert (
        "[1.1 Stich 1] Bert spielt aus> Abgelehnt: „XX“ ist keine Karte (Rang A 10 K Q J 9 "
        "und Farbe C D H S, oder deutsche Namen wie Herz König)\n"
    ) in out
    assert (
        "[1.1 Stich 1] Bert spielt aus> KS AS in Spiel 1.1 eingetragen.\nStich 2: Anna "
        "spielt aus.\n[1.1 Stich 2] Anna spielt aus> AS in Spiel 1.1 zurückgenommen.\n"
        "Stich 1: Anna gibt zu.\n[1.1 Stich 1] Anna gibt zu> AS in Spiel 1.1 eingetragen."
        "\n"
    ) in out
    careful = (
        "Vorsicht: „KD JC“ wäre ein Regelverstoß: Bert verletzte eine Regel (Farbzwang) "
        "in Stich 2: "
        "Bert gab 9D zu 10C zu, mit JC in der Hand; das Spiel endet: Anna gewinnt 3 "
        "Spielpunkte (regelwidriges Spiel). Nichts wurde eingetragen.\n"
        "Ist das am Tisch so passiert? Wie gespielt eintragen? [j/N] "
    )
    assert out.count(careful) == 2
    assert careful + "Nicht eingetragen; bitte richtig eingeben.\n" in out
    # "j" is yes: the revoke is recorded and rules the deal
    assert (
        careful
        + (
            "KD JC in Spiel 1.1 eingetragen.\nRegelverstoß in Stich 2: Bert "
            "verletzte eine Regel (Farbzwang)"
        )
        in out
    )
    assert "Spiel 1.1 entschieden: Anna gewinnt 3 Spielpunkte (regelwidriges Spiel)" in out
    assert (
        "AD in Spiel 1.1 eingetragen.\nSpiel 1.1 ist schon entschieden: Anna gewinnt 3 "
        "Spielpunkte (regelwidriges Spiel). Es kann noch weiter mitgeschrieben werden: "
        "Stich 4: Bert gibt zu.\n"
    ) in out
    assert out.endswith(
        "Das Spiel ist entschieden. Eintragen, was danach noch gespielt wurde, oder Enter für "
        "das nächste Spiel> \nBeendet; alles Bestätigte ist gespeichert. Weiter mit `tally "
        "deal record 1`.\n"
    )


def test_the_same_recording_session_in_english_is_unchanged(tmp_path: Path) -> None:
    out = _record(tmp_path, ENGLISH)
    assert out.startswith(
        "Deal 1.1: Anna deals, Bert leads. Turn-up? Type the turn-up card (e.g. QH, Herz Dame "
        "where accepted), status, or quit.\n"
        "Deal 1.1: Anna deals, Bert leads. Turn-up? Deal 1.1: turn-up QH.\n"
        "[1.1 trick 1] Bert to lead> Bert may now:\n"
        "  play a card: 9C JC QC KC 10C AC 9D JD QD KD 10D AD 9H JH KH 10H AH 9S JS QS KS 10S "
        "AS\n"
        "  close: close the stock now, after the draws (then lead)\n"
        "  66: claim 66 (66@Name: that player claims)\n"
        "  declare a marriage and lead that card: 20 QC, 20 KC, 20 QD, 20 KD, 20 QS, 20 KS\n"
        "  (cards held are unknown: a card may still prove a revoke later)\n"
        "Also: undo (take back the last entry), status (the deal so far), help or ?, quit. "
        "Several entries on one line are fine: KS AS.\n"
        "[1.1 trick 1] Bert to lead> Deal 1.1: Anna dealt, Bert led, turn-up QH.\n"
        "  (nothing recorded yet)\nTrick 1: Bert to lead.\n"
    )
    assert (
        '[1.1 trick 1] Bert to lead> Refused: "XX" is not a card (rank A 10 K Q J 9 and '
        "suit C D H S, or German names such as Herz König)\n"
    ) in out
    assert "[1.1 trick 2] Anna to lead> Undid AS in deal 1.1.\nTrick 1: Anna to follow.\n" in out
    careful = (
        'Careful: "KD JC" would record a violation: Bert broke follow-suit in trick 2: '
        "Bert played 9D to 10C while holding JC; the deal ends: Anna wins 3 game points "
        "(illegal play). Nothing was recorded.\nDid it happen at the table? Record it as "
        "played? [y/N] "
    )
    assert careful + "Not recorded; type the right entry.\n" in out
    assert careful + "Recorded KD JC in deal 1.1.\nViolation in trick 2" in out
    assert (
        "Recorded AD in deal 1.1.\nDeal 1.1 is ruled already: Anna wins 3 game points "
        "(illegal play). Play may still be recorded in it: Trick 4: Bert to follow.\n"
    ) in out
    assert out.endswith(
        "The deal is ruled. Record what was played after it, or Enter for the "
        "next deal> \nStopped; everything acknowledged is saved. Go on with "
        "`tally deal record 1`.\n"
    )
    assert not any(word in out for word in ("Spiel ", "Stich ", "Atout", "eingetragen"))


class _Typed:
    """Standard input typed line by line: ``before[n]`` runs just before line ``n`` is read
    (another scorer at work, Ctrl-C)."""

    def __init__(self, lines: list[str], before: dict[int, Callable[[], None]]) -> None:
        self.lines = lines
        self.before = before
        self.n = 0

    def readline(self) -> str:
        if self.n in self.before:
            self.before.pop(self.n)()
        if self.n >= len(self.lines):
            return ""
        self.n += 1
        return self.lines[self.n - 1] + "\n"


def _typed(
    url: str,
    typed: _Typed,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *args: str,
) -> tuple[int, str]:
    """Run ``tally ARGS`` in this process with ``typed`` as its standard input (the Typer
    app's own runner, without CliRunner, which takes its input whole): the exit status and
    what it printed."""
    for name, value in {"TALLY_DB": url, "TALLY_SCORER": "test", **GERMAN}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(sys, "stdin", typed)
    capsys.readouterr()
    code = typer.main.get_command(app).main(list(args), prog_name="tally", standalone_mode=False)
    return int(code or 0), capsys.readouterr().out


def test_a_ruling_in_a_few_words_is_the_stores_in_english_and_german_in_german() -> None:
    from tally.cli.lines import outcome_words
    from tally.i18n import use
    from tally.vocabulary import ruling_words

    for winner, points, reason in (
        ("Anna", 1, "claim"),
        ("Bert", 3, "illegal-play"),
        (None, 0, "draw"),
    ):
        deal = cast(Any, SimpleNamespace(winner=winner, game_points=points, reason=reason))
        with use("en"):
            # what the store says in its refusals (in English whatever the language)
            assert outcome_words(deal) == ruling_words(winner, points, reason, "en")
    with use("en"):
        assert (
            outcome_words(
                cast(Any, SimpleNamespace(winner="Bert", game_points=3, reason="illegal-play"))
            )
            == "Bert wins 3 game points (illegal play)"
        )  # the reason in words, not its identifier
    with use("de"):
        assert (
            outcome_words(cast(Any, SimpleNamespace(winner="Anna", game_points=1, reason="claim")))
            == "Anna gewinnt 1 Spielpunkt (Ansage)"
        )
        assert (
            outcome_words(cast(Any, SimpleNamespace(winner=None, game_points=0, reason="draw")))
            == "unentschieden (unentschieden)"
        )


def test_the_question_before_a_violation_is_the_stores_words_in_english(tmp_path: Path) -> None:
    """In English the recorder's warning is the store's refusal word for word, whether the
    violation decides the deal or an earlier one did; in German it is worded from its parts."""
    from tally.cli.lines import careful_line
    from tally.errors import ViolationNotConfirmed
    from tally.i18n import use
    from tally.store import open_store

    with open_store(f"sqlite:///{tmp_path / 'tally.db'}", scorer="test") as store:
        store.players.add("Anna")
        store.players.add("Bert")
        m = store.matches.start("Anna", "Bert", first_dealer="Anna")
        d = store.deals.start(m.id, "QH")
        store.deals.play(d.id, "KS AS close 10C 9D")
        refusals = []
        for entry in ("KD JC", "QS 9S 10S AC 9H JS"):  # Bert revokes; later he does again
            with pytest.raises(ViolationNotConfirmed) as caught:
                store.deals.play(d.id, entry)
            refusals.append(caught.value)
            if entry == "KD JC":
                store.deals.play(d.id, entry, as_played=True)
    assert [exc.decided for exc in refusals] == [True, False]
    with use("en"):
        for exc in refusals:
            assert careful_line(exc) == f"Careful: {exc}."
    with use("de"):
        assert careful_line(refusals[1]).startswith(
            "Vorsicht: „QS 9S 10S AC 9H JS“ wäre ein Regelverstoß: Bert verletzte eine Regel "
        )
        assert careful_line(refusals[1]).endswith(
            "; ein früherer Regelverstoß hat das Spiel schon entschieden: Anna gewinnt 3 "
            "Spielpunkte (regelwidriges Spiel). Nichts wurde eingetragen."
        )


def test_the_recorder_tells_in_german_that_someone_else_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tally.store import open_store

    url = _match(tmp_path, GERMAN)
    _run(url, GERMAN, "deal", "start", "1", "QH")

    def other_scorer() -> None:
        with open_store(url, scorer="other") as other:
            other.deals.play(1, "KS")

    typed = _Typed(["AS", "10C", "", "AS", "quit"], {0: other_scorer})
    code, out = _typed(url, typed, monkeypatch, capsys, "deal", "record", "1")
    assert code == 0
    assert out.startswith(
        "Spiel 1.1 geht weiter.\n[1.1 Stich 1] Bert spielt aus> Abgelehnt: Spiel 1.1 ist "
        "weitergegangen: jemand anderer hat KS in Stich 1 eingetragen; jetzt: Stich 1: Anna "
        "gibt zu (Stellung 1.1:1). Nichts wurde eingetragen.\n"
        "Jemand anderer schreibt dieses Bummerl mit. Enter drücken, um beim jetzigen Stand "
        "weiterzumachen (oder quit)> Nicht eingetragen: „10C“ wurde getippt, bevor die "
        "Änderung zu sehen war.\n"
    )
    assert "[1.1 Stich 1] Anna gibt zu> AS in Spiel 1.1 eingetragen.\n" in out


def test_ctrl_c_stops_the_recorder_in_german(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = _match(tmp_path, GERMAN)

    def ctrl_c() -> None:
        raise KeyboardInterrupt

    typed = _Typed(["QH", "KS"], {1: ctrl_c})
    code, out = _typed(url, typed, monkeypatch, capsys, "deal", "record", "1")
    assert code == 130
    assert out.endswith(
        "[1.1 Stich 1] Bert spielt aus> \nUnterbrochen; alles Bestätigte ist "
        "gespeichert. Weiter mit `tally deal record 1`.\n"
    )


def test_the_close_question_and_the_claim_prompt_in_german(tmp_path: Path) -> None:
    url = _match(tmp_path, GERMAN)
    out = _run(url, GERMAN, "deal", "record", "1", input="QH\nKS AS\nclose\nc\nquit\n")
    assert (
        "[1.1 Stich 2] Anna spielt aus> Jetzt zudrehen, nachdem beide gezogen haben (a), "
        "oder hat Anna gleich nach dem Stich zugedreht, bevor jemand zog (b)? [a/b] "
        "Nicht eingetragen: a (nach dem Ziehen) oder b (vor dem Ziehen) antworten.\n"
        "[1.1 Stich 2] Anna spielt aus> c\nAbgelehnt: "
    ) in out
    # a deal played out with no claim: a claim may still follow
    _run(url, GERMAN, "match", "start", "Anna", "Bert", "--dealer", "Bert")
    turn_up, tricks = DRAW_DEAL
    lines = [turn_up, *(" ".join(t.split()) for t in tricks.split("/")), "help", "", "quit"]
    out = _run(url, GERMAN, "deal", "record", "2", input="\n".join(lines) + "\n")
    assert (
        "Alle Stiche sind gespielt. Ansagen (66, 66@Name) oder Enter zum Weitermachen> "
        "Wer den Stich gemacht hat, darf jetzt:\n  66: 66 ansagen"
    ) in out
    assert out.endswith(
        "Alle Stiche sind gespielt. Ansagen (66, 66@Name) oder Enter zum "
        "Weitermachen> Spiel 2.2: Anna gibt, Bert spielt aus. Atoutkarte? \n"
        "Beendet; alles Bestätigte ist gespeichert. Weiter mit `tally deal "
        "record 2`.\n"
    )


def test_rules_in_german_by_the_locale_and_by_lang(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'none.db'}"
    german = _run(url, GERMAN, "rules", "schnapsen")
    assert german.startswith(
        "schnapsen: Schnapsen, wie in Österreich gespielt (20 Karten)\n"
        "  deck                  20             Karten im Spiel\n"
        "  hand                  5              Karten in jeder Hand\n"
    )
    assert (
        "  carry                 none           ein unentschiedenes Spiel erhöht das "
        "nächste entschiedene Spiel um einen Spielpunkt\n"
    ) in german
    assert (
        "  match_target          7              Spielpunkte, die ein Bummerl gewinnen\n" in german
    )
    assert _run(url, ENGLISH, "rules", "schnapsen", "--lang", "de") == german
    english = _run(url, GERMAN, "rules", "schnapsen", "--lang", "en")
    assert english == _run(url, ENGLISH, "rules", "schnapsen")
    assert english.startswith(
        "schnapsen: Schnapsen as played in Austria (20 cards)\n"
        "  deck                  20             cards in play\n"
    )
    assert "  match_target          7              game points that win a match\n" in english
    # JSON stays English and the same
    assert _run(url, GERMAN, "rules", "schnapsen", "--json") == _run(
        url, ENGLISH, "rules", "schnapsen", "--json"
    )
    # a rule set that cannot be read is refused in the language spoken too
    result = CliRunner().invoke(app, ["rules", "bauernschnapsen"], env=GERMAN)
    assert result.exit_code == 2
    assert result.stderr == (
        "tally: unbekannte Voreinstellung „bauernschnapsen“ "
        "(Voreinstellungen: sixty-six, schnapsen, pagat-66)\n"
    )
    result = CliRunner().invoke(app, ["rules", "bauernschnapsen", "--lang", "en"], env=GERMAN)
    assert result.exit_code == 2
    assert result.stderr == (
        'tally: unknown preset "bauernschnapsen" (presets: sixty-six, schnapsen, pagat-66)\n'
    )


def _corrections(tmp_path: Path, env: dict[str, str]) -> list[str]:
    """Import two deals, edit one without a change and one with, delete it, undo the
    delete: what each command printed."""
    url = _match(tmp_path, env)
    record = tmp_path / "claim.deal"
    record.write_text(
        '[Rules "sixty-six"]\n[Dealer "Anna"]\n[Forehand "Bert"]\n[Trump "AH"]\n\n'
        "1. QD 10H\n2. AS QS\n3. 40 KH 66\n",
        encoding="utf-8",
    )
    second = tmp_path / "second.deal"
    second.write_text(
        '[Rules "sixty-six"]\n[Dealer "Bert"]\n[Forehand "Anna"]\n[Trump "JS"]\n\n1. 10C AH\n',
        encoding="utf-8",
    )
    imported = _run(url, env, "deal", "import", "1", str(record), str(second))
    keep, change = (tmp_path / "keep.py", tmp_path / "change.py")
    for editor, script in ((keep, "pass"), (change, "text = text.replace('10C AH', '10C AC')")):
        editor.write_text(
            f"#!{sys.executable}\nimport sys\np = sys.argv[1]\n"
            f"text = open(p).read()\n{script}\nopen(p, 'w').write(text)\n"
        )
        editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    unchanged = _run(url, {**env, "EDITOR": str(keep)}, "deal", "edit", "1.2")
    saved = _run(url, {**env, "EDITOR": str(change)}, "deal", "edit", "1.2", "--yes")
    deleted = _run(url, env, "deal", "delete", "1.2")
    last = json.loads(_run(url, env, "audit", "--json"))[-1]["id"]
    undone = _run(url, env, "audit", "undo", str(last))
    return [imported, unchanged, saved, deleted, undone]


def test_deal_corrections_and_audit_undo_speak_german(tmp_path: Path) -> None:
    imported, unchanged, saved, deleted, undone = _corrections(tmp_path, GERMAN)
    path = tmp_path / "claim.deal"
    assert imported == (
        f"{path} als Spiel 1.1 (Spiel 1) importiert.\n"
        "  Spiel 1.1 entschieden: Anna gewinnt 3 Spielpunkte (Ansage): Anna sagte 66 richtig "
        "an, mit 67 Augen.\n"
        f"{tmp_path / 'second.deal'} als Spiel 1.2 (Spiel 2) importiert.\n"
        "Bummerl 1: Anna 3, Bert 0, gespielt auf 7.\n"
    )
    assert unchanged == "Keine Änderung.\n"
    assert saved == (
        "Stich 1: 10C AH, gemacht von Anna; nach der Berichtigung 10C AC, gemacht von Bert.\n"
        "Spiel 2 bleibt nicht fertig.\n"
        "Bummerl 1, Anna gegen Bert: der Stand bleibt 3:0.\n"
        "Spiel 1.2 gespeichert.\n"
    )
    assert deleted == "Spiel 1.2 (Spiel 2) gelöscht.\n"
    # the change is worded from the entry's template and values, in the command's language
    assert undone == "Eintrag 8: Eintrag 7 zurückgenommen: Spiel 2 gelöscht\n"


def test_deal_corrections_and_audit_undo_stay_english(tmp_path: Path) -> None:
    imported, unchanged, saved, deleted, undone = _corrections(tmp_path, ENGLISH)
    assert imported == (
        f"Imported {tmp_path / 'claim.deal'} as deal 1.1 (deal 1).\n"
        "  Deal 1.1 ruled: Anna wins 3 game points (claim): Anna claimed 66 correctly with 67 "
        "counted points.\n"
        f"Imported {tmp_path / 'second.deal'} as deal 1.2 (deal 2).\n"
        "Match 1: Anna 3, Bert 0, playing to 7.\n"
    )
    assert unchanged == "No change.\n"
    assert saved.endswith("Match 1, Anna v Bert: the score stays 3:0.\nSaved deal 1.2.\n")
    assert deleted == "Deleted deal 1.2 (deal 2).\n"
    assert undone == "Entry 8: Took back entry 7: Deal 2 deleted\n"
