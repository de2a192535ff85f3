"""Backgammon rules: every sentence of the German rule text and every added standard rule.

Positions are written per side in its *own* numbering (point 1 = its home board's ace
point; it moves from 24 towards 1), exactly as the rule text numbers them for "dein" side.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules.backgammon.engine import START, BackgammonState
from rules.bots import RandomBot
from rules.core import PASS
from rules.errors import IllegalMoveError, InvalidDiceError, InvalidStateError, NotDecisionError
from rules.playout import play_game, sample_roll


def bg(
    white: dict[int, int],
    black: dict[int, int],
    *,
    turn: str = "white",
    dice: tuple[int, int] | None = None,
    preset: str = "single",
    **extra: Any,
) -> BackgammonState:
    """A position from {point: checkers} per side; 25 is the bar, the rest are off."""
    data: dict[str, Any] = {"game": "backgammon", "preset": preset, "turn": turn}
    points: dict[str, list[int]] = {}
    bar: dict[str, int] = {}
    for colour, spec in (("white", white), ("black", black)):
        counts = [0] * 24
        for point, n in spec.items():
            if point != 25:
                counts[point - 1] = n
        points[colour] = counts
        bar[colour] = spec.get(25, 0)
    data.update(points=points, bar=bar)
    if dice is not None:
        data["dice"] = list(dice)
    data.update(extra)
    state = rules.state_from_json(data)
    assert isinstance(state, BackgammonState)
    return state


def plays(state: BackgammonState) -> set[str]:
    return {m.notation for m in state.legal_moves()}


def play(state: BackgammonState, notation: str) -> BackgammonState:
    return state.apply(state.parse_move(notation))


OPEN = {24: 2, 13: 5, 8: 3, 6: 5}


# -- the rule text, sentence by sentence ---------------------------------------------


def test_board_has_24_points_12_on_each_side() -> None:
    """Rule text: "Das Spielbrett besteht aus 24 Dreiecken, Points genannt, von denen sich
    jeweils 12 auf einer Seite befinden." """
    data = rules.get_game("backgammon").new_state().to_json()
    assert all(len(data["points"][c]) == 24 for c in ("white", "black"))


def test_points_numbered_per_side_in_opposite_directions() -> None:
    """Rule text: "Die Points werden von rechts nach links durchnumeriert." and "deine
    Spielrichtung, der Gegner spielt genau entgegengesetzt." Each side counts from its own
    ace point, so white's point p is black's point 25 - p."""
    with pytest.raises(InvalidStateError, match="both have checkers"):
        bg({13: 1}, {12: 1})  # black's 12 point is white's 13
    behind = bg({13: 1}, {11: 2}, dice=(2, 2))  # black's 11 = white's 14: behind white
    assert plays(behind) == {"13/5"}
    ahead = bg({13: 1}, {14: 2}, dice=(2, 2))  # black's 14 = white's 11: blocks white
    assert ahead.legal_moves() == (PASS,)


def test_home_and_outer_board_split_between_6_and_7() -> None:
    """Rule text: "Zwischen dem 6. und 7. Point auf jeder Seite werden die Points durch die
    so genannte Bar in das Home- und das Outer-Board aufgeteilt." A checker on 7 is not
    home yet, so no bearing off; on 6 it is."""
    outside = bg({7: 1, 1: 14}, {1: 2}, dice=(6, 1))
    assert plays(outside) == {"7/off"}  # 7/1 first (or 7/6), then the 6 bears it off
    home = bg({6: 1, 1: 14}, {1: 2}, dice=(6, 1))
    assert "6/off 1/off" in plays(home)


def test_fifteen_checkers_each_in_the_fixed_setup() -> None:
    """Rule text: "Gespielt wird mit 15 weißen und 15 schwarzen Steinen, deren Aufstellung
    fest vorgegeben ist." The standard setup: 2 on 24, 5 on 13, 3 on 8, 5 on 6."""
    state = rules.get_game("backgammon").new_state()
    data = state.to_json()
    for colour in ("white", "black"):
        assert sum(data["points"][colour]) == 15
        assert data["points"][colour][23] == 2
        assert data["points"][colour][12] == 5
        assert data["points"][colour][7] == 3
        assert data["points"][colour][5] == 5
    assert data["position_id"] == "4HPwATDgc/ABMA"


