"""Kleiner Ärger on the MÄDN family engine: one test per sentence of its rule text.

Ring indices (JSON): 0 = a4, clockwise a4 a5 b5 c5 c6 c7 d7(6) e7 e6 e5 f5 g5 g4(12)
g3 f3 e3 e2 e1 d1(18) c1 c2 c3 b3 a3(23). Red starts on a4, blue d7, green g4, yellow d1.
A piece that has gone all the way round stands on its own start field again as
``"lap"``; then come ``"goal1"`` and ``"goal2"``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.bots import RandomBot
from rules.core import PASS, State
from rules.errors import IllegalMoveError, InvalidStateError
from rules.playout import play_game
from rules.track.boards import KLEINER_AERGER_BOARD as BOARD
from rules.track.engine import MaednState


def ka(turn: str = "red", dice: int | None = None, **pieces: list[Any]) -> MaednState:
    """A two- to four-player position; colours not given are left out of the game."""
    players = [c for c in ("red", "blue", "green", "yellow") if c in pieces]
    data: dict[str, Any] = {
        "game": "kleiner_aerger",
        "players": players,
        "turn": turn,
        "pieces": pieces,
    }
    if dice is not None:
        data["dice"] = [dice]
    state = rules.state_from_json(data)
    assert isinstance(state, MaednState)
    return state


def moves(state: State) -> set[str]:
    return {m.notation for m in state.legal_moves()}


OUT = ["out", "out"]


def test_two_to_four_players() -> None:
    """ "Kleiner Ärger ist ein Start-Ziel-Spiel für zwei bis vier Spieler." With two,
    the players sit opposite on a4 and g4 (the same distance to run before meeting)."""
    game = rules.get_game("kleiner_aerger")
    assert game.player_counts == (2, 3, 4)
    assert game.new_state(2).to_json()["players"] == ["red", "green"]
    with pytest.raises(InvalidStateError):
        game.new_state(5)


def test_board_is_the_33_hole_cross_with_two_pieces_each() -> None:
    """ "Englisches Solitairebrett, 4 x 2 Steine, Würfel": 24 ring fields + 4×2 goal
    fields + the unused centre d4 are the 33 holes of the cross; 2 pieces per player."""
    cells = set(BOARD.ring_cells) | {c for g in BOARD.goal_cells.values() for c in g}
    assert len(BOARD.ring_cells) == 24 and len(cells) == 32
    assert BOARD.centre is not None and BOARD.centre not in cells
    cross = {(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4}
    assert cells | {BOARD.centre} == cross and len(cross) == 33
    assert BOARD.pieces == 2


def test_ring_runs_clockwise_round_the_board() -> None:
    """ "die beiden eigenen Spielfiguren auf den Randfeldern eine Runde auf der Laufbahn
    im Uhrzeigersinn um das Spielfeld zu bewegen": the ring is a closed path of
    neighbouring holes, and its orientation (shoelace sign, row 0 on top) is clockwise."""
    ring = BOARD.ring_cells
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    # x = col, y = -row: positive signed area is counter-clockwise.
    area = sum(a[1] * -b[0] - b[1] * -a[0] for a, b in zip(ring, ring[1:] + ring[:1], strict=True))
    assert area < 0


def test_start_fields_and_pieces_off_the_board() -> None:
    """ "Startposition ist jeweils das Mittelfeld auf den äußeren Rändern (a4, d7, g4,
    d1). Zu Beginn liegen die Figuren außerhalb des Spielbrettes."""
    names = {(7 - int(n[1]), ord(n[0]) - 97): n for n in ("a4", "d7", "g4", "d1")}
    starts = [names[BOARD.ring_cells[BOARD.start_of(c)]] for c in BOARD.colours]
    assert starts == ["a4", "d7", "g4", "d1"]
    data = rules.get_game("kleiner_aerger").new_state(4).to_json()
    assert all(pos == OUT for pos in data["pieces"].values())


def test_goal_fields_per_start() -> None:
    """ "Zielfelder sind für den Spieler der auf a4 beginnt b4 und c4, für den Spieler der
    auf d7 beginnt d6 und d5, für den Spieler, der auf g4 beginnt, f4 und e4 und für den
    Spieler, der auf d1 beginnt d2 und d3. (Das Mittelfeld d4 wird nicht genutzt ...)"."""

    def name(cell: tuple[int, int]) -> str:
        return f"{chr(97 + cell[1])}{7 - cell[0]}"

    goals = {c: [name(cell) for cell in BOARD.goal_cells[c]] for c in BOARD.colours}
    assert goals == {
        "red": ["b4", "c4"],
        "blue": ["d6", "d5"],
        "green": ["f4", "e4"],
        "yellow": ["d2", "d3"],
    }
    assert BOARD.centre is not None and name(BOARD.centre) == "d4"


