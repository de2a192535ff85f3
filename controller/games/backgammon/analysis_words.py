"""A Backgammon record's analysis in words, for ``history show``: each side's error
rate and luck, then the costliest plays. The rules give the typed figures
(:class:`rules.backgammon.analysis.Analysis`); this is where they become a text."""

from __future__ import annotations

from controller.i18n import _
from controller.words import colour_word
from rules.backgammon.analysis import Analysis
from rules.registry import RecordAnalysis


def analysis_lines(analysis: RecordAnalysis) -> list[str]:
    if not isinstance(analysis, Analysis):
        return []
    out = [_("analysis (equity lost by the strong bot's one-roll lookahead):")]
    for s in analysis.sides:
        out.append(
            _(
                "  {player}: PR {pr} ({lost} equity lost over {decisions} non-forced "
                "decisions), luck {luck}"
            ).format(
                player=colour_word(s.player),
                pr=f"{s.pr:.1f}",
                lost=f"{s.equity_lost:.3f}",
                decisions=s.decisions,
                luck=f"{s.luck:+.3f}",
            )
        )
    for n, d in enumerate(analysis.worst, start=1):
        out.append(
            _(
                "  worst {n}: event {event}, {player} {dice} ({position_id}): played "
                "{played} ({played_equity}), best {best} ({best_equity}), lost {lost}"
            ).format(
                n=n,
                event=d.step,
                player=colour_word(d.player),
                dice=f"{d.dice[0]}-{d.dice[1]}",
                position_id=d.position_id,
                played=d.played,
                played_equity=f"{d.played_equity:+.3f}",
                best=d.best,
                best_equity=f"{d.best_equity:+.3f}",
                lost=f"{d.lost:.3f}",
            )
        )
    return out
