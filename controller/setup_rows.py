"""The rule rows of setup: one per option a game declares, else one that cycles presets.

Why: a game whose rules are independent options (Backgammon: the match length or
money play, Jacoby, beavers, automatic doubles, Crawford) is set option by option, each
row shown in words; a game with a few presets keeps the single "rules" row that steps
through them. Either way the choice is a preset name, which is what the session, the
save and the history carry.

Rows come before the seats: the setup cursor is negative on them (``-len(rows)`` the
first), as Python's negative indices into the rows. A row's OK switches to the preset it
names; when that changes which rows there are (money play has more than a match), the
cursor stays on the row it was on.
"""

from __future__ import annotations

from collections.abc import Sequence

import rules
from controller.games import presentation, preset_name
from controller.games.presentation import SetupRow


def rows(game: str, preset: str) -> Sequence[SetupRow]:
    """The rule rows of ``game`` set to ``preset`` (none for a game of one preset)."""
    declared = presentation(game).setup_rows
    if declared is not None:
        return declared(preset)
    presets = rules.presets(game)
    if len(presets) <= 1:
        return ()
    index = presets.index(preset) if preset in presets else -1
    return (SetupRow("rules", preset_name(game, preset), presets[(index + 1) % len(presets)]),)


def chosen(game: str, preset: str, cursor: int) -> tuple[str, int]:
    """OK on the row at ``cursor`` (negative): the new preset and the row's new cursor."""
    now = rows(game, preset)
    row = now[cursor]
    after = rows(game, row.next_preset)
    keys = [r.key for r in after]
    place = keys.index(row.key) if row.key in keys else 0
    return row.next_preset, place - len(after)


def words(game: str, preset: str, cursor: int) -> str | None:
    """What setup says of the rules: the row under the cursor, else the whole rule set
    (None for a game of one preset)."""
    now = rows(game, preset)
    if not now:
        return None
    if cursor < 0:
        return now[cursor].words
    return preset_name(game, preset)
