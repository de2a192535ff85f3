"""Train the Backgammon bot's network offline and write ``rules/backgammon/weights.bin``.

Run by hand (minutes, never in tests); it needs the test extra (``gnubg-nn``, numpy):

    .venv/bin/python benchmarks/train_backgammon_net.py [--games 32000] [--hidden 128] \
        [--jobs 2] [--data CACHE.npz] [--board-only] [--start WEIGHTS.bin] [--out WEIGHTS.bin]

The shipped weights came in two steps over the same positions (seed 11, 32 000 games,
13.3 million positions; ``--data`` caches them, 360 MB, so that a second fit skips the
games): first the defaults with ``--board-only`` (the board alone, 199 inputs, 12
epochs: about 7 min of games on two cores and 12 min of fitting), then ``--start`` from
that network with the hand-made figures of :mod:`rules.backgammon.features` added
(``--epochs 3 --rate 0.001 --batch 2048``, about 25 min on a loaded host). The figures'
rows start at zero, so the second fit begins where the first stands.

Method: supervised *distillation*. GNU Backgammon's 0-ply evaluation (through the
``gnubg-nn`` wheel, the same package the move-generator cross-check uses) labels
positions with its five outcome probabilities, and a much smaller network of our own
(:mod:`rules.backgammon.net`) is fitted to those labels by plain mini-batch Adam on the
squared error. Only the labels cross over: the input encoding, the network's shape and
every weight are ours, and the shipped blob is 54.5 KB of half floats.

Positions: seeded games in which the player picks GNU Backgammon's best 0-ply play, or
with probability ``--explore`` a random one (so that the positions a weaker player
reaches are covered too). At each decision the position after the chosen play and after
``--extra`` other random legal plays are labelled, because the bot must rank *all*
candidate plays, bad ones included. Every label is "the side now on roll".

``--race`` fits a separate network to the race positions alone (no contact, not both
sides home: the bear-off database answers those), as GNU Backgammon keeps a race
network beside its contact one: the board and, instead of the hand-made figures, the
race inputs (:data:`RACE_INPUTS`: which of 1-14 checkers each side has borne off, and
its quadrant crossings left). It writes ``rules/backgammon/race.bin`` unless ``--out``
says otherwise; its held-out decisions are the teacher's race decisions. ``--start``
may be the board-only race network before it, whose rows the fit keeps (the race
inputs start at zero). It is shipped (``race.bin``; docs/bots.md, *Races have a network
of their own*).

``--also CACHE`` (repeatable) joins further caches to the one ``--data`` reads, so that
relabelled samples of different games are fitted together without a merged copy; the
held-out positions stay the first ones of ``--data``.

Reports: the held-out mean squared error and mean absolute equity error, and how often
the trained network picks the same play as its teacher on held-out decisions. The
strength that matters is measured separately, against pubeval and GNU Backgammon's
0-ply play, by ``benchmarks/bots.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gnubg_nn
import numpy as np
from arguments import counted, positive_type, share_type

import rules
from rules.backgammon.engine import BackgammonState, has_contact
from rules.backgammon.features import ESCAPES, ROLL_REACH
from rules.backgammon.moves import CHECKERS
from rules.backgammon.net import (
    BOARD_INPUTS,
    CONTACT,
    CROSSING_SCALE,
    INPUTS,
    OUTPUTS,
    RACE_INPUTS,
    RACE_OFF_UNITS,
    UNITS_PER_SIDE,
    Network,
    crossings,
    encode,
    equity,
    from_bytes,
)
from rules.data import provenance_name, provenance_record

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""(side on roll, other side), each 25 counts in its own view, bar last."""

_start = rules.get_game("backgammon").new_state()
assert isinstance(_start, BackgammonState)
START = _start.boards[0]
"""The engine's own start position (one side's view), so training cannot drift from it."""
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "rules" / "backgammon" / "weights.bin"
RACE_FILE = WEIGHTS_FILE.with_name("race.bin")


