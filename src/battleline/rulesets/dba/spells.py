"""The steps of a spell other than combat: NIPs, movement (with turns in succession, rams and TB
launches) and damage control (DBA-SEQ-01).

Who sees what: the NIP dice and the damage-control dice are the owner's; every move, ram test and
launch happens on the open table and is public.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from shapely import LineString, Point

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, norm360, signed_angle
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.combat import Arc, arc_of
from battleline.rulesets.dba.damage_control import damage_control_step
from battleline.rulesets.dba.factors import ShipType, load_annex_a
from battleline.rulesets.dba.movement import TurnTogetherLock, roll_nips
from battleline.rulesets.dba.orders import MoveLine
from battleline.rulesets.dba.ramming import Edge, Placement, RamKind, RamOutcome, resolve_ram
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.table import base_metres, bearing, footprint
from battleline.rulesets.dba.torpedo_boats import launch_tb

Resolver = Callable[[DbaState, Mapping[str, object], SeededDice, EventLog], None]
Paths = dict[str, list[tuple[float, float]]]
_ON_SPOT = 0.25  # bases: a ship this close to a Windy Corner's spot is on it


# -- step 1: NIPs ---------------------------------------------------------------------------
def resolve_nips(spell: int) -> Resolver:
    """Start a spell: what each ship did last spell is remembered, then the speller rolls one
    D6 of NIPs per squadron.

    DBA-TF-10: "+1 vs target that was stopped last spell and is not crippled now". Every ship,
    of either side, is marked here with whether it was stopped when the last spell ended, so the
    bonus applies in the very next spell.
    """

    def resolve(
        state: DbaState, orders: Mapping[str, object], dice: SeededDice, events: EventLog
    ) -> None:
        for s in state.ships.values():
            s.stopped_last_spell = s.stopped and not s.sunk
        side = state.speller(spell)
        state.nips = {}
        for squadron in state.squadrons(side):
            state.nips[squadron] = roll_nips(squadron, dice)
            events.emit(EventKind.COMMAND, f"{squadron}: {state.nips[squadron]} NIPs", side=side)
        for s in state.ships.values():
            if s.side == side:
                s.moved_this_spell = 0
        state.prune_splash(state.spell_number(spell))

    return resolve


# -- step 2: movement -----------------------------------------------------------------------
def resolve_moves(spell: int) -> Resolver:
    """Carry out the speller's movement orders, in the order given."""

    def resolve(
        state: DbaState, orders: Mapping[str, object], dice: SeededDice, events: EventLog
    ) -> None:
        side = state.speller(spell)
        base = base_metres()
        lock = TurnTogetherLock(dict(state.lock))
        number = state.spell_number(spell)
        paths: Paths = {}
        halted: set[str] = set()
        lines: Sequence[MoveLine] = orders.get(side, [])  # type: ignore[assignment]
        for line in lines:
            members = state.members(side, line.who)
            if line.succession:
                _succession(state, line, members, paths, number, events)
                continue
            if line.launch:
                _launch(state, line, number, events)
                continue
            if line.ram is not None:
                if _ram_move(state, line, paths, dice, events):
                    halted.add(line.who)
                continue
            if line.nets is not None:
                for m in members:
                    m.nets_lowered = line.nets
                events.emit(
                    EventKind.MOVE, f"{line.who}: nets {'down' if line.nets else 'up'}", public=True
                )
                continue
            if line.stop:
                events.emit(EventKind.MOVE, f"{line.who}: stops", public=True)
                continue
            if len(members) > 1 and line.turn:
                lock.turned_together(
                    members[0].squadron, number, into_line_abreast=abs(line.turn) == 90
                )
            starts: dict[str, Pose] = {}
            for m in members:
                start = state.poses[m.name]
                starts[m.name] = Pose(start.x, start.y, norm360(start.heading + line.turn))
                pose = starts[m.name].forward(line.bases * base)
                state.poses[m.name] = pose
                m.moved_this_spell += line.bases
                paths[m.name] = [(start.x, start.y), (pose.x, pose.y)]
            turn = f" turns {line.turn:+g}° and" if line.turn else ""
            events.emit(
                EventKind.MOVE, f"{line.who}:{turn} moves {line.bases} base(s)", public=True
            )
            names = [m.name for m in members]
            halted |= _collisions(state, line, names, starts, paths, dice, events)
        for m in state.ships.values():
            if m.side == side and not m.sunk:
                m.moved_last_spell = m.moved_this_spell
                m.stopped = m.moved_this_spell == 0 or m.name in halted or m.fouled
                if m.name in paths:
                    state.tracks.setdefault(m.name, []).append(paths[m.name][-1])
        _leave_shared_bases(state)
        _track_corners(state, paths)
        state.lock = dict(lock.locked_through)

    return resolve