def test_goal_bring_home_then_bear_off_first_out_wins() -> None:
    """Rule text: "Ziel des Spieles ist es, alle seine Spielsteine in das Home-Board zu
    bringen und sie dann hinauszuwürfeln. Wer als erster keine Steine mehr am Brett hat,
    ist der Sieger." and "Gewinner ist der Spieler, der zuerst alle Steine
    herausgewürfelt hat." """
    state = bg({2: 1}, {24: 1, 1: 1}, dice=(3, 2))
    after = play(state, "2/off")
    assert after.is_terminal()
    assert after.winners() == ("white", "black")
    assert after.to_json()["off"]["white"] == 15


def test_bar_holds_hit_checker_which_reenters_in_opponents_home() -> None:
    """Rule text: "Bar, hier steht ein Stein wenn er geschlagen wurde. Man muss im
    Home-Board des Gegners wieder einsetzen." Entering lands on points 19–24 (own
    numbering), the opponent's home board."""
    state = bg({25: 1, 6: 14}, {6: 14}, dice=(6, 1))
    for move in state.legal_moves():
        src, dst, _ = move.steps[0]  # type: ignore[attr-defined]
        assert src == 24 and 19 <= dst + 1 <= 24  # bar, then a point 19–24


def test_field_null_is_off() -> None:
    """Rule text: "Feld „null“, wenn alle Steine im Home-Board sind, wird "rausgespielt"."
    Notation writes it "off"; "0" is read as the same."""
    state = bg({1: 15}, {1: 2}, dice=(2, 1))
    assert plays(state) == {"1/off(2)"}
    assert state.parse_move("1/0 1/0") == state.parse_move("1/off(2)")


def test_two_dice_are_rolled() -> None:
    """Rule text: "Der Spieler, der am Zug ist, würfelt mit zwei Würfeln." The chance node
    offers the 21 distinct rolls of two dice."""
    state = rules.get_game("backgammon").new_state(first="white")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 21
    assert all(len(dice) == 2 for dice, _ in outcomes)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert dict(outcomes)[(6, 6)] == pytest.approx(1 / 36)
    assert dict(outcomes)[(6, 5)] == pytest.approx(2 / 36)
    with pytest.raises(InvalidDiceError):
        state.roll([7, 1])
    with pytest.raises(InvalidDiceError):
        state.roll([3])


def test_dice_are_played_singly_not_summed() -> None:
    """Rule text: "Der Spieler setzt seine Steine entsprechend den gewürfelten Augenzahlen.
    Die Augenzahlen werden nicht zusammengezählt, sondern einzeln gesetzt." A 3-1 may not
    jump to 20 when both stops (21 and 23) are closed, even though 20 is open."""
    state = bg({24: 1, 6: 14}, {4: 2, 2: 2}, dice=(3, 1))  # black's 4, 2 = white's 21, 23
    assert "24/20" not in plays(state)
    assert all(not n.startswith("24/") for n in plays(state))


def test_both_dice_may_move_the_same_checker() -> None:
    """Rule text: "Beide Augenzahlen können jedoch mit demselben Stein gesetzt werden." """
    state = rules.get_game("backgammon").state_from_position_id("4HPwATDgc/ABMA").roll([3, 1])
    assert "24/20" in plays(state)
    assert "13/9" in plays(state)


def test_player_chooses_which_die_first() -> None:
    """Rule text: "Welche Augenzahl zuerst gesetzt wird, ist dem Spieler überlassen." With
    23 closed, 24/20 is still possible through 21 (the 3 first)."""
    state = bg({24: 1, 6: 14}, {2: 2}, dice=(3, 1))
    assert "24/20" in plays(state)


def test_moves_go_forward_only() -> None:
    """Rule text: "Die Spielsteine werden vom Home-Board des Gegners aus über das
    Outer-Board zum eigenen Home-Board hin gezogen. Züge rückwärts sind nicht erlaubt."
    Every play lowers the mover's pip count by exactly the dice used."""
    rng = random.Random(3)
    state: Any = rules.get_game("backgammon").new_state()
    checked = 0
    while not state.is_terminal() and checked < 200:
        if state.is_chance():
            state = state.roll(sample_roll(state.chance_outcomes(), rng))
            continue
        seat = state.turn
        before = state.pips(seat)
        for move in state.legal_moves():
            if move is PASS:
                continue
            after = state.apply(move)
            if after.phase != 5:  # not finished
                assert after.pips(seat) < before
        checked += 1
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])


