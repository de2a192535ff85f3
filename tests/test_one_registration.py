"""A new game is one registration: a toy game that lives in the tests works everywhere.

``tests/toy_game.py`` registers "Hasenrennen" with the rules registry and nothing else.
The menu offers it, a generic view draws it at every panel layout, the text board shows
it, ``spieltisch rules`` (games, new, moves, play) handles it, the conformance checks
hold for it, and a whole table game with bots plays to its end, without any product file
naming it.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator

import pytest

import rules
from controller import views
from controller.cli import main
from controller.machine import Mode
from controller.scene import RollAnimation, Scene
from controller.session import Session
from controller.status_line import describe
from controller.table import Table, TableOptions, default_menu
from controller.table.choice import cycling_order
from controller.text.board import render_board
from rules.bots import RandomBot, make_bot
from rules.playout import play_game
from tests import toy_game


@pytest.fixture(autouse=True)
def hare_race() -> Iterator[None]:
    toy_game.register()
    yield
    toy_game.unregister()


def test_the_registry_knows_it_by_its_title_and_presets() -> None:
    assert toy_game.NAME in rules.game_names()
    assert rules.game_info(toy_game.NAME).title == "Hasenrennen"
    assert rules.default_preset(toy_game.NAME) == "standard"
    assert rules.capabilities(toy_game.NAME).position_id is None


def test_random_games_keep_the_invariants() -> None:
    game = rules.get_game(toy_game.NAME)
    for seed in range(200):
        rng = random.Random(seed)
        start = game.new_state(players=2 + seed % 3)
        record = play_game(start, {p: RandomBot() for p in start.players}, rng)
        assert record.final.is_terminal()
        assert len(record.winners) == 1
        again = rules.state_from_json(json.loads(json.dumps(record.final.to_json())))
        assert again == record.final


def test_the_strong_bot_falls_back_to_the_generic_player() -> None:
    state = rules.get_game(toy_game.NAME).new_state().roll([4])
    move = make_bot("strong").choose(state, random.Random(1))
    assert move in state.legal_moves()


def run_cli(*argv: str, stdin: str = "") -> str:
    out = io.StringIO()
    import sys

    old_in, old_out = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO(stdin), out
    try:
        assert main(list(argv)) == 0
    finally:
        sys.stdin, sys.stdout = old_in, old_out
    return out.getvalue()


def test_the_rules_command_line_handles_it() -> None:
    games = json.loads(run_cli("rules", "games"))
    assert toy_game.NAME in json.dumps(games)
    start = run_cli("rules", "new", toy_game.NAME, "--players", "3")
    assert json.loads(start)["players"] == ["red", "blue", "green"]
    moves = json.loads(
        run_cli("rules", "moves", toy_game.NAME, "--state", "-", "--dice", "5", stdin=start)
    )
    assert [m["move"] for m in moves["moves"]] == ["run", "hop"]
    summary = json.loads(run_cli("rules", "play", toy_game.NAME, "--games", "20", "--seed", "3"))
    assert summary["games"] == 20 and sum(summary["wins"].values()) == 20


def test_the_menu_offers_it_with_its_title() -> None:
    items = [item for item in default_menu() if item.game == toy_game.NAME]
    assert [item.preset for item in items] == ["standard"]
    assert [item.label for item in items] == ["Hasenrennen"]  # its title, as registered


def test_the_menu_and_the_status_line_show_its_title_and_words() -> None:
    from controller.machine import Mode
    from controller.session import Session
    from controller.table import Table, TableOptions
    from hardware.interfaces import ButtonEvent

    menu = tuple(item for item in default_menu() if item.game == toy_game.NAME)
    table = Table(TableOptions(menu=menu, bot="random"))
    assert table.status().text.startswith("menu: Hasenrennen (1 of 1)")
    table.handle(ButtonEvent(0, "ok", "down"), 0.0)
    assert table.status().text.startswith("Hasenrennen: ")
    session = Session.start(toy_game.NAME, "standard", ["human", "human"], seed=1)
    table.start_session(session)
    table.roll_now((5,))
    while table.state is not Mode.CHOOSE:
        wake = table.next_wakeup()
        assert wake is not None
        table.tick(wake)
    assert "— run · move 1 of 2" in table.status().text


def test_its_own_words_reach_the_status_line_and_it_keeps_the_default_view() -> None:
    """A presentation that declares only its move words (as a family's words module
    does): the menu shows the registered title, the status line the game's words, and
    the board is drawn by the generic view."""
    from controller.games import Presentation, register_presentation, unregister_presentation
    from hardware.interfaces import ButtonEvent

    register_presentation(toy_game.NAME, Presentation(move_words=toy_game.hare_words))
    try:
        menu = tuple(item for item in default_menu() if item.game == toy_game.NAME)
        table = Table(TableOptions(menu=menu, bot="random"))
        assert table.status().text.startswith("menu: Hasenrennen (1 of 1)")
        table.handle(ButtonEvent(0, "ok", "down"), 0.0)
        session = Session.start(toy_game.NAME, "standard", ["human", "human"], seed=1)
        table.start_session(session)
        table.roll_now((5,))
        while table.state is not Mode.CHOOSE:
            wake = table.next_wakeup()
            assert wake is not None
            table.tick(wake)
        assert "5 — the hare runs 5 fields · move 1 of 2" in table.status().text
        assert views.view_of(toy_game.NAME) is views.GENERIC
    finally:
        unregister_presentation(toy_game.NAME)


@pytest.mark.parametrize(("width", "height", "mode"), views.GENERIC.sizes())
def test_a_generic_view_draws_it_at_every_layout(width: int, height: int, mode: str) -> None:
    state = rules.get_game(toy_game.NAME).new_state()
    rolling = views.render(Scene(state, 0.1, roll=RollAnimation((3,), 0.5)), width, height, mode)
    rolled = state.roll([3])
    preview = views.render(
        Scene(rolled, 1.0, preview=rolled.legal_moves()[0], dice=(3,)), width, height, mode
    )
    for image in (rolling, preview):
        assert image.size == (width, height) and image.mode == mode
        assert image.getbbox() is not None, "a dark frame"
    later = views.render(
        Scene(rolled, 2.0, preview=rolled.legal_moves()[0], dice=(3,)), width, height, mode
    )
    if height >= 16:  # the preview's words scroll on panels with a text line
        assert later.tobytes() != preview.tobytes()


def test_the_text_board_shows_it() -> None:
    state = rules.get_game(toy_game.NAME).new_state().roll([6])
    text = render_board(state)
    assert "hasenrennen" in text and "fields: [0, 0]" in text and "red to move" in text


def test_the_table_words_and_animates_its_moves_by_their_notation() -> None:
    """Declaring no move or preset facts is fine: the notation is the words, one step
    is animated, nothing is captured, and there is no move timer."""
    game = rules.get_game(toy_game.NAME)
    assert rules.move_facts(toy_game.NAME, toy_game.HOP) == rules.MoveFacts(1, False)
    assert rules.preset_facts(game) == rules.PresetFacts(move_timer_s=0.0)
    rolled = game.new_state().roll([4])
    assert cycling_order(toy_game.NAME, rolled.legal_moves()) == (toy_game.RUN, toy_game.HOP)
    session = Session.start(toy_game.NAME, "standard", ["human", "human"], seed=2, bot="random")
    scene = Scene(rolled, 0.0, preview=toy_game.HOP, dice=(4,))
    assert describe(Mode.CHOOSE, scene, session).endswith(": 4 — hop")


def test_a_whole_table_game_with_bots_plays_to_its_end() -> None:
    table = Table(TableOptions(seat_count=2, bot="random", bot_delay_s=0.0), ask_bot=None)
    session = Session.start(toy_game.NAME, "standard", ["bot", "bot"], seed=11, bot="random")
    table.at(0.0)
    table.start_session(session)
    frames = 0
    for _ in range(20_000):
        wake = table.next_wakeup()
        table.at(wake if wake is not None and wake > table.now else table.now + 0.05)
        table.tick(table.now)
        if table.dirty or table.state in (Mode.ROLLING, Mode.MOVING):
            image = views.render(table.scene(), 16, 16, "RGB")
            assert image.size == (16, 16)
            table.dirty = False
            frames += 1
        if table.state in (Mode.GAME_OVER, Mode.MENU):
            break
    assert session.state.is_terminal(), f"stuck in {table.state}"
    assert frames > 10


def test_the_registry_finds_every_family_when_first_asked() -> None:
    """Importing the views and the registry loads no family (the dispatcher and a
    family's view would otherwise import each other); the first question imports every
    package beside the registry, from any thread, and each registers its games."""
    script = textwrap.dedent(
        """
        import sys, threading
        from controller import views
        from controller.games import presentation
        families = ("backgammon", "minimaki", "track")
        loaded = [f for f in families if f"controller.games.{f}" in sys.modules]
        found = {}
        def ask(name):
            found[name] = presentation(name).view is not None
        threads = [threading.Thread(target=ask, args=(n,)) for n in ("backgammon", "maedn")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(loaded, sorted(found.items()), sorted(views.layouts()))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split("\n")[0] == (
        "[] [('backgammon', True), ('maedn', True)] "
        "['backgammon', 'kleiner_aerger', 'maedn', 'minimaki']"
    )
