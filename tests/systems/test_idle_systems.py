"""A level's idle systems do not run: their run conditions skip them, and the world says so."""

from __future__ import annotations

from playspace.app import build_world
from playspace.app.game import load_example
from playspace.app.replay import replay_source
from playspace.formats.scene import load_scene
from tests.game_helpers import EXAMPLES

IDLE_ON_STAIRS = {"ride_platforms", "sockets", "throw", "recenter", "forget_despawned"}


def test_on_the_stairs_nothing_moves_under_the_player_and_nothing_is_let_go() -> None:
    world, _ = build_world(
        load_scene(EXAMPLES / "stairs.toml"), replay_source(EXAMPLES / "traces" / "stairs.jsonl")
    )
    world.step(30)
    ran = set(world.ran())
    assert not IDLE_ON_STAIRS & ran
    assert {"grab", "physics_step", "character_move", "late_placement"} <= ran
    for name in IDLE_ON_STAIRS:
        stats = world.schedule.get(name).stats
        assert (stats.calls, stats.skipped) == (0, 30), name


def test_the_kitchen_s_flying_bees_are_platforms_that_move_so_riding_is_checked() -> None:
    example = load_example(EXAMPLES / "kitchen.py")
    assert example.trace is not None
    world, _ = build_world(
        load_scene(example.scene), replay_source(example.trace), plugins=[example.build]
    )
    world.step(30)
    assert "ride_platforms" in world.ran()
    stats = world.schedule.get("ride_platforms").stats
    assert (stats.calls, stats.skipped) == (29, 1)  # the first step, before the bees took off
