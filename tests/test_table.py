"""The table logic (the machine's model) driven with a fake clock: menus, turns, bots,
controls, timers and the system button. No threads, no sleeping."""

from __future__ import annotations

import pytest

import rules
from controller.events import EventQueue
from controller.machine import Mode, mermaid
from controller.scene import MenuItem, Scene
from controller.session import Session
from controller.table import Table, TableOptions
from controller.table.effects import Save
from controller.views.overlay import banner_seconds
from hardware.interfaces import ButtonEvent
from rules import PASS


def press(table: Table, seat: int | None, button: str, kind: str = "down") -> None:
    table.handle(ButtonEvent(seat, button, kind), table.now)  # type: ignore[arg-type]


def run_until(table: Table, done: object, limit: float = 100_000.0) -> None:
    """Advance the fake clock from deadline to deadline until ``done()`` is true."""
    while not done():  # type: ignore[operator]
        wake = table.next_wakeup()
        assert wake is not None, f"stuck in {table.state} with nothing scheduled"
        assert wake < limit, "did not finish in time"
        table.tick(max(wake, table.now))


def options(**kw: object) -> TableOptions:
    menu = (
        MenuItem("maedn", "classic", "Mensch ärgere dich nicht"),
        MenuItem("kleiner_aerger", "standard", "Kleiner Ärger"),
    )
    kw.setdefault("bot", "random")
    return TableOptions(menu=menu, **kw)  # type: ignore[arg-type]


def test_menu_setup_and_a_whole_bot_game() -> None:
    table = Table(options())
    assert table.state is Mode.MENU
    press(table, 0, "next")
    assert table.menu.index == 1
    press(table, 0, "next")
    press(table, 0, "ok")
    assert table.state is Mode.SETUP
    assert table.menu.kinds == ["human", "bot", "bot", "bot"]
    assert table.menu.entry == -1  # MÄDN has several rule sets: they come first
    press(table, 0, "next")
    press(table, 0, "ok")  # seat 0: human -> bot
    assert table.menu.kinds[0] == "bot"
    for _ in range(4):
        press(table, 0, "next")
    assert table.menu.entry == 4  # "start"
    press(table, 0, "ok")
    assert table.session is not None and table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    assert table.session.state.is_terminal()
    saves = [e for e in table.outbox.waiting if isinstance(e, Save)]  # the loop takes them
    assert len(saves) > 100, "saved after every roll and move"
    press(table, 2, "ok")
    assert table.state is Mode.MENU


def human_game(preset: str = "classic", **kw: object) -> Table:
    table = Table(options(**kw))
    session = Session.start("maedn", preset, ["human", "bot", "human", "bot"], seed=5)
    session.state = rules.get_game("maedn", preset).new_state(4, first="red")  # no opening
    table.start_session(session)
    return table


def test_only_the_seat_on_turn_acts() -> None:
    table = human_game()
    session = table.session
    assert session is not None
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL and not session.is_bot(session.player))
    seat = session.seats[session.player or ""]
    other = (seat + 1) % 4
    before = session.state
    press(table, other, "ok")
    assert session.state == before and table.ignored_presses == 1
    press(table, seat, "ok")
    assert table.state is Mode.ROLLING


