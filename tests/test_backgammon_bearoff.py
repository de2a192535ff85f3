"""The bear-off database: its index, its move generator against the engine's, hand-counted
chances, every sampled entry against one roll of its successors, GNU Backgammon's
bear-off chances, damaged files, and the bot and the hint using it."""

from __future__ import annotations

import random
import zlib

import pytest

from rules.backgammon import bearoff
from rules.backgammon.bot import BackgammonBot
from rules.backgammon.moves import legal_plays
from rules.backgammon.net import shipped as shipped_network
from rules.backgammon.net import shipped_race
from rules.data import read_checked

EMPTY_OUTSIDE = [0] * (25 - bearoff.HOME)


def board(home: list[int]) -> list[int]:
    """A 25-place board with ``home`` on the six home points."""
    return [*home, *EMPTY_OUTSIDE]


def random_home(rng: random.Random, checkers: int | None = None) -> tuple[int, ...]:
    home = [0] * bearoff.HOME
    for _ in range(checkers if checkers is not None else rng.randint(1, 15)):
        home[rng.randrange(bearoff.HOME)] += 1
    return tuple(home)


def test_index_ranks_every_position_in_order() -> None:
    every = list(bearoff.positions())
    assert len(every) == bearoff.COUNT == 54264
    assert len(set(every)) == len(every)
    assert all(sum(h) <= bearoff.MOST for h in every)
    assert [bearoff.index(h) for h in every] == list(range(bearoff.COUNT))
    full = [h for h in every if sum(h) == bearoff.MOST]
    assert [bearoff.full_index(h) for h in full] == list(range(len(full))) == list(range(15504))


def test_plays_are_the_engines_bear_off_plays() -> None:
    """The database's own small generator against the engine's legal plays (the rule
    text's bearing off: exact die, or a higher die from the highest point), opponent's
    checkers far away."""
    rng = random.Random(5)
    opponent = [0] * 25
    opponent[5] = 15  # their six point, our index 18: out of the way of a bear-off
    for _ in range(400):
        home = random_home(rng)
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        dice = (d1,) * 4 if d1 == d2 else (d1, d2)
        engine = {
            play[0][: bearoff.HOME] for play in legal_plays(board(list(home)), opponent, d1, d2)
        }
        assert bearoff._plays(home, dice) == engine, (home, d1, d2)


def test_one_checker_on_the_six_point_by_hand() -> None:
    """Off in one roll with a total of six or more on two different dice (11 of the 15
    pairs) or any double but 1-1: 27/36; every other roll leaves it on the ace to the
    four point, off with the next roll."""
    dist = bearoff.shipped().distribution((0, 0, 0, 0, 0, 1))
    assert dist[0] == 0
    assert dist[1] == pytest.approx(27 / 36, abs=2e-5)
    assert dist[2] == pytest.approx(9 / 36, abs=2e-5)
    assert sum(dist) == pytest.approx(1, abs=1e-4)


def test_two_sided_chances_by_hand() -> None:
    table = bearoff.shipped()
    ace, six = board([1, 0, 0, 0, 0, 0]), board([0, 0, 0, 0, 0, 1])
    assert bearoff.probabilities(ace, six, table) == pytest.approx((1, 0, 0, 0, 0), abs=1e-4)
    # on roll with the six-point checker: wins only if off at once
    assert bearoff.probabilities(six, ace, table) == pytest.approx((27 / 36, 0, 0, 0, 0), abs=1e-4)
    # fifteen on their six point cannot bear one off before our ace-point checker: a gammon
    fifteen = board([0, 0, 0, 0, 0, 15])
    assert bearoff.probabilities(ace, fifteen, table) == pytest.approx((1, 1, 0, 0, 0), abs=1e-4)
    # the other way round they roll first, and save the gammon with a checker off at
    # once: any 6 (11 rolls), 5-1 or 4-2 exactly (4), 3-3 or 2-2 (2): 17 of 36
    assert bearoff.probabilities(fifteen, ace, table) == pytest.approx(
        (0, 0, 0, 19 / 36, 0), abs=1e-4
    )


def test_no_answer_outside_the_bear_off() -> None:
    race = board([3, 3, 3, 3, 3, 0])
    outside = list(race)
    outside[7] = 1
    outside[0] -= 1
    assert bearoff.probabilities(outside, race) is None
    assert bearoff.probabilities(race, outside) is None
    on_bar = list(race)
    on_bar[24] = 1
    on_bar[0] -= 1
    assert bearoff.probabilities(on_bar, race) is None
    assert bearoff.probabilities([0] * 25, race) is None


