"""The built-in bf1900-schema scenario files by id, and scenario variants (``based_on``).

**Index.** :func:`builtin_index` reads each packaged file's TOML once and files it under its
``id``, without validating it: loading one scenario validates that one alone
(``scenario.get_scenario``), so a broken built-in file stops only its own games. A file that
cannot be read or has no ``id`` is set aside with the reason (:func:`broken_files`); the whole set
is validated by ``scenario.builtin_scenarios`` (which the tests run).

**Variants.** One scenario may be played under several rulesets that read the bf1900 schema
(bf1900, bf1900-1d12, tgd). Instead of a copy, a variant file names its base and what differs::

    based_on = "santiago-1898"
    id = "tgd-santiago-1898"
    title = "Santiago de Cuba, 3 July 1898 (TGD rules)"
    ruleset = "tgd"

:func:`resolve` makes it whole: the base's table with the variant's ``id``, ``title``,
``ruleset`` and optional ``description``. A variant sets nothing else, is based on a built-in
that is not itself a variant, and names a ruleset that reads the base's schema; anything else is
refused with a ``ScenarioError`` naming the field.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from importlib.abc import Traversable
from typing import Any

from battleline.errors import BattlelineError, ScenarioError

#: The schema these files are written in (a ruleset's ``schema``; bf1900's by default).
SCHEMA = "bf1900"
#: What a variant file may set.
VARIANT_KEYS = ("based_on", "id", "title", "ruleset", "description")

Index = dict[str, tuple[str, dict[str, Any]]]


def folder() -> Traversable:
    """Where the built-in files are (``data/scenarios`` of this package)."""
    return resources.files("battleline.rulesets.bf1900").joinpath("data", "scenarios")


@cache
def _read_all() -> tuple[Index, dict[str, str]]:
    index: Index = {}
    broken: dict[str, str] = {}
    for res in sorted(folder().iterdir(), key=lambda f: f.name):
        if not res.name.endswith(".toml"):
            continue
        try:
            with res.open("rb") as fh:
                raw = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            broken[res.name] = f"not valid TOML ({exc})"
            continue
        sid = raw.get("id")
        if not isinstance(sid, str) or not sid:
            broken[res.name] = "id: missing"
        elif sid in index:
            broken[res.name] = f"id: {sid!r} is used by another scenario ({index[sid][0]})"
        else:
            index[sid] = (res.name, raw)
    return index, broken


def forget() -> None:
    """Read the files again at the next look-up (after :func:`folder` changed, in tests)."""
    _read_all.cache_clear()


def builtin_index() -> Index:
    """Every readable built-in file: id → (file name, its TOML table), in file-name order."""
    return _read_all()[0]


def broken_files() -> dict[str, str]:
    """Built-in files left out of the index: file name → why."""
    return _read_all()[1]


def ruleset_of(raw: dict[str, Any]) -> str | None:
    """The canonical ruleset a file's table names (bf1900 when it names none), or ``None`` when
    the name is unknown (the file is refused when it is loaded)."""
    from battleline.rulesets import DEFAULT, canonical_name

    value = raw.get("ruleset", DEFAULT)
    if not isinstance(value, str):
        return None
    try:
        return canonical_name(value)
    except BattlelineError:
        return None


def builtin_ids_for(ruleset: str) -> list[str]:
    """The built-in scenarios that name ``ruleset``, variants included (no file is validated)."""
    return [sid for sid, (_, raw) in builtin_index().items() if ruleset_of(raw) == ruleset]


def schema_of(ruleset: str) -> str:
    """The scenario schema a ruleset reads (its ``schema``, else its own name)."""
    from battleline.rulesets import get_ruleset

    rs = get_ruleset(ruleset)
    return str(getattr(rs, "schema", rs.name))


def resolve(raw: dict[str, Any], source: str) -> dict[str, Any]:
    """A variant's table made whole from its base (a table without ``based_on`` as it is)."""
    if "based_on" not in raw:
        return raw
    for key in raw:
        if key not in VARIANT_KEYS:
            raise ScenarioError(
                f"{source}: {key}: a variant (based_on) sets only {', '.join(VARIANT_KEYS[1:])}; "
                "change the base scenario, or copy it"
            )
    base_id = raw["based_on"]
    index = builtin_index()
    if not isinstance(base_id, str) or base_id not in index:
        raise ScenarioError(
            f"{source}: based_on: no built-in bf1900-schema scenario {base_id!r}; "
            f"try one of {', '.join(sid for sid, (_, r) in index.items() if 'based_on' not in r)}"
        )
    base_file, base = index[base_id]
    if "based_on" in base:
        raise ScenarioError(
            f"{source}: based_on: {base_id!r} is itself a variant (of {base['based_on']!r}); "
            "base a variant on the original scenario"
        )
    for key in ("id", "ruleset"):
        if key not in raw:
            raise ScenarioError(f"{source}: {key}: a variant must name its own {key}")
    named = ruleset_of(raw)
    if named is None:
        raise ScenarioError(f"{source}: ruleset: unknown ruleset {raw['ruleset']!r}")
    if schema_of(named) != SCHEMA:
        raise ScenarioError(
            f"{source}: ruleset: the {named} ruleset cannot read {base_id!r} "
            f"({base_file}, a {SCHEMA}-schema scenario); play it with a ruleset that reads that "
            "schema (bf1900, bf1900-1d12, tgd)"
        )
    return {**base, **{k: v for k, v in raw.items() if k != "based_on"}}


__all__ = [
    "SCHEMA",
    "VARIANT_KEYS",
    "broken_files",
    "builtin_ids_for",
    "builtin_index",
    "folder",
    "forget",
    "resolve",
    "ruleset_of",
    "schema_of",
]
