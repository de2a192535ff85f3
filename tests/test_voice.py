"""The table's voice: every sentence renders to audio, prompts fire on the right
events of seeded games, a newer prompt cuts off a stale one, and a hung player never
holds up the loop."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from controller import i18n, views
from controller.config import ConfigError, parse_config
from controller.events import EventQueue
from controller.loop import Loop
from controller.machine import Mode
from controller.session import Session
from controller.table import Table, TableOptions
from controller.testing.clock import FakeClock
from controller.voice import prompts
from controller.voice.catalog import Prompt, fixed_sentences, sentence
from controller.voice.player import Player
from controller.voice.render import Renderer, render_all
from controller.voice.speaker import FakeVoice, Speaker, VoiceSettings
from hardware.build import build_display
from hardware.interfaces import ButtonEvent
from hardware.specs import DisplaySpec
from rules.track.engine import MaednState

NEEDS_ESPEAK = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox are needed to render and measure speech (.ci/run installs them)",
)
WAIT_S = 30.0


@pytest.fixture
def english() -> Iterator[None]:
    before = i18n.active_language()
    i18n.use("en")
    yield
    i18n.use(before)


def sox_stat(path: Path) -> dict[str, float]:
    """``sox FILE -n stat``: its figures by name (it writes them on stderr)."""
    done = subprocess.run(["sox", str(path), "-n", "stat"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    figures = {}
    for line in done.stderr.splitlines():
        name, _colon, value = line.partition(":")
        try:
            figures[name.strip()] = float(value.strip())
        except ValueError:
            continue
    return figures


# -- the catalog ---------------------------------------------------------------------------


def test_every_sentence_is_translated_and_distinct_in_german() -> None:
    before = i18n.active_language()
    try:
        i18n.use("en")
        english = fixed_sentences()
        i18n.use("de")
        german = fixed_sentences()
    finally:
        i18n.use(before)
    assert len(german) == len(english), "two prompts that differ must not sound alike"
    assert "rot, du bist dran." in german and "Eine Sechs!" in german
    assert "rot schlägt grün!" in german and "Noch einmal würfeln!" in german
    untranslated = set(german) & {s for s in english if any(c.isalpha() for c in s)}
    assert not untranslated


@NEEDS_ESPEAK
def test_every_sentence_renders_to_audible_speech_in_both_languages(tmp_path: Path) -> None:
    files = render_all(Renderer(tmp_path))
    assert len(set(files)) == len(files), "every sentence has a file of its own"
    before = i18n.active_language()
    for language in i18n.LANGUAGES:
        i18n.use(language)
        expected = len(fixed_sentences())
        mine = [f for f in files if f.name.startswith(f"{language}-")]
        assert len(mine) == expected > 150, language
    i18n.use(before)
    for path in set(files):
        seconds = float(subprocess.check_output(["soxi", "-D", str(path)], text=True))
        figures = sox_stat(path)
        assert seconds > 0.3, path
        assert figures["RMS     amplitude"] > 0.01, path


@NEEDS_ESPEAK
def test_a_sentence_missing_from_the_cache_is_rendered_when_asked_and_kept(
    tmp_path: Path,
) -> None:
    renderer = Renderer(tmp_path)
    assert renderer.cached("de", "Eine Sechs!") is None
    path = renderer.path("de", "Eine Sechs!")
    assert path.parent == tmp_path and path.name.startswith("de-")
    assert sox_stat(path)["Length (seconds)"] > 0.3
    assert renderer.cached("de", "Eine Sechs!") == path
    assert renderer.path("en", "Eine Sechs!") != path, "the language is part of the key"


# -- which prompts fire ----------------------------------------------------------------------


class Played:
    """A seeded game on the real loop with a fake clock and a fake voice."""

    def __init__(self, session: Session, options: TableOptions) -> None:
        self.clock = FakeClock()
        self.voice = FakeVoice()
        display = build_display(DisplaySpec(type="dummy", width=16, height=16))
        self.table = Table(options)
        self.loop = Loop(
            self.table, EventQueue(), display, views.render, clock=self.clock, voice=self.voice
        )
        self.table.start_session(session)
        self.loop.first_frame()

    def until(self, mode: Mode, steps: int = 20000) -> None:
        for _ in range(steps):
            if self.table.state is mode:
                return
            wake = self.table.next_wakeup()
            if wake is not None and wake > self.clock.now:
                self.clock.now = wake
            self.loop.step(timeout_cap=0)
        raise AssertionError(f"never reached {mode}")


def test_a_seeded_bot_game_says_every_throw_capture_goal_and_the_winner(english: None) -> None:
    session = Session.start("maedn", "classic", ["bot"] * 4, seed=7, bot="random")
    played = Played(session, TableOptions(bot="random", bot_delay_s=0.01))
    played.until(Mode.GAME_OVER)
    said = played.voice.prompts
    throws = [entry["dice"] for entry in session.history if "dice" in entry]
    spoken_throws = [p.dice for p in said if p.kind in ("roll", "six")]
    assert spoken_throws == [tuple(d) for d in throws]
    assert [p for p in said if p.kind == "six"] == [Prompt("six", dice=(6,))] * sum(
        1 for d in throws if d == [6]
    )
    state = track_state(rules.get_game("maedn", "classic").new_state(4))
    captures: list[tuple[str, str]] = []
    goals: list[str] = []
    for entry in session.history:
        if "dice" in entry:
            state = track_state(state.roll(entry["dice"]))
            continue
        mover = state.current_player
        assert mover is not None
        after = track_state(state.apply(state.parse_move(entry["move"])))
        # counted on the boards themselves: whose pieces went back home, who gained a
        # piece in the goal lane
        hit = [p for p in after.players if at_home(after, p) > at_home(state, p)]
        if hit:
            captures.append((mover, hit[0]))
        elif in_goal(after, mover) > in_goal(state, mover):
            goals.append(mover)
        state = after
    assert captures, "this seed has captures"
    assert [(p.colour, p.other) for p in said if p.kind == "capture"] == captures
    assert [p.colour for p in said if p.kind == "home"] == goals
    assert said[-1] == Prompt("winner", state.winners()[0])
    assert played.voice.sentences[-1] == f"{state.winners()[0]} wins!"
    # bots on turn are announced, but not as important: nobody has to act on them
    turns = [p for p in said if p.kind in ("turn", "again")]
    assert turns and not any(p.important for p in turns)


def track_state(state: rules.State) -> MaednState:
    assert isinstance(state, MaednState)
    return state


def at_home(state: MaednState, player: str) -> int:
    return state.progress(player).count(-1)


def in_goal(state: MaednState, player: str) -> int:
    lap = state.game.geometry.track_steps
    return sum(1 for place in state.progress(player) if place >= lap)


def test_a_human_is_told_it_is_their_turn_and_to_roll_again_after_a_six(english: None) -> None:
    session = Session.start("maedn", "classic", ["human", "bot"], seed=3, bot="random")
    played = Played(session, TableOptions(bot="random", bot_delay_s=0.01))
    first = played.voice.prompts
    assert first and first[-1] == Prompt("turn", "red", person=True)
    assert first[-1].important and played.voice.sentences[-1] == "red, your turn."
    # the human rolls until the table offers a choice or hands the turn on
    for _ in range(3):
        played.loop.events.put(ButtonEvent(0, "ok", "down", played.clock()))
        played.loop.step(timeout_cap=0)
        played.until(Mode.AWAIT_ROLL)
        if session.player != "red":
            break
    kinds = played.voice.kinds()
    assert kinds[:2] == ["turn", "roll"], "the first throw of a piece-less player"
    if session.player == "red":
        assert "again" in kinds  # three tries with every piece at home


def test_the_move_timer_running_out_is_said() -> None:
    session = Session.start("maedn", "classic", ["human", "bot"], seed=5, bot="random")
    options = TableOptions(bot="random", bot_delay_s=0.01, move_timer_s=3.0)
    played = Played(session, options)
    for _ in range(200):  # roll until the human has a choice, then let the timer run out
        if played.table.state is Mode.AWAIT_ROLL and session.player == "red":
            played.loop.events.put(ButtonEvent(0, "ok", "down", played.clock()))
        played.loop.step(timeout_cap=0)
        wake = played.table.next_wakeup()
        if wake is not None and wake > played.clock.now:
            played.clock.now = wake
        if Prompt("time") in played.voice.prompts:
            break
    assert Prompt("time") in played.voice.prompts
    assert Prompt("time").important


def test_only_important_prompts_pass_the_setting() -> None:
    said: list[str] = []

    class Listening(Player):
        def __init__(self) -> None:  # no thread: only what reaches the player counts
            pass

        def play(self, language: str, text: str) -> None:
            said.append(text)

    speaker = Speaker(VoiceSettings(only_important=True), Listening())
    for prompt in (
        Prompt("roll", dice=(3,)),
        Prompt("capture", "red", "blue"),
        Prompt("turn", "blue", person=False),
        Prompt("turn", "red"),
        Prompt("winner", "red"),
    ):
        speaker.say(prompt)
    assert said == [sentence(Prompt("turn", "red")), sentence(Prompt("winner", "red"))]


def test_backgammon_names_whose_checker_was_hit() -> None:
    import random

    pick = random.Random(1)
    state = rules.get_game("backgammon", "money").new_state(2)
    for _ in range(2000):
        if state.is_terminal():
            break
        if state.is_chance():
            state = state.roll(pick.choice(list(state.chance_outcomes()))[0])
            continue
        hits = [m for m in state.legal_moves() if "*" in m.notation]
        if hits:
            said = prompts.move("backgammon", state, hits[0])
            mover = "orange" if state.current_player == "white" else "blue"
            victim = "blue" if mover == "orange" else "orange"
            assert said == Prompt("capture", mover, victim)
            return
        state = state.apply(pick.choice(list(state.legal_moves())))
    pytest.fail("no hit found")


# -- the config ------------------------------------------------------------------------------


def test_the_voice_section_is_read_and_checked() -> None:
    panel = {"type": "dummy", "width": 16, "height": 16}
    voice = {"enabled": False, "volume": 40, "only_important": True}
    config = parse_config({"display": panel, "voice": voice})
    assert config.voice == VoiceSettings(enabled=False, volume=40, only_important=True)
    assert parse_config({"display": panel}).voice == VoiceSettings()
    with pytest.raises(ConfigError) as error:
        parse_config({"display": panel, "voice": {"volume": 140, "loud": 1, "enabled": "yes"}})
    lines = "\n".join(error.value.errors)
    assert "voice.volume" in lines and "voice.loud" in lines and "voice.enabled" in lines


# -- the player -------------------------------------------------------------------------------


def fake_aplay(folder: Path, ignore_term: bool = False) -> Path:
    """An "aplay" that plays until it is stopped. One that ignores SIGTERM first says,
    through a FIFO, that it now does (so the test stops it only after that)."""
    folder.mkdir(exist_ok=True)
    script = folder / "aplay"
    ready = ""
    if ignore_term:
        os.mkfifo(folder / "ready")
        ready = f"trap '' TERM\necho ready > '{folder}/ready'\n"
    script.write_text(f"#!/bin/sh\n{ready}exec sleep 600\n")
    script.chmod(0o755)
    return script


class Started:
    """The processes the player started, as it reports them."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self.cond = threading.Condition()

    def __call__(self, process: subprocess.Popen[bytes], asked: float) -> None:
        with self.cond:
            self.processes.append(process)
            self.cond.notify_all()

    def wait_for(self, count: int) -> subprocess.Popen[bytes]:
        with self.cond:
            assert self.cond.wait_for(lambda: len(self.processes) >= count, WAIT_S)
            return self.processes[count - 1]


