"""An independent, deliberately naive MÄDN implementation, written from the rule text.

It shares no code with :mod:`rules.track.engine` or :mod:`rules.track.kernel`: positions stay in
the JSON vocabulary (``"home"``, absolute track index, ``"goalN"``), moves are computed by
walking the board field by field, and turn order is a plain loop. The tests compare the
engine against it on random positions (legal-move sets) and on whole random games
(identical RNG consumption, so whole games must agree move for move).

Move order convention shared with the engine (needed only for RNG-identical replays): a
player's moves are listed by how far the moving piece has travelled, home first.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

START = {"red": 0, "blue": 10, "green": 20, "yellow": 30}
COLOURS = ("red", "blue", "green", "yellow")
SEATING = {2: ("red", "green"), 3: ("red", "blue", "green"), 4: COLOURS}


@dataclass(frozen=True)
class Preset:
    capture_first: bool
    enter_first: bool
    clear_start: bool
    pass_always: bool
    self_capture: bool
    jump_in_goal: bool
    three_tries: bool
    biased_six: bool
    unused_six_again: bool
    opening_roll: bool
    piece_on_start: bool


PRESETS = {
    "classic": Preset(True, True, True, False, False, False, True, False, True, True, False),
    "lingo": Preset(False, False, False, True, True, True, False, True, False, False, False),
    "schmidt": Preset(False, True, True, False, False, True, True, False, True, True, True),
}

Token = int | str


def travelled(colour: str, token: Token) -> int:
    """Steps from the own start field; home is -1, goal N is 39 + N."""
    if token == "home":
        return -1
    if isinstance(token, str):
        return 39 + int(token[4:])
    return (token - START[colour]) % 40


def walk(colour: str, token: Token, die: int) -> Token | None:
    """Where a piece lands after ``die`` single steps (None: it cannot)."""
    if token == "home":
        return START[colour] if die == 6 else None
    done = travelled(colour, token)
    target = done + die
    if target <= 39:
        return (START[colour] + target) % 40
    if target <= 43:
        return f"goal{target - 39}"
    return None


def moves(preset: Preset, colour: str, pieces: dict[str, list[Token]], die: int) -> list[str]:
    """Legal move notations, in the shared order; ``["pass"]`` if nothing can move."""
    own = pieces[colour]
    board = {t: c for c, ts in pieces.items() for t in ts if isinstance(t, int)}
    found: list[tuple[int, str, bool, Token]] = []
    seen: set[Token] = set()
    for token in own:
        if token in seen:
            continue
        seen.add(token)
        target = walk(colour, token, die)
        if target is None:
            continue
        capture = False
        if isinstance(target, int):
            who = board.get(target)
            if who == colour and not preset.self_capture:
                continue
            capture = who is not None
        else:
            if target in own:
                continue
            if not preset.jump_in_goal:
                first = travelled(colour, token) + 1
                last = travelled(colour, target)
                between = {f"goal{n - 39}" for n in range(max(first, 40), last)}
                if between & set(own):
                    continue
        found.append((travelled(colour, token), f"{token}-{target}", capture, token))
    found.sort(key=lambda item: item[0])
    choice = found
    if preset.capture_first and any(c for _, _, c, _ in found):
        choice = [m for m in found if m[2]]
    elif "home" in own:
        if preset.enter_first and any(t == "home" for *_, t in found):
            choice = [m for m in found if m[3] == "home"]
        elif preset.clear_start and any(t == START[colour] for *_, t in found):
            choice = [m for m in found if m[3] == START[colour]]
    names = [n + ("x" if c else "") for _, n, c, _ in choice]
    if not names:
        return ["pass"]
    return [*names, "pass"] if preset.pass_always else names


def can_advance(preset: Preset, colour: str, own: list[Token]) -> bool:
    for token in own:
        if isinstance(token, int):
            return True
        if token != "home":
            n = int(token[4:])
            ahead = [f"goal{k}" for k in range(n + 1, 5)]
            if preset.jump_in_goal and any(a not in own for a in ahead):
                return True
            if not preset.jump_in_goal and ahead and ahead[0] not in own:
                return True
    return False


def play(preset_name: str, players: int, rng: random.Random) -> tuple[str, int, int]:
    """One random game; returns (winner, die throws incl. opening, piece moves)."""
    preset = PRESETS[preset_name]
    colours = SEATING[players]
    pieces: dict[str, list[Token]] = {}
    for c in colours:
        pieces[c] = ["home", "home", "home", START[c]] if preset.piece_on_start else ["home"] * 4
    throws = made = 0
    turn = 0
    if preset.opening_roll:
        contenders = list(range(len(colours)))
        while len(contenders) > 1:
            rolls = []
            for _ in contenders:
                rolls.append(rng.randrange(6) + 1)
                throws += 1
            best = max(rolls)
            contenders = [c for c, r in zip(contenders, rolls, strict=True) if r == best]
        turn = contenders[0]
    tries = 0
    while True:
        colour = colours[turn]
        own = pieces[colour]
        if preset.biased_six and not can_advance(preset, colour, own):
            x = rng.random()
            die = 6
            for face in range(1, 7):
                x -= 0.56 if face == 6 else (1.0 - 0.56) / 5
                if x < 0:
                    die = face
                    break
        else:
            die = rng.randrange(6) + 1
        throws += 1
        legal = moves(preset, colour, pieces, die)
        real = [m for m in legal if m != "pass"]
        choice = legal[0] if len(legal) == 1 else real[rng.randrange(len(real))]
        if choice == "pass":
            allowed = 3 if preset.three_tries and not can_advance(preset, colour, own) else 1
            if die == 6 and preset.unused_six_again:
                tries = 0
            elif tries + 1 < allowed:
                tries += 1
            else:
                tries = 0
                turn = (turn + 1) % len(colours)
            continue
        made += 1
        tries = 0
        src_text, dst_text = choice.rstrip("x").split("-")
        src: Token = int(src_text) if src_text.isdigit() else src_text
        dst: Token = int(dst_text) if dst_text.isdigit() else dst_text
        if choice.endswith("x"):
            for c in colours:
                if dst in pieces[c]:
                    pieces[c][pieces[c].index(dst)] = "home"
                    break
        own[own.index(src)] = dst
        if all(isinstance(t, str) and t.startswith("goal") for t in own):
            return colour, throws, made
        if die != 6:
            turn = (turn + 1) % len(colours)


def random_position(rng: random.Random, players: int) -> dict[str, list[Token]]:
    """Random legal-looking placement: one piece per track field, nobody finished."""
    colours = SEATING[players]
    while True:
        taken: set[int] = set()
        pieces: dict[str, list[Token]] = {}
        for c in colours:
            own: list[Token] = []
            goals = rng.sample(range(1, 5), rng.choice([0, 0, 1, 2, 3]))
            own.extend(f"goal{g}" for g in goals)
            while len(own) < 4:
                kind = rng.random()
                if kind < 0.35:
                    own.append("home")
                else:
                    field = rng.randrange(40)
                    if field not in taken:
                        taken.add(field)
                        own.append(field)
            pieces[c] = own
        if not any(all(isinstance(t, str) and t != "home" for t in p) for p in pieces.values()):
            return pieces
