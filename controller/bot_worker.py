"""Bots think on a worker thread so the loop stays responsive while they search.

A strong bot may take a good part of a second; on the loop thread that would freeze
animations and delay other seats' presses. The worker computes and posts a
:class:`~controller.events.BotMoveEvent`; the loop ignores answers to requests that are
no longer current. States are immutable, so sharing one with the worker is safe.
"""

from __future__ import annotations

import logging
import os
import queue
import random
import threading
import time
from collections.abc import Callable

from controller.collector import collector_paused
from controller.events import BotMoveEvent, BotRequest, EventQueue
from rules.bots import BOT_KINDS, make_bot
from rules.budget import Budget
from rules.core import Move, State

log = logging.getLogger(__name__)


def think(state: State, kind: str, seed: int, budget: Budget | None = None) -> Move:
    """The one way a bot (or the hint) chooses: the configured kind if it exists, else
    the random bot, seeded by the table; a bot that fails falls back to the random
    one (a bot bug must not kill the appliance)."""
    try:
        bot = make_bot(kind if kind in BOT_KINDS else "random", budget)
        return bot.choose(state, random.Random(seed))
    except Exception:
        log.exception("bot %s failed; falling back to the random bot", kind)
        return make_bot("random").choose(state, random.Random(seed))


class AnswerHere:
    """Bots that think on the caller's thread and answer at once: a table without a
    worker (tests on a fake clock, the timelines). The same :func:`think` as the
    worker, and the answer goes the same way in, to the table's ``bot_arrived``."""

    def __init__(self, deliver: Callable[[BotRequest, Move], None]) -> None:
        self.deliver = deliver

    def request(self, state: State, kind: str, request: BotRequest, seed: int) -> None:
        self.deliver(request, think(state, kind, seed))


Thinker = Callable[[State, str, int, Budget | None], Move]
"""How the worker decides: :func:`think`, or a stand-in in tests."""


BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")


def one_thread_for_numpy() -> None:
    """Ask numpy's matrix library (OpenBLAS) for one thread, unless the environment
    says otherwise; it reads this once, when the Backgammon bot's fast path first
    imports numpy (rules.backgammon.batch), which happens after this. Why: its matrix
    products are small (a few hundred positions), and OpenBLAS's threads spin while they
    wait; measured on two cores, a product cost seven times the CPU with them and no less
    time, CPU the table's loop and the other seats need."""
    for name in BLAS_THREADS:
        os.environ.setdefault(name, "1")


class BotWorker:
    def __init__(self, events: EventQueue, seconds: float = 0.5, thinker: Thinker = think) -> None:
        self.events = events
        self.thinker = thinker
        # The rules never read a clock; the controller lends them one for the budget.
        one_thread_for_numpy()
        self.budget = Budget(seconds=seconds, clock=time.monotonic)
        self.jobs: queue.Queue[tuple[State, str, BotRequest, int] | None] = queue.Queue()
        self.thread = threading.Thread(target=self.run, name="bot-worker", daemon=True)
        self.thread.start()

    def request(self, state: State, kind: str, request: BotRequest, seed: int) -> None:
        self.jobs.put((state, kind, request, seed))

    def run(self) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                return
            state, kind, request, seed = job
            # the budget is the search's; a garbage collection waits until it is over
            # (controller.collector)
            with collector_paused():
                move = self.thinker(state, kind, seed, self.budget)
            self.events.put(BotMoveEvent(request, move))

    def close(self, timeout: float = 2.0) -> None:
        """Stop after the current job; wait at most ``timeout`` s (the thread is a
        daemon, so a bot still searching never holds up a SIGTERM exit)."""
        self.jobs.put(None)
        self.thread.join(timeout=timeout)
