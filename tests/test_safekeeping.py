"""Saves and records as effects, with one owner for what their failures show.

The table queues effects and never touches the disk; :class:`Safekeeping` carries them
out and alone decides what the panel says when the disk refuses (once per run of
failures) and when to try again.
"""

from __future__ import annotations

from pathlib import Path

from controller.machine import Mode
from controller.persistence import SaveStore
from controller.safekeeping import RETRY_S, Safekeeping
from controller.session import Session
from controller.table import Table, TableOptions
from controller.table.effects import Record, Save, Speak
from controller.testing.clock import FakeClock


def test_a_blocked_state_directory_is_said_once_and_retried(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("a file where the directory should be")
    clock = FakeClock()
    keeper = Safekeeping(SaveStore(tmp_path / "state"), clock)
    keeper.prepare()
    assert keeper.take_notices() == ["not saved: not a directory"]
    game = Session.start("minimaki", "standard", ["human"], seed=1)
    keeper.carry_out([Save(game)])
    keeper.carry_out([Save(game)])
    assert keeper.take_notices() == [], "said once per run of failures"
    assert keeper.save_failures == 2 and keeper.retry_at == clock.now + RETRY_S
    (tmp_path / "state").unlink()
    (tmp_path / "state").mkdir()
    clock.advance(RETRY_S)
    keeper.retry(clock.now)
    assert keeper.failing_saves == 0 and keeper.retry_at is None
    assert SaveStore(tmp_path / "state").load() is not None


def test_the_table_only_queues_its_saves_and_records() -> None:
    """The table writes nothing itself: what it wants saved or recorded waits in its
    outbox for the loop, the record of a finished game before its last save (the
    prompts for the voice come first and are carried out by the voice, not here)."""
    table = Table(TableOptions(bot="random"))
    table.start_session(Session.start("minimaki", "standard", ["bot"], seed=2, bot="random"))
    while table.state is not Mode.GAME_OVER:
        wake = table.next_wakeup()
        assert wake is not None
        table.tick(max(wake, table.now))
    queued = table.take_effects()
    spoken = [e for e in queued if isinstance(e, Speak)]
    assert queued[: len(spoken)] == spoken
    effects = queued[len(spoken) :]
    assert isinstance(effects[0], Record) and effects[0].outcome == "finished"
    assert len(effects) == 2 and isinstance(effects[1], Save)
    saved, live = effects[1].session, table.session
    assert saved is not None and live is not None
    assert saved is not live, "a copy made when queued: the live game may move on"
    assert saved.to_json() == live.to_json()
    assert table.take_effects() == []


def test_a_save_while_a_bot_thinks_holds_the_rng_from_before_its_seed() -> None:
    """The loop writes a queued save after the next frame, and the table may ask a bot
    in between. The bot's seed is read from a copy of the RNG, and the session's RNG
    moves past it only when the answer is taken, so a save written while the bot
    thinks resumes into the same seed: the game plays on as one never interrupted (a
    kill loop on a loaded machine saw it diverge when the ask drew from the RNG)."""
    import random

    from controller.table.bots import Thinking

    seeds: list[int] = []
    thinking = Thinking(lambda state, kind, request, seed: seeds.append(seed))
    session = Session.start("maedn", "classic", ["bot", "bot"], seed=5, bot="random")
    session.roll(session.draw_dice())
    before = session.rng.getstate()
    thinking.ask_move(session)
    assert session.rng.getstate() == before  # a save now resumes into the same seed
    thinking.ask_move(session)  # asked again after a resume: the same seed
    thinking.taken(session)
    reference = random.Random()
    reference.setstate(before)
    assert seeds == [reference.getrandbits(32)] * 2
    assert session.rng.getstate() == reference.getstate()


def test_the_final_save_carries_the_record_until_the_history_has_committed_it(
    tmp_path: Path,
) -> None:
    """What a kill would find at the moment the record is written: the save already
    holds the final position, with the record in it. So a kill on either side of the
    record leaves a game that is over (never one move short of its end) and a record
    that the next start writes (the same uid replaces itself)."""
    import json

    from controller.history.keeper import HistoryKeeper
    from controller.history.record import HistoryEntry

    seen: list[dict[str, object]] = []

    class Watched(HistoryKeeper):
        def _write(self, record: HistoryEntry) -> int:
            seen.append(json.loads((tmp_path / "session.json").read_text("utf-8")))
            return super()._write(record)

    keeper = Safekeeping(
        SaveStore(tmp_path),
        FakeClock(),
        lambda warn, notice: Watched(tmp_path, 1, warn, notice=notice),
    )
    keeper.prepare()
    table = Table(TableOptions(bot="random"))
    game = Session.start("minimaki", "standard", ["bot"], seed=2, bot="random")
    table.start_session(game)
    while table.state is not Mode.GAME_OVER:
        wake = table.next_wakeup()
        assert wake is not None
        table.tick(max(wake, table.now))
        keeper.carry_out(table.take_effects())
    [at_record] = seen
    assert at_record["history"] == game.history  # the final position, not one move short
    assert Session.from_json(at_record).state.is_terminal()
    carried = at_record["pending_records"]
    assert isinstance(carried, list) and [p["session"]["started"] for p in carried] == [
        game.started
    ]
    after = json.loads((tmp_path / "session.json").read_text("utf-8"))
    assert after["history"] == game.history and "pending_records" not in after
    assert keeper.history is not None and keeper.history.backlog == []
    keeper.close()
