"""Mini-Maki: one test per sentence of its rule text, each quoting it, plus the options.

Positions are written in the JSON state format: ``black`` is the row of the black piece in
columns 1–6, ``red`` is [row, col]; row 1 is black's baseline (red's goal), row 6 red's.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import product
from typing import Any

import pytest

import rules
from controller.text.board import render_board
from rules.bots import RandomBot
from rules.core import PASS, State
from rules.errors import IllegalMoveError, InvalidDiceError, InvalidStateError, NotDecisionError
from rules.minimaki.engine import MinimakiState
from rules.playout import play_game


def mm(preset: str = "standard", **fields: Any) -> MinimakiState:
    data: dict[str, Any] = {"game": "minimaki", "preset": preset}
    data.update(fields)
    state = rules.state_from_json(data)
    assert isinstance(state, MinimakiState)
    return state


def red_to_step(black: list[int], red: list[int], preset: str = "standard") -> MinimakiState:
    return mm(preset, black=black, red=red, to_move="red")


def black_to_roll(black: list[int], red: list[int], preset: str = "standard") -> MinimakiState:
    return mm(preset, black=black, red=red, to_move="black")


def targets(state: State) -> set[str]:
    return {m.notation.split("-")[-1] for m in state.legal_moves()}


# -- material, start, flow ---------------------------------------------------------------


def test_material_six_black_one_red_two_dice() -> None:
    """ "Spielmaterial: Zwei Würfel, 6 schwarze und ein roter Spielstein": one black per
    column on black's baseline, red not yet on the board, black's turn rolls two dice."""
    start = rules.get_game("minimaki").new_state()
    data = start.to_json()
    assert data["black"] == [1, 1, 1, 1, 1, 1]
    assert data["red"] is None
    state = start.apply(start.parse_move("r6c1"))
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and all(len(d) == 2 for d, _ in outcomes)


def test_red_starts_on_any_field_of_row_6() -> None:
    """ "Sie können zu Beginn ihren Maki auf ein beliebiges Feld der Reihe 6 setzen."""
    start = rules.get_game("minimaki").new_state()
    assert not start.is_chance()
    assert {m.notation for m in start.legal_moves()} == {f"r6c{c}" for c in range(1, 7)}
    placed = start.apply(start.parse_move("r6c4"))
    assert placed.to_json()["red"] == [6, 4]


def test_black_begins_each_round() -> None:
    """ "Schwarz beginnt." After red has chosen its start, black rolls first; after
    red's step the next round starts with black's roll again."""
    start = rules.get_game("minimaki").new_state()
    state = start.apply(start.parse_move("r6c2"))
    assert state.is_chance() and state.to_json()["to_move"] == "black"
    assert state.to_json()["round"] == 1
    state = state.roll([5, 6])
    assert not state.is_chance() and state.to_json()["to_move"] == "red"
    state = state.apply(state.parse_move("r5c2"))
    assert state.is_chance() and state.to_json()["round"] == 2


def test_dice_are_assigned_to_columns() -> None:
    """ "Es wird mit beiden Würfeln gewürfelt, die Würfelaugen werden den Spalten
    zugeordnet. Die Figuren in den zwei gewürfelten Spalten ziehen um ein Feld weiter."""
    state = black_to_roll([1, 1, 1, 1, 1, 1], [6, 1]).roll([2, 5])
    assert state.to_json()["black"] == [1, 2, 1, 1, 2, 1]


def test_one_piece_per_rolled_column_moves_one_field() -> None:
    """ "Es zieht immer jener Stein um ein Feld weit vorwärts, der sich in der Spalte
    befindet, dessen Augenzahl gewürfelt wurde" (the order of the dice does not matter)."""
    a = black_to_roll([2, 3, 1, 4, 1, 2], [6, 6]).roll([4, 1])
    b = black_to_roll([2, 3, 1, 4, 1, 2], [6, 6]).roll([1, 4])
    assert a.to_json()["black"] == b.to_json()["black"] == [3, 3, 1, 5, 1, 2]


