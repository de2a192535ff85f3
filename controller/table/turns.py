"""One game's turns at the table: the dice, the choice of a move, the move, the bots'
answers and the move timer.

Why apart from the table: this is the play itself, from a roll to the next turn; the
table keeps what is around it (the menu, presses, time handed over, effects, the
picture) and enters these steps as the machine's states say (``on_enter_*``). Each
step changes the session, the choice or the animation, then fires the machine's next
trigger on the table.
"""

from __future__ import annotations

from typing import Protocol

import rules
from controller.events import BotRequest
from controller.games import checker_steps, presentation
from controller.i18n import _
from controller.machine import Mode
from controller.session import Session
from controller.table import scenes as table_scenes
from controller.table.bots import Thinking
from controller.table.choice import Choice
from controller.table.clock import TableTime
from controller.table.motion import DiceEntry, Motion
from controller.table.options import TableOptions, move_timer_seconds
from controller.voice import prompts
from controller.voice.catalog import Prompt
from hardware.interfaces import Cue
from rules.core import Dice, Move, Pass, State


class TurnTable(Protocol):
    """What the turns use of the table (``controller.table.Table``)."""

    state: Mode
    options: TableOptions
    time: TableTime
    choice: Choice
    motion: Motion
    dice_entry: DiceEntry
    bots: Thinking
    since: float
    dirty: bool

    def require_session(self) -> Session: ...
    def persist(self) -> None: ...
    def flash(self, text: str, seconds: float = 2.5) -> None: ...
    def play_cue(self, cue: Cue) -> None: ...
    def speak(self, prompt: Prompt | None) -> None: ...
    def clear_action(self, *_press: object) -> None: ...
    def roll(self) -> bool: ...
    def rolled(self) -> bool: ...
    def commit(self) -> bool: ...
    def moved(self) -> bool: ...
    def side_move(self, move: Move | None) -> bool: ...