def _leave_shared_bases(state: DbaState) -> None:
    """A ship that moved apart from its base-mates is on a base of its own (DBA-BAS-01)."""
    groups: dict[str, list[ShipStatus]] = {}
    for s in state.ships.values():
        if s.base and not s.sunk:
            groups.setdefault(s.base, []).append(s)
    for group in groups.values():
        first = state.poses[group[0].name]
        for s in group[1:]:
            p = state.poses[s.name]
            if math.hypot(p.x - first.x, p.y - first.y) > 1.0 or p.heading != first.heading:
                s.base = ""
        if sum(1 for s in group if s.base) < 2:
            for s in group:
                s.base = ""


def _launch(state: DbaState, line: MoveLine, number: int, events: EventLog) -> None:
    """Launch a 2nd Class TB abeam of its stopped mother (DBA-TBL-02..05)."""
    mother = state.ships[line.who]
    mother.stopped = True
    this_spell = sum(1 for m, sp in state.launched.values() if m == line.who and sp == number)
    tb2 = next(s for s in load_annex_a().ships.values() if s.type is ShipType.TB_2)
    with events.shown_to(*state.sides):
        done = launch_tb(
            mother,
            tb2,
            spell=number,
            launched_this_spell=this_spell,
            options=state.options,
            pose=state.poses[line.who],
            base_width=base_metres() / 2,
            log=events,
        )
    tb = done.tb
    tb.squadron = f"{line.who} TBs"
    while tb.name in state.ships:
        tb.name += "'"
    state.ships[tb.name] = tb
    assert done.pose is not None
    state.poses[tb.name] = done.pose
    state.launched[tb.name] = (line.who, number)
    events.owners = {**events.owners, tb.name: tb.side, tb.squadron: tb.side}


def _ram_move(
    state: DbaState, line: MoveLine, paths: Paths, dice: SeededDice, events: EventLog
) -> bool:
    """Head for the target and run the declared bases; on contact, test the ram (DBA-RAM-03..17)
    and place the rammer as the result says (DBA-RAM-10/13/14/15). True if the rammer stopped.

    The rammer's ±1 comes with its order; a "ram" target's from its standing ``if rammed`` line
    (by default it deducts one), decided after the rammer's (DBA-RAM-06)."""
    assert line.ram is not None
    base = base_metres()
    start, tpose = state.poses[line.who], state.poses[line.ram]
    heading = bearing(start, tpose)
    full = Pose(start.x, start.y, heading).forward(line.bases * base)
    state.ships[line.who].moved_this_spell += line.bases
    hit = LineString([(start.x, start.y), (full.x, full.y)]).intersection(footprint(tpose, base))
    if hit.is_empty:
        state.poses[line.who] = full
        paths[line.who] = [(start.x, start.y), (full.x, full.y)]
        events.emit(
            EventKind.MOVE,
            f"{line.who}: runs {line.bases} base(s) at {line.ram} and misses",
            ship=line.who,
            public=True,
        )
        return False
    contact = Point(start.x, start.y).distance(hit)
    return _contact(
        state,
        line.who,
        line.ram,
        start,
        full,
        contact,
        line.bases,
        RamKind.VOLUNTARY,
        line.ram_adjust,
        paths,
        dice,
        events,
    ).rammer_stopped


