"""The Battlefleet 1900 (1D6 edition) ruleset object: set-up, the phase table, victory.

The phase table (BF6-GEN-07/08) is data — a tuple of :class:`PhaseSpec` — and each row calls the
modules that hold the rules:

========== ============================ =====================================================
phase      orders (text notation)       resolved by
========== ============================ =====================================================
command    divisional and fleet orders  ``command`` (plan, transfer of command, fleet signals)
movement   none (carries out command)   ``movement`` (tracks, collisions, groundings)
gunnery    the gunnery log              sinking-crew roll (BF6-SINK-04), ``gunnery``
torpedo    torpedo launches             ``torpedoes.resolve_torpedoes`` (launch and run)
damage     damage-control declarations  ``damage.phase.run_damage_phase`` (Steps One to Four)
========== ============================ =====================================================

The scale, land and charts are loaded once and cached; the state names them (scale by name,
land through its scenario).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.engine.ruleset import PhaseSpec, ShipFate
from battleline.engine.state import Result
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900 import command, gunnery, notation, planning, torpedoes
from battleline.rulesets.bf1900.charts import Charts, load_charts
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration, parse_declarations
from battleline.rulesets.bf1900.damage.phase import run_damage_phase
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
    default_interval_m,
    initial_wake,
)
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.observation import observing, sighted
from battleline.rulesets.bf1900.outward import announced
from battleline.rulesets.bf1900.planning import PlannedMove
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import Scenario, builtin_scenarios, get_scenario
from battleline.rulesets.bf1900.secrets import secrets_for
from battleline.rulesets.bf1900.shells import ShellQuality, navy_shells
from battleline.rulesets.bf1900.ship import GunClass
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.table import Land
from battleline.rulesets.bf1900.view import SideView, side_view

if TYPE_CHECKING:
    from battleline.engine.flow import Game

NAME = "bf1900"
VERSION = "0.1"
ALIASES = ("battlefleet1900", "bf1900-1d6")


@lru_cache(maxsize=8)
def _scale(name: str) -> Scale:
    return get_scale(name)


@lru_cache(maxsize=64)
def _land(scenario: str) -> tuple[Land, ...]:
    sc = get_scenario(scenario)
    return tuple(Land.from_coords(p.name, p.points) for p in sc.land)


#: A user's chart file or folder in place of the packaged charts (see :func:`use_charts`).
_USER_CHARTS: list[Charts] = []


def _charts() -> Charts:
    return _USER_CHARTS[0] if _USER_CHARTS else load_charts()


def use_charts(path: str | Path | None) -> Charts:
    """Play this process's games with the charts in ``path`` (a file or a folder of ``.toml``
    files, validated now: a bad file raises :class:`RulesDataError` naming file, table and
    field); ``None`` goes back to the packaged charts (cached by ``load_charts``)."""
    charts = load_charts(path)
    _USER_CHARTS.clear()
    if path is not None:
        _USER_CHARTS.append(charts)
    return charts


def scale_of(state: Bf1900State) -> Scale:
    """The game's :class:`~battleline.rulesets.bf1900.scales.Scale`."""
    return _scale(state.scale)


def land_of(state: Bf1900State) -> tuple[Land, ...]:
    """The scenario's land as ``table.Land`` pieces."""
    return _land(state.scenario)


# -- victory ---------------------------------------------------------------------------------


def crippled(log: ShipLog) -> bool:
    """Crippled (reconstructed): dead in the water, or half or more of its main-gun positions
    and batteries out of action."""
    if log.propulsion.available <= 0.0:
        return True
    mains = log.cls.mountings_of(GunClass.MAIN)
    if not mains:
        return False
    out = sum(1 for m in mains if log.guns_in_action(m.key) == 0)
    return 2 * out >= len(mains)


def ship_fate(log: ShipLog) -> str:
    """One word for the summary table: sunk, sinking, surrendered, crippled, damaged, intact."""
    if log.sunk:
        return "sunk"
    if log.sinking is not None:
        return "sinking"
    if log.surrendered:
        return "surrendered"
    if crippled(log):
        return "crippled"
    damaged = (
        log.propulsion.hits
        or log.flooding_points
        or log.fires
        or any(not p.in_action for p in log.positions.values())
        or log.dc_dice < len(log.dc_boxes)
    )
    return "damaged" if damaged else "intact"


