"""Damn Battleships Again as an engine ruleset, "dba": a turn is two spells.

Phase table (each spell: NIPs, movement, combat, damage control; DBA-SEQ-01):

========================  ==========================================================
``nips-1`` / ``nips-2``    the speller rolls one D6 of NIPs per squadron (automatic)
``move-1`` / ``move-2``    the speller's movement orders, one line per ship or squadron
``combat-1`` / ``combat-2``  both sides' fire orders; torpedoes roll first (DBA-TORP-06)
``dc-1`` / ``dc-2``        the speller's damage control (automatic, DBA-DC-01)
========================  ==========================================================

The first side in the scenario plays spell 1 of each turn. Orders:

* movement: ``<ship or squadron>: [T<±degrees>] <bases>`` (turn first, + to starboard, then
  straight on), ``<ship>: stop``, ``<ship or squadron>: nets down`` / ``nets up``. A squadron
  order is a group move; a group turn of 90° counts as the wheel into line abreast (DBA-MOV-03).
* combat: ``<shooter> -> <target>`` for gunfire, ``<shooter> torpedo <1|2> -> <target>``. A ship's
  second gun line is its second target (on the opposite beam, DBA-TGT-05).

Range bands and arcs are measured between the bases (2 cables by 1), every rule is the
library's (:mod:`.movement`, :mod:`.combat`, :mod:`.damage_control`, :mod:`.windy_corner`);
ship state lives in ``state.extra["dba"]`` as plain JSON.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from shapely import Polygon

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, norm360, signed_angle
from battleline.engine.ruleset import PhaseSpec, ShipFate
from battleline.engine.state import Result
from battleline.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.view import SideView, side_view
from battleline.rulesets.dba.combat import (
    Arc,
    Attack,
    CombatRound,
    Conditions,
    TargetEdge,
    arc_of,
    fall_out_of_line,
    gun_attacks,
    multiple_torpedo_targets,
    torpedo_attack,
)
from battleline.rulesets.dba.damage_control import damage_control_step
from battleline.rulesets.dba.factors import RangeBand, ShipFactors, ShipType, load_annex_a
from battleline.rulesets.dba.movement import (
    TurnTogetherLock,
    change_nets_cost,
    check_allocation,
    group_move_cost,
    move_cost,
    roll_nips,
)
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.points import points_value
from battleline.rulesets.dba.ramming import Edge, Placement, RamKind, resolve_ram
from battleline.rulesets.dba.status import ShipStatus, status_from_dict, status_to_dict
from battleline.rulesets.dba.tables import Result as Outcome
from battleline.rulesets.dba.tables import load_core
from battleline.rulesets.dba.torpedo_boats import LAUNCH_NIPS, launch_tb, share_fate
from battleline.rulesets.dba.windy_corner import SplashConfusion, WindyCorner

if TYPE_CHECKING:
    from battleline.engine.flow import Game

NAME = "dba"
VERSION = "0.1"
ALIASES = ("dbsa", "damn-battleships-again")
_EXTRA = "dba"
_MOVE = re.compile(r"^\s*(?P<who>[^:]+?)\s*:\s*(?P<what>.+?)\s*$")
_STEP = re.compile(r"^(?:T(?P<turn>[+-]?\d+(?:\.\d+)?)\s+)?(?P<bases>\d+)$", re.IGNORECASE)
_RAM = re.compile(r"^ram\s+(?P<target>.+?)\s+(?P<bases>\d+)$", re.IGNORECASE)
_FIRE = re.compile(
    r"^\s*(?P<shooter>.+?)\s+(?:torpedo\s+(?P<af>\d)\s+)?->\s*(?P<target>.+?)\s*$", re.IGNORECASE
)


# -- scenario -------------------------------------------------------------------------------
def _scenario_bytes(scenario: str) -> tuple[bytes, str]:
    path = Path(scenario)
    if path.suffix == ".toml" and path.exists():
        return path.read_bytes(), str(path)
    res = resources.files("battleline.rulesets.dba").joinpath(
        "data", "scenarios", f"{scenario}.toml"
    )
    if not res.is_file():
        raise ScenarioError(f"no DBA scenario {scenario!r} (built-in: yalu; or a .toml path)")
    return res.read_bytes(), f"dba/data/scenarios/{scenario}.toml"


def new_state(scenario: str, seed: int) -> Bf1900State:
    """Set up a DBA scenario: ships from Annex A on their bases, option toggles checked."""
    data, file = _scenario_bytes(scenario)
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{file}: not valid TOML: {exc}") from None
    sides = tuple(doc.get("sides", ()))
    if len(sides) != 2:
        raise ScenarioError(f"{file}: 'sides' must name two sides")
    options = Options.parse(doc.get("options", []))
    annex = load_annex_a()
    core = load_core()
    ships: dict[str, dict[str, object]] = {}
    poses: dict[str, Pose] = {}
    withdrawn: list[str] = []
    light: dict[str, bool] = {}
    for key in ("night", "dusk_or_dawn", "heavy_seas"):
        value = doc.get(key, False)
        if not isinstance(value, bool):
            raise ScenarioError(f"{file}: {key} must be true or false")
        light[key] = value
    for i, entry in enumerate(doc.get("ship", [])):
        where = f"{file}: ship[{i}]"
        try:
            factors = annex[str(entry["annex"])]
            side = str(entry["side"])
            x, y, heading = float(entry["x"]), float(entry["y"]), float(entry["heading"])
        except KeyError as exc:
            raise ScenarioError(f"{where}: field {exc} is missing") from None
        if options.rough_weather and factors.type is ShipType.TB_2:
            withdrawn.append(str(entry.get("name", factors.name)))  # DBA-RW-03
            continue
        if side not in sides:
            raise ScenarioError(f"{where}: side {side!r} is not one of {', '.join(sides)}")
        name = str(entry.get("name", factors.name))
        if name in ships:
            raise ScenarioError(f"{where}: two ships named {name!r}")
        status = ShipStatus(
            factors, side=side, squadron=str(entry.get("squadron", name)), name=name
        )
        ships[name] = status_to_dict(status)
        poses[name] = Pose(x * core.base_metres, y * core.base_metres, norm360(heading))
    if not ships:
        raise ScenarioError(f"{file}: no ships")
    limit = doc.get("turn_limit", 10)
    if not isinstance(limit, int) or limit < 1:
        raise ScenarioError(f"{file}: turn_limit must be a whole number ≥ 1")
    state = Bf1900State(
        scenario=scenario,
        ruleset=NAME,
        seed=seed,
        sides=sides,
        logs={},
        poses=poses,
        divisions={},
        turn_limit=limit,
        scale="dba",
    )
    state.extra[_EXTRA] = {
        "options": {n: getattr(options, n) for n in Options.names()},
        "ships": ships,
        "nips": {},
        "fired_at_corner": [],
        "fired_at_stopped": [],
        "lock": {},
        "conditions": light,
        "withdrawn": withdrawn,
    }
    return state


# -- state helpers --------------------------------------------------------------------------
@dataclass
class _Game:
    """The DBA part of a state, loaded for one phase."""

    ships: dict[str, ShipStatus]
    options: Options
    extra: dict[str, Any]

    def store(self) -> None:
        self.extra["ships"] = {n: status_to_dict(s) for n, s in self.ships.items()}


def _load(state: Bf1900State) -> _Game:
    extra: dict[str, Any] = state.extra[_EXTRA]
    annex = load_annex_a()
    ships = {n: status_from_dict(d, annex[str(d["ship"])]) for n, d in extra["ships"].items()}
    return _Game(ships, Options.parse(extra["options"]), extra)


def _speller(state: Bf1900State, spell_in_turn: int) -> str:
    return state.sides[spell_in_turn - 1]


def _spell_number(state: Bf1900State, spell_in_turn: int) -> int:
    return (state.turn - 1) * 2 + spell_in_turn


def _squadrons(game: _Game, side: str) -> dict[str, list[ShipStatus]]:
    out: dict[str, list[ShipStatus]] = {}
    for s in game.ships.values():
        if s.side == side and not s.sunk:
            out.setdefault(s.squadron, []).append(s)
    return out


def _footprint(pose: Pose, length: float, width: float | None = None) -> Polygon:
    half_l = length / 2.0
    half_w = (length / 2.0 if width is None else width) / 2.0
    corners = [
        pose.offset(a, b)
        for a, b in ((half_l, half_w), (half_l, -half_w), (-half_l, -half_w), (-half_l, half_w))
    ]
    return Polygon(corners)


# -- NIPs and movement ----------------------------------------------------------------------
def _resolve_nips(spell: int) -> Any:
    def resolve(
        state: Bf1900State, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
    ) -> None:
        game = _load(state)
        side = _speller(state, spell)
        nips: dict[str, int] = {}
        for squadron in _squadrons(game, side):
            nips[squadron] = roll_nips(squadron, dice)
            events.emit(EventKind.COMMAND, f"{squadron}: {nips[squadron]} NIPs", side=None)
        game.extra["nips"] = nips
        for s in game.ships.values():
            if s.side == side:
                s.moved_this_spell = 0
        game.store()

    return resolve


@dataclass(frozen=True, slots=True)
class MoveLine:
    """One movement order."""

    who: str
    turn: float = 0.0
    bases: int = 0
    stop: bool = False
    nets: bool | None = None
    #: A turn in succession: each ship turns where the leader turned (DBA-WC-01).
    succession: bool = False
    #: A voluntary ram: head for this enemy ship and run ``bases`` (DBA-RAM-01/03).
    ram: str | None = None
    #: Launch one 2nd Class TB (DBA-TBL-02).
    launch: bool = False


def parse_move_line(text: str) -> MoveLine:
    """``"Yoshino: T-45 2"`` → turn 45° to port, then 2 bases."""
    m = _MOVE.match(text)
    if not m:
        raise OrderSyntaxError(f"cannot read {text!r}: write '<ship or squadron>: [T±deg] bases'")
    who, what = m.group("who"), m.group("what").strip().lower()
    ram = _RAM.match(m.group("what").strip())
    if ram:
        return MoveLine(who, bases=int(ram.group("bases")), ram=ram.group("target"))
    if what == "stop":
        return MoveLine(who, stop=True)
    if what == "launch tb":
        return MoveLine(who, launch=True)
    if what in ("nets down", "nets up"):
        return MoveLine(who, nets=what.endswith("down"))
    succession = what.startswith("succession ")
    if succession:
        what = what.removeprefix("succession ").strip()
    step = _STEP.match(what)
    if not step:
        raise OrderSyntaxError(
            f"cannot read {text!r}: after the colon write '[T±degrees] bases', 'stop' or "
            "'nets down'/'nets up'"
        )
    turn = float(step.group("turn") or 0.0)
    if abs(turn) > 180:
        raise OrderSyntaxError(f"{text!r}: a turn is at most 180°")
    return MoveLine(who, turn, int(step.group("bases")), succession=succession)


def _parse_moves(spell: int) -> Any:
    def parse(state: Bf1900State, side: str, texts: Sequence[str]) -> list[MoveLine]:
        game = _load(state)
        lines = [_checked_ram(game, side, parse_move_line(t)) for t in texts if t.strip()]
        squadrons = _squadrons(game, side)
        for line in lines:
            if line.who in game.ships:
                if game.ships[line.who].side != side:
                    raise IllegalOrderError(f"{line.who} is not a ship of {side}")
            elif line.who not in squadrons:
                raise IllegalOrderError(f"{line.who!r} is neither a ship nor a squadron of {side}")
            if line.succession and line.who not in squadrons:
                raise IllegalOrderError(f"{line.who}: only a squadron turns in succession")
            if (
                line.succession
                and not line.turn
                and line.who not in game.extra.get("turn_points", {})
            ):
                raise IllegalOrderError(
                    f"{line.who}: no turn in succession to continue; give T±degrees"
                )
        _check_launches(game, lines)
        _costs(state, game, side, lines, spell)
        return lines

    return parse


def _check_launches(game: _Game, lines: Sequence[MoveLine]) -> None:
    """A launching mother makes no other move this spell and keeps the launch limits
    (DBA-TBL-02/03, AMB-97); the launches themselves are checked by ``launch_tb``."""
    launching = {ln.who for ln in lines if ln.launch}
    if launching and game.options.rough_weather:
        raise IllegalOrderError(
            f"{', '.join(sorted(launching))}: 2nd Class TBs stay aboard in rough weather "
            "(DBA-RW-03)"
        )
    for name in launching:
        if name not in game.ships:
            raise IllegalOrderError(f"{name}: only a single ship launches TBs")
        count = sum(ln.launch and ln.who == name for ln in lines)
        probe = ShipStatus(
            game.ships[name].ship,
            tbs_carried=game.ships[name].tbs_carried,
            crippled=game.ships[name].crippled,
            stopped=True,
            name=name,
        )
        for i in range(count):
            launch_tb(probe, _tb2(), spell=0, launched_this_spell=i, options=game.options)
    for ln in lines:
        moving = not ln.launch and not ln.stop and ln.nets is None
        if moving and (
            ln.who in launching or any(m in launching for m in _squadron_names(game, ln.who))
        ):
            raise IllegalOrderError(
                f"{ln.who}: a ship launching a TB must stay stopped this spell (DBA-TBL-02, AMB-97)"
            )


def _squadron_names(game: _Game, who: str) -> list[str]:
    return [n for n, s in game.ships.items() if s.squadron == who and not s.sunk]


def _tb2() -> ShipFactors:
    return next(s for s in load_annex_a().ships.values() if s.type is ShipType.TB_2)


def _checked_ram(game: _Game, side: str, line: MoveLine) -> MoveLine:
    """A ram order names one of the speller's ships and an enemy afloat (DBA-RAM-01)."""
    if line.ram is None:
        return line
    if not game.options.ramming:
        raise IllegalOrderError(f"{line.who}: ramming is switched off (option 'ramming')")
    if line.who not in game.ships:
        raise IllegalOrderError(f"{line.who}: only a single ship rams")
    target = next((n for n in game.ships if n.lower() == line.ram.strip().lower()), None)
    if target is None or game.ships[target].sunk:
        raise IllegalOrderError(f"{line.who}: no ship {line.ram!r} afloat to ram")
    if game.ships[target].side == side:
        raise IllegalOrderError(
            f"{line.who}: will not ram the friendly {target}; collisions are involuntary "
            "(DBA-RAM-01)"
        )
    if line.bases < 1:
        raise IllegalOrderError(f"{line.who}: declare at least one base for a ram (DBA-RAM-03)")
    return replace(line, ram=target)


