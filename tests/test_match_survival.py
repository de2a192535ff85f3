"""A Backgammon match survives a power cut at the end of one of its games.

Inside a match the rules start the next game at once, with the new score and the
finished game listed; the save queued at that moment must load by itself, and a table
started on exactly that file must go on with the match at that score.
"""

from __future__ import annotations

import shutil
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
