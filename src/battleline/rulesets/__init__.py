"""The ruleset registry: ``get_ruleset("bf1900")`` (aliases "battlefleet1900", "bf1900-1d6").

Rulesets are imported lazily, on first use, so importing a ruleset's data modules never pulls in
the engine's game flow.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from battleline.errors import UnknownNameError

if TYPE_CHECKING:
    from battleline.engine.flow import RulesetLike

#: Canonical name → "module:attribute" of the ruleset object.
_REGISTRY: dict[str, str] = {
    "bf1900": "battleline.rulesets.bf1900.ruleset:RULESET",
    "bf1900-1d12": "battleline.rulesets.bf1900_12.ruleset:RULESET",
    "tgd": "battleline.rulesets.tgd.ruleset:RULESET",
    "dba": "battleline.rulesets.dba.ruleset:RULESET",
}
_ALIASES: dict[str, str] = {
    "dbsa": "dba",
    "damn-battleships-again": "dba",
    "battlefleet1900": "bf1900",
    "battlefleet-1900": "bf1900",
    "bf1900-1d6": "bf1900",
    "bf6": "bf1900",
    "battlefleet1900-v2": "bf1900-1d12",
    "bf1900-v2": "bf1900-1d12",
    "bf1900-12": "bf1900-1d12",
    "bf12": "bf1900-1d12",
}


def ruleset_names() -> list[str]:
    """Canonical names of the registered rulesets."""
    return sorted(_REGISTRY)


def canonical_name(name: str) -> str:
    """The canonical ruleset name for a name or alias (``bf1900@1.0`` is accepted too)."""
    key = name.strip().lower().split("@", 1)[0]
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise UnknownNameError("ruleset", name, [*_REGISTRY, *_ALIASES])
    return key


def get_ruleset(name: str) -> RulesetLike:
    """The ruleset object for a name or alias."""
    module_name, attr = _REGISTRY[canonical_name(name)].split(":")
    ruleset: RulesetLike = getattr(importlib.import_module(module_name), attr)
    return ruleset


def ruleset_of_scenario(scenario: str) -> RulesetLike:
    """The ruleset a scenario (built-in name or file path) asks for."""
    from battleline.rulesets.bf1900.scenario import peek_ruleset

    return get_ruleset(peek_ruleset(scenario))
