"""What a game uses to make things move on their own: clips played on a model's nodes, and the
hands' fingers."""

from playspace.systems.animation import AnimationPlugin, play
from playspace.systems.animation.hands import HandPosePlugin

__all__ = ["AnimationPlugin", "HandPosePlugin", "play"]
