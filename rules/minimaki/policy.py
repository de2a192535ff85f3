"""Mini-Maki's exact optimal policy, shipped as package data, and its one reader.

Why data: the optimum (value iteration over every position) takes minutes to compute,
and a Pi far longer, so it is computed once, offline, by
``benchmarks/minimaki_solution.py`` and shipped beside this module. The bot and its hint
then play exactly from their first decision, with nothing to wait for and no file to
write.

What is stored is the decision itself, not the values: for every position with red to
step, the direction of the best king step; for every black setup, the best start
column; for every partial free setup, the best row for the next black. Where several
choices are optimal (equal values up to ``tie_tolerance`` in the provenance file), the
first in the engine's legal-move order is stored, so the choice is always an optimal one
and the same every time. One table serves the rules of a step; only diagonal contact
changes them, so ``standard``, ``free_setup`` and ``two_player`` share the plain table
and ``diagonal`` has its own.

A provenance file (:data:`PROVENANCE_NAME`) beside the tables names the generator
command, the presets, the exact P(win) and the sha256 of each table. The reader checks
that sha256, the header and the length: a missing or damaged table is a
:class:`PolicyDataError` naming the file, never a silently weaker player.

Layout of a table after xz decompression (:func:`encode_policy`, :func:`decode_policy`):
:data:`MAGIC`, one byte ``b"D"`` (diagonal) or ``b"S"``, then

* ``POSITIONS`` step codes by :func:`position_index`: 0–7 index :data:`DIRECTIONS`,
  :data:`PASS_CODE` red is boxed in, :data:`NO_POSITION` red would stand on a black;
* ``BLACK_CONFIGS`` start columns (1–6) by :func:`black_index`;
* ``SETUP_PREFIXES`` rows (1–5) for the next black, by :func:`setup_index`.

This module depends only on the engine's constants and the standard library, so it
moves with its data files wherever the rules package is reorganised.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from rules.data import DataFileError
from rules.minimaki.engine import BLACK_BASE, RED_BASE, SIZE, Field

ALIVE_ROWS = RED_BASE - BLACK_BASE
"""A black stands on rows 1–5 while the game goes on (row 6 has won for black)."""
RED_FIELDS = (RED_BASE - BLACK_BASE) * SIZE
"""Red stands on rows 2–6 while the game goes on (row 1 has won for red)."""
BLACK_CONFIGS: int = ALIVE_ROWS**SIZE
POSITIONS = BLACK_CONFIGS * RED_FIELDS
SETUP_OFFSETS: tuple[int, ...] = tuple(
    sum(ALIVE_ROWS**k for k in range(placed)) for placed in range(SIZE + 1)
)
"""Where the partial free setups with ``placed`` blacks begin: 0, 1, 6, 31, ..."""
SETUP_PREFIXES = SETUP_OFFSETS[SIZE]
"""Partial free setups with a black still to place: 1 + 5 + ... + 5^5."""

DIRECTIONS: tuple[tuple[int, int], ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc
)
"""Red's king steps as (row, column) offsets, in the engine's legal-move order."""
PASS_CODE = len(DIRECTIONS)
NO_POSITION = 0xFF
MAGIC = b"MINIMAKI-POLICY-1\n"
PROVENANCE_NAME = "policy.json"
TABLE_NAMES = {False: "standard", True: "diagonal"}
"""The table of each value of the diagonal-contact switch (the provenance's keys)."""
XZ_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": 1 << 20}]
"""A 1 MiB dictionary (the payload is smaller), so decompressing needs about 1 MiB."""


class PolicyDataError(DataFileError):
    """The shipped Mini-Maki table is missing or damaged (a broken installation)."""


def black_index(rows: Sequence[int]) -> int:
    """Index of the black rows (each 1–5), column 1 the least significant digit."""
    index = 0
    for row in reversed(rows):
        index = index * ALIVE_ROWS + (row - BLACK_BASE)
    return index


def black_rows(index: int) -> tuple[int, ...]:
    rows = []
    for _ in range(SIZE):
        index, digit = divmod(index, ALIVE_ROWS)
        rows.append(digit + BLACK_BASE)
    return tuple(rows)


def position_index(rows: Sequence[int], red: Field) -> int:
    """Index of a position: blacks on rows 1–5, red on rows 2–6."""
    row, col = red
    return black_index(rows) * RED_FIELDS + (row - BLACK_BASE - 1) * SIZE + (col - 1)


def setup_index(placed: Sequence[int]) -> int:
    """Index of a partial free setup (the rows of columns 1..k, k < 6)."""
    return SETUP_OFFSETS[len(placed)] + black_index(placed)


@dataclass(frozen=True)
class MinimakiPolicy:
    """The optimal decisions of one rule set (module docstring)."""

    diagonal: bool
    steps: bytes
    starts: bytes
    setup: bytes
    p_win: float
    """Red's exact P(win) from the standard start under this policy (provenance)."""

    def step_target(self, rows: Sequence[int], red: Field) -> Field | None:
        """Red's best king step from ``red``; None when red is boxed in (a pass)."""
        code = self.steps[position_index(rows, red)]
        if code == PASS_CODE:
            return None
        if code >= PASS_CODE:
            raise PolicyDataError(f"the Mini-Maki table has no step for red on {red}")
        dr, dc = DIRECTIONS[code]
        return (red[0] + dr, red[1] + dc)

    def start_column(self, rows: Sequence[int]) -> int:
        """The best column of row 6 for red's start, given the black rows."""
        return self.starts[black_index(rows)]

    def setup_row(self, placed: Sequence[int]) -> int:
        """The best row for the black of column ``len(placed) + 1`` in the free setup."""
        return self.setup[setup_index(placed)]


def encode_policy(diagonal: bool, steps: bytes, starts: bytes, setup: bytes) -> bytes:
    """The file contents of a table (the generator's half of the format)."""
    if (len(steps), len(starts), len(setup)) != (POSITIONS, BLACK_CONFIGS, SETUP_PREFIXES):
        raise ValueError("a Mini-Maki table needs every position, black setup and prefix")
    payload = MAGIC + (b"D" if diagonal else b"S") + steps + starts + setup
    return lzma.compress(payload, format=lzma.FORMAT_XZ, filters=XZ_FILTERS)


def decode_policy(data: bytes, diagonal: bool, p_win: float, where: str) -> MinimakiPolicy:
    """Parse a table's file contents; anything unexpected is a :class:`PolicyDataError`."""
    try:
        payload = lzma.decompress(data, format=lzma.FORMAT_XZ)
    except lzma.LZMAError as exc:
        raise PolicyDataError(f"Mini-Maki table {where} is damaged: {exc}") from None
    head = len(MAGIC) + 1
    flag = b"D" if diagonal else b"S"
    if payload[:head] != MAGIC + flag:
        raise PolicyDataError(f"Mini-Maki table {where} has the wrong header")
    if len(payload) != head + POSITIONS + BLACK_CONFIGS + SETUP_PREFIXES:
        raise PolicyDataError(f"Mini-Maki table {where} has the wrong length")
    starts_at = head + POSITIONS
    setup_at = starts_at + BLACK_CONFIGS
    return MinimakiPolicy(
        diagonal,
        payload[head:starts_at],
        payload[starts_at:setup_at],
        payload[setup_at:],
        p_win,
    )


def read_provenance(folder: Traversable) -> dict[str, Any]:
    try:
        provenance: dict[str, Any] = json.loads(folder.joinpath(PROVENANCE_NAME).read_bytes())
    except (OSError, ValueError) as exc:
        raise PolicyDataError(f"cannot read Mini-Maki's {PROVENANCE_NAME}: {exc}") from None
    return provenance


def load_policy(diagonal: bool, folder: Traversable) -> MinimakiPolicy:
    """Read, check (sha256, header, length) and parse the table of one rule set."""
    try:
        entry = read_provenance(folder)["tables"][TABLE_NAMES[diagonal]]
        name, sha256, p_win = str(entry["file"]), str(entry["sha256"]), float(entry["p_win"])
    except (KeyError, TypeError, ValueError) as exc:
        raise PolicyDataError(f"Mini-Maki's {PROVENANCE_NAME} lacks {exc}") from None
    try:
        data = folder.joinpath(name).read_bytes()
    except OSError as exc:
        raise PolicyDataError(f"Mini-Maki table {name} is missing: {exc}") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        raise PolicyDataError(f"Mini-Maki table {name} is damaged: its sha256 does not match")
    return decode_policy(data, diagonal, p_win, name)


@cache
def shipped_policy(diagonal: bool) -> MinimakiPolicy:
    """The installed table of a rule set, read on first use and then kept."""
    return load_policy(diagonal, files(__package__ or __name__.rpartition(".")[0]))
