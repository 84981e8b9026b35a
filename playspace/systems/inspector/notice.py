"""The last reload's line where a headset's player reads it: before the eyes, a little low.

The preview writes it in its overlay; a headset has none, so the line is a label (text on a
dark plate, turned to the eyes) that follows the head as LATE draws it, while the line is
shown (:class:`LiveStatus` ``until``: a failed reload's until the next good save).
"""

from __future__ import annotations

import textwrap

from playspace import spatial
from playspace.components import Transform
from playspace.components.debug import LiveNotice, LiveStatus
from playspace.components.drawn import DrawnView
from playspace.components.text import Label
from playspace.ecs import Phase, World, system
from playspace.systems.sets import LateSet, add_late_sets

BEFORE_EYES = spatial.vec3(0.0, -0.3, -1.0)  # the label's anchor in the head's frame
LINE_HEIGHT = 0.025  # metres: read at a metre
COLUMNS = 56  # characters a line
FAILED = (1.0, 0.55, 0.45, 1.0)  # a refused save: the old code runs on
DONE = (0.7, 1.0, 0.7, 1.0)


class LiveNoticePlugin:
    """The reload's line before the headset's eyes."""

    def build(self, world: World) -> None:
        add_late_sets(world)
        world.insert_resource(LiveStatus())
        world.add_systems(place_notice)


@system(Phase.LATE, in_set=LateSet.VIEW, reads=(LiveStatus, DrawnView), writes=(Transform, Label))
def place_notice(world: World) -> None:
    """Show the line while it is shown, in front of where the head is drawn; else nothing."""
    status, view = world.resource(LiveStatus), world.resource(DrawnView)
    shown = bool(status.line) and world.time.elapsed < status.until and view.head is not None
    found = world.query(Label, LiveNotice)
    if not found:
        if not shown:
            return
        world.spawn(Transform(), Label("", 0.0, LINE_HEIGHT), LiveNotice())
        found = world.query(Label, LiveNotice)
    entity, (label, _) = found[0]
    if not shown or view.head is None:
        label.text = ""
        return
    label.text = "\n".join(textwrap.wrap(status.line, COLUMNS))
    label.color = FAILED if status.failed else DONE
    transform = world.get(entity, Transform)
    transform.position = spatial.transform_point(view.head, BEFORE_EYES)
