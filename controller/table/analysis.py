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
from typing import Any

import rules
from controller.games import presentation
from controller.games.presentation import AnalysisFrame
from controller.i18n import _
from controller.replay import replay_event
from controller.session import Session
from controller.table.then import NOTHING, Later, Then
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

    def next_frame(self) -> None:
        """NEXT: the frames, then the result once more (-1), then the frames again."""
        if self.done and self.frames:
            self.index = self.index + 1 if self.index + 1 < len(self.frames) else -1

    def banner(self) -> str | None:
        """What the panel says over the result while there is no frame to show."""
        if not self.done:
            return _("analysing…")
        return self.failed


def next_press(
    run: AnalysisRun | None, session: Session | None, poll_again: Callable[[], object]
) -> tuple[AnalysisRun | None, Then]:
    """NEXT at game over, with ``run`` the analysis of the game at the table (None:
    none yet): start one (returned, with ``poll_again`` scheduled), or show its next
    frame."""
    if run is None:
        if session is None or not available(session):
            return None, NOTHING
        started = AnalysisRun(session)
        return started, Then(since=True, redraw=True, later=Later(POLL_S, poll_again, False))
    run.next_frame()
    return run, Then(since=True, redraw=True)


def current(run: AnalysisRun | None, session: Session | None) -> AnalysisRun | None:
    """The analysis of the game now at the table (one of an earlier game is dropped)."""
    return run if run is not None and run.session is session else None


def poll(run: AnalysisRun | None, poll_again: Callable[[], object]) -> Then:
    """Whether the analysis of the game at the table (``run``) has finished: drawn
    once it has, else looked at again later."""
    if run is None:
        return NOTHING
    if not run.done:
        return Then(later=Later(POLL_S, poll_again, False))
    return Then(since=True, redraw=True)


def offer_banner(session: Session | None, run: AnalysisRun | None) -> str | None:
    """Game over's words about the analysis: the offer, or how it is going."""
    if run is not None and run.session is session:
        return run.banner()
    if available(session):
        return _("NEXT: analyse, OK: menu")
    return None
