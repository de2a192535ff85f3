"""Game over offers an analysis: NEXT starts it, then steps through its replay.

Why a thread: an analysis judges every decision of the game one roll deeper than the
bot plays (a few seconds on a laptop, more on a Pi), and the loop must keep answering
the buttons meanwhile (the system button's shutdown hold above all). The thread reads
only its own copy of the game's events and hands back a finished list of frames; the
loop polls for it with the table's ordinary scheduled action.

The replay is the game's own (its presentation's ``analysis_frames``, each a position
with a move drawn as the preview and its words); after the last frame NEXT shows the
result again, and the next NEXT starts the replay over. OK leaves for the menu, as at
every game over.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import rules
from controller.games import presentation
from controller.games.presentation import AnalysisFrame
from controller.i18n import _
from controller.replay import replay_event
from controller.session import Session
from controller.table.clock import TableTime
from rules.playout import PlayStep

log = logging.getLogger(__name__)

POLL_S = 0.25
"""How often the loop looks whether the analysis has finished."""


def available(session: Session | None) -> bool:
    """Whether game over can offer an analysis of this session's game."""
    if session is None or not session.state.is_terminal():
        return False
    game = session.game
    return (
        rules.capabilities(game).record_analysis is not None
        and presentation(game).analysis_frames is not None
    )


def replayed(
    game: str, preset: str, players: int, history: Sequence[dict[str, Any]]
) -> list[PlayStep]:
    """The session's events played again from the preset's start (as its record is)."""
    state = rules.get_game(game, preset).new_state(players)
    steps: list[PlayStep] = []
    for entry in history:
        steps.append(replay_event(state, entry))
        state = steps[-1].after
    return steps


class AnalysedTable(Protocol):
    """What the analysis reads and calls of the table (which imports this module)."""

    session: Session | None
    analysis: AnalysisRun | None
    since: float
    dirty: bool
    time: TableTime

    def require_session(self) -> Session: ...
    def schedule(self, delay: float, action: Callable[[], object], paced: bool = True) -> None: ...


class AnalysisRun:
    """One game's analysis on its own thread, then the position of its replay."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.frames: Sequence[AnalysisFrame] | None = None
        self.failed: str | None = None
        self.index = -1
        """The frame shown (-1: the game's result, as before the analysis)."""
        players = len(session.seats)
        job = (session.game, session.preset, players, [dict(e) for e in session.history])
        self.thread = threading.Thread(target=self.run, args=job, name="analysis", daemon=True)
        self.thread.start()

    def run(self, game: str, preset: str, players: int, history: list[dict[str, Any]]) -> None:
        try:
            analyse = rules.capabilities(game).record_analysis
            frames_of = presentation(game).analysis_frames
            assert analyse is not None and frames_of is not None
            frames = list(frames_of(analyse(replayed(game, preset, players, history))))
        except Exception:  # an analysis bug must not take the table down
            log.exception("the analysis of the %s game failed", game)
            self.failed = _("no analysis of this game")
            return
        if not frames:
            self.failed = _("no costly decisions to show")
        self.frames = frames
        self.index = 0

    @property
    def done(self) -> bool:
        return self.frames is not None or self.failed is not None

    def frame(self) -> AnalysisFrame | None:
        if self.frames and 0 <= self.index < len(self.frames):
            return self.frames[self.index]
        return None

    def banner(self) -> str | None:
        """What the panel says over the result while there is no frame to show."""
        if not self.done:
            return _("analysing…")
        return self.failed


def next_press(table: AnalysedTable) -> None:
    """NEXT at game over: start the analysis, or show its next frame."""
    run = current(table)
    if run is None:
        if not available(table.session):
            return
        table.analysis = AnalysisRun(table.require_session())
        table.schedule(POLL_S, lambda: poll(table), paced=False)
    elif run.done and run.frames:
        # frames, then the result once more (-1), then the frames again
        run.index = run.index + 1 if run.index + 1 < len(run.frames) else -1
    table.since = table.time.now
    table.dirty = True


def current(table: AnalysedTable) -> AnalysisRun | None:
    """The analysis of the game now at the table (one of an earlier game is dropped)."""
    run = table.analysis
    return run if run is not None and run.session is table.session else None


def poll(table: AnalysedTable) -> None:
    run = current(table)
    if run is None:
        return
    if not run.done:
        table.schedule(POLL_S, lambda: poll(table), paced=False)
        return
    table.since = table.time.now
    table.dirty = True


def offer_banner(session: Session | None, run: AnalysisRun | None) -> str | None:
    """Game over's words about the analysis: the offer, or how it is going."""
    if run is not None and run.session is session:
        return run.banner()
    if available(session):
        return _("NEXT: analyse, OK: menu")
    return None