def test_points_with_two_opposing_checkers_are_closed() -> None:
    """Rule text: "Die Steine können nur auf Felder gesetzt werden, die noch offen sind,
    d.h. auf denen sich nicht mehr als ein gegnerischer Stein befindet. Felder, die
    bereits mit zwei oder mehr gegnerischen Steinen besetzt sind, können von den eigenen
    Steinen nicht benutzt werden." """
    closed = bg({13: 1, 1: 14}, {17: 2, 16: 3}, dice=(5, 4))  # white's 8 and 9
    assert closed.legal_moves() == (PASS,)
    blot = bg({13: 1, 1: 14}, {17: 1, 16: 3}, dice=(5, 4))  # one on white's 8: open
    assert plays(blot) == {"13/8*/4"}


def test_double_is_played_four_times() -> None:
    """Rule text: "Würfelt man einen Pasch, also zwei gleiche Zahlen (z.B. 6 und 6), so wird
    die gewürfelte Augenzahl doppelt gezogen. In dem Beispiel also viermal die 6." """
    state = rules.get_game("backgammon").state_from_position_id("4HPwATDgc/ABMA").roll([6, 6])
    assert "24/18(2) 13/7(2)" in plays(state)
    for move in state.legal_moves():
        after = state.apply(move)
        assert after.pips(0) == state.pips(0) - 24


def test_landing_on_a_blot_hits_it() -> None:
    """Rule text: "Wird ein Spielstein auf ein Feld gezogen, das von einem einzelnen
    gegnerischen Stein besetzt ist, so wird dieser geschlagen." and "Geschlagene Steine
    werden in die Mitte des Spielfelds auf die Bar gesetzt." """
    state = bg({13: 1, 6: 14}, {15: 1, 6: 14}, dice=(3, 1))  # black's 15 = white's 10
    after = play(state, "13/10* 6/5")
    assert after.to_json()["bar"]["black"] == 1
    assert after.to_json()["points"]["black"][14] == 0


def test_hit_on_an_intermediate_stop() -> None:
    """Rule text: "Dies ist auch möglich, wenn man auf diesem Feld nur einen
    „Zwischenstopp“ macht, d.h. mit einem Stein beide Augenzahlen setzt." """
    state = bg({13: 1, 6: 14}, {15: 1, 6: 14}, dice=(3, 1))
    assert "13/10*/9" in plays(state)
    assert "13/9" in plays(state)  # through 12: no hit
    hit = play(state, "13/10*/9")
    assert hit.to_json()["bar"]["black"] == 1
    quiet = play(state, "13/9")
    assert quiet.to_json()["bar"]["black"] == 0


def test_no_other_move_while_on_the_bar() -> None:
    """Rule text: "Der Besitzer dieses Steins darf erst dann andere Steine ziehen, wenn er
    alle seine geschlagenen Steine von der Bar wieder zurück ins Spiel gebracht hat." """
    state = bg({25: 1, 13: 14}, {6: 14}, dice=(4, 2))
    assert all(n.startswith("bar/") for n in plays(state))
    assert "bar/21 13/11" in plays(state)  # the other die is free after entering


def test_entering_counts_in_own_direction() -> None:
    """Rule text: "Um einen Stein wieder zurück ins Spiel zu bringen, würfelt der Spieler
    wie in einem normalen Zug, setzt aber seine Steine gemäß der Augenzahl in das
    Home-Board des Gegners. Hat der Spieler z.B. eine 3 und eine 5 gewürfelt, so muss er
    einen Stein auf das 3. oder 5. Point setzen. Gezählt wird hierbei in der eigenen
    Spielrichtung." The opponent's 3 and 5 point are the mover's 22 and 20."""
    state = bg({25: 1, 6: 14}, {6: 14}, dice=(5, 3))
    firsts = {n.split()[0] for n in plays(state)}
    assert {f.split("/")[1] for f in firsts if f.startswith("bar/")} <= {"22", "20", "17"}
    assert "bar/22 6/1" in plays(state) or "bar/20 6/3" in plays(state)
    assert "bar/17" in plays(state)


