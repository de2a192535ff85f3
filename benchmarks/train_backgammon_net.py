"""Train the Backgammon bot's network offline and write ``rules/backgammon/weights.bin``.

Run by hand (minutes, never in tests); it needs the test extra (``gnubg-nn``, numpy):

    .venv/bin/python benchmarks/train_backgammon_net.py [--games 16000] [--hidden 64] \
        [--data CACHE.npz] [--out WEIGHTS.bin]

The shipped weights are the defaults (seed 1, 20 epochs); ``--data`` caches the
labelled positions so that a second fit skips the games.

Method: supervised *distillation*. GNU Backgammon's 0-ply evaluation (through the
``gnubg-nn`` wheel, the same package the move-generator cross-check uses) labels
positions with its five outcome probabilities, and a much smaller network of our own
(:mod:`rules.backgammon.net`) is fitted to those labels by plain mini-batch Adam on the
squared error. Only the labels cross over: the input encoding, the network's shape and
every weight are ours, and the shipped blob is 26 KB of half floats.

Positions: seeded games in which the player picks GNU Backgammon's best 0-ply play, or
with probability ``--explore`` a random one (so that the positions a weaker player
reaches are covered too). At each decision the position after the chosen play and after
``--extra`` other random legal plays are labelled, because the bot must rank *all*
candidate plays, bad ones included. Every label is "the side now on roll".

Reports: the held-out mean squared error and mean absolute equity error, and how often
the trained network picks the same play as its teacher on held-out decisions. The
strength that matters is measured separately, against pubeval, by ``benchmarks/bots.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import gnubg_nn
import numpy as np

import rules
from rules.backgammon.engine import BackgammonState
from rules.backgammon.net import INPUTS, OUTPUTS, Network, encode, equity
from rules.data import provenance_name, provenance_record

Board = tuple[tuple[int, ...], tuple[int, ...]]
"""(side on roll, other side), each 25 counts in its own view, bar last."""

_start = rules.get_game("backgammon").new_state()
assert isinstance(_start, BackgammonState)
START = _start.boards[0]
"""The engine's own start position (one side's view), so training cannot drift from it."""
WEIGHTS_FILE = Path(__file__).resolve().parent.parent / "rules" / "backgammon" / "weights.bin"


def teacher(position: Board) -> tuple[float, ...]:
    """GNU Backgammon's 0-ply probabilities for the side on roll."""
    on_roll, other = position
    return tuple(gnubg_nn.probabilities([list(other), list(on_roll)], 0))


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
    and ``extra`` random other options of each decision."""
    rng = random.Random(seed)
    samples: list[tuple[Board, Any]] = []
    for options, labels, chosen in teacher_decisions(games, rng, explore):
        label_of = dict(zip(options, labels, strict=True))
        picked = {options[chosen], *rng.sample(options, min(extra, len(options)))}
        samples.extend((o, label_of[o]) for o in picked)
    return samples


def decisions(games: int, seed: int) -> list[tuple[list[Board], int]]:
    """Held-out decisions from teacher games: the options and the teacher's choice."""
    found = teacher_decisions(games, random.Random(seed), explore=0.0)
    return [(options, best) for options, _, best in found if len(options) > 1]


def dense(positions: list[Board]) -> np.ndarray:
    x = np.zeros((len(positions), INPUTS), dtype=np.float32)
    for row, (on_roll, other) in enumerate(positions):
        for unit, value in encode(on_roll, other):
            x[row, unit] = value
    return x


def sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def train(
    x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, batch: int, seed: int, log: Any
) -> list[np.ndarray]:
    """Mini-batch Adam on the squared error of the five sigmoid outputs."""
    gen = np.random.default_rng(seed)
    w1 = gen.normal(0, 1 / np.sqrt(INPUTS), (INPUTS, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = gen.normal(0, 1 / np.sqrt(hidden), (hidden, OUTPUTS)).astype(np.float32)
    b2 = np.zeros(OUTPUTS, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        rate = 0.003 * (0.5 ** (epoch / max(1, epochs / 5)))
        order = gen.permutation(len(x))
        total = 0.0
        for start in range(0, len(x), batch):
            idx = order[start : start + batch]
            xb, yb = x[idx], y[idx]
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
                p -= rate * mhat / (np.sqrt(vhat) + 1e-8)
        log(f"epoch {epoch + 1}/{epochs}: train mse {total / len(x) / OUTPUTS:.5f} (lr {rate:.5f})")
    return params


def to_network(params: list[np.ndarray]) -> Network:
    w1, b1, w2, b2 = params
    return Network(
        rows=tuple(tuple(float(w) for w in row) for row in w1),
        hidden_bias=tuple(float(b) for b in b1),
        out_rows=tuple(tuple(float(w) for w in col) for col in w2.T),
        out_bias=tuple(float(b) for b in b2),
    )


def write_weights(blob: bytes, details: dict[str, object], path: Path) -> None:
    """The weights as a binary package file, with its provenance sidecar beside it."""
    path.write_bytes(blob)
    sidecar = path.with_name(provenance_name(path.name))
    sidecar.write_text(
        provenance_record(
            blob,
            "python benchmarks/train_backgammon_net.py " + " ".join(sys.argv[1:]),
            what="weights of the Backgammon network (rules/backgammon/net.py)",
            **details,
        )
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16_000)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--explore", type=float, default=0.15)
    parser.add_argument("--extra", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-games", type=int, default=200)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument(
        "--data", type=Path, help="cache of the labelled positions (.npz): read if present"
    )
    parser.add_argument("--out", type=Path, default=WEIGHTS_FILE, help="weights file to write")
    parser.add_argument("--dry-run", action="store_true", help="train and report, write nothing")
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, flush=True)

    began = time.perf_counter()
    if args.data and args.data.exists():
        cached = np.load(args.data)
        boards, y = cached["boards"], cached["labels"]
        log(f"{len(boards)} labelled positions from {args.data}")
    else:
        samples = play_games(args.games, args.seed, args.explore, args.extra)
        log(f"{len(samples)} labelled positions from {args.games} games")
        random.Random(args.seed).shuffle(samples)
        boards = np.array([s[0][0] + s[0][1] for s in samples], dtype=np.int8)
        y = np.array([s[1] for s in samples], dtype=np.float32)
        if args.data:
            np.savez_compressed(args.data, boards=boards, labels=y)
            log(f"cached them in {args.data}")
    x = dense([(tuple(b[:25]), tuple(b[25:])) for b in boards.tolist()])
    held = max(1, len(x) // 20)
    params = train(x[held:], y[held:], args.hidden, args.epochs, args.batch, args.seed, log)
    w1, b1, w2, b2 = params
    out = sigmoid(sigmoid(x[:held] @ w1 + b1) @ w2 + b2)
    mse = float(((out - y[:held]) ** 2).mean())

    def eq(p: np.ndarray) -> np.ndarray:
        return 2 * p[:, 0] - 1 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]

    eq_err = float(np.abs(eq(out) - eq(y[:held])).mean())
    net = to_network(params)
    agree = total = 0
    for options, best in decisions(args.check_games, args.seed + 1):
        values = [equity(net.probabilities(*o)) for o in options]
        agree += min(range(len(options)), key=values.__getitem__) == best
        total += 1
    blob = net.to_bytes()
    summary = (
        f"{args.games} games (seed {args.seed}, explore {args.explore}, extra {args.extra}), "
        f"batch {args.batch}, "
        f"{len(boards)} positions,\n{args.hidden} hidden units, {args.epochs} epochs; "
        f"held-out mse {mse:.5f}, equity error {eq_err:.4f},\n"
        f"same play as the teacher in {agree}/{total} held-out decisions "
        f"({agree / total:.1%}); {len(blob)} bytes."
    )
    log(summary)
    log(f"took {time.perf_counter() - began:.0f} s")
    if not args.dry_run:
        details = {
            "inputs": {
                "games": args.games,
                "seed": args.seed,
                "explore": args.explore,
                "extra": args.extra,
                "batch": args.batch,
                "positions": len(boards),
                "hidden": args.hidden,
                "epochs": args.epochs,
            },
            "figures": {
                "held_out_mse": round(mse, 5),
                "equity_error": round(eq_err, 4),
                "same_play_as_teacher": f"{agree}/{total}",
            },
        }
        write_weights(blob, details, args.out)
        log(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