def teacher(position: Board, ply: int = 0) -> tuple[float, ...]:
    """GNU Backgammon's probabilities for the side on roll, at 0-ply unless ``ply`` says
    deeper (relabel_backgammon.py)."""
    on_roll, other = position
    return tuple(gnubg_nn.probabilities([list(other), list(on_roll)], ply))


def after_plays(position: Board, d1: int, d2: int) -> list[Board]:
    """Every distinct position after a legal play, seen by the opponent (now on roll)."""
    on_roll, other = position
    results = []
    for key in gnubg_nn.moves([list(other), list(on_roll)], d1, d2):
        theirs, mine = gnubg_nn.board_from_position_key(key)
        results.append((tuple(theirs), tuple(mine)))
    return results


def teacher_decisions(
    games: int, rng: random.Random, explore: float
) -> Iterator[tuple[list[Board], list[Any], int]]:
    """Each decision of seeded teacher games, until a play would end the game: the
    options, their teacher labels and the index of the play made, the teacher's best or,
    with probability ``explore``, a random one. The caller may draw from ``rng`` between
    decisions; the games then go on from the same stream."""
    for _ in range(games):
        position: Board = (START, START)
        while True:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            options = after_plays(position, d1, d2)
            if not options:
                position = (position[1], position[0])
                continue
            if any(sum(o[1]) == 0 for o in options):
                break
            labels = [teacher(o) for o in options]
            if explore and rng.random() < explore:
                chosen = options.index(rng.choice(options))
            else:
                chosen = min(range(len(options)), key=lambda k: equity(labels[k]))
            yield options, labels, chosen
            position = options[chosen]


def play_games(games: int, seed: int, explore: float, extra: int) -> list[tuple[Board, Any]]:
    """Labelled positions from seeded teacher games (module docstring): the play made
    and ``extra`` random other options of each decision (every option if negative)."""
    rng = random.Random(seed)
    samples: list[tuple[Board, Any]] = []
    for options, labels, chosen in teacher_decisions(games, rng, explore):
        label_of = dict(zip(options, labels, strict=True))
        keep = len(options) if extra < 0 else min(extra, len(options))
        picked = {options[chosen], *rng.sample(options, keep)}
        samples.extend((o, label_of[o]) for o in picked)
    return samples


def _chunk(job: tuple[int, int, float, int]) -> tuple[np.ndarray, np.ndarray]:
    games, seed, explore, extra = job
    samples = play_games(games, seed, explore, extra)
    boards = np.array([s[0][0] + s[0][1] for s in samples], dtype=np.int8)
    return boards, np.array([s[1] for s in samples], dtype=np.float32)


