"""Draw every picture in ``docs/img`` from the program as it is, in one place.

    .venv/bin/python -m tests.docs_pictures            # rewrite docs/img/*.png
    .venv/bin/python -m tests.docs_pictures --check    # say which ones are out of date

Everything is deterministic: seeded games on a fake clock, the views' scenes from
``tests/views_scenes.py`` (the golden pictures' scenes), the timelines of
``tests/test_timeline.py`` (the real loop on a fake clock), and the simulator's window
(pygame, SDL's dummy driver) and terminal (a real pty replayed into pyte) showing the
same moment of a seeded game. ``tests/test_docs_pictures.py`` fails when a committed
picture is not what this script draws. Look at the pictures before committing them.
"""

from __future__ import annotations

import argparse
import functools
import io
import os
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from PIL import Image, ImageChops

DOCS = Path(__file__).resolve().parent.parent / "docs" / "img"

Drawing = Callable[[], Image.Image]


def _scaled(image: Image.Image) -> Image.Image:
    """One LED as a square block: square RGB panels 256 px wide, the others 16 px an LED."""
    width, height = image.size
    factor = 256 // width if width == height and image.mode == "RGB" else 16
    return image.convert("RGB").resize((width * factor, height * factor), Image.Resampling.NEAREST)


def _view_pictures() -> dict[str, Drawing]:
    from controller import views
    from tests import test_views_backgammon as backgammon
    from tests import test_views_statistics as statistics
    from tests.views_scenes import SCENES, golden_cases

    pictures: dict[str, Drawing] = {}
    names = {
        "maedn_lingo": "maedn_lingo",
        "kleiner_aerger": "kleiner_aerger",
        "minimaki": "minimaki",
        "menu": "menu",
        "setup_rules": "setup_rules",
        "setup_start": "setup_start",
        "maedn_over": "game_over",
        "minimaki_lost": "minimaki_lost",
    }
    for scene, width, height, mode in golden_cases():
        if scene in names and (mode == "RGB" or scene == "minimaki"):

            def draw(
                scene: str = scene, w: int = width, h: int = height, m: str = mode
            ) -> Image.Image:
                return _scaled(views.render(SCENES[scene](), w, h, m))

            pictures[f"{names[scene]}_{width}x{height}.png"] = draw
    for scene, name in (("backgammon_preview", "backgammon"), ("backgammon_entry",) * 2):
        for size in backgammon.SIZES:

            def draw_bg(scene: str = scene, size: tuple[int, int, str] = size) -> Image.Image:
                return _scaled(backgammon.render(backgammon.SCENES[scene](), size))

            pictures[f"{name}_{size[0]}x{size[1]}.png"] = draw_bg
    for name in ("statistics",):
        for width, height in statistics.SIZES:

            def draw_stats(name: str = name, w: int = width, h: int = height) -> Image.Image:
                return _scaled(views.render(statistics.SCENES[name], w, h, "RGB"))

            pictures[f"{name}_{width}x{height}.png"] = draw_stats
    pictures.update(_players_pictures())
    return pictures


def _players_pictures() -> dict[str, Drawing]:
    """Named players: a seat's name row in setup, and a game's leaderboard."""
    from controller import views
    from controller.scene import Leader, MenuItem, SetupScene, StatisticsPage, StatisticsScene

    def name_row() -> Image.Image:
        from controller.names import colour_name

        colours = ("red", "blue", "green", "yellow")
        scene = SetupScene(
            MenuItem("maedn", "classic", "Mensch ärgere dich nicht"),
            ("human", "bot", "bot", "bot"),
            colours,
            0,
            t=3.2,  # the name has scrolled into view
            names=tuple(colour_name("maedn", c) for c in colours),
            people=("Anna", None, None, None),
            naming=True,
        )
        return _scaled(views.render(scene, 16, 16, "RGB"))

    def board() -> Image.Image:
        leaders = (Leader("Anna", 5, 9), Leader("Ben", 3, 8), Leader("Oma", 1, 4))
        page = StatisticsPage("maedn", 12, (), leaders)
        return _scaled(views.render(StatisticsScene((page,), 0), 32, 32, "RGB"))

    return {"setup_name_16x16.png": name_row, "leaderboard_32x32.png": board}


def _timeline_pictures() -> dict[str, Drawing]:
    """The strips the timeline tests draw while they check the loop's timing."""
    from tests import test_timeline

    runs = {
        "menu": test_timeline.test_menu_label_scrolls_on_schedule_and_comes_back_to_its_start,
        "preview": test_timeline.test_preview_blinks_with_its_period_and_restarts_with_each_next,
        "countdown": test_timeline.test_countdown_shrinks_every_second_and_time_never_hides_a_move,
        "sleep": test_timeline.test_the_panel_sleeps_and_the_waking_press_does_nothing_else,
    }

    def drawing(name: str, run: Callable[[], None]) -> Drawing:
        def draw() -> Image.Image:
            strips: dict[str, Image.Image] = {}
            test_timeline.STRIPS = strips
            try:
                run()
            finally:
                test_timeline.STRIPS = None
            return strips[name]

        return draw

    return {f"timeline_{name}.png": drawing(name, run) for name, run in runs.items()}


