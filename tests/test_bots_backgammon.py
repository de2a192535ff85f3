"""Backgammon's strong player: the network, the cube heuristics and the pubeval yardstick.

The strength target itself (>= 60 % of 2000 money games against pubeval) is measured by
``benchmarks/bots.py``; here a small seeded match checks the bot is clearly above its
yardstick, and the rest is behaviour: the textbook openings, exact scoring of a game-
winning play, cube decisions in positions whose answers are not in doubt, the match
equity table's known values, the time budget, and the weights blob's round trip.

pubeval itself is checked three ways: the rules-side implementation, the separate
yardstick (``benchmarks/pubeval.py``, Tesauro's ``pos`` formulation) and GNU
Backgammon's ``pub_eval_score`` (``gnubg-nn``) agree on positions from random games.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import json
import random
import re
import struct
import sys
from pathlib import Path
from types import ModuleType

import pytest

import rules
from rules.backgammon import net as backgammon_net
from rules.backgammon.bot import BLEND, CANDIDATES, REPLIES, BackgammonBot
from rules.backgammon.cube import (
    match_double,
    match_equity,
    match_take,
    money_double,
    money_take,
)
from rules.backgammon.engine import (
    DOUBLE,
    TAKE,
    BackgammonState,
    Play,
    has_contact,
    pip_count,
    result_kind,
)
from rules.backgammon.net import (
    CONTACT,
    INPUTS,
    MAGIC,
    Network,
    PackedLayer,
    consistent,
    encode,
    equity,
    flip,
    from_bytes,
    shipped,
)
from rules.backgammon.pubeval import ALL_OFF, pubeval
from rules.bots import make_bot
from rules.budget import Budget
from rules.core import State
from rules.data import provenance
from rules.playout import play_game

ROOT = Path(__file__).resolve().parent.parent
_start = rules.get_game("backgammon").new_state()
assert isinstance(_start, BackgammonState)
START = _start.boards[0]


def load_benchmark(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / name)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def random_positions(count: int, seed: int) -> list[Play]:
    game = rules.get_game("backgammon")
    rng = random.Random(seed)
    plays: list[Play] = []
    while len(plays) < count:
        state: State = game.new_state()
        while not state.is_terminal() and len(plays) < count:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            plays.extend(m for m in moves if isinstance(m, Play))
            state = state.apply(moves[rng.randrange(len(moves))])
    return plays


def money_state(white: list[int], black: list[int], phase: str = "double") -> BackgammonState:
    data = {
        "game": "backgammon",
        "preset": "money",
        "turn": "white",
        "phase": phase,
        "points": {"white": white, "black": black},
    }
    state = rules.get_game("backgammon", "money").state_from_json(data)
    assert isinstance(state, BackgammonState)
    return state


# -- pubeval, three implementations ------------------------------------------------------


def test_pubeval_agrees_with_the_separate_yardstick() -> None:
    score = load_benchmark("pubeval.py").score
    for play in random_positions(600, seed=4):
        assert pubeval(play.mover, play.other) == pytest.approx(score(play.mover, play.other))


def test_yardstick_agrees_with_gnu_backgammons_pubeval() -> None:
    """An independent pubeval: GNU Backgammon's own ``pub_eval_score`` (C, float)."""
    gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    score = load_benchmark("pubeval.py").score
    checked = 0
    for play in random_positions(600, seed=5):
        if sum(play.mover) == 0:
            continue
        theirs = gnubg_nn.pub_eval_score([list(play.mover), list(play.other)])
        assert score(play.mover, play.other) == pytest.approx(theirs, abs=1e-4)
        checked += 1
    assert checked > 500


def test_race_and_contact_are_told_apart() -> None:
    start = rules.get_game("backgammon").new_state()
    assert isinstance(start, BackgammonState)
    assert has_contact(*start.boards)
    own = (3, 3, 3, 3, 3) + (0,) * 20
    opp = (2, 2, 2, 3, 3, 3) + (0,) * 19
    assert not has_contact(own, opp)
    assert not has_contact(opp, own)  # the same fact from either side


def test_pubeval_scores_bearing_off_the_last_checker_highest() -> None:
    assert pubeval((0,) * 25, (2,) + (0,) * 24) == ALL_OFF


# -- the network ---------------------------------------------------------------------------


def test_encoding_is_sparse_and_within_the_input_layer() -> None:
    units = encode(START, START)
    indices = [i for i, _ in units]
    assert len(indices) == len(set(indices))
    assert all(0 <= i < INPUTS and v != 0 for i, v in units)
    # 4 occupied points per side: 5 -> 4 units, 3 -> 3, 5 -> 4, 2 -> 2; plus pips, contact;
    # then per side the hand-made figures that are not zero: escapes, home points, prime;
    # containment, back anchor, break contact (no blot: no shots, no pips lost to a hit);
    # checkers back, forward anchor, timing (no blot: no double shots)
    assert len(units) == 2 * (4 + 3 + 4 + 2) + 3 + 2 * 3 + 2 * 3 + 2 * 3
    assert pip_count(START) == 167


