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

The scale, land and charts are loaded once and cached (:mod:`game_data`); the state names them
(scale by name, land through its scenario). Each phase's orders are read and checked in
:mod:`orders`, the victory conditions are :mod:`victory`; every name this module held before
they moved out stays importable here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventLog
from battleline.engine.ruleset import PhaseSpec, ShipFate
from battleline.engine.state import Result
from battleline.rulesets.bf1900 import command, gunnery, movement_phase, notation, torpedoes
from battleline.rulesets.bf1900.crews import Laying, laying_of, navy_laying
from battleline.rulesets.bf1900.damage.phase import run_damage_phase
from battleline.rulesets.bf1900.game_data import (
    charts_in_play,
    land_of,
    scale_of,
    use_charts,
)
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.observation import side_skill, watchers
from battleline.rulesets.bf1900.orders import (
    SealedCommand,
    has_damage_control,
    own_ship,
    parse_command,
    parse_damage_control,
    parse_gunnery,
    parse_torpedoes,
    split_ship,
)
from battleline.rulesets.bf1900.outward import announced
from battleline.rulesets.bf1900.planning import PlannedMove
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.scenario_index import builtin_ids_for
from battleline.rulesets.bf1900.secrets import secrets_for
from battleline.rulesets.bf1900.setup import harbour_after_move, nets_out, set_up, weigh_anchors
from battleline.rulesets.bf1900.shells import ShellQuality, navy_shells
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.victory import (
    crippled,
    points_against,
    ship_fate,
    ship_points,
    verdict,
)
from battleline.rulesets.bf1900.view import SideView, side_view

if TYPE_CHECKING:
    from battleline.engine.flow import Game

# Private names other modules and tests read here before they moved to ``orders``/``setup``.
_own_ship = own_ship
_split_ship = split_ship
_harbour_after_move = harbour_after_move

NAME = "bf1900"
VERSION = "0.1"
ALIASES = ("battlefleet1900", "bf1900-1d6")


def new_state(scenario: str, seed: int) -> Bf1900State:
    """Set up a scenario for a bf1900 game (``setup.set_up``)."""
    return set_up(scenario, seed, f"{NAME}@{VERSION}")


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
    and groundings stop ships (``movement_phase.movement_phase``); each division makes the move
    planned when its orders were sealed, unless the Command Phase changed it."""
    result = movement_phase.movement_phase(
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
    harbour_after_move(state)


def resolve_gunnery(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Measure every sealed estimate at once (BF6-GUN-03, BF6-MEAS-01); sinking ships' crews roll
    first (BF6-SINK-04). The shell sets of the hit zones wait for Damage Step Two.

    Each side's entries were validated against this table when sealed (:func:`parse_gunnery`,
    the phase's parser; nothing moves between a phase's orders and its resolution), and a
    check of the whole log is each side's checks together (they concern each firer alone), so
    they are not validated again."""
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
        checked=True,
    )