def labelled(
    games: int, seed: int, explore: float, extra: int, jobs: int
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`play_games` in chunks of 500 games over ``jobs`` processes (chunk k seeded
    ``seed * 1000 + k``), shuffled by ``seed``: the boards (int8) and their labels."""
    chunks = [
        (min(500, games - k), seed * 1000 + k // 500, explore, extra) for k in range(0, games, 500)
    ]
    if jobs <= 1 or len(chunks) == 1:
        parts = [_chunk(chunk) for chunk in chunks]
    else:
        with multiprocessing.Pool(jobs) as pool:
            parts = pool.map(_chunk, chunks)
    boards = np.concatenate([b for b, _ in parts])
    labels = np.concatenate([y for _, y in parts])
    order = np.random.default_rng(seed).permutation(len(boards))
    return boards[order], labels[order]


def decisions(games: int, seed: int) -> list[tuple[list[Board], int]]:
    """Held-out decisions from teacher games: the options and the teacher's choice."""
    found = teacher_decisions(games, random.Random(seed), explore=0.0)
    return [(options, best) for options, _, best in found if len(options) > 1]


def rearmost_place(board: np.ndarray) -> np.ndarray:
    """:func:`rules.backgammon.features.rearmost` for every row (-1: no checker left)."""
    occupied = board > 0
    return np.where(occupied.any(1), 24 - np.argmax(occupied[:, ::-1], axis=1), -1)


def contact_rows(boards: np.ndarray) -> np.ndarray:
    """Which rows still have contact: the positions the main network answers (races and
    bear-offs have evaluators of their own, :mod:`rules.backgammon.evaluation`)."""
    mask: np.ndarray = rearmost_place(boards[:, :25]) > 23 - rearmost_place(boards[:, 25:])
    return mask


def race_rows(boards: np.ndarray) -> np.ndarray:
    """Which rows are races the race network answers: no contact, and not both sides
    home (the bear-off database's positions)."""
    home = (boards[:, 6:25].sum(1) == 0) & (boards[:, 31:50].sum(1) == 0)
    mask: np.ndarray = ~contact_rows(boards) & ~home
    return mask


def is_race(position: Board) -> bool:
    """:func:`race_rows` for one position."""
    on_roll, other = position
    return not has_contact(on_roll, other) and (any(on_roll[6:]) or any(other[6:]))


POWERS = np.int64(1) << np.arange(25, dtype=np.int64)


def opponent_made_bits(theirs: np.ndarray) -> np.ndarray:
    """The opponent's made points as one int64 per row, my point j at bit 23 - j (their
    j is my 23 - j), so that the twelve points in front of my place p, nearest first,
    are bits 24 - p ... 35 - p: one shift (:func:`rules.backgammon.features.made_points`)."""
    blocked = theirs[:, 23::-1] >= 2
    return np.asarray((blocked[:, ::-1] * POWERS[:24]).sum(1), dtype=np.int64)


def fill_board(x: np.ndarray, boards: np.ndarray) -> None:
    """Write the board's inputs (the first :data:`BOARD_INPUTS` of :func:`encode`) into
    the first columns of ``x``, shared by :func:`dense` and :func:`race_dense` so that a
    race network's batches are not charged for figures they drop."""
    n = len(boards)
    b = boards.astype(np.float32)
    for side in (0, 1):
        base, counts = side * UNITS_PER_SIDE, b[:, side * 25 : side * 25 + 25]
        points = counts[:, :24]
        units = x[:, base : base + 96].reshape(n, 24, 4)
        units[:, :, 0] = points >= 1
        units[:, :, 1] = points >= 2
        units[:, :, 2] = points >= 3
        units[:, :, 3] = np.maximum(points - 3, 0) / 2
        x[:, base + 96] = counts[:, 24] / 2
        x[:, base + 97] = (CHECKERS - counts.sum(1)) / CHECKERS
        x[:, 2 * UNITS_PER_SIDE + side] = (counts * np.arange(1, 26)).sum(1) / 100
    # their rearmost place p is my index 23 - p (24: none left, in front of all of mine)
    x[:, CONTACT] = rearmost_place(boards[:, :25]) > 23 - rearmost_place(boards[:, 25:])


def dense(boards: np.ndarray) -> np.ndarray:
    """The network's inputs (:func:`rules.backgammon.net.encode`) for every row of
    ``boards`` (int8, 25 counts of the side on roll, then 25 of the other side), built
    with numpy: a Python loop over :func:`encode` takes minutes for ten million rows.
    :func:`check_dense` compares the two on a sample before any training."""
    x = np.zeros((len(boards), INPUTS), dtype=np.float32)
    fill_board(x, boards)
    at = BOARD_INPUTS
    for side in (0, 1):
        mine = boards[:, side * 25 : side * 25 + 25]
        theirs = boards[:, (1 - side) * 25 : (1 - side) * 25 + 25]
        x[:, at : at + 4] = side_features(mine, theirs)
        at += 4
    # the second block of both sides, then the third of both sides
    for side in (0, 1):
        mine = boards[:, side * 25 : side * 25 + 25]
        theirs = boards[:, (1 - side) * 25 : (1 - side) * 25 + 25]
        second, double = more_side_features(mine, theirs)
        x[:, at + 4 * side : at + 4 * side + 4] = second
        x[:, at + 8 + 4 * side : at + 8 + 4 * side + 4] = third_side_features(mine, theirs, double)
    return x


CROSSINGS = np.array([crossings(place) for place in range(25)], dtype=np.float32)


def race_dense(boards: np.ndarray) -> np.ndarray:
    """A race network's inputs (:func:`encode` with ``race``) for every row: the board's,
    then both sides' borne-off units and crossings."""
    n = len(boards)
    x = np.zeros((n, RACE_INPUTS), dtype=np.float32)
    fill_board(x, boards)
    for side in (0, 1):
        counts = boards[:, side * 25 : side * 25 + 25].astype(np.int32)
        off = CHECKERS - counts.sum(1)
        rows = np.flatnonzero((off >= 1) & (off <= RACE_OFF_UNITS))
        x[rows, BOARD_INPUTS + side * RACE_OFF_UNITS + off[rows] - 1] = 1.0
        crossed = (counts * CROSSINGS).sum(1)
        x[:, BOARD_INPUTS + 2 * RACE_OFF_UNITS + side] = crossed / CROSSING_SCALE
    return x


def inputs_of(inputs: int) -> Callable[[np.ndarray], np.ndarray]:
    """The rows' inputs for a network of ``inputs`` inputs: a race network's, or the
    first ``inputs`` of :func:`dense`."""
    if inputs == RACE_INPUTS:
        return race_dense
    return lambda boards: dense(boards)[:, :inputs]


ESCAPE_TABLE = np.array(ESCAPES, dtype=np.float32)
REACH_BITS = np.array(
    [[(reach >> d) & 1 for d in range(25)] for reach, _ in ROLL_REACH], dtype=bool
)
REACH_WEIGHTS = np.array([weight for _, weight in ROLL_REACH], dtype=np.float32)


def side_features(mine: np.ndarray, theirs: np.ndarray) -> np.ndarray:
    """:func:`rules.backgammon.features.features` for one side, for every row (int8
    boards of 25, each in its own view): escapes / 36, shots / 36, home points / 6,
    prime / 6."""
    n = len(mine)
    # the twelve points in front of the rearmost checker, nearest first; none in front
    # of -1 (no checker left), as the shift then passes every bit
    ahead = (opponent_made_bits(theirs) >> (24 - rearmost_place(mine))) & 0xFFF
    escapes = ESCAPE_TABLE[ahead] / 36
    # hitters on my indices -1 (their bar) .. 23, column c + 1; only the bar if they are on it
    hitters = np.zeros((n, 25), dtype=bool)
    hitters[:, 0] = theirs[:, 24] > 0
    hitters[:, 1:] = (theirs[:, 23::-1] > 0) & ~hitters[:, :1]
    blots = np.zeros((n, 25), dtype=bool)
    blots[:, 1:] = mine[:, :24] == 1
    distances = np.zeros((n, 25), dtype=bool)
    for d in range(1, 25):
        distances[:, d] = (hitters[:, : 25 - d] & blots[:, d:]).any(1)
    hit_rolls = (distances[:, None, :] & REACH_BITS[None, :, :]).any(2)
    shots = (hit_rolls * REACH_WEIGHTS).sum(1) / 36
    made = mine[:, :24] >= 2
    home = made[:, :6].sum(1) / 6
    run = np.zeros(n, dtype=np.int64)
    best = np.zeros(n, dtype=np.int64)
    for point in range(24):
        run = (run + 1) * made[:, point]
        best = np.maximum(best, run)
    return np.stack([escapes, shots, home, best / 6], axis=1).astype(np.float32)


REACH_MASKS = np.array([reach for reach, _ in ROLL_REACH], dtype=np.int64)


def more_side_features(mine: np.ndarray, theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The second block of :func:`rules.backgammon.features.counts` for one side, over
    its scales: containment / 36, back anchor / 24, break contact / 150, pips lost to a
    hit / 24; and, from the same pass over the blots, the third block's double shots
    (a count of 36). Points are packed into the bits of one int64 per row so that the
    twelve points in front of a place, or the distances of a blot's hitters, are one
    shift (the trainer builds these inputs for every batch)."""
    n = len(mine)
    reversed_made = opponent_made_bits(theirs)
    contain = np.min(
        np.stack(
            [ESCAPE_TABLE[(reversed_made >> (24 - p)) & 0xFFF] for p in range(12, 25)], axis=1
        ),
        axis=1,
    )
    made = mine[:, :24] >= 2
    anchor = np.where(made.any(1), 24 - np.argmax(made[:, ::-1], axis=1), 0)
    last = rearmost_place(theirs)
    line = 23 - last
    beyond = np.maximum(np.arange(25)[None, :] - line[:, None], 0)
    contact_pips = np.where(last >= 0, (mine.astype(np.int64) * beyond).sum(1), 0)
    # hitters on my indices -1 (their bar) .. 23 as column c = index + 1, only the bar
    # if they are on it; column c at bit 25 - c, so that a blot on place b finds the
    # hitter d pips behind it at bit d of the row shifted right by 24 - b
    hitters = np.zeros((n, 25), dtype=bool)
    hitters[:, 0] = theirs[:, 24] > 0
    hitters[:, 1:] = (theirs[:, 23::-1] > 0) & ~hitters[:, :1]
    behind = (hitters * (np.int64(1) << (25 - np.arange(25, dtype=np.int64)))).sum(1)
    lost = np.zeros((n, len(ROLL_REACH)), dtype=np.int64)
    reached = np.zeros((n, len(ROLL_REACH)), dtype=np.int64)
    for blot in range(24):
        is_blot = mine[:, blot] == 1
        if not is_blot.any():
            continue
        distances = (behind >> (24 - blot)) & ~np.int64(1)
        hit = ((distances[:, None] & REACH_MASKS[None, :]) != 0) & is_blot[:, None]
        lost = np.where(hit, np.maximum(lost, blot + 1), lost)
        reached += hit
    pip_loss = (lost * REACH_WEIGHTS.astype(np.int64)).sum(1) // 36
    double = ((reached >= 2) * REACH_WEIGHTS).sum(1)
    block = np.stack([contain / 36, anchor / 24, contact_pips / 150, pip_loss / 24], axis=1)
    return block.astype(np.float32), double


def third_side_features(mine: np.ndarray, theirs: np.ndarray, double: np.ndarray) -> np.ndarray:
    """The third block of :func:`rules.backgammon.features.counts` for one side, over
    its scales: double shots / 36 (counted by :func:`more_side_features`), checkers back
    / 15, forward anchor / 6, timing / 100."""
    board = mine.astype(np.int64)
    back = board[:, 18:25].sum(1)
    held = board[:, 18:24] >= 2
    anchor = np.where(held.any(1), 6 - np.argmax(held, axis=1), 0)
    # timing: the opponent's rearmost checker on my index ``line``
    line = 23 - rearmost_place(theirs)
    places = np.arange(24)
    points = board[:, :24]
    in_contact = (places[None, :] >= 12) & (places[None, :] > line[:, None])
    counted = np.where(in_contact, np.where(points == 1, 1, np.maximum(points - 2, 0)), points)
    counted[:, :6] = 0
    total = 24 * board[:, 24] + (counted * places).sum(1)
    free = board[:, 24] + counted.sum(1)
    for place in range(5, -1, -1):
        here = points[:, place]
        spare = np.maximum(here - 2, 0)
        total += place * spare
        free += spare
        need = np.maximum(2 - here, 0)
        fill = (need > 0) & (free >= need)
        total -= np.where(fill, place * need, 0)
        free -= np.where(fill, need, 0)
    timing = np.maximum(total, 0)
    return np.stack([double / 36, back / 15, anchor / 6, timing / 100], axis=1).astype(np.float32)


def check_dense(boards: np.ndarray, sample: int = 2000) -> None:
    """Fail loudly if :func:`dense` or :func:`race_dense` and the rules' own
    :func:`encode` differ."""
    rows = boards[:sample]
    for fast, race in ((dense(rows), False), (race_dense(rows), True)):
        for row, board in zip(fast, rows.tolist(), strict=True):
            slow = np.zeros(len(row), dtype=np.float32)
            for unit, value in encode(board[:25], board[25:], race):
                slow[unit] = value
            if not np.allclose(row, slow, atol=1e-6):
                name = "race_dense" if race else "dense"
                raise SystemExit(f"{name}() differs from encode() on {board}")


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def train(
    boards: np.ndarray,
    y: np.ndarray,
    hidden: int,
    epochs: int,
    batch: int,
    seed: int,
    log: Any,
    start: Network | None = None,
    rate: float = 0.003,
    inputs: int = INPUTS,
) -> list[np.ndarray]:
    """Mini-batch Adam on the squared error of the five sigmoid outputs. The inputs are
    built per batch (:func:`dense`): ten million rows of 199 floats would not fit.

    ``start``: a trained network to go on from instead of random weights. A ``hidden``
    larger than its own adds units, a smaller one is ignored. Inputs it lacks (the
    hand-made figures, for an older blob) start at zero, so the fit begins exactly where
    that network stands and only has to learn what the new inputs or units add, in a few
    epochs instead of a dozen. ``inputs``: :data:`BOARD_INPUTS`
    leaves the hand-made figures out (the network they start from was trained so),
    :data:`RACE_INPUTS` fits a race network (:func:`race_dense`)."""
    rows_of = inputs_of(inputs)
    gen = np.random.default_rng(seed)
    if start is None:
        w1 = gen.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32)
        b1 = np.zeros(hidden, np.float32)
        w2 = gen.normal(0, 1 / np.sqrt(hidden), (hidden, OUTPUTS)).astype(np.float32)
        b2 = np.zeros(OUTPUTS, np.float32)
    else:
        # Units beyond the start's own (a larger --hidden) get small random inputs and
        # no say in the outputs yet, so the fit again begins where the start stands.
        width = max(hidden, start.hidden)
        w1 = np.zeros((inputs, width), np.float32)
        w1[:, start.hidden :] = gen.normal(0, 0.1 / np.sqrt(inputs), (inputs, width - start.hidden))
        w1[: len(start.rows), : start.hidden] = np.array(start.rows, np.float32)
        b1 = np.zeros(width, np.float32)
        b1[: start.hidden] = np.array(start.hidden_bias, np.float32)
        w2 = np.zeros((width, OUTPUTS), np.float32)
        w2[: start.hidden] = np.array(start.out_rows, np.float32).T
        b2 = np.array(start.out_bias, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        rate_now = rate * (0.5 ** (epoch / max(1, epochs / 5)))
        order = gen.permutation(len(boards))
        total = 0.0
        for first in range(0, len(boards), batch):
            idx = order[first : first + batch]
            xb, yb = rows_of(boards[idx]), y[idx]
            h = sigmoid(xb @ w1 + b1)
            out = sigmoid(h @ w2 + b2)
            err = out - yb
            total += float((err**2).sum())
            d_out = 2 * err * out * (1 - out) / len(idx)
            d_h = (d_out @ w2.T) * h * (1 - h)
            grads = [xb.T @ d_h, d_h.sum(0), h.T @ d_out, d_out.sum(0)]
            step += 1
            for p, g, mi, vi in zip(params, grads, m, v, strict=True):
                mi *= 0.9
                mi += 0.1 * g
                vi *= 0.999
                vi += 0.001 * g * g
                mhat = mi / (1 - 0.9**step)
                vhat = vi / (1 - 0.999**step)
                p -= rate_now * mhat / (np.sqrt(vhat) + 1e-8)
        mse = total / len(boards) / OUTPUTS
        log(f"epoch {epoch + 1}/{epochs}: train mse {mse:.5f} (lr {rate_now:.5f})")
    return params


def to_network(params: list[np.ndarray]) -> Network:
    w1, b1, w2, b2 = params
    return Network(
        rows=tuple(tuple(float(w) for w in row) for row in w1),
        hidden_bias=tuple(float(b) for b in b1),
        out_rows=tuple(tuple(float(w) for w in col) for col in w2.T),
        out_bias=tuple(float(b) for b in b2),
    )


def write_weights(
    blob: bytes, details: dict[str, object], path: Path, what: str = "network"
) -> None:
    """The weights as a binary package file, with its provenance sidecar beside it."""
    path.write_bytes(blob)
    sidecar = path.with_name(provenance_name(path.name))
    sidecar.write_text(
        provenance_record(
            blob,
            "python benchmarks/train_backgammon_net.py " + " ".join(sys.argv[1:]),
            what=f"weights of the Backgammon {what} (rules/backgammon/net.py)",
            **details,
        )
    )


def read_cache(path: Path, *names: str) -> list[np.ndarray]:
    """The named arrays (``boards``, ``labels``) of a cache this script or the relabeller
    wrote; only those are decompressed, so the relabeller reads no labels it would drop."""
    try:
        cached = np.load(path)
        return [cached[name] for name in names]
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as err:
        # a cache still being written by another run, a directory, or some other file
        raise SystemExit(f"{path}: not a training cache ({err})") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=counted(1), default=32_000)
    parser.add_argument("--hidden", type=counted(1), default=128)
    parser.add_argument("--epochs", type=counted(1), default=12)
    parser.add_argument("--explore", type=share_type, default=0.15)
    parser.add_argument("--extra", type=counted(0), default=10)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--check-games", type=counted(0), default=200)
    parser.add_argument("--batch", type=counted(1), default=1024)
    parser.add_argument("--jobs", type=counted(1), default=2, help="processes that play the games")
    parser.add_argument(
        "--data", type=Path, help="cache of the labelled positions (.npz): read if present"
    )
    parser.add_argument(
        "--also",
        type=Path,
        action="append",
        default=[],
        help="another cache whose positions join the fit (repeatable; needs --data, whose "
        "first positions stay the held-out ones)",
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE, help="weights file to write")
    parser.add_argument(
        "--start", type=Path, help="go on from this weights file instead of random weights"
    )
    parser.add_argument(
        "--rate", type=positive_type, default=0.003, help="Adam's first learning rate"
    )
    parser.add_argument(
        "--board-only",
        action="store_true",
        help="without the hand-made figures (199 inputs): the first step of the shipped weights",
    )
    parser.add_argument(
        "--race",
        action="store_true",
        help="fit the race network instead (the board and the race inputs, race positions "
        "only; writes rules/backgammon/race.bin unless --out says otherwise)",
    )
    parser.add_argument(
        "--contact",
        action="store_true",
        help="fit the main network on the positions with contact only, the ones it "
        "answers (the race network and the bear-off database take the others)",
    )
    parser.add_argument("--dry-run", action="store_true", help="train and report, write nothing")
    args = parser.parse_args(argv)
    if args.race and args.contact:
        parser.error("--race and --contact pick opposite positions: give one")
    if args.also and not (args.data and args.data.exists()):
        parser.error("--also joins caches to the one --data reads: give an existing --data")
    if args.race and args.out == WEIGHTS_FILE:
        args.out = RACE_FILE

    def log(text: str) -> None:
        print(text, flush=True)

    began = time.perf_counter()
    if args.data and args.data.exists():
        caches = [args.data, *args.also]
        parts = [read_cache(cache, "boards", "labels") for cache in caches]
        boards = np.concatenate([b for b, _ in parts])
        y = np.concatenate([labels for _, labels in parts])
        source = " + ".join(map(str, caches))
        log(f"{len(boards)} labelled positions from {source}")
        # a cache made elsewhere: the games' seed and counts are not in it
        origin: dict[str, object] = {
            "data": args.data.name if not args.also else [cache.name for cache in caches]
        }
    else:
        boards, y = labelled(args.games, args.seed, args.explore, args.extra, args.jobs)
        source = (
            f"{args.games} games (seed {args.seed}, explore {args.explore}, extra {args.extra})"
        )
        origin = {
            "games": args.games,
            "seed": args.seed,
            "explore": args.explore,
            "extra": args.extra,
        }
        log(f"{len(boards)} labelled positions from {args.games} games")
        if args.data:
            np.savez_compressed(args.data, boards=boards, labels=y)
            log(f"cached them in {args.data}")
    check_dense(boards)
    # one phase only: the rows to fit, the same test per position for the check games
    phase: tuple[Callable[[np.ndarray], np.ndarray], Callable[[Board], bool], str] | None = None
    if args.race:
        phase = race_rows, is_race, "are races (no contact, not both home)"
    elif args.contact:
        phase = contact_rows, lambda position: has_contact(*position), "have contact"
    if phase:
        keep = phase[0](boards)
        boards, y = boards[keep], y[keep]
        log(f"{len(boards)} of them {phase[2]}")
    held = max(1, min(200_000, len(boards) // 20))
    start = None
    if args.start:
        try:
            start = from_bytes(args.start.read_bytes())
        except (OSError, ValueError) as err:  # a directory, a missing or a foreign file
            raise SystemExit(
                f"{args.start}: not a weights file this script wrote ({err})"
            ) from None
        # a race network's inputs after the board are not the figures, and back
        if args.race and len(start.rows) not in (BOARD_INPUTS, RACE_INPUTS):
            raise SystemExit(f"{args.start}: --race goes on from a race or a board-only network")
        if not args.race and start.reads_race_inputs:
            raise SystemExit(f"{args.start}: a race network; give --race to go on from it")
        log(f"going on from {args.start} ({len(start.rows)} inputs, {start.hidden} hidden)")
    inputs = RACE_INPUTS if args.race else BOARD_INPUTS if args.board_only else INPUTS
    params = train(
        boards[held:],
        y[held:],
        args.hidden,
        args.epochs,
        args.batch,
        args.seed,
        log,
        start=start,
        rate=args.rate,
        inputs=inputs,
    )
    w1, b1, w2, b2 = params
    out = sigmoid(sigmoid(inputs_of(inputs)(boards[:held]) @ w1 + b1) @ w2 + b2)
    mse = float(((out - y[:held]) ** 2).mean())

    def eq(p: np.ndarray) -> np.ndarray:
        value: np.ndarray = 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]
        return value

    eq_err = float(np.abs(eq(out) - eq(y[:held])).mean())
    net = to_network(params)
    agree = total = 0
    for options, best in decisions(args.check_games, args.seed + 1):
        if phase and not all(map(phase[1], options)):
            continue
        values = [equity(net.probabilities(*o)) for o in options]
        agree += min(range(len(options)), key=values.__getitem__) == best
        total += 1
    blob = net.to_bytes()
    summary = (
        f"{source}, batch {args.batch}, "
        f"{len(boards)} positions,\n{net.hidden} hidden units, {args.epochs} epochs; "
        f"held-out mse {mse:.5f}, equity error {eq_err:.4f},\n"
        f"same play as the teacher in {agree}/{total} held-out decisions "
        f"({agree / total:.1%}); {len(blob)} bytes."
    )
    log(summary)
    log(f"took {time.perf_counter() - began:.0f} s")
    if not args.dry_run:
        details: dict[str, object] = {
            "inputs": {
                **origin,
                "batch": args.batch,
                "positions": len(boards),
                "hidden": net.hidden,
                "epochs": args.epochs,
                "race_only": args.race,
                "contact_only": args.contact,
            },
            "figures": {
                "held_out_mse": round(mse, 5),
                "equity_error": round(eq_err, 4),
                "same_play_as_teacher": f"{agree}/{total}",
            },
        }
        write_weights(blob, details, args.out, "race network" if args.race else "network")
        log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
