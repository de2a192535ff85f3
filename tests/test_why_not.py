"""Why a piece has no legal move: the rules' typed reasons, each from a constructed
position, citing the rule that takes the move away.

MÄDN classic cites the numbered "allgemeine Spielregeln" (1–15); the Ärgern house
rules their own numbers (0–10); Kleiner Ärger and Backgammon, whose rule texts are not
numbered, quote the sentence. Every case also checks that the pieces named are exactly
those the legal moves leave out, so the reason can never disagree with the buttons.
"""

from __future__ import annotations

from typing import Any

import rules
from rules.backgammon.why_not import BackgammonBlocked as Checker
from rules.backgammon.why_not import BackgammonWhy as BgWhy
from rules.core import State
from rules.track.facts import Area, Spot
from rules.track.why_not import TrackBlocked, TrackWhy
from tests.helpers import position, track_position
from tests.test_backgammon import OPEN, bg

ALL_HOME = ["home"] * 4
HOME = Spot(Area.HOME)


def reasons(state: State) -> tuple[Any, ...]:
    found = rules.capabilities(state.game.name).why_not
    assert found is not None
    return tuple(found(state))


def classic(pieces: dict[str, list[Any]], die: int) -> State:
    return track_position("classic", pieces, "red").roll([die])


def on(field: int) -> Spot:
    return Spot(Area.TRACK, field)


def test_rule_10_capture_is_compulsory() -> None:
    """Rule 10: "(Pflicht) Trifft eine Figur auf ein vom Gegner besetztes Feld, so muss
    die gegnerische Spielfigur geschlagen werden. -Schlagen ist oberste Pflicht-" The
    piece on 30 could walk 4, but the piece on 17 must capture on 21."""
    state = classic({"red": ["home", "home", 17, 30], "green": [21, "home", "home", "home"]}, 4)
    assert [m.notation for m in state.legal_moves()] == ["17-21x"]
    assert reasons(state) == (
        TrackBlocked(HOME, TrackWhy.NEEDS_SIX),
        TrackBlocked(on(30), TrackWhy.CAPTURE_COMPULSORY),
    )


def test_rule_4_a_six_must_bring_a_piece_out() -> None:
    """Rule 4: "(Pflicht) Beim Würfeln einer 6 muss eine Figur aus den Eckkreisen auf das
    Startfeld der eigenen Spielfarbe ... gesetzt werden": the piece on 14 must wait."""
    state = classic({"red": ["home", "home", "home", 14], "green": ALL_HOME}, 6)
    assert reasons(state) == (TrackBlocked(on(14), TrackWhy.MUST_ENTER),)


def test_rule_4_exception_the_capture_comes_before_entering() -> None:
    """Rule 4: "(Ausnahme siehe 10 „Schlagpflicht“)": the waiting pieces may not enter
    because the piece on 14 captures with the 6."""
    state = classic({"red": ["home", "home", "home", 14], "green": [20, "home", "home", "home"]}, 6)
    assert reasons(state) == (TrackBlocked(HOME, TrackWhy.CAPTURE_COMPULSORY),)


def test_rule_5_the_start_field_must_be_cleared() -> None:
    """Rule 5: "(Pflicht) Das Startfeld muss immer frei gemacht werden, ... solange sich
    eine Spielfigur auf einem der Eckkreise befindet": the piece on 17 waits for the
    one on the start field; the waiting ones need a 6 (rule 4)."""
    state = classic({"red": ["home", "home", 0, 17], "green": ALL_HOME}, 4)
    assert [m.notation for m in state.legal_moves()] == ["0-4"]
    assert reasons(state) == (
        TrackBlocked(HOME, TrackWhy.NEEDS_SIX),
        TrackBlocked(on(17), TrackWhy.START_MUST_BE_CLEARED),
    )


def test_rule_14_exactly_into_the_goal() -> None:
    """Rule 14: "Das „Einrücken“ hat „Augengenau“ zu erfolgen": the piece on 38 cannot
    go 6 past the fourth goal field (38 + 6 is two beyond it)."""
    state = classic({"red": ["home", "home", "home", 38], "green": ALL_HOME}, 6)
    assert TrackBlocked(on(38), TrackWhy.EXACT_INTO_GOAL) in reasons(state)


