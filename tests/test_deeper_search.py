"""When the bots search deeper, and that the deeper search keeps to its budget.

The rule (:func:`rules.budget.deeper_search_fits`): Backgammon's one-roll lookahead and
the deeper MÄDN expectimax run only under a budget with a real clock and with the
compiled rules; everywhere else the bots play exactly as before. The clocks here are
fakes that the test advances, so nothing depends on how fast this machine is; the
figures that justify the rule are measured by ``benchmarks/bots.py`` (docs/bots.md).
"""

from __future__ import annotations

import importlib.util
import random
from importlib.machinery import EXTENSION_SUFFIXES

import pytest

import rules
from rules import build_info
from rules.backgammon import engine
from rules.backgammon.bot import FULL_CANDIDATES, FULL_WINDOW, BackgammonBot
from rules.backgammon.engine import ROLL_OUTCOMES, BackgammonState, Play
from rules.bots import make_bot
from rules.budget import Budget, deeper_search_fits
from rules.track.bot import MAEDN_DEEPER_DEPTH, MAEDN_DEPTH, TrackBot, maedn_bot
from rules.track.kleiner_aerger_bot import KleinerAergerBot

needs_numpy = pytest.mark.skipif(
    importlib.util.find_spec("numpy") is None, reason="the fast path needs numpy (the fast extra)"
)

# White with 3-2 to play: the ranking hits with 24/22* and splits its back checkers,
# 24/21 (also pubeval's first choice, so a ranking cut after one play gives the same
# answer); one roll deeper, hitting and bringing a builder down instead (24/22* 13/10)
# is better. The lookahead re-scores it second, after the ranking's pick (found in
# seeded random games; the network decides which position shows this, so a new one may
# need another).
SPLIT_DECISION = "xOvgATDgc/ABMA:MIEJAAAAAAAE"
RANKED_BEST = "24/22* 24/21"
LOOKAHEAD_BEST = "24/22* 13/10"