def _members(game: _Game, side: str, who: str) -> list[ShipStatus]:
    if who in game.ships:
        return [game.ships[who]]
    return _squadrons(game, side)[who]


def _costs(
    state: Bf1900State, game: _Game, side: str, lines: Sequence[MoveLine], spell: int
) -> dict[str, int]:
    """NIPs per squadron for these orders; raises on a rule breach."""
    core = load_core()
    spent: dict[str, dict[str, int]] = {}
    lock = TurnTogetherLock(dict(game.extra.get("lock", {})))
    number = _spell_number(state, spell)
    for line in lines:
        members = _members(game, side, line.who)
        squadron = members[0].squadron
        if line.nets is not None:
            cost = change_nets_cost(
                [ShipStatus(m.ship, nets_lowered=m.nets_lowered) for m in members],
                lower=line.nets,
                options=game.options,
            )
        elif line.stop:
            cost = 0
        elif line.launch:
            cost = LAUNCH_NIPS  # DBA-TBL-02
        elif line.ram is not None:
            cost = move_cost(members[0], line.bases, turns=1, options=game.options, core=core).nips
        else:
            turns = 1 if line.turn and not line.succession else 0
            if line.succession:
                cost = group_move_cost(members, line.bases, options=game.options, core=core).nips
            elif len(members) > 1:
                if turns:
                    lock.check(squadron, number)
                cost = group_move_cost(
                    members, line.bases, turns=turns, options=game.options, core=core
                ).nips
            else:
                cost = move_cost(
                    members[0], line.bases, turns=turns, options=game.options, core=core
                ).nips
        key = line.who
        spent.setdefault(squadron, {})
        spent[squadron][key] = spent[squadron].get(key, 0) + cost
    nips: Mapping[str, int] = game.extra.get("nips", {})
    for squadron, alloc in spent.items():
        groups = {
            k: [s.name for s in _members(game, side, k)] for k in alloc if k not in game.ships
        }
        check_allocation(
            squadron,
            _squadrons(game, side)[squadron],
            alloc,
            groups=groups,
            nips=nips.get(squadron, 0),
        )
    return {sq: sum(a.values()) for sq, a in spent.items()}