def test_next_cycles_legal_moves_with_preview_and_ok_commits() -> None:
    table = Table(options())
    state = {
        "game": "maedn",
        "preset": "classic",
        "players": ["red", "green"],
        "turn": "red",
        "pieces": {"red": [3, 12, 25, "home"], "green": ["home"] * 4},
    }
    session = Session.start("maedn", "classic", ["human", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(state)
    table.start_session(session)
    assert table.state is Mode.AWAIT_ROLL
    table.roll_now((2,))
    run_until(table, lambda: table.state is Mode.CHOOSE)
    scene = table.scene()
    assert isinstance(scene, Scene)
    seen = [scene.preview.notation if scene.preview else None]
    for _ in range(2):
        press(table, 0, "next")
        preview = table.scene().preview  # type: ignore[union-attr]
        seen.append(preview.notation if preview else None)
    assert seen == ["3-5", "12-14", "25-27"]
    press(table, 0, "ok")
    assert table.state is Mode.MOVING
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL)
    assert 27 in session.state.to_json()["pieces"]["red"]


def test_forced_pass_plays_itself_after_a_preview() -> None:
    table = human_game()
    session = table.session
    assert session is not None
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL and not session.is_bot(session.player))
    table.roll_now((3,))  # everybody at home: a 3 can only pass
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert table.choice.moves == (PASS,)
    assert table.time.action_at is not None and table.time.action_at > table.now
    run_until(table, lambda: table.state is not Mode.CHOOSE)


def test_lingo_move_timer_counts_down_and_passes_on_expiry() -> None:
    table = human_game("lingo")
    session = table.session
    assert session is not None
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL and not session.is_bot(session.player))
    player = session.player
    table.roll_now((6,))
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert len(table.choice.moves) == 2  # enter or pass
    scene = table.scene()
    assert isinstance(scene, Scene) and scene.countdown == pytest.approx(5.0)
    table.tick(table.now + 2.0)
    assert table.scene().countdown == pytest.approx(3.0)  # type: ignore[union-attr]
    run_until(table, lambda: table.state is not Mode.CHOOSE)
    assert session.history[-1] == {"player": player, "move": "pass"}


def test_system_button_long_press_asks_then_returns_to_menu() -> None:
    table = human_game()
    run_until(table, lambda: table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE))
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    assert table.state is Mode.CONFIRM_MENU
    press(table, 1, "next")  # any seat: NEXT returns to the game
    assert table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE, Mode.ROLLING, Mode.MOVING)
    press(table, None, "system", "up")
    run_until(table, lambda: table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE))
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    press(table, 3, "ok")
    assert table.state is Mode.MENU and table.session is None


def test_very_long_system_press_shuts_down() -> None:
    calls: list[str] = []
    table = Table(options(shutdown_hold_s=6.0), poweroff=lambda: calls.append("off"))
    press(table, None, "system", "down")
    table.tick(table.now + 5.9)
    assert table.state is Mode.MENU
    run_until(table, lambda: table.state is Mode.SHUTDOWN)
    assert calls == ["off"] and table.stop_requested


def test_physical_dice_entry() -> None:
    table = human_game(physical_dice=True)
    session = table.session
    assert session is not None
    run_until(table, lambda: table.state is Mode.AWAIT_ROLL and not session.is_bot(session.player))
    seat = session.seats[session.player or ""]
    for _ in range(7):  # the entry starts at 1: 2, 3, 4, 5, 6, 1, 2
        press(table, seat, "next")
    press(table, seat, "ok")
    assert session.history[-1]["dice"] == [2]


def test_queue_overflow_drops_oldest_button_event_and_counts() -> None:
    from controller.events import ShutdownEvent

    queue = EventQueue(maxsize=3)
    queue.put(ShutdownEvent())
    for seat in range(4):
        queue.put(ButtonEvent(seat, "ok", "down"))
    assert queue.dropped == 2
    items = [queue.get(0) for _ in range(3)]
    assert isinstance(items[0], ShutdownEvent)
    assert [e.seat for e in items[1:]] == [2, 3]  # type: ignore[union-attr]
    assert queue.get(0) is None


def test_machine_diagram_is_mermaid() -> None:
    text = mermaid()
    assert "stateDiagram" in text and "AWAIT_ROLL" in text and "commit" in text


def test_architecture_page_shows_the_current_machine_diagram() -> None:
    """The diagram in docs/architecture.md is regenerated from the table, not drawn by hand."""
    from pathlib import Path

    page = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
    text = page.read_text(encoding="utf-8")
    for line in mermaid().splitlines():
        if "-->" in line:
            assert line.strip() in text, line