def test_whole_roll_lost_when_nothing_can_enter() -> None:
    """Rule text: "Kann kein Stein gesetzt werden, so verfällt der ganze Wurf und der
    Gegner ist am Zug." (Also the added rule: a roll with no legal move passes.)"""
    state = bg({25: 1, 13: 14}, {3: 2, 5: 2, 6: 2, 8: 9}, dice=(5, 3))
    assert state.legal_moves() == (PASS,)
    after = state.apply(PASS)
    assert after.current_player == "black"
    assert after.to_json()["points"] == state.to_json()["points"]


def test_all_hit_checkers_enter_before_any_other_move() -> None:
    """Rule text: "Wurden mehrere Steine geschlagen, so müssen erst alle wieder ins Spiel
    gebracht werden, bevor der Spieler wieder ziehen kann." With two on the bar and one
    entry point closed, one checker enters and the other die is lost."""
    two = bg({25: 2, 13: 13}, {6: 14}, dice=(4, 2))
    assert plays(two) == {"bar/23 bar/21"}
    blocked = bg({25: 2, 13: 13}, {4: 2, 6: 13}, dice=(4, 2))  # black 4 = white 21 closed
    assert plays(blocked) == {"bar/23"}


def test_bear_off_only_with_all_fifteen_home() -> None:
    """Rule text: "Befinden sich alle 15 Spielsteine im Home-Board, so darf mit dem
    Auswürfeln begonnen werden." One checker still on the bar forbids it."""
    state = bg({25: 1, 6: 14}, {1: 2}, dice=(6, 6))  # black's ace = white's 24
    assert all("off" not in n for n in plays(state))
    home = bg({6: 15}, {1: 2}, dice=(6, 6))
    assert plays(home) == {"6/off(4)"}


def test_bear_off_exactly_past_the_last_point() -> None:
    """Rule text: "Die Steine werden aus dem Home-Board entfernt, wenn sie über das letzte
    Feld des eigenen Home-Boards ins Feld „null“ ziehen können." """
    state = bg({5: 1, 3: 14}, {1: 2}, dice=(5, 3))
    assert "5/off 3/off" in plays(state)


def test_must_move_inside_home_when_no_exact_bear_off() -> None:
    """Rule text: "Kann mit einem Wurf ein Stein nicht direkt ausgespielt werden, so muss
    der Wurf im eigenen Home-Board gezogen werden." A 4 with checkers on 6 and 5 only
    moves inside (6/2 or 5/1), it does not bear off."""
    state = bg({6: 8, 5: 7}, {1: 2}, dice=(4, 4))
    assert all("off" not in n for n in plays(state))


def test_higher_die_bears_off_the_highest_checker() -> None:
    """Rule text: "Kann der Wurf nicht gezogen werden, weil nur noch auf niedrigeren
    Feldern Steine sind, so wird der höchste Stein ausgespielt." (The added rule: a
    higher die may bear off the highest checker.)"""
    state = bg({4: 1, 2: 14}, {1: 2}, dice=(6, 5))
    assert plays(state) == {"4/off 2/off"}
    lower_only = bg({3: 1, 2: 14}, {1: 2}, dice=(6, 6))
    assert plays(lower_only) == {"3/off 2/off(3)"}


# -- added standard rules (the text gives only the outline) ----------------------------


def test_both_dice_must_be_used_if_any_order_allows() -> None:
    """Standard rule: "Both dice must be used if any order allows it". 24/23 then 23/17 is
    the only way to use both; the 6 first (24/18) would leave the 1 unplayable."""
    # White: one checker on 24, the rest on 1 (they cannot bear off yet). Black closes
    # white's 18 (black's 7) and 22 (black's 3): only 24/23/17 plays both dice.
    state = bg({24: 1, 1: 14}, {7: 2, 3: 2}, dice=(6, 1))
    assert plays(state) == {"24/17"}


def test_only_one_die_usable_must_be_the_larger() -> None:
    """Standard rule: "if only one can be used, it must be the larger." """
    # The checker on 24 can move 6 (to 18) or 5 (to 19) but never both, because white's
    # 13 (black's 12) is closed; the rest cannot bear off while it is out.
    state = bg({24: 1, 1: 14}, {12: 2}, dice=(6, 5))
    assert plays(state) == {"24/18"}