def _resolve_moves(spell: int) -> Any:
    def resolve(
        state: Bf1900State, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
    ) -> None:
        game = _load(state)
        side = _speller(state, spell)
        core = load_core()
        lock = TurnTogetherLock(dict(game.extra.get("lock", {})))
        number = _spell_number(state, spell)
        splash = _splash(game)
        paths: dict[str, list[tuple[float, float]]] = {}
        halted: set[str] = set()
        for line in orders.get(side, []):
            members = _members(game, side, line.who)
            if line.succession:
                _succession(state, game, splash, line, members, paths, number, events)
                continue
            if line.launch:
                _launch(state, game, line, number, events)
                continue
            if line.ram is not None:
                if _ram_move(state, game, line, paths, dice, events):
                    halted.add(line.who)
                continue
            if line.nets is not None:
                for m in members:
                    m.nets_lowered = line.nets
                events.emit(EventKind.MOVE, f"{line.who}: nets {'down' if line.nets else 'up'}")
                continue
            if line.stop:
                events.emit(EventKind.MOVE, f"{line.who}: stops")
                continue
            if len(members) > 1 and line.turn:
                lock.turned_together(
                    members[0].squadron, number, into_line_abreast=abs(line.turn) == 90
                )
            for m in members:
                start = state.poses[m.name]
                pose = Pose(start.x, start.y, norm360(start.heading + line.turn))
                pose = pose.forward(line.bases * core.base_metres)
                state.poses[m.name] = pose
                m.moved_this_spell += line.bases
                paths[m.name] = [(start.x, start.y), (pose.x, pose.y)]
            turn = f" turns {line.turn:+g}° and" if line.turn else ""
            events.emit(EventKind.MOVE, f"{line.who}:{turn} moves {line.bases} base(s)")
        for m in game.ships.values():
            if m.side == side:
                m.moved_last_spell = m.moved_this_spell
                m.stopped_last_spell = m.stopped
                m.stopped = m.moved_this_spell == 0 or m.name in halted
        _track_corners(state, game, splash, paths)
        _save_splash(game, splash, number)
        game.extra["lock"] = dict(lock.locked_through)
        game.store()

    return resolve


