"""The documentation's tables against the code, so that the two cannot drift apart.

Each check reads a table of ``docs/*.md`` and asks the code the same question, never a copy of
the answer kept here:

- telemetry's events (docs/telemetry-format.md): the ``kind`` and the fields of every event
  class that ``playspace.app.telemetry_events()`` records, and every event class of
  ``playspace.systems`` that carries a ``kind``;
- the keys of a telemetry line and of its objects: a world run for two steps writes one;
- the default collision layers and which pairs pass through each other (docs/scene-format.md):
  ``DEFAULT_LAYERS`` and a fresh ``Layers`` matrix;
- the scene tables and their keys (docs/scene-format.md): what ``load_scene`` reports as the
  known tables and keys when a file gives it an unknown one in every table;
- the fixed step's sets (docs/systems.md): ``FIXED_SETS``.

Each check returns its problems; the last test feeds each one a doctored copy of the docs and
expects it to object, so a check that stopped looking would fail too.
"""

from __future__ import annotations

import dataclasses
import importlib
import io
import json
import pkgutil
import re
import tempfile
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

import playspace.systems
from playspace.app import build_world, telemetry_events
from playspace.formats.scene import SceneError, load_scene
from playspace.formats.scene.load import SHAPES
from playspace.net.correction import BodyCorrected, TurnCorrected
from playspace.systems.input import ScriptedSource, standing_frame
from playspace.systems.physics import DEFAULT_LAYERS, Layers
from playspace.systems.sets import FIXED_SETS
from playspace.systems.telemetry import TelemetryPlugin

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TELEMETRY = DOCS / "telemetry-format.md"
SCENES = DOCS / "scene-format.md"
SYSTEMS = DOCS / "systems.md"
PLAYGROUND = ROOT / "examples" / "scenes" / "playground.toml"
PROBE = "zz_probe"  # a key and a table no scene knows
_UNKNOWN_KEY = re.compile(rf": (\[\[?\w+\]\]?)(?: \d+)?: unknown key '{PROBE}'; known keys: (.*)$")

_HEADING = re.compile(r"^(#{1,6}) +(.*)$")
_SEPARATOR = re.compile(r"^\|( *:?-+:? *\|)+ *$")
_CELL_SPLIT = re.compile(r"(?<!\\)\|")


# Reading Markdown ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Table:
    """A Markdown table: its header cells and its rows of cells, stripped."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


def _cells(line: str) -> tuple[str, ...]:
    return tuple(cell.strip() for cell in _CELL_SPLIT.split(line.strip())[1:-1])


def section(text: str, title: str) -> str:
    """The text under the heading whose title starts with `title`, to the next heading."""
    lines = text.splitlines()
    for at, line in enumerate(lines):
        found = _HEADING.match(line)
        if found and found[2].startswith(title):
            rest = lines[at + 1 :]
            end = next((i for i, x in enumerate(rest) if _HEADING.match(x)), len(rest))
            return "\n".join(rest[:end])
    return ""


def headings(text: str) -> Iterator[tuple[str, str]]:
    """Every heading's title, with the text under it (to the next heading)."""
    for line in text.splitlines():
        found = _HEADING.match(line)
        if found:
            yield found[2], section(text, found[2])


def tables(text: str) -> tuple[list[Table], list[str]]:
    """The tables in `text`, and a problem for every run of table rows that is not one whole
    table (a table split by a blank line leaves rows with no header) or has a row of the wrong
    width."""
    found: list[Table] = []
    problems: list[str] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            block.append(line)
            continue
        if block:
            if len(block) < 2 or not _SEPARATOR.match(block[1].strip()):
                problems.append(f"table rows without a header (a table split?): {block[0]!r}")
            else:
                header = _cells(block[0])
                rows = tuple(_cells(row) for row in block[2:])
                problems.extend(
                    f"a row of {len(row)} cells under a header of {len(header)}: {row}"
                    for row in rows
                    if len(row) != len(header)
                )
                found.append(Table(header, rows))
            block = []
    return found, problems


def table_under(text: str, title: str, first_column: str) -> Table | None:
    """The table under heading `title` whose first column is headed `first_column`."""
    found, _ = tables(section(text, title))
    return next((t for t in found if t.header and t.header[0] == first_column), None)


