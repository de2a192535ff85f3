"""The Backgammon evaluation of many positions through the optional C kernel.

Why: the kernel (``_kernel.c`` beside this module) does what :mod:`rules.backgammon.net`
does for one position, for a whole group in one call, some thirty times faster than the
pure path, and with the same result to the last bit: the first layer adds the same
fixed-point whole numbers as :class:`rules.backgammon.net.PackedLayer`, the rest runs
in the same order with the same rounding (no fused multiply-add). So the bot plays the
same moves with it as without it.

The kernel is built by ``setup.py`` beside the compiled rules, only where a C compiler
works; :func:`evaluator` is None without it, and the callers
(:func:`rules.backgammon.evaluation.batch_evaluator`) fall back to numpy or to the pure
path. This module itself imports nothing optional, so it imports everywhere.
"""

from __future__ import annotations

import importlib
import struct
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from rules.backgammon import bearoff
from rules.backgammon.features import INPUT_MAXIMA
from rules.backgammon.net import FIELD, Network, Probabilities, equity

KERNEL = "rules.backgammon._kernel"
Position = tuple[Sequence[int], Sequence[int]]


def kernel() -> ModuleType | None:
    """The compiled kernel module, or None where it was not built."""
    try:
        return importlib.import_module(KERNEL)
    except ImportError:
        return None


def _fields(row: int, hidden: int) -> bytes:
    """A packed row's fields as little-endian 64-bit words (the kernel takes the
    offsets back out)."""
    return row.to_bytes(FIELD // 8 * hidden, "little")


def load(module: ModuleType, network: Network) -> Any:
    """The network's packed rows handed to the kernel once (an opaque handle)."""
    network.warm()
    packed = network._packed
    hidden = network.hidden
    stacks = b"".join(
        _fields(row, hidden) for side in packed.stacks for place in side for row in place
    )
    figures = b"".join(_fields(row, hidden) for rows in packed.figures for row in rows)
    out_rows = struct.pack(f"<{5 * hidden}d", *(w for row in network.out_rows for w in row))
    return module.load(
        hidden,
        packed.blocks,
        [INPUT_MAXIMA[k] for k in range(len(packed.figures))],
        _fields(packed.bias, hidden),
        stacks,
        _fields(packed.contact, hidden),
        figures,
        out_rows,
        struct.pack("<5d", *network.out_bias),
    )


class KernelEvaluator:
    """:func:`rules.backgammon.evaluation.probabilities` for many positions, in C: the
    bear-off database where both sides bear off (asked from here, in Python: it is
    exact and rare in a search), the race network without contact, the main network
    otherwise."""

    def __init__(
        self, module: ModuleType, network: Network, race: Network, exact_bearoff: bool = True
    ) -> None:
        self._evaluate = module.evaluate
        self._main = load(module, network)
        self._race = load(module, race)
        self.exact_bearoff = exact_bearoff

    def probabilities(self, positions: Sequence[Position]) -> list[Probabilities]:
        """The five chances of the side on roll for each (on roll, other) position."""
        found: list[Probabilities | None] = self._evaluate(
            self._main, self._race, positions, self.exact_bearoff, False
        )
        return [p if p is not None else self._exact(positions[i]) for i, p in enumerate(found)]

    def equities(self, positions: Sequence[Position]) -> list[float]:
        """Cubeless equity of the side on roll in each position (:func:`equity` of
        :meth:`probabilities`, the same operations in the same order)."""
        found: list[float | None] = self._evaluate(
            self._main, self._race, positions, self.exact_bearoff, True
        )
        return [
            e if e is not None else equity(self._exact(positions[i])) for i, e in enumerate(found)
        ]

    @staticmethod
    def _exact(position: Position) -> Probabilities:
        exact = bearoff.probabilities(position[0], position[1])
        assert exact is not None  # the kernel asks only where both sides bear off
        return exact


BLOCK = 16
"""The kernel sums the hidden units sixteen at a time: it takes networks whose hidden
layer is a multiple of that (the shipped ones have 256 units)."""


def evaluator(
    network: Network, race: Network, exact_bearoff: bool = True
) -> KernelEvaluator | None:
    """The kernel's evaluator for these networks, or None where the kernel is not built
    or a network's hidden layer does not fit it (:data:`BLOCK`)."""
    module = kernel()
    if module is None or network.hidden % BLOCK or race.hidden % BLOCK:
        return None
    return KernelEvaluator(module, network, race, exact_bearoff)
