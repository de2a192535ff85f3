"""What players met at the table and must never meet again: each test reproduces one
thing found by playing from a fresh clone (a stall, a wrong name, a lost step, ...)."""

from __future__ import annotations

import random

from PIL import Image

import rules
from controller.events import EventQueue
from controller.games import preset_name
from controller.loop import Loop
from controller.machine import Mode
from controller.scene import MenuItem, Scene, StatisticsPage, StatisticsScene
from controller.session import Session
from controller.sim.status import TableStatus
from controller.status_line import describe
from controller.table import Table, TableOptions
from controller.testing.clock import FakeClock
from controller.views import render
from hardware.build import build_display
from hardware.interfaces import ButtonEvent
from hardware.specs import DisplaySpec
from rules.bots import make_bot
from tests.test_table import press, run_until


def options(**kw: object) -> TableOptions:
    kw.setdefault("bot", "random")
    return TableOptions(**kw)  # type: ignore[arg-type]


def line(table: Table) -> str:
    return table.status().text


def test_two_player_mini_maki_rolls_the_blacks_dice_by_itself() -> None:
    """The dice are the blacks', in a duel as in the solitaire: after the human's move
    the table rolls them, nobody has to guess that seat 1 must press OK."""
    table = Table(options())
    session = Session.start("minimaki", "two_player", ["human", "bot"], seed=4)
    table.start_session(session)
    assert table.state is Mode.CHOOSE and not session.is_bot(session.player)
    press(table, session.seats[session.player or ""], "ok")  # red's start field
    run_until(table, lambda: table.state is not Mode.MOVING)
    assert table.state is Mode.AWAIT_ROLL
    assert table.next_wakeup() is not None, "the table waits for a press nobody is told of"
    run_until(table, lambda: table.state is Mode.ROLLING)
    assert not session.is_bot(session.player)  # still the human's game: it rolled itself


def finished(game: str, preset: str, kinds: list[str], seed: int) -> Table:
    """A table showing the end of a game played out by random moves."""
    session = Session.start(game, preset, kinds, seed=seed)
    bot = make_bot("random")
    rng = random.Random(seed)
    while not session.state.is_terminal():
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            session.play(bot.choose(session.state, rng))
    table = Table(options())
    table.start_session(session)
    assert table.state is Mode.GAME_OVER
    return table


def test_game_over_names_the_sides_as_the_panel_does() -> None:
    table = finished("backgammon", "single", ["human", "empty", "bot"], 3)
    session = table.session
    assert session is not None
    winner = session.state.winners()[0]
    said = "you win!" if session.kinds[winner] == "human" else "bot wins"
    assert line(table).startswith(said)
    assert "white" not in line(table) and "black" not in line(table)
    solo = finished("minimaki", "standard", ["human"], 5)
    assert solo.session is not None
    won = solo.session.state.winners()[:1] == ("red",)
    assert line(solo).startswith("you won!" if won else "you lost")
    duel = finished("minimaki", "two_player", ["human", "human"], 6)
    assert "player" not in line(duel)
    assert line(duel).split()[0] in ("orange", "blue")


def test_a_held_next_goes_to_the_other_piece() -> None:
    """Real buttons send "down" before "held": the held press lands on the next piece
    after the one shown when the press began, not back on it."""
    table = Table(options())
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [3, 12, "home", "home"], "green": ["home"] * 4},
        }
    )
    table.start_session(session)
    table.roll_now((2,))
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert [m.notation for m in table.choice.moves] == ["3-5", "12-14"]
    press(table, 0, "next", "down")
    press(table, 0, "next", "held")
    press(table, 0, "next", "up")
    assert table.choice.moves[table.choice.cursor].notation == "12-14"


class WordsDisplay:
    """luma's dummy panel that also takes the status line, as the simulator's do."""

    def __init__(self) -> None:
        self.inner = build_display(DisplaySpec(type="dummy", width=16, height=16))
        self.statuses: list[TableStatus] = []
        self.frames = 0

    width = property(lambda self: self.inner.width)
    height = property(lambda self: self.inner.height)
    mode = property(lambda self: self.inner.mode)

    def show(self, image: Image.Image) -> None:
        self.frames += 1
        self.inner.show(image)

    def show_status(self, status: TableStatus, draw: bool = True) -> None:
        self.statuses.append(status)

    def set_brightness(self, level: float) -> None:
        self.inner.set_brightness(level)

    def close(self) -> None:
        self.inner.close()


