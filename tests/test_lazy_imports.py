"""Start-up loads what a run uses: the composition root and the prelude import their modules when
a world or a name needs them, and a scene's optional systems (climbing, levers, movers...) only
when the scene asks for them (issue 15). Each check runs in a fresh interpreter, since this
one has imported everything already."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

OPTIONAL = (  # systems a scene turns on with its keys, absent from a plain scene
    "playspace.systems.player.climb",
    "playspace.systems.player.movement",
    "playspace.systems.player.seated",
    "playspace.systems.interaction.interactables",
    "playspace.systems.physics.movers",
    "playspace.systems.panels",
)
HEAVY = ("moderngl", "PIL", "trimesh", "matplotlib", "zenoh", "imgui", "xr")  # never headless


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def built(scene: str) -> str:
    return (
        "from pathlib import Path\n"
        "from playspace.app import build_world, load_target\n"
        "from playspace.systems.input import ScriptedSource, standing_frame\n"
        f"scene, _ = load_target(Path('examples/{scene}'))\n"
        "build_world(scene, ScriptedSource(lambda t: standing_frame()))[0].step()\n"
    )


def test_importing_the_app_loads_no_system() -> None:
    modules = loaded_after("import playspace.app")
    assert "playspace.ecs" in modules
    assert not {m for m in modules if m.startswith(("playspace.systems", "playspace.scene"))}
    assert "numpy" not in modules


def test_a_plain_scene_loads_none_of_the_optional_systems() -> None:
    modules = loaded_after(built("kitchen.toml"))
    assert "playspace.systems.interaction.hold" in modules  # the world was built
    assert [m for m in OPTIONAL if m in modules] == []
    assert [m for m in modules if m.split(".")[0] in HEAVY] == []


def test_a_scene_that_asks_for_them_loads_its_optional_systems() -> None:
    modules = loaded_after(built("workshop.toml"))  # climbing wall, levers, a lift, jump
    assert [m for m in OPTIONAL if m not in modules] == [
        "playspace.systems.player.seated",
        "playspace.systems.panels",
    ]


def test_the_prelude_loads_a_name_when_it_is_asked_for() -> None:
    bare = {m for m in loaded_after("import playspace.prelude") if m.startswith("playspace")}
    assert bare == {"playspace", "playspace.prelude"}
    modules = loaded_after("from playspace.prelude import World")
    assert "playspace.ecs.world" in modules
    assert not {m for m in modules if m.startswith(("playspace.systems", "playspace.spatial"))}
