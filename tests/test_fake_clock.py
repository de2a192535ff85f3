"""The one fake clock of the tests and benchmarks (controller/testing/clock.py) behaves as
a monotonic clock that moves only when told."""

from __future__ import annotations

import pytest

from controller.testing.clock import FakeClock


def test_it_reads_the_same_until_moved(fake_clock: FakeClock) -> None:
    assert fake_clock() == fake_clock() == fake_clock.now
    start = fake_clock()
    fake_clock.advance(0.25)
    assert fake_clock() == start + 0.25


def test_a_deadline_in_the_past_or_none_leaves_it_where_it_is(fake_clock: FakeClock) -> None:
    start = fake_clock()
    fake_clock.advance_to(start + 2.0)
    assert fake_clock() == start + 2.0
    fake_clock.advance_to(start + 1.0)
    fake_clock.advance_to(None)
    assert fake_clock() == start + 2.0


def test_it_never_runs_backwards(fake_clock: FakeClock) -> None:
    start = fake_clock()
    fake_clock.now = start + 1.0
    with pytest.raises(ValueError, match="cannot go back"):
        fake_clock.now = start
    with pytest.raises(ValueError, match="cannot go back"):
        fake_clock.advance(-0.1)
    assert fake_clock() == start + 1.0


def test_it_starts_away_from_zero_or_where_asked() -> None:
    assert FakeClock()() >= 1000.0
    assert FakeClock(50.0)() == 50.0