def test_double_moves_that_piece_two_fields() -> None:
    """ "fiel ein Pasch, so zieht die entsprechende Figur zwei Felder weiter" and
    "Wird ein Pasch gewürfelt, geht die entsprechende Figur um zwei Felder weiter."""
    state = black_to_roll([1, 1, 1, 1, 1, 1], [6, 1]).roll([3, 3])
    assert state.to_json()["black"] == [1, 1, 3, 1, 1, 1]


def test_blacks_only_move_forward_and_never_leave_their_column() -> None:
    """ "Die schwarzen Figuren dürfen nur vorwärts ziehen, sie verlassen ihre Spalten
    nie." Over random games every black either moves up its column or goes back to
    row 1 (a reset), and there is always exactly one black per column."""
    game = rules.get_game("minimaki")
    bots = {"red": RandomBot()}
    for seed in range(40):
        seen: list[tuple[Any, Any]] = []

        def watch(step: Any, seen: list[tuple[Any, Any]] = seen) -> None:
            seen.append((step.before.to_json(), step.after.to_json()))

        play_game(game.new_state(), bots, random.Random(seed), on_step=watch)
        for before, after in seen:
            if before["red"] is None:
                continue
            assert len(after["black"]) == 6
            moved = [a - b for a, b in zip(after["black"], before["black"], strict=True)]
            if before["to_move"] == "black":  # a roll: two single steps forward
                assert all(d >= 0 for d in moved)
                assert sum(moved) == 2 or after["result"] == "lost"
            else:  # red's step: a black either stays or goes back to row 1
                assert all(d == 0 or a == 1 for d, a in zip(moved, after["black"], strict=True))


def test_red_moves_like_a_king() -> None:
    """ "Die rote Figur kann ziehen, wie der König beim Schachspiel, vorwärts, seitwärts,
    rückwärts und diagonal, jeweils ein Feld weit."""
    state = red_to_step([1, 1, 1, 1, 1, 1], [4, 3])
    assert targets(state) == {"r3c2", "r3c3", "r3c4", "r4c2", "r4c4", "r5c2", "r5c3", "r5c4"}
    corner = red_to_step([1, 1, 1, 1, 1, 1], [6, 6])
    assert targets(corner) == {"r5c5", "r5c6", "r6c5"}


def test_red_is_moved_at_will_without_dice() -> None:
    """ "Die rote Figur wird von Ihnen willkürlich gezogen, also ohne zu würfeln." Red's
    turn is a decision (no chance node), and rolling there is refused."""
    state = red_to_step([1, 1, 1, 1, 1, 1], [4, 3])
    assert not state.is_chance()
    with pytest.raises(InvalidDiceError):
        state.roll([1, 2])
    # "zieht nach Wunsch ein Feld in beliebige Richtung": any listed step may be chosen.
    for move in state.legal_moves():
        assert state.apply(move).to_json()["red"] != [4, 3]


def test_black_pieces_cannot_be_captured() -> None:
    """ "Die schwarzen Steine können nicht geschlagen werden." Red cannot step onto a
    field with a black piece."""
    state = red_to_step([1, 1, 3, 1, 1, 1], [4, 3])
    assert "r3c3" not in targets(state)
    with pytest.raises(IllegalMoveError):
        state.apply(state.parse_move("r3c3"))


def test_red_is_never_boxed_in() -> None:
    """As decided: "Red makes one king step onto a field without a black piece; if boxed
    in, red passes." With one black per column at most three of red's neighbour fields
    can be blocked, and red always has at least three, so the pass never happens: checked
    for every red field and every placement of the three blacks around it."""
    for row in range(2, 7):
        for col in range(1, 7):
            near = [c for c in (col - 1, col, col + 1) if 1 <= c <= 6]
            for rows in product(range(1, 6), repeat=len(near)):
                black = [1] * 6
                for c, r in zip(near, rows, strict=True):
                    black[c - 1] = r
                if black[col - 1] == row:
                    continue
                moves = red_to_step(black, [row, col]).legal_moves()
                assert moves and PASS not in moves


# -- winning and losing ------------------------------------------------------------------


