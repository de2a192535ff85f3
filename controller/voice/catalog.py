"""What the table says: a :class:`Prompt` is a typed fact, :func:`sentence` its words.

Why typed prompts and not text: the table decides *that* something is said (a capture,
whose turn it is); the words come from the catalog when the prompt is spoken, in the
language the table speaks then. Every sentence is one of a fixed, finite set
(:func:`fixed_prompts`: each kind for every colour, every throw of one or two dice),
so all of them can be rendered to audio ahead of time and none has to be synthesised
at the table.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

import rules
from controller.games import presentation
from controller.i18n import _
from controller.words import colour_word

Kind = Literal[
    "turn",
    "again",
    "roll",
    "six",
    "capture",
    "home",
    "winner",
    "over",
    "time",
    "config",
    "coach",
    "better",
]

COLOURS = ("red", "blue", "green", "yellow", "orange", "white", "black", "sky", "purple")
"""Every colour a player is drawn in (:func:`controller.words.colour_word`)."""

IMPORTANT: frozenset[Kind] = frozenset(
    {"turn", "again", "winner", "over", "time", "config", "coach", "better"}
)
"""What is still said with ``only_important``: what a player must act on, and the end.
The roll, a capture and a piece in the goal are on the panel too. The coach speaks
only to a player who switched it on, and is what that player asked for."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """One thing to say. ``colour`` is the player's colour (the mover, the one on turn,
    the winner), ``other`` the captured player's colour ("" for a capture whose victim
    the game does not say, the mover's own colour for its own piece)."""

    kind: Kind
    colour: str = ""
    other: str = ""
    dice: tuple[int, ...] = ()
    person: bool = True
    """The prompt is for a person at the table (a bot's turn is not announced as
    important: nobody has to act on it)."""
    name: str = ""
    """The named player at ``colour``'s seat, said instead of the colour ("" for none)."""
    other_name: str = ""
    """The named player at ``other``'s seat, said instead of its colour."""
    game: str = ""
    """The game whose words say a ``coach`` prompt's reason."""
    reason: Hashable = None
    """Why a piece cannot move (``coach``): a typed fact of the game's rules, said in
    its presentation's words (``Presentation.reason_words``)."""

    @property
    def important(self) -> bool:
        return self.kind in IMPORTANT and self.person


def dice_words(dice: tuple[int, ...]) -> str:
    """A throw as it is said: "3", "3 and 5", "doubles: 4"."""
    if len(dice) == 2 and dice[0] == dice[1]:
        return _("doubles: {die}").format(die=dice[0])
    if len(dice) == 2:
        return _("{first} and {second}").format(first=dice[0], second=dice[1])
    return ", ".join(str(d) for d in dice)


def sentence(prompt: Prompt) -> str:
    """The words of ``prompt`` in the table's language now."""
    colour = prompt.name or (colour_word(prompt.colour) if prompt.colour else "")
    kind = prompt.kind
    if kind == "turn":
        return _("{colour}, your turn.").format(colour=colour)
    if kind == "again":
        return _("Roll again!")
    if kind == "roll":
        return dice_words(prompt.dice) + "."
    if kind == "six":
        return _("A six!")
    if kind == "capture" and not prompt.other:
        return _("{mover} captures!").format(mover=colour)
    if kind == "capture" and prompt.other == prompt.colour:
        return _("{mover} captures its own piece!").format(mover=colour)
    if kind == "capture":
        victim = prompt.other_name or colour_word(prompt.other)
        return _("{mover} captures {victim}!").format(mover=colour, victim=victim)
    if kind == "home":
        return _("{colour} has a piece in the goal.").format(colour=colour)
    if kind == "winner":
        return _("{colour} wins!").format(colour=colour)
    if kind == "over":
        return _("The game is over.")
    if kind == "time":
        return _("Time is up!")
    if kind == "coach":
        words = presentation(prompt.game).reason_words
        return "" if words is None else words(prompt.reason)
    if kind == "better":
        return _("There is a better move. Look!")
    return _("The table has a problem with its settings. Please look at the panel.")


def fixed_prompts() -> Iterator[Prompt]:
    """Every prompt the table can say: rendered ahead of time, checked by the tests."""
    for colour in COLOURS:
        yield Prompt("turn", colour)
        yield Prompt("home", colour)
        yield Prompt("winner", colour)
        yield Prompt("capture", colour)
        for other in COLOURS:
            yield Prompt("capture", colour, other)
    for first in range(1, 7):
        yield Prompt("roll", dice=(first,))
        for second in range(first, 7):
            yield Prompt("roll", dice=(first, second))
            if second != first:
                yield Prompt("roll", dice=(second, first))
    for kind in ("again", "six", "over", "time", "config", "better"):
        yield Prompt(kind)
    for game in rules.game_names():
        for reason in presentation(game).reasons:
            yield Prompt("coach", game=game, reason=reason)


def fixed_sentences() -> list[str]:
    """The words of every fixed prompt in the table's language now, each once."""
    return list(dict.fromkeys(sentence(prompt) for prompt in fixed_prompts()))


def named_prompts(names: Iterable[str]) -> Iterator[Prompt]:
    """Every prompt that says one of ``names`` (the family's named players), rendered
    ahead like the fixed ones: the sentences a named player's turn, piece home, win and
    captures (of every colour and every other name) will need."""
    people = list(dict.fromkeys(names))
    for name in people:
        yield Prompt("turn", name=name)
        yield Prompt("home", name=name)
        yield Prompt("winner", name=name)
        yield Prompt("capture", name=name)
        yield Prompt("capture", "red", "red", name=name)  # its own piece
        for colour in COLOURS:
            yield Prompt("capture", "", colour, name=name)
            yield Prompt("capture", colour, "x", other_name=name)
        for other in people:
            if other != name:
                yield Prompt("capture", "", "x", name=name, other_name=other)
