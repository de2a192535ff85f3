"""The companion page's words, in the table's language, from the table's own catalog.

The pages are fixed files with no build step, so their words cannot be compiled into
them. Instead every word a page shows is here, marked with ``N_`` so that
``python -m controller.i18n.update`` puts it into the same catalog as the panel's words
(the German one must stay complete, as for the panel). The server hands a page its
words two ways: the HTML files hold ``{{key}}`` where a word goes, filled in before the
file is sent (so the first paint is already German), and the words the scripts build
their lines from travel inside the page as a JSON data block, so no script holds an
English label. ``{name}`` in a word is filled in by the script (``t`` in common.js).

Which language: the one the table was told to speak (its config's ``[table] language``
or ``--lang``), because the page belongs to the table and a family set it once. Only
where that is left open does the browser's ``Accept-Language`` choose (among the
languages the table speaks), and failing that the table's own, which came from the
system's locale: the same order the table itself follows, with the visitor's browser
standing in for the locale it has no say over.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache

import rules
from controller import i18n
from controller.config import PLAYERS
from controller.games import presentation, preset_name_in, title
from controller.i18n import N_
from controller.web import maintenance_words, players_words
from controller.words import BOT_WORDS

WORDS: dict[str, str] = {
    # every page
    "nav.live": N_("Live"),
    "nav.setup": N_("Setup"),
    "nav.history": N_("History"),
    "title.setup": N_("Setup"),
    "title.history": N_("History"),
    # the live page
    "live.connecting": N_("connecting…"),
    "live.panel": N_("the table's LED panel"),
    "live.waiting": N_("waiting for the table…"),
    "live.live": N_("live"),
    "live.offline": N_("offline, reconnecting…"),
    "live.dice": N_("dice: {dice}"),
    "live.seat": N_("seat {n}"),
    "live.to_play": N_("to play"),
    "live.code_again": N_("The table has restarted or forgotten this phone: pair it again."),
    "pair.title": N_("Pair this phone"),
    "pair.intro": N_(
        "Watching needs nothing. To play a phone seat, show a code on the table and type it here."
    ),
    "pair.show": N_("Show a code on the table"),
    "pair.code": N_("Code"),
    "pair.pair": N_("Pair"),
    "pair.shown": N_("the code is on the table now"),
    "live.code_shown": N_(
        "A pairing code is on the table: this picture waits until the code is used or gone."
    ),
    "phone.title": N_("Phone seat"),
    "phone.seat": N_("Seat"),
    "phone.ok": N_("OK / ROLL"),
    "phone.next": N_("NEXT"),
    "phone.hint": N_("Hold NEXT to jump to the next piece, as on the table."),
    "phone.yours": N_("You play: {seat}"),
    "phone.seat_gone": N_("This seat is not played from a phone in this game."),
    # the setup page
    "phones.title": N_("Paired phones"),
    "phones.none": N_("No phone is paired."),
    "phones.unknown": N_("a phone"),
    "phones.paired_at": N_("paired {when}"),
    "phones.this": N_("this phone"),
    "phones.forget": N_("Forget"),
    "phones.forgotten": N_("forgotten: that phone must pair again"),
    "phones.forget_all_title": N_("Forget every phone"),
    "phones.forget_all_intro": N_(
        "For the table's owner: show a code on the table and type it here. Every paired"
        " phone, this one too, must then pair again."
    ),
    "phones.forget_all": N_("Forget every phone"),
    "phones.forgot_all": N_("phones forgotten: {count}"),
    "setup.unpaired": N_("Changing the setup needs a paired phone:"),
    "setup.unpaired_link": N_("pair it on the Live page first"),
    "setup.game": N_("Game"),
    "setup.preset": N_("Rule set"),
    "setup.seats": N_("Seats"),
    "setup.seat": N_("Seat {n}"),
    "setup.who": N_("who plays at seat {n}"),
    "setup.guest": N_("guest"),
    "setup.bot": N_("Bot strength"),
    "setup.move_timer": N_("Move timer (s, 0 = off)"),
    "setup.brightness": N_("Brightness (0–1)"),
    "setup.sleep": N_("Sleep after (min, 0 = never)"),
    "setup.language": N_("Language"),
    "setup.start": N_("Start a game"),
    "setup.save": N_("Save settings"),
    "setup.default_preset": N_("default ({preset})"),
    "setup.locale": N_("as the system's locale"),
    "setup.no_language_key": N_("(this version of the table has no language setting yet)"),
    "setup.saves_to": N_("Saving writes {path} (its comments are not kept)."),
    "setup.no_file": N_("No config file: the simulator can start a game, not save."),
    "setup.saved": N_(
        "saved to {path}: the move timer, the brightness and the sleep time apply now,"
        " the rest from the next start"
    ),
    "setup.started": N_("started {game} ({preset}) on the table"),
    "setup.refused": N_("refused"),
    "setup.not_saved": N_("not saved: see the fields marked"),
    "setup.not_started": N_("not started: see the fields marked"),
    "setup.marked": N_("{what} ({fields})"),
    "setup.when": N_(
        "Saved settings: those marked “at once” change the running table now, the others"
        " wait for its next start. Start a game uses the game, rule set, seats and bot"
        " strength at once."
    ),
    "setup.when_next": N_("next start"),
    "setup.when_now": N_("at once"),
    "setup.when_turn": N_("at once, from the next turn"),
    # the history page
    "history.game": N_("Game"),
    "history.player": N_("Player"),
    "history.from": N_("From"),
    "history.to": N_("To"),
    "history.all": N_("all"),
    "history.show": N_("Show"),
    "history.games": N_("Games"),
    "history.ended": N_("ended"),
    "history.col_game": N_("game"),
    "history.players": N_("players"),
    "history.result": N_("result"),
    "history.moves": N_("moves"),
    "history.replay": N_("the panel during the replay"),
    "history.first": N_("first"),
    "history.back": N_("back"),
    "history.forward": N_("forward"),
    "history.last": N_("last"),
    "history.step": N_("step"),
    "history.download": N_("Download:"),
    "history.mat": N_(".mat (GNU Backgammon)"),
    "history.statistics": N_("Statistics"),
    "history.dice_title": N_("Players and their dice"),
    "history.dice_hint": N_(
        "Each face of a fair die comes up in a sixth of the throws (the dashed line)."
        " The χ² test says how likely a spread at least this uneven is with fair dice:"
        " p below 0.01 is unusual."
    ),
    "history.abandoned": N_("abandoned"),
    "history.won": N_("{winner} won"),
    "history.finished": N_("finished"),
    "history.count_one": N_("{n} game"),
    "history.count": N_("{n} games"),
    "history.newest_shown": N_("{n} games, the newest {shown} shown"),
    "history.detail": N_("Game {id}: {game} · {preset} · {result}"),
    "history.rolls": N_("rolls {dice}"),
    "history.plays": N_("plays {move}"),
    "history.opening": N_("opening roll: {throws}"),
    "history.step_opening": N_("step {n} of {total}: {what}"),
    "history.open": N_("show game {id}"),
    "history.start": N_("the start"),
    "history.step_of": N_("step {n} of {total}: {player} {what}"),
    "history.expected": N_("exp"),
    "history.no_dice": N_("no dice yet"),
    "history.too_few": N_("too few dice to tell"),
    "history.unusual": N_("unusual: worth a look"),
    "history.fair": N_("consistent with fair dice"),
    "history.chi": N_("{dice} dice, χ² = {chi2} (5 df), p = {p}: {verdict}"),
    "history.game_counts": N_("{kept} kept, {finished} finished; {moves} moves, {rolls} rolls"),
    "history.wins_per_colour": N_("wins per colour"),
    "history.chart_wins": N_("{name}: wins per colour"),
    "history.chart_dice": N_("{name}: dice"),
    "history.player_games_one": N_("{n} game, {won} won; the faces of the dice:"),
    "history.player_games": N_("{n} games, {won} won; the faces of the dice:"),
    "history.stats_limit": N_("statistics of the newest {n} games matching"),
}
"""Key -> English word; the pages and scripts name words by key only."""

# The bots' kinds as Setup and the History name them (``bot.<kind>``): the table's own
# words for them (``controller.words.BOT_WORDS``), imported above.
PASS = N_("cannot move")
"""A replay's pass (``move.pass``), in every game; a game's own words for the moves it
names by a word are ``move.<game>.<notation>`` (its presentation's ``replay_words``)."""
COLOURS = ("red", "blue", "green", "yellow", "orange", "white", "black", "sky", "purple")
"""The colours a side is drawn in, named as the panel names them (``colour.<name>``)."""

LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}
"""Each language in its own words: a German family looking for German finds it even on
a page still in English."""