def last_arg(process: subprocess.Popen[bytes]) -> str:
    """The file a player process was given (its last argument)."""
    assert isinstance(process.args, list)
    return str(process.args[-1])


def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("old", "new", "newest"):
        made[name] = tmp_path / f"{name}.wav"
        made[name].write_bytes(b"RIFF")
    return made


def test_a_newer_prompt_stops_the_stale_one_instead_of_queueing(tmp_path: Path) -> None:
    aplay = fake_aplay(tmp_path / "bin")
    wavs = files(tmp_path)
    started = Started()
    player = Player([str(aplay), "-q"], lambda lang, text: wavs[text], started=started)
    try:
        player.play("de", "old")
        old = started.wait_for(1)
        player.play("de", "new")
        new = started.wait_for(2)
        assert old.wait(WAIT_S) == -signal.SIGTERM, "the stale prompt was cut off"
        assert new.poll() is None, "the newer one plays"
        assert [last_arg(p) for p in started.processes] == [str(wavs["old"]), str(wavs["new"])]
    finally:
        player.close()
    assert new.wait(WAIT_S) == -signal.SIGTERM


def test_a_player_that_will_not_stop_is_killed_and_never_holds_up_the_loop(
    tmp_path: Path, english: None
) -> None:
    """The fake aplay ignores SIGTERM: the worker waits for it, then kills it. The
    whole time, a seeded game runs on the loop to its end, saying every prompt."""
    aplay = fake_aplay(tmp_path / "bin", ignore_term=True)
    wavs = files(tmp_path)
    started = Started()
    player = Player([str(aplay)], lambda lang, text: wavs["old"], started=started, stop_wait=600.0)
    speaker = Speaker(VoiceSettings(), player)
    try:
        speaker.say(Prompt("turn", "red"))
        stubborn = started.wait_for(1)
        assert (tmp_path / "bin" / "ready").read_text() == "ready\n"
        speaker.say(Prompt("turn", "blue"))  # the worker now waits on a process that stays
        session = Session.start("maedn", "classic", ["bot"] * 4, seed=11, bot="random")
        played = Played(session, TableOptions(bot="random", bot_delay_s=0.01))
        played.loop.voice = speaker
        finished = threading.Event()

        def play_to_the_end() -> None:
            played.until(Mode.GAME_OVER)
            finished.set()

        game = threading.Thread(target=play_to_the_end, daemon=True)
        game.start()
        assert finished.wait(WAIT_S * 4), "the loop was held up by the voice"
        assert stubborn.poll() is None, "the stubborn player was still running all along"
        assert len(started.processes) == 1, "nothing new started while the old one stays"
    finally:
        stubborn.kill()
        player.close()
    assert stubborn.wait(WAIT_S) == -signal.SIGKILL


