"""Named scenes for the view tests and the golden PNGs (tests/golden/<name>.png).

One place defines the moments we draw, so the golden test, the docs pictures and
the pixel tests agree on what each picture shows. The words in a scene are the table's
own, looked up where the table looks them up (a colour through ``names``, a win
through the catalog), so a factory called under German gives the German picture.
"""

from __future__ import annotations

from collections.abc import Callable

import rules
from controller import names
from controller.i18n import _
from controller.scene import (
    AnyScene,
    MenuItem,
    MenuScene,
    MessageScene,
    MoveAnimation,
    RollAnimation,
    Scene,
    SetupScene,
    Standing,
)
from rules.minimaki.engine import MinimakiState, Step
from rules.track.engine import MaednState
from tests.helpers import position

MENU_ITEMS = (
    MenuItem("maedn", "classic", "Mensch ärgere dich nicht"),
    MenuItem("kleiner_aerger", "standard", "Kleiner Ärger"),
    MenuItem("backgammon", "standard", "Backgammon"),
    MenuItem("minimaki", "standard", "Mini-Maki"),
)
MAEDN_COLOURS = ("red", "blue", "green", "yellow")


def colour(game: str, player: str) -> str:
    return names.colour_name(game, player)


def wins(game: str, player: str) -> str:
    """The game-over line's first words, as the table says them."""
    return _("{name} wins").format(name=colour(game, player))


def setup(kinds: tuple[str, ...], cursor: int, t: float, rules_shown: bool = False) -> SetupScene:
    return SetupScene(
        MENU_ITEMS[0],
        kinds,
        MAEDN_COLOURS,
        cursor,
        t=t,
        names=tuple(colour("maedn", c) for c in MAEDN_COLOURS),
        rules=names.preset_name("maedn", "lingo") if rules_shown else None,
    )


def maedn_midgame(preset: str = "lingo") -> MaednState:
    state = position(
        "maedn",
        preset,
        players=["red", "blue", "green", "yellow"],
        turn="red",
        dice=[3],
        pieces={
            "red": [0, 5, "home", "goal2"],
            "blue": [10, 7, "home", "home"],
            "green": [22, "goal4", "home", "home"],
            "yellow": [35, "home", "home", "home"],
        },
    )
    assert isinstance(state, MaednState)
    return state


def kleiner_midgame() -> MaednState:
    state = position(
        "kleiner_aerger",
        players=["red", "green"],
        turn="green",
        dice=[4],
        pieces={"red": [0, "out"], "green": [3, "goal1"]},
    )
    assert isinstance(state, MaednState)
    return state


def minimaki_midgame() -> MinimakiState:
    state = rules.get_game("minimaki").state_from_json(
        {
            "game": "minimaki",
            "black": [1, 3, 2, 1, 4, 1],
            "red": [4, 3],
            "round": 5,
            "to_move": "red",
            "result": None,
            "last_roll": [2, 5],
        }
    )
    assert isinstance(state, MinimakiState)
    return state


def _maedn_capture_anim() -> Scene:
    before = position(
        "maedn",
        "classic",
        players=["red", "blue", "green", "yellow"],
        turn="red",
        dice=[2],
        pieces={
            "red": [5, "home", "home", "home"],
            "blue": [7, "home", "home", "home"],
            "green": ["home"] * 4,
            "yellow": ["home"] * 4,
        },
    )
    move = before.parse_move("5-7")
    after = before.apply(move)
    return Scene(before, t=0.0, moving=MoveAnimation(move, before, after, 0.9))


SCENES: dict[str, Callable[[], AnyScene]] = {
    "maedn_lingo": lambda: Scene(maedn_midgame(), t=2.0, countdown=3.0, countdown_total=5.0),
    "maedn_preview": lambda: Scene(
        maedn_midgame(), t=0.3, preview=maedn_midgame().parse_move("5-8")
    ),
    "maedn_capture": _maedn_capture_anim,
    "maedn_rolling": lambda: Scene(
        maedn_midgame(), t=2.0, roll=RollAnimation(final=(6,), progress=0.4)
    ),
    "kleiner_aerger": lambda: Scene(kleiner_midgame(), t=2.0, countdown=1.0, countdown_total=5.0),
    "kleiner_aerger_winner": lambda: Scene(
        kleiner_midgame(), t=1.3, winner="green", banner=wins("kleiner_aerger", "green")
    ),
    "minimaki": lambda: Scene(minimaki_midgame(), t=0.1, hint=Step((4, 3), (3, 4))),
    "minimaki_preview": lambda: Scene(minimaki_midgame(), t=0.6, preview=Step((4, 3), (5, 3))),
    "menu": lambda: MenuScene(MENU_ITEMS, 0, t=0.5),
    "setup": lambda: setup(("human", "bot", "empty", "bot"), 1, 1.1),
    "setup_rules": lambda: setup(("human", "bot", "bot", "bot"), -1, 0.2, rules_shown=True),
    "setup_start": lambda: setup(("human", "bot", "bot", "bot"), 4, 0.2),
    "maedn_over": lambda: Scene(
        maedn_midgame("classic"),
        t=7.0,
        result=(
            Standing(wins("maedn", "blue"), "blue"),
            Standing(f"  2. {colour('maedn', 'red')}", "red"),
            Standing(f"  3. {colour('maedn', 'green')}", "green"),
            Standing(f"  4. {colour('maedn', 'yellow')}", "yellow"),
        ),
        result_since=6.5,
    ),
    "minimaki_lost": lambda: Scene(
        minimaki_midgame(), t=0.5, result=(Standing(_("you lost"), "black"),)
    ),
    "message": lambda: MessageScene(
        _("not saved: {problem}").format(problem=_("disk full")), t=1.5, kind="error"
    ),
    # the German letters, standing still where they fit, to judge them enlarged
    "letters_caps": lambda: MessageScene("ÄÖÜ", t=0.0),
    "letters_small": lambda: MessageScene("äöüß", t=0.0),
}
"""Scene name -> factory."""

SIZES: dict[str, list[tuple[int, int, str]]] = {
    "maedn": [(16, 16, "RGB"), (32, 32, "RGB")],
    "kleiner_aerger": [(16, 16, "RGB"), (32, 32, "RGB")],
    "minimaki": [(16, 16, "RGB"), (32, 32, "RGB"), (32, 8, "1"), (8, 8, "1")],
    "menu": [(16, 16, "RGB"), (32, 32, "RGB"), (32, 8, "1"), (8, 8, "1")],
}


def golden_cases() -> list[tuple[str, int, int, str]]:
    """(scene name, width, height, mode) for every golden picture."""
    cases = []
    for name in SCENES:
        family = name.split("_")[0] if not name.startswith("kleiner") else "kleiner_aerger"
        sizes = SIZES.get(family, SIZES["menu"])
        cases.extend((name, w, h, m) for w, h, m in sizes)
    return cases
