"""Set-up (BF6-GEN-04, BF6-GEN-06): every ship placed and her log filled, the divisions formed,
the scenario's doctrine and harbour state recorded. Then, turn by turn, the harbour: a ship's
nets come in once she moves (BF12C-TH-04), and ships at anchor weigh it.
"""

from __future__ import annotations

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    default_interval_m,
    initial_wake,
)
from battleline.rulesets.bf1900.game_data import scale_named
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State


def set_up(scenario: str, seed: int, ruleset: str) -> Bf1900State:
    """Place every ship, fill its log and form the divisions (BF6-GEN-04, BF6-GEN-06), for a game
    of ``ruleset`` (its ``name@version``)."""
    sc = get_scenario(scenario)
    scale = scale_named(sc.scale)
    logs: dict[str, ShipLog] = {}
    poses: dict[str, Pose] = {}
    divisions: dict[str, Division] = {}
    moved: dict[str, float] = {}
    nets: list[str] = []
    for side in sc.sides:
        fleet_flag = side.fleet_flagship or side.divisions[0].flag
        for div in side.divisions:
            classes = [s.ship_class for s in div.ships]
            interval = default_interval_m([scale.base_size_m(c)[0] for c in classes])
            names = []
            for (ship, x, y, heading, knots), cls in zip(
                div.placed(interval), classes, strict=True
            ):
                log = logs[ship.name] = ShipLog(ship.name, cls, side.name)
                log.anchor_turns = div.anchor_turns(ship)
                log.machinery_disabled = div.disabled(ship)
                if div.nets(ship):
                    nets.append(ship.name)
                poses[ship.name] = Pose(x, y, heading)
                moved[ship.name] = scale.knots_to_m_per_turn(min(knots, cls.max_knots))
                names.append(ship.name)
            division = Division(
                div.name,
                side.name,
                tuple(names),
                div.flag,
                Formation(div.formation),
                fleet_flagship=fleet_flag in names,
                interval_m=div.spacing or interval,
            )
            divisions[div.name] = division.with_(wake=initial_wake(division, poses))
    state = Bf1900State(
        scenario=scenario,
        ruleset=ruleset,
        seed=seed,
        sides=(sc.sides[0].name, sc.sides[1].name),
        logs=logs,
        poses=poses,
        divisions=divisions,
        turn_limit=sc.turn_limit,
        scale=sc.scale,
        land=[[(float(x), float(y)) for x, y in p.points] for p in sc.land],
        moved_last_m=moved,
        tracks={n: [(p.x, p.y)] for n, p in poses.items()},
    )
    # Each side's own AI settings (crew gunnery, fighting range), shown only to that side.
    doctrine = {side.name: side.doctrine() for side in sc.sides if side.doctrine()}
    if doctrine:
        state.extra["doctrine"] = doctrine
    if nets:  # ships at anchor with nets out, until they first move (BF12C-TH-04)
        state.extra["nets_out"] = nets
    return state


def nets_out(state: Bf1900State) -> list[str]:
    """The ships still at anchor with their torpedo nets out: torpedoes at them use the
    "stationary with nets" line (BF12C-TH-04, seed 002). A ship leaves the list once she moves."""
    return list(state.extra.get("nets_out", ()))


def harbour_after_move(state: Bf1900State) -> None:
    """A ship that has moved is under way: her nets are in (``nets_out``)."""
    if "nets_out" not in state.extra:
        return
    still = [s for s in state.extra["nets_out"] if state.moved_last_m.get(s, 0.0) <= 0.0]
    if still:
        state.extra["nets_out"] = still
    else:
        del state.extra["nets_out"]


def weigh_anchors(state: Bf1900State, events: EventLog) -> None:
    """End of turn: every ship still weighing anchor is one turn nearer being free to move; the
    owner is told when her anchor is up."""
    for name, log in state.logs.items():
        if log.anchor_turns > 0:
            log.anchor_turns -= 1
            if log.anchor_turns == 0 and log.in_battle and not log.machinery_disabled:
                events.emit(
                    EventKind.NOTE,
                    f"{name} has weighed anchor and may get under way",
                    ship=name,
                )
