"""Mensch ärgere dich nicht, classic preset: the "allgemeine Spielregeln" 1–15.

Each test names the rule it checks and quotes the sentence. Obligations are enforced by
offering only the allowed moves, so the penalty rules (5, 11, 13, which contradict each
other) can never fire.
"""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules import PASS, IllegalMoveError
from rules.core import State
from tests.helpers import notations, track_position

GAME = rules.get_game("maedn", "classic")
ALL_HOME = ["home"] * 4


def pos(pieces: dict[str, list[Any]], turn: str = "red", **extra: Any) -> State:
    return track_position("classic", pieces, turn, **extra)


def test_setup_all_pieces_in_home_circles_clockwise() -> None:
    """ "Zum Spielbeginn werden die 4 Spielfiguren auf die gleichfarbigen Eckkreise
    gestellt. Gespielt wird im Uhrzeigersinn." Seat order red → blue → green → yellow."""
    state = GAME.new_state(4)
    data = state.to_json()
    assert data["players"] == ["red", "blue", "green", "yellow"]
    assert all(p == ALL_HOME for p in data["pieces"].values())
    after = GAME.new_state(4, first="red")
    for _ in range(3):
        after = after.roll([1]).apply(PASS)
    assert after.current_player == "blue"


def test_rule_1_opening_roll_highest_die_begins() -> None:
    """Rule 1: "Vor Beginn des Spieles würfelt jede/r Spieler/in 1-mal. Der/die
    Spieler/in mit der höchsten Augenzahl eröffnet/beginnt das Spiel." """
    state = GAME.new_state(4)
    assert state.is_chance() and state.to_json()["phase"] == "opening"
    for colour, die in zip(("red", "blue", "green", "yellow"), (2, 5, 3, 1), strict=True):
        assert state.current_player == colour
        state = state.roll([die])
    assert state.to_json()["phase"] == "roll"
    assert state.current_player == "blue"


def test_rule_1_opening_roll_ties_roll_again_among_the_tied() -> None:
    """Rule 1 (tie): only the players with the highest number roll again."""
    state = GAME.new_state(4)
    for die in (6, 2, 6, 4):
        state = state.roll([die])
    assert state.to_json()["opening"] == {"contenders": ["red", "green"], "rolls": []}
    state = state.roll([3]).roll([5])
    assert state.current_player == "green"
    assert state.to_json()["phase"] == "roll"


def test_rule_2_three_tries_while_no_piece_can_advance() -> None:
    """Rule 2: "Jede/r Spieler/in darf 3-mal würfeln, solange sich keine seiner/ihrer
    Spielfiguren im Spielkreis ... befindet und dort noch vorrücken kann." """
    state = pos({"red": ALL_HOME, "green": ALL_HOME})
    for tries in range(2):
        state = state.roll([3])
        assert state.legal_moves() == (PASS,)
        state = state.apply(PASS)
        assert state.current_player == "red", f"try {tries + 2} belongs to red"
        assert state.to_json()["tries"] == tries + 1


def test_rule_2_goal_pieces_that_cannot_move_up_do_not_count() -> None:
    """Rule 2: the Zielfelder belong to the Spielkreis, but only pieces that can still
    advance there cost the 3 tries. Pieces packed at the top of the goal cannot."""
    packed = pos({"red": ["home", "home", "goal3", "goal4"], "green": ALL_HOME})
    assert packed.allowed_tries() == 3
    movable = pos({"red": ["home", "home", "goal1", "goal4"], "green": ALL_HOME})
    assert movable.allowed_tries() == 1


def test_rule_3_next_player_after_three_failed_tries() -> None:
    """Rule 3: "Wird nach dreimaligem Würfeln keine 6 gewürfelt, ist der/die nächste
    Spieler/in an der Reihe." """
    state = pos({"red": ALL_HOME, "green": ALL_HOME})
    for _ in range(3):
        state = state.roll([5]).apply(PASS)
    assert state.current_player == "green"
    assert state.to_json()["tries"] == 0


def test_rule_4_a_six_must_bring_a_piece_onto_the_start_field() -> None:
    """Rule 4: "(Pflicht) Beim Würfeln einer 6 muss eine Figur aus den Eckkreisen auf das
    Startfeld der eigenen Spielfarbe ... gesetzt werden" — only entering is offered."""
    state = pos({"red": ["home", "home", "home", 14], "green": ALL_HOME}).roll([6])
    assert notations(state) == {"home-0"}


