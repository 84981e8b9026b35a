"""A saved game module run again inside the running process, its code swapped in place.

Python's own ``importlib.reload`` runs a module's new source in its old namespace, which binds
every name to a new object: the schedule, the event queues and every callback would still hold
the old functions and the world's resources the old classes. So the new source is run the same
way (compiled first, so a syntax error changes nothing) and then folded back into what the world
already holds, as Smalltalk images and ``jurigged`` do:

- a function keeps its identity and takes the new code, defaults and decorations (a system
  stays where it is in the schedule, with its event cursors; a provider or a run condition
  holding it runs the new code too);
- a class whose shape is unchanged (its fields, its slots, its bases; an Enum's members) is kept
  and its methods take the new code, so every instance in the world stays valid and new
  instances made while the source ran are made old-class ones;
- a class whose fields changed is the new class, and the world's instances of the old one
  (resources, components, events waiting to be read) are moved over field by field, a new
  field taking its default: a field without one refuses the reload rather than invent a value;
- everything else (constants, tables) is simply the new value, so a changed constant is read by
  the next step.

Anything that goes wrong (a syntax error, an exception while the source runs, a field without a
default, a system order that no longer resolves) puts the old namespace back and raises
:class:`ReloadError`, one line naming the file and line: the game runs on with the old code.
``build(world)`` made the world once; when it changed it runs again against a stand-in for the
world (:mod:`playspace.app.reload.builds`), for the systems it now adds or no longer adds.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import inspect
import sys
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playspace.app.reload.builds import BuildRefused, run_build_again
from playspace.ecs import World
from playspace.ecs.schedule import DECLARATION, Declaration, SystemSpec

_ABSENT = object()
_RAN: dict[str, str] = {}  # a module's name: the SHA-256 of the source it was last reloaded with


class ReloadError(Exception):
    """A reload that did not happen, said in one line; the old code still runs."""


@dataclass(frozen=True, slots=True)
class ModuleReload:
    """What a module's reload changed."""

    path: Path
    functions: int  # functions that took new code
    redeclared: tuple[str, ...]  # systems whose phase, set, order or data changed
    migrated: tuple[str, ...]  # classes whose fields changed: the world's instances moved over
    added: tuple[str, ...] = ()  # systems a changed build(world) adds now
    removed: tuple[str, ...] = ()  # systems of the module it no longer adds
    build_refused: str | None = None  # why a changed build(world) was not run again
    source: bytes = b""  # what ran (a recording keeps it)

    def line(self) -> str:
        """The reload as the terminal and the overlay say it."""
        said = [f"reloaded {_shown(self.path)}"]
        if self.redeclared:
            said.append(f"systems declared again: {', '.join(self.redeclared)}")
        if self.migrated:
            said.append(f"instances moved to the new {', '.join(self.migrated)}")
        if self.added:
            said.append(f"systems added: {', '.join(self.added)}")
        if self.removed:
            said.append(f"systems removed: {', '.join(self.removed)}")
        if self.build_refused:
            said.append(
                f"build(world) changed but was not run again ({self.build_refused}): "
                "restart to run it"
            )
        return "; ".join(said)


def last_ran(module: types.ModuleType) -> str | None:
    """The SHA-256 of the source `module` last reloaded with; None when it never was (it runs
    what it was imported from)."""
    return _RAN.get(module.__name__)


def modules_at(path: Path) -> list[types.ModuleType]:
    """The loaded modules whose source is `path` (a game's module and the modules beside it
    that it imports)."""
    home = path.resolve()
    found = []
    for module in list(sys.modules.values()):
        where = getattr(module, "__file__", None)  # its name first: resolving costs a stat
        if isinstance(where, str) and where.endswith(home.name) and Path(where).resolve() == home:
            found.append(module)
    return found


