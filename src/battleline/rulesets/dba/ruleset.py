"""Damn Battleships Again as an engine ruleset, "dba": a turn is two spells.

Phase table (each spell: NIPs, movement, combat, damage control; DBA-SEQ-01):

========================  ==========================================================
``nips-1`` / ``nips-2``    the speller rolls one D6 of NIPs per squadron (automatic)
``move-1`` / ``move-2``    the speller's movement orders, one line per ship or squadron
``combat-1`` / ``combat-2``  both sides' fire orders; torpedoes roll first (DBA-TORP-06)
``dc-1`` / ``dc-2``        the speller's damage control (automatic, DBA-DC-01)
========================  ==========================================================

The first side in the scenario plays spell 1 of each turn. The scenario schema is
:mod:`.scenario`, the state :mod:`.state`, the order notations :mod:`.orders`, the steps of a
spell :mod:`.spells` and :mod:`.fire`, the side view :mod:`.view`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from battleline.engine.events import EventLog
from battleline.engine.geometry import Pose, norm360
from battleline.engine.ruleset import PhaseSpec, ShipFate
from battleline.engine.state import Result
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.rulesets.dba.combat import Conditions
from battleline.rulesets.dba.factors import ShipType
from battleline.rulesets.dba.fire import resolve_combat
from battleline.rulesets.dba.orders import (
    FireLine,
    FireOrder,
    MoveLine,
    check_fire,
    check_moves,
    parse_fire_line,
    parse_move_line,
)
from battleline.rulesets.dba.picture import draw
from battleline.rulesets.dba.points import points_value
from battleline.rulesets.dba.scenario import builtin_names, load_scenario
from battleline.rulesets.dba.spells import resolve_dc, resolve_moves, resolve_nips
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.table import base_metres, in_corridor
from battleline.rulesets.dba.tables import Result as Outcome
from battleline.rulesets.dba.view import DbaSideView, secrets, side_view
from battleline.rulesets.dba.windy_corner import SplashConfusion

if TYPE_CHECKING:
    from battleline.engine.flow import Game

NAME = "dba"
VERSION = "0.2"
ALIASES = ("dbsa", "damn-battleships-again")

__all__ = [
    "RULESET",
    "FireLine",
    "MoveLine",
    "in_corridor",
    "new_state",
    "parse_fire_line",
    "parse_move_line",
    "ships_of",
]


def new_state(scenario: str, seed: int) -> DbaState:
    """Set up a DBA scenario: ships from Annex A on their bases, option toggles checked."""
    sc = load_scenario(scenario)
    options = sc.options_parsed
    base = base_metres()
    ships: dict[str, ShipStatus] = {}
    poses: dict[str, Pose] = {}
    withdrawn: list[str] = []
    for entry in sc.ship:
        factors = entry.factors
        name = entry.ship_name
        if options.rough_weather and factors.type is ShipType.TB_2:
            withdrawn.append(name)  # DBA-RW-03
            continue
        ships[name] = ShipStatus(
            factors,
            side=entry.side,
            squadron=entry.squadron or name,
            name=name,
            base=entry.base or "",
        )
        poses[name] = Pose(entry.x * base, entry.y * base, norm360(entry.heading))
    if not ships:
        raise ScenarioError(f"{scenario}: ship: no ship left to play (all withdrawn)")
    return DbaState(
        scenario=scenario,
        ruleset=NAME,
        seed=seed,
        sides=tuple(sc.sides),
        turn_limit=sc.turn_limit,
        title=sc.title or scenario,
        ships=ships,
        poses=poses,
        options=options,
        conditions=Conditions(night=sc.night, dusk_or_dawn=sc.dusk_or_dawn, hindered=sc.heavy_seas),
        doctrine={side: sc.doctrine(side) for side in sc.sides},
        splash=SplashConfusion(options),
        withdrawn=withdrawn,
        tracks={n: [(p.x, p.y)] for n, p in poses.items()},
    )


# -- the phase table ------------------------------------------------------------------------
def _parse_moves(spell: int) -> Any:
    def parse(state: DbaState, side: str, texts: Sequence[str]) -> list[MoveLine]:
        if side != state.speller(spell):
            if any(t.strip() for t in texts):
                raise IllegalOrderError(
                    f"turn {state.turn} move-{spell}: it is {state.speller(spell)}'s spell; "
                    f"{side} gives no movement orders in it (DBA-SEQ-01)"
                )
            return []
        return check_moves(state, side, texts, spell)

    return parse


def _parse_fire(state: DbaState, side: str, texts: Sequence[str]) -> list[FireOrder]:
    return check_fire(state, side, texts)


def _is_speller(spell: int) -> Any:
    def needs(state: DbaState, side: str) -> bool:
        return side == state.speller(spell)

    return needs


def _can_fire(state: DbaState, side: str) -> bool:
    return any(s.side == side and not s.sunk for s in state.ships.values())


def _phases() -> tuple[PhaseSpec[DbaState, Any], ...]:
    out: list[PhaseSpec[DbaState, Any]] = []
    for spell in (1, 2):
        out += [
            PhaseSpec(f"nips-{spell}", None, resolve_nips(spell), rules="REF-DBA-01, DBA-TF-10"),
            PhaseSpec(
                f"move-{spell}",
                "movement orders",
                resolve_moves(spell),
                _parse_moves(spell),
                needs_orders=_is_speller(spell),
                rules="DBA-TYPE-01, DBA-MOV-01..03, DBA-NET-01/02, DBA-RW-01/02, DBA-RAM",
            ),
            PhaseSpec(
                f"combat-{spell}",
                "fire orders",
                resolve_combat(spell),
                _parse_fire,
                needs_orders=_can_fire,
                rules="DBA-TGT, DBA-TORP, DBA-SCG-01, DBA-TF, DBA-OUT, DBA-WC, DBA-NET-04",
            ),
            PhaseSpec(f"dc-{spell}", None, resolve_dc(spell), rules="DBA-SEQ-01, DBA-DC-01"),
        ]
    return tuple(out)


PHASES = _phases()


# -- the end --------------------------------------------------------------------------------
def verdict(state: DbaState, reason: str) -> Result:
    """Points: each enemy ship sunk scores its PV, each crippled half (reconstructed)."""
    points = dict.fromkeys(state.sides, 0.0)
    for s in state.ships.values():
        value = points_value(s.ship)
        lost = value if s.sunk else value / 2 if s.crippled else 0.0
        for side in state.sides:
            if side != s.side:
                points[side] += lost
    ranked = sorted(points.items(), key=lambda kv: kv[1], reverse=True)
    winner = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
    return Result(winner, points, reason)


def end_turn(state: DbaState, events: EventLog) -> Result | None:
    """The game ends when a side has no uncrippled ship afloat."""
    beaten = [
        side
        for side in state.sides
        if not any(s.side == side and not s.sunk and not s.crippled for s in state.ships.values())
    ]
    if len(beaten) == len(state.sides):
        return verdict(state, "neither side has a fighting ship left")
    if beaten:
        return verdict(state, f"{beaten[0]} has no fighting ship left")
    return None


def condition(s: ShipStatus) -> Outcome:
    """A ship's condition as a combat result (none, damaged, crippled, sunk)."""
    if s.sunk:
        return Outcome.SUNK
    if s.crippled:
        return Outcome.CRIPPLED
    return Outcome.DAMAGED if s.damage else Outcome.NONE