def test_red_reaching_row_1_wins() -> None:
    """ "haben gewonnen, wenn es Ihnen gelingt, die gegenüberliegende Seite zu erreichen"
    and "Erreicht Ihr roter Stein die gegenüberliegende Seite, so haben Sie gewonnen."""
    state = red_to_step([1, 1, 1, 3, 1, 1], [2, 4])
    won = state.apply(state.parse_move("r1c4"))
    assert won.is_terminal() and won.to_json()["result"] == "won"
    assert won.winners() == ("red",)
    with pytest.raises(NotDecisionError):
        won.legal_moves()


def test_black_reaching_red_baseline_loses() -> None:
    """ "Sie haben verloren, wenn eine schwarze Figur Ihre Grundlinie erreicht"."""
    state = black_to_roll([1, 1, 1, 1, 1, 5], [3, 2]).roll([6, 1])
    assert state.is_terminal() and state.to_json()["result"] == "lost"
    assert state.winners() == ("black",)


def test_black_reaching_row_6_by_a_double_loses() -> None:
    """ "Sie haben verloren, wenn eine schwarze Figur Ihre Grundlinie erreicht" also by
    the two single steps of a double."""
    state = black_to_roll([1, 1, 1, 4, 1, 1], [2, 1]).roll([4, 4])
    assert state.to_json()["result"] == "lost"


def test_red_captured_when_a_black_lands_on_it() -> None:
    """ "Der rote Stein wird geschlagen, wenn ein schwarzer direkt auf das Feld kommt, auf
    dem der rote Stein steht. Wird der rote Stein geschlagen, so ist das Spiel verloren."""
    state = black_to_roll([1, 1, 3, 1, 1, 1], [4, 3]).roll([3, 6])
    data = state.to_json()
    assert data["result"] == "lost"
    assert data["black"][2] == 4 and data["red"] == [4, 3]
    assert "X" in render_board(state)


def test_figure_example_a_double_one_captures_two_fields_ahead() -> None:
    """ "In der unteren Abbildung hätte Rot bei einem 1er Pasch verloren, da die Figur in
    der ersten Spalte bei einem Pasch zwei Felder weiter ziehen würde."""
    before = black_to_roll([2, 1, 1, 1, 1, 1], [4, 1])
    assert before.roll([1, 2]).to_json()["result"] is None  # one step: still in front
    assert before.roll([1, 1]).to_json()["result"] == "lost"


# -- resets ------------------------------------------------------------------------------


def test_reset_pieces_stay_in_their_column() -> None:
    """ "Zurückgesetzt werden können alle Steine. Jeder zurück-versetzte Stein bleibt dabei
    in seiner Spalte." Red goes back to row 6 of its own column, blacks to row 1 of theirs."""
    red_reset = black_to_roll([3, 1, 1, 1, 1, 1], [4, 2]).roll([1, 6])
    assert red_reset.to_json()["red"] == [6, 2]
    black_reset = red_to_step([1, 1, 3, 1, 1, 1], [4, 4]).apply(
        red_to_step([1, 1, 3, 1, 1, 1], [4, 4]).parse_move("r3c4")
    )
    assert black_reset.to_json()["black"] == [1, 1, 1, 1, 1, 1]


def test_red_stepping_beside_a_black_resets_it() -> None:
    """ "Ein schwarzer Stein wird zu seiner Grundlinie zurückgesetzt, wenn der rote Stein
    auf eins der beiden Nachbarfelder (links oder rechts) der schwarzen Figur zieht."""
    state = red_to_step([1, 4, 1, 1, 1, 1], [5, 2])
    left = state.apply(state.parse_move("r4c1")).to_json()  # red left of the black
    assert left["black"][1] == 1
    right = red_to_step([1, 1, 4, 1, 1, 1], [5, 4])
    after = right.apply(right.parse_move("r4c4")).to_json()  # red right of the black
    assert after["black"][2] == 1
    # Straight in front or behind (same column) is no neighbour field.
    behind = red_to_step([1, 4, 1, 1, 1, 1], [4, 3])
    assert behind.apply(behind.parse_move("r5c2")).to_json()["black"][1] == 4