def test_rule_4_exception_capture_comes_first() -> None:
    """Rule 4: "(Ausnahme siehe 10 „Schlagpflicht“)": a capture with the 6 beats entering."""
    state = pos({"red": ["home", "home", "home", 14], "green": [20, "home", "home", "home"]})
    assert notations(state.roll([6])) == {"14-20x"}


def test_rule_5_the_start_field_must_be_cleared_while_pieces_wait() -> None:
    """Rule 5: "Das Startfeld muss immer frei gemacht werden ... solange sich eine
    Spielfigur auf einem der Eckkreise befindet." """
    state = pos({"red": ["home", "home", 0, 17], "green": ALL_HOME}).roll([4])
    assert notations(state) == {"0-4"}


def test_rule_5_no_obligation_when_home_is_empty() -> None:
    """Rule 5 only binds while a piece waits in the Eckkreis."""
    state = pos({"red": [0, 17, 25, 30], "green": ALL_HOME}).roll([4])
    assert notations(state) == {"0-4", "17-21", "25-29", "30-34"}


def test_rule_5_blocked_start_piece_frees_the_other_moves() -> None:
    """Rule 5 applies only if the start piece can move: if its target holds an own piece,
    the player moves another piece (rule 8 still demands a move)."""
    state = pos({"red": ["home", 0, 4, 17], "green": ALL_HOME}).roll([4])
    assert notations(state) == {"4-8", "17-21"}


def test_rule_5_exception_capture_comes_first() -> None:
    """Rule 5: "(Ausnahme siehe 10 „Schlagpflicht“)"."""
    state = pos({"red": ["home", "home", 0, 17], "green": [21, "home", "home", "home"]})
    assert notations(state.roll([4])) == {"17-21x"}


def test_rule_6_one_roll_when_a_piece_can_advance() -> None:
    """Rule 6: "Solange sich eine der eigenen Spielfiguren auf dem Spielfeld befindet und
    die Möglichkeit zum Vorrücken besteht, darf lediglich 1-mal gewürfelt werden." """
    state = pos({"red": ["home", "home", "home", 12], "green": ALL_HOME})
    assert state.allowed_tries() == 1
    blocked = pos({"red": ["home", "home", "home", 39], "green": ALL_HOME})
    assert blocked.allowed_tries() == 1, "a piece on the track counts even if this die fails"


def test_rule_6_one_roll_also_counts_goal_pieces_that_can_move_up() -> None:
    """Rule 6: "Dies gilt auch, wenn ein oder mehrere Figuren ihre Zielfelder erreicht
    haben, aber nur dann, wenn sie dort nicht noch vorrücken könnten." """
    state = pos({"red": ["home", "home", "home", "goal2"], "green": ALL_HOME})
    assert state.allowed_tries() == 1
    state = state.roll([5]).apply(PASS)
    assert state.current_player == "green"


def test_rule_6_free_choice_between_pieces() -> None:
    """Rule 6: "Wer mehrere Figuren auf dem Spielfeld hat, kann sich aussuchen, mit
    welcher Figur er weiterzieht." """
    state = pos({"red": [3, 12, 25, "goal1"], "green": ALL_HOME}).roll([2])
    assert notations(state) == {"3-5", "12-14", "25-27", "goal1-goal3"}


def test_rule_7_a_six_rolls_again_with_any_piece() -> None:
    """Rule 7: "Wurde eine 6 gewürfelt muss der/die Spieler/in nochmals würfeln. Beim
    zweiten Wurf darf eine andere Figur benutzt werden." """
    state = pos({"red": [3, 12, 25, 30], "green": ALL_HOME}).roll([6])
    state = state.apply(state.parse_move("3-9"))
    assert state.current_player == "red" and state.is_chance()
    state = state.roll([2])
    assert "12-14" in notations(state)


def test_rule_7_a_six_rolls_again_even_when_it_cannot_be_used() -> None:
    """Rule 7, as decided: every 6 gives another roll, even an unusable one (the text gives
    the extra roll for the 6 itself, not for using it)."""
    state = pos({"red": ["goal1", "goal2", "goal3", 36], "green": ALL_HOME}).roll([6])
    assert state.legal_moves() == (PASS,)
    assert state.apply(PASS).current_player == "red"


def test_rule_8_must_move_when_possible_pass_only_when_nothing_moves() -> None:
    """Rule 8: "Es besteht Zugpflicht. Ausnahme von der Zugpflicht besteht dann, wenn mit
    keiner der eigenen Figuren die entsprechende Zahl vorgerückt werden kann." """
    state = pos({"red": ["home", "home", "home", 12], "green": ALL_HOME}).roll([3])
    assert PASS not in state.legal_moves()
    stuck = pos({"red": ["home", "home", "goal4", 38], "green": ALL_HOME}).roll([5])
    assert stuck.legal_moves() == (PASS,)


