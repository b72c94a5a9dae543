"""The ruleset registry, built from each ruleset's own declaration (name, aliases, version).

``get_ruleset("bf1900")`` (or an alias such as ``"battlefleet1900"``) gives the ruleset object.
Reading a scenario looks at its ``ruleset =`` line first (:func:`ruleset_of_scenario`) and hands
the file to that ruleset's schema. Rulesets are imported on first use, so importing a ruleset's
data modules never pulls in the others.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from battleline.engine.ruleset import Ruleset
from battleline.errors import ScenarioError, UnknownNameError
from battleline.rulesets.tomldata import read_scenario_toml

#: The modules whose ``RULESET`` object is registered, in listing order.
MODULES: tuple[str, ...] = (
    "battleline.rulesets.bf1900.ruleset",
    "battleline.rulesets.bf1900_12.ruleset",
    "battleline.rulesets.tgd.ruleset",
    "battleline.rulesets.dba.ruleset",
)
#: The ruleset a scenario file without a ``ruleset =`` line is read with.
DEFAULT = "bf1900"

AnyRuleset = Ruleset[Any, Any]


@cache
def _registry() -> tuple[dict[str, AnyRuleset], dict[str, str]]:
    """Every declared ruleset by name, and every alias → name."""
    rulesets: dict[str, AnyRuleset] = {}
    aliases: dict[str, str] = {}
    for module in MODULES:
        rs: AnyRuleset = importlib.import_module(module).RULESET
        rulesets[rs.name] = rs
        for alias in rs.aliases:
            aliases[alias] = rs.name
    return rulesets, aliases


def ruleset_names() -> list[str]:
    """Canonical names of the registered rulesets."""
    return sorted(_registry()[0])


def canonical_name(name: str) -> str:
    """The canonical ruleset name for a name or alias (``bf1900@1.0`` is accepted too)."""
    rulesets, aliases = _registry()
    key = name.strip().lower().split("@", 1)[0]
    key = aliases.get(key, key)
    if key not in rulesets:
        raise UnknownNameError("ruleset", name, [*rulesets, *aliases])
    return key


def get_ruleset(name: str) -> AnyRuleset:
    """The ruleset object for a name or alias."""
    return _registry()[0][canonical_name(name)]


def builtin_scenarios() -> dict[str, str]:
    """Every built-in scenario id → the name of the ruleset it is for."""
    out: dict[str, str] = {}
    for name, rs in _registry()[0].items():
        for sid in rs.scenario_names():
            out.setdefault(sid, name)
    return out


def named_ruleset(scenario: str) -> str:
    """The ruleset a scenario asks for: a built-in's own, or a file's ``ruleset =`` line."""
    builtins = builtin_scenarios()
    if scenario in builtins:
        return builtins[scenario]
    path = Path(scenario)
    if path.suffix != ".toml" and not path.exists():
        raise UnknownNameError("scenario", scenario, list(builtins))
    value = read_scenario_toml(path).get("ruleset", DEFAULT)
    if not isinstance(value, str):
        raise ScenarioError(f"{path}: ruleset: expected a ruleset name, e.g. {DEFAULT!r}")
    try:
        return canonical_name(value)
    except UnknownNameError as exc:
        raise ScenarioError(f"{path}: ruleset: {exc}") from None


def ruleset_of_scenario(scenario: str) -> AnyRuleset:
    """The ruleset a scenario (built-in name or file path) asks for, its schema checked."""
    rs = get_ruleset(named_ruleset(scenario))
    rs.check_scenario(scenario)
    return rs


def ruleset_part(name: str, part: str) -> ModuleType | None:
    """A ruleset's optional module ``part`` (e.g. the web table or order forms), or ``None``.

    Looked for in the ruleset's own package, then in the package its module names as
    ``PARTS_FROM`` (a ruleset played on another's game, as 1D12 and TGD on bf1900's).
    """
    module = _module_of(name)
    packages = [module.rsplit(".", 1)[0]]
    borrowed = getattr(importlib.import_module(module), "PARTS_FROM", None)
    if isinstance(borrowed, str):
        packages.append(borrowed)
    for package in packages:
        try:
            return importlib.import_module(f"{package}.{part}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{package}.{part}":
                raise
    return None


def _module_of(name: str) -> str:
    """The module that declares the ruleset ``name`` (or an alias)."""
    wanted = get_ruleset(name)
    for module in MODULES:
        if importlib.import_module(module).RULESET is wanted:
            return module
    raise UnknownNameError("ruleset", name, ruleset_names())