def test_no_sound_device_is_one_line_in_the_log_then_silence(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    broken = tmp_path / "aplay"
    broken.write_text(
        "#!/bin/sh\necho 'aplay: main:831: audio open error: No such file' >&2\nexit 1\n"
    )
    broken.chmod(0o755)
    wavs = files(tmp_path)
    started = Started()
    player = Player([str(broken)], lambda lang, text: wavs["old"], started=started)
    try:
        player.play("de", "old")
        first = started.wait_for(1)
        assert first.wait(WAIT_S) == 1
        for _ in range(3):
            player.play("de", "new")
        with player.cond:
            assert player.cond.wait_for(lambda: player.failed, WAIT_S)
    finally:
        player.close()
    lines = [r for r in caplog.records if r.name == "controller.voice.player"]
    assert len(lines) == 1 and "audio open error" in lines[0].getMessage()
    assert len(started.processes) <= 2


@NEEDS_ESPEAK
def test_the_volume_is_rendered_into_files_of_its_own(tmp_path: Path) -> None:
    loud = Renderer(tmp_path, volume=100).path("en", "Time is up!")
    quiet = Renderer(tmp_path, volume=25).path("en", "Time is up!")
    assert loud != quiet
    assert sox_stat(quiet)["RMS     amplitude"] < sox_stat(loud)["RMS     amplitude"] / 2


def test_missing_sentences_are_rendered_in_the_background_at_start(
    tmp_path: Path, english: None
) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is needed to render")
    from controller.voice.render import missing
    from controller.voice.speaker import warm_up

    renderer = Renderer(tmp_path, volume=30)
    assert len(missing(renderer, "en")) == len(fixed_sentences())
    thread = warm_up(renderer)
    assert thread is not None
    thread.join(WAIT_S * 10)
    assert missing(renderer, "en") == [] and warm_up(renderer) is None


def test_the_cache_directory_is_read_only_so_new_sentences_go_elsewhere(
    tmp_path: Path,
) -> None:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is needed to render")
    if os.geteuid() == 0:
        pytest.skip("root writes into a read-only directory")
    cache = tmp_path / "cache"
    cache.mkdir()
    cache.chmod(0o555)
    try:
        path = Renderer(cache).path("en", "A six!")
        assert path.parent != cache and path.is_file()
    finally:
        cache.chmod(0o755)


def test_a_stale_prompt_that_ignores_sigterm_is_killed_and_the_newer_one_plays(
    tmp_path: Path,
) -> None:
    aplay = fake_aplay(tmp_path / "bin", ignore_term=True)
    wavs = files(tmp_path)
    started = Started()
    player = Player([str(aplay)], lambda lang, text: wavs[text], started=started, stop_wait=0.2)
    try:
        player.play("de", "old")
        stubborn = started.wait_for(1)
        assert (tmp_path / "bin" / "ready").read_text() == "ready\n"
        player.play("de", "new")
        newer = started.wait_for(2)
        assert stubborn.wait(WAIT_S) == -signal.SIGKILL
        assert last_arg(newer) == str(wavs["new"])
    finally:
        player.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        newer.wait(WAIT_S)
    if newer.poll() is None:  # it waits on its FIFO, deaf to SIGTERM: not ours to keep
        newer.kill()
        newer.wait()


@NEEDS_ESPEAK
def test_a_broken_config_is_said_once_through_aplay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the panel shows a config error, the voice says so (with its defaults: the
    file that would set it is the broken one), through the aplay found on PATH."""
    from controller.cli.run import config_problem_said

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.mkfifo(bin_dir / "played")
    aplay = bin_dir / "aplay"
    aplay.write_text(f"#!/bin/sh\necho \"$2\" > '{bin_dir}/played'\n")
    aplay.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    before = i18n.active_language()
    i18n.use("de")
    try:
        voice = config_problem_said(VoiceSettings(cache=tmp_path / "cache"))
        played = Path((bin_dir / "played").read_text().strip())
        voice.close()
        expected = sentence(Prompt("config"))
    finally:
        i18n.use(before)
    assert expected.startswith("Der Spieltisch hat ein Problem")
    assert played == Renderer(tmp_path / "cache").cached("de", expected)
    assert sox_stat(played)["Length (seconds)"] > 1.0
