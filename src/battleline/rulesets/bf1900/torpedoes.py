"""Torpedo fire and the Torpedo Movement Phase (BF6-TORP-01..11, REF-BF6-18).

The torpedo step comes after all movement and gunnery (BF6-TORP-01). Each side declares every
launch and its target at once; a declaration is sealed and cannot be cancelled (BF6-TORP-02).
At resolution the tubes are crossed off (BF6-TORP-03), and in the Torpedo Movement Phase each
torpedo runs straight to its target and rolls 1D6 on the torpedo hit chart. Hits are handed to
Damage Step Two as :class:`~battleline.rulesets.bf1900.hits.TorpedoHit` records (BF6-TORP-11).

The hit calculation, torpedo ranges and the Torpedo Movement Phase are missing from the rules
(REF-BF6-18); our reconstruction is described in ``docs/rules-gaps/torpedoes.md``.

The launch order and its checks are :mod:`~battleline.rulesets.bf1900.torpedo_launch`, the
arcs, runs, course and aspect :mod:`~battleline.rulesets.bf1900.torpedo_geometry`; this module
keeps the running depth and the Torpedo Movement Phase, and every name it held before.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.hits import TorpedoHit, embattled_side
from battleline.rulesets.bf1900.ship import SKIMMER_TYPES, Rating, ShipClass
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.torpedo_geometry import (
    LAUNCH_ARCS,
    RAKE_ARCS,
    Arc,
    BaseSizes,
    Course,
    ShotAspect,
    aim_point,
    bearing_arc,
    course_relation,
    land_blocks,
    launch_arcs,
    launching_side,
    run_length,
    shot_aspect,
    torpedo_run,
)
from battleline.rulesets.bf1900.torpedo_launch import (
    TorpedoLaunch,
    base_of,
    mount_of,
    parse_launches,
    tubes_left,
    validate_launch,
    validate_launches,
)

#: A normal-depth torpedo always passes under a target of this size or smaller (BF6-TORP-07).
NORMAL_DEPTH_MISSES_UP_TO = 4


class TorpedoChart(Protocol):
    """What the torpedo step needs from the combat charts (``charts.Charts``)."""

    def torpedo_to_hit(self, course: str, aspect: str) -> int:
        """The 1D6 score needed to hit: a hit if the roll is at least this value (AMB-54)."""
        ...


# -- running depth (BF6-TORP-05..08) ----------------------------------------------------------


def runs_shallow(cls: ShipClass) -> bool:
    """True if the class carries shallow-running torpedoes ("surface skimmers", BF6-TORP-06).

    Torpedoes run at normal depth unless the ship log says otherwise before the game
    (BF6-TORP-05); only destroyers, torpedo boats and torpedo gunboats may say so.
    """
    return cls.shallow_torpedoes and cls.type in SKIMMER_TYPES


def passes_under(
    shallow: bool, target_size: int, runs_under: int = NORMAL_DEPTH_MISSES_UP_TO
) -> bool:
    """A normal-depth torpedo always misses a target of size 4 or less (BF6-TORP-07, EX-DRV-02).

    ``runs_under`` is that size on the edition's scale (the 1D12 edition's larger sizes).
    """
    return not shallow and target_size <= runs_under


def flooding_size(hit: TorpedoHit, flood_protection: Rating) -> int:
    """The torpedo's size for the Flooding Occurrence comparison in Damage Step Two.

    A shallow-running torpedo has its size halved, rounded down, against good or great flood
    protection (BF6-TORP-08, AMB-20).
    """
    if hit.shallow and flood_protection in (Rating.GOOD, Rating.GREAT):
        return hit.size // 2
    return hit.size


# -- the Torpedo Movement Phase ----------------------------------------------------------------


def resolve_torpedoes(
    launches: Sequence[TorpedoLaunch],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: BaseSizes | None,
    land: Sequence[Any],
    charts: TorpedoChart,
    dice: Dice,
    events: EventLog,
    *,
    harbour: bool | Collection[str] = False,
    die: int = 6,
    runs_under: int = NORMAL_DEPTH_MISSES_UP_TO,
    seen_by: Mapping[str, tuple[str, ...]] | None = None,
) -> list[TorpedoHit]:
    """Launch the declared torpedoes and run them to their targets (BF6-TORP-01..11).

    All launches are checked first; an illegal one raises before any tube is crossed off. Then
    every launch crosses its torpedoes off the firer's log (BF6-TORP-03, mutating ``logs``), and
    each torpedo, in declaration order, either passes under a small target (BF6-TORP-07, no roll)
    or rolls 1D6 against ``charts.torpedo_to_hit(course, aspect)``. ``harbour`` is ``True`` when
    the scenario places every target at anchor with nets out, or the names of the ships that are;
    those use the "stationary_nets" line (BF12C-TH-04). Returns the hits for Damage Step Two.
    ``die`` is the edition's die for the to-hit roll (12 in the 1D12 edition, BF12C-TH-01) and
    ``runs_under`` the largest size a normal-depth torpedo passes under on its size scale.
    ``seen_by`` names, for each firer, the other sides that can see her: only they see her
    launch and her name on the torpedoes' ends (issue 11 §3); ``None`` shows both to every side.
    """
    validate_launches(launches, poses, logs, scale, land)
    sides = tuple(dict.fromkeys(log.side for log in logs.values()))
    sight = {
        la.firer: _Sight.of(
            logs[la.firer].side, sides, None if seen_by is None else seen_by[la.firer]
        )
        for la in launches
    }
    for launch in launches:
        log = logs[launch.firer]
        mount = mount_of(log, launch.mount)
        log.torpedoes_left[mount.key] = tubes_left(log, mount) - launch.count
        here, there = poses[launch.firer], poses[launch.target]
        arc = bearing_arc(mount, here.bearing_to(there.x, there.y))
        side = launching_side(mount, arc or launch_arcs(mount)[0])
        distance = run_length(torpedo_run(here, there, base_of(scale, logs[launch.target])))
        # The firer's own record (tubes, count, torpedoes left); the launch itself shows across
        # the table, without counts; the length of the run (a true range) is the umpire's.
        events.emit(
            EventKind.TORPEDO_LAUNCH,
            f"{launch.firer} launches {launch.count} torpedo(es) from {mount.key} tubes "
            f"({side}) at {launch.target}; {log.torpedoes_left[mount.key]} left",
            ship=launch.firer,
            target=launch.target,
            mount=mount.key,
            count=launch.count,
            launch_side=side,
        )
        sight[launch.firer].emit(
            events,
            EventKind.TORPEDO_LAUNCH,
            f"{launch.firer} launches torpedoes at {launch.target}",
            launch.firer,
            target=launch.target,
        )
        events.emit(
            EventKind.NOTE,
            f"umpire: {launch.firer}'s torpedoes run {distance:,.0f} m to {launch.target}",
            firer=launch.firer,
            target=launch.target,
            run_m=distance,
        )
    hits: list[TorpedoHit] = []
    for launch in launches:
        for _ in range(launch.count):
            hit = _run(launch, poses, logs, charts, dice, events, harbour, die, runs_under)
            if hit is not None and logs[launch.target].side in sight[launch.firer].blind:
                hit = replace(hit, firer_seen=False)
            _seen(events, launch, sight[launch.firer], hit=hit is not None)
            if hit is not None:
                hits.append(hit)
    return hits


def _run(
    launch: TorpedoLaunch,
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    charts: TorpedoChart,
    dice: Dice,
    events: EventLog,
    harbour: bool | Collection[str],
    die: int = 6,
    runs_under: int = NORMAL_DEPTH_MISSES_UP_TO,
) -> TorpedoHit | None:
    """One torpedo's run in the Torpedo Movement Phase (REF-BF6-18)."""
    firer, target = logs[launch.firer], logs[launch.target]
    mount = mount_of(firer, launch.mount)
    shallow = runs_shallow(firer.cls)
    here, there = poses[launch.firer], poses[launch.target]
    depth = "shallow" if shallow else "normal depth"
    # The run and its dice are the firer's; whether it hit shows to everyone (issue 11 §3).
    firer_side = logs[launch.firer].side or None
    if passes_under(shallow, target.cls.size, runs_under):
        events.emit(
            EventKind.TORPEDO_MISS,
            f"{launch.firer}'s torpedo at {launch.target} runs under it "
            f"(size {target.cls.size}, {depth}; BF6-TORP-07)",
            ship=launch.target,
            side=firer_side,
            firer=launch.firer,
            mount=mount.key,
            reason="depth",
        )
        return None
    at_anchor = harbour is True or (not isinstance(harbour, bool) and launch.target in harbour)
    course: Course = "stationary_nets" if at_anchor else course_relation(here, there)
    aspect = shot_aspect(here, there)
    need = charts.torpedo_to_hit(course, aspect)
    roll = dice.roll(die, f"torpedo from {launch.firer} at {launch.target}", ship=launch.firer)
    label = course.replace("_", " ")
    if roll < need:
        events.emit(
            EventKind.TORPEDO_MISS,
            f"{launch.firer}: torpedo at {launch.target}, {label} {aspect}, needs {need}, "
            f"rolls {roll} → miss",
            ship=launch.target,
            side=firer_side,
            firer=launch.firer,
            mount=mount.key,
            reason="roll",
            course=course,
            aspect=aspect,
            need=need,
            roll=roll,
        )
        return None
    side = embattled_side(there.bearing_to(here.x, here.y))
    events.emit(
        EventKind.TORPEDO_HIT,
        f"{launch.firer}: torpedo at {launch.target}, {label} {aspect}, needs {need}, "
        f"rolls {roll} → hit from {side.value} ({depth}, size {mount.size})",
        ship=launch.target,
        side=firer_side,
        firer=launch.firer,
        mount=mount.key,
        course=course,
        aspect=aspect,
        need=need,
        roll=roll,
        embattled=side.value,
        shallow=shallow,
    )
    return TorpedoHit(launch.firer, launch.target, mount.key, mount.size, shallow, side)


