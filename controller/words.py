"""The table's words for things every game shares: the players' colours, the seat kinds.

Why one place: the same colour is named on the panel, in the status line, in the
window's seat labels and in the statistics, and must be the same word everywhere, in
every language (German uses the rule texts' rot, blau, grün, gelb). The rules and the
saves keep their own names ("red", "white", "human"); these functions only turn them
into words for a person, at the moment they are shown.
"""

from __future__ import annotations

from controller.i18n import N_, _, pgettext

BOT_WORDS = {
    "random": N_("easy"),
    "beginner": N_("beginner"),
    "casual": N_("casual player"),
    "advanced": N_("advanced"),
    "expert": N_("expert"),
    "strong": N_("strong"),
}
"""The bots' kinds (``rules.bots.BOT_KINDS``, weakest first) as a family names them:
the levels' family names ("Anfänger", "Gelegenheitsspieler", "Fortgeschritten",
"Profi" in German)."""


def bot_word(kind: str) -> str:
    """A bot kind (``"beginner"``, ``"strong"``) as a word; an unknown kind as it is."""
    word = BOT_WORDS.get(kind)
    return kind if word is None else _(word)


def colour_word(colour: str) -> str:
    """The colour a player is drawn in (``"red"``, ``"orange"``) as a word."""
    words = {
        "red": pgettext("colour", "red"),
        "blue": pgettext("colour", "blue"),
        "green": pgettext("colour", "green"),
        "yellow": pgettext("colour", "yellow"),
        "orange": pgettext("colour", "orange"),
        "white": pgettext("colour", "white"),
        "black": pgettext("colour", "black"),
        "sky": pgettext("colour", "sky"),
        "purple": pgettext("colour", "purple"),
        # Sides the rules name by number (the text board and the history use them).
        "player1": pgettext("side", "player1"),
        "player2": pgettext("side", "player2"),
    }
    return words.get(colour, colour)


def seat_word(kind: str) -> str:
    """Who sits at a seat (``"human"``, ``"coached"``: a human with the coach, ``"bot"``,
    ``"empty"``, ``"you"``) as a word."""
    words = {
        "human": pgettext("seat", "human"),
        "coached": pgettext("seat", "coached"),
        "bot": pgettext("seat", "bot"),
        "empty": pgettext("seat", "empty"),
        "phone": pgettext("seat", "phone"),
        "you": pgettext("seat", "you"),
    }
    return words.get(kind, kind)