def _contact(
    state: DbaState,
    mover: str,
    other: str,
    start: Pose,
    full: Pose,
    contact: float,
    declared: int,
    kind: RamKind,
    adjust: int | None,
    paths: Paths,
    dice: SeededDice,
    events: EventLog,
    target_speed: int | None = None,
) -> RamOutcome:
    """Test a ram or collision at ``contact`` metres along the mover's path and place the mover
    (DBA-RAM-05..17)."""
    base = base_metres()
    tpose = state.poses[other]
    target = state.ships[other]
    used = max(1, math.ceil(contact / base - 1e-9))
    seen = arc_of(tpose.bearing_to(start.x, start.y))
    edge = Edge.BROADSIDE if seen.broadside else Edge.BOW if seen is Arc.BOW else Edge.STERN
    out = resolve_ram(
        state.ships[mover],
        target,
        dice,
        kind=kind,
        edge=edge,
        declared_bases=declared,
        target_speed=(0 if target.stopped else target.moved_last_spell)
        if target_speed is None
        else target_speed,
        bases_left=declared - used + 1,
        rammer_adjust=adjust,
        target_adjust=state.ram_choice.get(other),
        options=state.options,
        log=events,
    )
    heading = full.heading
    if out.placement is Placement.PASSES_THROUGH and not out.counter_ram:
        end = full
    elif out.placement is Placement.BROADSIDE_TO_BROADSIDE:
        side = 1.0 if 0.0 <= tpose.bearing_to(start.x, start.y) < 180.0 else -1.0
        x, y = tpose.offset(0.0, side * base / 2)
        end = Pose(x, y, tpose.heading)
    elif out.placement is Placement.STOPS_SHORT:
        end = Pose(start.x, start.y, heading).forward(max(contact - base / 2, 0.0))
    else:
        end = Pose(start.x, start.y, heading).forward(contact)
    state.poses[mover] = end
    paths[mover] = [(start.x, start.y), (end.x, end.y)]
    events.emit(EventKind.MOVE, f"{mover}: {out.placement.value}", ship=mover, public=True)
    return out


def _collisions(
    state: DbaState,
    line: MoveLine,
    moved: Sequence[str],
    starts: dict[str, Pose],
    paths: Paths,
    dice: SeededDice,
    events: EventLog,
) -> set[str]:
    """DBA-RAM-01: a ship whose ordinary move crosses another ship's base (not one moving with
    it in the same order, nor one it started on or against) tests for an involuntary ram.

    DBA-RAM-04: several movers of one order meeting the same ship test closest first (by the
    distance at the start of the move); after an effective ram the others pass through; after the
    target rams one of them, the others are ignored in line abreast, while in line ahead they
    still test and the target counts as stationary. Returns the ships that stopped."""
    if not state.options.ramming:
        return set()
    base = base_metres()
    meets: dict[str, list[tuple[float, float, str]]] = {}
    for name in moved:
        start, end = starts[name], state.poses[name]
        if start == end:
            continue
        path = LineString([(start.x, start.y), (end.x, end.y)])
        here = footprint(start, base)
        first: tuple[float, str] | None = None
        for other, s in state.ships.items():
            if other in moved or s.sunk:
                continue
            there = footprint(state.poses[other], base)
            if there.intersects(here):
                continue  # touching from the start (base-mates, ships alongside)
            hit = path.intersection(there)
            if not hit.is_empty:
                d = Point(start.x, start.y).distance(hit)
                if first is None or d < first[0]:
                    first = (d, other)
        if first is not None:
            away = start.distance_to(state.poses[first[1]])
            meets.setdefault(first[1], []).append((away, first[0], name))
    stopped: set[str] = set()
    abreast = _line_abreast([starts[n] for n in moved])
    for target, movers in meets.items():
        speed: int | None = None
        for _away, contact, name in sorted(movers):
            if state.ships[target].sunk:
                break
            events.emit(
                EventKind.COLLISION,
                f"{name}'s move crosses {target}: involuntary ramming test (DBA-RAM-01)",
                ship=name,
                public=True,
            )
            out = _contact(
                state,
                name,
                target,
                starts[name],
                state.poses[name],
                contact,
                line.bases,
                RamKind.INVOLUNTARY,
                0,
                paths,
                dice,
                events,
                target_speed=speed,
            )
            if out.rammer_stopped:
                stopped.add(name)
            if out.effective or (out.counter_ram and abreast):
                break  # DBA-RAM-04: the rest pass through
            if out.counter_ram:
                speed = 0  # line ahead: the target now counts as stationary
    return stopped


