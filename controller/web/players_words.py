"""The Players page's words, merged into the page words (controller.web.page_words)
so that every page is built in every language."""

from __future__ import annotations

from controller.i18n import N_

WORDS: dict[str, str] = {
    "nav.players": N_("Players"),
    "title.players": N_("Players"),
    "players.title": N_("Players with names"),
    "players.intro": N_(
        "At setup each human seat can be given one of these names (or stay a guest);"
        " the table then calls the player by name, and the history counts their games."
        " A player removed here keeps their games, under their name."
    ),
    "players.unpaired": N_("Changing the names needs a paired phone:"),
    "players.unpaired_link": N_("pair it on the Live page first"),
    "players.none": N_("No names yet: every player is a guest."),
    "players.new": N_("New player's name"),
    "players.add": N_("Add"),
    "players.rename": N_("Rename"),
    "players.remove": N_("Remove"),
    "players.name_of": N_("Name of {name}"),
    "players.confirm_remove": N_("Remove {name}? Their games stay in the history."),
    "players.boards": N_("Leaderboards"),
    "players.leaderboard": N_("leaderboard"),
    "players.no_boards": N_("No finished games by named players yet."),
    "players.line": N_("{name}: {won} won of {games}"),
}