def names(cell: str) -> list[str]:
    """The names in code font in `cell`, leaving out what parentheses say about them:
    ``"`to` (or `null`), `reason` (`slope`, `room`)"`` names ``to`` and ``reason``."""
    while True:
        shorter = re.sub(r"\([^()]*\)", "", cell)
        if shorter == cell:
            return re.findall(r"`([^`]+)`", cell)
        cell = shorter


def differences(what: str, documented: Collection[str], code: Collection[str]) -> list[str]:
    """One problem when the docs and the code disagree (as sets, or as lists: in order too),
    saying what the docs lack and what they name that the code does not."""
    if documented == code:
        return []
    missing, extra = sorted(set(code) - set(documented)), sorted(set(documented) - set(code))
    if missing or extra:
        return [f"{what}: the docs lack {missing}, and name {extra}, which the code does not"]
    return [f"{what}: the order differs: the docs say {list(documented)}, the code {list(code)}"]


# Telemetry -----------------------------------------------------------------------------------


def _kind(event: type) -> str:
    kind = getattr(event, "kind", None)
    assert isinstance(kind, str), event
    return kind


def events_with_a_kind() -> dict[str, list[type]]:
    """Every event class in playspace.systems with a ``kind`` class attribute, by kind."""
    found: dict[str, list[type]] = {}
    prefix = playspace.systems.__name__ + "."
    for info in pkgutil.walk_packages(playspace.systems.__path__, prefix):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            kind = getattr(value, "kind", None)
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and dataclasses.is_dataclass(value)
                and isinstance(kind, str)
            ):
                found.setdefault(kind, []).append(value)
    return found


def event_problems(text: str) -> list[str]:
    """The events table against what telemetry records by default, type by type and field
    by field (in the order a line writes them); and every ``kind`` in the code named there."""
    where = "docs/telemetry-format.md, Events"
    table = table_under(text, "Events", "type")
    if table is None:
        return [f"{where}: no table headed 'type'"]
    documented: dict[str, list[str]] = {}
    for row in table.rows:
        type_ = names(row[0])
        if len(type_) != 1 or type_[0] in documented:
            return [f"{where}: a row that is not one new event type: {row}"]
        documented[type_[0]] = names(row[1])
    written = {_kind(e): [f.name for f in dataclasses.fields(e)] for e in telemetry_events()}
    problems = differences(f"{where}, the types", set(documented), set(written))
    for kind in sorted(set(documented) & set(written)):
        problems += differences(f"{where}, the fields of {kind}", documented[kind], written[kind])
    events = section(text, "Events")
    for kind, classes in sorted(events_with_a_kind().items()):
        named = ", ".join(c.__qualname__ for c in classes)
        if len(classes) > 1:
            problems.append(f"{where}: one kind `{kind}` for several events: {named}")
        if f"`{kind}`" not in events:
            problems.append(f"{where}: {named} has the kind `{kind}`, which is not mentioned")
    return problems


@cache
def telemetry_line() -> dict[str, object]:
    """The second step's line of the playground (it has props), standing still."""
    out = io.StringIO()
    source = ScriptedSource(lambda t: standing_frame())
    plugins = [TelemetryPlugin(out, telemetry_events())]
    world, _ = build_world(load_scene(PLAYGROUND), source, plugins=plugins)
    world.step(2)
    line: dict[str, object] = json.loads(out.getvalue().splitlines()[-1])
    return line


def line_problems(text: str) -> list[str]:
    """The keys of a step's line and of its objects against a line telemetry wrote."""
    where = "docs/telemetry-format.md, One line per fixed step"
    table = table_under(text, "One line per fixed step", "key")
    if table is None:
        return [f"{where}: no table headed 'key'"]
    line = telemetry_line()
    keys = [name for row in table.rows for name in names(row[0])]
    problems = differences(f"{where}, the keys", keys, list(line))
    rows = {name: row for row in table.rows for name in names(row[0])}
    objects = line.get("objects")
    assert isinstance(objects, list) and objects, "the playground has props"
    if "objects" in rows:
        documented = re.findall(r'"(\w+)"', rows["objects"][1])
        problems += differences(f"{where}, an object's keys", documented, list(objects[0]))
    return problems


