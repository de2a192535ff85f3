"""Mutated ``--jsonl`` lines for the fuzz test of ``spieltisch rules``: seeded, so a
failure is reproduced by its seed and line number.

Each line starts from a real position of the game (a seeded random playout) and is
broken in one way: nested deep, a value replaced by one of the wrong type, a number
made huge or not finite, bytes that are not UTF-8, a key dropped or renamed, a few
characters cut or flipped, or the whole line blown up to 10 MB.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import rules
from rules.bots import make_bot
from rules.playout import steps

WRONG: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    -1,
    7,
    1.5,
    "",
    "x",
    "red",
    "white",
    "🎲",
    [],
    [[]],
    [None],
    ["red"],
    {},
    {"a": 1},
    {"kind": []},
    {"winner": "white", "points": 1, "kind": []},
    {"winner": [], "points": {}, "kind": {}},
    2**64,
    -(2**63),
    10**400,
    1e308,
)
HUGE_NUMBERS = ("1" + "0" * 4000, "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1e-400")
TEN_MB = 10 * 1024 * 1024


def positions(game_name: str, count: int, rng: random.Random) -> list[dict[str, Any]]:
    """``count`` lines a well-behaved client sends: states from random playouts (each
    decision with its dice), and states waiting for a roll with the roll given."""
    found: list[dict[str, Any]] = []
    presets = rules.presets(game_name)
    while len(found) < count:
        game = rules.get_game(game_name, presets[len(found) % len(presets)])
        start = game.new_state(None)
        bots = dict.fromkeys(start.to_json()["players"], make_bot("random"))
        for step in steps(start, bots, rng, max_steps=rng.choice((60, 400, 4000))):
            if step.dice is not None and rng.random() < 0.3:
                found.append({"state": step.before.to_json(), "dice": list(step.dice)})
            elif step.dice is None and rng.random() < 0.1:
                found.append({"state": step.before.to_json()})
            if len(found) >= count:
                break
    return found


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _replace(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: _replace(node[head], rest, value)}
    copy = list(node)
    copy[head] = _replace(node[head], rest, value)
    return copy


def _dump(item: Any) -> str:
    return json.dumps(item, ensure_ascii=False)


def _wrong_type(item: Any, rng: random.Random) -> bytes:
    """A value of the wrong type in place of one, or as a new entry of a list (an
    empty list, like a single game's "games", has no entry to replace)."""
    lists = [p for p in _paths(item) if isinstance(_at(item, p), list)]
    if lists and rng.random() < 0.3:
        path = rng.choice(lists)
        return _dump(_replace(item, path, [*_at(item, path), rng.choice(WRONG)])).encode()
    path = rng.choice(list(_paths(item)))
    return _dump(_replace(item, path, rng.choice(WRONG))).encode()


def _huge_number(item: Any, rng: random.Random) -> bytes:
    marker = "__HUGE__"
    numbers = [p for p in _paths(item) if _at(item, p).__class__ is int]
    path = rng.choice(numbers) if numbers else ("dice",)
    text = _dump(_replace(item, path, marker))
    return text.replace(f'"{marker}"', rng.choice(HUGE_NUMBERS)).encode()


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        node = node[key]
    return node


def _deep(item: Any, rng: random.Random) -> bytes:
    depth = rng.choice((1000, 3000, 20_000, 200_000))
    opener, closer = rng.choice((("[", "]"), ('{"a":', "}")))
    inner = opener * depth + "1" + closer * depth
    if rng.random() < 0.5:
        return inner.encode()
    path = rng.choice(list(_paths(item))[1:] or [("state",)])
    return _dump(_replace(item, path, "__DEEP__")).replace('"__DEEP__"', inner).encode()


def _not_utf8(item: Any, rng: random.Random) -> bytes:
    data = bytearray(_dump(item).encode())
    for _ in range(rng.randint(1, 3)):
        bad = rng.choice((b"\xff", b"\xfe", b"\xc3", b"\xed\xa0\x80", b"\x80\x80", b"\xf4\x90"))
        spot = rng.randrange(len(data) + 1)
        data[spot:spot] = bad
    return bytes(data)


def _keys(item: Any, rng: random.Random) -> bytes:
    tables = [p for p in _paths(item) if isinstance(_at(item, p), dict) and _at(item, p)]
    path = rng.choice(tables)
    table = dict(_at(item, path))
    key = rng.choice(list(table))
    choice = rng.random()
    if choice < 0.5:
        del table[key]
    elif choice < 0.8:
        table[key + "x"] = table.pop(key)
    else:
        table[rng.choice(("game", "preset", "turn", "phase", "kind", "zz"))] = rng.choice(WRONG)
    return _dump(_replace(item, path, table)).encode()


def _characters(item: Any, rng: random.Random) -> bytes:
    text = list(_dump(item))
    for _ in range(rng.randint(1, 4)):
        spot = rng.randrange(len(text))
        action = rng.random()
        if action < 0.4:
            del text[spot]
        elif action < 0.7:
            text.insert(spot, rng.choice('[]{}",:0-9e.\\ntf'))
        else:
            text[spot] = rng.choice('[]{}",:019e-')
    return "".join(text).encode()


def _ten_mb(item: Any, rng: random.Random) -> bytes:
    kind = rng.randrange(3)
    if kind == 0:
        return _dump({**item, "state": "x" * TEN_MB}).encode()
    if kind == 1:
        return ('{"state": 1, "dice": [' + "1," * (TEN_MB // 2) + "1]}").encode()
    return b"[" * TEN_MB


MUTATIONS: tuple[tuple[float, Callable[[Any, random.Random], bytes]], ...] = (
    (0.22, _wrong_type),
    (0.14, _huge_number),
    (0.08, _deep),
    (0.10, _not_utf8),
    (0.18, _keys),
    (0.18, _characters),
)


def mutated_lines(game_name: str, count: int, seed: int, ten_mb_lines: int = 2) -> list[bytes]:
    """``count`` lines (newline-free) for ``game_name``: about a tenth left intact,
    ``ten_mb_lines`` of 10 MB, the rest broken by one mutation each."""
    rng = random.Random(seed)
    bases = positions(game_name, 60, rng)
    lines: list[bytes] = [_ten_mb(rng.choice(bases), rng) for _ in range(ten_mb_lines)]
    weights = [w for w, _ in MUTATIONS]
    while len(lines) < count:
        item = rng.choice(bases)
        if rng.random() < 0.1:
            lines.append(_dump(item).encode())
            continue
        (mutate,) = rng.choices([m for _, m in MUTATIONS], weights)
        lines.append(mutate(item, rng).replace(b"\n", b" "))
    rng.shuffle(lines)
    return lines


NASTIEST: tuple[bytes, ...] = (
    b"[" * 100_000 + b"]" * 100_000,
    b'{"state": ' + b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"}",
    b"\xff\xfe not text",
    b'{"state": {"game": "backgammon", "games": [{"winner": "white", "points": 1, "kind": []}]}}',
    b'{"state": 1, "dice": [' + b"1" + b"0" * 4000 + b"]}",
    b'{"state": "' + b"x" * TEN_MB + b'"}',
    b'{"state": {}, "dice": NaN}',
    b'{"position_id": ["4HPwATDgc/ABMA"]}',
)
"""The lines that broke the stream before, for one real ``--jsonl`` process."""