def test_one_die_turns_go_clockwise() -> None:
    """ "Über die Anzahl der zu ziehenden Felder entscheidet ein Würfel. Es wird reihum
    gewürfelt und gesetzt." One die per throw; the turn passes red → blue → green →
    yellow (clockwise)."""
    state = ka("red", red=[3, "out"], blue=[9, "out"], green=[15, "out"], yellow=[21, "out"])
    assert all(len(d) == 1 for d, _ in state.chance_outcomes())
    order = []
    for _ in range(4):
        order.append(state.current_player)
        state = state.roll([2])
        state = state.apply(state.legal_moves()[0])
    assert order == ["red", "blue", "green", "yellow"]
    assert state.current_player == "red"


def test_opening_roll_highest_begins_ties_roll_again() -> None:
    """ "Zu Spielbeginn wird einmal gewürfelt. Wer die höchste Zahl hat, beginnt. Haben
    mehrere Spieler die höchste Zahl, würfeln sie erneut und machen den Startspieler
    unter sich aus."""
    state: State = rules.get_game("kleiner_aerger").new_state(3)
    assert state.is_chance() and state.to_json()["phase"] == "opening"
    for die in (5, 2, 5):  # red 5, blue 2, green 5: red and green tie
        state = state.roll([die])
    assert state.to_json()["opening"]["contenders"] == ["red", "green"]
    state = state.roll([3]).roll([4])
    assert state.to_json()["phase"] == "roll" and state.current_player == "green"


def test_six_must_bring_a_piece_onto_the_start_field() -> None:
    """ "Wer eine Sechs würfelt, muss, wenn er eine Figur in der Startposition hat, eine
    eigene Spielfigur aus der Startposition auf das benachbarte Startfeld stellen."""
    state = ka("red", 6, red=["out", 10], green=OUT)
    assert moves(state) == {"out-0"}
    assert ka("red", 5, red=["out", 10], green=OUT).legal_moves()[0].notation == "10-15"


def test_entering_captures_an_opponent_on_the_start_field() -> None:
    """ "Kommt eine Spielfigur auf ein Feld, das bereits von einer gegnerischen Spielfigur
    besetzt ist, gilt die gegnerische Figur als geschlagen" also when entering."""
    state = ka("red", 6, red=OUT, green=[0, "out"])
    assert moves(state) == {"out-0x"}
    after = state.apply(state.legal_moves()[0]).to_json()
    assert after["pieces"]["green"] == OUT


def test_after_entering_roll_again_and_move_that_piece() -> None:
    """ "Danach darf er erneut würfeln und mit der Figur entsprechend seinem Wurf
    vorrücken." The same player rolls, and the new piece leaves the start field."""
    state = ka("red", 6, red=["out", 10], green=OUT)
    state = state.apply(state.parse_move("out-0"))
    assert state.is_chance() and state.current_player == "red"
    state = state.roll([4])
    assert moves(state) == {"0-4"}


