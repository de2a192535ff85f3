"""No English on a German table: whole German games, every word checked against a list
of English words drawn from the catalog itself.

The list (:func:`english_words`) is every word of the English source texts (the
msgids) that no German translation uses: "you", "wins", "piece", "rolls"... but not
"Backgammon", "Gammon" or "Bar", which German players say too. A German screen that
still shows one of them was written past the catalog, or translated only in part.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import rules
from controller.i18n import DEFAULT, DOMAIN, LOCALE_DIR, use
from controller.session import Session
from controller.text.board import legend
from tests.catalog_words import PLACEHOLDER, WORD, notation_removed
from tests.panel_words import WordWatch, terminal_texts, walk_menu_and_setup, window_texts

SEED = 27


@pytest.fixture(autouse=True)
def german() -> Iterator[None]:
    use("de")
    yield
    use(DEFAULT)


def _words(text: str, notation: bool = True) -> set[str]:
    """The words of ``text``, lower case; without what every language writes alike
    unless ``notation`` is False (the catalog's own texts: "backgammon" as a kind of
    win is a word there)."""
    plain = PLACEHOLDER.sub(" ", text)
    plain = notation_removed(plain) if notation else plain
    return {word.lower() for word in WORD.findall(plain) if any(c.isalpha() for c in word)}


@cache
def english_words() -> frozenset[str]:
    """Words of the English texts that no German text uses (module docstring)."""
    path = LOCALE_DIR / "de" / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="de")
    english: set[str] = set()
    german: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in ids:
            english |= _words(text, notation=False)
        for text in strings:
            german |= _words(text, notation=False)
    return frozenset(word for word in english - german if len(word) > 1)


def english_in(texts: dict[str, set[str]]) -> list[str]:
    found = []
    stop = english_words()
    for text in sorted(texts):
        words = sorted(w for w in _words(text) if w in stop)
        if words:
            found.append(f"{text!r} ({', '.join(sorted(texts[text]))}): {', '.join(words)}")
    return found


def test_the_list_of_english_words_is_the_catalogs_own() -> None:
    stop = english_words()
    for word in ("you", "wins", "the", "next"):
        assert word in stop
    for word in ("backgammon", "gammon", "bar"):
        assert word not in stop


def read(watch: WordWatch, size: int = 16) -> dict[str, set[str]]:
    texts: dict[str, set[str]] = {}
    words = watch.words
    for where, found in (
        ("panel", words.panel()),
        ("status line", words.status_lines()),
        ("window", window_texts(words.statuses, size)),
    ):
        for text in found:
            texts.setdefault(text, set()).add(where)
    return texts


@pytest.mark.parametrize("game", rules.game_names())
def test_a_german_game_shows_no_english_word(tmp_path: Path, game: str) -> None:
    preset = rules.default_preset(game)
    count = max(rules.get_game(game, preset).player_counts)
    kinds = ["human"] + ["bot"] * (count - 1) + ["empty"] * (4 - count)
    watch = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        watch.start(Session.start(game, preset, kinds, seed=SEED, bot="random"))
        assert watch.play_out() >= 1
    finally:
        watch.close()
    found = english_in(read(watch))
    assert not found, f"{len(found)} German screens with English words:\n" + "\n".join(found)


def test_the_german_menu_setup_and_legends_show_no_english_word(tmp_path: Path) -> None:
    watch = WordWatch(tmp_path, seats=("human", "bot", "bot", "bot"))
    try:
        watch.start()
        walk_menu_and_setup(watch)
    finally:
        watch.close()
    texts = read(watch)
    for text in terminal_texts() | {legend(game) for game in rules.game_names()}:
        texts.setdefault(text, set()).add("terminal")
    found = english_in(texts)
    assert not found, f"{len(found)} German screens with English words:\n" + "\n".join(found)