def test_figure_1_red_in_column_4_steps_forward_resets_column_3() -> None:
    """ "Bewegt sich in Abb.1 der rote Stein in Spalte 4 ein Feld weit weiter, so setzt er
    in Spalte 3 den schwarzen Stein zurück."""
    state = red_to_step([2, 1, 3, 2, 3, 3], [4, 4])
    after = state.apply(state.parse_move("r4c4-r3c4")).to_json()
    assert after["red"] == [3, 4]
    assert after["black"] == [2, 1, 1, 2, 1, 3]  # column 5 was beside r3c4 too


def test_figure_1_red_between_two_blacks_resets_both() -> None:
    """ "Kommt der rote Stein zwischen zwei schwarze (in Abb. 1 versetzt der rote in
    Spalte 6, wenn er zwischen die beiden schwarzen Stein in die Spalte 5 zieht, die
    Steine in Spalte 4 und 6 zurück), so werden beide zurückversetzt."""
    state = red_to_step([2, 1, 1, 3, 1, 3], [4, 6])
    after = state.apply(state.parse_move("r4c6-r3c5")).to_json()
    assert after["red"] == [3, 5]
    assert after["black"] == [2, 1, 1, 1, 1, 1]


def test_red_can_be_reset_in_two_ways() -> None:
    """ "Der rote Stein kann auf zwei Arten zurückversetzt werden." (1) a black becomes
    its neighbour, (2) the black behind it in its column moves; anything else leaves red
    where it is."""
    way1 = black_to_roll([3, 1, 1, 1, 1, 1], [4, 2]).roll([1, 5])
    way2 = black_to_roll([1, 1, 1, 4, 1, 1], [3, 4]).roll([4, 6])
    neither = black_to_roll([1, 1, 1, 1, 1, 1], [4, 4]).roll([2, 6])
    assert way1.to_json()["red"] == [6, 2]
    assert way2.to_json()["red"] == [6, 4]
    assert neither.to_json()["red"] == [4, 4]


def test_rule_1_black_becomes_neighbour_of_red() -> None:
    """ "1. Es kommt ein schwarzer Stein auf ein Nachbarfeld vom roten." and "roter
    Spielstein wird zurückgesetzt, wenn schwarzer Stein Nachbar wird"."""
    state = black_to_roll([1, 1, 1, 1, 2, 1], [3, 4]).roll([5, 1])
    assert state.to_json()["red"] == [6, 4]
    assert state.to_json()["result"] is None
    # A diagonal neighbour does not count in the standard rules.
    diagonal = black_to_roll([1, 1, 1, 1, 1, 1], [3, 4]).roll([5, 1])
    assert diagonal.to_json()["red"] == [3, 4]


def test_figure_2_reset_by_a_one_and_by_a_double_three() -> None:
    """ "In Abb. 2 unten wird der rote Stein in Spalte 2 sowohl durch einen Eins-Wurf als
    auch durch einen 3er Pasch zurückversetzt."""
    figure = black_to_roll([3, 1, 2, 1, 1, 1], [4, 2])
    assert figure.roll([1, 6]).to_json()["red"] == [6, 2]
    assert figure.roll([3, 3]).to_json()["red"] == [6, 2]
    assert figure.roll([3, 5]).to_json()["red"] == [4, 2]  # one step of column 3: not yet


def test_figure_2_double_one_passes_the_neighbour_field_and_still_resets() -> None:
    """ "Paschwürfe gelten als zwei Einzel-Züge, sollte zu der Abbildung ein 1er Pasch
    fallen, so müsste der Stein in Spalte 2 auch zurück." The first single step ends
    beside red, even though the second takes the black past red's row."""
    after = black_to_roll([3, 1, 2, 1, 1, 1], [4, 2]).roll([1, 1]).to_json()
    assert after["black"][0] == 5
    assert after["red"] == [6, 2]
    assert after["result"] is None