def test_weights_blob_round_trips_and_rejects_garbage() -> None:
    net = shipped()
    blob = net.to_bytes()
    again = from_bytes(blob)
    assert again.probabilities(START, START) == net.probabilities(START, START)
    with pytest.raises(ValueError, match="magic"):
        from_bytes(b"not a network at all")
    with pytest.raises(ValueError, match="weight bytes"):
        from_bytes(blob[:-2])
    weights = (len(net.rows) + 1) * net.hidden + (net.hidden + 1) * 5
    assert len(blob) == len(MAGIC) + 6 + 2 * weights  # half floats after a short header
    assert len(blob) < 128_000  # about 115 KB: 256 hidden units, in the wheel and on a Pi


def test_fast_forward_pass_equals_the_reference_encoding() -> None:
    """The precombined rows (one per occupied place) compute what encode() describes."""
    net = shipped()
    checked = 0
    for play in random_positions(800, seed=8):
        if sum(play.mover) == 0:
            continue
        fast = net.probabilities(play.other, play.mover)
        assert fast == pytest.approx(net.reference_probabilities(play.other, play.mover), abs=1e-9)
        checked += 1
    assert checked > 700


def test_packed_rows_add_the_largest_weights_a_blob_can_hold_exactly() -> None:
    """The first layer adds whole numbers in 64-bit fields of one long integer: with
    every weight at a half float's extreme (±65504), of both signs side by side, no
    field runs into its neighbour, and the sums are the float sums."""
    hidden = 6
    extreme = [65504.0, -65504.0, 1e-3, -1e-3, 65504.0, -65504.0]
    rows = tuple(tuple(extreme[(i + j) % hidden] for j in range(hidden)) for i in range(INPUTS))
    out = tuple((0.0,) * hidden for _ in range(5))
    net = Network(rows, tuple(-w for w in extreme), out, (0.0,) * 5)
    layer = PackedLayer.of(net)
    stacks, figures = net.stack_rows(), net.figure_rows()
    chosen = [stacks[0][5][15], stacks[1][24][15], stacks[1][25][15], figures[1][36]]
    acc = (
        layer.bias
        + layer.contact
        + sum(layer.stacks[s][p][n] for s, p, n in [(0, 5, 15), (1, 24, 15), (1, 25, 15)])
    )
    acc += layer.figures[1][36]
    floats = [
        b + c + sum(row[j] for row in chosen)
        for j, (b, c) in enumerate(zip(net.hidden_bias, net.rows[CONTACT], strict=True))
    ]
    assert layer.unpack(acc, len(chosen) + 1) == pytest.approx(floats, rel=1e-12, abs=1e-9)


def test_weights_that_are_no_numbers_or_too_large_are_refused() -> None:
    """A blob with NaN or an infinity among its half floats is not a network; a network
    built in code with a weight beyond the packed field's range fails on first use, with
    a message, not a wrong sum."""
    blob = bytearray(shipped().to_bytes())
    for bad in (float("nan"), float("inf"), float("-inf")):
        blob[-2:] = struct.pack("<e", bad)
        with pytest.raises(ValueError, match="not a finite number"):
            from_bytes(bytes(blob))
    net = shipped()
    huge = Network(
        (tuple([1e7] * net.hidden), *net.rows[1:]), net.hidden_bias, net.out_rows, net.out_bias
    )
    with pytest.raises(ValueError, match="does not fit"):
        huge.probabilities(START, START)


def test_the_trainer_grows_a_network_without_changing_what_it_says() -> None:
    """``--start`` with a larger ``--hidden``: the added units start with no say in the
    outputs, so before the first step the grown network is the start network."""
    np = pytest.importorskip("numpy")
    trainer = load_benchmark("train_backgammon_net.py")
    start = shipped()
    boards = np.zeros((1, 50), np.int8)
    labels = np.zeros((1, 5), np.float32)
    params = trainer.train(boards, labels, start.hidden + 16, 0, 1, 3, print, start=start)
    grown = trainer.to_network(params)
    assert grown.hidden == start.hidden + 16
    for play in random_positions(40, seed=5):
        if sum(play.mover):
            assert grown.probabilities(play.other, play.mover) == pytest.approx(
                start.probabilities(play.other, play.mover), abs=1e-6
            )


def test_the_network_speed_benchmark_times_the_same_answers_on_every_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """benchmarks/backgammon_network_speed.py: its lines of ours evaluate the same
    positions to the same probabilities, so the ratio compares like with like (the
    fast path's, in batches, to rounding)."""
    monkeypatch.syspath_prepend(str(ROOT / "benchmarks"))  # its measure.py, as when run
    speed = load_benchmark("backgammon_network_speed.py")
    cases = speed.project_cases()
    fast, reference = (cases[name](random.Random(1)) for name in ("network", "network reference"))
    assert len(fast) == speed.POSITIONS == len(set(speed.positions()))
    for a, b in zip(fast, reference, strict=True):
        assert a == pytest.approx(b, abs=1e-9)
    for name in (speed.ROLL_PLAYS, speed.PLAY_REPLIES):
        if name in cases:  # with numpy
            batched = [p for group in cases[name](random.Random(1)) for p in group]
            assert len(batched) == len(fast)
            for a, b in zip(fast, batched, strict=True):
                assert a == pytest.approx(b, abs=1e-6)
    for name in (speed.KERNEL_ROLL_PLAYS, speed.KERNEL_PLAY_REPLIES):
        if name in cases:  # where the C kernel is built: the pure path's very numbers
            assert [p for group in cases[name](random.Random(1)) for p in group] == fast


