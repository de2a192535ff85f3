"""Export played backgammon games as a match file (the Jellyfish ``.mat`` text format).

GNU Backgammon imports this format (``import mat FILE``) and writes it itself; the
layout below follows its own export: a `` N point match`` header, then per game a
score line and numbered lines with the left player's (white, GNU Backgammon's player
0) and the right player's (black) actions in two columns:

* a checker play ``52: 13/8 24/22``: the dice, then every single step in the mover's
  numbering, ``25`` for the bar, ``0`` for off and ``*`` for a hit; a roll without a
  legal play is the dice and nothing else;
* cube actions `` Doubles => 2``, `` Takes``, `` Drops``; a beaver is `` Beavers => 4``
  in the taker's column, answered by the doubler's `` Drops`` or, taken, by nothing
  (the doubler's next roll says it);
* the end of a game, ``Wins N point(s)``, under the winner's column. After an accepted
  resignation that line is all there is (the game neither dropped nor borne off), which
  is how GNU Backgammon's importer recognises a resignation: it reads the level from
  the points and the cube (N up to the cube a single, up to twice a gammon). Offers
  that were rejected leave no trace (the format has no words for them).

Pure text in, text out: the caller writes the file. A money game (no match length) is
written as a ``0 point match``, which GNU Backgammon reads as a money session.

The rules played head the file as comment tags in the form eXtreme Gammon writes and
GNU Backgammon's importer looks for: ``; [Crawford "On"]`` in a match, ``; [Jacoby
"On"]`` and ``; [Beaver "On"]`` in money play, ``; [CubeLimit "1024"]``, plus
``; [AutoDoubles "2"]`` when automatic doubles are played. GNU Backgammon's importer
cannot be told the rules: it drops the ``Crawford``, ``Jacoby``, ``Beaver`` and
``CubeLimit`` tags (1.07 puts ``AutoDoubles`` into the match comment), plays every match
with the Crawford rule, starts every game with the cube at 1 and takes the Jacoby rule
from its own ``set jacoby`` setting. What it cannot read is said in plain comment lines
after the tags (:func:`gnubg_notes`), which become the imported match's comment.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from rules.backgammon.engine import (
    BEAVER,
    BEAVER_ACTION,
    DOUBLE_ACTION,
    DROP_ACTION,
    MAX_CUBE,
    MOVE,
    OPENING,
    PLAYERS,
    TAKE_ACTION,
    BackgammonState,
    Play,
)
from rules.core import PASS, Dice, Move, State
from rules.errors import InvalidStateError

LEFT_WIDTH = 28
"""Width of the left column after the move number, as in GNU Backgammon's export."""


class StepLike(Protocol):
    """One event of a game, as :class:`rules.playout.PlayStep` records it."""

    @property
    def before(self) -> State: ...

    @property
    def after(self) -> State: ...

    @property
    def dice(self) -> Dice | None: ...

    @property
    def move(self) -> Move | None: ...


def _play_text(state: BackgammonState, move: Move) -> str:
    d1, d2 = state.dice
    if move is PASS:
        return f"{d1}{d2}: "
    if not isinstance(move, Play):
        raise InvalidStateError(f"{move} is not a checker play")
    steps = " ".join(
        f"{src + 1}/{max(dst + 1, 0)}{'*' if hit else ''}" for src, dst, hit in move.steps
    )
    return f"{d1}{d2}: {steps}"


class _GameLines:
    """Fills the two columns in turn; an action in the other column starts a new row."""

    def __init__(self) -> None:
        self.rows: list[list[str]] = []
        self.column = 1
        self.win: str | None = None

    def add(self, seat: int, text: str) -> None:
        if seat == 1 and self.rows and self.column == 0:
            self.rows[-1][1] = text
        else:
            self.rows.append(["", ""])
            self.rows[-1][seat] = text
        self.column = seat

    def won(self, seat: int, points: int) -> None:
        """GNU Backgammon's layout: the right player's win shares the row of the left
        player's last action; otherwise it is an unnumbered row of its own."""
        text = f" Wins {points} point{'s' if points != 1 else ''}"
        if seat == 1 and self.rows and self.column == 0:
            self.rows[-1][1] = text
        else:
            self.win = " " * 5 + ("" if seat == 0 else " " * LEFT_WIDTH) + text

    def render(self) -> list[str]:
        out = []
        for number, (left, right) in enumerate(self.rows, start=1):
            out.append(f"{number:3d}) {_columns(left, right)}".rstrip() + " ")
        if self.win is not None:
            out.append(self.win)
        return out


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def header_tags(state: BackgammonState) -> list[str]:
    """The comment tags naming the rules of ``state``'s game (module docstring)."""
    rules = state.game.rules
    tags = [("Variation", "Backgammon")]
    if state.match_length:
        tags.append(("Crawford", _on(rules.crawford)))
    else:
        tags += [("Jacoby", _on(rules.jacoby)), ("Beaver", _on(rules.beavers))]
        if rules.automatic:
            tags.append(("AutoDoubles", str(rules.automatic)))
    tags.append(("CubeLimit", str(MAX_CUBE if rules.cube else 1)))
    return [f'; [{name} "{value}"]' for name, value in tags]