def test_rule_14_no_jumping_over_own_pieces_in_the_goal() -> None:
    """Rule 14: "Innerhalb der vier Zielfelder dürfen die eigenen Figuren nicht
    übersprungen werden": 38 + 5 is goal 4, past the own piece in goal 2; the goal-2
    piece itself would go past goal 4."""
    state = classic({"red": ["home", "home", 38, "goal2"], "green": ALL_HOME}, 5)
    assert state.legal_moves()[0].notation == "pass"
    assert reasons(state) == (
        TrackBlocked(HOME, TrackWhy.NEEDS_SIX),
        TrackBlocked(on(38), TrackWhy.NO_JUMPING_IN_GOAL),
        TrackBlocked(Spot(Area.GOAL, "2"), TrackWhy.EXACT_INTO_GOAL),
    )


def test_rule_9_one_piece_a_field_own_piece_in_the_way() -> None:
    """Rule 9: "Ein Spielfeld darf jedoch auch nur von einer Figur besetzt werden": the
    piece on 10 cannot land on its own piece on 14."""
    state = classic({"red": ["home", "home", 10, 14], "green": ALL_HOME}, 4)
    assert reasons(state) == (
        TrackBlocked(HOME, TrackWhy.NEEDS_SIX),
        TrackBlocked(on(10), TrackWhy.OWN_PIECE_ON_TARGET),
    )


def test_finished_pieces_are_not_explained() -> None:
    """Rule 15 (the goal): pieces at the end of the goal lane have nothing left to do;
    nobody wants to move them, so the coach does not talk about them."""
    state = classic({"red": [20, "goal2", "goal3", "goal4"], "green": ALL_HOME}, 3)
    assert reasons(state) == ()


def test_lingo_house_rule_2_no_capture_obligation_gives_no_reason() -> None:
    """House rule 2 ("Es besteht keine Schlagpflicht") and 4 ("Das Startfeld muss nicht
    freigemacht werden"): with a 4 every piece on the track may move, none is held back."""
    state = track_position(
        "lingo", {"red": ["home", "home", 0, 17], "green": [21, "home", "home", "home"]}
    ).roll([4])
    assert reasons(state) == (TrackBlocked(HOME, TrackWhy.NEEDS_SIX),)


def test_kleiner_aerger_start_field_cleared_as_soon_as_possible() -> None:
    """Kleiner Ärger: "Das Startfeld muss so bald wie möglich wieder freigemacht
    werden." Unlike MÄDN rule 5 it binds with no piece waiting: the red piece on its
    start field (a4) must move, the other one waits."""
    state = position(
        "kleiner_aerger",
        players=["red", "blue"],
        turn="red",
        pieces={"red": [0, 5], "blue": ["out", "out"]},
    ).roll([3])
    assert [m.notation for m in state.legal_moves()] == ["0-3"]
    assert reasons(state) == (TrackBlocked(on(5), TrackWhy.START_MUST_BE_CLEARED),)


def test_kleiner_aerger_goal_field_taken_by_own_piece() -> None:
    """Kleiner Ärger: "Ist das Zielfeld bereits mit einer eigenen Figur besetzt, darf
    der Zug weder ausgeführt noch neu gewürfelt werden. Es muss dann mit einer anderen
    Figur gesetzt werden." """
    state = position(
        "kleiner_aerger",
        players=["red", "blue"],
        turn="red",
        pieces={"red": ["lap", "goal2"], "blue": ["out", "out"]},
    ).roll([2])
    assert state.legal_moves()[0].notation == "pass"
    assert reasons(state) == (TrackBlocked(Spot(Area.LAP), TrackWhy.OWN_PIECE_ON_TARGET),)


def test_kleiner_aerger_a_six_brings_a_piece_out() -> None:
    """Kleiner Ärger: "Wer eine Sechs würfelt, muss, wenn er eine Figur in der
    Startposition hat, eine eigene Spielfigur aus der Startposition auf das benachbarte
    Startfeld stellen." The piece on 5 waits; with a 3 the waiting one cannot come out."""
    pieces = {"red": ["out", 5], "blue": ["out", "out"]}
    six = position("kleiner_aerger", players=["red", "blue"], turn="red", pieces=pieces)
    assert reasons(six.roll([6])) == (TrackBlocked(on(5), TrackWhy.MUST_ENTER),)
    assert reasons(six.roll([3])) == (TrackBlocked(HOME, TrackWhy.NEEDS_SIX),)