_ON_SPOT = 0.25  # bases: a ship this close to a Windy Corner's spot is on it


def _launch(state: Bf1900State, game: _Game, line: MoveLine, number: int, events: EventLog) -> None:
    """Launch a 2nd Class TB abeam of its stopped mother (DBA-TBL-02..05)."""
    mother = game.ships[line.who]
    mother.stopped = True
    launched: dict[str, list[Any]] = game.extra.setdefault("launched", {})
    this_spell = sum(1 for m, sp in launched.values() if m == line.who and sp == number)
    done = launch_tb(
        mother,
        _tb2(),
        spell=number,
        launched_this_spell=this_spell,
        options=game.options,
        pose=state.poses[line.who],
        base_width=load_core().base_metres / 2,
        log=events,
    )
    tb = done.tb
    tb.squadron = f"{line.who} TBs"
    while tb.name in game.ships:
        tb.name += "'"
    game.ships[tb.name] = tb
    assert done.pose is not None
    state.poses[tb.name] = done.pose
    launched[tb.name] = [line.who, number]


def _ram_move(
    state: Bf1900State,
    game: _Game,
    line: MoveLine,
    paths: dict[str, list[tuple[float, float]]],
    dice: SeededDice,
    events: EventLog,
) -> bool:
    """Head for the target and run the declared bases; on contact, test the ram (DBA-RAM-03..17)
    and place the rammer as the result says (DBA-RAM-10/13/14/15). True if the rammer stopped."""
    from shapely import LineString, Point

    assert line.ram is not None
    base = load_core().base_metres
    rammer, target = game.ships[line.who], game.ships[line.ram]
    start, tpose = state.poses[line.who], state.poses[line.ram]
    heading = _bearing(start, tpose)
    run = line.bases * base
    full = Pose(start.x, start.y, heading).forward(run)
    path = LineString([(start.x, start.y), (full.x, full.y)])
    hit = path.intersection(_footprint(tpose, base))
    rammer.moved_this_spell += line.bases
    if hit.is_empty:
        state.poses[line.who] = full
        paths[line.who] = [(start.x, start.y), (full.x, full.y)]
        events.emit(
            EventKind.MOVE,
            f"{line.who}: runs {line.bases} base(s) at {line.ram} and misses",
            ship=line.who,
        )
        return False
    contact = Point(start.x, start.y).distance(hit)
    used = max(1, math.ceil(contact / base - 1e-9))
    seen = arc_of(tpose.bearing_to(start.x, start.y))
    edge = Edge.BROADSIDE if seen.broadside else Edge.BOW if seen is Arc.BOW else Edge.STERN
    target_speed = 0 if target.stopped else target.moved_last_spell
    out = resolve_ram(
        rammer,
        target,
        dice,
        kind=RamKind.VOLUNTARY,
        edge=edge,
        declared_bases=line.bases,
        target_speed=target_speed,
        bases_left=line.bases - used + 1,
        options=game.options,
        log=events,
    )
    at_contact = Pose(start.x, start.y, heading).forward(contact)
    if out.placement is Placement.PASSES_THROUGH and not out.counter_ram:
        end = full
    elif out.placement is Placement.BROADSIDE_TO_BROADSIDE:
        side = 1.0 if 0.0 <= tpose.bearing_to(start.x, start.y) < 180.0 else -1.0
        x, y = tpose.offset(0.0, side * base / 2)
        end = Pose(x, y, tpose.heading)
    elif out.placement is Placement.STOPS_SHORT:
        end = Pose(start.x, start.y, heading).forward(max(contact - base / 2, 0.0))
    else:
        end = at_contact
    state.poses[line.who] = end
    paths[line.who] = [(start.x, start.y), (end.x, end.y)]
    events.emit(EventKind.MOVE, f"{line.who}: {out.placement.value}", ship=line.who)
    return out.rammer_stopped


