"""eXtreme Gammon's position IDs (XGID), read and write.

An XGID is ``XGID=`` and ten colon-separated fields (eXtreme Gammon's documentation,
"XGID"; GNU Backgammon reads them with ``set xgid``):

1. the board, 26 characters seen from the bottom player (uppercase, who moves from its
   24 point down to 1): character 0 is the top player's bar, 1–24 the bottom player's
   points 1–24, 25 the bottom player's bar; ``-`` is empty, ``A``–``O`` are 1–15
   bottom checkers and ``a``–``o`` 1–15 top checkers;
2. the cube as a power of two (0 = 1);
3. the cube's place: 1 the bottom player owns it, -1 the top player, 0 centred;
4. whose turn: 1 the bottom player, -1 the top player;
5. the dice: ``00`` to roll (or double), ``D`` a double offered to the other side,
   two digits once rolled;
6. and 7. the scores of the bottom and the top player;
8. in a match 1 for the Crawford game; in money play the Jacoby rule (1) plus
   beavers (2);
9. the match length (0: money);
10. the highest cube, as a power of two.

Here white is the bottom player (uppercase) and black the top player: GNU Backgammon's
``set xgid`` makes the bottom player its player 0, which is white here too. Pure text in,
plain values out.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import InvalidStateError

PREFIX = "XGID="
MAX_CUBE_LOG = 15
Board = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class XgPosition:
    """The fields of an XGID, with white (the bottom player) as seat 0.

    ``boards`` are 25 counts per seat in its own view (points 1–24, bar last), the
    engine's layout; ``dice`` is ``(0, 0)`` before the roll; ``doubled``: the side on
    ``turn`` has offered a double that the other side must answer.
    """

    boards: tuple[Board, Board]
    cube: int = 1
    cube_owner: int | None = None
    turn: int = 0
    dice: tuple[int, int] = (0, 0)
    doubled: bool = False
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    match_length: int = 0
    max_cube: int = 1 << 10


def _char(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    return chr((ord("A") if upper else ord("a")) + count - 1)


def encode_xgid(pos: XgPosition) -> str:
    """The XGID of ``pos`` (module docstring)."""
    white, black = pos.boards
    cells = ["-"] * 26
    cells[0] = _char(black[24], False)
    cells[25] = _char(white[24], True)
    for i in range(24):
        if white[i] and black[23 - i]:
            raise InvalidStateError(f"both sides have checkers on white's point {i + 1}")
        if white[i]:
            cells[i + 1] = _char(white[i], True)
        elif black[23 - i]:
            cells[i + 1] = _char(black[23 - i], False)
    owner = {None: 0, 0: 1, 1: -1}[pos.cube_owner]
    turn = 1 if pos.turn == 0 else -1
    if pos.doubled:
        dice = "D"
    elif pos.dice[0]:
        dice = f"{pos.dice[0]}{pos.dice[1]}"
    else:
        dice = "00"
    # In a match the Crawford flag; in money play Jacoby + 2 x beavers.
    flags = int(pos.crawford) if pos.match_length else int(pos.jacoby) + 2 * int(pos.beavers)
    fields = (
        "".join(cells),
        str(pos.cube.bit_length() - 1),
        str(owner),
        str(turn),
        dice,
        str(pos.score[0]),
        str(pos.score[1]),
        str(flags),
        str(pos.match_length),
        str(pos.max_cube.bit_length() - 1),
    )
    return PREFIX + ":".join(fields)


def is_xgid(text: str) -> bool:
    """Whether ``text`` looks like an XGID rather than a GNU Backgammon ID."""
    stripped = text.strip()
    return stripped.upper().startswith(PREFIX) or (len(stripped) > 26 and stripped[26:27] == ":")


def _int(text: str, what: str, xgid: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InvalidStateError(f"XGID {xgid!r}: {what} {text!r} is not a number") from None
    if not lo <= value <= hi:
        raise InvalidStateError(f"XGID {xgid!r}: {what} {value} is not in {lo}..{hi}")
    return value


def decode_xgid(text: str) -> XgPosition:
    """The fields of an XGID; rejects malformed and impossible ones with one line."""
    xgid = text.strip()
    body = xgid[len(PREFIX) :] if xgid.upper().startswith(PREFIX) else xgid
    fields = body.split(":")
    if len(fields) < 9 or len(fields) > 10:
        raise InvalidStateError(
            f"XGID {xgid!r} needs a board and 9 fields separated by ':' (see docs/games.md)"
        )
    cells = fields[0]
    if len(cells) != 26:
        raise InvalidStateError(f"XGID {xgid!r}: the board has {len(cells)} characters, not 26")
    white = [0] * 25
    black = [0] * 25
    for i, c in enumerate(cells):
        if c == "-":
            continue
        if "A" <= c <= "O":
            count, upper = ord(c) - ord("A") + 1, True
        elif "a" <= c <= "o":
            count, upper = ord(c) - ord("a") + 1, False
        else:
            raise InvalidStateError(f"XGID {xgid!r}: {c!r} is not a checker count (-, A-O, a-o)")
        if i == 0:
            if upper:
                raise InvalidStateError(f"XGID {xgid!r}: the top player's bar holds white checkers")
            black[24] = count
        elif i == 25:
            if not upper:
                raise InvalidStateError(
                    f"XGID {xgid!r}: the bottom player's bar holds black checkers"
                )
            white[24] = count
        elif upper:
            white[i - 1] = count
        else:
            black[24 - i] = count
    for colour, board in (("white", white), ("black", black)):
        if sum(board) > 15:
            raise InvalidStateError(f"XGID {xgid!r}: {colour} has {sum(board)} checkers (max 15)")
    cube_log = _int(fields[1], "cube", xgid, 0, MAX_CUBE_LOG)
    owner = _int(fields[2], "cube owner", xgid, -1, 1)
    turn = _int(fields[3], "turn", xgid, -1, 1)
    if turn == 0:
        raise InvalidStateError(f"XGID {xgid!r}: the turn is 1 (bottom) or -1 (top), not 0")
    dice_text = fields[4].upper()
    doubled = dice_text == "D"
    dice = (0, 0)
    if not doubled and dice_text != "00":
        if len(dice_text) != 2 or not all(c in "123456" for c in dice_text):
            raise InvalidStateError(f"XGID {xgid!r}: dice {fields[4]!r} are not 00, D or 11-66")
        hi, lo = sorted((int(dice_text[0]), int(dice_text[1])), reverse=True)
        dice = (hi, lo)
    score = (
        _int(fields[5], "score", xgid, 0, (1 << 15) - 1),
        _int(fields[6], "score", xgid, 0, (1 << 15) - 1),
    )
    flags = _int(fields[7], "Crawford/Jacoby field", xgid, 0, 3)
    length = _int(fields[8], "match length", xgid, 0, (1 << 15) - 1)
    max_log = _int(fields[9], "max cube", xgid, 0, MAX_CUBE_LOG) if len(fields) > 9 else 10
    return XgPosition(
        boards=(tuple(white), tuple(black)),
        cube=1 << cube_log,
        cube_owner={0: None, 1: 0, -1: 1}[owner],
        turn=0 if turn == 1 else 1,
        dice=dice,
        doubled=doubled,
        score=score,
        crawford=bool(flags & 1) if length else False,
        jacoby=bool(flags & 1) if not length else False,
        beavers=bool(flags & 2) if not length else False,
        match_length=length,
        max_cube=1 << max_log,
    )
