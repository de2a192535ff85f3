"""Did every word come through the catalog? Reading screens written in the pseudo-language.

Under :data:`controller.i18n.PSEUDO` every translated text comes back as its msgid
between ``⟦`` and ``⟧``, with whatever was put into its placeholders inside. A word a
player can read is accounted for only if it is part of a catalog text:

* outside every ``⟦…⟧`` only numbers, notation ("24/23", "r2c5", "5-7", "x2"), the
  keys' letters and symbols may stand;
* inside one, the text must be a msgid of the catalog with its placeholders filled, and
  what filled each placeholder must again be marked, or numbers, notation or symbols.
  That is what catches ``_("{player} wins").format(player="red")``: the frame is
  marked, the colour in it is not.

A marked text that matches no msgid was looked up under a name the catalog does not
have (``_(variable)``): German would show it in English, so it is reported too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from babel.messages.pofile import read_po

import rules
from controller.i18n import DOMAIN, LOCALE_DIR, MARK_CLOSE, MARK_OPEN
from controller.names import title
from hardware.keyboard import DEFAULT_KEYS

HOLE = "\x00"
"""Stands for a nested marked text while its surrounding text is matched."""
KEY_LETTERS = frozenset(DEFAULT_KEYS)
"""The keyboard's keys are single letters ("q/a"): symbols, not words."""
NOTATION = re.compile(r"(?:[A-Za-z]?\d+)+[A-Za-z]?|[A-Za-z]\d*")
"""A word that is notation: digits with single letters between or around them."""
BACKGAMMON_POINTS = re.compile(r"\b(?:bar/(?=\d)|(?<=[\d*]/)off\b)")
"""Backgammon's move notation ("bar/20", "6/off", as in the history and the save files)
is the same in every language: its two words count as notation where they stand in it."""
WORD = re.compile(r"[^\W_]+", re.UNICODE)
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sdif]|%[sdif]")
QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
"""Quoted text is what someone typed (a config value): shown as it was written."""
DOTTED = re.compile(r"[\w-]+(?:\.[\w-]+)+")
"""A config key or a file name ("game.bot", "session.json.bad-2026…"): written as the
file system and the config file spell it, in every language."""


def notation_removed(text: str) -> str:
    """``text`` without what is the same in every language: quoted input, config keys
    and file names, Backgammon's points, the games' own names."""
    text = DOTTED.sub(" ", QUOTED.sub(" ", text))
    return game_titles().sub(" ", BACKGAMMON_POINTS.sub(" ", text))


@cache
def game_titles() -> re.Pattern[str]:
    """The games' own names ("Mensch ärgere dich nicht", "Backgammon") are names, the
    same at every table: they may stand unmarked (their words are not checked)."""
    names = sorted((title(game) for game in rules.game_names()), key=len, reverse=True)
    return re.compile("|".join(re.escape(name) for name in names))


@dataclass(frozen=True)
class Marked:
    """One ``⟦…⟧``: its parts, plain strings and the marked texts nested in them."""

    parts: tuple[str | Marked, ...]


def parse(text: str) -> tuple[str | Marked, ...]:
    """``text`` as plain runs and marked texts. A mark cut off by a shortened line runs
    to the end; a closing mark without its opening is dropped."""
    stack: list[list[str | Marked]] = [[]]
    run = ""
    for char in text:
        if char == MARK_OPEN:
            if run:
                stack[-1].append(run)
            run = ""
            stack.append([])
        elif char == MARK_CLOSE:
            if run:
                stack[-1].append(run)
            run = ""
            if len(stack) > 1:
                inner = stack.pop()
                stack[-1].append(Marked(tuple(inner)))
        else:
            run += char
    if run:
        stack[-1].append(run)
    while len(stack) > 1:
        inner = stack.pop()
        stack[-1].append(Marked(tuple(inner)))
    return tuple(stack[0])


def plain_leftovers(text: str) -> list[str]:
    """Words in ``text`` (outside any mark) that are not numbers, notation or keys."""
    found = []
    for word in WORD.findall(notation_removed(text)):
        if not any(char.isalpha() for char in word):
            continue
        if NOTATION.fullmatch(word) and (len(word) > 1 or word.lower() in KEY_LETTERS):
            continue
        found.append(word)
    return found


@cache
def msgids() -> tuple[str, ...]:
    """Every text of the catalog template (singular and plural forms)."""
    path = LOCALE_DIR / f"{DOMAIN}.pot"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        found += [message.id] if isinstance(message.id, str) else list(message.id)
    return tuple(found)


@cache
def _patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    patterns = []
    for msgid in msgids():
        pieces = PLACEHOLDER.split(msgid.replace("{{", "{").replace("}}", "}"))
        body = "(.*?)".join(re.escape(piece) for piece in pieces)
        patterns.append((msgid, re.compile(body, re.IGNORECASE | re.DOTALL)))
    return tuple(patterns)


@cache
def _fills(content: str) -> tuple[str, ...] | None:
    """What filled the placeholders of the msgid ``content`` is, None for no msgid.
    Where several msgids fit ("{who}: {what}" fits nearly anything), the reading that
    leaves the fewest unmarked words is taken: the text came through that one."""
    best: tuple[int, tuple[str, ...]] | None = None
    for _msgid, pattern in _patterns():
        match = pattern.fullmatch(content)
        if match is None:
            continue
        groups = match.groups()
        left = sum(len(plain_leftovers(group.replace(HOLE, " "))) for group in groups)
        if best is None or left < best[0]:
            best = (left, groups)
        if left == 0:
            break
    return None if best is None else best[1]


def leftovers(text: str) -> list[str]:
    """Everything readable in ``text`` that did not come through the catalog, each as a
    short explanation; an empty list means every word did."""
    found: list[str] = []
    _check(parse(text), found, top=True)
    return found


def _check(parts: tuple[str | Marked, ...], found: list[str], top: bool) -> None:
    for part in parts:
        if isinstance(part, str):
            if top:
                found += plain_leftovers(part)
            continue
        content = "".join(HOLE if isinstance(p, Marked) else p for p in part.parts)
        fills = _fills(content)
        if fills is None:
            shown = content.replace(HOLE, "…")
            found.append(f"{MARK_OPEN}{shown}{MARK_CLOSE} is no catalog text")
        else:
            for fill in fills:
                found += plain_leftovers(fill.replace(HOLE, " "))
        _check(part.parts, found, top=False)


def report(texts: dict[str, set[str]]) -> list[str]:
    """One line per text with leftovers: where it was seen, the text, what is left."""
    lines = []
    for text in sorted(texts):
        left = leftovers(text)
        if left:
            where = ", ".join(sorted(texts[text]))
            lines.append(f"{text!r} ({where}): {', '.join(dict.fromkeys(left))}")
    return lines