def test_only_the_smaller_when_the_larger_cannot_move() -> None:
    """Standard rule (the converse): when the larger die cannot be played at all, the smaller
    one is."""
    state = bg({24: 1, 1: 14}, {7: 2, 12: 2}, dice=(6, 5))  # white's 18 and 13 closed
    assert plays(state) == {"24/19"}


def test_doubles_as_many_as_possible() -> None:
    """Standard rule: "Doubles give 4 moves, or as many as possible." """
    state = bg({24: 1, 1: 14}, {7: 2, 11: 2, 13: 0}, dice=(2, 2))
    # white 24 -> 22 -> 20 -> 18? black's 7 = white's 18 is closed: only 2 steps play.
    assert plays(state) == {"24/20"}


def test_opening_roll_one_die_each_ties_rerolled() -> None:
    """Standard rule: "Each player rolls one die and the higher one moves first with both
    dice"; ties are thrown again."""
    state = rules.get_game("backgammon").new_state()
    assert state.is_chance()
    assert len(state.chance_outcomes()) == 36
    assert state.roll([4, 4]) == state  # a tie: throw again
    black_first = state.roll([2, 5])
    assert black_first.current_player == "black"
    assert black_first.to_json()["dice"] == [5, 2]
    white_first = state.roll([6, 1])
    assert white_first.current_player == "white"
    assert "13/7 8/7" in plays(white_first)