class Turns:
    """The steps of a turn, on ``table`` (its session, choice, motion, time, bots)."""

    def __init__(self, table: TurnTable) -> None:
        self.table = table

    def await_roll(self) -> None:
        session = self.table.require_session()
        self.table.dice_entry.values = []
        player = session.player
        motion = self.table.motion
        again = player is not None and motion.roller == player and motion.last_dice is not None
        self.table.speak(prompts.turn(session, again))
        automatic = presentation(session.game).dice_roll_themselves
        if automatic or player not in session.seats or session.is_bot(player):
            delay = self.table.options.bot_delay_s if session.is_bot(player) else 0.3
            self.table.time.schedule(delay, self.roll_now)
        else:
            self.table.time.hurry = False

    def rolling(self) -> None:
        self.table.motion.begin(
            self.table.time.now, self.table.options.roll_time_s * self.table.time.pace()
        )
        self.table.play_cue("dice")
        self.table.time.schedule(self.table.motion.length, self.finish_roll, paced=False)

    def choose(self) -> None:
        session = self.table.require_session()
        self.table.choice.begin(session)
        self.table.since = self.table.time.now
        self.table.time.timer_end = None
        self.table.bots.new_choice()  # a hint (or a late bot's move) belongs to one choice
        if session.is_bot(session.player):
            self.table.bots.ask_move(session)
            return
        self.table.time.hurry = False
        if len(self.table.choice.moves) == 1:
            self.table.time.schedule(self.table.options.forced_delay_s, self.commit_cursor)
            return
        self.table.choice.by_checker(session)
        self.table.bots.ask_hint(session, self.table.options.hints)
        seconds = move_timer_seconds(self.table.options, session.state)
        if seconds:
            self.table.time.start_timer(seconds)
            self.table.time.schedule(seconds, self.timer_expired, paced=False)

    def moving(self) -> None:
        if self.table.motion.moving is None:  # a decision with nothing to animate
            self.table.moved()
            return
        game, move = self.table.require_session().game, self.table.motion.moving[0]
        facts = rules.move_facts(game, move)
        options = self.table.options
        by_checker = checker_steps(game, move)
        per_step = options.checker_step_time_s if by_checker else options.step_time_s
        capture_s = options.capture_time_s if facts.capture else 0.0
        seconds = facts.steps * per_step + capture_s
        self.table.motion.begin(self.table.time.now, seconds * self.table.time.pace())
        self.table.play_cue("capture" if facts.capture else "move")
        self.table.speak(prompts.move(game, self.table.motion.moving[1], move))
        self.table.time.schedule(self.table.motion.length, self.finish_move, paced=False)

    def roll_now(self, dice: Dice | None = None) -> None:
        session = self.table.require_session()
        motion = self.table.motion
        motion.dice = dice if dice is not None else session.draw_dice()
        motion.roller = session.player  # before the roll: an opening throw passes the turn
        motion.opening = session.state.is_opening()
        before = session.state
        session.roll(motion.dice)
        motion.last_dice = motion.dice
        self.table.speak(prompts.roll(motion.dice))
        self.news_of_the_match(before)
        self.table.persist()
        self.table.roll()

    def finish_roll(self) -> None:
        self.table.motion.dice = None
        self.table.rolled()

    def commit_cursor(self) -> None:
        if self.table.choice.moves:
            self.commit_move(self.table.choice.previewed())

    def commit_move(self, move: Move) -> None:
        session = self.table.require_session()
        self.table.choice.whole_moves()
        self.table.time.timer_end = None
        rolls = presentation(session.game).decision_rolls
        if rolls is not None and rolls(move) and not self.table.options.physical_dice:
            session.play(move)  # Backgammon's cube decision "roll": the press throws
            if session.state.is_chance():
                self.roll_now()
                return
            self.table.persist()
            self.table.motion.moving = None  # a decision without an animation ends like a move
            self.table.commit()
            return
        before = session.play(move)
        self.news_of_the_match(before)
        self.table.motion.moving = (move, before, session.state)
        self.table.persist()
        self.table.commit()

    def news_of_the_match(self, before: State) -> None:
        """After a roll or a move from ``before``: when it ended one game of a match and
        the next began, say how that game went, and take its dice off the board (the
        new game's first roll is still to come)."""
        session = self.table.require_session()
        end_banner = presentation(session.game).game_end_banner
        news = None if end_banner is None else end_banner(before, session.state)
        if news is None:
            return
        # at least one pass of the words shown, measured by the banner itself
        least = self.table.options.match_banner_s
        self.table.flash(table_scenes.spoken(session, news), least)
        self.table.motion.last_dice = None

    def finish_move(self) -> None:
        self.table.motion.moving = None
        self.table.moved()

    def bot_answer(self, request: BotRequest, move: Move) -> None:
        """A bot's answer (or the hint) came in: a current bot's move is shown, then
        played after ``bot_delay_s``."""
        if self.table.state is not Mode.CHOOSE:
            return  # stale: the game moved on (menu, resume...)
        bots = self.table.bots
        if request == bots.move_request and bots.waiting and self.table.side_move(move):
            bots.waiting = False  # a resignation: played after the usual preview delay
            bots.taken(self.table.require_session())
            return
        hint = self.table.bots.hint
        chosen = self.table.bots.answer(request, move, self.table.choice.moves)
        if chosen is None:
            self.table.dirty |= self.table.bots.hint is not hint
            return
        bots.taken(self.table.require_session())
        self.table.choice.point_at(chosen)
        self.table.choice.whole_moves()  # a bot (or the timer) plays whole moves
        self.table.since = self.table.time.now
        self.table.dirty = True
        self.table.time.schedule(self.table.options.bot_delay_s, self.commit_cursor)

    def timer_expired(self) -> None:
        """The move timer ran out: "time!" shows briefly, over a board that stands
        still; then a pass if passing is legal, else the bot's move (with its preview,
        so nobody misses it)."""
        self.table.time.timer_end = None
        self.table.flash(_("time!"), self.table.options.time_up_s)
        self.table.speak(Prompt("time"))
        self.table.time.schedule(self.table.options.time_up_s, self.play_for_the_late, paced=False)

    def play_for_the_late(self) -> None:
        passes = [m for m in self.table.choice.moves if isinstance(m, Pass)]
        if passes:
            self.commit_move(passes[0])
        else:
            self.table.bots.ask_move(self.table.require_session())

    def roll_next(self) -> None:
        """Physical dice: NEXT counts the die being entered up, 1–6."""
        if self.table.options.physical_dice:
            self.table.dice_entry.count_up()

    def roll_ok(self) -> None:
        """OK rolls; with physical dice it confirms the die being entered."""
        if not self.table.options.physical_dice:
            self.roll_now()
            return
        count = len(self.table.require_session().state.chance_outcomes()[0][0])
        dice = self.table.dice_entry.confirm(count)
        if dice is None:
            return
        try:
            self.roll_now(dice)
        except ValueError as exc:  # e.g. a double where the node forbids it
            self.table.flash(str(exc))
            self.table.play_cue("error")

    def preview_next(self) -> None:
        """NEXT: the next legal move (or checker step) in preview."""
        if self.table.choice.next():
            self.table.since = self.table.time.now

    def preview_next_piece(self) -> None:
        """A held NEXT: the next piece (or the other die)."""
        self.table.choice.next_piece()
        self.table.since = self.table.time.now

    def commit_preview(self) -> None:
        """OK: play the previewed move, or fix the previewed checker step (the play
        commits once it is complete; a resumed game shows the steps already fixed)."""
        if self.table.choice.checkers is None:
            self.table.clear_action()
            self.commit_cursor()
        elif self.table.choice.steps:
            play = self.table.choice.fix_step(self.table.require_session())
            if play is not None:
                self.table.clear_action()
                self.commit_move(play)
            else:
                self.table.since = self.table.time.now
                self.table.persist()