def test_probabilities_are_ordered_and_flip_is_an_involution() -> None:
    net = shipped()
    for play in random_positions(200, seed=6):
        if sum(play.mover) == 0:
            continue
        p = net.probabilities(play.other, play.mover)
        win, win_g, win_bg, lose_g, lose_bg = p
        assert 0 <= win_bg <= win_g <= win <= 1
        assert 0 <= lose_bg <= lose_g <= 1 - win
        assert flip(flip(p)) == pytest.approx(p)
        assert -3 <= equity(p) <= 3
    assert consistent((1.2, 1.1, 0.5, 0.3, 0.4)) == (1.0, 1.0, 0.5, 0.0, 0.0)


def test_start_position_is_near_even_and_a_closeout_is_near_won() -> None:
    net = shipped()
    assert 0.45 < net.probabilities(START, START)[0] < 0.6
    # A race: we are on roll with every checker home, the opponent's are all outside.
    home = (3, 3, 3, 3, 3, 0) + (0,) * 19
    back = (0,) * 13 + (3, 3, 3, 3, 3) + (0,) * 7
    assert net.probabilities(home, back)[0] > 0.95


# -- checker play -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "best"),
    [((3, 1), "8/5 6/5"), ((4, 2), "8/4 6/4"), ((6, 1), "13/7 8/7"), ((5, 3), "8/3 6/3")],
)
def test_plays_the_textbook_opening_moves(roll: tuple[int, int], best: str) -> None:
    """Making a point with 31, 42, 61 and 53 is the standard opening (from the rule
    text's start position, the "fest vorgegebene Aufstellung")."""
    state = rules.get_game("backgammon").new_state().roll(list(roll))
    assert make_bot("strong").choose(state, random.Random(0)).notation == best


def test_a_game_winning_play_is_scored_exactly() -> None:
    assert result_kind((1,) + (0,) * 24) == 1  # the loser has borne off 14
    assert result_kind((15,) + (0,) * 24) == 2  # none off: a gammon
    assert result_kind((14,) + (0,) * 23 + (1,)) == 3  # one on the bar: a backgammon
    bot = BackgammonBot()
    assert bot.value((0,) * 25, (15,) + (0,) * 24) == 2.0


def test_lookahead_keeps_to_a_tiny_budget_and_returns_a_legal_play() -> None:
    bot = BackgammonBot(Budget(nodes=30), lookahead=True)
    state = rules.get_game("backgammon").new_state().roll([6, 4])
    move = bot.choose(state, random.Random(0))
    assert move in state.legal_moves()


def test_lookahead_with_room_picks_a_legal_play_and_agrees_on_the_obvious() -> None:
    bot = BackgammonBot(Budget(nodes=100_000), lookahead=True)
    state = rules.get_game("backgammon").new_state().roll([3, 1])
    assert bot.choose(state, random.Random(0)).notation == "8/5 6/5"


def test_the_blend_weighs_the_ranking_into_the_lookahead() -> None:
    """With the whole weight on the ranking the lookahead plays the ranking's choice; with
    none it plays the one-roll values' choice; a blend's choice is always one of the
    candidates the lookahead re-scored, and some position tells the two ends apart."""
    game = rules.get_game("backgammon", "single")
    rng = random.Random(3)
    room = Budget(nodes=10**9)
    ranking = BackgammonBot(room, lookahead=False)
    ends = {w: BackgammonBot(room, lookahead=True, blend=w) for w in (0.0, 0.5, 1.0)}
    differed = 0
    for _ in range(12):
        state = game.new_state()
        while not state.is_terminal() and not differed:
            if state.is_chance():
                outcomes = state.chance_outcomes()
                state = state.roll(outcomes[rng.randrange(len(outcomes))][0])
                continue
            moves = state.legal_moves()
            chosen = ranking.choose(state, random.Random(0))
            if len(moves) > 1:
                assert ends[1.0].choose(state, random.Random(0)) == chosen
                deeper = ends[0.0].choose(state, random.Random(0))
                assert ends[0.5].choose(state, random.Random(0)) in moves
                differed += deeper != chosen
            state = state.apply(chosen)
        if differed:
            break
    assert differed


def test_beats_its_yardstick_in_a_small_seeded_match() -> None:
    """40 seeded single games, colours alternating. The 2000-game figure is in
    docs/bots.md; this catches a broken network (a random-weights net wins about 15 %)."""
    from_yardstick = load_benchmark("pubeval.py").PubevalBot()
    game = rules.get_game("backgammon", "single")
    wins = 0
    for i in range(40):
        strong_seat = ("white", "black")[i % 2]
        yard_seat = ("black", "white")[i % 2]
        record = play_game(
            game.new_state(),
            {strong_seat: make_bot("strong"), yard_seat: from_yardstick},
            random.Random(7_000 + i),
        )
        wins += record.winners[0] == strong_seat
    assert wins >= 24


# -- the cube -----------------------------------------------------------------------------


def test_money_cube_thresholds() -> None:
    even = (0.5, 0.1, 0.0, 0.1, 0.0)
    assert not money_double(even, contact=True)
    assert money_take(even)
    strong = (0.8, 0.1, 0.0, 0.02, 0.0)  # equity 0.68
    assert money_double(strong, contact=True)
    assert money_double(strong, contact=False)
    too_good = (0.95, 0.7, 0.1, 0.0, 0.0)  # equity 1.7: play on for the gammon
    assert not money_double(too_good, contact=True)
    assert not money_take(flip(strong))