def test_start_field_must_be_cleared_as_soon_as_possible() -> None:
    """ "Das Startfeld muss so bald wie möglich wieder freigemacht werden." Also when no
    piece waits off the board (unlike MÄDN rule 5; docs/games.md), and only if the piece on the
    start field can move."""
    assert moves(ka("red", 3, red=[0, 10], green=OUT)) == {"0-3"}
    assert moves(ka("red", 3, red=[0, "out"], green=OUT)) == {"0-3"}
    # Blocked by an own piece: another piece moves instead.
    assert moves(ka("red", 3, red=[0, 3], green=OUT)) == {"3-6"}


def test_lap_piece_on_the_start_field_must_clear_it_into_the_goal() -> None:
    """ "Das Startfeld muss so bald wie möglich wieder freigemacht werden." A piece back
    on its start field after a lap stands on that field, so it goes into the goal first."""
    assert moves(ka("red", 1, red=["lap", 10], green=OUT)) == {"lap-goal1"}
    assert moves(ka("red", 3, red=["lap", 10], green=OUT)) == {"10-13"}


def test_without_a_piece_on_the_start_field_a_six_is_free() -> None:
    """ "Hat er keine Figur mehr auf dem Startfeld, so steht es ihm frei, die erwürfelten
    sechs Felder mit einer eigenen Figur seiner Wahl vorzurücken. Auch dann darf er erneut
    würfeln und entsprechend der gewürfelten Zahl ziehen."""
    state = ka("red", 6, red=[3, 10], green=OUT)
    assert moves(state) == {"3-9", "10-16"}
    after = state.apply(state.parse_move("10-16"))
    assert after.is_chance() and after.current_player == "red"


def test_landing_on_an_opponent_sends_it_off_the_board() -> None:
    """ "Kommt eine Spielfigur auf ein Feld, das bereits von einer gegnerischen
    Spielfigur besetzt ist, gilt die gegnerische Figur als geschlagen und muss vom Brett,
    um erneut zu beginnen."""
    state = ka("red", 4, red=[5, "out"], green=[9, 20])
    after = state.apply(state.parse_move("5-9x")).to_json()
    assert sorted(after["pieces"]["green"], key=str) == [20, "out"]
    assert 9 in after["pieces"]["red"]


def test_own_pieces_cannot_be_captured() -> None:
    """ "Eigene Figuren können nicht geschlagen werden." A move onto an own piece is not
    offered (and nothing sends an own piece off)."""
    assert moves(ka("red", 4, red=[5, 9], green=OUT)) == {"9-13"}


def test_goal_counts_like_the_track_exact_entry() -> None:
    """ "Auch im Zielfeld werden die einzelnen Positionen wie auf der Laufbahn gezählt."
    From ring field 22 a 2 reaches the lap field, 3 goal 1, 4 goal 2; 5 overshoots."""
    assert moves(ka("red", 2, red=[22, "out"], green=OUT)) == {"22-lap"}
    assert moves(ka("red", 3, red=[22, "out"], green=OUT)) == {"22-goal1"}
    assert moves(ka("red", 4, red=[22, "out"], green=OUT)) == {"22-goal2"}
    assert ka("red", 5, red=[22, "out"], green=OUT).legal_moves() == (PASS,)


def test_after_the_lap_the_piece_must_go_into_the_goal() -> None:
    """ "Nachdem die Runde absolviert ist, muss der Spielstein in sein Zielfeld ziehen, in
    dem für beide Steine Platz ist." A piece on "lap" never starts a second round."""
    state = ka("red", 6, red=[18, "goal2"], green=OUT)
    assert moves(state) == {"18-lap"}
    for die in (3, 4, 5, 6):
        assert ka("red", die, red=["lap", "goal2"], green=OUT).legal_moves() == (PASS,)
    assert moves(ka("red", 2, red=["lap", "out"], green=OUT)) == {"lap-goal2"}