def ship_points(log: ShipLog, scenario: Scenario) -> tuple[float, str]:
    """The victory points the enemy scores for one ship and why: sunk (or sinking, or struck
    where that counts as sunk) ``sunk_per_size`` × size, crippled or struck ``crippled_per_size``
    × size, otherwise none."""
    v = scenario.victory
    fate = ship_fate(log)
    size = log.cls.size
    if fate in ("sunk", "sinking") or (fate == "surrendered" and v.surrender_counts_as_sunk):
        return v.sunk_per_size * size, f"{fate}: {v.sunk_per_size:g} × size {size}"
    if fate in ("crippled", "surrendered"):
        return v.crippled_per_size * size, f"{fate}: {v.crippled_per_size:g} × size {size}"
    return 0.0, fate


def points_against(state: Bf1900State, side: str, scenario: Scenario) -> float:
    """Victory points the enemies of ``side`` have scored against its ships."""
    return sum(ship_points(log, scenario)[0] for log in state.logs.values() if log.side == side)


def verdict(state: Bf1900State, reason: str) -> Result:
    """Points for ships sunk (or surrendered) and crippled, by size; the winner needs a lead of
    at least the scenario's margin of the larger score, else a draw."""
    sc = get_scenario(state.scenario)
    a, b = state.sides
    points = {a: points_against(state, b, sc), b: points_against(state, a, sc)}
    hi = max(points.values())
    lead = abs(points[a] - points[b])
    winner = None
    if hi > 0 and lead >= sc.victory.margin * hi and lead > 0:
        winner = a if points[a] > points[b] else b
    return Result(winner, points, reason)


# -- set-up ----------------------------------------------------------------------------------


def new_state(scenario: str, seed: int) -> Bf1900State:
    """Place every ship, fill its log and form the divisions (BF6-GEN-04, BF6-GEN-06)."""
    sc = get_scenario(scenario)
    scale = _scale(sc.scale)
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
        ruleset=f"{NAME}@{VERSION}",
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


def _harbour_after_move(state: Bf1900State) -> None:
    """A ship that has moved is under way: her nets are in (``nets_out``)."""
    if "nets_out" not in state.extra:
        return
    still = [s for s in state.extra["nets_out"] if state.moved_last_m.get(s, 0.0) <= 0.0]
    if still:
        state.extra["nets_out"] = still
    else:
        del state.extra["nets_out"]


def _weigh_anchors(state: Bf1900State, events: EventLog) -> None:
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


# -- order parsing ---------------------------------------------------------------------------


def _own_ship(state: Bf1900State, side: str, name: str, phase: str) -> ShipLog:
    log = state.logs.get(name)
    if log is None:
        raise IllegalOrderError(f"turn {state.turn} {phase}: no ship named {name!r}")
    if log.side != side:
        raise IllegalOrderError(f"turn {state.turn} {phase}: {name} is not a ship of {side}")
    return log


def _split_ship(text: str) -> tuple[str, str]:
    if ":" not in text:
        raise OrderSyntaxError(f"cannot read {text!r}: write '<ship>: <order>'")
    ship, rest = text.split(":", 1)
    return ship.strip(), rest.strip()


@dataclass(frozen=True, slots=True)
class SealedCommand:
    """One side's Command Phase orders as sealed: the orders by division, and the move each
    division's orders make, planned on submission (the Movement Phase carries it out)."""

    orders: dict[str, tuple[notation.Order, ...]]
    moves: dict[str, PlannedMove]


def parse_command(state: Bf1900State, side: str, texts: Sequence[str]) -> SealedCommand:
    """Read ``<division>: <orders>`` lines (BF6-CMD-01..17 in ``notation``; fleet messages as
    ``SIG ...``), check each division's orders and plan its move (``command.check_and_plan``)."""
    out: dict[str, tuple[notation.Order, ...]] = {}
    for text in texts:
        if ":" not in text:
            raise OrderSyntaxError(
                f"turn {state.turn} command: cannot read {text!r}; write '<division>: <orders>', "
                "e.g. '1st Division: SPD12 TS90S'"
            )
        name, rest = (part.strip() for part in text.split(":", 1))
        division = state.divisions.get(name)
        if division is None or division.side != side:
            known = sorted(n for n, d in state.divisions.items() if d.side == side)
            raise IllegalOrderError(
                f"turn {state.turn} command: {side} has no division {name!r} "
                f"(its divisions: {', '.join(known)}; BF6-CMD-02)"
            )
        out[name] = out.get(name, ()) + notation.parse_orders(rest)
    # Every check the Command Phase makes without dice, done now: stop with another order,
    # impossible speeds (BF6-MOV-01/03/06), ineligible drop-outs (BF6-CMD-16) and flag transfers
    # (BF6-CMD-19), so nothing a side submits can fail later at resolution.
    _, moves = command.check_and_plan(
        state.divisions, out, state.logs, state.poses, scale_of(state), state.moved_last_m
    )
    for name, orders in out.items():
        surrender = [
            o
            for o in orders
            if isinstance(o, notation.Signal) and o.message is notation.FleetMessage.SURRENDER
        ]
        if surrender and not get_scenario(state.scenario).option("surrender", True):
            raise IllegalOrderError(
                f"turn {state.turn} command: {name}: this scenario allows no surrender "
                "(option 'surrender' is off; BF6-CMD-32)"
            )
    return SealedCommand(out, moves)