def test_money_bot_drops_a_hopeless_race_and_does_not_double_when_behind() -> None:
    bot = BackgammonBot()
    behind = money_state([0, 0, 0, 0, 0, 5] + [0] * 18, [0] * 10 + [15] + [0] * 13)
    # White has 30 pips left, black 165 (15 on black's 11 point): white is so far ahead
    # that a gammon is likely, so it is too good to double and plays on.
    assert bot.choose(behind, random.Random(0)).notation == "roll"
    offered = behind.apply(behind.parse_move("double"))
    assert isinstance(offered, BackgammonState) and offered.phase == TAKE
    assert bot.choose(offered, random.Random(0)).notation == "drop"
    reverse = money_state([0] * 10 + [15] + [0] * 13, [0, 0, 0, 0, 0, 5] + [0] * 18)
    assert reverse.phase == DOUBLE
    # Behind it never doubles; so far behind (a gammon certain) it resigns the gammon.
    assert bot.choose(reverse, random.Random(0)).notation == "resign gammon"


def test_match_equity_table_known_values() -> None:
    """The shipped Kazaross-XG2 table: its published anchors and its symmetry."""
    assert match_equity(1, 1) == 0.5
    # 2 away against 1 away in the Crawford game; the table's 0.32264.
    assert match_equity(2, 1) == pytest.approx(0.32264)
    # After the Crawford game the trailer at 2 away has a free drop: 0.48803.
    assert match_equity(2, 1, post_crawford=True) == pytest.approx(0.48803)
    assert match_equity(1, 3, post_crawford=True) == pytest.approx(1 - 0.32264, abs=0.01)
    assert match_equity(0, 3) == 1.0 and match_equity(3, 0) == 0.0
    for a in range(1, 12):
        for b in range(1, 12):
            assert match_equity(a, b) + match_equity(b, a) == pytest.approx(1.0, abs=1e-4)
            assert match_equity(a, b) >= match_equity(a + 1, b)


GNUBG_MET = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


@pytest.mark.skipif(not GNUBG_MET.exists(), reason="Debian's gnubg (its MET files) not installed")
def test_the_shipped_table_is_gnubgs_kazaross_xg2() -> None:
    cells = re.findall(r"<me>([0-9.]+)</me>", GNUBG_MET.read_text(encoding="utf-8"))
    pre = [float(x) for x in cells[: 25 * 25]]
    for a in range(1, 26):
        for b in range(1, 26):
            assert match_equity(a, b) == pre[(a - 1) * 25 + b - 1]
    record = provenance("rules.backgammon", "met.json")
    assert record["source"]["table"] == "Kazaross XG2 25 point MET"
    assert record["source"]["sha256"] == hashlib.sha256(GNUBG_MET.read_bytes()).hexdigest()


def test_match_cube_post_crawford_trailer_doubles_and_leader_takes() -> None:
    even = (0.5, 0.1, 0.0, 0.1, 0.0)
    # 3 away against 1 away, after the Crawford game: the trailer doubles at once ...
    assert match_double(even, away=3, other_away=1, cube=1)
    # ... and the leader, with nothing to lose by playing on for 2, takes.
    assert match_take(flip(even), away=1, other_away=3, cube=1)
    # A dead cube is never turned: at 1 away a single win already wins the match.
    assert not match_double((0.8, 0.0, 0.0, 0.0, 0.0), away=1, other_away=5, cube=1)
    # Behind in a live-cube position: no double.
    assert not match_double((0.4, 0.1, 0.0, 0.1, 0.0), away=5, other_away=5, cube=1)


def test_match_cube_waits_for_the_window_and_cashes_a_won_game() -> None:
    """Positions from self-play where GNU Backgammon's 2-ply cube action (quoted) and
    the cubeless match rule disagreed: the taker's and the doubler's cube ownership
    must be charged (benchmarks/cube_agreement.py measures the rest)."""
    # 5-away 5-away, 54 % with few gammons: "No double, take" (cubeless: double).
    slight = (0.536, 0.178, 0.016, 0.114, 0.004)
    assert not match_double(slight, away=5, other_away=5, cube=1)
    assert match_take(flip(slight), away=5, other_away=5, cube=1)
    # 5-away 3-away, 25 % on a 4-cube: certainly no redouble.
    assert not match_double((0.247, 0.023, 0.001, 0.209, 0.011), away=5, other_away=3, cube=4)
    # A won race on our 2-cube at 7-away 7-away: "Redouble, pass" (cash, no gammons).
    won = (1.0, 0.0, 0.0, 0.0, 0.0)
    assert match_double(won, away=7, other_away=7, cube=2)
    assert not match_take(flip(won), away=7, other_away=7, cube=2)
    # A cube that already wins us the match cannot be turned (GNU Backgammon forbids it).
    assert not match_double((0.9, 0.5, 0.1, 0.0, 0.0), away=5, other_away=5, cube=8)
    # Well past the window with gammons in hand: too good to double, play on.
    assert not match_double((0.95, 0.8, 0.1, 0.0, 0.0), away=7, other_away=7, cube=1)