def _succession(
    state: Bf1900State,
    game: _Game,
    splash: SplashConfusion,
    line: MoveLine,
    members: Sequence[ShipStatus],
    paths: dict[str, list[tuple[float, float]]],
    number: int,
    events: EventLog,
) -> None:
    """Turn in succession: the leader turns where it is; each ship astern runs on to that point,
    turns there and uses the rest of its move on the new heading (DBA-WC-01). Without a turn
    (``succession 2``) the squadron carries on round the turn it began earlier."""
    base = load_core().base_metres
    points: dict[str, list[float]] = game.extra.setdefault("turn_points", {})
    if line.turn:
        leader = state.poses[members[0].name]
        new_heading = norm360(leader.heading + line.turn)
        points[line.who] = [leader.x, leader.y, new_heading]
    elif line.who in points:
        px, py, new_heading = points[line.who]
        leader = Pose(px, py, new_heading)
    else:
        raise IllegalOrderError(f"{line.who}: no turn in succession to continue; give T±degrees")
    for m in members:
        start = state.poses[m.name]
        to_turn = math.hypot(leader.x - start.x, leader.y - start.y)
        run = line.bases * base
        if abs(signed_angle(start.heading - new_heading)) < 1e-6:
            end = start.forward(run)  # already round the turn
            paths[m.name] = [(start.x, start.y), (end.x, end.y)]
        elif to_turn >= run - 1e-6:
            end = start.forward(run)
            paths[m.name] = [(start.x, start.y), (end.x, end.y)]
        else:
            end = Pose(leader.x, leader.y, new_heading).forward(run - to_turn)
            paths[m.name] = [(start.x, start.y), (leader.x, leader.y), (end.x, end.y)]
        state.poses[m.name] = end
        m.moved_this_spell += line.bases
    what = f"turns {line.turn:+g}°" if line.turn else "carries on round its turn"
    events.emit(EventKind.MOVE, f"{line.who}: {what} in succession, {line.bases} base(s)")
    if all(abs(signed_angle(state.poses[m.name].heading - new_heading)) < 1e-6 for m in members):
        points.pop(line.who, None)
    if not line.turn:
        return
    first = state.poses[members[0].name]
    location = f"WC{number}-{line.who}"
    corner = splash.turn_in_succession(
        line.who,
        [m.name for m in members],
        degrees=line.turn,
        location=location,
        first_through=members[0].name,
        log=events,
    )
    if corner is not None:
        game.extra.setdefault("corner_xy", {})[location] = [first.x, first.y]
        paths.pop(members[0].name, None)  # already placed on the corner


def _track_corners(
    state: Bf1900State,
    game: _Game,
    splash: SplashConfusion,
    paths: Mapping[str, list[tuple[float, float]]],
) -> None:
    """Ships arriving on, passing through or leaving Windy Corners (DBA-WC-03/04)."""
    from shapely import LineString, Point

    base = load_core().base_metres
    spots: dict[str, list[float]] = game.extra.get("corner_xy", {})
    for location, corner in list(splash.corners.items()):
        spot = Point(*spots[location])
        for name in sorted(corner.to_pass | corner.occupants):
            if name not in paths:
                continue
            end = state.poses[name]
            if spot.distance(Point(end.x, end.y)) <= _ON_SPOT * base:
                splash.arrive(name, location)
            elif name in corner.occupants:
                splash.leave(name, crippled=game.ships[name].crippled)
            elif LineString(paths[name]).distance(spot) <= _ON_SPOT * base:
                splash.pass_through(name, location)
            if location not in splash.corners:
                break
    game.extra["corner_xy"] = {k: v for k, v in spots.items() if k in splash.corners}


def _splash(game: _Game) -> SplashConfusion:
    """The splash-confusion memory of a game (Windy Corners and last spell's fire)."""
    splash = SplashConfusion(game.options)
    for loc, c in game.extra.get("corners", {}).items():
        splash.corners[loc] = WindyCorner(
            loc, c["squadron"], set(c["to_pass"]), set(c["occupants"])
        )
    for sp, shooter, loc in game.extra.get("fired_at_corner", []):
        splash.fired_at_corner[(sp, shooter)] = loc
    for sp, shooter, tgt in game.extra.get("fired_at_stopped", []):
        splash.fired_at_stopped[(sp, shooter)] = tgt
    return splash