@functools.cache
def simulator_moment() -> tuple[Image.Image, Callable[[], object]]:
    """A seeded MÄDN game at the simulator's 16×16 panel: you (red) against three
    bots, a few rounds in, your roll made and NEXT pressed once: the preview blinks
    and the status line says what OK would do. Returns the panel's frame and the
    table's status source (what the window and the terminal draw beside it)."""
    from controller.machine import Mode
    from controller.session import Session
    from controller.table import TableOptions
    from tests.timeline import Timeline

    line = Timeline(TableOptions(bot="random"), size=16)
    session = Session.start(
        "maedn", "classic", ["human", "bot", "bot", "bot"], seed=7, bot="random"
    )
    line.table.start_session(session)
    line.step()

    def yours() -> bool:
        game = line.table.session
        waiting = line.table.state in (Mode.AWAIT_ROLL, Mode.CHOOSE)
        return waiting and game is not None and game.state.current_player == "red"

    for _press in range(400):
        line.run_until(yours)
        game = line.table.session
        assert game is not None
        if line.table.state is Mode.CHOOSE and len(game.state.legal_moves()) > 1:
            break
        line.tap(0, "ok")
    else:
        raise AssertionError("red never had a choice")
    line.tap(0, "next")
    line.run_for(0.1)
    return line.frames[-1].image, line.table.status


def _sim_window() -> Image.Image:
    from controller.sim.window import TableWindow

    frame, status = simulator_moment()
    window = TableWindow(16, 16, size=(902, 820), status=status)  # type: ignore[arg-type]
    try:
        window.show(frame)
        return window.picture()
    finally:
        window.close()


def _sim_terminal() -> Image.Image:
    import fcntl
    import pty
    import struct
    import termios

    from controller.sim.terminal import TerminalDisplay
    from tests.terminal_screen import Terminal, screen_picture

    frame, status = simulator_moment()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    terminal = Terminal.open(master, 80, 24)
    try:
        display = TerminalDisplay(16, 16, fd=slave, status=status, depth=24)  # type: ignore[arg-type]
        display.show(frame)
        terminal.read_until(lambda t: "Ctrl+C" in t.text(), timeout=10)
        picture = screen_picture(terminal.screen)
        display.close()
    finally:
        terminal.close()
        os.close(master)
        os.close(slave)
    return picture


def in_german(draw: Drawing) -> Drawing:
    """``draw`` with the table speaking German, for the family page (docs/spielen.md):
    the panel's words ("los", "Regeln", "blau") and the window's are German there."""

    def german() -> Image.Image:
        from controller import i18n

        before = i18n.active_language()
        i18n.use("de")
        try:
            return draw()
        finally:
            i18n.use(before)

    return german


GERMAN = (
    "menu_16x16.png",
    "setup_rules_16x16.png",
    "setup_start_16x16.png",
    "minimaki_16x16.png",
    "minimaki_lost_16x16.png",
    "game_over_16x16.png",
    "statistics_16x16.png",
    "setup_name_16x16.png",
    "leaderboard_32x32.png",
    "sim_window.png",
)
"""The pictures docs/spielen.md shows, drawn again in German as ``de_<name>``."""


def pictures() -> dict[str, Drawing]:
    """Every picture in docs/img by file name, each drawn when called."""
    found = {**_view_pictures(), **_timeline_pictures()}
    found["sim_window.png"] = _sim_window
    found["sim_terminal.png"] = _sim_terminal
    for name in GERMAN:
        found[f"de_{name}"] = in_german(found[name])
    return found


def differs(path: Path, image: Image.Image) -> bool:
    if not path.exists():
        return True
    with Image.open(path) as committed:
        committed_rgb = committed.convert("RGB")
    if committed_rgb.size != image.size:
        return True
    return ImageChops.difference(committed_rgb, image.convert("RGB")).getbbox() is not None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say what is out of date")
    parser.add_argument("--dir", type=Path, default=DOCS, help="where the pictures go")
    parser.add_argument("names", nargs="*", help="only these pictures (default: all)")
    args = parser.parse_args(argv)
    every = pictures()
    unknown = [name for name in args.names if name not in every]
    if unknown:
        parser.error(f"no picture {unknown[0]!r}; the script draws {', '.join(sorted(every))}")
    stale = []
    for name, draw in sorted(every.items()):
        if args.names and name not in args.names:
            continue
        image = draw()
        path = args.dir / name
        if differs(path, image):
            stale.append(name)
            if not args.check:
                buffer = io.BytesIO()
                image.save(buffer, format="PNG")
                path.write_bytes(buffer.getvalue())
    extra = (
        [] if args.names else sorted(p.name for p in args.dir.glob("*.png") if p.name not in every)
    )
    for name in stale:
        print(("out of date: " if args.check else "drawn: ") + name)
    for name in extra:
        print(f"not drawn by this script: {name}")
    return 1 if args.check and (stale or extra) else 0


if __name__ == "__main__":
    sys.exit(main())