def test_rule_9_pieces_jump_over_others_and_skipped_fields_count() -> None:
    """Rule 9: "Über die im Wege stehenden gegnerischen und eigenen Figuren wird
    gesprungen, die übersprungen Felder werden mitgezählt." """
    state = pos({"red": [10, 11, "home", "home"], "green": [12, "home", "home", "home"]})
    assert "10-13" in notations(state.roll([3]))


def test_rule_9_one_piece_per_field_never_on_an_own_piece() -> None:
    """Rule 9: "Ein Spielfeld darf jedoch auch nur von einer Figur besetzt werden." """
    state = pos({"red": [10, 13, "home", "home"], "green": ALL_HOME}).roll([3])
    assert "10-13" not in notations(state)
    with pytest.raises(rules.InvalidStateError, match="two pieces"):
        pos({"red": [10, 10, "home", "home"], "green": ALL_HOME})


def test_rule_10_capture_is_compulsory_and_sends_the_piece_home() -> None:
    """Rule 10: "Trifft eine Figur auf ein vom Gegner besetztes Feld, so muss die
    gegnerische Spielfigur geschlagen werden. ... Die geschlagene Figur muss auf ihren
    eigenen Eckkreis zurückgesetzt werden." """
    state = pos({"red": [5, 20, "home", "home"], "green": [8, "home", "home", "home"]})
    state = state.roll([3])
    assert notations(state) == {"5-8x"}
    after = state.apply(state.parse_move("5-8"))
    assert after.to_json()["pieces"]["green"] == ALL_HOME
    assert 8 in after.to_json()["pieces"]["red"]


def test_rule_10_free_choice_among_several_captures() -> None:
    """Rule 10: "Gibt es mehrere Möglichkeiten zum Schlagen, kann der/die Spieler/in
    selbst eine davon aussuchen." """
    state = pos({"red": [5, 20, "home", "home"], "green": [8, 23, "home", "home"]})
    assert notations(state.roll([3])) == {"5-8x", "20-23x"}


def test_rule_10_captured_piece_returns_only_with_a_six() -> None:
    """Rule 10: the captured piece "darf erst nach würfeln einer 6 wieder am Spiel
    teilnehmen"."""
    state = pos({"red": ALL_HOME, "green": [25, 35, "home", "home"]}, turn="green")
    for die in range(1, 6):
        assert "home-20" not in notations(state.roll([die]))
    assert "home-20" in notations(state.roll([6]))


def test_rule_11_penalty_cannot_arise_because_non_captures_are_not_offered() -> None:
    """Rule 11: "Wer seiner Pflicht zum Schlagen ... nicht nachkommt, muss seine
    Spielfigur zurück ... stellen": with enforced legality, skipping a capture is an
    illegal move and is refused, so the penalty never fires."""
    state = pos({"red": [5, 20, "home", "home"], "green": [8, "home", "home", "home"]})
    state = state.roll([3])
    with pytest.raises(IllegalMoveError, match="20-23"):
        state.parse_move("20-23")


def test_rule_12_touch_move_the_chosen_piece_moves() -> None:
    """Rule 12: "Berührt = Geführt ... Nachbessern ... ist nicht erlaubt." Moves name the
    piece (its field), applying one is final (states are immutable and there is no take
    back), and the preset tells the controller to make the first confirmation binding."""
    assert GAME.rules.touch_move
    state = pos({"red": [3, 12, "home", "home"], "green": ALL_HOME}).roll([2])
    after = state.apply(state.parse_move("3-5"))
    assert after.to_json()["pieces"]["red"][-2:] == [5, 12]
    with pytest.raises(rules.NotDecisionError):
        after.legal_moves()  # the turn moved on: nothing to correct


def test_rule_13_an_illegal_move_is_refused_and_the_position_stays() -> None:
    """Rule 13: "Bei nicht Durchführen eines Pflicht-Zuges ... wird der letzte Zug
    ungültig. Die berührte Figur verbleibt auf dem bisherigen Feld." """
    state = pos({"red": ["home", "home", "home", 14], "green": ALL_HOME}).roll([6])
    before = state.to_json()
    with pytest.raises(IllegalMoveError):
        state.parse_move("14-20")
    assert state.to_json() == before