# Layers --------------------------------------------------------------------------------------


def layer_problems(text: str) -> list[str]:
    """The default layers in order, and which each passes through, against a fresh Layers."""
    where = "docs/scene-format.md, Collision layers"
    table = table_under(text, "Collision layers", "layer")
    if table is None:
        return [f"{where}: no table headed 'layer'"]
    documented = [names(row[0])[0] if names(row[0]) else row[0] for row in table.rows]
    problems = differences(f"{where}, the default layers", documented, list(DEFAULT_LAYERS))
    matrix = Layers()
    for row in table.rows:
        name = names(row[0])
        if len(name) != 1 or name[0] not in matrix:
            continue  # said above
        apart = {other for other in DEFAULT_LAYERS if not matrix.collides(name[0], other)}
        column = set(names(row[2]))
        problems += differences(f"{where}, what {name[0]} passes through", column, apart)
    return problems


# Scene files ---------------------------------------------------------------------------------


def _errors(path: Path) -> list[str]:
    try:
        load_scene(path)
    except SceneError as error:
        return list(error.errors)
    return []


@cache
def scene_keys() -> dict[str, frozenset[str]]:
    """What the scene loader knows, from its own messages: the tables it lists for an unknown
    table, and the keys it lists for an unknown key in each table (for a table with a
    ``shape``, once for every shape, since a shape's sizes are keys only with it)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "probe.toml"
        path.write_text(f"[[{PROBE}]]\n")
        listed = [e for e in _errors(path) if "known tables: " in e]
        assert len(listed) == 1, _errors(path)
        known_tables = listed[0].split("known tables: ", 1)[1].split(", ")

        def probe(extra: Callable[[str], list[list[str]]]) -> dict[str, set[str]]:
            parts = []
            for table in known_tables:
                for lines in [[], *extra(table)]:
                    parts.append("\n".join([table, *lines, f"{PROBE} = 1", ""]))
            path.write_text("\n".join(parts))
            found: dict[str, set[str]] = {table: set() for table in known_tables}
            for error in _errors(path):
                said = _UNKNOWN_KEY.search(error)
                if said:
                    found[said[1]].update(said[2].split(", "))
            return found

        first = probe(lambda table: [])
        if not any("shape" in keys for keys in first.values()):
            return {table: frozenset(keys) for table, keys in first.items()}
        shaped = probe(
            lambda table: [[f'shape = "{s}"'] for s in SHAPES] if "shape" in first[table] else []
        )
        return {table: frozenset(keys) for table, keys in shaped.items()}


def scene_problems(text: str) -> list[str]:
    """The tables that the docs give a heading, and the keys of each, against the loader's."""
    where = "docs/scene-format.md, Tables"
    code = scene_keys()
    documented: dict[str, set[str]] = {}
    for title, body in headings(text):
        heading = re.match(r"`(\[\[?\w+\]\]?)`", title)
        if heading is None:
            continue
        found, _ = tables(body)
        keys = next((t for t in found if t.header and t.header[0] == "key"), None)
        if keys is None:
            return [f"{where}: no table of keys under {title!r}"]
        documented[heading[1]] = {name for row in keys.rows for name in names(row[0])}
    problems = differences(f"{where}, the tables", set(documented), set(code))
    for table in sorted(set(documented) & set(code)):
        problems += differences(
            f"{where}, the keys of {table}", documented[table], set(code[table])
        )
    return problems


# Sets ----------------------------------------------------------------------------------------


def set_problems(text: str) -> list[str]:
    """The fixed step's sets, in order, against FIXED_SETS."""
    where = "docs/systems.md, The fixed step's sets"
    table = table_under(text, "The fixed step's sets", "set")
    if table is None:
        return [f"{where}: no table whose first column is 'set'"]
    documented = [name for row in table.rows for name in names(row[0])]
    return differences(where, documented, [s.name for s in FIXED_SETS])


# The tests -----------------------------------------------------------------------------------


def test_every_table_in_the_docs_is_whole() -> None:
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        _, problems = tables(page.read_text())
        assert not problems, f"{page.name}: {problems}"


