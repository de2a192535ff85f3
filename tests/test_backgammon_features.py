"""The Backgammon network's hand-made inputs (rules/backgammon/features.py): counted by
hand on positions a player would recognise, and the same in the trainer's numpy copy."""

from __future__ import annotations

import random

import pytest

import rules
from rules.backgammon import features as f
from rules.backgammon.engine import BackgammonState
from rules.backgammon.net import BOARD_INPUTS, Network, from_bytes, shipped
from rules.bots import make_bot
from rules.playout import steps
from tests.test_bots_backgammon import load_benchmark

EMPTY = (0,) * 25


def board(**placed: int) -> tuple[int, ...]:
    """A board in its own view: p1 … p24 the points, bar the bar."""
    counts = [0] * 25
    for name, n in placed.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def start() -> tuple[int, ...]:
    state = rules.get_game("backgammon").new_state()
    assert isinstance(state, BackgammonState)
    return state.boards[0]


def test_the_start_position_counts_as_a_player_would() -> None:
    s = start()
    # the back checkers on the 24-point: the other side's 6-, 8- and midpoint stand 5, 7
    # and 12 pips ahead, so the sums 5, 7, 12 and 5-5 are stopped: 36 - 12 = 24 escape
    assert f.escapes(s, s) == 24
    assert f.shots(s, s) == 0  # no blot
    assert f.home_points(s) == 1  # the 6-point
    assert f.prime(s) == 1
    assert f.features(s, s)[: f.FIRST_BLOCK] == (24 / 36, 0.0, 1 / 6, 1 / 6) * 2
    # the second block: of the bar and the points 13-24 the 23-point is the hardest to
    # leave (their 6-, 8- and midpoint 4, 6 and 11 pips ahead: 22 rolls escape, fewer
    # than the back checkers' 24); the 24-point is the back anchor; every checker is
    # beyond the other side's rearmost (its 24-point, our 1-point): 167 pips less one
    # each; no blot
    assert f.counts(s, s)[f.FIRST_BLOCK : f.SECOND_BLOCK] == (22, 24, 167 - 15, 0) * 2
    # the third block: no blot; the two back checkers stand on the other side's 1-point,
    # their ace-point anchor; timing (counted out in the next test) 52 pips
    assert f.counts(s, s)[f.SECOND_BLOCK :] == (0, 2, 1, 52) * 2


def test_the_third_block_counts_double_shots_checkers_back_the_anchor_and_timing() -> None:
    # their checker on the bar: our blots on the 3- and 5-point stand 3 and 5 pips from
    # it; only 3-2 and 5-3 reach both (a double reaches 3 or 5 but never both): 4 rolls
    blots = board(p3=1, p5=1)
    assert f.double_shots(blots, board(bar=1)) == 4
    assert f.double_shots(board(p3=1), board(bar=1)) == 0  # one blot: no double shot
    assert f.double_shots(board(p3=2, p5=2), board(bar=1)) == 0  # made points
    # the 19- to 24-points are the other side's home board; the bar counts as back
    held = board(p24=2, p20=2, p19=1, bar=1, p6=9)
    assert f.checkers_back(held) == 6
    # the most advanced anchor there: our 20-point is their 5-point, the golden anchor
    assert f.forward_anchor(held) == 5
    assert f.forward_anchor(board(p24=2)) == 1
    assert f.forward_anchor(board(p18=2, p19=1)) == 0  # their bar point is outside
    # timing, counted by hand for the start: the other side's rearmost checker stands on
    # our 1-point, so all but our 24-point is still to pass it. The two on the 24-point
    # hold it and count nothing, three of the five on the midpoint count 12 pips each,
    # the three on the 8-point 7 each, the three spares on the 6-point 5 each: 36 + 21 +
    # 15 = 72, with 9 checkers free. The empty 5-, 4-, 3- and 2-points take back 2 x
    # (4 + 3 + 2 + 1) = 20 and 8 checkers; the 1-point finds only one left, no pair.
    assert f.timing(start(), start()) == 52
    # a checker on the bar counts 24 pips; two of them then fill our empty 6-point
    assert f.timing(board(bar=2), EMPTY) == 48 - 2 * 5
    # a lone checker on the 1-point: nothing left to play
    assert f.timing(board(p1=1), board(p24=1)) == 0


def test_the_second_block_counts_blockades_anchors_contact_and_the_cost_of_a_hit() -> None:
    prime = board(p7=2, p8=2, p9=2, p10=2, p11=2, p12=2)  # their points 7-12
    # on our indices their 7-12 points are our 18-13: from our 19-point nothing escapes
    assert f.containment(prime) == 0
    assert f.containment(EMPTY) == 36
    assert f.back_anchor(board(p20=2, p24=1, p6=3)) == 20
    assert f.back_anchor(board(p24=1)) == 0
    # their rearmost checker on their 24-point is on our 1-point: a checker on our
    # 24-point is 23 pips from it, one on the bar 24; none on their side: no contact
    assert f.break_contact(board(p24=1, bar=1), board(p24=1)) == 23 + 24
    assert f.break_contact(board(p24=1), board(p1=1)) == 0
    # our blot on the 6-point, their checker 5 pips behind: 15 rolls hit, each costs 6
    # pips: 90 / 36 rounded down
    assert f.pips_lost_to_a_hit(board(p6=1), board(p24=1)) == 2
    # from their bar only 5-5 reaches our 20-point: 20 / 36 rounds to 0
    assert f.pips_lost_to_a_hit(board(p20=1), board(bar=1)) == 0
    # two blots: a roll that hits both costs the larger loss once
    both = f.pips_lost_to_a_hit(board(p6=1, p3=1), board(p24=1))
    assert both > f.pips_lost_to_a_hit(board(p6=1), board(p24=1))
    assert both <= (f.shots(board(p6=1, p3=1), board(p24=1)) * 6) // 36


