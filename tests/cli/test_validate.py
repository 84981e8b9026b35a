"""``playspace validate`` takes what ``playspace run`` takes: a scene file, or a game module,
whose module, scene and trace are checked without running it."""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import playspace

KITCHEN = Path("examples") / "kitchen.py"
FLOOR = '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n'
GAME = "SCENE = 'scene.toml'\n\n\ndef build(world):\n    pass\n"


def test_a_game_module_is_checked_as_run_loads_it() -> None:
    done = playspace("validate", KITCHEN, "examples/kitchen.toml")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        f"{KITCHEN}: ok (game 'kitchen'; scene examples/kitchen.toml: 6 boxes, 4 props, "
        "4 opponents; trace examples/traces/kitchen.jsonl: 6.99 s)",
        "examples/kitchen.toml: ok (6 boxes, 4 props, 4 opponents)",
    ]
    assert done.stderr == ""


def test_a_games_bad_scene_is_named_with_its_own_file(tmp_path: Path) -> None:
    (tmp_path / "game.py").write_text(GAME)
    scene = tmp_path / "scene.toml"
    scene.write_text(FLOOR.replace("[4, 0.2, 4]", "[4, 0.2]"))
    done = playspace("validate", "game.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (  # the scene as the module names it, beside the module
        "scene.toml: [[box]] 1, key 'size': expected three numbers > 0 and < 10000 (metres), "
        "got [4, 0.2]\n"
    )
    scene.write_text(
        '[[prop]]\nname = "ball"\nshape = "sphere"\nradius = 0.1\nposition = [0, 1, 0]\n'
    )
    done = playspace("validate", "game.py", cwd=tmp_path)  # loads, but will not play as meant
    assert done.returncode == 0
    assert done.stderr.startswith("scene.toml: warning: nothing to stand on")


def test_a_module_that_is_not_a_game_says_what_it_lacks(tmp_path: Path) -> None:
    (tmp_path / "notes.py").write_text("TITLE = 'not a game'\n")
    (tmp_path / "broken.py").write_text(GAME + "def oops(:\n")
    (tmp_path / "untraced.py").write_text(GAME + "TRACE = 'nowhere.jsonl'\n")
    (tmp_path / "scene.toml").write_text(FLOOR)
    done = playspace("validate", "notes.py", "broken.py", "untraced.py", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    problems = done.stderr.splitlines()
    assert problems[0] == (
        "notes.py: an example module must define SCENE (the scene file's name) and "
        "build(world) (its plugin)"
    )
    assert problems[1].startswith("broken.py:6: not valid Python")
    assert problems[2].startswith("nowhere.jsonl: ")
    assert len(problems) == 3 and "Traceback" not in done.stderr
