"""The collector waits while a bot decides (controller.collector), and the bot worker
decides inside such a pause."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Iterator

import pytest

from controller.collector import collector_paused
from rules.budget import Budget
from rules.core import Move, State


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    """Every test starts with the collector on, and leaves it as it found it."""
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


class Node:
    """A reference cycle: only the collector frees it."""

    def __init__(self) -> None:
        self.me = self


def collections_during(work: object) -> list[int]:
    """The generations of the automatic collections while ``work()`` runs."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        work()  # type: ignore[operator]
    finally:
        gc.callbacks.remove(note)
    return seen


def make_garbage(count: int = 50_000) -> weakref.ref[Node]:
    """``count`` unreachable cycles, far past the first generation's threshold; a weak
    reference to the first of them."""
    first = Node()
    probe = weakref.ref(first)
    del first
    for _ in range(count):
        Node()
    return probe


def test_no_collection_runs_inside_a_pause_and_the_garbage_goes_afterwards() -> None:
    probes: list[weakref.ref[Node]] = []
    inside: list[list[int]] = []

    def paused() -> None:
        with collector_paused():
            assert not gc.isenabled()
            # only the collections of the block itself: once it ends, the very next
            # allocation may start the collection that waited
            inside.append(collections_during(lambda: probes.append(make_garbage())))
            assert probes[0]() is not None  # still there: nothing collected it

    paused()
    assert inside == [[]]
    assert gc.isenabled()
    assert collections_during(make_garbage)  # the thresholds were crossed long ago
    assert probes[0]() is None


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_nested_pauses_end_with_the_outermost() -> None:
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_overlapping_pauses_on_two_threads_end_with_the_last() -> None:
    """Two threads that decide at once: the collector is the process's, so it stays
    paused until the second of them is done, whichever began first."""
    inside = threading.Event()
    leave = threading.Event()
    left = threading.Event()

    def other_thread() -> None:
        with collector_paused():
            inside.set()
            leave.wait(10)
        left.set()

    thread = threading.Thread(target=other_thread)
    with collector_paused():
        thread.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other thread's pause is still open
    leave.set()
    assert left.wait(10)
    thread.join(10)
    assert gc.isenabled()


def test_an_error_inside_a_pause_still_ends_it() -> None:
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError("a bot failed")
    assert gc.isenabled()


def test_the_bot_worker_decides_with_the_collector_paused() -> None:
    from controller.bot_worker import BotWorker
    from controller.events import BotMoveEvent, EventQueue, HintRequest
    from controller.session import Session

    state = Session.start("minimaki", "standard", ["human"], seed=3).state
    seen: list[tuple[bool, float | None]] = []

    def thinker(state: State, kind: str, seed: int, budget: Budget | None) -> Move:
        seen.append((gc.isenabled(), None if budget is None else budget.seconds))
        return state.legal_moves()[0]

    events = EventQueue()
    worker = BotWorker(events, seconds=0.25, thinker=thinker)
    try:
        worker.request(state, "strong", HintRequest(1), 0)
        answer = events.get(timeout=60)
    finally:
        worker.close()
    assert isinstance(answer, BotMoveEvent) and answer.move == state.legal_moves()[0]
    assert seen == [(False, 0.25)]
    assert gc.isenabled()
