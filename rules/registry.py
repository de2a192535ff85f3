"""The registry: game name + preset name -> game object.

Games register themselves on import of :mod:`rules`; presets are frozen rule sets of one
engine ("presets, not forks"), so adding a variant is one entry here, not a new module.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.core import Game, State
from rules.errors import InvalidStateError, UnknownGameError

_FACTORIES: dict[str, dict[str, Callable[[], Game]]] = {}
_DEFAULT_PRESET: dict[str, str] = {}
_CACHE: dict[tuple[str, str], Game] = {}


def register(name: str, preset: str, factory: Callable[[], Game], default: bool = False) -> None:
    """Add a preset of a game; the first preset registered is the default unless told."""
    _FACTORIES.setdefault(name, {})[preset] = factory
    if default or name not in _DEFAULT_PRESET:
        _DEFAULT_PRESET[name] = preset


def game_names() -> list[str]:
    return sorted(_FACTORIES)


def presets(name: str) -> list[str]:
    if name not in _FACTORIES:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(game_names())}")
    return list(_FACTORIES[name])


def default_preset(name: str) -> str:
    presets(name)
    return _DEFAULT_PRESET[name]


def get_game(name: str, preset: str | None = None) -> Game:
    """The game object for ``name``/``preset`` (cached: games are immutable)."""
    known = presets(name)
    chosen = preset or _DEFAULT_PRESET[name]
    if chosen not in known:
        raise UnknownGameError(
            f"unknown preset {chosen!r} for {name}; known presets: {', '.join(known)}"
        )
    key = (name, chosen)
    if key not in _CACHE:
        _CACHE[key] = _FACTORIES[name][chosen]()
    return _CACHE[key]


def state_from_json(data: Mapping[str, Any]) -> State:
    """Parse any game's state: the ``game`` and ``preset`` keys pick the engine."""
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"a state must be a JSON object, got {type(data).__name__}")
    name = data.get("game")
    if not isinstance(name, str):
        raise InvalidStateError('a state needs a "game" key naming the game')
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise InvalidStateError('"preset" must be a string')
    return get_game(name, preset).state_from_json(data)
