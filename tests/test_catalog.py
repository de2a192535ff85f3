"""The word catalogs: current with the source, complete in German, chosen by locale."""

from __future__ import annotations

import pytest

from controller import i18n
from controller.i18n import update


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield None
    i18n.use("en")


def test_catalogs_are_current_with_the_source_and_complete() -> None:
    wanted, todo = update.plan()
    stale = [str(path) for path, data in wanted.items() if path.read_bytes() != data]
    assert not stale, "run python -m controller.i18n.update"
    assert todo == []


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_AT@euro"}, "de"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "de_DE.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "de_CH.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:de", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),
    ],
)
def test_the_default_language_follows_the_locale(environ: dict[str, str], language: str) -> None:
    assert i18n.language_from_environment(environ) == language


def test_a_language_the_table_does_not_speak_is_one_clear_error() -> None:
    with pytest.raises(i18n.UnknownLanguage) as caught:
        i18n.check_language("xx")
    assert str(caught.value) == "language 'xx' is not one the table speaks (choose de or en)"
    assert len(str(i18n.UnknownLanguage("x" * 10_000))) < 100


def test_the_pseudo_language_marks_every_text() -> None:
    i18n.use(i18n.PSEUDO)
    assert i18n._("time!") == "⟦time!⟧"
    assert i18n.ngettext("{n} game", "{n} games", 3) == "⟦{n} games⟧"
    assert i18n.pgettext("colour", "orange") == "⟦orange⟧"


def test_english_is_the_source_text() -> None:
    i18n.use("en")
    assert i18n._("time!") == "time!"
    assert i18n.ngettext("{n} game", "{n} games", 1) == "{n} game"


def test_the_german_catalog_ships_compiled_and_loads() -> None:
    catalog = i18n.translations("de")
    assert catalog.info()["language"] == "de"
    assert "nplurals=2" in catalog.info()["plural-forms"]