def _in_sight(state: Bf1900State, side: str, phase: str, shots: Sequence[tuple[str, str]]) -> None:
    """Refuse a ``(firer, target)`` whose target is an enemy ship the side cannot see (not in
    its view): "not in sight", without a word of where she is or what hides her (BF6-LOS-01;
    issue 11, §4). Unknown names, own ships and the sunk are left to the phase's own checks."""
    if not shots or not observing(state):
        return
    seen: dict[str, str] | None = None
    for firer, target in shots:
        log = state.logs.get(target)
        if log is None or log.side == side or not log.afloat:
            continue
        if seen is None:
            seen = sighted(state, side)
        if target not in seen:
            raise IllegalOrderError(
                f"turn {state.turn} {phase}: {firer} firing at {target}: not in sight (BF6-LOS-01)"
            )


def parse_torpedoes(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[torpedoes.TorpedoLaunch]:
    """Read and check torpedo launches (BF6-TORP-02..10) with ``torpedoes``."""
    launches = [torpedoes.TorpedoLaunch.parse(t) for t in texts]
    for launch in launches:
        _own_ship(state, side, launch.firer, "torpedo")
    _in_sight(state, side, "torpedo", [(la.firer, la.target) for la in launches])
    if launches:
        torpedoes.validate_launches(
            launches, state.poses, state.logs, scale_of(state), land_of(state)
        )
    return launches


def parse_gunnery(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[gunnery.GunneryEntry]:
    """Read and check a side's gunnery log (BF6-GUN-01/02, BF6-TGT, BF6-LOS, BF6-ROF, arcs)."""
    entries = [gunnery.GunneryEntry.parse(t, side) for t in texts]
    for e in entries:
        _own_ship(state, side, e.firer, "gunnery")
    surprised = get_scenario(state.scenario).surprised_until(side) if entries else 0
    if state.turn <= surprised:
        raise IllegalOrderError(
            f"turn {state.turn} gunnery: {entries[0].firer} cannot fire: {side} was taken by "
            f"surprise and its guns are unmanned until turn {surprised + 1} (scenario "
            "[[sides]] surprised_turns)"
        )
    _in_sight(state, side, "gunnery", [(e.firer, e.target) for e in entries])
    if entries:
        gunnery.validate_entries(
            entries,
            state.poses,
            state.logs,
            scale_of(state),
            land=land_of(state),
            turn=state.turn,
            side=side,
        )
    return entries


def parse_damage_control(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[DCDeclaration]:
    """Read ``<ship>: P; M:A`` lines: each ship's Step Three declarations, named before any die
    is rolled (BF6-REP-05), checked against its log (BF6-DC-02/04, BF6-SINK-03)."""
    out: list[DCDeclaration] = []
    per_ship: dict[str, list[DCDeclaration]] = {}
    for text in texts:
        ship, rest = _split_ship(text)
        log = _own_ship(state, side, ship, "damage")
        decls = parse_declarations(ship, rest)
        per_ship.setdefault(ship, []).extend(decls)
        validate_declarations(log, per_ship[ship])
        out.extend(decls)
    return out


def _has_damage_control(state: Bf1900State, side: str) -> bool:
    """Whether any of the side's ships has DC dice and something to spend them on."""
    return any(
        log.side == side and log.in_battle and log.dc_dice > 0 and ship_fate(log) != "intact"
        for log in state.logs.values()
    )


# -- resolvers -------------------------------------------------------------------------------

Orders = Mapping[str, Any]


def resolve_command(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """The Command Phase for both sides at once (BF6-CMD-01..32): lost ships leave their
    divisions, flags pass (BF6-CMD-18..24), drop-outs, fleet messages (surrender included); the
    divisions' movement orders, and the moves planned when they were sealed, wait for the
    Movement Phase."""
    merged: dict[str, tuple[notation.Order, ...]] = {}
    moves: dict[str, PlannedMove] = {}
    for side in state.sides:
        merged.update(orders[side].orders)
        moves.update(orders[side].moves)
    with announced(state.logs, events):  # a ship that strikes her colours shows it
        result = command.command_phase(
            state.divisions,
            merged,
            state.logs,
            state.poses,
            scale_of(state),
            state.moved_last_m,
            dice,
            events,
            planned=moves,
        )
    state.divisions = dict(result.divisions)
    state.plans = {name: tuple(o) for name, o in result.movement_orders.items()}
    state.moves = dict(result.plans)


def resolve_movement(
    state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog
) -> None:
    """Every division moves at once (BF6-GEN-07, BF6-MOV-01..07, BF6-CMD-04..17); collisions
    and groundings stop ships (``planning.movement_phase``); each division makes the move
    planned when its orders were sealed, unless the Command Phase changed it."""
    result = planning.movement_phase(
        state.divisions,
        state.plans or {},
        state.poses,
        state.logs,
        scale_of(state),
        state.moved_last_m,
        events,
        land_of(state),
        planned=state.moves,
    )
    state.moves = {}
    state.poses = dict(result.poses)
    state.divisions = dict(result.divisions)
    state.moved_last_m = dict(result.last_moves)
    for name, track in result.tracks.items():
        if track.length_m > 0:
            state.tracks.setdefault(name, []).extend(track.points[1:])
    _harbour_after_move(state)


def resolve_gunnery(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Measure every sealed estimate at once (BF6-GUN-03, BF6-MEAS-01); sinking ships' crews roll
    first (BF6-SINK-04). The shell sets of the hit zones wait for Damage Step Two."""
    entries = [e for side in state.sides for e in orders[side]]
    state.shell_sets = []
    if not entries:
        return
    state.shell_sets = gunnery.resolve_gunnery(
        entries,
        state.poses,
        state.logs,
        scale_of(state),
        land_of(state),
        dice,
        events,
        turn=state.turn,
    )


def resolve_torpedo(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Launch and run the declared torpedoes (BF6-TORP-01..11)."""
    launches = [launch for side in state.sides for launch in orders[side]]
    state.torpedo_hits = []
    if not launches:
        return
    state.torpedo_hits = list(
        torpedoes.resolve_torpedoes(
            launches,
            state.poses,
            state.logs,
            scale_of(state),
            land_of(state),
            _charts(),
            dice,
            events,
            harbour=nets_out(state),
        )
    )


def resolve_damage(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Damage Steps One to Four (BF6-DMG-02..13): fire and flooding, the turn's shell sets and
    torpedo hits, the declared damage control, sinking and listing (``damage.phase``)."""
    declarations: dict[str, list[DCDeclaration]] = {}
    for side in state.sides:
        for decl in orders[side]:
            declarations.setdefault(decl.ship, []).append(decl)
    run_damage_phase(
        state.logs,
        list(state.shell_sets),
        list(state.torpedo_hits),
        declarations,
        _charts(),
        dice,
        events,
        navy_shells=shells_of(state),
    )


def shells_of(state: Bf1900State) -> dict[str, dict[Ammo, ShellQuality]]:
    """The game's shell quality by firing navy (reconstructed, ``shells.py``): the navies of its
    ships in the scenario's year."""
    year = get_scenario(state.scenario).battle_year
    return navy_shells(frozenset(log.cls.navy for log in state.logs.values()), year)


def end_turn(state: Bf1900State, events: EventLog) -> Result | None:
    """Clear the turn's hand-overs; end the game when a side has nothing left in battle."""
    state.plans = None
    state.shell_sets = []
    state.torpedo_hits = []
    _weigh_anchors(state, events)
    beaten = [
        s
        for s in state.sides
        if not any(log.in_battle for log in state.logs.values() if log.side == s)
    ]
    if beaten:
        who = " and ".join(beaten)
        return verdict(state, f"{who} has no ship left in the battle")
    return None


def _has_torpedoes(state: Bf1900State, side: str) -> bool:
    return any(
        log.in_battle and any(n > 0 for n in log.torpedoes_left.values())
        for log in state.logs.values()
        if log.side == side
    )


PHASES: tuple[PhaseSpec[Bf1900State, Any], ...] = (
    PhaseSpec(
        "command",
        "divisional and fleet orders",
        resolve_command,
        parse_command,
        rules="BF6-CMD-01..32",
    ),
    PhaseSpec("movement", None, resolve_movement, rules="BF6-MOV-01..07"),
    PhaseSpec(
        "gunnery", "gunnery log", resolve_gunnery, parse_gunnery, rules="BF6-GUN, BF6-SINK-04"
    ),
    PhaseSpec(
        "torpedo",
        "torpedo launches",
        resolve_torpedo,
        parse_torpedoes,
        needs_orders=_has_torpedoes,
        rules="BF6-TORP-01..11",
    ),
    PhaseSpec(
        "damage",
        "damage-control declarations",
        resolve_damage,
        parse_damage_control,
        needs_orders=_has_damage_control,
        rules="BF6-DMG-02, BF6-DC-01..04",
    ),
)


def bf1900_scenario_names(ruleset: str) -> list[str]:
    """The built-in bf1900-schema scenarios that name ``ruleset``."""
    return [sid for sid, sc in builtin_scenarios().items() if sc.ruleset == ruleset]


def check_bf1900_scenario(scenario: str) -> str:
    """Validate a scenario with the bf1900 schema (raises ``ScenarioError``); its title."""
    return get_scenario(scenario).title


class Ruleset:
    """The bf1900 ruleset as the engine sees it."""

    name: str = NAME
    version: str = VERSION
    aliases: tuple[str, ...] = ALIASES
    phases: tuple[PhaseSpec[Bf1900State, Any], ...] = PHASES

    def scenario_names(self) -> list[str]:
        """The built-in scenarios for this ruleset."""
        return bf1900_scenario_names(self.name)

    def check_scenario(self, scenario: str) -> str:
        """Validate a scenario with the bf1900 schema; its title."""
        return check_bf1900_scenario(scenario)

    def new_state(self, scenario: str, seed: int) -> Bf1900State:
        """Set up a scenario."""
        return new_state(scenario, seed)

    def owners(self, state: Bf1900State) -> dict[str, str]:
        """Every ship's side."""
        return state.ship_sides()

    def view(self, game: Game[Bf1900State, SideView], side: str, since: int = 0) -> SideView:
        """The side's view (:mod:`battleline.rulesets.bf1900.view`)."""
        return side_view(game, side, since)

    def secrets(self, state: Any, side: str) -> set[str]:
        """What must not reach ``side`` now (:func:`~battleline.rulesets.bf1900.secrets.
        secrets_for`): enemy coordinates and logs, true ranges, torpedo counts, enemy orders.

        ``state`` is a :class:`Bf1900State`; typed loosely, like ``end_turn``, so that a ruleset
        built on this one (TGD) may name its own state type when it overrides this."""
        return secrets_for(state, side)

    def fates(self, state: Bf1900State) -> tuple[ShipFate, ...]:
        """Each ship's fate by :func:`ship_fate`, with speed, flooding, fires and DC dice."""
        return tuple(
            ShipFate(
                name,
                log.side,
                log.cls.name,
                log.cls.size,
                ship_fate(log),
                log.in_battle,
                (
                    ("speed", f"{log.speed_knots:g} kn"),
                    ("flooding", str(log.flooding_points)),
                    ("fires", str(log.fires)),
                    ("DC dice", str(log.dc_dice)),
                ),
            )
            for name, log in state.logs.items()
        )

    def picture(self, state: Bf1900State, path: str) -> str | None:
        """The tracks drawn with the table renderer (``render.render_table``)."""
        return self.picture_with_ticks(state, path, {})

    def picture_with_ticks(
        self,
        state: Bf1900State,
        path: str,
        ticks: Mapping[str, Sequence[tuple[int, float, float]]],
    ) -> str | None:
        """:meth:`picture` with turn ticks: ``ticks`` are the ships' ``(turn, x, y)`` positions
        after each move (the demo reads them from the MOVE events)."""
        from battleline.rulesets.bf1900.render import render_table

        scale = scale_of(state)
        written = render_table(
            Path(path),
            state.poses,
            {n: scale.base_size_m(log.cls) for n, log in state.logs.items()},
            {n: log.side for n, log in state.logs.items()},
            land_of(state),
            tracks=state.tracks,
            title=f"{state.scenario}, seed {state.seed}: turn {state.turn}",
            scale=scale,
            fates={n: ship_fate(log) for n, log in state.logs.items()},
            ticks=ticks,
        )
        return str(written)

    def end_turn(self, state: Bf1900State, events: EventLog) -> Result | None:
        """End-of-turn bookkeeping and the early-end check."""
        return end_turn(state, events)

    def ship_points(self, state: Bf1900State) -> tuple[tuple[str, str, float, str], ...]:
        """Each ship's worth to the enemy: (ship, her side, points, why), in scenario order
        (the after-action report's breakdown of :meth:`verdict`)."""
        sc = get_scenario(state.scenario)
        return tuple((name, log.side, *ship_points(log, sc)) for name, log in state.logs.items())

    def verdict(self, state: Bf1900State, reason: str) -> Result:
        """The result by the victory conditions."""
        return verdict(state, reason)


RULESET = Ruleset()