def test_architecture_page_shows_what_each_press_does() -> None:
    """The buttons' table in docs/architecture.md is the machine's, row for row."""
    from pathlib import Path

    from controller.machine import button_table

    page = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
    assert button_table() in page.read_text(encoding="utf-8")


def test_a_press_a_state_does_not_list_is_harmless() -> None:
    table = Table(options())
    press(table, 0, "next", "held")  # the menu has no held NEXT
    assert table.state is Mode.MENU and table.ignored_presses == 1


def test_mini_maki_hint_lights_reds_best_step() -> None:
    """The controller can light red's best step (the exact optimal policy)."""
    from rules.bots import make_bot

    table = Table(options())
    session = Session.start("minimaki", "standard", ["human"], seed=3)
    table.start_session(session)
    assert table.state is Mode.CHOOSE  # red chooses its start column first
    scene = table.scene()
    assert isinstance(scene, Scene) and scene.hint is not None
    import random

    best = make_bot("strong").choose(session.state, random.Random(0))  # hints use seed 0
    assert scene.hint == best and best in session.state.legal_moves()
    table.options.hints = False
    table.bots.ask_hint(session, table.options.hints)
    assert table.scene().hint is None  # type: ignore[union-attr]


def backgammon_table() -> tuple[Table, Session]:
    """A money game where white won the opening roll with 6-4 and must play it."""
    table = Table(options())
    session = Session.start("backgammon", "money", ["human", "empty", "human"], seed=2)
    session.state = session.state.roll([6, 4])
    table.start_session(session)
    return table, session


def test_backgammon_is_entered_checker_by_checker_and_animates_per_die() -> None:
    """NEXT cycles the checkers that can move with the larger die (the bar and the
    farthest first), then those that can move with the other die; a held NEXT jumps
    to the other die; OK fixes a step, and the play commits once complete."""
    table, session = backgammon_table()
    assert table.state is Mode.CHOOSE and table.choice.checkers is not None
    seat = session.seats[session.player or ""]
    sixes = [(23, 17, False), (12, 6, False), (7, 1, False)]  # 24/18 13/7 8/2
    fours = [(23, 19, False), (12, 8, False), (7, 3, False), (5, 1, False)]
    assert list(table.choice.steps) == sixes + fours
    press(table, seat, "next", "held")
    assert table.choice.steps[table.choice.cursor] == fours[0]
    press(table, seat, "next", "held")
    assert table.choice.cursor == 0
    press(table, seat, "next")
    entry = table.scene().entry  # type: ignore[union-attr]
    assert entry is not None and entry.step == sixes[1] and entry.played == ()
    press(table, seat, "ok")  # 13/7 fixed; now only the 4 is left
    assert table.state is Mode.CHOOSE and table.choice.played == (sixes[1],)
    assert all(step[0] - step[1] == 4 for step in table.choice.steps)
    assert (6, 2, False) in table.choice.steps  # the checker just moved may go on: 7/3
    table.choice.cursor = list(table.choice.steps).index((23, 19, False))
    press(table, seat, "ok")
    assert table.state is Mode.MOVING
    assert session.history[-1]["move"] == "24/20 13/7"
    assert table.motion.moving is not None  # it animates in the order entered
    assert table.motion.moving[0].steps == (sixes[1], (23, 19, False))  # type: ignore[attr-defined]
    assert table.motion.length == pytest.approx(2 * table.options.checker_step_time_s)


def test_backgammon_roll_action_throws_at_once() -> None:
    """Cube actions come at the start of a turn; choosing "roll" throws in one press."""
    table, session = backgammon_table()
    while table.state is Mode.CHOOSE:  # white plays its first 6-4 play, step by step
        press(table, session.seats["white"], "ok")
    run_until(
        table, lambda: table.state is Mode.CHOOSE and session.state.to_json()["turn"] == "black"
    )
    notes = [m.notation for m in table.choice.moves]
    if "roll" not in notes:  # money game, cube centred: black may double or roll
        pytest.skip(f"no cube decision offered: {notes}")
    table.choice.cursor = notes.index("roll")
    press(table, session.seats["black"], "ok")
    assert table.state is Mode.ROLLING
    assert "dice" in session.history[-1]


