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

        def pick_game(self) -> bool: ...
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
        def shut_down(self) -> bool: ...
        def show_statistics(self) -> bool: ...
        def trigger(self, name: str, *args: object) -> bool: ...


PLAYING = [Mode.AWAIT_ROLL, Mode.CHOOSE]

TRANSITIONS: list[dict[str, Any]] = [
    # app flow
    {"trigger": "pick_game", "source": Mode.MENU, "dest": Mode.SETUP},
    {"trigger": "back", "source": Mode.SETUP, "dest": Mode.MENU},
    {"trigger": "show_statistics", "source": Mode.MENU, "dest": Mode.STATISTICS},
    {"trigger": "back", "source": Mode.STATISTICS, "dest": Mode.MENU},
    {"trigger": "start_game", "source": [Mode.SETUP, Mode.MENU], "dest": Mode.NEXT_TURN},
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
    {"trigger": "finish", "source": Mode.GAME_OVER, "dest": Mode.MENU},
    # the system button: long press asks, OK confirms, NEXT returns to the game
    {"trigger": "ask_menu", "source": PLAYING, "dest": Mode.CONFIRM_MENU},
    {"trigger": "confirm", "source": Mode.CONFIRM_MENU, "dest": Mode.MENU},
    {"trigger": "cancel", "source": Mode.CONFIRM_MENU, "dest": Mode.NEXT_TURN},
    # messages (a save moved aside, a panel offline) and shutdown
    {"trigger": "show_message", "source": "*", "dest": Mode.MESSAGE},
    {"trigger": "dismiss", "source": Mode.MESSAGE, "dest": Mode.MENU},
    {"trigger": "shut_down", "source": "*", "dest": Mode.SHUTDOWN},
]

SEAT = "seat_on_turn"
"""The shared guard of every press that acts for a player: only the seat on turn."""

BUTTONS: list[dict[str, Any]] = [
    # What a press does, per state. ``dest=None``: the state stays (an internal
    # transition). A press a state does not list is harmless (ignore_invalid_triggers).
    {"trigger": "ok", "source": Mode.MENU, "dest": None, "after": "choose_menu_entry"},
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
    {
        "trigger": "system_held",
        "source": PLAYING,
        "dest": Mode.CONFIRM_MENU,
        "before": "clear_action",
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
]
"""The buttons' triggers: ``ok``, ``next`` (pressed down), ``next_held``, ``system_held``
and ``system_tap`` (the system button released before it was held)."""


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
    """The machine as a mermaid state diagram (docs/architecture.md shows it).

    ``show_message`` and ``shut_down`` may fire from every state; they are left out
    unless ``wildcards`` is set, because their 22 edges hide the game flow.
    Regenerate the copy in docs/architecture.md with ``python -m controller.machine``.
    """
    from transitions.extensions import GraphMachine

    table = [t for t in TRANSITIONS if wildcards or t["source"] != "*"]

    class Model:
        def game_is_over(self) -> bool:
            return False

        def dice_are_due(self) -> bool:
            return False

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
        items = value if isinstance(value, list) else [value]
        return ", ".join(item.name if isinstance(item, Mode) else str(item) for item in items)

    lines = ["| trigger | source | dest | conditions | after |", "|---|---|---|---|---|"]
    for row in BUTTONS:
        dest = row["dest"].name if row["dest"] is not None else "(stays)"
        lines.append(
            f"| `{row['trigger']}` | {names(row['source'])} | {dest} "
            f"| {names(row.get('conditions', '–'))} | {row.get('after', '–')} |"
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
