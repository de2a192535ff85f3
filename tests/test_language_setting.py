"""The table's language: chosen in the config or with ``sim --lang``, else the locale's.

A language the table has no words for is an error like any other: one line, exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import i18n
from controller.cli import main
from controller.config import ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _english_afterwards() -> object:
    yield None
    i18n.use("en")


def test_the_example_config_and_so_the_installed_one_speak_german() -> None:
    assert load_config(ROOT / "config.example.toml").language == "de"


def test_without_a_setting_the_config_leaves_the_language_to_the_locale() -> None:
    config = parse_config({"display": {"type": "dummy"}})
    assert config.language is None
    assert i18n.table_language(config.language, {"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.table_language(config.language, {}) == "en"
    assert i18n.table_language("en", {"LANG": "de_DE.UTF-8"}) == "en"


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ('"xx"', "table.language: 'xx' is not allowed; allowed: 'de', 'en'"),
        ("3", "table.language: expected a string, got 3 (integer)"),
    ],
)
def test_a_language_the_table_lacks_is_one_config_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str, error: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(f'[table]\nlanguage = {value}\n[display]\ntype = "dummy"\n', "utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.errors == [f"{path}: {error}"]
    assert main(["config", "check", str(path)]) == 2
    assert capsys.readouterr().err == f"spieltisch: error: {path}: {error}\n"
    assert main(["sim", "--display", "text", "--config", str(path)]) == 2
    assert capsys.readouterr().err == f"spieltisch: error: {path}: {error}\n"


def test_an_unknown_key_in_the_table_section_is_named() -> None:
    with pytest.raises(ConfigError, match=r"table.lang: unknown key; allowed: language"):
        parse_config({"display": {"type": "dummy"}, "table": {"lang": "de"}})


def test_sim_with_an_unknown_language_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["sim", "--display", "text", "--lang", "xx"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "spieltisch: error: language 'xx' is not one the table speaks (choose de or en)\n"
    )


def test_sim_lang_overrides_the_config_and_the_text_board_speaks_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[table]\nlanguage = "en"\n[display]\ntype = "dummy"\n', "utf-8")
    argv = ["sim", "--display", "text", "--config", str(path), "--game", "maedn"]
    argv += ["--players", "2", "--seed", "3", "--delay", "0"]
    assert main([*argv, "--lang", "de"]) == 0
    assert i18n.active_language() == "de"
    german = capsys.readouterr().out
    assert main(argv) == 0
    assert i18n.active_language() == "en"
    english = capsys.readouterr().out
    assert german != english