def reload_module(
    world: World, module: types.ModuleType, source: bytes | None = None
) -> ModuleReload:
    """Run `module`'s source again (its file's, or `source`: a recording's code of the time)
    and fold it into the world (see the module docstring); raises :class:`ReloadError`, having
    changed nothing, when it cannot."""
    where = getattr(module, "__file__", None)
    if not isinstance(where, str):
        raise ReloadError(f"{module.__name__}: has no source file to reload from")
    path = Path(where)
    if source is None:
        try:
            source = path.read_bytes()
        except OSError as error:
            raise ReloadError(f"{_shown(path)}: cannot be read: {error.strerror}") from None
    try:
        code = compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        line = f":{error.lineno}" if error.lineno else ""
        raise ReloadError(f"{_shown(path)}{line}: not valid Python: {error.msg}") from None
    name = module.__name__
    namespace = module.__dict__
    before = dict(namespace)
    declared = _declarations(world, name)
    try:
        exec(code, namespace)  # as importlib.reload does: the module's own namespace
        fold = _Fold(name, path, before, namespace)
        migrations = fold.plan(world)
    except ReloadError:
        _restore(namespace, before)
        raise
    except (Exception, SystemExit) as error:
        _restore(namespace, before)
        raise ReloadError(f"{_shown(path)}{_line(error, path)}: {_short(error)}") from error
    fold.apply()
    _RAN[name] = hashlib.sha256(source).hexdigest()
    try:
        redeclared = _redeclare(world, declared, fold)
    except Exception as error:
        _restore(namespace, before)
        fold.undo()
        raise ReloadError(f"{_shown(path)}: its systems no longer fit: {_short(error)}") from None
    for move in migrations:
        move()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    refused = None
    build = namespace.get("build")
    if isinstance(build, types.FunctionType) and fold.code_changed.get("build", False):
        try:
            added, removed = run_build_again(world, build, name, declared)
        except BuildRefused as why:
            refused = str(why)
    migrated = tuple(sorted(c.__qualname__ for c in fold.changed_classes))
    return ModuleReload(path, fold.patched, redeclared, migrated, added, removed, refused, source)


class _Fold:
    """How a module's new namespace folds into its old objects: planned (nothing changed yet,
    so a failure can still be undone by putting the namespace back), then applied."""

    def __init__(
        self, name: str, path: Path, before: dict[str, Any], namespace: dict[str, Any]
    ) -> None:
        self.name, self.path = name, path
        self.before, self.namespace = before, namespace
        self.kept: dict[int, object] = {}  # id of a new object -> the old one standing for it
        self.kept_classes: dict[type, type] = {}  # new class -> the old one kept
        self.changed_classes: dict[type, type] = {}  # old class -> the new one replacing it
        self.code: list[tuple[types.FunctionType, types.FunctionType]] = []  # (old, new)
        self.methods: list[tuple[type, str, object]] = []  # set on a kept class
        self.code_changed: dict[str, bool] = {}
        self.saved: list[tuple[types.FunctionType, dict[str, Any]]] = []
        self.replaced: list[tuple[type, str, object]] = []  # what `methods` replaced
        self.patched = 0

    def _ours(self, value: object) -> bool:
        return getattr(value, "__module__", None) == self.name

    def plan(self, world: World) -> list[Callable[[], None]]:
        for key, new in list(self.namespace.items()):
            old = self.before.get(key)
            if old is None or old is new or not (self._ours(old) and self._ours(new)):
                continue
            if isinstance(old, types.FunctionType) and isinstance(new, types.FunctionType):
                self.code_changed[key] = not _same_code(old.__code__, new.__code__)
                if _patchable(old, new):
                    self.code.append((old, new))
                    self.kept[id(new)] = old
            elif isinstance(old, type) and isinstance(new, type):
                if _same_shape(old, new):
                    self._keep_class(old, new)
                else:
                    self.changed_classes[old] = new
        changed = self.changed_classes.items()
        return [move for old, new in changed for move in _moves(world, old, new)]

    def _keep_class(self, old: type, new: type) -> None:
        self.kept[id(new)] = old
        self.kept_classes[new] = old
        if issubclass(old, enum.Enum) and issubclass(new, enum.Enum):
            for member in new:
                self.kept[id(member)] = old[member.name]
            return
        for attr, value in vars(new).items():
            if attr in ("__dict__", "__weakref__", "__module__", "__qualname__"):
                continue
            current = vars(old).get(attr)
            function, was = _function_of(value), _function_of(current)
            if function is not None and was is not None and _patchable(was, function):
                self.code.append((was, function))
            elif _the_games(attr, value, function):
                self.methods.append((old, attr, value))

    def apply(self) -> None:
        for old, new in self.code:
            self.saved.append((old, _state(old)))
            old.__code__ = new.__code__
            old.__defaults__ = _mapped(new.__defaults__, self)
            old.__kwdefaults__ = new.__kwdefaults__
            old.__doc__ = new.__doc__
            old.__annotations__ = new.__annotations__
            old.__dict__.clear()
            old.__dict__.update({k: _mapped(v, self) for k, v in vars(new).items()})
            self.patched += 1
        for cls, attr, value in self.methods:
            self.replaced.append((cls, attr, vars(cls).get(attr, _ABSENT)))
            setattr(cls, attr, value)
        for key, value in list(self.namespace.items()):
            if not key.startswith("__"):
                self.namespace[key] = _mapped(value, self)
        for value in self.namespace.values():  # a new system ordered against a kept one
            declared = getattr(value, DECLARATION, None)
            if isinstance(declared, Declaration) and self._ours(value):
                setattr(value, DECLARATION, _mapped(declared, self))

    def undo(self) -> None:
        for old, state in self.saved:
            old.__code__ = state["__code__"]
            old.__defaults__ = state["__defaults__"]
            old.__kwdefaults__ = state["__kwdefaults__"]
            old.__dict__.clear()
            old.__dict__.update(state["__dict__"])
        for cls, attr, was in reversed(self.replaced):
            if was is _ABSENT:
                delattr(cls, attr)
            else:
                setattr(cls, attr, was)