def backgammon_position(
    preset: str, seats: list[str], position: dict[str, object], **kw: object
) -> tuple[Table, Session]:
    """A table that starts at a Backgammon position given as state JSON fields."""
    table = Table(options(**kw))
    session = Session.start("backgammon", preset, seats, seed=3)
    data = {"game": "backgammon", "preset": preset, **position}
    session.state = rules.get_game("backgammon", preset).state_from_json(data)
    table.start_session(session)
    return table, session


def test_a_bot_doubles_and_the_human_answers_with_take_or_drop() -> None:
    """The strong bot turns the cube in a bear-off race it leads (48 pips against 62,
    on roll: about 85 %), and the human seat then chooses between take and drop."""
    table, session = backgammon_position(
        "money",
        ["bot", "empty", "human"],
        {
            "turn": "white",
            "phase": "double",
            "points": {
                "white": [3, 3, 3, 2, 2, 2] + [0] * 18,
                "black": [1, 2, 2, 3, 3, 4] + [0] * 18,
            },
        },
        bot="strong",
    )
    run_until(table, lambda: session.state.to_json()["phase"] != "double")
    assert session.history[-1]["move"] == "double"
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert session.state.to_json()["phase"] == "take"
    assert sorted(m.notation for m in table.choice.moves) == ["drop", "take"]
    table.choice.cursor = [m.notation for m in table.choice.moves].index("take")
    press(table, session.seats["black"], "ok")
    assert session.state.to_json()["cube"] == 2


def test_a_game_of_a_match_ends_with_the_score_on_a_banner() -> None:
    """In a match the next game starts at once; the table flashes who scored what."""
    table, session = backgammon_position(
        "match5",
        ["human", "empty", "human"],
        {
            "turn": "white",
            "phase": "move",
            "dice": [6, 1],
            "points": {"white": [1] + [0] * 23, "black": [0] * 18 + [15] + [0] * 5},
            "score": {"white": 1, "black": 0},
        },
    )
    assert table.state is Mode.CHOOSE
    press(table, session.seats["white"], "ok")  # 1/off: the only play
    # Black has all 15 checkers in white's home board: a backgammon, 3 points. The
    # panel names white by the colour it is drawn in.
    assert table.banner.text == "orange +3  4:0  Crawford"
    # up for one whole pass of its words at the panel's size (and the configured least)
    one_pass = banner_seconds(table.banner.text, *table.panel)
    assert one_pass > table.options.match_banner_s  # the score scrolls: a pass decides
    assert table.banner.until - table.now == pytest.approx(one_pass)
    assert not session.state.is_terminal()


@pytest.mark.parametrize(
    ("game", "size"), [("kleiner_aerger", 16), ("kleiner_aerger", 32), ("maedn", 32)]
)
def test_an_opening_throw_tumbles_in_the_throwers_colour(game: str, size: int) -> None:
    """Red's opening throw passes the turn to green at once; its dice stay red's."""
    from controller import views
    from controller.games.track import view as maedn_view
    from controller.views.palette import seat_colour

    table = Table(options())
    preset = rules.default_preset(game)
    session = Session.start(game, preset, ["human", "bot", "empty", "empty"], seed=1)
    table.start_session(session)
    assert table.state is Mode.AWAIT_ROLL and session.player == "red"
    press(table, session.seats["red"], "ok")
    assert table.state is Mode.ROLLING and session.player != "red"  # the turn moved on
    table.tick(table.now + table.options.roll_time_s / 3)
    scene = table.scene()
    assert isinstance(scene, Scene) and scene.roll is not None and scene.roll.progress < 1
    image = views.render(scene, size, size, "RGB").convert("RGB")
    lay = maedn_view.layout_for(game, size, size)
    x, y = lay.die_at["red"]
    side = maedn_view.die_size(lay.die_pitch) + (2 if lay.framed else 0)
    die = {image.getpixel((x + dx, y + dy)) for dx in range(side) for dy in range(side)}
    assert seat_colour("red") in die
    assert seat_colour(session.player or "") not in die


