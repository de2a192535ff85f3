"""The table's words in the players' language, through GNU gettext catalogs.

Every word a player sees (panel, status line, window, terminal legend, history text)
is written in English in the source and looked up here, so a family reads German. The
catalogs are ordinary gettext files shipped inside the package: ``<lang>.po`` in the
source for translators, the compiled ``.mo`` beside it for Python's :mod:`gettext`
(``tests/test_catalog.py`` checks that they agree and that the German one is complete).

One language is active at a time, for the whole process: a table has one panel, and the
words follow its setting (:func:`use`). Views stay pure functions of their scene; the
language is part of the table's configuration, like the panel's size.

Besides the real languages there is a pseudo-language, :data:`PSEUDO`, used only by
tests: it returns every translated text between :data:`MARK_OPEN` and
:data:`MARK_CLOSE`, so a test that plays whole games can tell a word that came through
the catalog from one that was written into the screen directly.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from functools import cache
from pathlib import Path

DOMAIN = "spieltisch"
LANGUAGES = ("de", "en")
"""The languages the table speaks; English is the source language and the fallback."""
DEFAULT = "en"
PSEUDO = "qps"
MARK_OPEN = "⟦"
MARK_CLOSE = "⟧"
LOCALE_DIR = Path(__file__).with_name("locale")

# The locale variables in the order gettext itself reads them.
_LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


class UnknownLanguage(ValueError):
    """A language the table has no words for (a config error, like any other)."""

    def __init__(self, language: str) -> None:
        shown = language if len(language) <= 20 else language[:20] + "…"
        super().__init__(
            f"language {shown!r} is not one the table speaks (choose {' or '.join(LANGUAGES)})"
        )


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The table's language from the locale (``de_DE.UTF-8`` -> ``de``), else English.

    The first locale variable that is set decides, as in gettext; ``LANGUAGE`` may list
    several languages (``fr:de``), and the first one the table speaks is taken. ``C`` and
    ``POSIX`` mean English."""
    for name in _LOCALE_VARIABLES:
        value = environ.get(name, "")
        if not value:
            continue
        for entry in value.split(":"):
            code = entry.split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if name != "LANGUAGE":
            return DEFAULT
    return DEFAULT


def check_language(language: str) -> str:
    """``language`` if the table speaks it; :class:`UnknownLanguage` otherwise."""
    if language not in LANGUAGES:
        raise UnknownLanguage(language)
    return language


def table_language(setting: str | None, environ: Mapping[str, str]) -> str:
    """The language a table starts in: its config's (or ``--lang``), else the locale's."""
    return check_language(setting) if setting is not None else language_from_environment(environ)


class _Pseudo(gettext.NullTranslations):
    """Marks every text it is asked for, translated or not (module docstring)."""

    def gettext(self, message: str) -> str:
        return f"{MARK_OPEN}{message}{MARK_CLOSE}"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language``: English is the source text itself."""
    if language == PSEUDO:
        return _Pseudo()
    if check_language(language) == DEFAULT:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language])


_active: list[gettext.NullTranslations] = [gettext.NullTranslations()]
_active_language: list[str] = [DEFAULT]


def use(language: str) -> None:
    """Make ``language`` the table's language from now on."""
    _active[0] = translations(language)
    _active_language[0] = language


def active_language() -> str:
    return _active_language[0]


def _(message: str) -> str:
    """``message`` in the active language."""
    return _active[0].gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the active language ("1 Spiel", "3 Spiele")."""
    return _active[0].ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the active language, where the same English word needs different
    words in German (``context`` says which: "colour", "button", …)."""
    return _active[0].pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it yet: for texts kept in
    tables at import time and translated where they are shown."""
    return message