def test_rule_14_goal_entry_after_a_full_lap_with_exact_count() -> None:
    """Rule 14: "Hat eine Spielfigur eine Runde vollständig zurückgelegt, so darf Sie in
    die Zielfelder einrücken. Das „Einrücken“ hat „Augengenau“ zu erfolgen." """
    state = pos({"red": [37, "home", "home", "home"], "green": ALL_HOME})
    assert notations(state.roll([3])) == {"37-goal1"}
    assert notations(state.roll([6])) == {"home-0"}
    overshoot = pos({"red": [37, "goal1", "goal2", "goal3"], "green": ALL_HOME}).roll([6])
    assert overshoot.legal_moves() == (PASS,), "37 + 6 would overshoot goal 4"


def test_rule_14_no_jumping_over_own_pieces_in_the_goal() -> None:
    """Rule 14: "Innerhalb der vier Zielfelder dürfen die eigenen Figuren nicht
    übersprungen werden." """
    state = pos({"red": [38, "goal2", "home", "home"], "green": ALL_HOME})
    assert "38-goal3" not in notations(state.roll([4])), "would jump the piece on goal 2"
    assert "38-goal1" in notations(state.roll([2]))
    inside = pos({"red": ["goal1", "goal2", 20, "home"], "green": ALL_HOME}).roll([2])
    assert "goal1-goal3" not in notations(inside)


def test_rule_14_other_colours_pass_the_red_lane_entry() -> None:
    """Rule 14: only a piece that completed its own lap enters; green passes red's
    entry (track 39 → 0) and goes on round the track, and enters its own lane after
    track 19."""
    state = pos({"red": ALL_HOME, "green": [37, "home", "home", "home"]}, turn="green")
    assert notations(state.roll([5])) == {"37-2"}
    near = pos({"red": ALL_HOME, "green": [17, "home", "home", "home"]}, turn="green")
    assert notations(near.roll([5])) == {"17-goal3"}
    passing = pos({"red": ALL_HOME, "green": [38, "home", "home", "home"]}, turn="green")
    assert notations(passing.roll([4])) == {"38-2"}


def test_rule_15_first_with_all_pieces_in_goal_wins() -> None:
    """Rule 15: "Gewinner/in ist, wer als Erste/r alle seine Figuren auf seinen
    Zielfeldern platziert hat." """
    state = pos({"red": [38, "goal2", "goal3", "goal4"], "green": [5, "home", "home", "home"]})
    state = state.roll([2])
    final = state.apply(state.parse_move("38-goal1"))
    assert final.is_terminal()
    assert final.winners() == ("red",)
    assert final.to_json()["winner"] == "red"
    assert final.legal_moves() == ()


def test_players_two_to_four_seated_opposite_for_two() -> None:
    """The rule text asks for 3–4 players; the table also allows 2. Two sit opposite."""
    assert GAME.player_counts == (2, 3, 4)
    assert GAME.new_state(2).to_json()["players"] == ["red", "green"]
    with pytest.raises(rules.InvalidStateError, match="players"):
        GAME.new_state(5)


def test_track_geometry_is_the_standard_board() -> None:
    """The 11×11 board: track cells, rotation, home circles and goal lanes."""
    geo = GAME.geometry
    assert geo.ring_cells[:10] == (
        (10, 4),
        (9, 4),
        (8, 4),
        (7, 4),
        (6, 4),
        (6, 3),
        (6, 2),
        (6, 1),
        (6, 0),
        (5, 0),
    )
    assert geo.ring_cells[10:20] == (
        (4, 0),
        (4, 1),
        (4, 2),
        (4, 3),
        (4, 4),
        (3, 4),
        (2, 4),
        (1, 4),
        (0, 4),
        (0, 5),
    )
    assert len(set(geo.ring_cells)) == 40
    assert geo.home_cells["blue"] == ((0, 1), (1, 1), (0, 0), (1, 0)) or set(
        geo.home_cells["blue"]
    ) == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert geo.goal_cells["red"] == ((9, 5), (8, 5), (7, 5), (6, 5))
    assert geo.goal_cells["blue"] == ((5, 1), (5, 2), (5, 3), (5, 4))
    assert geo.goal_cells["green"] == ((1, 5), (2, 5), (3, 5), (4, 5))
    assert geo.goal_cells["yellow"] == ((5, 9), (5, 8), (5, 7), (5, 6))
    assert set(geo.home_cells["yellow"]) == {(9, 9), (9, 10), (10, 9), (10, 10)}
    assert geo.starts == (0, 10, 20, 30)
    every = set(geo.ring_cells)
    for colour in geo.colours:
        every |= set(geo.goal_cells[colour]) | set(geo.home_cells[colour])
    assert len(every) == 40 + 16 + 16 and (5, 5) not in every
