"""The voice calls named players by name: a seeded game's prompts say "Anna" where
they said "red", and the sentences with the family's names are rendered ahead, in
both languages, to audible speech."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller import i18n
from controller.machine import Mode
from controller.players.person import Person
from controller.session import Session
from controller.table import TableOptions
from controller.voice.catalog import named_prompts, sentence
from controller.voice.render import Renderer
from controller.voice.sink import FileSink
from controller.voice.speaker import Speaker, VoiceSettings, warm_up
from tests.test_voice import WAIT_S, Played, sox_stat


@pytest.fixture
def german() -> Iterator[None]:
    before = i18n.active_language()
    i18n.use("de")
    yield
    i18n.use(before)


def test_a_named_players_turn_captures_and_win_are_said_by_name(german: None) -> None:
    session = Session.start(
        "maedn",
        "classic",
        ["human", "bot", "human", "bot"],
        seed=11,
        bot="random",
        people={0: Person("p1", "Anna"), 2: Person("p2", "Ben")},
    )
    for player in ("red", "green"):  # the humans play as bots would: only the names count
        session.kinds[player] = "bot"
    played = Played(session, TableOptions(bot="random", bot_delay_s=0.01))
    played.until(Mode.GAME_OVER, steps=200000)
    said = played.voice.sentences
    named = [p for p in played.voice.prompts if p.name or p.other_name]
    assert named, "the named players' prompts"
    assert all(p.colour in ("", "red", "green") or p.other in ("red", "green") for p in named)
    assert not any(s.startswith(("rot ", "rot,", "grün ", "grün,")) for s in said)
    assert not any(s.endswith(("schlägt rot!", "schlägt grün!")) for s in said)
    winner = session.state.winners()[0]
    last = said[-1]
    if winner == "red":
        assert last == "Anna gewinnt!"
    elif winner == "green":
        assert last == "Ben gewinnt!"
    assert "Anna, du bist dran." in said and "Ben, du bist dran." in said


@pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox are needed to render and measure speech",
)
def test_the_names_sentences_are_rendered_ahead_and_audible(tmp_path: Path, german: None) -> None:
    """At start the voice renders what the cache lacks, the names' sentences with it
    (English renders the same way: the catalog's test covers both languages)."""
    renderer = Renderer(tmp_path)
    texts = {sentence(p) for p in named_prompts(["Anna", "Jörg"])}
    assert "Anna, du bist dran." in texts and "Jörg schlägt Anna!" in texts
    thread = warm_up(renderer, ["Anna", "Jörg"])
    assert thread is not None
    thread.join(WAIT_S * 10)
    for text in texts:
        assert renderer.cached("de", text) is not None, text
    for path in sorted(tmp_path.glob("*.wav"))[::25]:  # a sample: every file is alike
        seconds = float(subprocess.check_output(["soxi", "-D", str(path)], text=True))
        assert seconds > 0.3 and sox_stat(path)["RMS     amplitude"] > 0.01, path


@pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox are needed to render and measure speech",
)
def test_a_name_added_on_the_page_is_rendered_when_it_is_added(
    tmp_path: Path, german: None
) -> None:
    """The Players page adds "Mia" while the table runs: her sentences are rendered
    then, into the table's cache, before anyone says them (and nothing is played)."""
    pytest.importorskip("aiohttp")
    from tests.test_web import ServedTable, client_session, pair, run

    state = tmp_path / "state"
    state.mkdir()
    renderer = Renderer(tmp_path / "cache")
    sink = FileSink(tmp_path / "said", renderer.path)
    table = ServedTable(state_dir=state, language="de")
    try:
        table.rig.start()
        table.rig.app.loop.voice = Speaker(VoiceSettings(cache=renderer.cache), sink, renderer)

        async def add() -> int:
            async with client_session() as client:
                csrf = await pair(client, table)
                headers = {"X-CSRF-Token": csrf}
                body = {"action": "add", "name": "Mia"}
                async with client.post(
                    table.url + "/api/players", json=body, headers=headers
                ) as reply:
                    return reply.status

        assert run(add()) == 200
        table.rig.settle()  # the loop takes the page's news
        texts = {sentence(p) for p in named_prompts(["Mia"])}
        assert "Mia, du bist dran." in texts
        deadline = time.monotonic() + WAIT_S * 4
        while any(renderer.cached("de", text) is None for text in texts):
            assert time.monotonic() < deadline, "Mia's sentences were not rendered"
            time.sleep(0.1)
        turn = renderer.cached("de", "Mia, du bist dran.")
        assert turn is not None and sox_stat(turn)["RMS     amplitude"] > 0.01
    finally:
        table.close()
        sink.close()
    assert (tmp_path / "said" / "prompts.txt").read_text(encoding="utf-8") == ""


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng renders the speech")
def test_sentences_rendered_beside_an_unwritable_cache_are_found_by_the_player(
    tmp_path: Path, german: None
) -> None:
    """On the table the cache beside the program cannot be written, so the warm-up
    renders a new name's sentences into the spare directory; the player's own renderer
    must find them there and not render them again when they are first said (it only
    looked in the spare directory after rendering something itself)."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory", encoding="utf-8")
    spare = tmp_path / "spare"
    warming = Renderer(blocked / "cache", spare=spare)
    thread = warm_up(warming, ["Mia"], fixed=False)
    assert thread is not None
    thread.join(WAIT_S * 4)
    playing = Renderer(blocked / "cache", spare=spare)
    found = playing.cached("de", "Mia, du bist dran.")
    assert found is not None and found.parent == spare
    assert playing.path("de", "Mia, du bist dran.") == found


@pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("sox") is None,
    reason="espeak-ng and sox are needed to render and measure speech",
)
def test_a_name_is_said_as_words_never_taken_as_an_option_or_markup(tmp_path: Path) -> None:
    """Anyone with a paired phone chooses the names, and the sentence that begins with
    one is given to espeak-ng: a name such as "-w/some/file" was taken as its option
    and wrote the wav over that file (and nothing where the cache expected it), and
    "[[...]]" was read as phonemes. Both must be said as the letters they are."""
    hijacked = tmp_path / "hijacked.wav"
    renderer = Renderer(tmp_path / "cache")
    said = renderer.path("en", f"-w{hijacked}, your turn.")
    assert not hijacked.exists()
    assert said.parent == tmp_path / "cache" and sox_stat(said)["RMS     amplitude"] > 0.01
    plain = renderer.path("en", "Anna, your turn.")
    phonemes = renderer.path("en", "[[a:n@]], your turn.")
    length = {
        path: float(subprocess.check_output(["soxi", "-D", str(path)], text=True))
        for path in (plain, phonemes)
    }
    assert length[phonemes] > length[plain] + 1.0  # the brackets and letters are said