def test_sampled_entries_hold_one_roll_later() -> None:
    """Every sampled distribution is one roll more than the roll-weighted mix of the
    shipped distributions after the play with the fewest rolls on average: the
    recurrence the database was built by, checked on the file that ships."""
    table = bearoff.shipped()
    rng = random.Random(11)
    for _ in range(300):
        home = random_home(rng)
        parts = []
        for dice, chance in bearoff.ROLLS:
            after = bearoff._plays(home, dice)
            best = min(after, key=lambda a: (bearoff._mean(table.distribution(a)), a))
            parts.append((chance, table.distribution(best)))
        expected = bearoff._mix(parts)
        got = table.distribution(home)
        width = max(len(expected), len(got))
        for n in range(width):
            e = expected[n] if n < len(expected) else 0.0
            g = got[n] if n < len(got) else 0.0
            assert g == pytest.approx(e, abs=3e-4), (home, n)


def test_every_distribution_sums_to_one() -> None:
    table = bearoff.shipped()
    for k, home in enumerate(bearoff.positions()):
        if k % 7 == 0 and any(home):
            assert sum(table.distribution(home)) == pytest.approx(1, abs=4e-4), home
            if sum(home) == bearoff.MOST:
                assert sum(table.first_off(home)) == pytest.approx(1, abs=4e-4), home


def test_agrees_with_gnubg_bear_off() -> None:
    """GNU Backgammon's 0-ply evaluation of a bear-off reads its own bear-off databases;
    ours agrees within a percent at worst (its two-sided table is exact where our
    one-sided one plays each roll for the fewest rolls, not the most wins)."""
    gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn has no wheel here")
    rng = random.Random(3)
    worst = total = 0.0
    for k in range(400):
        mine = board(list(random_home(rng, 15 if k % 3 == 0 else None)))
        theirs = board(list(random_home(rng, 15 if k % 4 == 0 else None)))
        ours = bearoff.probabilities(mine, theirs)
        assert ours is not None
        peer = gnubg_nn.probabilities([theirs, mine], 0)
        for a, b in zip(ours, peer, strict=True):
            worst = max(worst, abs(a - b))
        total += abs(ours[0] - peer[0])
    assert worst < 0.02
    assert total / 400 < 1e-3


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        (b"NOTABOFF", "bad magic"),
        (bearoff.MAGIC + b"garbage", "does not decompress"),
        (bearoff.MAGIC + zlib.compress(b"\x00" * 4), "truncated"),
        (bearoff.MAGIC + zlib.compress(b"\x01\x00\x00\x00" * 2), r"holds 1\+1"),
    ],
)
def test_damaged_database_is_a_clear_error(blob: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        bearoff.BearOffDatabase(blob)


def test_a_cut_database_is_a_clear_error() -> None:
    body = zlib.decompress(
        read_checked("rules.backgammon", bearoff.DATA_FILE)[len(bearoff.MAGIC) :]
    )
    with pytest.raises(ValueError, match="truncated"):
        bearoff.BearOffDatabase(bearoff.MAGIC + zlib.compress(body[:-3]))
    with pytest.raises(ValueError, match="trailing"):
        bearoff.BearOffDatabase(bearoff.MAGIC + zlib.compress(body + b"\x00"))


def test_the_bot_and_the_hint_read_the_database() -> None:
    mine, theirs = board([2, 3, 0, 4, 1, 0]), board([0, 2, 2, 2, 2, 2])
    exact = bearoff.probabilities(mine, theirs)
    assert exact is not None
    bot = BackgammonBot()
    assert bot.probabilities(mine, theirs) == exact
    main = shipped_network()
    by_network = BackgammonBot(exact_bearoff=False, race=main).probabilities(mine, theirs)
    assert by_network == main.probabilities(mine, theirs)
    assert by_network != exact
    # a race that is not yet a bear-off: the race network; contact: the main network
    race = board([2, 3, 0, 4, 1, 0])
    race[12] = 1
    assert bot.probabilities(race, theirs) == shipped_race().probabilities(race, theirs)
    assert bot.probabilities(race, theirs) != main.probabilities(race, theirs)
    contact = list(race)
    contact[12], contact[23] = 0, 1  # behind the other side's checkers
    assert bot.probabilities(contact, theirs) == main.probabilities(contact, theirs)