def long_system_press(table: Table) -> None:
    press(table, None, "system", "down")
    press(table, None, "system", "held")
    press(table, None, "system", "up")


@pytest.mark.parametrize("animation", [Mode.ROLLING, Mode.MOVING])
def test_a_long_system_press_during_an_animation_is_not_lost(animation: Mode) -> None:
    """The animation is cut short (what it shows already happened) and "menu?" follows."""
    table = Table(options())
    session = Session.start("maedn", "classic", ["bot"] * 4, seed=5)
    table.start_session(session)
    run_until(table, lambda: table.state is animation and len(session.history) > 12)
    played = len(session.history)
    long_system_press(table)
    assert table.state is Mode.CONFIRM_MENU
    assert len(session.history) == played  # nothing undone, nothing played in its place
    press(table, 0, "next")  # back to the game, which goes on from where it was
    run_until(table, lambda: len(session.history) > played + 2)
    assert table.state is not Mode.CONFIRM_MENU


def test_a_long_system_press_during_the_last_move_goes_to_the_menu() -> None:
    """The cut move ended the game: there is nothing to ask, the menu comes (as OK does)."""
    table = Table(options())
    session = Session.start("maedn", "classic", ["bot", "empty", "human", "empty"], seed=1)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "green"],
            "turn": "red",
            "pieces": {"red": ["goal2", "goal3", "goal4", 38], "green": ["home"] * 4},
        }
    )
    table.start_session(session)
    table.roll_now((2,))  # 38 -> goal1: red's last piece reaches the goal
    run_until(table, lambda: table.state is Mode.MOVING)
    long_system_press(table)
    assert session.state.is_terminal() and table.state is Mode.MENU


def test_hints_and_bot_moves_are_asked_with_their_own_request_types() -> None:
    """A hint is asked as a HintRequest and a bot seat's move as a MoveRequest, so an
    answer to one can never be taken for the other, whatever their numbers."""
    from controller.events import BotRequest, HintRequest, MoveRequest

    asked: list[tuple[str, BotRequest]] = []
    table = Table(
        options(), ask_bot=lambda state, kind, request, seed: asked.append((kind, request))
    )
    session = Session.start("minimaki", "standard", ["human"], seed=3)
    table.start_session(session)  # red (human) chooses its start field: a hint is asked
    assert asked == [("strong", HintRequest(1))]
    best = table.choice.moves[-1]
    table.bot_arrived(MoveRequest(1), best, table.now)  # no bot asked for it: ignored
    assert table.bots.hint is None and table.time.action is None
    table.bot_arrived(HintRequest(1), best, table.now)
    assert table.scene().hint == best and table.time.action is None  # type: ignore[union-attr]

    asked.clear()
    table = Table(
        options(), ask_bot=lambda state, kind, request, seed: asked.append((kind, request))
    )
    bots = Session.start("maedn", "classic", ["bot", "empty", "bot", "empty"], seed=3)
    bots.state = rules.get_game("maedn", "classic").new_state(2, first="red")
    table.start_session(bots)
    run_until(table, lambda: table.state is Mode.CHOOSE)
    assert asked == [("strong", MoveRequest(1))]
    move = table.choice.moves[-1]
    table.bot_arrived(HintRequest(1), move, table.now)  # same number, other kind: not a move
    assert table.time.action is None and table.state is Mode.CHOOSE
    table.bot_arrived(MoveRequest(1), move, table.now)
    run_until(table, lambda: table.state is not Mode.CHOOSE)
    assert bots.history[-1] == {"player": "red", "move": move.notation}


