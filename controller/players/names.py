"""What a player's name may be, checked before the table keeps it.

Why so strict: a name is shown on the panel, spoken, filtered on the page and written
into every record the person plays. One checked form keeps all of them the same: the
name in Unicode's composed form (NFC, so an "ö" typed as "o" and a combining
diaeresis is the same name as one typed as "ö"), its
spaces collapsed, between 1 and :data:`MAX_LENGTH` characters, with no control or
format characters (a line break or a right-to-left override would garble the status
line and the page), and not the guest's own word. Two names that differ only in case
("anna", "Anna") are the same person to a family, so they count as one; so do two that
the panel, whose fonts have ASCII and the German letters only, would draw alike ("🎲"
and "🐱" are both "?" there), and a name the panel would show with no letter at all.

Every refusal is a :class:`NameRefused` with an English sentence marked for the
catalog, which the page shows in its own language.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from controller.i18n import N_
from controller.views.fonts import panel_text

MAX_LENGTH = 20
"""Characters in a name: "Großmutter Hildegard" fits, and it scrolls past a 16-wide
panel in about eight seconds."""
GUEST_WORDS = ("gast", "guest")
"""The guest's word in every language the table speaks, casefolded: a person of that
name could not be told from "no one in particular"."""


class NameRefused(ValueError):
    """A name the table will not keep: ``message`` (marked ``N_``) says why, with
    ``values`` filled in."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))
        self.message = message
        self.values = values


def key(name: str) -> str:
    """What two names must not share: their casefolded NFC form."""
    return unicodedata.normalize("NFC", name).casefold()


def clean(raw: object, taken: Iterable[str] = (), *, on_panel: bool = True) -> str:
    """``raw`` as the name the table keeps, or :class:`NameRefused`.

    ``taken`` are the names already kept (the one being renamed left out). ``on_panel``
    False skips what the panel can draw: a file kept before that was checked still
    reads whole."""
    if not isinstance(raw, str):
        raise NameRefused(N_("a name must be text"))
    name = unicodedata.normalize("NFC", raw)
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise NameRefused(N_("a name may not hold control characters"))
    name = " ".join(name.split())
    if not name:
        raise NameRefused(N_("a name may not be empty"))
    if len(name) > MAX_LENGTH:
        raise NameRefused(N_("a name has at most {n} characters"), n=MAX_LENGTH)
    shown = panel_text(name).casefold()
    if name.casefold() in GUEST_WORDS or (on_panel and shown in GUEST_WORDS):
        raise NameRefused(N_("“{name}” is the guest's word: choose another name"), name=name)
    if on_panel and not any(ch.isalnum() for ch in shown):
        text = N_("the panel cannot show “{name}”: use letters or digits")
        raise NameRefused(text, name=name)
    for other in taken:
        if key(name) == key(other):
            raise NameRefused(N_("“{name}” is already a player"), name=name)
        if on_panel and panel_text(other).casefold() == shown:
            text = N_("“{name}” looks like “{other}” on the panel: choose another name")
            raise NameRefused(text, name=name, other=other)
    return name