def test_lap_piece_can_be_captured_on_its_start_field() -> None:
    """ "Kommt eine Spielfigur auf ein Feld, das bereits von einer gegnerischen Spielfigur
    besetzt ist, gilt die gegnerische Figur als geschlagen": the lap piece stands on a
    ring field (its own start field), so it can be hit there."""
    state = ka("green", 3, red=["lap", "out"], green=[21, "out"])
    after = state.apply(state.parse_move("21-0x")).to_json()
    assert after["pieces"]["red"] == OUT


def test_no_jumping_over_own_pieces_in_the_goal() -> None:
    """ "Ein Überspringen eigener Figuren im Zielfeldbereich ist nicht erlaubt."""
    assert ka("red", 2, red=["lap", "goal1"], green=OUT).legal_moves() == (PASS,)
    assert ka("red", 4, red=[22, "goal1"], green=OUT).legal_moves() == (PASS,)
    assert moves(ka("red", 1, red=[22, "goal1"], green=OUT)) == {"22-23", "goal1-goal2"}


def test_occupied_target_another_piece_must_move() -> None:
    """ "Ist das Zielfeld bereits mit einer eigenen Figur besetzt, darf der Zug weder
    ausgeführt noch neu gewürfelt werden. Es muss dann mit einer anderen Figur gesetzt
    werden."""
    state = ka("red", 3, red=[4, 7], green=OUT)
    assert moves(state) == {"7-10"}


def test_occupied_target_and_no_other_move_next_player() -> None:
    """ "Wenn das nicht geht, ist der nächste Spieler an der Reihe." No re-roll."""
    dead = ka("red", 5, red=["goal1", 23], green=[3, "out"])
    assert dead.legal_moves() == (PASS,)
    after = dead.apply(PASS)
    assert after.current_player == "green" and after.is_chance()


def test_unusable_six_ends_the_turn() -> None:
    """ "Das gilt auch, wenn man eine sechs gewürfelt hat und diese nicht setzen konnte."
    An unused 6 gives no further roll: the next player is on turn."""
    state = ka("red", 6, red=["goal1", 23], green=[3, "out"])
    assert state.legal_moves() == (PASS,)
    assert state.apply(PASS).current_player == "green"


def test_used_six_rolls_again() -> None:
    """ "Auch dann darf er erneut würfeln": a 6 that moved a piece gives another roll."""
    state = ka("red", 6, red=[3, "out"], green=OUT)
    # A 6 with a waiting piece must enter; with the start free that is out-0.
    assert moves(state) == {"out-0"}
    assert state.apply(state.legal_moves()[0]).current_player == "red"


def test_free_choice_with_both_pieces_on_the_ring() -> None:
    """ "Hat ein Spieler beide Spielfiguren auf der Laufbahn Umlauf, kann er frei
    entscheiden, mit welcher er ziehen möchte."""
    assert moves(ka("red", 4, red=[5, 14], green=OUT)) == {"5-9", "14-18"}


def test_one_roll_moves_one_piece() -> None:
    """ "Ein Würfelwurf darf jedoch nicht auf mehrere Figuren aufgeteilt werden." Every
    move takes one piece exactly the rolled number of steps."""
    state = ka("red", 5, red=[5, 14], green=OUT)
    for move in state.legal_moves():
        before_p = set(state.progress("red"))
        after_p = set(state.apply(move).progress("red"))
        (left,) = before_p - after_p
        (arrived,) = after_p - before_p
        assert arrived - left == 5


def test_three_tries_when_not_even_a_one_could_move() -> None:
    """ "Könnte ein Spieler selbst mit einer 1 keine Figur bewegen, dann hat er in jeder
    Runde drei Versuche, die nötige Sechs zu würfeln, um eine Figur ins Spiel zu bringen."""
    stuck = ka("red", red=OUT, green=[3, "out"])
    assert stuck.allowed_tries() == 3
    state: State = stuck
    for try_no in range(3):
        assert state.current_player == "red" and state.to_json()["tries"] == try_no
        state = state.roll([4])
        state = state.apply(PASS)
    assert state.current_player == "green"
    # Off the board + a finished goal piece: still no move with a 1.
    assert ka("red", red=["out", "goal2"], green=[3, "out"]).allowed_tries() == 3
    # A goal-1 piece could move up with a 1: one throw only.
    assert ka("red", red=["out", "goal1"], green=[3, "out"]).allowed_tries() == 1
    # A piece on the ring: one throw.
    assert ka("red", red=["out", 7], green=[3, "out"]).allowed_tries() == 1