def test_rule_2_black_behind_red_moves() -> None:
    """ "2. Wenn der rote Stein keinen schwarzen Stein mehr vor sich hat ( Abb. 2,
    Spalte 4), und der schwarze in dieser Spalte zum Zug kommt, dh., die Zahl gewürfelt
    wird, in der sich der rote befindet (im Beispiel eine Vier)." and "roter Spielstein
    wird zurückgesetzt, wenn schwarzer Stein hinter rotem Stein zum Zug kommt"."""
    figure = black_to_roll([1, 1, 1, 4, 1, 1], [3, 4])
    assert figure.roll([4, 1]).to_json()["red"] == [6, 4]
    assert figure.roll([2, 6]).to_json()["red"] == [3, 4]  # no four: red stays
    # A black still in front of red moving up is no reset (and not yet a capture).
    front = black_to_roll([1, 1, 1, 1, 1, 1], [4, 4]).roll([4, 2])
    assert front.to_json()["red"] == [4, 4]


def test_capture_beats_reset_double_two() -> None:
    """ "Schlagen geht vor Zurücksetzen. Fällt in den Beispielen ein 2er Pasch und eine
    Eins (2, 1, 2), so ist die rote Figur in Spalte 2 geschlagen und das Spiel ist aus."
    Here the 2er Pasch: its second single step lands on red."""
    state = black_to_roll([3, 2, 2, 1, 1, 1], [4, 2]).roll([2, 2])
    assert state.to_json()["result"] == "lost"


def test_capture_beats_reset_one_and_two() -> None:
    """ "Schlagen geht vor Zurücksetzen." A one makes the column-1 black red's neighbour
    (a reset), but the two lands the column-2 black on red: the game is lost."""
    state = black_to_roll([3, 3, 1, 1, 1, 1], [4, 2]).roll([1, 2])
    assert state.to_json()["result"] == "lost"
    assert state.to_json()["red"] == [4, 2]


def test_single_steps_are_judged_against_reds_field_before_the_roll() -> None:
    """As decided (the text leaves it open): the single steps of a roll are judged against
    red's field before the roll. A reset by the first die does not save red from the second
    die's capture."""
    state = black_to_roll([3, 1, 1, 1, 1, 1], [4, 1]).roll([1, 1])
    assert state.to_json()["result"] == "lost"


def test_summary_rule_red_captured() -> None:
    """ "roter Spielstein wird geschlagen, wenn schwarzer Stein auf das Feld des roten
    kommt"."""
    assert black_to_roll([1, 1, 1, 1, 1, 5], [6, 6]).roll([6, 3]).to_json()["result"] == "lost"


def test_summary_rule_black_reset_by_red_neighbour() -> None:
    """ "schwarzer Spielstein wird zurückgesetzt, wenn roter Stein Nachbar wird"."""
    state = red_to_step([1, 1, 1, 1, 5, 1], [6, 5])
    assert state.apply(state.parse_move("r5c6")).to_json()["black"][4] == 1


def test_red_turn_then_black_rolls_again() -> None:
    """ "Jetzt kommt rot an die Reihe und zieht nach Wunsch ein Feld in beliebige
    Richtung, dann wird wieder gewürfelt und schwarz zieht, etc."""
    state = red_to_step([1, 1, 1, 1, 1, 1], [6, 3])
    nxt = state.apply(state.parse_move("r5c3"))
    assert nxt.is_chance() and nxt.to_json()["to_move"] == "black"


# -- options -----------------------------------------------------------------------------


def test_diagonal_switch_black_resets_red() -> None:
    """Option "diagonal contact counts as a neighbour": a black stepping onto a
    diagonal neighbour field of red resets red."""
    black = [1, 1, 1, 1, 2, 1]
    assert black_to_roll(black, [4, 4], "diagonal").roll([5, 1]).to_json()["red"] == [6, 4]
    assert black_to_roll(black, [4, 4]).roll([5, 1]).to_json()["red"] == [4, 4]


def test_diagonal_switch_red_resets_blacks() -> None:
    """Option "diagonal contact counts as a neighbour": red's step resets
    diagonally adjacent blacks too (never the black in red's own column)."""
    black = [3, 5, 2, 4, 1, 1]
    state = red_to_step(black, [5, 3], "diagonal")
    after = state.apply(state.parse_move("r4c3")).to_json()
    assert after["black"] == [3, 1, 2, 1, 1, 1]
    plain = red_to_step(black, [5, 3])
    assert plain.apply(plain.parse_move("r4c3")).to_json()["black"] == [3, 5, 2, 1, 1, 1]