def test_network_blob_shape_mismatch_is_a_clear_error() -> None:
    net = shipped()
    bad = Network(net.rows[:-1], net.hidden_bias, net.out_rows, net.out_bias).to_bytes()
    # to_bytes writes the module's INPUTS; a blob with fewer rows no longer fits.
    with pytest.raises(ValueError):
        from_bytes(bad)
    assert bad[: len(backgammon_net.MAGIC)] == backgammon_net.MAGIC


def test_training_script_runs_end_to_end(tmp_path: Path) -> None:
    """The offline trainer (benchmarks/train_backgammon_net.py) on a toy budget: it
    plays teacher games, fits a network and writes a weights file, with its provenance,
    that loads."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    pytest.importorskip("numpy")
    trainer = load_benchmark("train_backgammon_net.py")
    out = tmp_path / "weights.bin"
    args = ["--games", "3", "--epochs", "1", "--hidden", "4", "--check-games", "1"]
    assert trainer.main([*args, "--out", str(out)]) == 0
    record = json.loads((tmp_path / "weights.bin.provenance.json").read_text("utf-8"))
    assert record["sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    assert record["inputs"]["games"] == 3 and record["inputs"]["hidden"] == 4
    net = load_benchmark("bots.py").load_network(out)  # as bots.py --bg-weights reads it
    assert net.hidden == 4
    assert 0 <= net.probabilities(START, START)[0] <= 1


def test_relabelling_script_labels_at_one_ply_resumes_and_refuses_a_bad_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/relabel_backgammon.py on a toy cache: every label is GNU Backgammon's
    1-ply evaluation of its board, a second run labels nothing again (the shards are
    kept), and a file that is not a cache is one line, not a traceback."""
    gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    np = pytest.importorskip("numpy")
    relabel = load_benchmark("relabel_backgammon.py")
    moved = list(START)
    moved[23] -= 1  # one back checker from the 24-point to the 21-point
    moved[20] += 1
    rows = [list(START) + list(START)] * 2 + [moved + list(START)]
    boards = np.array(rows, np.int8)
    cache = tmp_path / "cache.npz"
    np.savez(cache, boards=boards, labels=np.zeros((3, 5), np.float32))
    out = tmp_path / "deep.npz"
    args = ["--data", str(cache), "--out", str(out), "--shard", "2", "--jobs", "1"]
    assert relabel.main(args) == 0
    done = np.load(out)
    assert sorted(map(tuple, done["boards"].tolist())) == sorted(map(tuple, boards.tolist()))
    for row, label in zip(done["boards"], done["labels"], strict=True):
        board = [[int(v) for v in row[25:]], [int(v) for v in row[:25]]]
        assert np.allclose(label, gnubg_nn.probabilities(board, 1), atol=1e-6)
    capsys.readouterr()
    assert relabel.main(args) == 0
    assert "2 shards, 0 to label" in capsys.readouterr().out
    (tmp_path / "folder.npz").mkdir()
    with pytest.raises(SystemExit, match=r"folder\.npz: not a training cache"):
        relabel.main(["--data", str(tmp_path / "folder.npz"), "--out", str(out)])
    with pytest.raises(SystemExit):
        relabel.main([*args, "--positions", "0"])
    assert "argument --positions: '0': at least 1" in capsys.readouterr().err


def test_a_budget_cut_returns_the_best_of_the_plays_scored_so_far() -> None:
    """With room for a single evaluation the bot returns pubeval's favourite, a legal
    play; with room for all it may differ. Either way the answer is legal."""
    opening = rules.get_game("backgammon").new_state().roll([3, 1])
    state = opening.apply(opening.parse_move("8/5 6/5")).roll([1, 1])  # black's 1-1
    assert isinstance(state, BackgammonState)
    plays = [m for m in state.legal_moves() if isinstance(m, Play)]
    assert len(plays) > 10
    favourite = max(plays, key=lambda m: pubeval(m.mover, m.other))
    cut = BackgammonBot(Budget(nodes=1)).choose(state, random.Random(0))
    assert cut == favourite
    full = BackgammonBot().choose(state, random.Random(0))
    assert full in plays


def test_gnu_backgammons_pubeval_player_plays_through_our_engine() -> None:
    """``bots.py --yardstick gnubg-pubeval``: GNU Backgammon's pubeval player picks its
    play in gnubg's own notation; the glue must find it among our legal plays every
    time (it raises otherwise) for whole games."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("bots.py")
    tally = bench.play_backgammon(3, 0, 4, "gnubg-pubeval", False, None)
    assert len(tally.play_times) > 40
    assert 0 <= tally.wins <= 4


def test_gnu_backgammons_0ply_player_plays_cubeless_games_through_our_engine() -> None:
    """``bots.py --yardstick gnubg``: GNU Backgammon's 0-ply play is found among our
    legal plays for whole games (the glue raises otherwise), and the games are cubeless:
    no cube action is ever timed and no game is worth more than a backgammon."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("bots.py")
    tally = bench.play_backgammon(3, 0, 4, "gnubg", False, None)
    assert len(tally.play_times) > 40 and not tally.cube_times
    assert len(tally.game_points) == 4
    assert all(points in (-3, -2, -1, 1, 2, 3) for points in tally.game_points)