def test_a_full_prime_lets_nothing_out_and_an_open_board_everything() -> None:
    on_bar = board(bar=1)
    closed = board(p1=2, p2=2, p3=2, p4=2, p5=2, p6=2)
    assert f.escapes(on_bar, closed) == 0
    assert f.escapes(on_bar, EMPTY) == 36
    assert f.escapes(EMPTY, closed) == 36  # nothing left to escape
    assert f.prime(closed) == 6 and f.home_points(closed) == 6
    # a broken prime: the longest run, not the count
    assert f.prime(board(p4=2, p5=2, p7=2, p8=2, p9=2, p10=3)) == 4


def test_shots_are_the_rolls_of_36_that_hit() -> None:
    blot = board(p6=1)  # on my 6-point
    # their checker on their own 24-point stands on my 1-point: 5 pips away, 15 rolls
    # (every 5, 4-1, 3-2); from their bar 6 pips away: 17 rolls (every 6, 5-1, 4-2, 3-3, 2-2)
    assert f.shots(blot, board(p24=1)) == 15
    assert f.shots(blot, board(bar=1)) == 17
    # a checker already past the blot cannot hit it; a made point is no blot
    assert f.shots(blot, board(p12=1)) == 0
    assert f.shots(board(p6=2), board(p24=1)) == 0
    # on the bar, they must come in first: their checker on the 24-point does not count
    assert f.shots(board(p19=1), board(bar=1, p24=1)) == f.shots(board(p19=1), board(bar=1))
    assert f.shots(board(p19=1), board(bar=1)) == 0  # 20 pips from the bar: out of reach


def test_the_numpy_copy_matches_the_rules_on_played_positions() -> None:
    """The trainer builds the same inputs with numpy (benchmarks/train_backgammon_net.py),
    the main network's and a race network's: its own check, run here over positions of
    seeded random games."""
    np = pytest.importorskip("numpy")
    trainer = load_benchmark("train_backgammon_net.py")
    game = rules.get_game("backgammon")
    rows = []
    for seed in range(20):
        bots = {p: make_bot("random") for p in ("white", "black")}
        for step in steps(game.new_state(), bots, random.Random(seed)):
            after = step.after
            assert isinstance(after, BackgammonState)
            rows.append(after.boards[0] + after.boards[1])
            rows.append(after.boards[1] + after.boards[0])
    boards = np.array(rows, dtype=np.int8)
    assert len(boards) > 1000
    trainer.check_dense(boards, sample=len(boards))


def test_the_one_pass_counts_equal_the_figures_one_by_one() -> None:
    """counts() works over bit masks in one pass per board, for speed; over the positions
    of seeded random games it gives exactly what the figures' own functions give, with
    one, two and three blocks."""
    game = rules.get_game("backgammon")
    positions = 0
    for seed in range(30):
        bots = {p: make_bot("random") for p in ("white", "black")}
        for step in steps(game.new_state(), bots, random.Random(seed)):
            after = step.after
            assert isinstance(after, BackgammonState)
            for mine, theirs in (after.boards, after.boards[::-1]):
                for blocks in (1, 2, 3):
                    assert f.counts(mine, theirs, blocks) == f.reference_counts(
                        mine, theirs, blocks
                    ), (mine, theirs)
                positions += 1
    assert positions > 3000
    # the edges a random game rarely reaches: both sides on the bar, a blot 24 pips away
    edge = board(p24=1, bar=2, p1=1)
    for other in (board(bar=1), board(p1=2, bar=15), EMPTY, board(p24=15)):
        for mine, theirs in ((edge, other), (other, edge)):
            assert f.counts(mine, theirs) == f.reference_counts(mine, theirs)


def test_a_network_without_the_figures_still_loads_and_plays() -> None:
    """An older blob (199 inputs, no figures) reads and evaluates as it always did."""
    net = shipped()
    old = Network(net.rows[:BOARD_INPUTS], net.hidden_bias, net.out_rows, net.out_bias)
    again = from_bytes(old.to_bytes())
    assert not again.reads_features
    s = start()
    assert again.probabilities(s, s) == pytest.approx(again.reference_probabilities(s, s))


def test_a_network_of_fewer_blocks_gets_only_those_blocks() -> None:
    """counts(..., blocks=1) and (..., blocks=2), what a 207- or 215-input network asks
    for, are the first blocks of the full counts, and a network of each shape evaluates
    the same through its packed rows as straight from the inputs."""
    s, other = start(), board(p6=1, p20=2, bar=1)
    assert f.counts(s, other, 1) == f.counts(s, other)[: f.FIRST_BLOCK]
    assert f.counts(s, other, 2) == f.counts(s, other)[: f.SECOND_BLOCK]
    net = shipped()
    for figures in f.BLOCKS:
        inputs = BOARD_INPUTS + figures
        extra = tuple((0.01 * k,) * net.hidden for k in range(inputs - len(net.rows)))
        rows = net.rows[:inputs] + extra
        cut = from_bytes(Network(rows, net.hidden_bias, net.out_rows, net.out_bias).to_bytes())
        assert cut.figure_inputs == figures
        assert cut.probabilities(s, other) == pytest.approx(cut.reference_probabilities(s, other))
