"""Editions change the shared game only through the hooks engine/hooks.py names, each typed on Rules."""

import importlib
import inspect
import pkgutil

import companion.engine
from companion.engine.core import Rules
from companion.engine.hooks import HOOK_NAMES, HOOKS, TABLES


def edition_classes() -> list[type]:
    """Every subclass of Rules defined in companion/engine (the edition rules modules)."""
    for info in pkgutil.iter_modules(companion.engine.__path__):
        importlib.import_module(f"companion.engine.{info.name}")
    found: list[type] = []
    todo = [Rules]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("companion.engine.") and sub not in found:
                found.append(sub)
            todo.append(sub)
    return found


def overrides(cls: type) -> list[tuple[str, str]]:
    """(defining class, name) of each name of Rules that cls or a class it mixes in redefines."""
    shared = set(Rules.__mro__)
    out = []
    for klass in cls.__mro__:
        if klass in shared or klass is object:
            continue
        for name in vars(klass):
            if name.startswith("__") and name != "__init__":
                continue
            if hasattr(Rules, name):
                out.append((klass.__qualname__, name))
    return out


def test_the_editions_are_found():
    names = {c.__name__ for c in edition_classes()}
    assert {"EliteRules", "MonopolyRules", "MadMillionaireRules", "ClassicRules", "DeluxeRules"} <= names


def test_editions_override_only_hooks_and_tables():
    wrong = []
    for cls in edition_classes():
        for owner, name in overrides(cls):
            method = callable(getattr(Rules, name)) and not isinstance(getattr(Rules, name), type)
            allowed = HOOK_NAMES if method else TABLES
            if name not in allowed:
                kind = "method" if method else "table"
                wrong.append(f"{cls.__name__} ({owner}) overrides the {kind} {name}, not a hook in engine/hooks.py")
    assert not wrong, "\n".join(wrong)


def test_every_hook_is_a_typed_method_of_rules():
    missing = []
    for group, hooks in HOOKS.items():
        for name, when in hooks.items():
            assert when.strip(), f"hook {name} ({group}) says nothing of when it is called"
            method = getattr(Rules, name, None)
            if method is None or not callable(method):
                missing.append(f"{name}: no such method on Rules")
                continue
            sig = inspect.signature(method)
            params = list(sig.parameters.values())
            if params and params[0].name in ("self", "cls"):
                params = params[1:]
            untyped = [p.name for p in params if p.annotation is inspect.Parameter.empty]
            if untyped:
                missing.append(f"{name}: parameters without annotations: {', '.join(untyped)}")
            if sig.return_annotation is inspect.Signature.empty:
                missing.append(f"{name}: no return annotation")
    assert not missing, "\n".join(missing)


def test_every_table_is_a_table_of_rules():
    for name in TABLES:
        assert hasattr(Rules, name), f"TABLES names {name}, which Rules does not have"
        assert not callable(getattr(Rules, name)), f"{name} is a method: it belongs in HOOKS"


def test_hooks_appear_once():
    seen: dict[str, str] = {}
    for group, hooks in HOOKS.items():
        for name in hooks:
            assert name not in seen, f"hook {name} is in both {seen[name]} and {group}"
            seen[name] = group