def test_duplicated_dice_pair_the_games_and_keep_each_pair_in_one_process() -> None:
    """``bots.py --duplicate-dice``: games 2k and 2k + 1 roll the same dice (the sides
    swapped), so luck cancels within a pair; a pair is never split between processes,
    and every game is played once."""
    bench = load_benchmark("bots.py")
    assert bench.dice_seed(1, 6, True) == bench.dice_seed(1, 7, True)
    assert bench.dice_seed(1, 7, True) != bench.dice_seed(1, 8, True)
    assert len({bench.dice_seed(1, i, False) for i in range(10)}) == 10
    for games, jobs in [(2000, 2), (10, 3), (7, 2), (4, 4)]:
        chunks = bench.game_chunks(games, jobs, 2)
        assert chunks[0][0] == 0 and chunks[-1][1] == games
        assert all(hi == lo for (_, hi), (lo, _) in itertools.pairwise(chunks))
        assert all(lo % 2 == 0 for lo, _ in chunks)
    assert bench.game_chunks(7, 2) == [(0, 3), (3, 7)]


def test_outcomes_the_position_rules_out_are_zero_whatever_the_network_says() -> None:
    """A gammon needs the loser to have borne off nothing; in a race a backgammon needs
    a checker of the loser still in the winner's home board or on the bar. The network's
    raw outputs are not trusted there (a 2 % backgammon in a plain race made the bot
    refuse a fair resignation)."""
    noisy = (0.5, 0.2, 0.05, 0.2, 0.05)
    borne_off = [0] * 25
    borne_off[3] = 14  # one checker off
    racer = [0] * 25
    racer[12] = 15  # all on its 13 point: out of the other's home board
    other = [0] * 25
    other[0] = 15
    assert backgammon_net.sane(noisy, borne_off, other, contact=False)[3:] == (0.0, 0.0)
    assert backgammon_net.sane(noisy, other, borne_off, contact=False)[1:3] == (0.0, 0.0)
    assert backgammon_net.sane(noisy, racer, other, contact=False)[3:] == (0.2, 0.0)
    # with contact it can still be hit and sent back: the network's figure stands
    assert backgammon_net.sane(noisy, racer, other, contact=True) == noisy
    # the shipped network in the position that showed it
    p = shipped().probabilities(racer, [2] + [0] * 24)
    assert p[2] == p[4] == 0.0 and p[3] > 0.99


def test_the_teacher_depth_benchmark_judges_every_depth(capsys: pytest.CaptureFixture[str]) -> None:
    """A few decisions through the whole script: every depth gets a figure, none loses
    less than nothing (each is judged against the best of the plays judged)."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    pytest.importorskip("numpy")
    bench = load_benchmark("backgammon_teacher_depth.py")
    assert bench.main(["--decisions", "6", "--seed", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("6 checker decisions (seed 4)")
    figures = {line.split(":")[0].strip(): line.split(":")[1] for line in lines[1:]}
    assert set(figures) == {"0-ply", "1-ply", "0+1-ply"}
    assert all(float(text.split()[0]) >= 0 for text in figures.values())


def test_the_match_errors_benchmark_pairs_both_engines_on_every_decision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two games through the whole script: every decision is counted once, on its
    maker's side and among all, and neither engine loses less than nothing."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("backgammon_match_errors.py")
    assert bench.main(["--games", "2", "--jobs", "1", "--judge-ply", "1", "--worst", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 cubeless money games (seed 1)")
    rows = {}
    for line in lines[2:]:
        if not line.startswith("  ") or " roll " in line:
            continue
        label, figures = line.strip().split(": ", 1)
        count = int(label[label.rindex("(") + 1 : -1])
        rows[label[: label.rindex(" (")]] = (count, figures)
    assert len(rows) == 12
    for whose in ("on bot's decisions", "on gnubg's decisions", "all decisions"):
        total = sum(rows[f"{whose}, {where}"][0] for where in ("contact", "race", "bear-off"))
        assert rows[f"{whose}, all"][0] == total
    assert (
        rows["all decisions, all"][0]
        == rows["on bot's decisions, all"][0] + rows["on gnubg's decisions, all"][0]
        > 10
    )
    for count, figures in rows.values():
        if count:
            bot, gnubg = (float(part.split()[-1]) for part in figures.split(", ")[:2])
            assert bot >= 0 and gnubg >= 0


def test_the_trainer_picks_the_same_races_with_numpy_as_one_by_one(tmp_path: Path) -> None:
    """``--race`` keeps the positions without contact that are not both home, picked by
    numpy (:func:`race_rows`), the same as the check per position (:func:`is_race`), and
    fits a race network on them (the board, the borne-off units and the crossings)."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    np = pytest.importorskip("numpy")
    trainer = load_benchmark("train_backgammon_net.py")
    positions = [(play.other, play.mover) for play in random_positions(300, seed=8)]
    rng = random.Random(8)
    for _ in range(100):  # races: each side's checkers on its own first twelve points
        sides = []
        for _side in range(2):
            side = [0] * 25
            for _checker in range(15):
                side[rng.randrange(12 if rng.random() < 0.7 else 6)] += 1
            sides.append(tuple(side))
        positions.append((sides[0], sides[1]))
    boards = np.array([list(a) + list(b) for a, b in positions], np.int8)
    picked = trainer.race_rows(boards)
    assert picked.tolist() == [bool(trainer.is_race(p)) for p in positions]
    assert 50 < picked.sum() < len(positions)
    contact = trainer.contact_rows(boards)
    assert contact.tolist() == [has_contact(*p) for p in positions]
    assert 100 < contact.sum() < len(positions)
    assert not (contact & picked).any()  # a race never has contact
    cache = tmp_path / "cache.npz"
    np.savez(cache, boards=boards, labels=np.full((len(boards), 5), 0.5, np.float32))
    out = tmp_path / "race.bin"
    args = ["--race", "--data", str(cache), "--epochs", "1", "--hidden", "4"]
    assert trainer.main([*args, "--check-games", "1", "--out", str(out)]) == 0
    net = load_benchmark("bots.py").load_network(out)
    assert len(net.rows) == backgammon_net.RACE_INPUTS and net.hidden == 4
    assert net.reads_race_inputs
    with pytest.raises(SystemExit):  # the two filters exclude each other
        trainer.main([*args, "--contact", "--dry-run"])
    # a race network's inputs after the board are not the main network's figures
    main_weights = Path(backgammon_net.__file__).with_name(backgammon_net.WEIGHTS_FILE)
    with pytest.raises(SystemExit, match="race or a board-only"):
        trainer.main([*args, "--start", str(main_weights), "--dry-run"])
    with pytest.raises(SystemExit, match="give --race"):
        trainer.main([*args[1:], "--start", str(out), "--dry-run"])


