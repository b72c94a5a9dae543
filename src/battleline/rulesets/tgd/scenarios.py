"""The tgd ruleset's scenarios: bf1900-schema files, and what it refuses.

TGD scenarios are Battlefleet 1900 scenario files (same schema: sides, divisions, ships, land,
victory points) with ``ruleset = "tgd"``; the built-ins live with the other bf1900-schema files
in ``rulesets/bf1900/data/scenarios/`` (``tgd_*.toml``), so bf1900's set-up, land and Command
Phase find them by id.

:func:`check_scenario` refuses a scenario that needs a part the TGD rules lack: the draft has no
torpedo rules, so a side made only of torpedo craft (destroyers, torpedo boats) would sail
without a weapon that matters; such a scenario is refused (``RulesetError``) with the side and
the reason, never played as an empty game.
"""

from __future__ import annotations

from battleline.errors import RulesetError
from battleline.rulesets.bf1900.ruleset import bf1900_scenario_names
from battleline.rulesets.bf1900.scenario import Scenario, get_scenario
from battleline.rulesets.bf1900.ship import ShipType

NAME = "tgd"
#: Ship types whose weapon is the torpedo, which the TGD draft does not cover.
TORPEDO_CRAFT = frozenset({ShipType.DESTROYER, ShipType.TORPEDO_BOAT})


def scenario_names() -> list[str]:
    """The built-in scenarios that name the tgd ruleset."""
    return bf1900_scenario_names(NAME)


def scenario_of(name: str) -> Scenario:
    """The validated scenario behind an id or a path (raises ``ScenarioError``)."""
    return get_scenario(name)


def check_scenario(name: str) -> str:
    """Validate with the bf1900 schema, then refuse what TGD cannot play; the title."""
    sc = scenario_of(name)
    for side in sc.sides:
        ships = [s for d in side.divisions for s in d.ships]
        if ships and all(s.ship_class.type in TORPEDO_CRAFT for s in ships):
            raise RulesetError(
                f"scenario {sc.id!r}: side {side.name!r} has only torpedo craft "
                f"({', '.join(s.name for s in ships)}); the TGD rules have no torpedoes, so "
                "the tgd ruleset cannot play it (use bf1900)"
            )
    return sc.title
