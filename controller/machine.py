"""The appliance's state machine: Enum states and one declarative transition table.

transitions runs it with ``queued=True`` so a trigger fired from a callback runs after
the current transition finishes, never re-entrantly. The machine is plain (not the
thread-safe variant) because only the loop thread ever touches it (see the Threading
section of docs/architecture.md); timeouts are scheduled by the loop, not by
transitions' timer threads. After every transition the model's ``state_changed``
runs: the next frame shows the new state.

The model (``controller.table.Table``) supplies the guards (``conditions``) and the
``on_enter_*`` callbacks.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from transitions import Machine


class Mode(Enum):
    MENU = "menu"
    SETUP = "setup"
    AWAIT_ROLL = "await_roll"
    ROLLING = "rolling"
    CHOOSE = "choose"
    MOVING = "moving"
    NEXT_TURN = "next_turn"
    GAME_OVER = "game_over"
    CONFIRM_MENU = "confirm_menu"
    MESSAGE = "message"
    SHUTDOWN = "shutdown"
    STATISTICS = "statistics"


class Triggers:
    """The triggers transitions adds to the model at run time, declared for the type
    checker (the model's class derives from this)."""

    state: Mode

    if TYPE_CHECKING:

        def back(self) -> bool: ...
        def finish(self) -> bool: ...
        def cancel(self) -> bool: ...
        def start_game(self) -> bool: ...
        def roll(self) -> bool: ...
        def rolled(self) -> bool: ...
        def commit(self) -> bool: ...
        def moved(self) -> bool: ...
        def advance(self) -> bool: ...
        def confirm(self) -> bool: ...
        def show_message(self) -> bool: ...
        def dismiss(self) -> bool: ...
        def trigger(self, name: str, *args: object) -> bool: ...
        def may_trigger(self, name: str, *args: object) -> bool: ...


PLAYING = [Mode.AWAIT_ROLL, Mode.CHOOSE]
ANIMATING = [Mode.ROLLING, Mode.MOVING]
ON_TURN = [Mode.AWAIT_ROLL, Mode.ROLLING, Mode.CHOOSE, Mode.MOVING, Mode.NEXT_TURN]
"""The states in which a player (or the table itself: an automatic roll) is on turn."""
LEAVE_TO_START = [Mode.GAME_OVER, Mode.STATISTICS, Mode.MESSAGE]
STARTS_HERE = [Mode.MENU, Mode.SETUP]
"""Where the table's own menu could start a game, or is one press away from it
(``LEAVE_TO_START``): where the companion page may start one."""
BUSY = [Mode.ROLLING, Mode.MOVING, Mode.NEXT_TURN, Mode.SHUTDOWN]
"""States that end by themselves: the panel never falls asleep in them."""

TRANSITIONS: list[dict[str, Any]] = [
    # app flow
    {"trigger": "back", "source": [Mode.SETUP, Mode.STATISTICS], "dest": Mode.MENU},
    {"trigger": "start_game", "source": [Mode.SETUP, Mode.MENU], "dest": Mode.NEXT_TURN},
    # the companion page starts a game where the menu could: it leaves for the menu
    # first (game over, the statistics, a message), then the game begins
    {
        "trigger": "start_from_page",
        "source": LEAVE_TO_START,
        "dest": Mode.MENU,
        "after": "start_session",
    },
    {
        "trigger": "start_from_page",
        "source": STARTS_HERE,
        "dest": None,
        "after": "start_session",
    },
    # one turn: roll (a chance node) or choose (a decision node), then animate
    {"trigger": "roll", "source": [Mode.AWAIT_ROLL, Mode.CHOOSE], "dest": Mode.ROLLING},
    {"trigger": "rolled", "source": Mode.ROLLING, "dest": Mode.NEXT_TURN},
    {"trigger": "commit", "source": Mode.CHOOSE, "dest": Mode.MOVING},
    {"trigger": "moved", "source": Mode.MOVING, "dest": Mode.NEXT_TURN},
    {
        "trigger": "advance",
        "source": Mode.NEXT_TURN,
        "dest": Mode.GAME_OVER,
        "conditions": "game_is_over",
    },
    {
        "trigger": "advance",
        "source": Mode.NEXT_TURN,
        "dest": Mode.AWAIT_ROLL,
        "conditions": "dice_are_due",
    },
    {"trigger": "advance", "source": Mode.NEXT_TURN, "dest": Mode.CHOOSE},
    # a bot's (or the hint's) answer counts while a choice is on show; else it is stale
    {"trigger": "bot_answered", "source": Mode.CHOOSE, "dest": None, "after": "take_answer"},
    # the winner's stripes end; the words stay
    {"trigger": "stripes_done", "source": Mode.GAME_OVER, "dest": None, "after": "stop_stripes"},
    {"trigger": "finish", "source": Mode.GAME_OVER, "dest": Mode.MENU},
    {"trigger": "confirm", "source": Mode.CONFIRM_MENU, "dest": Mode.MENU},
    {"trigger": "cancel", "source": Mode.CONFIRM_MENU, "dest": Mode.NEXT_TURN},
    # messages (a save moved aside, a panel offline)
    {"trigger": "show_message", "source": "*", "dest": Mode.MESSAGE},
    {"trigger": "dismiss", "source": Mode.MESSAGE, "dest": Mode.MENU},
]

SEAT = "seat_on_turn"
"""The shared guard of every press that acts for a player: only the seat on turn."""

BUTTONS: list[dict[str, Any]] = [
    # What a press does, per state. ``dest=None``: the state stays (an internal
    # transition). A press a state does not list is harmless (ignore_invalid_triggers).
    {
        "trigger": "ok",
        "source": Mode.MENU,
        "dest": Mode.STATISTICS,
        "conditions": "statistics_chosen",
        "before": "open_statistics",
    },
    {"trigger": "ok", "source": Mode.MENU, "dest": Mode.SETUP},
    {"trigger": "next", "source": Mode.MENU, "dest": None, "after": "next_menu_entry"},
    {"trigger": "ok", "source": Mode.SETUP, "dest": None, "after": "setup_ok"},
    {"trigger": "next", "source": Mode.SETUP, "dest": None, "after": "setup_next"},
    {"trigger": "next_held", "source": Mode.SETUP, "dest": None, "after": "setup_coach"},
    {"trigger": "system_held", "source": Mode.SETUP, "dest": Mode.MENU},
    {"trigger": "system_tap", "source": Mode.SETUP, "dest": Mode.MENU},
    {
        "trigger": "ok",
        "source": Mode.AWAIT_ROLL,
        "dest": None,
        "conditions": SEAT,
        "after": "roll_ok",
    },
    {
        "trigger": "next",
        "source": Mode.AWAIT_ROLL,
        "dest": None,
        "conditions": SEAT,
        "after": "roll_next",
    },
    {
        "trigger": "ok",
        "source": Mode.CHOOSE,
        "dest": None,
        "conditions": [SEAT, "can_choose"],
        "after": "commit_preview",
    },
    {
        "trigger": "next",
        "source": Mode.CHOOSE,
        "dest": None,
        "conditions": [SEAT, "can_choose"],
        "after": "preview_next",
    },
    {
        "trigger": "next_held",
        "source": Mode.CHOOSE,
        "dest": None,
        "conditions": [SEAT, "can_choose"],
        "after": "preview_next_piece",
    },
    # a held OK while only bots (or an automatic roll) are on turn hurries them, and
    # what animates now runs at the fast pace
    {
        "trigger": "ok_held",
        "source": ANIMATING,
        "dest": None,
        "conditions": ["bots_on_turn", "not_hurrying"],
        "after": ["hurry_up", "hurry_motion"],
    },
    {
        "trigger": "ok_held",
        "source": [Mode.AWAIT_ROLL, Mode.CHOOSE, Mode.NEXT_TURN],
        "dest": None,
        "conditions": ["bots_on_turn", "not_hurrying"],
        "after": "hurry_up",
    },
    {
        "trigger": "system_held",
        "source": PLAYING,
        "dest": Mode.CONFIRM_MENU,
        "before": "clear_action",
    },
    # a long press is never lost to an animation: the roll or move already happened in
    # the session, so its animation is cut short and the press counts again for the
    # state that follows ("back to menu?", or the menu after a game the move ended)
    {
        "trigger": "system_held",
        "source": Mode.ROLLING,
        "dest": Mode.NEXT_TURN,
        "before": ["clear_action", "roll_shown"],
        "after": "hold_again",
    },
    {
        "trigger": "system_held",
        "source": Mode.MOVING,
        "dest": Mode.NEXT_TURN,
        "before": ["clear_action", "move_shown"],
        "after": "hold_again",
    },
    {"trigger": "ok", "source": Mode.GAME_OVER, "dest": Mode.MENU},
    {"trigger": "next", "source": Mode.GAME_OVER, "dest": None, "after": "game_over_next"},
    {"trigger": "system_held", "source": Mode.GAME_OVER, "dest": Mode.MENU},
    # OK leaves the game, or makes the side move (a resignation) a system tap showed
    {"trigger": "ok", "source": Mode.CONFIRM_MENU, "dest": None, "after": "menu_ok"},
    {
        "trigger": "system_tap",
        "source": Mode.CONFIRM_MENU,
        "dest": None,
        "after": "menu_tap",
    },
    {"trigger": "next", "source": Mode.CONFIRM_MENU, "dest": Mode.NEXT_TURN, "after": "menu_left"},
    {"trigger": "ok", "source": Mode.MESSAGE, "dest": Mode.MENU},
    {"trigger": "next", "source": Mode.MESSAGE, "dest": Mode.MENU},
    {"trigger": "ok", "source": Mode.STATISTICS, "dest": Mode.MENU},
    {"trigger": "next", "source": Mode.STATISTICS, "dest": None, "after": "next_page"},
    {"trigger": "system_held", "source": Mode.STATISTICS, "dest": Mode.MENU},
    # the system button held for ``shutdown_hold_s``: the table shuts down
    {
        "trigger": "system_long_held",
        "source": [mode for mode in Mode if mode is not Mode.SHUTDOWN],
        "dest": Mode.SHUTDOWN,
        "after": "power_off",
    },
]
"""The buttons' triggers: ``ok``, ``next`` (pressed down), ``next_held``, ``system_held``
and ``system_tap`` (the system button released before it was held)."""


def page_may_start(state: Mode) -> bool:
    """The companion page may start a game in ``state`` (the machine's
    ``start_from_page``); never in the middle of one, nor while shutting down. Read by
    the page's threads too: it looks at the state only."""
    return state in LEAVE_TO_START + STARTS_HERE


def ends_by_itself(state: Mode) -> bool:
    """The state ends without a press (an animation, the next turn, shutdown): the
    panel does not fall asleep in it."""
    return state in BUSY


def build_machine(model: object, initial: Mode = Mode.MENU) -> Machine:
    """The machine for ``model``, which must have a ``state_changed`` method: it runs
    after every transition, so that every change of state is drawn at once."""
    return Machine(
        model=model,
        states=Mode,
        transitions=TRANSITIONS + BUTTONS,
        initial=initial,
        queued=True,
        auto_transitions=False,
        ignore_invalid_triggers=True,
        after_state_change="state_changed",
    )


def mermaid(wildcards: bool = False) -> str:
    """The machine as a mermaid state diagram, drawn from both tables: the flow
    (``TRANSITIONS``) and the presses (``BUTTONS``); docs/architecture.md shows it.

    ``show_message`` may fire from every state, and the system button held for the
    shutdown from every state but shutdown itself; they are left out unless
    ``wildcards`` is set, because their edges hide the game flow.
    Regenerate the copy in docs/architecture.md with ``python -m controller.machine``.
    """
    from transitions.extensions import GraphMachine

    everywhere = [m for m in Mode if m is not Mode.SHUTDOWN]
    table = [
        t
        for t in TRANSITIONS + BUTTONS
        if wildcards or (t["source"] != "*" and t["source"] != everywhere)
    ]

    class Model:
        pass

    graph = GraphMachine(
        model=Model(),
        states=Mode,
        transitions=table,
        initial=Mode.MENU,
        auto_transitions=False,
        graph_engine="mermaid",
        show_conditions=True,
    )
    return str(graph.get_graph().draw(None))


def button_table() -> str:
    """What each press does in each state, as a markdown table (docs/architecture.md
    shows it; regenerate with ``python -m controller.machine``)."""

    def names(value: object) -> str:
        if value == [m for m in Mode if m is not Mode.SHUTDOWN]:
            return "every state but SHUTDOWN"
        items = value if isinstance(value, list) else [value]
        return ", ".join(item.name if isinstance(item, Mode) else str(item) for item in items)

    lines = [
        "| trigger | source | dest | conditions | before | after |",
        "|---|---|---|---|---|---|",
    ]
    for row in BUTTONS:
        dest = row["dest"].name if row["dest"] is not None else "(stays)"
        lines.append(
            f"| `{row['trigger']}` | {names(row['source'])} | {dest} "
            f"| {names(row.get('conditions', '–'))} | {names(row.get('before', '–'))} "
            f"| {names(row.get('after', '–'))} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    lines = [
        line
        for line in mermaid().splitlines()
        if line.strip() and not line.strip().startswith(("classDef", "Class "))
    ]
    print("\n".join(lines))
    print()
    print(button_table())
