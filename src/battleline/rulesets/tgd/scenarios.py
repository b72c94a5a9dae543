"""The tgd ruleset's scenarios: its own built-ins, bf1900-schema files, and what it refuses.

TGD scenarios are Battlefleet 1900 scenario files (same schema: sides, divisions, ships, land,
victory points) with ``ruleset = "tgd"``. The built-ins live in ``data/scenarios/`` of this
package; :func:`scenario_file` turns such an id into the file's path, so bf1900's set-up, land
and Command Phase read them as files while the game and its record keep the short id.

:func:`check_scenario` refuses a scenario that needs a part the TGD rules lack: the draft has no
torpedo rules, so a side made only of torpedo craft (destroyers, torpedo boats) would sail
without a weapon that matters; such a scenario is refused with the side and the reason, never
played as an empty game.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path

from battleline.errors import ScenarioError
from battleline.rulesets.bf1900.ruleset import bf1900_scenario_names
from battleline.rulesets.bf1900.scenario import Scenario, get_scenario, load_scenario_file
from battleline.rulesets.bf1900.ship import ShipType
from battleline.rulesets.bf1900.state import Bf1900State

NAME = "tgd"
#: Ship types whose weapon is the torpedo, which the TGD draft does not cover.
TORPEDO_CRAFT = frozenset({ShipType.DESTROYER, ShipType.TORPEDO_BOAT})


@cache
def builtin_files() -> dict[str, str]:
    """The packaged TGD scenarios: id → path of the file."""
    folder = resources.files("battleline.rulesets.tgd").joinpath("data", "scenarios")
    out: dict[str, str] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            path = str(Path(str(entry)))
            out[load_scenario_file(path).id] = path
    return out


def scenario_names() -> list[str]:
    """The TGD built-ins, then any bf1900 built-in that names the tgd ruleset."""
    return [*builtin_files(), *bf1900_scenario_names(NAME)]


def scenario_file(name: str) -> str:
    """The path of a TGD built-in by id; any other name (bf1900 id, file path) as it is."""
    return builtin_files().get(name, name)


def scenario_of(name: str) -> Scenario:
    """The validated scenario behind an id or a path (raises ``ScenarioError``)."""
    return get_scenario(scenario_file(name))


@contextmanager
def as_file(state: Bf1900State) -> Iterator[None]:
    """Inside the block ``state.scenario`` names the scenario's file, for the bf1900 code that
    looks the scenario up by that name (land, surrender option, set-up)."""
    name = state.scenario
    state.scenario = scenario_file(name)
    try:
        yield
    finally:
        state.scenario = name


def check_scenario(name: str) -> str:
    """Validate with the bf1900 schema, then refuse what TGD cannot play; the title."""
    sc = scenario_of(name)
    for side in sc.sides:
        ships = [s for d in side.divisions for s in d.ships]
        if ships and all(s.ship_class.type in TORPEDO_CRAFT for s in ships):
            raise ScenarioError(
                f"scenario {sc.id!r}: side {side.name!r} has only torpedo craft "
                f"({', '.join(s.name for s in ships)}); the TGD rules have no torpedoes, so "
                "the tgd ruleset cannot play it (use bf1900)"
            )
    return sc.title
