"""Game over offers an analysis (docs/spielen.md, "Analyse"): NEXT computes it on its
own thread, then replays the costliest decisions, the play made and the best in turn."""

from __future__ import annotations

from controller.machine import Mode
from controller.scene import Scene
from controller.session import Session
from controller.table import Table
from tests.test_table import options, press, run_until


def finished_backgammon() -> tuple[Table, Session]:
    table = Table(options(bot="random"))
    session = Session.start("backgammon", "single", ["bot", "empty", "bot"], seed=5)
    table.start_session(session)
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    return table, session


def shown(table: Table) -> Scene:
    scene = table.scene()
    assert isinstance(scene, Scene)
    return scene


def test_game_over_offers_the_analysis_and_replays_played_then_best() -> None:
    table, session = finished_backgammon()
    table.tick(table.now + table.options.winner_time_s)
    assert shown(table).banner == "NEXT: analyse, OK: menu"
    press(table, 0, "next")
    run = table.analysis
    assert run is not None and shown(table).banner == "analysing…"
    run.thread.join(120)
    run_until(table, lambda: table.time.action is None)
    frames = run.frames
    assert frames, run.failed
    assert len(frames) % 2 == 0 and len(frames) <= 6  # the three worst, two frames each
    first = shown(table)
    assert first.banner is not None and first.banner.startswith("worst 1: ")
    assert "played" in first.banner and first.preview == frames[0].move
    assert first.preview in first.state.legal_moves()
    # the replayed position is nobody's win: the line says what the buttons do
    line = table.status().text
    assert line.startswith("analysis · NEXT: on, OK: back to the menu · worst 1: "), line
    assert "wins" not in line
    press(table, 0, "next")
    second = shown(table)
    assert second.banner is not None and "best" in second.banner
    assert second.state == first.state and second.preview == frames[1].move
    for _ in range(len(frames) - 1):  # past the last frame the result shows again
        press(table, 0, "next")
    assert shown(table).state == session.state and shown(table).result
    assert "wins" in table.status().text or "lost" in table.status().text
    press(table, 0, "ok")
    assert table.state is Mode.MENU


def test_a_game_without_an_analysis_offers_none() -> None:
    table = Table(options())
    session = Session.start("maedn", "classic", ["bot", "bot", "bot", "bot"], seed=1)
    table.start_session(session)
    run_until(table, lambda: table.state is Mode.GAME_OVER)
    table.tick(table.now + table.options.winner_time_s)
    press(table, 0, "next")
    assert table.analysis is None and table.state is Mode.GAME_OVER