def resolve_torpedo(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Launch and run the declared torpedoes (BF6-TORP-01..11)."""
    torpedo_step(state, orders, dice, events, charts_in_play())


def torpedo_step(
    state: Bf1900State,
    orders: Orders,
    dice: SeededDice,
    events: EventLog,
    charts: torpedoes.TorpedoChart,
    *,
    die: int = 6,
    runs_under: int = torpedoes.NORMAL_DEPTH_MISSES_UP_TO,
) -> None:
    """The torpedo step of either edition: every side's launches run on the edition's chart and
    die (``torpedoes.resolve_torpedoes``), ships at anchor with nets out on the nets line, each
    launch seen by the sides in sight of the firer; the hits wait for Damage Step Two."""
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
            charts,
            dice,
            events,
            harbour=nets_out(state),
            die=die,
            runs_under=runs_under,
            seen_by=watchers(state, [la.firer for la in launches]),
        )
    )


def declared_by_ship(state: Bf1900State, orders: Orders) -> dict[str, list[Any]]:
    """Every side's damage-control declarations, by ship, in side order (either edition)."""
    declarations: dict[str, list[Any]] = {}
    for side in state.sides:
        for decl in orders[side]:
            declarations.setdefault(decl.ship, []).append(decl)
    return declarations


def resolve_damage(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Damage Steps One to Four (BF6-DMG-02..13): fire and flooding, the turn's shell sets and
    torpedo hits, the declared damage control, sinking and listing (``damage.phase``)."""
    run_damage_phase(
        state.logs,
        list(state.shell_sets),
        list(state.torpedo_hits),
        declared_by_ship(state, orders),
        charts_in_play(),
        dice,
        events,
        navy_shells=shells_of(state),
        laying=laying_by_ship(state),
    )


def shells_of(state: Bf1900State) -> dict[str, dict[Ammo, ShellQuality]]:
    """The game's shell quality by firing navy (reconstructed, ``shells.py``): the navies of its
    ships in the scenario's year."""
    year = get_scenario(state.scenario).battle_year
    return navy_shells(frozenset(log.cls.navy for log in state.logs.values()), year)


def laying_by_ship(state: Bf1900State) -> dict[str, Laying]:
    """The laying die of every ship whose crew rolls one (reconstructed, ``crews.py``): her
    navy's in the battle's year where the crews file has one, else her side's ``[[sides]]
    gunnery``."""
    year = get_scenario(state.scenario).battle_year
    by_side = {side: laying_of(side_skill(state, side)) for side in state.sides}
    out: dict[str, Laying] = {}
    for name, log in state.logs.items():
        laying = navy_laying(log.cls.navy, year) or by_side.get(log.side)
        if laying is not None:
            out[name] = laying
    return out


def end_turn(state: Bf1900State, events: EventLog) -> Result | None:
    """Clear the turn's hand-overs; end the game when a side has nothing left in battle."""
    state.plans = None
    state.shell_sets = []
    state.torpedo_hits = []
    weigh_anchors(state, events)
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
        needs_orders=has_damage_control,
        rules="BF6-DMG-02, BF6-DC-01..04",
    ),
)


def bf1900_scenario_names(ruleset: str) -> list[str]:
    """The built-in bf1900-schema scenarios that name ``ruleset`` (read, not validated: loading
    one validates that one, ``scenario_index``)."""
    return builtin_ids_for(ruleset)


def check_bf1900_scenario(scenario: str) -> str:
    """Validate a scenario with the bf1900 schema (raises ``ScenarioError``); its title."""
    return get_scenario(scenario).title


class Ruleset:
    """The bf1900 ruleset as the engine sees it."""

    name: str = NAME
    version: str = VERSION
    aliases: tuple[str, ...] = ALIASES
    phases: tuple[PhaseSpec[Bf1900State, Any], ...] = PHASES
    #: The scenario schema this ruleset reads (the 1D12 edition and TGD read it too): a scenario
    #: may be played with another ruleset only if that one reads the same schema.
    schema: str = "bf1900"

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

# Every name this module held before it was split stays importable from here.
__all__ = [
    "ALIASES",
    "NAME",
    "PHASES",
    "RULESET",
    "VERSION",
    "Orders",
    "Ruleset",
    "SealedCommand",
    "bf1900_scenario_names",
    "check_bf1900_scenario",
    "crippled",
    "declared_by_ship",
    "end_turn",
    "land_of",
    "nets_out",
    "new_state",
    "parse_command",
    "parse_damage_control",
    "parse_gunnery",
    "parse_torpedoes",
    "points_against",
    "resolve_command",
    "resolve_damage",
    "resolve_gunnery",
    "resolve_movement",
    "resolve_torpedo",
    "scale_of",
    "shells_of",
    "ship_fate",
    "ship_points",
    "torpedo_step",
    "use_charts",
    "verdict",
]
