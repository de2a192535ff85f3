"""The leaderboard per game: named players' games and wins counted from the history
(by person, through renames and removals), on the panel's statistics screen after each
game's colour chart, drawn and read back."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from PIL import ImageChops

from controller import views
from controller.history.record import Seat, Summary, record_of
from controller.history.store import HistoryStore
from controller.machine import Mode
from controller.players.book import PlayerBook
from controller.players.leaderboard import boards
from controller.scene import STATISTICS_ITEM, Leader, StatisticsScene
from controller.testing.rig import SHORT_ANIMATIONS, ApplianceRig
from controller.views.text import collect_texts
from tests.history_games import played


def summary(game: str, winner: str | None, *seats: Seat, ended: str = "2026-01-01") -> Summary:
    return Summary(
        uid=ended + str(seats),
        game=game,
        preset="classic",
        started=None,
        ended=ended,
        outcome="finished" if winner else "abandoned",
        places=(winner,) if winner else (),
        seats=seats,
        rolls=0,
        moves=0,
    )


def anna(colour: str, seat: int = 0, name: str = "Anna") -> Seat:
    return Seat(seat, colour, "human", None, "p1", name)


def ben(colour: str, seat: int = 1) -> Seat:
    return Seat(seat, colour, "human", None, "p2", "Ben")


def test_persons_are_counted_by_id_through_renames_and_removals() -> None:
    games = [  # newest first, as the history lists them
        summary("maedn", "red", anna("red", name="Anna-Lena"), ben("blue"), ended="3"),
        summary("maedn", "blue", anna("red"), ben("blue"), ended="2"),
        summary("maedn", "red", anna("red"), Seat(1, "blue", "bot", "strong"), ended="1"),
        summary("maedn", None, anna("red"), ben("blue"), ended="0"),  # abandoned
        summary("maedn", "red", Seat(0, "red", "human"), ben("blue")),  # a guest won
        summary("backgammon", "black", ben("black", 0), Seat(2, "white", "human")),
    ]
    found = boards(games)
    maedn = [(p.name, p.won, p.games) for p in found.games["maedn"]]
    # Anna's newest name is the one she is called by; Ben's wins are fewer
    assert maedn == [("Anna-Lena", 2, 3), ("Ben", 1, 3)]
    assert [(p.name, p.won, p.games) for p in found.games["backgammon"]] == [("Ben", 1, 1)]
    assert {p.name: (p.won, p.games) for p in found.people.values()} == {
        "Anna-Lena": (2, 3),
        "Ben": (2, 4),
    }
    # the book's name now wins over the recorded one; a removed player keeps theirs
    renamed = boards(games, {"p2": "Benjamin"})
    assert [p.name for p in renamed.games["maedn"]] == ["Anna-Lena", "Benjamin"]


def test_old_records_without_names_make_no_leaderboard() -> None:
    old = summary("maedn", "red", Seat(0, "red", "human"), Seat(1, "blue", "bot", "random"))
    assert boards([old]).games == {}


def test_ties_are_ordered_by_share_then_fewer_games_then_name() -> None:
    games = [
        summary("maedn", "red", anna("red"), ben("blue")),
        summary("maedn", "blue", anna("red"), ben("blue")),
        summary("maedn", "red", Seat(0, "red", "human", None, "p3", "Cleo"), ben("blue")),
    ]
    board = boards(games).games["maedn"]
    assert board[0].name == "Cleo"  # one win in one game is the best share
    assert [p.name for p in board] == ["Cleo", "Anna", "Ben"]


def test_the_panel_shows_the_leaderboard_after_the_game_chart(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    book = PlayerBook(tmp_path)
    oma, tim = book.add("Großmutter Hildegard"), book.add("Tim")
    store = HistoryStore(tmp_path)
    store.open()
    won: dict[str, int] = {"Großmutter Hildegard": 0, "Tim": 0}
    for seed in range(5):
        session = played("maedn", "classic", ["human", "bot", "human", "bot"], seed)
        session.people = {"red": oma, "green": tim}
        record = record_of(session, "finished", f"2026-02-0{seed + 1}T10:00:00+00:00", 4, "r")
        store.add(record)
        winner = session.state.winners()[0]
        if winner in session.people:
            won[session.people[winner].name] += 1
    store.close()
    rig = appliance_rig(tmp_path, seats=("human",) * 4, size=32, options=SHORT_ANIMATIONS)
    rig.start()
    menu = rig.table.options.menu
    assert menu[-1] == STATISTICS_ITEM
    for _ in range(len(menu) - 1):
        rig.press(0, "next")
    rig.press(0, "ok")
    assert rig.table.state is Mode.STATISTICS
    rig.press(0, "next")  # the colour chart first, then the leaderboard
    board = rig.table.menu.pages[1]
    status = rig.table.status().text
    frame = rig.frame()
    scene = rig.table.scene()
    rig.close()
    ranked = sorted(won.items(), key=lambda item: -item[1])
    assert board.game == "maedn" and board.games == 5
    assert {(leader.name, leader.won, leader.games) for leader in board.leaders} == {
        (name, wins, 5) for name, wins in won.items()
    }
    assert board.leaders[0].won == ranked[0][1]
    assert status.startswith("leaderboard: Mensch ärgere dich nicht, last 5 games: 1. ")
    assert isinstance(scene, StatisticsScene)
    drawn = views.render(scene, 32, 32, "RGB")
    assert ImageChops.difference(drawn, frame).getbbox() is None
    with collect_texts() as texts:
        views.render(scene, 32, 32, "RGB")
    assert {t.text for t in texts} >= {"Großmutter Hildegard", "Tim", "5"}
    shown = os.environ.get("SPIELTISCH_SHOW_PNG")
    if shown:  # a picture to look at: SPIELTISCH_SHOW_PNG=/tmp/board.png
        frame.resize((320, 320), 0).save(shown)


def test_every_panel_size_draws_a_leaderboard() -> None:
    from controller.scene import StatisticsPage

    page = StatisticsPage("maedn", 9, (), (Leader("Anna", 5, 9), Leader("Ben", 3, 9)))
    for width, height, mode in [(32, 32, "RGB"), (16, 16, "RGB"), (32, 8, "1"), (8, 8, "1")]:
        with collect_texts() as texts:
            image = views.render(StatisticsScene((page,), 0), width, height, mode)
        assert image.size == (width, height) and image.getbbox() is not None
        assert any("Anna" in t.text for t in texts)
