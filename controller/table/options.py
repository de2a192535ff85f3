"""The table's knobs (timing and behaviour, set from the config) and its menu.

Why apart from the table: the config, the simulator's ``--fast`` and the tests build
options without a table, and a menu is data, not behaviour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import rules
from controller import names
from controller.games import presentation
from controller.players.person import Person
from controller.scene import MenuItem
from rules.core import State


def default_menu(
    first_game: str | None = None, first_preset: str | None = None
) -> tuple[MenuItem, ...]:
    """One entry per game, by its real title, ``first_game`` first; the rule set is
    chosen in setup and starts at the game's default (``first_preset`` for the first)."""
    games = sorted(rules.game_names(), key=lambda g: (presentation(g).menu_place, g))
    if first_game in games:
        games.remove(first_game)
        games.insert(0, first_game)
    items = []
    for name in games:
        preset = rules.default_preset(name)
        if name == first_game and first_preset in rules.presets(name):
            preset = first_preset
        items.append(MenuItem(name, preset, names.title(name)))
    return tuple(items)


@dataclass
class TableOptions:
    """Timing and behaviour knobs; the config file sets these (controller.config)."""

    seat_count: int = 4
    move_timer_s: float | None = None
    """A move timer for every game and preset (None: only presets that have one)."""
    preset_timer_s: float | None = None
    """The length of the timer of presets that have one (Lingo); 0 switches it off."""
    physical_dice: bool = False
    bot: str = "strong"
    hints: bool = True
    """Light the best move for human players in games with an exact, instant policy
    (Mini-Maki: the optimal red step, rules/bot_minimaki)."""
    default_seats: tuple[str, ...] = ()
    """What setup offers per seat first ("human", "bot", "empty"); from the config."""
    bot_delay_s: float = 0.6
    """How long a bot's roll and its chosen move stay in view before they happen."""
    fast_factor: float = 0.15
    """Delays and animations while a held OK hurries the bots along."""
    sleep_after_s: float = 600.0
    """Seconds without a press (while waiting for a person) before the panel sleeps;
    0 never sleeps."""
    time_up_s: float = 1.2
    """How long "time!" shows when the move timer runs out, before the move is made."""
    match_banner_s: float = 6.0
    """The least time the score of a match shows after each of its games. A longer
    score stays up for one whole pass of its text, measured at the panel's size like
    every banner (:meth:`controller.table.banner.Banner.show`), not guessed from its
    length: a guess per character over-stayed a 16×16 panel's banner by about 3 s."""
    coach_s: float = 4.0
    """The least time the coach's words show over the board (a longer text stays for
    one whole pass)."""
    forced_delay_s: float = 0.8
    roll_time_s: float = 0.6
    step_time_s: float = 0.12
    checker_step_time_s: float = 0.28
    """Backgammon: one die's checker step (the view walks it point by point)."""
    capture_time_s: float = 0.5
    winner_time_s: float = 6.0
    message_time_s: float = 4.0
    shutdown_hold_s: float = 6.0
    frame_interval_s: float = 1 / 30
    """Frame pacing of the farewell animation at shutdown (the table's own frames are
    drawn exactly when the picture changes)."""
    menu: tuple[MenuItem, ...] = field(default_factory=default_menu)
    last_setups: dict[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)
    """Each game's last setup (rule set, seats), read from the state directory at
    start (:mod:`controller.setup_memory`): setup starts from it."""
    last_people: dict[str, dict[int, str]] = field(default_factory=dict)
    """Each game's named seats when it was last begun (seat -> player id), read with
    ``last_setups``: setup proposes the same names again, also after a restart."""
    named_players: Callable[[], tuple[Person, ...]] = tuple
    """The family's named players (``controller.players.book.read`` of the state
    directory), read each time setup opens, since the page may have changed them.
    With none kept, setup has no name rows and costs no press more."""

    def retime(self, move_timer_s: float | None, sleep_after_s: float) -> None:
        """The companion page's settings: the move timer and the sleep time from now
        on (a timer already counting runs out as it began)."""
        self.preset_timer_s = move_timer_s
        self.sleep_after_s = sleep_after_s


FAST_PACE: dict[str, float] = {
    "bot_delay_s": 0.15,
    "forced_delay_s": 0.3,
    "roll_time_s": 0.3,
    "step_time_s": 0.06,
    "checker_step_time_s": 0.12,
    "capture_time_s": 0.25,
    "winner_time_s": 3.0,
}
"""The short delays of ``spieltisch sim --fast``: a whole game at a glance."""


def move_timer_seconds(options: TableOptions, state: State) -> float:
    """Seconds for a move in ``state``, 0 for no timer (Lingo house rule 8 sets one):
    the configured timer for every game, else the rule set's own (its length from the
    config where it sets one)."""
    if options.move_timer_s is not None:
        return options.move_timer_s
    preset_timer = rules.preset_facts(state.game).move_timer_s
    if preset_timer and options.preset_timer_s is not None:
        return options.preset_timer_s
    return preset_timer