def _state(function: types.FunctionType) -> dict[str, Any]:
    return {
        "__code__": function.__code__,
        "__defaults__": function.__defaults__,
        "__kwdefaults__": function.__kwdefaults__,
        "__dict__": dict(vars(function)),
    }


def _mapped(value: Any, fold: _Fold, depth: int = 0) -> Any:
    """`value` with every new object the fold keeps an old one for replaced by that one, and
    an instance of a kept class made an instance of the old class (same shape, so it can)."""
    kept = fold.kept.get(id(value))
    if kept is not None:
        return kept
    if depth > 4:
        return value
    cls = type(value)
    if cls in fold.kept_classes:
        value.__class__ = fold.kept_classes[cls]
        return value
    if isinstance(value, Declaration):
        return dataclasses.replace(
            value,
            before=_mapped(value.before, fold, depth + 1),
            after=_mapped(value.after, fold, depth + 1),
            reads=_mapped(value.reads, fold, depth + 1),
            writes=_mapped(value.writes, fold, depth + 1),
            run_if=_mapped(value.run_if, fold, depth + 1),
            in_set=_mapped(value.in_set, fold, depth + 1),
        )
    if cls in (tuple, list, set, frozenset):
        return cls(_mapped(v, fold, depth + 1) for v in value)
    if cls is dict:
        return {k: _mapped(v, fold, depth + 1) for k, v in value.items()}
    return value


def _restore(namespace: dict[str, Any], before: dict[str, Any]) -> None:
    namespace.clear()
    namespace.update(before)


def _function_of(value: object) -> types.FunctionType | None:
    """The plain function under a method, a static or class method, or None."""
    if isinstance(value, staticmethod | classmethod):
        value = value.__func__
    return value if isinstance(value, types.FunctionType) else None


def _the_games(attr: str, value: object, function: types.FunctionType | None) -> bool:
    """Whether a class attribute is the game's to set on a kept class: a method it wrote (not
    one dataclasses wrote, ``__init__``, ``__eq__``...) or a plain class attribute."""
    if function is not None:
        return function.__code__.co_filename.endswith(".py")
    slot = isinstance(value, types.MemberDescriptorType | types.GetSetDescriptorType)
    return not (attr.startswith("__") or isinstance(value, type) or slot)


def _patchable(old: types.FunctionType, new: types.FunctionType) -> bool:
    """Whether `old` can take `new`'s code: the same free variables (a closure's cells)."""
    return old.__code__.co_freevars == new.__code__.co_freevars


def _same_code(a: types.CodeType, b: types.CodeType) -> bool:
    """The same behaviour: instructions, constants and names (not line numbers)."""
    if (a.co_code, a.co_names) != (b.co_code, b.co_names) or len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts, strict=True):
        same = _same_code(x, y) if isinstance(x, types.CodeType) else type(x) is type(y) and x == y
        if not same:
            return False
    return True


def _same_shape(old: type, new: type) -> bool:
    """Whether an instance of `old` is one of `new` too: the same bases, slots and fields
    (names, types and defaults), or for an Enum the same members."""
    if [b.__qualname__ for b in old.__bases__] != [b.__qualname__ for b in new.__bases__]:
        return False
    if issubclass(old, enum.Enum) and issubclass(new, enum.Enum):
        return [(m.name, m.value) for m in old] == [(m.name, m.value) for m in new]
    if issubclass(old, enum.Enum) or issubclass(new, enum.Enum):
        return False
    if vars(old).get("__slots__") != vars(new).get("__slots__"):
        return False
    if dataclasses.is_dataclass(old) != dataclasses.is_dataclass(new):
        return False
    if not dataclasses.is_dataclass(old):
        return True
    return _fields(old) == _fields(new) and _params(old) == _params(new)