def _save_splash(game: _Game, splash: SplashConfusion, number: int) -> None:
    game.extra["corners"] = {
        loc: {
            "squadron": c.squadron,
            "to_pass": sorted(c.to_pass),
            "occupants": sorted(c.occupants),
        }
        for loc, c in splash.corners.items()
    }
    game.extra["fired_at_corner"] = [
        [k[0], k[1], v] for k, v in splash.fired_at_corner.items() if k[0] >= number - 1
    ]
    game.extra["fired_at_stopped"] = [
        [k[0], k[1], v] for k, v in splash.fired_at_stopped.items() if k[0] >= number - 1
    ]


# -- combat ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FireLine:
    """One fire order."""

    shooter: str
    target: str
    torpedo: int = 0


def parse_fire_line(text: str) -> FireLine:
    """``"Yoshino -> Chih Yuen"`` or ``"Kotaka torpedo 2 -> Ting Yuen"``."""
    m = _FIRE.match(text)
    if not m:
        raise OrderSyntaxError(
            f"cannot read {text!r}: write '<shooter> -> <target>' or "
            "'<shooter> torpedo <1|2> -> <target>'"
        )
    return FireLine(m.group("shooter").strip(), m.group("target").strip(), int(m.group("af") or 0))


def _parse_fire(state: Bf1900State, side: str, texts: Sequence[str]) -> list[FireLine]:
    game = _load(state)
    lines = [parse_fire_line(t) for t in texts if t.strip()]
    guns: dict[str, int] = {}
    for line in lines:
        for name in (line.shooter, line.target):
            if name not in game.ships or game.ships[name].sunk:
                raise IllegalOrderError(f"no ship {name!r} afloat in this game")
        if game.ships[line.shooter].side != side:
            raise IllegalOrderError(f"{line.shooter} is not a ship of {side}")
        if game.ships[line.target].side == side:
            raise IllegalOrderError(f"{line.shooter}: {line.target} is a friendly ship")
        if not line.torpedo:
            guns[line.shooter] = guns.get(line.shooter, 0) + 1
            if guns[line.shooter] > 2:
                raise IllegalOrderError(f"{line.shooter}: at most two gun targets a spell")
    return lines


def _geometry(state: Bf1900State, shooter: str, target: str) -> tuple[float, Arc, TargetEdge]:
    """Distance in bases between the bases, the shooter's arc, the target's facing edge."""
    core = load_core()
    a, b = state.poses[shooter], state.poses[target]
    dist = _footprint(a, core.base_metres).distance(_footprint(b, core.base_metres))
    arc = arc_of(a.bearing_to(b.x, b.y))
    seen = arc_of(b.bearing_to(a.x, a.y))
    edge = (
        TargetEdge.BROADSIDE
        if seen.broadside
        else TargetEdge.BOW
        if seen is Arc.BOW
        else TargetEdge.STERN
    )
    return dist / core.base_metres, arc, edge


def in_corridor(state: Bf1900State, shooter: str, target: str) -> bool:
    """Is any part of the target's base between the lines extending the shooter's base sides,
    ahead or astern? (DBA-BSA-01, AMB-90)"""
    core = load_core()
    a = state.poses[shooter]
    reach = (core.range_bands[RangeBand.EXTREME] + 2) * core.base_metres
    strip = _footprint(a, 2 * reach, width=core.base_metres / 2)
    return bool(strip.intersects(_footprint(state.poses[target], core.base_metres)))