class StoppedClock:
    """A clock that stands still until told to jump; counts how often it was read."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.now


class ExpiringClock:
    """A clock that reads 0 for its first ``good`` reads and a day later after that:
    the deadline passes at a chosen point of the search, whatever the machine."""

    def __init__(self, good: int) -> None:
        self.good = good
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return 0.0 if self.reads <= self.good else 86_400.0


def pretend(monkeypatch: pytest.MonkeyPatch, compiled: bool) -> None:
    """Make the engine look compiled or not, where :func:`build_info.is_compiled` looks:
    its module's file name. (Patching the function itself would not reach callers in a
    mypyc build, which call it directly; this way the tests hold for either build.)"""
    suffix = EXTENSION_SUFFIXES[0] if compiled else ".py"
    monkeypatch.setattr(engine, "__file__", f"/site/rules/backgammon/engine{suffix}")


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend(monkeypatch, True)


@pytest.fixture
def interpreted(monkeypatch: pytest.MonkeyPatch) -> None:
    pretend(monkeypatch, False)


def split_decision() -> BackgammonState:
    state = rules.get_game("backgammon", "money").state_from_position_id(SPLIT_DECISION)
    assert isinstance(state, BackgammonState)
    return state


# -- the rule -----------------------------------------------------------------------------


def test_deeper_search_needs_a_real_clock_and_the_compiled_rules() -> None:
    clock = StoppedClock()
    assert deeper_search_fits(Budget(clock=clock), compiled=True)
    assert not deeper_search_fits(Budget(clock=clock), compiled=False)
    # Without a clock the play is the seeded, reproducible one, whatever the build.
    assert not deeper_search_fits(Budget(), compiled=True)
    assert not deeper_search_fits(Budget(), compiled=False)
    assert clock.reads == 0  # deciding reads no clock


def test_the_rule_asks_the_build_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    for answer in (True, False):
        pretend(monkeypatch, answer)
        assert build_info.is_compiled() is answer
        assert deeper_search_fits(Budget(clock=StoppedClock())) is answer


def test_a_compiled_module_is_told_by_its_file_name() -> None:
    assert build_info.compiled_module("/x/rules/backgammon/engine" + EXTENSION_SUFFIXES[0])
    assert not build_info.compiled_module("/x/rules/backgammon/engine.py")
    assert not build_info.compiled_module(None)


# -- who follows it -----------------------------------------------------------------------


def test_backgammon_lookahead_follows_the_rule(compiled: None) -> None:
    assert BackgammonBot(Budget(clock=StoppedClock())).lookahead
    assert not BackgammonBot(Budget()).lookahead
    # An explicit choice wins over the rule.
    assert not BackgammonBot(Budget(clock=StoppedClock()), lookahead=False).lookahead
    assert BackgammonBot(Budget(), lookahead=True).lookahead


def test_backgammon_lookahead_stays_off_in_plain_python(interpreted: None) -> None:
    assert not BackgammonBot(Budget(clock=StoppedClock())).lookahead


def test_the_registered_strong_players_follow_the_rule(compiled: None) -> None:
    fast = make_bot("strong", Budget(clock=StoppedClock()))
    seeded = make_bot("strong")
    bg_fast, bg_seeded = fast.player_for("backgammon"), seeded.player_for("backgammon")
    assert isinstance(bg_fast, BackgammonBot) and isinstance(bg_seeded, BackgammonBot)
    assert bg_fast.lookahead and not bg_seeded.lookahead
    maedn_fast, maedn_seeded = fast.player_for("maedn"), seeded.player_for("maedn")
    assert isinstance(maedn_fast, TrackBot) and isinstance(maedn_seeded, TrackBot)
    assert (maedn_fast.depth, maedn_fast.follow_opponents) == (MAEDN_DEEPER_DEPTH, True)
    assert (maedn_seeded.depth, maedn_seeded.follow_opponents) == (MAEDN_DEPTH, False)


def test_maedn_searches_as_before_in_plain_python(interpreted: None) -> None:
    bot = maedn_bot(Budget(clock=StoppedClock()))
    assert (bot.depth, bot.follow_opponents) == (MAEDN_DEPTH, False)
    forced = maedn_bot(Budget(), deeper=True)
    assert (forced.depth, forced.follow_opponents) == (MAEDN_DEEPER_DEPTH, True)


def test_kleiner_aerger_keeps_its_search_under_either_build(compiled: None) -> None:
    """Deeper measured no better for Kleiner Ärger (docs/bots.md): the rule leaves it."""
    fast = KleinerAergerBot(Budget(clock=StoppedClock()))
    assert fast.fallback.depth == KleinerAergerBot(Budget()).fallback.depth


# -- the lookahead keeps to its budget ----------------------------------------------------


def test_lookahead_changes_the_play_when_it_has_time() -> None:
    state = split_decision()
    ranked = BackgammonBot(Budget(clock=StoppedClock()), lookahead=False)
    deep = BackgammonBot(Budget(clock=StoppedClock()), lookahead=True)
    assert ranked.choose(state, random.Random(0)).notation == RANKED_BEST
    assert deep.choose(state, random.Random(0)).notation == LOOKAHEAD_BEST


@pytest.mark.parametrize("good_reads", [1, 2])
def test_time_running_out_in_the_lookahead_falls_back_to_the_ranking(good_reads: int) -> None:
    """The deadline passes before the lookahead has re-scored the candidate that would
    change the play: the network's ranking stands. Read 1 fixes the deadline, read 2 is
    the ranking's first check, read 3 comes before the first candidate's first roll."""
    clock = ExpiringClock(good_reads)
    bot = BackgammonBot(Budget(clock=clock), lookahead=True)
    assert bot.choose(split_decision(), random.Random(0)).notation == RANKED_BEST
    assert clock.reads > good_reads  # the deadline was really reached


def test_a_deadline_after_the_deciding_candidate_keeps_its_answer() -> None:
    """Cut short in the last candidate, the lookahead still plays the best of those it
    re-scored completely, which here already include the one that changes the play."""
    whole = ExpiringClock(10_000)
    bot = BackgammonBot(Budget(clock=whole), lookahead=True)
    assert bot.choose(split_decision(), random.Random(0)).notation == LOOKAHEAD_BEST
    cut = ExpiringClock(whole.reads - 2)
    bot = BackgammonBot(Budget(clock=cut), lookahead=True)
    assert bot.choose(split_decision(), random.Random(0)).notation == LOOKAHEAD_BEST
    assert cut.reads < whole.reads  # it did stop early


def test_the_lookahead_reads_the_clock_before_every_roll() -> None:
    """Between two of the opponent's rolls the lookahead may score ten replies and
    generate the hundreds of replies to a double: 64 such steps between two readings
    (``Meter.spent``) had taken a decision 28 ms past its 83. So it reads the clock
    itself once per roll (``Meter.next_step_fits``): 21 readings per candidate at least."""
    clock = StoppedClock()
    bot = BackgammonBot(Budget(clock=clock), lookahead=True, full=False)
    assert bot.choose(split_decision(), random.Random(0)).notation == LOOKAHEAD_BEST
    assert clock.reads >= 1 + bot.candidates * len(ROLL_OUTCOMES)


@needs_numpy
def test_the_full_search_reads_the_clock_before_every_roll_and_before_scoring() -> None:
    """The full one-roll search generates the replies of all 21 rolls, reading the clock
    before each, and reads it once more before it scores them all in one batch."""
    clock = StoppedClock()
    bot = BackgammonBot(Budget(clock=clock), lookahead=True, full=True)
    assert bot.full
    state = split_decision()
    assert bot.choose(state, random.Random(0)).notation == LOOKAHEAD_BEST
    values = sorted(
        (bot.value(m.mover, m.other) for m in state.legal_moves() if isinstance(m, Play)),
        reverse=True,
    )
    searched = [v for v in values[:FULL_CANDIDATES] if v >= values[0] - FULL_WINDOW]
    assert len(searched) > 1
    assert clock.reads >= 1 + len(searched) * (len(ROLL_OUTCOMES) + 1)


def test_spent_now_reads_the_clock_at_once_and_spent_every_64th_check() -> None:
    clock = StoppedClock()
    meter = Budget(clock=clock, seconds=1.0).start()
    assert clock.reads == 1  # the deadline
    assert not any(meter.spent() for _ in range(64))
    assert clock.reads == 2  # the first check of the 64
    assert not meter.spent_now() and not meter.spent_now()
    assert clock.reads == 4
    clock.now = 1.0  # the deadline
    assert meter.spent_now() and meter.spent()
    assert clock.reads == 5  # once expired, the meter remembers
    nodes = Budget(nodes=2).start()  # no clock: the node count alone
    nodes.charge(2)
    assert nodes.spent_now() and nodes.spent()


def test_no_step_begins_that_the_costliest_so_far_says_would_end_past_the_deadline() -> None:
    """The lookahead's steps (one opponent roll each) cost milliseconds; asking only
    whether time is left had let the last one run 7 ms past an 83 ms budget."""
    clock = StoppedClock()
    meter = Budget(clock=clock, seconds=10.0).start()
    assert meter.next_step_fits()  # at 0: nothing timed yet
    clock.now = 3.0
    assert meter.next_step_fits()  # a step of 3; 7 left
    clock.now = 4.0
    assert meter.next_step_fits()  # a step of 1; the costliest is still 3, 6 left
    clock.now = 7.5
    assert not meter.next_step_fits()  # a step of 3.5 would end at 11
    assert not meter.spent_now()  # the deadline itself has not passed
    clock.now = 10.0
    assert not meter.next_step_fits() and meter.spent()
    untimed = Budget(nodes=3).start()  # without a clock the node count alone
    assert untimed.next_step_fits()
    untimed.charge(3)
    assert not untimed.next_step_fits()


class TickingClock:
    """A clock that is a millisecond later at every reading: work costs the readings
    it takes, the same on any machine."""

    def __init__(self) -> None:
        self.now = 0.0
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += 0.001
        return self.now


@pytest.mark.parametrize("seconds", [0.004, 0.02, 0.05])
def test_the_lookahead_stops_before_the_deadline_not_after_it(seconds: float) -> None:
    """Every step of the lookahead here costs readings of a clock that moves on with
    each: it stops when the costliest step so far would not fit, so its last reading
    comes before the deadline (asking only whether time is left, it had read the clock
    once at the deadline or past it). With too little time the ranking's play stands."""
    clock = TickingClock()
    bot = BackgammonBot(Budget(clock=clock, seconds=seconds), lookahead=True)
    play = bot.choose(split_decision(), random.Random(0)).notation
    assert clock.now < 0.001 + seconds  # the first reading fixed the deadline
    if seconds == 0.004:
        assert play == RANKED_BEST
    roomy = TickingClock()
    deep = BackgammonBot(Budget(clock=roomy, seconds=60.0), lookahead=True)
    assert deep.choose(split_decision(), random.Random(0)).notation == LOOKAHEAD_BEST
    assert clock.reads < roomy.reads  # it was cut short
