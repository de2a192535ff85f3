"""One game's turns at the table: the dice, the choice of a move, the move, the bots'
answers and the move timer.

Why apart from the table: this is the play itself, from a roll to the next turn; the
table keeps what is around it (the menu, presses, time handed over, effects, the
picture) and enters these steps as the machine's states say (``on_enter_*``). Each
step is handed the session and changes it, the choice, the bots' questions or the
animation (the rooms it was given, never the table), and hands back what the table
is to do (:class:`~controller.table.then.Then`): a prompt, a save, an action later,
the machine's next trigger.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import rules
from controller import coach
from controller.events import BotRequest
from controller.games import checker_steps, presentation
from controller.i18n import _
from controller.session import Session
from controller.table import resign as table_resign
from controller.table import scenes as table_scenes
from controller.table.bots import Thinking
from controller.table.choice import Choice
from controller.table.clock import TableTime
from controller.table.motion import DiceEntry, Motion
from controller.table.options import TableOptions, move_timer_seconds
from controller.table.then import NOTHING, Later, Then
from controller.voice import prompts
from controller.voice.catalog import Prompt
from rules.core import Dice, Move, Pass, State


class Turns:
    """The steps of a turn, over the rooms they change (the table hands them over)."""

    def __init__(
        self,
        options: TableOptions,
        time: TableTime,
        choice: Choice,
        motion: Motion,
        dice_entry: DiceEntry,
        bots: Thinking,
    ) -> None:
        self.options = options
        self.time = time
        self.choice = choice
        self.motion = motion
        self.dice_entry = dice_entry
        self.bots = bots
        self.coaching = coach.Coaching()
        self.coach_text: str | None = None
        """The coach's last words over the board: the end of the game takes them down."""

    def await_roll(self, session: Session) -> Then:
        self.dice_entry.clear()
        player = session.player
        motion = self.motion
        again = player is not None and motion.roller == player and motion.last_dice is not None
        spoken = prompts.turn(session, again)
        automatic = presentation(session.game).dice_roll_themselves
        if automatic or player not in session.seats or session.is_bot(player):
            delay = self.options.bot_delay_s if session.is_bot(player) else 0.3
            return Then(speak=spoken, later=Later(delay, lambda: self.roll_now(session)))
        self.time.calm()
        return Then(speak=spoken)

    def rolling(self) -> Then:
        self.motion.begin(self.time.now, self.options.roll_time_s * self.time.pace())
        return Then(cue="dice", later=Later(self.motion.length, self.finish_roll, paced=False))

    def choose(self, session: Session) -> Then:
        self.choice.begin(session)
        self.time.stop_timer()
        self.bots.new_choice()  # a hint (or a late bot's move) belongs to one choice
        self.coaching.new_choice()
        if session.is_bot(session.player):
            self.bots.ask_move(session)
            return Then(since=True)
        self.time.calm()
        said = self.said(coach.why_not(session))
        if len(self.choice.moves) == 1:
            later = Later(self.options.forced_delay_s, lambda: self.commit_cursor(session))
            return replace(said, since=True, later=later)
        self.choice.by_checker(session)
        self.bots.ask_hint(session, self.options.hints)
        seconds = move_timer_seconds(self.options, session.state)
        if not seconds:
            return replace(said, since=True)
        self.time.start_timer(seconds)
        later = Later(seconds, lambda: self.timer_expired(session), paced=False)
        return replace(said, since=True, later=later)

    def moving(self, session: Session) -> Then:
        if self.motion.moving is None:  # a decision with nothing to animate
            return Then(trigger="moved")
        game, move = session.game, self.motion.moving[0]
        facts = rules.move_facts(game, move)
        options = self.options
        by_checker = checker_steps(game, move)
        per_step = options.checker_step_time_s if by_checker else options.step_time_s
        capture_s = options.capture_time_s if facts.capture else 0.0
        seconds = facts.steps * per_step + capture_s
        self.motion.begin(self.time.now, seconds * self.time.pace())
        return Then(
            cue="capture" if facts.capture else "move",
            speak=prompts.move(game, self.motion.moving[1], move, session.people),
            later=Later(self.motion.length, self.finish_move, paced=False),
        )

    def roll_now(self, session: Session, dice: Dice | None = None) -> Then:
        dice = dice if dice is not None else session.draw_dice()
        # before the roll: an opening throw passes the turn
        opening = session.state.is_opening()
        self.motion.thrown(dice, session.player, opening)
        before = session.state
        session.roll(dice)
        self.motion.shown_dice(dice)
        return Then(
            flash=self.news_of_the_match(session, before),
            speak=prompts.roll(dice),
            persist=True,
            trigger="roll",
        )

    def finish_roll(self) -> Then:
        self.motion.roll_shown()
        return Then(trigger="rolled")

    def commit_cursor(self, session: Session) -> Then:
        if self.choice.moves:
            return self.commit_move(session, self.choice.previewed())
        return NOTHING

    def commit_move(self, session: Session, move: Move) -> Then:
        self.choice.whole_moves()
        self.time.stop_timer()
        rolls = presentation(session.game).decision_rolls
        if rolls is not None and rolls(move) and not self.options.physical_dice:
            session.play(move)  # Backgammon's cube decision "roll": the press throws
            if session.state.is_chance():
                return self.roll_now(session)
            self.motion.move_shown()  # a decision without an animation ends like a move
            return Then(persist=True, trigger="commit")
        before = session.play(move)
        news = self.news_of_the_match(session, before)
        self.motion.move((move, before, session.state))
        return Then(flash=news, persist=True, trigger="commit")

    def news_of_the_match(self, session: Session, before: State) -> tuple[str, float] | None:
        """After a roll or a move from ``before``: when it ended one game of a match and
        the next began, the words of how that game went to show (at least one pass of
        them, measured by the banner itself), and its dice go off the board (the new
        game's first roll is still to come)."""
        end_banner = presentation(session.game).game_end_banner
        news = None if end_banner is None else end_banner(before, session.state)
        if news is None:
            return None
        self.motion.shown_dice(None)
        return table_scenes.spoken(session, news), self.options.match_banner_s

    def finish_move(self) -> Then:
        self.motion.move_shown()
        return Then(trigger="moved")

    def bot_answer(self, session: Session, request: BotRequest, move: Move) -> Then:
        """A bot's answer (or the hint) came in while a choice is on show: a current
        bot's move is shown, then played after ``bot_delay_s``; a side move (a
        resignation) is played after the same delay."""
        bots = self.bots
        current = request == bots.move_request and bots.waiting
        side = table_resign.bot_side_move(session, move) if current else None
        if side is not None:
            bots.answered()  # a resignation: played after the usual preview delay
            bots.taken(session)
            later = Later(self.options.bot_delay_s, lambda: self.commit_move(session, side))
            return Then(later=later)
        hint = bots.hint
        chosen = bots.answer(request, move, self.choice.moves)
        if chosen is None:
            return Then(redraw=bots.hint is not hint)
        bots.taken(session)
        self.choice.point_at(chosen)
        self.choice.whole_moves()  # a bot (or the timer) plays whole moves
        later = Later(self.options.bot_delay_s, lambda: self.commit_cursor(session))
        return Then(since=True, redraw=True, later=later)

    def timer_expired(self, session: Session) -> Then:
        """The move timer ran out: "time!" shows briefly, over a board that stands
        still; then a pass if passing is legal, else the bot's move (with its preview,
        so nobody misses it)."""
        self.time.stop_timer()
        seconds = self.options.time_up_s
        later = Later(seconds, partial(self.play_for_the_late, session), paced=False)
        return Then(flash=(_("time!"), seconds), speak=Prompt("time"), later=later)

    def play_for_the_late(self, session: Session) -> Then:
        passes = [m for m in self.choice.moves if isinstance(m, Pass)]
        if passes:
            return self.commit_move(session, passes[0])
        self.bots.ask_move(session)
        return NOTHING

    def late(self) -> bool:
        """The move timer's "time!" has taken the choice (the late player's move is on
        its way)."""
        action = self.time.action
        late = isinstance(action, partial) and action.func == self.play_for_the_late
        return late or self.bots.waiting

    def roll_next(self) -> Then:
        """Physical dice: NEXT counts the die being entered up, 1–6."""
        if self.options.physical_dice:
            self.dice_entry.count_up()
        return NOTHING

    def roll_ok(self, session: Session) -> Then:
        """OK rolls; with physical dice it confirms the die being entered."""
        if not self.options.physical_dice:
            return self.roll_now(session)
        count = len(session.state.chance_outcomes()[0][0])
        dice = self.dice_entry.confirm(count)
        if dice is None:
            return NOTHING
        try:
            return self.roll_now(session, dice)
        except ValueError as exc:  # e.g. a double where the node forbids it
            return Then(flash=(str(exc), 2.5), cue="error")

    def preview_next(self) -> Then:
        """NEXT: the next legal move (or checker step) in preview."""
        return Then(since=self.choice.next())

    def preview_next_piece(self) -> Then:
        """A held NEXT: the next piece (or the other die)."""
        self.choice.next_piece()
        return Then(since=True)

    def commit_preview(self, session: Session) -> Then:
        """OK: play the previewed move, or fix the previewed checker step (the play
        commits once it is complete; a resumed game shows the steps already fixed)."""
        if self.choice.checkers is None:
            if self.choice.moves:
                again = self.coached_again(session, self.choice.previewed())
                if again is not None:
                    return again
            self.time.clear()
            return self.commit_cursor(session)
        if not self.choice.steps:
            return NOTHING
        play = self.choice.fix_step(session)
        if play is not None:
            again = self.coached_again(session, play)
            if again is not None:
                return again
            self.time.clear()
            return self.commit_move(session, play)
        return Then(since=True, persist=True)

    def said(self, words: coach.Words | None) -> Then:
        """The coach's words over the board (and on the status line), and spoken."""
        if words is None:
            return NOTHING
        self.coach_text = words.text
        return Then(flash=(words.text, self.options.coach_s), speak=words.prompt)

    def coached_again(self, session: Session, move: Move) -> Then | None:
        """OK on ``move`` for a coached player: if the strong player rates it clearly
        worse, the better move is shown in preview instead (once a choice, as whole
        moves) and the player chooses again; what changes then, and nothing is played.
        None: the move stands."""
        found = self.coaching.check(session, move)
        if found is None:
            return None
        self.choice.whole_moves()
        session.keep_entered([])
        self.choice.point_at(found.better)
        return replace(self.said(coach.better_words(session, found)), since=True, persist=True)