class Ruleset:
    """The dba ruleset as the engine sees it."""

    name = NAME
    version = VERSION
    aliases = ALIASES
    phases = PHASES
    #: The scenario schema it reads: DBA's own (``scenario.py``).
    schema = "dba"

    def scenario_names(self) -> list[str]:
        """The built-in DBA scenarios."""
        return builtin_names()

    def check_scenario(self, scenario: str) -> str:
        """Validate a DBA scenario with the DBA schema; its title."""
        sc = load_scenario(scenario)
        return sc.title or scenario

    def owners(self, state: DbaState) -> dict[str, str]:
        """Every ship's side, and every squadron's (the NIP dice are the squadron's)."""
        out = {s.squadron: s.side for s in state.ships.values()}
        out.update({n: s.side for n, s in state.ships.items()})
        for n, s in state.ships.items():  # the TBs it may launch (DBA-TBL-05)
            for i in range(1, s.ship.carries_tbs + 1):
                out.setdefault(f"{n} TB {i}", s.side)
            if s.ship.carries_tbs:
                out.setdefault(f"{n} TBs", s.side)
        return out

    def view(self, game: Game[DbaState, DbaSideView], side: str, since: int = 0) -> DbaSideView:
        """The side's view (:mod:`battleline.rulesets.dba.view`)."""
        return side_view(game, side, since)

    def secrets(self, state: DbaState, side: str) -> set[str]:
        """Strings that must never reach ``side`` while the game is on."""
        return secrets(state, side)

    def fates(self, state: DbaState) -> tuple[ShipFate, ...]:
        """Each ship's condition (sunk, crippled, damaged, intact) and damage markers."""
        word = {Outcome.SUNK: "sunk", Outcome.CRIPPLED: "crippled", Outcome.DAMAGED: "damaged"}
        return tuple(
            ShipFate(
                name,
                s.side,
                s.ship.name,
                s.ship.size,
                word.get(condition(s), "intact"),
                not (s.sunk or s.crippled),
                (
                    ("damage", str(s.damage)),
                    ("flooding", "yes" if s.flooding else "no"),
                    ("torpedo left", str(s.ship.torpedo - s.torpedo_used)),
                ),
            )
            for name, s in state.ships.items()
        )

    def picture(self, state: DbaState, path: str) -> str | None:
        """An SVG of the bases and their tracks."""
        if not path.lower().endswith(".svg"):
            path = path.rsplit(".", 1)[0] + ".svg"
        return draw(state, path)

    def new_state(self, scenario: str, seed: int) -> DbaState:
        """Set up a DBA scenario."""
        return new_state(scenario, seed)

    def end_turn(self, state: DbaState, events: EventLog) -> Result | None:
        """End of a turn (two spells): a side with no fighting ship loses."""
        return end_turn(state, events)

    def verdict(self, state: DbaState, reason: str) -> Result:
        """Points for ships sunk and crippled."""
        return verdict(state, reason)


RULESET = Ruleset()


def ships_of(state: DbaState) -> dict[str, ShipStatus]:
    """The ships of a DBA game state (for tests and tools)."""
    return state.ships