PLACEHOLDER = re.compile(r"\{\{([a-z_.]+)\}\}")


def page_language(setting: str | None, accept_language: str | None, table: str) -> str:
    """The language of a page: the table's setting, else the browser's first choice
    the table speaks, else ``table`` (the language the table fell back to itself)."""
    if setting is not None:
        return setting
    for code in browser_languages(accept_language or ""):
        if code in i18n.LANGUAGES:
            return code
    return table if table in i18n.LANGUAGES else i18n.DEFAULT


def browser_languages(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, best first (``de-AT`` -> ``de``;
    ``q=0`` means "not this one"). A malformed entry is skipped, never an error."""
    ranked: list[tuple[float, int, str]] = []
    for index, entry in enumerate(header.split(",")[:32]):
        tag, _, params = entry.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        if not code.isalpha():
            continue
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                continue
        if quality > 0:
            ranked.append((-quality, index, code))
    return [code for _q, _i, code in sorted(ranked)]


@cache
def words(language: str) -> dict[str, str]:
    """Every page word in ``language``: the pages' own, and the table's names of seat
    kinds, bots, colours, games and rule sets, so that the scripts get ids from the
    server and show no id and no English word on a page in another language."""
    catalog = i18n.translations(language)
    found = {key: catalog.gettext(text) for key, text in WORDS.items()}
    for kind in PLAYERS:
        found[f"player.{kind}"] = catalog.pgettext("seat", kind)
    for code, name in LANGUAGE_NAMES.items():
        found[f"language.{code}"] = name
    for kind, word in BOT_WORDS.items():
        found[f"bot.{kind}"] = catalog.gettext(word)
        # a seat set up as a bot of this kind: "Computer (Anfänger)"
        found[f"player.{kind}"] = f"{catalog.pgettext('seat', 'bot')} ({catalog.gettext(word)})"
    found["move.pass"] = catalog.gettext(PASS)
    for colour in COLOURS:
        found[f"colour.{colour}"] = catalog.pgettext("colour", colour)
    for side in ("player1", "player2"):
        found[f"colour.{side}"] = catalog.pgettext("side", side)
    for game in rules.game_names():
        found[f"game.{game}"] = title(game)
        for preset in rules.presets(game):
            word = preset_name_in(game, preset, catalog.gettext)
            if word == preset.replace("_", " "):  # a name of no family's own: the word
                word = catalog.gettext(word)
            found[f"preset.{game}.{preset}"] = word
        for notation, word in presentation(game).replay_words.items():
            found[f"move.{game}.{notation}"] = catalog.gettext(word)
    return found


def render(page: str, language: str) -> bytes:
    """``page`` (one of the static HTML files) with its words filled in, ``lang`` set and
    the scripts' words inside it. An unknown key is a ``KeyError``: the server builds
    every page in every language when it starts, and the tests start it."""
    found = words(language)

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "lang":
            return language
        if key == "words":
            # a data block, not a script: the page's policy runs no inline script, and
            # "<" is escaped so that no word can end the block early
            return json.dumps(found, ensure_ascii=False).replace("<", "\\u003c")
        return html.escape(found[key], quote=True)

    return PLACEHOLDER.sub(fill, page).encode("utf-8")


# The Care page's words live beside its routes (controller.web.maintenance_words).
WORDS.update(maintenance_words.WORDS)
WORDS.update(players_words.WORDS)