def test_the_trainer_fits_the_main_network_on_contact_positions_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--contact`` keeps only what the main network answers (races and bear-offs have
    their own evaluators), and the relabeller's ``--contact`` samples only those."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    np = pytest.importorskip("numpy")
    trainer = load_benchmark("train_backgammon_net.py")
    positions = [(play.other, play.mover) for play in random_positions(200, seed=9)]
    race = tuple([2] * 6 + [3] + [0] * 18)  # all fifteen on the first seven points
    positions += [(race, race)] * 50
    boards = np.array([list(a) + list(b) for a, b in positions], np.int8)
    contact = int(trainer.contact_rows(boards).sum())
    assert contact == sum(has_contact(*p) for p in positions[:-50]) > 0
    cache = tmp_path / "cache.npz"
    np.savez(cache, boards=boards, labels=np.full((len(boards), 5), 0.5, np.float32))
    args = ["--contact", "--data", str(cache), "--epochs", "1", "--hidden", "4"]
    out = tmp_path / "contact.bin"
    assert trainer.main([*args, "--check-games", "1", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"{contact} of them have contact" in said
    assert f"{cache}, batch 1024, {contact} positions" in said  # not the default games
    record = json.loads(out.with_name("contact.bin.provenance.json").read_text("utf-8"))
    assert record["inputs"]["data"] == "cache.npz" and "games" not in record["inputs"]
    assert record["inputs"]["contact_only"] is True
    relabel = load_benchmark("relabel_backgammon.py")
    deep = tmp_path / "deep.npz"
    cmd = ["--data", str(cache), "--out", str(deep), "--positions", "5", "--ply", "0+1"]
    assert relabel.main([*cmd, "--contact", "--jobs", "1"]) == 0
    relabelled = np.load(deep)
    assert len(relabelled["boards"]) == 5
    assert trainer.contact_rows(relabelled["boards"]).all()
    # two caches fitted together: the first's head stays held out, both are named
    joined = tmp_path / "joined.bin"
    both = ["--also", str(deep), "--check-games", "1", "--out", str(joined)]
    assert trainer.main([*args, *both]) == 0
    said = capsys.readouterr().out
    assert f"{len(boards) + 5} labelled positions from {cache} + {deep}" in said
    assert f"{contact + 5} of them have contact" in said
    record = json.loads(joined.with_name("joined.bin.provenance.json").read_text("utf-8"))
    assert record["inputs"]["data"] == ["cache.npz", "deep.npz"]
    assert record["inputs"]["positions"] == contact + 5
    with pytest.raises(SystemExit):  # nothing to join them to
        trainer.main(["--also", str(deep), "--data", str(tmp_path / "none.npz"), "--dry-run"])
    with pytest.raises(SystemExit, match="not a training cache"):  # a directory, not a cache
        trainer.main([*args, "--also", str(tmp_path), "--dry-run"])


def test_the_match_errors_benchmark_pairs_a_variant_with_the_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--variant`` asks a third engine on every decision without letting it play: given
    the bot's own network (as its main or, ``--variant-race``, its race network) it loses
    exactly what the bot loses, decision by decision, and it leaves the match (the games,
    and what the bot loses against GNU Backgammon) as it was."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("backgammon_match_errors.py")
    # a budget no decision reaches, so that the two copies of the bot cannot be cut apart
    args = ["--games", "2", "--jobs", "1", "--judge-ply", "1", "--seconds", "30"]

    def run(*extra: str) -> list[str]:
        assert bench.main([*args, *extra]) == 0
        return capsys.readouterr().out.splitlines()

    alone = run()
    shipped = Path(backgammon_net.__file__)
    # the bot's own networks, given as the variant's main or as its race network
    for option, name in (
        ("--variant", backgammon_net.WEIGHTS_FILE),
        ("--variant-race", backgammon_net.RACE_FILE),
    ):
        twin = run(option, str(shipped.with_name(name)))
        assert [line for line in twin if not line.startswith("    ")] == alone
        variant_rows = [line.strip() for line in twin if line.startswith("    ")]
        assert len(variant_rows) == 12  # one under each of the twelve rows
        assert all(
            row == "no decisions" or row.endswith(", variant - bot +0.00 ± 0.00")
            for row in variant_rows
        )
    assert sum(row != "no decisions" for row in variant_rows) >= 6
    # Another network: the race network, asked in every phase. Where its pick is better
    # than every play judged before, it raises the best play every engine is judged
    # against: the losses may grow, their paired differences cannot.
    other = run("--variant", str(Path(backgammon_net.__file__).with_name(backgammon_net.RACE_FILE)))

    def differences(lines: list[str]) -> list[str]:
        return [line.rsplit(", ", 1)[-1] for line in lines if not line.startswith("    ")]

    assert differences(other) == differences(alone)
    figures = [line.strip().split(", ") for line in other if line.startswith("    variant ")]
    assert all(float(f[0].split()[-1]) >= 0 and float(f[1].split()[-1]) >= 0 for f in figures)
    assert any(not f[2].endswith("+0.00 ± 0.00") for f in figures)  # it does play otherwise


def test_the_match_errors_benchmark_pairs_search_settings_with_the_bot(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--variant-search`` asks the bot with other lookahead settings: the bot's own
    settings spelled out lose exactly what the bot loses, under their own name, and a
    setting the bot has no use for is refused before any game is played."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("backgammon_match_errors.py")
    args = ["--games", "2", "--jobs", "1", "--judge-ply", "1", "--seconds", "30"]
    own = f"candidates={CANDIDATES},replies={REPLIES},blend={BLEND}"
    assert bench.main([*args, "--variant-search", own]) == 0
    rows = [line.strip() for line in capsys.readouterr().out.splitlines()]
    twins = [row for row in rows if row.startswith(own + " ")]
    assert len(twins) >= 6
    assert all(row.endswith(f", {own} - bot +0.00 ± 0.00") for row in twins)
    for bad in ("depth=2", "blend=nan", "blend=2", "candidates=three", "candidates"):
        with pytest.raises(SystemExit) as exit_:
            bench.main([*args, "--variant-search", bad])
        assert exit_.value.code == 2
        assert "--variant-search" in capsys.readouterr().err


def test_the_match_errors_benchmark_asks_gnu_backgammon_at_another_ply(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--gnubg-ply 1`` asks GNU Backgammon's 1-ply on every decision without letting it
    play: the games stay as they were (its picks join the plays judged, so the losses may
    grow, as with ``--variant``), a row of the 1-ply's losses stands under each of the
    twelve, and judged at its own depth it loses less than the 0-ply that plays."""
    pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    bench = load_benchmark("backgammon_match_errors.py")
    args = ["--games", "2", "--jobs", "1", "--judge-ply", "1", "--seconds", "30", "--worst", "0"]
    assert bench.main(args) == 0
    alone = capsys.readouterr().out.splitlines()
    assert bench.main([*args, "--gnubg-ply", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == alone[0]
    assert len([line for line in lines if not line.startswith("    ")]) == len(alone)
    peer = [line.strip() for line in lines if line.startswith("    ")]
    assert len(peer) == 12
    assert all(row == "no decisions" or row.startswith("gnubg 1-ply ") for row in peer)
    everything = lines.index(next(line for line in lines if "all decisions, all" in line))
    zero_ply = float(lines[everything].split("GNU Backgammon ")[1].split(",")[0])
    one_ply = float(lines[everything + 1].split()[2].rstrip(","))
    assert one_ply < zero_ply


def test_the_match_benchmark_refuses_lookahead_settings_out_of_range(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``bots.py``: a NaN or out-of-range lookahead setting is an argparse error naming
    its option, before any game (the counts and budgets: test_benchmark_arguments.py)."""
    bench = load_benchmark("bots.py")
    for bad in (
        ["--bg-blend", "nan"],
        ["--bg-blend", "1.5"],
        ["--bg-candidates", "-1"],
        ["--bg-replies", "two"],
    ):
        with pytest.raises(SystemExit) as exit_:
            bench.main(["--only", "backgammon", *bad])
        assert exit_.value.code == 2
        assert bad[0] in capsys.readouterr().err


def test_the_match_benchmark_passes_only_the_settings_it_is_given() -> None:
    """``bots.py`` leaves the lookahead settings it is not given to the bot, so that a
    change of the bot's defaults reaches the benchmark without a copy there to update."""
    bench = load_benchmark("bots.py")
    own = BackgammonBot()
    unset = {"candidates": None, "replies": None, "blend": None}
    bot = bench.strong_backgammon_bot(Budget(), shipped(), None, None, unset)
    assert (bot.candidates, bot.replies, bot.blend) == (own.candidates, own.replies, own.blend)
    given = unset | {"replies": 4}
    bot = bench.strong_backgammon_bot(Budget(), shipped(), None, None, given)
    assert (bot.candidates, bot.replies, bot.blend) == (own.candidates, 4, own.blend)
    defaults = inspect.signature(bench.play_backgammon).parameters
    assert all(defaults[k].default is None for k in unset)


def test_the_bot_refuses_lookahead_settings_out_of_range() -> None:
    """A NaN blend compares false with everything and would make every re-scored value
    NaN, so that the lookahead silently played the ranking's first candidate."""
    for bad in ({"blend": float("nan")}, {"blend": -0.1}, {"candidates": -1}, {"replies": -2}):
        with pytest.raises(ValueError, match="lookahead settings out of range"):
            BackgammonBot(**bad)  # type: ignore[arg-type]