def test_the_bot_worker_answers_with_the_request_it_was_given() -> None:
    from controller.bot_worker import BotWorker
    from controller.events import BotMoveEvent, HintRequest

    events = EventQueue()
    worker = BotWorker(events)
    try:
        state = Session.start("minimaki", "standard", ["human"], seed=3).state
        worker.request(state, "strong", HintRequest(7), 0)
        answer = events.get(timeout=60)
    finally:
        worker.close()
    assert isinstance(answer, BotMoveEvent) and answer.request == HintRequest(7)
    assert answer.move in state.legal_moves()


def bots_round(hurry: bool) -> tuple[float, Table]:
    """Red (a human) plays a forced 3; the fake time until red is on turn again, with
    or without a held OK from red's seat while the three bots play."""
    table = Table(options(bot_delay_s=0.6))
    session = Session.start("maedn", "classic", ["human", "bot", "bot", "bot"], seed=7)
    session.state = rules.state_from_json(
        {
            "game": "maedn",
            "preset": "classic",
            "players": ["red", "blue", "green", "yellow"],
            "turn": "red",
            "pieces": {
                "red": [0, "home", "home", "home"],
                "blue": [10, "home", "home", "home"],
                "green": [20, "home", "home", "home"],
                "yellow": [30, "home", "home", "home"],
            },
        }
    )
    table.start_session(session)
    table.roll_now((3,))  # one piece out: the 3 is forced and plays itself
    run_until(table, lambda: session.player != "red")
    start = table.now
    if hurry:
        press(table, 0, "ok", "held")
        assert table.time.hurry
    run_until(table, lambda: session.player == "red" and table.state is Mode.AWAIT_ROLL)
    assert not table.time.hurry, "the hurry ends when a human is on turn"
    return table.now - start, table


def test_a_held_ok_hurries_the_bots_until_a_human_is_on_turn() -> None:
    normal, slow = bots_round(hurry=False)
    fast, quick = bots_round(hurry=True)
    assert slow.require_session().history == quick.require_session().history  # same game
    assert fast < 0.3 * normal
    press(quick, 0, "ok", "held")  # red's own turn: a held OK does not hurry anyone
    assert not quick.time.hurry and quick.state is Mode.AWAIT_ROLL


def test_sim_fast_shortens_every_delay() -> None:
    """``spieltisch sim --fast``: every delay it sets is a table option, and shorter."""
    from controller.cli import build_parser
    from controller.table import FAST_PACE

    assert build_parser().parse_args(["sim", "--fast"]).fast is True
    assert build_parser().parse_args(["sim"]).fast is False
    normal = TableOptions()
    fast = TableOptions(**FAST_PACE)  # type: ignore[arg-type]
    for key, value in FAST_PACE.items():
        assert value < getattr(normal, key), key
        assert getattr(fast, key) == value


def test_bots_think_one_way_with_or_without_a_worker() -> None:
    """One path for bot thinking: a table without a worker asks the same function the
    worker runs (``bot_worker.think``) with the same seed, and the answer comes in as
    the worker's does (``bot_arrived``), so both tables play the very same game."""
    from controller.bot_worker import think
    from controller.events import BotRequest
    from rules.core import State

    def game(ask_bot: object) -> list[dict[str, object]]:
        table = Table(options(), ask_bot=ask_bot)  # type: ignore[arg-type]
        session = Session.start("kleiner_aerger", "standard", ["bot", "bot"], seed=5, bot="random")
        table.start_session(session)
        for _ in range(60):
            while asked:  # the worker's answers, taken by the loop
                state, kind, request, seed = asked.pop(0)
                table.bot_arrived(request, think(state, kind, seed), table.now)
            wake = table.next_wakeup()
            assert wake is not None
            table.tick(max(wake, table.now))
        return session.history

    asked: list[tuple[State, str, BotRequest, int]] = []
    by_worker = game(lambda *job: asked.append(job))
    assert game(None) == by_worker and len(by_worker) > 20