def test_free_setup_places_blacks_column_by_column() -> None:
    """Option "a free black setup": before red chooses its start, the blacks
    are placed one column at a time on rows 1–5; play then goes on as usual."""
    state: State = rules.get_game("minimaki", "free_setup").new_state()
    assert state.to_json()["black"] == [None] * 6
    for col, row in enumerate([2, 5, 1, 3, 4, 1], start=1):
        assert {m.notation for m in state.legal_moves()} == {f"r{r}c{col}" for r in range(1, 6)}
        state = state.apply(state.parse_move(f"r{row}c{col}"))
    assert state.to_json()["black"] == [2, 5, 1, 3, 4, 1]
    assert {m.notation for m in state.legal_moves()} == {f"r6c{c}" for c in range(1, 7)}
    state = state.apply(state.parse_move("r6c1"))
    assert state.roll([2, 3]).to_json()["result"] == "lost"  # column 2 reaches row 6


def test_two_player_mode_players_play_in_turn_fewer_rounds_wins() -> None:
    """Rule text: "Ein Solitär-Spiel, das man auch zu zweit spielen kann!" As decided, each
    plays a game in turn and the better result (fewest rounds to a win) wins."""
    p1_last = mm(
        "two_player",
        players=["player1", "player2"],
        turn="player2",
        match=[{"player": "player1", "result": "won", "rounds": 9}],
        black=[1, 1, 1, 3, 1, 1],
        red=[2, 4],
        to_move="red",
        round=7,
    )
    over = p1_last.apply(p1_last.parse_move("r1c4"))
    assert over.is_terminal()
    assert over.winners() == ("player2", "player1")
    assert over.to_json()["winner"] == "player2"


def test_two_player_mode_first_game_ends_and_second_player_starts_fresh() -> None:
    """The two-player form: after one player's game the other plays on a fresh
    board; a win beats a loss."""
    start = rules.get_game("minimaki").new_state(2)
    assert start.current_player == "player1"
    state = mm(
        "standard",
        players=["player1", "player2"],
        black=[1, 1, 1, 1, 1, 5],
        red=[3, 2],
        to_move="black",
        round=4,
    )
    nxt = state.roll([6, 1])
    data = nxt.to_json()
    assert data["turn"] == "player2" and data["red"] is None and data["result"] is None
    assert data["match"] == [{"player": "player1", "result": "lost", "rounds": 4}]
    assert not nxt.is_terminal()


def test_two_player_exact_tie_plays_another_pair() -> None:
    """Our decision (docs/games.md): an exact tie (same result in the same number of rounds)
    plays another pair of games; of two losses the longer one is better."""
    state = mm(
        "two_player",
        players=["player1", "player2"],
        turn="player2",
        match=[{"player": "player1", "result": "lost", "rounds": 5}],
        black=[1, 1, 1, 1, 1, 5],
        red=[3, 2],
        to_move="black",
        round=5,
    )
    tie = state.roll([6, 1])
    assert not tie.is_terminal() and tie.current_player == "player1"
    longer = mm(
        "two_player",
        players=["player1", "player2"],
        turn="player2",
        match=[{"player": "player1", "result": "lost", "rounds": 5}],
        black=[1, 1, 1, 1, 1, 5],
        red=[3, 2],
        to_move="black",
        round=6,
    ).roll([6, 1])
    assert longer.winners() == ("player2", "player1")


# -- JSON, errors, CLI -------------------------------------------------------------------