def _resolve_combat(spell: int) -> Any:
    def resolve(
        state: Bf1900State, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
    ) -> None:
        game = _load(state)
        core = load_core()
        speller = _speller(state, spell)
        number = _spell_number(state, spell)
        splash = _splash(game)
        banned = {n for n, s in game.ships.items() if s.blast_ban}
        lines: list[FireLine] = [ln for side in state.sides for ln in orders.get(side, [])]
        gun_lines = [ln for ln in lines if not ln.torpedo]
        torp_lines = [ln for ln in lines if ln.torpedo]
        adjacent = {
            t: [
                o
                for o in game.ships
                if o != t and not game.ships[o].sunk and _geometry(state, t, o)[0] <= 1.0
            ]
            for t in {ln.target for ln in torp_lines}
        }
        multiple = multiple_torpedo_targets([ln.target for ln in torp_lines], adjacent)
        torpedoes: list[Attack] = []
        guns: list[Attack] = []
        first_bearing: dict[str, float] = {}
        for ln, many in zip(torp_lines, multiple, strict=True):
            dist, arc, edge = _geometry(state, ln.shooter, ln.target)
            band = core.band(dist)
            try:
                if band is None:
                    raise IllegalOrderError(f"{ln.shooter}: {ln.target} is out of range")
                torpedoes.append(
                    torpedo_attack(
                        game.ships[ln.shooter],
                        game.ships[ln.target],
                        af=ln.torpedo,
                        arc=arc,
                        band=band,
                        edge=edge,
                        own_spell=game.ships[ln.shooter].side == speller,
                        multiple=many,
                        conditions=_conditions(game),
                        options=game.options,
                        core=core,
                    )
                )
            except IllegalOrderError as exc:
                events.emit(
                    EventKind.NOTE, f"{ln.shooter} does not fire torpedoes: {exc}", ship=ln.shooter
                )
        # Gunfire: check every line first; only ships that really fire count for splash.
        fired: dict[str, Arc] = {}
        gun_count = {sh: sum(ln.shooter == sh for ln in gun_lines) for sh in shooters_of(gun_lines)}
        conditions = _conditions(game)

        def shots(
            ln: FireLine, arc: Arc, band: RangeBand, second: bool, splash_mod: int
        ) -> list[Attack]:
            return gun_attacks(
                game.ships[ln.shooter],
                game.ships[ln.target],
                arc=arc,
                band=band,
                own_spell=game.ships[ln.shooter].side == speller,
                second_target=second,
                both_broadsides=gun_count[ln.shooter] > 1,  # DBA-TGT-02/04
                in_corridor=in_corridor(state, ln.shooter, ln.target),
                splash=splash_mod,
                conditions=conditions,
                options=game.options,
                core=core,
            )

        valid: list[tuple[FireLine, Arc, RangeBand, bool]] = []
        for ln in gun_lines:
            dist, arc, _edge = _geometry(state, ln.shooter, ln.target)
            band = core.band(dist)
            second = ln.shooter in fired
            try:
                if band is None:
                    raise IllegalOrderError(f"{ln.target} is beyond extreme range")
                if second and not (
                    arc.broadside and fired[ln.shooter].broadside and arc is not fired[ln.shooter]
                ):
                    raise IllegalOrderError("a second target must be on the opposite beam")
                made = shots(ln, arc, band, second, 0)
            except IllegalOrderError as exc:
                events.emit(EventKind.NOTE, f"{ln.shooter} does not fire: {exc}", ship=ln.shooter)
                continue
            fired.setdefault(ln.shooter, arc)
            if not made:  # AMB-94: no roll, and no splash either
                events.emit(
                    EventKind.NOTE,
                    f"{ln.shooter}'s light guns cannot hurt {ln.target} (DBA-SCG-01)",
                    ship=ln.shooter,
                )
                continue
            valid.append((ln, arc, band, second))
        shooters_at: dict[str, list[str]] = {}
        for ln, *_rest in valid:
            shooters_at.setdefault(ln.target, []).append(ln.shooter)
        penalties: dict[tuple[str, str], int] = {}
        for target, shooters in shooters_at.items():
            stopped = game.ships[target].stopped
            for shooter, value in splash.fire(
                number, target, shooters, target_stopped=stopped, core=core
            ).items():
                penalties[(shooter, target)] = value
        for ln, arc, band, second in valid:
            guns.extend(shots(ln, arc, band, second, penalties[(ln.shooter, ln.target)]))
        for attack in (*torpedoes, *guns):
            first_bearing.setdefault(
                attack.target,
                _bearing(state.poses[attack.target], state.poses[attack.shooter]),
            )
        was_crippled = {n for n, s in game.ships.items() if s.crippled}
        before = {n: (s.damage, s.crippled, s.sunk) for n, s in game.ships.items()}
        CombatRound(game.ships, torpedoes, guns).resolve(
            dice, options=game.options, log=events, core=core
        )
        _share_fates(game, before, number, events)
        for name, s in game.ships.items():
            if s.crippled and not s.sunk and name not in was_crippled:
                fire_from = first_bearing.get(name)
                if fire_from is not None:  # DBA-OUT-03
                    state.poses[name] = fall_out_of_line(
                        state.poses[name], fire_from, base_width=core.base_metres / 2
                    )
                    events.emit(
                        EventKind.MOVE, f"{name}: falls out of line (DBA-OUT-03)", ship=name
                    )
            if name in banned:
                s.blast_ban -= 1
        _save_splash(game, splash, number)
        game.store()

    return resolve


def _conditions(game: _Game) -> Conditions:
    """The scenario's light and sea (DBA-TF-05/06); searchlights are not modelled."""
    c: Mapping[str, bool] = game.extra.get("conditions", {})
    return Conditions(
        night=c.get("night", False),
        dusk_or_dawn=c.get("dusk_or_dawn", False),
        hindered=c.get("heavy_seas", False),
    )


def _share_fates(
    game: _Game, before: Mapping[str, tuple[int, bool, bool]], number: int, events: EventLog
) -> None:
    """DBA-TBL-06: TBs launched this spell share what their mother suffered in it."""
    launched: Mapping[str, list[Any]] = game.extra.get("launched", {})
    for mother_name in {m for m, sp in launched.values() if sp == number}:
        mother = game.ships[mother_name]
        damage, crippled, sunk = before[mother_name]
        result = (
            Outcome.SUNK
            if mother.sunk and not sunk
            else Outcome.CRIPPLED
            if mother.crippled and not crippled
            else Outcome.DAMAGED
            if mother.damage > damage
            else Outcome.NONE
        )
        tbs = [
            game.ships[t] for t, (m, sp) in launched.items() if m == mother_name and sp == number
        ]
        share_fate(mother, result, tbs, log=events)


def shooters_of(lines: Sequence[FireLine]) -> list[str]:
    """The shooters of some fire lines, each once, in order."""
    return list(dict.fromkeys(ln.shooter for ln in lines))


def _bearing(frm: Pose, to: Pose) -> float:
    return norm360(math.degrees(math.atan2(to.x - frm.x, to.y - frm.y)))


# -- damage control and the end ------------------------------------------------------------
def _resolve_dc(spell: int) -> Any:
    def resolve(
        state: Bf1900State, orders: Mapping[str, Any], dice: SeededDice, events: EventLog
    ) -> None:
        game = _load(state)
        side = _speller(state, spell)
        damage_control_step(list(game.ships.values()), side, dice, options=game.options, log=events)
        for s in game.ships.values():
            if s.side == side:
                s.no_fire_this_spell = False
        game.store()

    return resolve