def test_six_during_the_tries_enters_and_rolls_again() -> None:
    """ "drei Versuche, die nötige Sechs zu würfeln, um eine Figur ins Spiel zu bringen"
    then "Danach darf er erneut würfeln": the tries end with the 6."""
    state: State = ka("red", red=OUT, green=[3, "out"])
    state = state.roll([2]).apply(PASS).roll([6])
    state = state.apply(state.parse_move("out-0"))
    assert state.current_player == "red" and state.to_json()["tries"] == 0


def test_no_capture_obligation() -> None:
    """ "Wer mit einer gewürfelten Zahl eine gegnerische Figur schlagen kann, muss dies
    nicht tun. Es herrscht also kein "Schlagzwang"."""
    assert moves(ka("red", 4, red=[5, 14], green=[9, "out"])) == {"5-9x", "14-18"}


def test_throws_must_not_be_wasted() -> None:
    """ "Man darf Würfe nicht verfallen lassen, muss also, immer wenn erlaubt, auch eine
    Figur bewegen." Pass is offered only when no piece can move."""
    state = ka("red", 2, red=[5, "goal2"], green=OUT)
    assert state.legal_moves() == (state.parse_move("5-7"),)
    with pytest.raises(IllegalMoveError):
        state.apply(PASS)


def test_first_with_both_pieces_in_the_goal_wins() -> None:
    """ "Wer als erstes die beiden eigenen Figuren auf seinen Zielfeldern hat, hat
    gewonnen."""
    state = ka("red", 3, red=[22, "goal2"], green=[3, 5])
    over = state.apply(state.parse_move("22-goal1"))
    assert over.is_terminal() and over.winners()[0] == "red"
    assert over.to_json()["winner"] == "red"


def test_json_positions_out_ring_lap_goal() -> None:
    """The JSON positions: "out", ring index 0–23 (0 = a4, clockwise), "lap", "goal1"–"goal2";
    green's progress is counted from g4 = ring 12. Bad tokens are one-line errors."""
    state = ka("green", red=["lap", "goal1"], green=[12, "out"])
    assert state.progress("green") == (-1, 0)
    assert state.progress("red") == (24, 25)
    for bad in (24, "goal3", "home", -1):
        with pytest.raises(InvalidStateError, match="allowed"):
            ka("red", red=[bad, "out"], green=OUT)
    with pytest.raises(InvalidStateError, match="two pieces"):
        ka("red", red=["lap", 0], green=OUT)


def test_random_games_end_with_a_winner() -> None:
    """Whole random games under these rules end; all 2–4 player counts."""
    game = rules.get_game("kleiner_aerger")
    for players in (2, 3, 4):
        start = game.new_state(players)
        bots = {c: RandomBot() for c in start.to_json()["players"]}
        for seed in range(30):
            record = play_game(start, bots, random.Random(seed))
            assert record.final.is_terminal() and record.winners


def test_engine_regression_maedn_goal_piece_is_not_on_the_start_field() -> None:
    """Engine fix found while checking the clearing rule: on the MÄDN board progress 40
    is goal 1, not the start field, so a goal-1 piece must not be the only legal move
    while a piece waits at home (MÄDN rule 5 only concerns the start field)."""
    state = rules.state_from_json(
        {
            "game": "maedn",
            "players": ["red", "green"],
            "turn": "red",
            "dice": [2],
            "pieces": {"red": ["home", "home", 10, "goal1"], "green": ["home"] * 4},
        }
    )
    assert moves(state) == {"10-12", "goal1-goal3"}