def _fields(cls: type) -> list[tuple[str, str, str]]:
    return [
        (f.name, str(f.type), repr(f.default) + repr(f.default_factory))
        for f in dataclasses.fields(cls)
    ]


def _params(cls: type) -> object:
    return repr(getattr(cls, "__dataclass_params__", None))


def _moves(world: World, old: type, new: type) -> list[Callable[[], None]]:
    """The world's instances of `old` as instances of `new`, made now (so a field without a
    default refuses the reload before anything changed), put in place by the calls returned."""
    moves: list[Callable[[], None]] = []
    resource = world.try_resource(old)
    if resource is not None:
        made = _migrated(resource, new)

        def swap_resource(made: object = made) -> None:
            world.remove_resource(old)
            world.insert_resource(made)

        moves.append(swap_resource)
    held: list[tuple[int, object]] = list(world.each(old))
    for entity, component in held:
        made = _migrated(component, new)

        def swap_component(entity: int = entity, made: object = made) -> None:
            world.remove(entity, old)
            world.add(entity, made)

        moves.append(swap_component)
    if world.events.has(old):
        moves.append(lambda: world.events.retype(old, new, lambda e: _migrated(e, new)))
    return moves


def _migrated(instance: object, new: type) -> object:
    """`instance` as one of `new`: its fields by name, a field it lacks its default."""
    made: Any = object.__new__(new)
    if not dataclasses.is_dataclass(new):
        if hasattr(instance, "__dict__") and hasattr(made, "__dict__"):
            made.__dict__.update(vars(instance))
        return made
    for field in dataclasses.fields(new):
        if hasattr(instance, field.name):
            value = getattr(instance, field.name)
        elif field.default is not dataclasses.MISSING:
            value = field.default
        elif field.default_factory is not dataclasses.MISSING:
            value = field.default_factory()
        else:
            where = _shown(Path(inspect.getsourcefile(new) or "?"))
            raise ReloadError(
                f"{where}: {new.__qualname__} has a new field {field.name!r} without a default, "
                f"and the world holds one already: give it a default, or restart"
            )
        object.__setattr__(made, field.name, value)
    return made


def _declarations(world: World, name: str) -> dict[str, object]:
    """What each system of module `name` declared before the reload, by system name."""
    return {
        spec.name: getattr(spec.source, DECLARATION, None)
        for spec in world.schedule.all()
        if _module_of(spec) == name
    }


def _module_of(spec: SystemSpec) -> str | None:
    source = spec.source
    holder = source if inspect.isroutine(source) else type(source)
    return getattr(holder, "__module__", None)


def _redeclare(world: World, declared: dict[str, object], fold: _Fold) -> tuple[str, ...]:
    """Take again what the module's systems declare where it changed (phase, set, order,
    reads, writes, run condition); returns their names."""
    changed: dict[str, object] = {}
    for spec in world.schedule.all():
        if spec.name not in declared:
            continue
        source = spec.source
        if isinstance(source, types.FunctionType) and source.__name__ in fold.namespace:
            current = fold.namespace[source.__name__]
            if isinstance(current, types.FunctionType) and current is not source:
                changed[spec.name] = current  # could not take the new code: the new function
                continue
        if getattr(source, DECLARATION, None) != declared[spec.name]:
            changed[spec.name] = source
    if changed:
        world.redeclare_systems(changed)
    return tuple(sorted(changed))


def _shown(path: Path) -> str:
    """`path` relative to the working folder when it is inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _short(error: BaseException) -> str:
    shown = f"{type(error).__name__}: {error}"
    return shown if len(shown) <= 300 else shown[:300] + "..."


def _line(error: BaseException, path: Path) -> str:
    """``:12``, the deepest line of `path` that `error` passed through, or nothing."""
    home = str(path.resolve())
    lines = [
        f.lineno
        for f in traceback.extract_tb(error.__traceback__)
        if str(Path(f.filename).resolve()) == home
    ]
    return f":{lines[-1]}" if lines else ""
