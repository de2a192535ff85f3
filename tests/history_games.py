"""Games for the history tests: sessions played by seeded random bots, and whole games
played at an in-process table (the real Appliance, luma's dummy panel, a fake clock)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from controller.machine import Mode
from controller.session import Session
from controller.testing.rig import ApplianceRig
from rules.bots import make_bot


def played(
    game: str, preset: str, kinds: Sequence[str], seed: int, events: int | None = None
) -> Session:
    """A session played by random bots to its end (or for ``events`` rolls and moves)."""
    session = Session.start(game, preset, list(kinds), seed=seed, bot="random")
    bot = make_bot("random")
    while not session.state.is_terminal() and (events is None or len(session.history) < events):
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            session.play(bot.choose(session.state, random.Random(session.rng.getrandbits(32))))
    return session


def table_game(state_dir: Path, game: str, preset: str, seats: int, seed: int) -> ApplianceRig:
    """Play one whole bot game at an in-process table with ``state_dir``; returns the
    appliance, closed, after the frames that follow the game's end. The harness is built
    here, not taken from the ``appliance_rig`` fixture: a module-scoped fixture plays
    these games once for many tests."""
    rig = ApplianceRig(state_dir, seats=("bot",) * seats, buttons=False)
    rig.table.options.frame_interval_s = 0.5  # fewer animation frames: same game
    session = Session.start(game, preset, ["bot"] * seats, seed=seed, bot="random")
    rig.app.start(new_game=session)
    try:
        for _ in range(1_000_000):
            rig.advance()
            if rig.table.state is Mode.GAME_OVER and not rig.table.outbox.records_waiting():
                break
        else:
            raise AssertionError("the bots did not finish the game")
        rig.advance()
    finally:
        rig.close()
    return rig