def _columns(left: str, right: str) -> str:
    """The two cells of a row: the right one at its column, or, after a left play too
    long for its column (doubles with hits: ``44: 24/20 24/20 20/16* 20/16*``), one
    blank further. Readers do not go by the column: GNU Backgammon starts the right
    cell two characters before its second ``:`` (the dice), or at the first two
    blanks when the right cell is no play, so the cells must never touch."""
    width = LEFT_WIDTH if len(left) < LEFT_WIDTH else len(left) + 1
    return f"{left:<{width}}{right}"


def gnubg_notes(
    starts: list[tuple[int, tuple[int, int], int]], state: BackgammonState
) -> list[str]:
    """Comment lines for what GNU Backgammon's importer does not take from the tags.

    ``starts`` holds per game its number, the score it started at and the cube after the
    opening roll. GNU Backgammon (1.07, and its development sources alike) takes the first
    game with exactly one side 1 away as the Crawford game (``fCrawford = (nLength >
    0)``) and starts every game at ``nAutoDoubles = 0``; the doubles of a no-Crawford
    match still import, an automatic double is lost (the game scores less). A comment
    without a tag becomes the match's comment there, so these lines tell the reader
    what to correct by hand: ``set crawford off`` in the game named does it."""
    notes = []
    length = state.match_length
    if length and not state.game.rules.crawford:
        first = next(
            (n for n, score, _ in starts if (length - 1 in score) and score[0] != score[1]), 0
        )
        tail = f": in game {first}, set crawford off" if first else ""
        notes.append(f"; Played without the Crawford rule{tail}.")
    for number, _, cube in starts:
        if cube > 1:
            notes.append(f"; Game {number} starts with the cube at {cube} (automatic doubles).")
    return notes


def match_file(steps: Iterable[StepLike]) -> str:
    """The ``.mat`` text of the games in ``steps`` (one match, or one money game).

    ``steps`` is what :func:`rules.playout.steps` yields (or a controller's history in
    the same shape), from a start position through the end; unfinished last games are
    written as far as they went.
    """
    lines: list[str] = []
    game: _GameLines | None = None
    first: BackgammonState | None = None
    starts: list[tuple[int, tuple[int, int], int]] = []
    for step in steps:
        before, after = step.before, step.after
        if not isinstance(before, BackgammonState) or not isinstance(after, BackgammonState):
            raise InvalidStateError("a match file can only be written for backgammon games")
        if first is None:
            first = before
        if game is None:
            score = before.score
            lines.append(f" Game {len(before.results) + 1}")
            lines.append(f" {PLAYERS[0]} : {score[0]:<{LEFT_WIDTH - 5}}{PLAYERS[1]} : {score[1]}")
            game = _GameLines()
            starts.append((len(before.results) + 1, score, before.cube))
        if before.phase == OPENING and after.phase != OPENING:
            starts[-1] = (*starts[-1][:2], after.cube)  # after any automatic doubles
        move = step.move
        if move is not None and not before.offer:
            # The side answering: the doubler after a beaver, else the doubled side.
            answering = before.turn if before.phase == BEAVER else 1 - before.turn
            if before.phase == MOVE and (move is PASS or isinstance(move, Play)):
                game.add(before.turn, _play_text(before, move))
            elif move == DOUBLE_ACTION:
                game.add(before.turn, f" Doubles => {before.cube * 2}")
            elif move == BEAVER_ACTION:
                game.add(1 - before.turn, f" Beavers => {before.cube * 4}")
            elif move == TAKE_ACTION and before.phase != BEAVER:
                # A beaver taken is not written: GNU Backgammon reads the doubler's next
                # roll as the take (a `` Takes`` there would count as a second beaver).
                game.add(answering, " Takes")
            elif move == DROP_ACTION:
                game.add(answering, " Drops")
        if len(after.results) > len(before.results):
            winner, points, _ = after.results[-1]
            game.won(winner, points)
            lines += game.render()
            lines.append("")
            game = None
    if game is not None:
        lines += game.render()
        lines.append("")
    if first is None:
        return "\n"
    head = [
        *header_tags(first),
        *gnubg_notes(starts, first),
        "",
        f" {first.match_length} point match",
        "",
    ]
    return "\n".join(head + lines) + "\n"
