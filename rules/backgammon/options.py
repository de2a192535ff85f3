"""Backgammon's rule sets composed from independent options, by name.

Why names: a preset is what a state's JSON, a save and a history record carry
(``"preset": "money-jacoby-beavers"``), so every combination of options must be a
preset name that reads back into the same rules. The family declares its options here,
each with its values; any combination is a preset:

* the game: ``single`` (no cube), ``money`` (the cube), ``match1`` … ``match11``
  (:data:`MATCH_LENGTHS`);
* money play: ``-jacoby`` (the Jacoby rule), ``-beavers``, ``-autoN`` (automatic doubles,
  at most N, 1 to :data:`MAX_AUTOMATIC`);
* a match: ``-nocrawford`` (no Crawford rule; it is on by default).

The name lists the options in that order. ``money-automatic`` (Jacoby and two automatic
doubles) and ``money-all`` (every money option, two automatic doubles) are kept as the
names of those two combinations.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from rules.backgammon.engine import (
    MATCH_LENGTHS,
    MONEY,
    MONEY_ALL,
    MONEY_AUTOMATIC,
    SINGLE_GAME,
    BackgammonGame,
    BackgammonRules,
    backgammon_game,
)

MAX_AUTOMATIC = 3
"""The most automatic doubles a rule set may have (the cube starts at most at 8)."""

BASES: tuple[str, ...] = ("single", "money", *(f"match{n}" for n in MATCH_LENGTHS))
"""The games, in the order setup steps through them."""

ALIASES: dict[str, BackgammonRules] = {
    "money-automatic": MONEY_AUTOMATIC,
    "money-all": MONEY_ALL,
}


@dataclass(frozen=True)
class Options:
    """The independent options of a rule set."""

    base: str = "single"
    jacoby: bool = False
    beavers: bool = False
    automatic: int = 0
    crawford: bool = True

    @property
    def money(self) -> bool:
        return self.base == "money"

    @property
    def match_length(self) -> int:
        return int(self.base[5:]) if self.base.startswith("match") else 0


def name_of(options: Options) -> str:
    """The canonical preset name of ``options`` (module docstring)."""
    parts = [options.base]
    if options.money:
        parts += ["jacoby"] * options.jacoby + ["beavers"] * options.beavers
        if options.automatic:
            parts.append(f"auto{options.automatic}")
    elif options.match_length and not options.crawford:
        parts.append("nocrawford")
    return "-".join(parts)


def options_of(name: str) -> Options | None:
    """The options a preset name spells, or None if it spells none."""
    if name in ALIASES:
        r = ALIASES[name]
        return Options("money", r.jacoby, r.beavers, r.automatic)
    base, *rest = name.split("-")
    if base not in BASES:
        return None
    found = Options(base)
    for part in rest:
        if found.money and part == "jacoby" and not found.jacoby and not found.beavers:
            found = replace(found, jacoby=True)
        elif found.money and part == "beavers" and not found.beavers and not found.automatic:
            found = replace(found, beavers=True)
        elif found.money and part[:4] == "auto" and not found.automatic and part[4:].isdigit():
            count = int(part[4:])
            if not 1 <= count <= MAX_AUTOMATIC:
                return None
            found = replace(found, automatic=count)
        elif found.match_length and part == "nocrawford" and found.crawford:
            found = replace(found, crawford=False)
        else:
            return None
    return found


def rules_of(name: str, options: Options) -> BackgammonRules:
    if name in ALIASES:
        return ALIASES[name]
    if options.base == "single":
        return SINGLE_GAME
    if options.money:
        return replace(
            MONEY,
            name=name,
            jacoby=options.jacoby,
            beavers=options.beavers,
            automatic=options.automatic,
        )
    return BackgammonRules(
        name, cube=True, match_length=options.match_length, crawford=options.crawford
    )


class Presets(Mapping[str, "PresetFactory"]):
    """Every preset name that spells a rule set; iterating gives the ``listed`` ones
    (the menus' and ``rules games``' list), looking up takes any combination."""

    def __init__(self, listed: tuple[str, ...]) -> None:
        self.listed = listed

    def __getitem__(self, name: str) -> PresetFactory:
        if not isinstance(name, str):
            raise KeyError(name)
        options = options_of(name)
        if options is None:
            raise KeyError(name)
        return PresetFactory(rules_of(name, options))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and options_of(name) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.listed)

    def __len__(self) -> int:
        return len(self.listed)


@dataclass(frozen=True)
class PresetFactory:
    """Makes the game of one rule set (the registry calls it once and caches the game)."""

    rules: BackgammonRules

    def __call__(self) -> BackgammonGame:
        return backgammon_game(self.rules)
