"""A Backgammon match survives a power cut at the end of one of its games.

Inside a match the rules start the next game at once, with the new score and the
finished game listed; the save queued at that moment must load by itself, and a table
started on exactly that file must go on with the match at that score.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

from controller.persistence import SaveStore
from controller.session import Session
from controller.table.effects import Outbox, Save
from controller.testing.files import read_save, write_bot_game
from controller.testing.rig import SHORT_ANIMATIONS, ApplianceRig
from rules.bots import make_bot


def test_a_queued_save_keeps_the_moment_it_was_queued() -> None:
    """The loop writes a save after the next frame; the game moving on meanwhile (here
    a roll) must not change what that save holds."""
    session = Session.start("backgammon", "match5", ["bot", "bot"], seed=4, bot="random")
    outbox = Outbox()
    outbox.save(session)
    queued_rng = session.rng.getstate()
    session.roll(session.draw_dice())
    (save,) = outbox.take()
    assert isinstance(save, Save) and save.session is not None
    assert save.session is not session
    assert save.session.history == []
    assert save.session.rng.getstate() == queued_rng
    assert save.session.state == Session.start("backgammon", "match5", ["bot", "bot"]).state


def test_every_save_of_a_match_loads_by_itself(tmp_path: Path) -> None:
    """Played to the end of a match, each queued save is a game the table can resume."""
    session = Session.start("backgammon", "match3", ["bot", "bot"], seed=2, bot="random")
    bot = make_bot("random")
    outbox = Outbox()
    store = SaveStore(tmp_path)
    store.prepare()
    games_seen = 0
    while not session.state.is_terminal():
        if session.state.is_chance():
            session.roll(session.draw_dice())
        else:
            session.play(bot.choose(session.state, session.rng))
        outbox.save(session)
        saves = [e for e in outbox.take() if isinstance(e, Save)]
        assert saves and saves[-1].session is not None, "every step is saved"
        store.save(saves[-1].session)
        games = session.state.to_json()["games"]
        if len(games) > games_seen and not session.state.is_terminal():
            games_seen = len(games)
            resumed = SaveStore(tmp_path).load()
            assert resumed is not None and resumed.state == session.state
    assert games_seen >= 1, "the match had a game end before its last"


def test_a_cut_right_after_a_match_game_resumes_at_that_score(
    tmp_path: Path, appliance_rig: Callable[..., ApplianceRig]
) -> None:
    """Bots play a 7-point match on the appliance; the save file as it stands the moment
    the first game has ended is copied (a power cut there), and a new appliance on that
    copy resumes the match at that score and plays on from it."""
    live, cut = tmp_path / "live", tmp_path / "cut"
    write_bot_game(live, "backgammon", "match7", 2, seed=2)
    rig = appliance_rig(live, buttons=False, options=SHORT_ANIMATIONS)
    rig.start()
    saved = None
    for _ in range(20_000):
        rig.advance()
        saved = read_save(live)
        if saved is not None and saved["state"]["games"]:
            shutil.copytree(live, cut)  # the state directory as a pulled plug leaves it
            break
    assert saved is not None and saved["state"]["games"], "the first game ended"
    score = saved["state"]["score"]
    assert sum(score.values()) == saved["state"]["games"][0]["points"]
    rig.close()

    resumed_rig = appliance_rig(cut, buttons=False, options=SHORT_ANIMATIONS)
    resumed_rig.start()
    resumed = resumed_rig.table.session
    assert resumed is not None, "the match is resumed, not lost"
    assert resumed.state.to_json()["score"] == score
    assert resumed.state.to_json()["games"] == saved["state"]["games"]
    before = len(resumed.history)
    for _ in range(200):
        resumed_rig.advance()
    on_disk = read_save(cut)
    assert on_disk is not None and len(on_disk["history"]) > before, "the match plays on"
    assert on_disk["state"]["games"][: len(saved["state"]["games"])] == saved["state"]["games"]


def test_kill_9_right_after_a_match_game_resumes_the_match(tmp_path: Path) -> None:
    """The real appliance process plays a bot match; SIGKILL as soon as the save shows
    the first game finished (no handler runs: a pulled plug). The save loads by
    itself, and the restarted process resumes the match at that score and plays on."""
    from controller.testing.files import write_config
    from controller.testing.notify import NotifySocket
    from controller.testing.process import ApplianceProcess, wait_for_saves

    config = write_config(tmp_path, seats=("bot", "bot"))
    state = tmp_path / "state"
    write_bot_game(state, "backgammon", "match7", 2, seed=2)
    first = ApplianceProcess(config, state, log_dir=tmp_path)
    try:
        saved = None
        for _ in range(6000):  # polled: a save is a rename, there is no event
            saved = read_save(state)
            if saved is not None and saved["state"]["games"]:
                break
            assert first.process.poll() is None, first.stderr()
            time.sleep(0.05)
        assert saved is not None and saved["state"]["games"], "no match game ended"
        first.kill()
    finally:
        first.close()
    killed = read_save(state)
    assert killed is not None
    resumed = SaveStore(state).load()
    assert resumed is not None, "the save at the cut loads by itself"
    score = killed["state"]["score"]
    assert sum(score.values()) == sum(g["points"] for g in killed["state"]["games"])
    notify = NotifySocket()
    second = ApplianceProcess(config, state, notify, log_dir=tmp_path)
    try:
        assert notify.wait_for("READY=1", timeout=60) is not None, second.stderr()
        assert wait_for_saves(state, len(killed["history"]) + 4) is not None, second.stderr()
        code, _ = second.terminate()
    finally:
        second.close()
        notify.close()
    assert code == 0
    assert "resuming backgammon/match7" in second.stderr()
    final = read_save(state)
    assert final is not None and final["history"][: len(killed["history"])] == killed["history"]
    games = final["state"]["games"]
    assert games[: len(killed["state"]["games"])] == killed["state"]["games"]
    assert sum(final["state"]["score"].values()) >= sum(score.values())
