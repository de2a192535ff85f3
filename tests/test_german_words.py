"""The table in German: the same flows as in English, in the words of the rule texts.

Driven through a real Table on a fake clock (menu, setup, a game's first roll) and the
history's text output; the JSON interfaces stay in the rules' own words.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller import i18n
from controller.cli import main
from controller.safekeeping import save_warning
from controller.scene import MenuItem
from controller.table import Table, TableOptions
from hardware.interfaces import ButtonEvent
from tests.history_games import table_game


@pytest.fixture(autouse=True)
def _german() -> object:
    i18n.use("de")
    yield None
    i18n.use("en")


def press(table: Table, seat: int | None, button: str) -> None:
    table.handle(ButtonEvent(seat, button, "down"), table.now)  # type: ignore[arg-type]


def test_menu_and_setup_speak_german_with_the_rule_texts_colours() -> None:
    menu = (MenuItem("maedn", "classic", "MÄDN"), MenuItem("backgammon", "single", "Backgammon"))
    table = Table(TableOptions(menu=menu, bot="random"))
    assert table.status().text == ("Menü: MÄDN (1 von 2) · WEITER: nächstes Spiel, OK: auswählen")
    press(table, 0, "ok")
    status = table.status()
    assert status.text.startswith("MÄDN: [Regeln: klassisch], rot Mensch, blau Computer, grün")
    assert status.text.endswith("gelb Computer, los · WEITER: nächster, OK: nächste Regeln")
    assert [look.label for look in status.seats] == [
        "rot · Mensch",
        "blau · Computer",
        "grün · Computer",
        "gelb · Computer",
    ]


def test_a_save_that_fails_says_so_in_german() -> None:
    assert (
        save_warning(OSError(28, "No space left on device")) == "nicht gespeichert: Speicher voll"
    )


def test_plural_forms_follow_the_count() -> None:
    assert i18n.ngettext("{n} move", "{n} moves", 1).format(n=1) == "1 Zug"
    assert i18n.ngettext("{n} move", "{n} moves", 3).format(n=3) == "3 Züge"
    assert i18n.ngettext("{n} finished game", "{n} finished games", 3).format(n=3) == (
        "3 beendete Spiele"
    )


def test_the_history_speaks_the_locales_language_and_its_json_stays_neutral(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table_game(tmp_path, "maedn", "classic", 2, 11).close()
    base = ["history", "--state-dir", str(tmp_path)]
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert main([*base, "stats"]) == 0
    german = capsys.readouterr().out
    assert "1 beendetes Spiel" in german and "Farbe" in german and "Spieler" in german
    assert main([*base, "list"]) == 0
    assert " Züge" in capsys.readouterr().out
    assert main([*base, "stats", "--json"]) == 0
    german_json = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main([*base, "stats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == german_json
    assert main([*base, "stats"]) == 0
    assert "1 finished game" in capsys.readouterr().out


def test_the_text_boards_speak_german() -> None:
    import rules
    from controller.text.board import legend, render_board

    state = rules.get_game("maedn", "classic").new_state(2)
    assert render_board(state).splitlines()[-1].startswith("Anfangswurf: ")
    assert legend("maedn").startswith("R B G Y Figuren (R rot, B blau, G grün, Y gelb)")
    bg = rules.get_game("backgammon", "single").new_state(2)
    assert "weiß (W) zieht 24 -> 1" in render_board(bg)


def test_the_backgammon_legend_names_the_tallest_stack_drawn() -> None:
    """The legend is a catalog text, so its number is written out: it must stay ROWS."""
    from controller.games.backgammon.text_board import BACKGAMMON_LEGEND, ROWS

    assert BACKGAMMON_LEGEND.endswith(f"more than {ROWS}")


def test_the_statistics_line_names_the_game_by_its_title_and_the_sides_as_drawn() -> None:
    from controller.machine import Mode
    from controller.scene import StatisticsPage, StatisticsScene
    from controller.status_line import describe

    page = StatisticsPage("backgammon", 3, (("white", 2), ("black", 1)))
    assert describe(Mode.STATISTICS, StatisticsScene((page,), 0, 0), None) == (
        "Statistik: Backgammon, die letzten 3 Spiele: orange 2, blau 1 · WEITER: nächstes "
        "Spiel, OK: zurück zum Menü"
    )
    i18n.use("en")
    assert describe(Mode.STATISTICS, StatisticsScene((page,), 0, 0), None).startswith(
        "statistics: Backgammon, last 3 games: orange 2, blue 1 · "
    )


def test_every_rule_set_has_its_own_words() -> None:
    """The rule sets' words are catalog texts written out one by one: none may be
    missing (a new match length, say), or the panel would show the preset's name."""
    import rules
    from controller.games import presentation

    for game in rules.game_names():
        words = presentation(game).preset_names
        if words:
            assert set(rules.presets(game)) <= set(words), game


def test_the_terminal_legend_and_the_setup_line_fit_an_80_column_terminal() -> None:
    """German words are longer: the key legend still takes two lines of 80 columns, and
    the setup line says what OK does without being cut."""
    from controller.sim.legend import legend_lines
    from controller.sim.terminal import wrap_status

    assert legend_lines(80) == [
        "Tasten OK/WEITER:  Platz 1 q/a  Platz 2 w/s  Platz 3 e/d  Platz 4 r/f  System x",
        "Umschalt+Taste: lange drücken  Strg+C: beenden",
    ]
    item = MenuItem("maedn", "classic", "Mensch ärgere dich nicht")
    table = Table(TableOptions(menu=(item,), bot="random"))
    press(table, 0, "ok")
    press(table, 0, "next")
    lines = wrap_status(table.status().text, 80)
    assert len(lines) == 2 and lines[-1].endswith("OK: Mensch/Computer/frei"), lines
