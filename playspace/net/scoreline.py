"""The match's score on screen while it is played: one line of the view's
:class:`~playspace.components.text.ScreenText`, refreshed every frame.

A client shows the host's line (the one the host's state carries: every number is the host's),
a host that plays in a window its own game's summary. The line is one row of the screen's
text, taken when the match starts, so a game's own lines stay where it put them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from playspace.components.text import ScreenText
from playspace.ecs import Phase, World

PREFIX = "score: "  # before a line that does not say itself what it is


@dataclass(slots=True)
class ScoreLine:
    """Where the score is shown (its `row` among the screen's lines) and where it comes from
    (`score`: the newest line, None before there is one); a resource."""

    row: int
    score: Callable[[World], str | None]


def show_score(world: World) -> None:
    """Write the newest score into its row (empty until there is one)."""
    line = world.resource(ScoreLine)
    score = line.score(world)
    text = "" if not score else score if score.startswith(PREFIX) else PREFIX + score
    world.resource(ScreenText).lines[line.row] = text


def add_score_line(world: World, score: Callable[[World], str | None]) -> None:
    """Show `score` in `world`'s views, on a row of their screen text of its own."""
    screen = world.try_resource(ScreenText) or world.insert_resource(ScreenText())
    screen.lines.append("")
    world.insert_resource(ScoreLine(len(screen.lines) - 1, score))
    world.add_system(show_score, phase=Phase.LATE, reads=(ScoreLine,), writes=(ScreenText,))


__all__ = ["ScoreLine", "add_score_line", "show_score"]