def test_json_state_format_round_trips() -> None:
    """The JSON state: black rows per column, red [row, col] or null, round, to_move, result."""
    state = black_to_roll([2, 1, 3, 1, 4, 1], [5, 5]).roll([1, 3])
    data = state.to_json()
    assert set(data) >= {"game", "preset", "black", "red", "round", "to_move", "result"}
    assert data["last_roll"] == [1, 3]
    again = rules.state_from_json(json.loads(json.dumps(data)))
    assert again == state and hash(again) == hash(state)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"black": [1, 1, 1], "red": None}, "columns 1–6"),
        ({"black": [1, 1, 1, 1, 1, 7], "red": None}, "column 6"),
        ({"black": [1, 1, 1, 1, 1, 1], "red": [7, 1]}, "red's row"),
        ({"black": [1, 1, 3, 1, 1, 1], "red": [3, 3]}, "lost"),
        ({"black": [1, 1, 2, 1, 1, 1], "red": [1, 3]}, "won"),
        ({"black": [1, 1, 1, 1, 1, 1], "red": [4, 3], "to_move": "blue"}, "to_move"),
        ({"black": [1, 1, None, 1, 1, 1], "red": None}, "free_setup"),
        ({"black": [1, 1, 1, 1, 1, 1], "red": [4, 3], "result": "draw"}, "result"),
        # A black on row 6 has already won: it cannot wait for red's start.
        ({"black": [6, 1, 1, 1, 1, 1], "red": None}, "rows 1–5 until red"),
        ({"preset": "free_setup", "black": [6, None, None, None, None, None]}, "rows 1–5"),
    ],
)
def test_impossible_positions_are_rejected(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidStateError, match=words):
        mm(**fields)


def test_bad_dice_are_rejected() -> None:
    state = black_to_roll([1, 1, 1, 1, 1, 1], [6, 3])
    for dice in ([7, 1], [1], [1, 2, 3]):
        with pytest.raises(InvalidDiceError):
            state.roll(dice)


def spieltisch(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "controller", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_play_reports_red_wins_and_rounds() -> None:
    """``rules play minimaki`` reports red_wins and rounds_mean."""
    result = spieltisch("rules", "play", "minimaki", "--games", "200", "--seed", "3")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 200
    assert data["red_wins"] == data["wins"].get("red", 0)
    assert 5 <= data["rounds_mean"] <= 30


def test_cli_bad_input_is_one_line_exit_2() -> None:
    bad = [
        (("rules", "moves", "minimaki", "--state", "-"), '{"black": [1, 1], "red": null}'),
        (
            ("rules", "apply", "minimaki", "--state", "-", "--move", "r9c9"),
            '{"black": [1,1,1,1,1,1], "red": [6, 1], "to_move": "red"}',
        ),
        (
            ("rules", "moves", "minimaki", "--state", "-", "--dice", "3"),
            '{"black": [1,1,1,1,1,1], "red": [6, 1]}',
        ),
        (("rules", "new", "minimaki", "--players", "3"), ""),
    ]
    for args, stdin in bad:
        result = spieltisch(*args, stdin=stdin)
        assert result.returncode == 2, (args, result.stdout)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert "Traceback" not in result.stderr


def test_cli_moves_jsonl() -> None:
    line = json.dumps({"state": {"black": [1, 1, 1, 1, 1, 1], "red": [6, 3]}, "dice": [3, 3]})
    result = spieltisch("rules", "moves", "minimaki", "--jsonl", stdin=line + "\n")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["state"]["black"] == [1, 1, 3, 1, 1, 1]
    assert {m["move"] for m in answer["moves"]} == {
        "r6c3-r5c2",
        "r6c3-r5c3",
        "r6c3-r5c4",
        "r6c3-r6c2",
        "r6c3-r6c4",
    }


def test_text_board_shows_pieces_and_status() -> None:
    state = red_to_step([1, 1, 3, 1, 1, 1], [6, 3])
    text = render_board(state)
    lines = text.splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5", "6"]
    assert lines[3].split() == ["r3", ".", ".", "B", ".", ".", "."]
    assert lines[6].split() == ["r6", ".", ".", "R", ".", ".", "."]
    assert "red on r6c3 to step" in lines[-1]


def test_random_bot_picks_among_reds_steps_only() -> None:
    """The random bot picks uniformly among red's legal steps."""
    state = red_to_step([1, 1, 1, 1, 1, 1], [4, 3])
    rng = random.Random(0)
    counts: dict[str, int] = {}
    for _ in range(1600):
        move = RandomBot().choose(state, rng)
        counts[move.notation] = counts.get(move.notation, 0) + 1
    assert set(counts) == {m.notation for m in state.legal_moves()}
    assert PASS.notation not in counts
    assert min(counts.values()) > 140  # 8 steps, 200 expected each
