"""Relabel cached training positions with GNU Backgammon's evaluation one ply deeper.

Run by hand (an hour or so of both cores, never in tests); it needs the test extra:

    .venv/bin/python benchmarks/relabel_backgammon.py --data CACHE.npz --out DEEP.npz \
        [--positions 2000000] [--ply 1|2|0+1] [--jobs 2] [--seed 29]

Why: the network learns its teacher's 0-ply evaluation, so at best it plays as well as
that teacher does, which is the very opponent it must beat. GNU Backgammon's 1-ply
evaluation (for each of the 21 rolls, the best play by 0-ply, averaged) is a stronger
player; a network fitted to it can play better than the 0-ply teacher. It costs about
1.5 ms of one core per position against 0.02 ms at 0-ply, so only a sample of the
cached positions is relabelled. Measured: 3 million positions in 37 min on two cores, and
the shipped network fine-tuned on them (``train_backgammon_net.py --data DEEP.npz --start
rules/backgammon/weights.bin --epochs 4 --rate 0.001 --batch 2048``) plays no better,
judged per decision by the 1-ply evaluation itself. On 150 000 held-out positions the two
teachers differ by 0.032 in equity on average, while the network's own error is larger:
0.0455 against the 1-ply labels before the fine-tune and 0.0410 after it (against the
0-ply labels 0.0385, then 0.0429). What a deeper teacher adds is smaller than what the
network misses of either, so the 128 hidden units and the inputs are the limit, not the
teacher.

Judged by the 2-ply (``backgammon_teacher_depth.py``), GNU Backgammon's 0+1 depth
(``--ply 0+1``, the mean of its 0-ply and 1-ply, which cancels most of a one-ply
search's odd-even bias) plays better than either: 0.98 milli-equity lost per decision,
against 1.23 at 1-ply and 2.82 at 0-ply. The shipped network was fine-tuned on 3
million positions labelled so (1.2 ms each; 45 min on two cores beside other work), and
its ranking loses 0.46 milli-equity per decision less by the 2-ply judge (docs/bots.md).

Since races and bear-offs have evaluators of their own, ``--contact`` samples only the
positions with contact, the ones the main network still answers.

The work goes in shards of ``--shard`` positions, each written to ``DEEP.parts/`` as
soon as it is done, so a run stopped halfway keeps what it labelled; a second run skips
the shards that exist, and ``--merge`` alone joins them into ``DEEP.npz`` (the format of
``train_backgammon_net.py --data``: int8 boards, float32 labels).
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gnubg_nn
from arguments import counted
from train_backgammon_net import contact_rows, read_cache, teacher

PLIES = {"1": 1, "2": 2, "0+1": gnubg_nn.p_0plus1}
"""``--ply`` to gnubg-nn's depth codes; 0+1 is its own code for the 0-ply and 1-ply
evaluations averaged, which cancels most of the odd-even bias of a one-ply search."""


def _label(job: tuple[Path, np.ndarray, int]) -> tuple[Path, int]:
    """Label one shard's boards and write it (a worker's whole job)."""
    path, boards, ply = job
    # plain ints: gnubg-nn does not take numpy's int8
    rows = (row.tolist() for row in boards)
    labels = np.array([teacher((r[:25], r[25:]), ply) for r in rows], dtype=np.float32)
    partial = path.with_suffix(".tmp.npz")
    np.savez(partial, boards=boards, labels=labels)
    partial.replace(path)
    return path, len(boards)


def merge(parts: Path, out: Path) -> int:
    """Join every finished shard into one cache; returns how many positions it holds."""
    shards = sorted(p for p in parts.glob("part-*.npz") if ".tmp" not in p.name)
    if not shards:
        raise SystemExit(f"{parts}: no finished shards to merge")
    loaded = [np.load(p) for p in shards]
    boards = np.concatenate([z["boards"] for z in loaded])
    labels = np.concatenate([z["labels"] for z in loaded])
    np.savez_compressed(out, boards=boards, labels=labels)
    return len(boards)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="cache to sample from (.npz)")
    parser.add_argument("--out", type=Path, required=True, help="relabelled cache to write")
    parser.add_argument("--positions", type=counted(1), default=2_000_000)
    parser.add_argument(
        "--ply",
        default="1",
        choices=tuple(PLIES),
        help="GNU Backgammon's depth: 1, 2, or 0+1 (the mean of its 0-ply and 1-ply)",
    )
    parser.add_argument("--shard", type=counted(1), default=20_000)
    parser.add_argument("--jobs", type=counted(1), default=2)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--merge", action="store_true", help="only join the finished shards")
    parser.add_argument(
        "--contact",
        action="store_true",
        help="sample only positions with contact, the ones the main network answers",
    )
    args = parser.parse_args(argv)
    parts = args.out.with_suffix(".parts")
    if args.merge:
        print(f"{merge(parts, args.out)} positions in {args.out}")
        return 0
    (boards,) = read_cache(args.data, "boards")
    if args.contact:
        boards = boards[contact_rows(boards)]
    count = min(args.positions, len(boards))
    picked = np.random.default_rng(args.seed).choice(len(boards), size=count, replace=False)
    sample = boards[np.sort(picked)]
    sample = sample[np.random.default_rng(args.seed + 1).permutation(count)]
    parts.mkdir(parents=True, exist_ok=True)
    jobs = [
        (parts / f"part-{k // args.shard:05d}.npz", sample[k : k + args.shard], PLIES[args.ply])
        for k in range(0, count, args.shard)
    ]
    todo = [job for job in jobs if not job[0].exists()]
    print(
        f"{count} positions in {len(jobs)} shards, {len(todo)} to label at {args.ply}-ply",
        flush=True,
    )
    began = time.perf_counter()
    done = 0
    # one job labels in this process: no pool to start, and a traceback stays readable
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        for path, size in (pool.imap_unordered if pool else map)(_label, todo):
            done += size
            rate = done / (time.perf_counter() - began)
            print(f"{path.name}: {done} labelled, {rate:.0f} per second", flush=True)
    finally:
        if pool:
            pool.terminate()
    print(f"{merge(parts, args.out)} positions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