@dataclass(frozen=True, slots=True)
class _Sight:
    """Who at the table sees one firer: her own side, the other sides that can see her
    (``watching``) and those that cannot (``blind``)."""

    own: str
    watching: tuple[str, ...]
    blind: tuple[str, ...]

    @classmethod
    def of(cls, own: str, sides: Sequence[str], watching: Collection[str] | None) -> _Sight:
        """Every other side watches when ``watching`` is ``None``."""
        others = [s for s in sides if s != own]
        blind = () if watching is None else tuple(s for s in others if s not in watching)
        return cls(own, tuple(s for s in others if s not in blind), blind)

    def emit(self, events: EventLog, kind: EventKind, text: str, ship: str, **data: Any) -> None:
        """An event about the firer: public when every side sees her, else her own side's and
        the watchers'."""
        if self.blind:
            events.emit(kind, text, ship=ship, side=self.own, seen_by=self.watching, **data)
        else:
            events.emit(kind, text, ship=ship, public=True, **data)


def _seen(events: EventLog, launch: TorpedoLaunch, sight: _Sight, *, hit: bool) -> None:
    """What everyone at the table sees of one torpedo's end: a hit or a miss, no dice. A side
    that cannot see the firer is not told whose torpedo it was."""
    kind = EventKind.TORPEDO_HIT if hit else EventKind.TORPEDO_MISS
    if sight.blind:
        events.emit(
            kind,
            f"{launch.target} is hit by a torpedo" if hit else f"a torpedo misses {launch.target}",
            ship=launch.target,
            side=sight.blind[0],
            seen_by=sight.blind[1:],
        )
    text = (
        f"{launch.target} is hit by a torpedo from {launch.firer}"
        if hit
        else f"a torpedo from {launch.firer} misses {launch.target}"
    )
    sight.emit(events, kind, text, launch.target, firer=launch.firer)


def max_torpedo_range(log: ShipLog) -> float:
    """The longest range among mounts with torpedoes left, 0 if none ("torpedo range",
    BF6-CMD-26/30)."""
    ranges = [m.range_m for m in log.cls.torpedoes if log.torpedoes_left.get(m.key, 0) > 0]
    return max(ranges, default=0.0)


# Every name this module held before the launch order and the geometry moved out stays
# importable from here.
__all__ = [
    "LAUNCH_ARCS",
    "NORMAL_DEPTH_MISSES_UP_TO",
    "RAKE_ARCS",
    "Arc",
    "BaseSizes",
    "Course",
    "ShotAspect",
    "TorpedoChart",
    "TorpedoLaunch",
    "aim_point",
    "bearing_arc",
    "course_relation",
    "flooding_size",
    "land_blocks",
    "launch_arcs",
    "launching_side",
    "max_torpedo_range",
    "parse_launches",
    "passes_under",
    "resolve_torpedoes",
    "run_length",
    "runs_shallow",
    "shot_aspect",
    "torpedo_run",
    "tubes_left",
    "validate_launch",
    "validate_launches",
]
