"""Argument types the benchmark scripts share.

A benchmark given zero games, zero jobs or a NaN budget used to end in a division by
zero, a process-pool error, or worse a verdict over nothing (``MET`` for no positions at
all). These types turn each into argparse's one-line error naming the option.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def counted(least: int, most: int | None = None) -> Callable[[str], int]:
    """A whole number of at least ``least`` and, if given, at most ``most`` (games,
    jobs, positions, a panel's side)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r}: at least {least}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{text!r}: at most {most}")
        return value

    return parse


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def positive_type(text: str) -> float:
    """A positive, finite number (a tolerance, a learning rate; NaN and inf refused: a
    NaN tolerance is never reached)."""
    value = _number(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: a positive, finite number")
    return value


def seconds_type(text: str) -> float:
    """A positive, finite number of seconds below an hour (NaN and inf refused)."""
    value = _number(text)
    if not 0 < value < 3600:
        raise argparse.ArgumentTypeError(f"{text!r}: seconds above 0 and below an hour")
    return value


def share_type(text: str) -> float:
    """A share from 0 to 1 (NaN refused: it compares false with both ends)."""
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r}: a share from 0 to 1")
    return value


def add_match_options(parser: argparse.ArgumentParser) -> None:
    """The options of a script that plays the bot's match against GNU Backgammon's 0-ply
    (``--games``, ``--seed``, ``--jobs`` and the Pi-sized ``--seconds`` of CPU), so that
    each such script reads them alike."""
    parser.add_argument("--games", type=counted(1), default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=counted(1), default=2)
    parser.add_argument("--seconds", type=seconds_type, default=0.5 / 6)
