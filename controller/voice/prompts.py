"""When the table speaks: its facts (a turn, a throw, a move, the end) as prompts.

Pure functions of the session and the move, like the status line's words: the table
calls them where it already acts on the same facts (entering a state, a roll, a move
animating) and queues what they return for the loop to say.
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games import presentation
from controller.players.person import Person
from controller.session import Session
from controller.voice.catalog import Prompt
from rules import move_facts
from rules.core import Dice, Move, State


def colour_of(game: str, player: str) -> str:
    """The colour ``player`` is drawn in (Backgammon's white is orange)."""
    return presentation(game).side_colours.get(player, player)


def name_of(people: Mapping[str, Person] | None, player: str | None) -> str:
    """The name of the named player at ``player``'s seat, "" for none: a named player
    is called by name, as the status line calls them."""
    person = (people or {}).get(player or "")
    return person.name if person is not None else ""


def turn(session: Session, again: bool) -> Prompt | None:
    """The player on turn is asked to roll: their colour, or "roll again" when the same
    player throws once more (a six, another try). None: the dice roll by themselves."""
    player = session.player
    if player is None or player not in session.seats:
        return None
    person = not session.is_bot(player)
    if again:
        return Prompt("again", colour_of(session.game, player), person=person)
    named = name_of(session.people, player)
    return Prompt("turn", colour_of(session.game, player), person=person, name=named)


def roll(dice: Dice) -> Prompt:
    """A throw: "a six!" for a single six (the track games' extra throw), else the dice."""
    if tuple(dice) == (6,):
        return Prompt("six", dice=(6,))
    return Prompt("roll", dice=tuple(dice))


def move(
    game: str, before: State, played: Move, people: Mapping[str, Person] | None = None
) -> Prompt | None:
    """A capture (who captured whom, where the game says) or a piece in its goal;
    ``people`` names the players that have names."""
    mover = before.current_player
    if mover is None:
        return None
    shown = presentation(game)
    if move_facts(game, played).capture:
        hit = None if shown.capture_victim is None else shown.capture_victim(before, played)
        victim = "" if hit is None else colour_of(game, hit)
        named = name_of(people, mover)
        return Prompt(
            "capture", colour_of(game, mover), victim, name=named, other_name=name_of(people, hit)
        )
    if shown.reaches_goal is not None and shown.reaches_goal(played):
        return Prompt("home", colour_of(game, mover), name=name_of(people, mover))
    return None


def game_over(state: State, people: Mapping[str, Person] | None = None) -> Prompt:
    """Who won, or that the game is over (no single winner)."""
    winners = state.winners()
    if len(winners) >= 1 and state.is_terminal():
        named = name_of(people, winners[0])
        return Prompt("winner", colour_of(state.game.name, winners[0]), name=named)
    return Prompt("over")