def _is_speller(spell: int) -> Any:
    def needs(state: Bf1900State, side: str) -> bool:
        return side == _speller(state, spell)

    return needs


def _can_fire(state: Bf1900State, side: str) -> bool:
    return any(s.side == side and not s.sunk for s in _load(state).ships.values())


def verdict(state: Bf1900State, reason: str) -> Result:
    """Points: each enemy ship sunk scores its PV, each crippled half (reconstructed)."""
    game = _load(state)
    points = dict.fromkeys(state.sides, 0.0)
    for s in game.ships.values():
        value = points_value(s.ship)
        lost = value if s.sunk else value / 2 if s.crippled else 0.0
        for side in state.sides:
            if side != s.side:
                points[side] += lost
    ranked = sorted(points.items(), key=lambda kv: kv[1], reverse=True)
    winner = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
    return Result(winner, points, reason)


def end_turn(state: Bf1900State, events: EventLog) -> Result | None:
    """The game ends when a side has no uncrippled ship afloat."""
    game = _load(state)
    for side in state.sides:
        if not any(s.side == side and not s.sunk and not s.crippled for s in game.ships.values()):
            return verdict(state, f"{side} has no fighting ship left")
    return None


def _phases() -> tuple[PhaseSpec[Bf1900State, Any], ...]:
    out: list[PhaseSpec[Bf1900State, Any]] = []
    for spell in (1, 2):
        out += [
            PhaseSpec(f"nips-{spell}", None, _resolve_nips(spell), rules="REF-DBA-01"),
            PhaseSpec(
                f"move-{spell}",
                "movement orders",
                _resolve_moves(spell),
                _parse_moves(spell),
                needs_orders=_is_speller(spell),
                rules="DBA-TYPE-01, DBA-MOV-01..03, DBA-NET-01/02, DBA-RW-01/02",
            ),
            PhaseSpec(
                f"combat-{spell}",
                "fire orders",
                _resolve_combat(spell),
                _parse_fire,
                needs_orders=_can_fire,
                rules="DBA-TGT, DBA-TORP, DBA-SCG-01, DBA-TF, DBA-OUT, DBA-WC",
            ),
            PhaseSpec(f"dc-{spell}", None, _resolve_dc(spell), rules="DBA-SEQ-01, DBA-DC-01"),
        ]
    return tuple(out)


PHASES = _phases()


class Ruleset:
    """The dba ruleset as the engine sees it."""

    name = NAME
    version = VERSION
    aliases = ALIASES
    phases = PHASES

    def scenario_names(self) -> list[str]:
        """The built-in DBA scenarios."""
        folder = resources.files("battleline.rulesets.dba").joinpath("data", "scenarios")
        return sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml"))

    def check_scenario(self, scenario: str) -> str:
        """Validate a DBA scenario by setting it up; its title."""
        new_state(scenario, 0)
        data, _ = _scenario_bytes(scenario)
        return str(tomllib.loads(data.decode("utf-8")).get("title", scenario))

    def owners(self, state: Bf1900State) -> dict[str, str]:
        """Every ship's side."""
        return {n: str(d["side"]) for n, d in state.extra[_EXTRA]["ships"].items()}

    def view(self, game: Game[Bf1900State, SideView], side: str, since: int = 0) -> SideView:
        """The side's view (for now bf1900's, which shows no DBA ship)."""
        return side_view(game, side, since)

    def fates(self, state: Bf1900State) -> tuple[ShipFate, ...]:
        """Each ship's condition (sunk, crippled, damaged, intact) and damage points."""
        word = {Outcome.SUNK: "sunk", Outcome.CRIPPLED: "crippled", Outcome.DAMAGED: "damaged"}
        conditions = crippled_or_sunk(state)
        return tuple(
            ShipFate(
                name,
                s.side,
                s.ship.name,
                1,
                word.get(conditions[name], "intact"),
                not (s.sunk or s.crippled),
                (("damage", str(s.damage)),),
            )
            for name, s in ships_of(state).items()
        )

    def picture(self, state: Bf1900State, path: str) -> str | None:
        """No picture of a DBA table yet."""
        return None

    def new_state(self, scenario: str, seed: int) -> Bf1900State:
        """Set up a DBA scenario."""
        return new_state(scenario, seed)

    def end_turn(self, state: Bf1900State, events: EventLog) -> Result | None:
        """End of a turn (two spells): a side with no fighting ship loses."""
        return end_turn(state, events)

    def verdict(self, state: Bf1900State, reason: str) -> Result:
        """Points for ships sunk and crippled."""
        return verdict(state, reason)


RULESET = Ruleset()


def ships_of(state: Bf1900State) -> dict[str, ShipStatus]:
    """The ships of a DBA game state, loaded (for views and tests)."""
    return _load(state).ships


def crippled_or_sunk(state: Bf1900State) -> dict[str, Outcome]:
    """Each ship's condition as a combat result (none, damaged, crippled, sunk)."""
    out: dict[str, Outcome] = {}
    for name, s in _load(state).ships.items():
        out[name] = (
            Outcome.SUNK
            if s.sunk
            else Outcome.CRIPPLED
            if s.crippled
            else Outcome.DAMAGED
            if s.damage
            else Outcome.NONE
        )
    return out