def test_the_status_follows_each_press_under_an_unchanged_frame() -> None:
    """At setup's "rules" entry the panel shows the word "rules" whatever rule set is
    chosen; each OK must still show the new rule set in the words at once."""
    clock = FakeClock()
    events = EventQueue()
    display = WordsDisplay()
    menu = (MenuItem("maedn", "classic", "Mensch ärgere dich nicht"),)
    table = Table(options(menu=menu))
    loop = Loop(table, events, display, render, clock=clock, status_view=display.show_status)
    loop.draw()
    events.put(ButtonEvent(0, "ok", "down", clock()))
    loop.step(timeout_cap=0)
    assert table.state is Mode.SETUP and table.menu.entry == -1
    for _ in range(5):
        clock.advance(0.45)
        events.put(ButtonEvent(0, "ok", "down", clock()))
        loop.step(timeout_cap=0)
        expected = f"[rules: {preset_name('maedn', table.menu.preset)}"
        shown = display.statuses[-1].text if display.statuses else ""
        assert expected.lower() in shown.lower(), (table.menu.preset, shown)


def test_a_mini_maki_hint_never_shows_in_the_next_game() -> None:
    table = Table(options())
    mini = Session.start("minimaki", "standard", ["human"], seed=3)
    table.start_session(mini)
    assert table.state is Mode.CHOOSE and table.bots.hint is not None
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    press(table, 0, "ok")  # back to the menu: yes
    assert table.state is Mode.MENU
    game = Session.start("backgammon", "single", ["bot", "empty", "human"], seed=2)
    game.state = game.state.roll([6, 4])  # white (the bot) begins
    table.start_session(game)
    assert table.state is Mode.CHOOSE and game.is_bot(game.player)
    scene = table.scene()
    assert isinstance(scene, Scene) and scene.hint is None
    assert "best:" not in line(table)


def test_a_resumed_game_shows_its_dice_and_the_steps_already_fixed() -> None:
    table = Table(options())
    session = Session.start("backgammon", "money", ["human", "empty", "human"], seed=2)
    session.roll((6, 4))  # the opening throw, as the table records it
    table.start_session(session)
    seat = session.seats[session.player or ""]
    press(table, seat, "ok")  # the first step is fixed
    fixed = table.choice.played
    assert len(fixed) == 1
    resumed = Session.from_json(session.to_json())  # what the save holds
    again = Table(options())
    again.start_session(resumed)
    scene = again.scene()
    assert isinstance(scene, Scene) and scene.dice == (6, 4)
    assert scene.entry is not None and scene.entry.played == fixed
    assert "6 4 — fixed" in line(again)


def test_setup_goes_back_to_the_menu_with_the_system_button() -> None:
    table = Table(options())
    press(table, 0, "ok")
    assert table.state is Mode.SETUP
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    press(table, None, "system", "up")
    assert table.state is Mode.MENU
    press(table, 0, "ok")
    press(table, None, "system", "down")
    press(table, None, "system", "up")  # a tap
    assert table.state is Mode.MENU


def test_the_opening_roll_is_put_into_words() -> None:
    table = Table(options())
    session = Session.start("backgammon", "single", ["human", "empty", "human"], seed=2)
    table.start_session(session)
    assert table.state is Mode.AWAIT_ROLL
    table.roll_now((6, 4))
    assert table.state is Mode.ROLLING
    assert line(table) == "opening roll: orange 6, blue 4: orange begins"


def test_a_capture_says_whose_piece_is_hit() -> None:
    table = Table(options())
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": [3, "home", "home", "home"], "green": [5, "home", "home", "home"]},
        }
    )
    table.start_session(session)
    table.roll_now((2,))
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert "piece on 3 → 5, captures green" in line(table)


def test_one_finished_game_is_the_last_game() -> None:
    scene = StatisticsScene((StatisticsPage("Backgammon", 1, (("orange", 1), ("blue", 0))),), 0, 0)
    assert describe(Mode.STATISTICS, scene, None).startswith(
        "statistics: Backgammon, the last game: orange 1, blue 0"
    )


def test_physical_dice_show_the_value_counted_so_far() -> None:
    table = Table(options(physical_dice=True))
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.get_game("maedn", "classic").new_state(2, first="red")
    table.start_session(session)
    assert table.state is Mode.AWAIT_ROLL
    press(table, 0, "next")
    press(table, 0, "next")
    assert line(table).endswith("· die 1: 3")
