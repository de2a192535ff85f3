"""Backgammon's rules in setup, option by option, and any rule set in words.

The options are the family's (:mod:`rules.backgammon.options`): the game (one game
without the cube, money play, a match to 1, 3, 5, 7 or 11), then for money play the
Jacoby rule, beavers and automatic doubles (none, or up to 1, 2 or 3), for a match the
Crawford rule. OK on a row steps its value; changing the game keeps the other options
where they still apply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace

from controller.games.presentation import SetupRow
from controller.i18n import N_, _, pgettext
from rules.backgammon.options import BASES, MAX_AUTOMATIC, Options, name_of, options_of

LISTED = {
    "single": N_("one game"),
    "money": N_("with cube"),
    "money-jacoby": N_("with cube, Jacoby rule"),
    "money-automatic": N_("with cube, Jacoby, 2 automatic doubles"),
    "money-beavers": N_("with cube, beavers"),
    "money-all": N_("with cube, Jacoby, beavers, 2 automatic doubles"),
    **{f"match{n}": N_("match to {n}") for n in (1, 3, 5, 7, 11)},
}
"""The words of the presets ``rules games`` lists (as the panel has always said them),
marked for the catalog and translated when read."""


def _on(flag: bool) -> str:
    # "off" is also the bear-off point: a setting's "off" is its own word
    return pgettext("setting", "on") if flag else pgettext("setting", "off")


def base_words(base: str) -> str:
    if base == "single":
        return _("one game, no cube")
    if base == "money":
        return _("money, with cube")
    return _("match to {n}").format(n=base[5:])


def rule_words(options: Options) -> str:
    """A whole rule set in words, e.g. "with cube, Jacoby, beavers, 3 automatic doubles"."""
    if options.base == "single":
        return _("one game")
    if options.money:
        parts = [_("with cube")]
        if options.jacoby:
            parts.append(_("Jacoby"))
        if options.beavers:
            parts.append(_("beavers"))
        if options.automatic:
            parts.append(_("{n} automatic doubles").format(n=options.automatic))
        return ", ".join(parts)
    words = _("match to {n}").format(n=options.match_length)
    return words if options.crawford else words + ", " + _("no Crawford rule")


class PresetWords(Mapping[str, str]):
    """The words of every preset name, the listed ones and any composed one."""

    def __getitem__(self, name: str) -> str:
        if name in LISTED:
            return _(LISTED[name]).format(n=name.removeprefix("match"))
        options = options_of(name)
        if options is None:
            raise KeyError(name)
        return rule_words(options)

    def in_catalog(self, name: str, gettext: Callable[[str], str]) -> str:
        """A listed name through ``gettext`` (the companion page's language); a composed
        one in the table's words."""
        if name not in LISTED:
            return self[name]
        return gettext(LISTED[name]).format(n=name.removeprefix("match"))

    def __iter__(self) -> Iterator[str]:
        return iter(LISTED)

    def __len__(self) -> int:
        return len(LISTED)


def setup_rows(preset: str) -> tuple[SetupRow, ...]:
    """The rule rows for ``preset``: the game, then its options (module docstring)."""
    now = options_of(preset) or Options()
    following = BASES[(BASES.index(now.base) + 1) % len(BASES)]
    rows = [
        SetupRow(
            "game",
            base_words(now.base),
            name_of(replace(now, base=following)),
        )
    ]
    if now.money:
        rows.append(
            SetupRow(
                "jacoby",
                _("Jacoby rule: {value}").format(value=_on(now.jacoby)),
                name_of(replace(now, jacoby=not now.jacoby)),
            )
        )
        rows.append(
            SetupRow(
                "beavers",
                _("beavers: {value}").format(value=_on(now.beavers)),
                name_of(replace(now, beavers=not now.beavers)),
            )
        )
        count = now.automatic
        rows.append(
            SetupRow(
                "automatic",
                _("automatic doubles: {value}").format(
                    value=_("up to {n}").format(n=count) if count else _("none")
                ),
                name_of(replace(now, automatic=(count + 1) % (MAX_AUTOMATIC + 1))),
            )
        )
    elif now.match_length:
        rows.append(
            SetupRow(
                "crawford",
                _("Crawford rule: {value}").format(value=_on(now.crawford)),
                name_of(replace(now, crawford=not now.crawford)),
            )
        )
    return tuple(rows)
