"""GNU Backgammon Position IDs and Match IDs (read and write).

Both are base64 text of a little-endian bit string, as documented in the GNU Backgammon
manual ("Position ID" and "Match ID" in the technical notes):

* **Position ID** (14 characters, 10 bytes): for each side, first the side *not* on roll
  and then the side on roll, for its points 1–24 and then the bar (its own view): as
  many 1-bits as checkers, then a 0-bit. The start position is ``4HPwATDgc/ABMA``.
* **Match ID** (12 characters, 9 bytes): cube value (log2, 4 bits), cube owner (2 bits:
  0, 1 or 3 = centred), player on roll (1), Crawford game (1), game state (3), player
  to make the next decision (1), double offered (1), resignation (2), dice (3 + 3),
  match length (15), score of player 0 (15) and of player 1 (15), and one bit that is
  set when the Jacoby rule is *not* in use (our engine never uses it).

Pure functions over plain tuples, so the engine, tests and the CLI share them.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from rules.errors import InvalidStateError, shown

Board = tuple[int, ...]
"""25 counts from the side's own view: points 1–24, then the bar."""


def encode_position(not_on_roll: Board, on_roll: Board) -> str:
    """The Position ID of two sides' boards (each in its own view)."""
    value = pos = 0
    for side in (not_on_roll, on_roll):
        for count in side:
            value |= ((1 << count) - 1) << pos
            pos += count + 1
    if pos > 80:
        raise InvalidStateError(f"too many checkers for a Position ID ({pos - 50} > 30)")
    return _b64(value.to_bytes(10, "little"))


def decode_position(pid: str) -> tuple[Board, Board]:
    """(side not on roll, side on roll) from a Position ID; rejects impossible boards."""
    text = pid.strip()
    data = _unb64(text, 14, "Position ID")
    bits = _unpack(data)
    sides: list[list[int]] = [[], []]
    side = 0
    count = 0
    for bit in bits:
        if side == 2:
            if bit:
                raise InvalidStateError(
                    f"Position ID {shown(pid)} has more than two sides' checkers"
                )
            continue
        if bit:
            count += 1
        else:
            sides[side].append(count)
            count = 0
            if len(sides[side]) == 25:
                side += 1
    if side < 2:
        raise InvalidStateError(f"Position ID {shown(pid)} is truncated")
    for who, counts in zip(("side not on roll", "side on roll"), sides, strict=True):
        if sum(counts) > 15:
            raise InvalidStateError(
                f"Position ID {shown(pid)}: the {who} has {sum(counts)} checkers (at most 15)"
            )
    first, second = sides
    for i in range(24):
        if first[i] and second[23 - i]:
            raise InvalidStateError(
                f"Position ID {shown(pid)}: both sides have checkers on one point "
                f"(point {i + 1} of the side not on roll)"
            )
    return tuple(first), tuple(second)


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """The fields of a Match ID. Players are GNU Backgammon's 0 and 1."""

    cube: int = 1
    cube_owner: int | None = None
    on_roll: int = 0
    crawford: bool = False
    game_state: int = 1
    decision: int = 0
    doubled: bool = False
    resigned: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False


GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROP = range(5)


def encode_match(info: MatchInfo) -> str:
    """The Match ID of ``info``."""
    log = info.cube.bit_length() - 1
    if info.cube < 1 or 1 << log != info.cube or log > 15:
        raise InvalidStateError(f"cube value {info.cube} is not a power of two up to 32768")
    owner = 3 if info.cube_owner is None else info.cube_owner
    fields = (
        (log, 4),
        (owner, 2),
        (info.on_roll, 1),
        (int(info.crawford), 1),
        (info.game_state, 3),
        (info.decision, 1),
        (int(info.doubled), 1),
        (info.resigned, 2),
        (info.dice[0], 3),
        (info.dice[1], 3),
        (info.match_length, 15),
        (info.score[0], 15),
        (info.score[1], 15),
        (int(not info.jacoby), 1),
    )
    packed = pos = 0
    for value, width in fields:
        if not 0 <= value < 1 << width:
            raise InvalidStateError(f"match field value {value} does not fit {width} bits")
        packed |= value << pos
        pos += width
    return _b64(packed.to_bytes(9, "little"))


def decode_match(mid: str) -> MatchInfo:
    """The fields of a Match ID (12 characters)."""
    bits = _unpack(_unb64(mid.strip(), 12, "Match ID"))
    pos = 0

    def take(width: int) -> int:
        nonlocal pos
        value = sum(bits[pos + k] << k for k in range(width))
        pos += width
        return value

    log, owner, on_roll, crawford = take(4), take(2), take(1), take(1)
    state, decision, doubled, resigned = take(3), take(1), take(1), take(2)
    d1, d2, length, s0, s1 = take(3), take(3), take(15), take(15), take(15)
    no_jacoby = take(1)
    if owner == 2:
        raise InvalidStateError(f"Match ID {shown(mid)}: cube owner 2 does not exist")
    if d1 > 6 or d2 > 6 or (d1 == 0) != (d2 == 0):
        raise InvalidStateError(f"Match ID {shown(mid)}: impossible dice {d1}, {d2}")
    return MatchInfo(
        cube=1 << log,
        cube_owner=None if owner == 3 else owner,
        on_roll=on_roll,
        crawford=bool(crawford),
        game_state=state,
        decision=decision,
        doubled=bool(doubled),
        resigned=resigned,
        dice=(d1, d2),
        match_length=length,
        score=(s0, s1),
        jacoby=not no_jacoby,
    )


def _unpack(data: bytes) -> list[int]:
    return [(byte >> k) & 1 for byte in data for k in range(8)]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str, length: int, what: str) -> bytes:
    if len(text) != length:
        raise InvalidStateError(f"a {what} has {length} characters, got {shown(text)}")
    try:
        return base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise InvalidStateError(f"{shown(text)} is not a {what} (bad base64)") from None