def test_every_event_is_named_in_files_by_its_class_in_snake_case() -> None:
    """One rule (telemetry version 2): Grabbed is "grabbed", FloorSnapped is "floor_snapped"."""
    classes = [c for found in events_with_a_kind().values() for c in found]
    classes += [BodyCorrected, TurnCorrected]
    assert len(classes) > 30
    for event in classes:
        assert _kind(event) == re.sub(r"(?<!^)(?=[A-Z])", "_", event.__name__).lower(), event


def test_the_events_table_is_what_telemetry_writes() -> None:
    problems = event_problems(TELEMETRY.read_text())
    assert not problems, "\n".join(problems)


def test_a_telemetry_line_has_the_keys_the_docs_give() -> None:
    problems = line_problems(TELEMETRY.read_text())
    assert not problems, "\n".join(problems)


def test_the_layer_table_is_the_default_layers_and_their_matrix() -> None:
    problems = layer_problems(SCENES.read_text())
    assert not problems, "\n".join(problems)


def test_the_scene_tables_and_keys_are_what_the_loader_reads() -> None:
    problems = scene_problems(SCENES.read_text())
    assert not problems, "\n".join(problems)


def test_the_fixed_sets_are_listed_in_order() -> None:
    problems = set_problems(SYSTEMS.read_text())
    assert not problems, "\n".join(problems)


def _swap(old: str, new: str) -> Callable[[str], str]:
    def edit(text: str) -> str:
        assert old in text, f"the doctored docs need {old!r}"
        return text.replace(old, new, 1)

    return edit


def _drop_rows(*first_cells: str) -> Callable[[str], str]:
    """Leave out the table rows that start with these names in code font."""

    def edit(text: str) -> str:
        starts = tuple(f"| `{cell}` |" for cell in first_cells)
        kept = [line for line in text.splitlines() if not line.startswith(starts)]
        assert len(kept) == len(text.splitlines()) - len(first_cells), first_cells
        return "\n".join(kept) + "\n"

    return edit


@pytest.mark.parametrize(
    ("page", "check", "doctor"),
    [
        # an event the code writes left out or renamed, one it does not write added, a field
        # renamed, a kind in the code not mentioned
        (TELEMETRY, event_problems, _drop_rows("quarantined")),
        (TELEMETRY, event_problems, _swap("| `quarantined` |", "| `quarantine` |")),
        (TELEMETRY, event_problems, _swap("| `hit` |", "| `bump` | | |\n| `hit` |")),
        (TELEMETRY, event_problems, _swap("`fell`, `to` ([x, y, z])", "`fell`, `at` ([x, y, z])")),
        (TELEMETRY, event_problems, _swap("grab system's `let_go`", "grab system's let go")),
        # the events table split by a blank line
        (TELEMETRY, lambda text: tables(text)[1], _swap("| `grabbed` |", "\n| `grabbed` |")),
        (TELEMETRY, line_problems, _swap("| `fade` |", "| `view_fade` |")),
        (TELEMETRY, line_problems, _swap('"held_by", "ghost"', '"held_by"')),
        # six default layers where the code has nine; a layer renamed; a pair left out
        (SCENES, layer_problems, _drop_rows("ghost", "dropped", "probe")),
        (SCENES, layer_problems, _swap("| `dropped` |", "| `dropped_object` |")),
        (SCENES, layer_problems, _swap("| `held`, `ghost` |", "| `held` |")),
        # a key renamed, a key the loader does not read, a key left out, a table renamed
        (SCENES, scene_problems, _swap("| `turn` |", "| `turn_mode` |")),
        (SCENES, scene_problems, _swap("| `fall_policy` |", "| `kill` | | |\n| `fall_policy` |")),
        (
            SCENES,
            scene_problems,
            _swap("`radius`, `height`, `size` | as", "`radius`, `height` | as"),
        ),
        (SCENES, scene_problems, _swap("### `[[ramp]]`", "### `[[slope]]`")),
        # a set renamed; a set left out
        (SYSTEMS, set_problems, _swap("| `SLOPE` |", "| `SLOPED` |")),
        (SYSTEMS, set_problems, _drop_rows("SEPARATION")),
    ],
)
def test_each_check_objects_to_docs_that_drifted(
    page: Path, check: Callable[[str], list[str]], doctor: Callable[[str], str]
) -> None:
    text = page.read_text()
    assert not check(text)
    assert check(doctor(text))