def test_pass_turn_when_no_legal_move() -> None:
    """Standard rule: "A roll with no legal move passes the turn." """
    state = bg({25: 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, dice=(6, 6))
    assert state.legal_moves() == (PASS,)
    assert state.apply(PASS).current_player == "black"


@pytest.mark.parametrize(
    ("black", "kind", "points"),
    [
        ({1: 13}, "single", 1),  # black bore off two: a single game
        ({1: 15}, "gammon", 2),  # none off: gammon
        ({19: 1, 1: 14}, "backgammon", 3),  # one in white's home board
        ({25: 1, 1: 14}, "backgammon", 3),  # one on the bar
    ],
)
def test_scoring_single_gammon_backgammon(black: dict[int, int], kind: str, points: int) -> None:
    """Standard rule: "A gammon counts ×2 and a backgammon ×3." """
    state = bg({1: 1}, black, dice=(2, 1))
    over = play(state, "1/off")
    assert over.to_json()["games"] == [{"winner": "white", "points": points, "kind": kind}]
    assert over.play_stats()[kind + "s"] == 1


def test_notation_one_move_per_distinct_position() -> None:
    """A turn is presented as one move of up to four checker steps. The same resulting
    position is offered once, however many step orders lead to it."""
    state = rules.get_game("backgammon").state_from_position_id("4HPwATDgc/ABMA").roll([2, 2])
    results = [state.apply(m).interchange()["position_id"] for m in state.legal_moves()]
    assert len(results) == len(set(results))
    assert "13/11(2) 6/4(2)" in plays(state)
    assert state.parse_move("6/4 13/11 6/4 13/11") == state.parse_move("13/11(2) 6/4(2)")
    two_one = state.game.state_from_position_id("4HPwATDgc/ABMA").roll([2, 1])
    assert two_one.parse_move("13/11 11/10") == two_one.parse_move("13/10")


def test_notation_standard_forms() -> None:
    """The step notation is the standard one, e.g. 13/9 24/23, bar/22*, 6/off."""
    entering = bg({25: 1, 13: 14}, {3: 1, 6: 14}, dice=(3, 1))  # black 3 = white 22
    assert "bar/22* 13/12" in plays(entering)
    assert "bar/24 13/10" in plays(entering)
    bear = bg({6: 1, 1: 14}, {1: 2}, dice=(6, 1))
    assert "6/off 1/off" in plays(bear)
    opening = rules.get_game("backgammon").state_from_position_id("4HPwATDgc/ABMA")
    assert "24/23 13/9" in plays(opening.roll([4, 1]))


def test_illegal_and_malformed_moves_raise_one_line_errors() -> None:
    state = rules.get_game("backgammon").state_from_position_id("4HPwATDgc/ABMA").roll([3, 1])
    for bad in ("24/19", "7/4 6/5", "x/y", "13", "24/21(9)"):
        with pytest.raises(IllegalMoveError) as info:
            state.parse_move(bad)
        assert "\n" not in str(info.value)
    with pytest.raises(NotDecisionError):
        rules.get_game("backgammon").new_state().legal_moves()


@pytest.mark.parametrize(
    "broken",
    [
        {"points": {"white": [1] * 24, "black": [0] * 24}},
        {"points": {"white": [0] * 23, "black": [0] * 24}},
        {"points": {"white": [1] + [0] * 23, "black": [0] * 23 + [1]}},
        {"cube": 3},
        {"cube": 2, "cube_owner": "white"},  # single preset has no cube
        {"dice": [0, 3]},
        {"phase": "move"},
        {"turn": "red"},
    ],
)
def test_impossible_positions_are_rejected(broken: dict[str, Any]) -> None:
    data = rules.get_game("backgammon").new_state(first="white").to_json()
    data.update(broken)
    with pytest.raises(InvalidStateError) as info:
        rules.state_from_json(data)
    assert "\n" not in str(info.value)


# -- doubling cube, money and match play ------------------------------------------------


def test_cube_offer_take_and_ownership() -> None:
    """Doubling cube: offer/take/pass, and cube ownership. Only the side that owns the cube
    (or either, while it is centred) may double; after a take the taker owns it at twice
    the value."""
    game = rules.get_game("backgammon", "money")
    state = game.new_state(first="white")
    assert {m.notation for m in state.legal_moves()} == {"roll", "double"}
    offered = play(state, "double")
    assert offered.current_player == "black"
    assert plays(offered) == {"take", "drop"}
    taken = play(offered, "take")
    assert taken.cube == 2 and taken.cube_owner == 1
    assert taken.is_chance() and taken.current_player == "white"
    moved = taken.roll([3, 1]).apply(taken.roll([3, 1]).parse_move("8/5 6/5"))
    assert moved.current_player == "black" and plays(moved) == {"roll", "double"}
    redoubled = play(play(moved, "double"), "take")
    assert redoubled.cube == 4 and redoubled.cube_owner == 0
    after_black = redoubled.roll([2, 1])
    after_black = after_black.apply(after_black.legal_moves()[0])
    assert after_black.current_player == "white"
    assert plays(after_black) == {"roll", "double"}
    black_again = after_black.apply(after_black.parse_move("roll")).roll([2, 1])
    black_again = black_again.apply(black_again.legal_moves()[0])
    assert black_again.is_chance()  # black does not own the cube: no double offered


def test_dropped_double_ends_game_at_the_cube_value() -> None:
    """A pass (drop) of a double loses the current cube value (before doubling)."""
    game = rules.get_game("backgammon", "money")
    state = game.state_from_json(
        {**game.new_state(first="white").to_json(), "cube": 2, "cube_owner": "white"}
    )
    over = play(play(state, "double"), "drop")
    assert over.is_terminal()
    assert over.to_json()["games"] == [{"winner": "white", "points": 2, "kind": "drop"}]


def test_gammon_counts_times_cube() -> None:
    state = bg({1: 1}, {1: 15}, dice=(2, 1), preset="money", cube=4, cube_owner="black")
    over = play(state, "1/off")
    assert over.to_json()["games"][0]["points"] == 8


def test_single_preset_has_no_cube() -> None:
    """Money play with the cube is optional: ``single`` plays without it."""
    state = rules.get_game("backgammon", "single").new_state(first="white")
    assert state.is_chance()


def test_match_to_n_points_with_crawford_rule() -> None:
    """Standard rule, match play with the Crawford rule: the game after a side first
    reaches match point has no doubling; later games (post-Crawford) do."""
    game = rules.get_game("backgammon", "match5")
    base = bg(
        {1: 1},
        {1: 13},
        dice=(2, 1),
        preset="match5",
        score={"white": 3, "black": 0},
        games=[{"winner": "white", "points": 3, "kind": "backgammon"}],
    )
    crawford = play(base, "1/off")
    assert crawford.to_json()["score"] == {"white": 4, "black": 0}
    assert crawford.crawford and crawford.phase == 0  # next game's opening roll
    started = crawford.roll([5, 3])
    started = started.apply(started.legal_moves()[0])
    assert started.is_chance()  # no cube decision in the Crawford game
    # Black wins the Crawford game: the post-Crawford game has the cube again.
    done = started.to_json()
    del done["off"]  # derived; the new points below change it
    done.update(
        points={"white": [0] * 12 + [2] + [0] * 11, "black": [1] + [0] * 23},
        bar={"white": 0, "black": 0},
        turn="black",
        phase="move",
        dice=[2, 1],
    )
    end = game.state_from_json(done)
    post = play(end, "1/off")
    assert not post.crawford
    assert post.to_json()["score"] == {"white": 4, "black": 1}
    first = post.roll([1, 6])  # black, the trailer, wins the opening roll
    leader = first.apply(first.legal_moves()[0])
    assert leader.current_player == "white" and leader.is_chance()  # 1 away: a dead cube
    rolled = leader.roll([3, 1])
    trailer = rolled.apply(rolled.legal_moves()[0])
    assert trailer.current_player == "black" and plays(trailer) == {"roll", "double"}


def test_a_dead_cube_is_not_offered() -> None:
    """In a match a cube whose value already wins its owner the match is dead: GNU
    Backgammon refuses the double ("The cube is dead"), so that side rolls at once."""
    score = {"white": 3, "black": 0}
    live = bg({6: 15}, {6: 15}, preset="match5", phase="double", score=score)
    assert plays(live) == {"roll", "double"}  # white 2 away, cube 1
    taken = play(play(live, "double"), "take")  # black owns 2, 5 away: live for black
    assert taken.cube == 2 and taken.cube_owner == 1
    moved = taken.roll([2, 1])
    redouble = moved.apply(moved.legal_moves()[0])
    assert plays(redouble) == {"roll", "double"}
    owned = play(play(redouble, "double"), "take")  # white owns 4 at 2 away: dead
    rolled = owned.roll([2, 1])
    dead = rolled.apply(rolled.legal_moves()[0])
    assert dead.current_player == "white" and dead.cube == 4 and dead.is_chance()
    with pytest.raises(InvalidStateError, match="may not double"):
        bg(
            {6: 15},
            {6: 15},
            preset="match5",
            phase="double",
            score=score,
            cube=2,
            cube_owner="white",
        )
    money = bg({6: 15}, {6: 15}, preset="money", phase="double", cube=4, cube_owner="white")
    assert plays(money) == {"roll", "double"}  # money play has no dead cube


def test_random_matches_never_turn_a_dead_cube() -> None:
    """Random players once ended a match to 5 at 129:1, redoubling a dead cube up to 64.
    Now every double is of a live cube, so the last game scores at most a backgammon
    with the cube doubled from below the doubler's distance (8 in a match to 5)."""
    start = rules.get_game("backgammon", "match5").new_state()
    assert isinstance(start, BackgammonState)
    bots = {c: RandomBot() for c in ("white", "black")}
    redoubles = 0
    for seed in range(40):
        state = start
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance():
                state = state.roll(sample_roll(state.chance_outcomes(), rng))
                continue
            move = bots[state.current_player or ""].choose(state, rng)
            if move.notation == "double":
                assert state.cube < 5 - state.score[state.turn], state.describe()
                redoubles += state.cube > 1
            state = state.apply(move)
        assert max(state.score) <= 4 + 3 * 8
    assert redoubles  # the cube went past 2 and was still turned where it was live


def test_match_ends_when_a_side_reaches_the_length() -> None:
    state = bg(
        {1: 1},
        {1: 15},
        dice=(2, 1),
        preset="match5",
        score={"white": 3, "black": 2},
        games=[
            {"winner": "white", "points": 3, "kind": "backgammon"},
            {"winner": "black", "points": 2, "kind": "gammon"},
        ],
    )
    over = play(state, "1/off")
    assert over.is_terminal()
    assert over.winners() == ("white", "black")
    assert over.to_json()["score"] == {"white": 5, "black": 2}
    assert over.play_stats()["games_played"] == 3


def test_random_match_games_end_and_keep_score() -> None:
    game = rules.get_game("backgammon", "match5")
    start = game.new_state()
    bots = {c: rules.bots.RandomBot() for c in ("white", "black")}
    for seed in range(20):
        record = play_game(start, bots, random.Random(seed))
        data = record.final.to_json()
        assert max(data["score"].values()) >= 5
        assert sum(g["points"] for g in data["games"]) == sum(data["score"].values())


def test_json_roundtrip_and_start_constant() -> None:
    state = rules.get_game("backgammon").new_state()
    assert state.boards == (START, START)
    again = rules.state_from_json(state.to_json())
    assert again == state and hash(again) == hash(state)