def test_kleiner_aerger_counted_into_the_goal() -> None:
    """Kleiner Ärger: "Auch im Zielfeld werden die einzelnen Positionen wie auf der
    Laufbahn gezählt": from the lap field a 4 is two beyond the second goal field."""
    state = position(
        "kleiner_aerger",
        players=["red", "blue"],
        turn="red",
        pieces={"red": ["lap", 5], "blue": ["out", "out"]},
    ).roll([4])
    assert [m.notation for m in state.legal_moves()] == ["5-9"]
    assert reasons(state) == (TrackBlocked(Spot(Area.LAP), TrackWhy.EXACT_INTO_GOAL),)


# -- Backgammon ------------------------------------------------------------------------


def test_backgammon_the_bar_first() -> None:
    """ "Der Besitzer dieses Steins darf erst dann andere Steine ziehen, wenn er alle
    seine geschlagenen Steine von der Bar wieder zurück ins Spiel gebracht hat." Both
    entry points are closed: the checker on the bar is blocked, the others wait for it."""
    state = bg({25: 1, 13: 14}, {3: 2, 5: 2, 6: 2, 8: 9}, dice=(5, 3))
    assert reasons(state) == (Checker(24, BgWhy.POINT_CLOSED), Checker(12, BgWhy.BAR_FIRST))


def test_backgammon_closed_points() -> None:
    """ "Felder, die bereits mit zwei oder mehr gegnerischen Steinen besetzt sind,
    können von den eigenen Steinen nicht benutzt werden." White's 8 and 9 are black's:
    the checker on 13 moves neither 5 nor 4."""
    state = bg({13: 1, 1: 14}, {17: 2, 16: 3}, dice=(5, 4))
    assert Checker(12, BgWhy.POINT_CLOSED) in reasons(state)


def test_backgammon_bearing_off_only_with_all_home() -> None:
    """ "Befinden sich alle 15 Spielsteine im Home-Board, so darf mit dem Auswürfeln
    begonnen werden." The checkers on the ace point wait for the one on 24."""
    state = bg({24: 1, 1: 14}, {12: 2}, dice=(6, 5))
    assert reasons(state) == (Checker(0, BgWhy.NOT_ALL_HOME),)


def test_backgammon_the_highest_checker_is_borne_off() -> None:
    """ "Kann der Wurf nicht gezogen werden, weil nur noch auf niedrigeren Feldern Steine
    sind, so wird der höchste Stein ausgespielt." With 6-6 the checkers on the 6 point
    go off; the one on the 2 point may not take a 6."""
    state = bg({6: 14, 2: 1}, {1: 2}, dice=(6, 6))
    assert reasons(state) == (Checker(1, BgWhy.HIGHER_CHECKER_FIRST),)


def test_backgammon_both_dice_must_be_played() -> None:
    """The standard rule beside the rule text: as many dice as possible must be played.
    Only the checker on 15 plays both 6 and 2 (15/7); the checker on 3 could play the 2,
    but then the 6 could not be played."""
    white = (7, 5, 2) + (0,) * 11 + (1,) + (0,) * 10
    black = (0, 3, 1) + (0,) * 11 + (1, 3, 1, 0, 2, 3, 1) + (0,) * 5
    state = bg(
        {i + 1: n for i, n in enumerate(white) if n},
        {i + 1: n for i, n in enumerate(black) if n},
        dice=(6, 2),
    )
    assert [m.notation for m in state.legal_moves()] == ["15/7"]
    assert Checker(2, BgWhy.USE_BOTH_DICE) in reasons(state)


def test_backgammon_opening_gives_no_reasons_where_everything_moves() -> None:
    """At the opening 3-1 every point's checkers have a legal play: nothing to explain."""
    state = bg(OPEN, OPEN, dice=(3, 1))
    assert reasons(state) == ()