def _line_abreast(poses: Sequence[Pose]) -> bool:
    """Are these ships side by side (rather than one astern of another) on their heading?"""
    if len(poses) < 2:
        return False
    a, b = poses[0], poses[1]
    dx, dy = b.x - a.x, b.y - a.y
    r = math.radians(a.heading)
    along = abs(dx * math.sin(r) + dy * math.cos(r))
    across = abs(dx * math.cos(r) - dy * math.sin(r))
    return across > along


def _succession(
    state: DbaState,
    line: MoveLine,
    members: Sequence[ShipStatus],
    paths: Paths,
    number: int,
    events: EventLog,
) -> None:
    """Turn in succession: the leader turns where it is; each ship astern runs on to that point,
    turns there and uses the rest of its move on the new heading (DBA-WC-01). Without a turn
    (``succession 2``) the squadron carries on round the turn it began earlier."""
    base = base_metres()
    if line.turn:
        leader = state.poses[members[0].name]
        new_heading = norm360(leader.heading + line.turn)
        state.turn_points[line.who] = (leader.x, leader.y, new_heading)
    elif line.who in state.turn_points:
        px, py, new_heading = state.turn_points[line.who]
        leader = Pose(px, py, new_heading)
    else:
        raise IllegalOrderError(f"{line.who}: no turn in succession to continue; give T±degrees")
    for m in members:
        start = state.poses[m.name]
        to_turn = math.hypot(leader.x - start.x, leader.y - start.y)
        run = line.bases * base
        if abs(signed_angle(start.heading - new_heading)) < 1e-6 or to_turn >= run - 1e-6:
            end = start.forward(run)
            paths[m.name] = [(start.x, start.y), (end.x, end.y)]
        else:
            end = Pose(leader.x, leader.y, new_heading).forward(run - to_turn)
            paths[m.name] = [(start.x, start.y), (leader.x, leader.y), (end.x, end.y)]
        state.poses[m.name] = end
        m.moved_this_spell += line.bases
    what = f"turns {line.turn:+g}°" if line.turn else "carries on round its turn"
    events.emit(
        EventKind.MOVE, f"{line.who}: {what} in succession, {line.bases} base(s)", public=True
    )
    if all(abs(signed_angle(state.poses[m.name].heading - new_heading)) < 1e-6 for m in members):
        state.turn_points.pop(line.who, None)
    if not line.turn:
        return
    first = state.poses[members[0].name]
    location = f"WC{number}-{line.who}"
    with events.shown_to(*state.sides):
        corner = state.splash.turn_in_succession(
            line.who,
            [m.name for m in members],
            degrees=line.turn,
            location=location,
            first_through=members[0].name,
            log=events,
        )
    if corner is not None:
        state.corner_xy[location] = (first.x, first.y)
        paths.pop(members[0].name, None)  # already placed on the corner


def _track_corners(state: DbaState, paths: Mapping[str, list[tuple[float, float]]]) -> None:
    """Ships arriving on, passing through or leaving Windy Corners (DBA-WC-03/04)."""
    base = base_metres()
    splash = state.splash
    for location, corner in list(splash.corners.items()):
        spot = Point(*state.corner_xy[location])
        for name in sorted(corner.to_pass | corner.occupants):
            if name not in paths:
                continue
            end = state.poses[name]
            if spot.distance(Point(end.x, end.y)) <= _ON_SPOT * base:
                splash.arrive(name, location)
            elif name in corner.occupants:
                splash.leave(name, crippled=state.ships[name].crippled)
            elif LineString(paths[name]).distance(spot) <= _ON_SPOT * base:
                splash.pass_through(name, location)
            if location not in splash.corners:
                break
    state.corner_xy = {k: v for k, v in state.corner_xy.items() if k in splash.corners}


# -- step 4: damage control -----------------------------------------------------------------
def resolve_dc(spell: int) -> Resolver:
    """The speller's flooding ships roll to stop the water; fouled nets are cut away
    (DBA-DC-01, DBA-NET-04). The dice and their results are the owner's."""

    def resolve(
        state: DbaState, orders: Mapping[str, object], dice: SeededDice, events: EventLog
    ) -> None:
        side = state.speller(spell)
        damage_control_step(
            list(state.ships.values()), side, dice, options=state.options, log=events
        )
        for s in state.ships.values():
            if s.side == side:
                s.no_fire_this_spell = False

    return resolve
