"""Torpedo fire and the Torpedo Movement Phase (BF6-TORP-01..11, REF-BF6-18).

The torpedo step comes after all movement and gunnery (BF6-TORP-01). Each side declares every
launch and its target at once; a declaration is sealed and cannot be cancelled (BF6-TORP-02).
At resolution the tubes are crossed off (BF6-TORP-03), and in the Torpedo Movement Phase each
torpedo runs straight to its target and rolls 1D6 on the torpedo hit chart. Hits are handed to
Damage Step Two as :class:`~battleline.rulesets.bf1900.hits.TorpedoHit` records (BF6-TORP-11).

The hit calculation, torpedo ranges and the Torpedo Movement Phase are missing from the rules
(REF-BF6-18); our reconstruction is described in ``docs/rules-gaps/torpedoes.md``.

Launch notation (one launch per line; ``x1`` may be left out)::

    Kasumi: TT bow -> Mikasa x2
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, Protocol

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose, in_arc, norm360, signed_angle, unit
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.hits import TorpedoHit, embattled_side
from battleline.rulesets.bf1900.ship import SKIMMER_TYPES, Rating, ShipClass, TorpedoMount
from battleline.rulesets.bf1900.shiplog import ShipLog

Course = Literal["converging", "diverging", "stationary_nets"]
ShotAspect = Literal["rake", "beam"]
Arc = tuple[float, float]

#: Launch arcs by tube position, as closed clockwise intervals of relative bearing
#: (BF6-TORP-09/10, BF6-POS-11, BF6-BEAM-05, AMB-19). Two arcs = one on each side.
LAUNCH_ARCS: Mapping[str, tuple[Arc, ...]] = MappingProxyType(
    {
        "bow": ((330.0, 30.0),),
        "stern": ((150.0, 210.0),),
        "starboard": ((60.0, 120.0),),
        "port": ((240.0, 300.0),),
        "centreline": ((42.5, 137.5), (222.5, 317.5)),
        "beam": ((60.0, 120.0), (240.0, 300.0)),
    }
)

#: The target's front and rear arcs for a rake shot: 95° centred on bow and stern (AMB-54).
RAKE_ARCS: tuple[Arc, ...] = ((312.5, 47.5), (132.5, 227.5))

#: A normal-depth torpedo always passes under a target of this size or smaller (BF6-TORP-07).
NORMAL_DEPTH_MISSES_UP_TO = 4

_SIDE_OF_ARC: Mapping[Arc, str] = {
    (60.0, 120.0): "starboard",
    (240.0, 300.0): "port",
    (42.5, 137.5): "starboard",
    (222.5, 317.5): "port",
}


class TorpedoChart(Protocol):
    """What the torpedo step needs from the combat charts (``charts.Charts``)."""

    def torpedo_to_hit(self, course: str, aspect: str) -> int:
        """The 1D6 score needed to hit: a hit if the roll is at least this value (AMB-54)."""
        ...


# -- the launch order and its notation -----------------------------------------------------

_LAUNCH_RE = re.compile(
    r"^\s*(?P<firer>[^:]+?)\s*:\s*TT\s+(?P<mount>\S+)\s*->\s*(?P<target>.+?)"
    r"(?:\s+[xX](?P<count>\d+))?\s*$"
)


@dataclass(frozen=True, slots=True)
class TorpedoLaunch:
    """One declared launch: ``count`` torpedoes from ``firer``'s ``mount`` at ``target``.

    >>> TorpedoLaunch.parse("Kasumi: TT bow -> Mikasa x2")
    TorpedoLaunch.parse('Kasumi: TT bow -> Mikasa x2')
    >>> str(TorpedoLaunch("Kasumi", "beam", "Mikasa"))
    'Kasumi: TT beam -> Mikasa'
    """

    firer: str
    mount: str
    target: str
    count: int = 1

    def __post_init__(self) -> None:
        if not self.firer.strip() or not self.target.strip() or not self.mount.strip():
            raise OrderSyntaxError(f"torpedo launch {self!s}: firer, mount and target are needed")
        if self.count < 1:
            raise OrderSyntaxError(f"torpedo launch {self!s}: launch at least one torpedo")

    @classmethod
    def parse(cls, text: str) -> TorpedoLaunch:
        """Read ``"<firer>: TT <mount> -> <target> [x<count>]"``."""
        m = _LAUNCH_RE.match(text)
        if m is None:
            raise OrderSyntaxError(
                f"cannot read torpedo launch {text!r}; write e.g. 'Kasumi: TT bow -> Mikasa x2'"
            )
        count = int(m["count"]) if m["count"] else 1
        return cls(m["firer"], m["mount"], m["target"], count)

    def __str__(self) -> str:
        tail = f" x{self.count}" if self.count != 1 else ""
        return f"{self.firer}: TT {self.mount} -> {self.target}{tail}"

    def __repr__(self) -> str:
        return f"TorpedoLaunch.parse({str(self)!r})"


def parse_launches(text: str) -> list[TorpedoLaunch]:
    """Read one launch per non-blank line (``#`` starts a comment)."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(TorpedoLaunch.parse(line))
    return out


# -- geometry: arcs, range, land, course and aspect ------------------------------------------


def launch_arcs(mount: TorpedoMount) -> tuple[Arc, ...]:
    """The arcs a mount may launch into (BF6-TORP-09/10, AMB-19)."""
    try:
        return tuple(LAUNCH_ARCS[mount.position])
    except KeyError:
        raise IllegalOrderError(
            f"torpedo mount {mount.key!r}: unknown position {mount.position!r}; "
            f"use one of {', '.join(LAUNCH_ARCS)}"
        ) from None


def bearing_arc(mount: TorpedoMount, theta: float) -> Arc | None:
    """The arc of ``mount`` that holds relative bearing ``theta``, or ``None`` if out of arc.

    The same test as :func:`~battleline.engine.geometry.in_arc` on each of
    :func:`launch_arcs`, with each arc's width worked out once (:data:`_ARC_TESTS`): the AI asks
    this for every mount and target every turn.
    """
    tests = _ARC_TESTS.get(mount.position)
    if tests is None:
        tests = tuple(map(_arc_test, launch_arcs(mount)))  # raises for an unknown position
    for arc, start, upto in tests:
        offset = (theta - start) % 360.0  # norm360(theta - start)
        if offset == 360.0:
            offset = 0.0
        if offset <= upto or offset >= _FULL_TURN:
            return arc
    return None


def _arc_test(arc: Arc, eps: float = 1e-9) -> tuple[Arc, float, float]:
    """``(arc, start, upto)``: ``theta`` is in the arc when ``norm360(theta - start)`` is at most
    ``upto`` or at least :data:`_FULL_TURN`, exactly as ``in_arc(theta, *arc)`` decides."""
    start, end = arc
    width = norm360(end - start)
    if width == 0.0 and end != start:
        width = 360.0
    return arc, start, width + eps


#: Where ``in_arc`` (default ``eps``) counts a bearing just short of the arc's start as inside.
_FULL_TURN = 360.0 - 1e-9
#: The launch arcs of each tube position, prepared for :func:`bearing_arc`; a pure function of
#: the read-only :data:`LAUNCH_ARCS`.
_ARC_TESTS: Mapping[str, tuple[tuple[Arc, float, float], ...]] = MappingProxyType(
    {position: tuple(map(_arc_test, arcs)) for position, arcs in LAUNCH_ARCS.items()}
)


def launching_side(mount: TorpedoMount, arc: Arc) -> str:
    """Where the launch marker goes: 'bow', 'stern', 'port' or 'starboard' (BF6-TORP-03)."""
    if mount.position in ("bow", "stern"):
        return mount.position
    return _SIDE_OF_ARC[arc]


class BaseSizes(Protocol):
    """What the torpedo step needs from the game scale (``scales.Scale``)."""

    def base_size_m(self, cls: ShipClass) -> tuple[float, float]:
        """(length, width) of a ship's base in metres."""
        ...


def aim_point(firer: Pose, target: Pose, base: tuple[float, float] | None) -> tuple[float, float]:
    """Where a torpedo's run ends: the nearest point of the target's base to the launcher's
    centre, or the target's centre when no base size is known (REF-BF6-18)."""
    if base is None:
        return target.x, target.y
    dx, dy = unit(target.heading)
    vx, vy = firer.x - target.x, firer.y - target.y
    ahead = vx * dx + vy * dy
    starboard = vx * dy - vy * dx
    half_l, half_w = base[0] / 2.0, base[1] / 2.0
    ahead = min(max(ahead, -half_l), half_l)
    starboard = min(max(starboard, -half_w), half_w)
    return target.offset(ahead, starboard)


def torpedo_run(
    firer: Pose, target: Pose, base: tuple[float, float] | None
) -> tuple[float, float, float, float]:
    """The straight run (x0, y0, x1, y1) from the launcher's centre to the aim point."""
    x1, y1 = aim_point(firer, target, base)
    return firer.x, firer.y, x1, y1


def run_length(run: tuple[float, float, float, float]) -> float:
    """Length of a run in metres: the torpedo range that must not exceed the mount's range."""
    x0, y0, x1, y1 = run
    return math.hypot(x1 - x0, y1 - y0)


def course_relation(a: Pose, b: Pose) -> Course:
    """Converging or diverging (BF12C-TH-02, EX-BF12C-07).

    The practical test: if either ship's bow points even slightly away from the other ship (the
    other lies more than 90° off its bow), the courses diverge. Otherwise they converge.
    """
    if a.x == b.x and a.y == b.y:
        return "converging"
    for me, other in ((a, b), (b, a)):
        if abs(signed_angle(me.bearing_to(other.x, other.y))) > 90.0 + 1e-9:
            return "diverging"
    return "converging"


def shot_aspect(firer: Pose, target: Pose) -> ShotAspect:
    """Rake if launched from inside the target's front or rear arc, else beam (BF12C-TH-03).

    The front and rear arcs are 95° centred on bow and stern, edges included (AMB-54).
    """
    theta = target.bearing_to(firer.x, firer.y)
    return "rake" if any(in_arc(theta, *arc) for arc in RAKE_ARCS) else "beam"


def land_blocks(run: tuple[float, float, float, float], land: Sequence[Any]) -> bool:
    """True if the straight run passes through land (BF6-TORP-04).

    Ship bases never block a torpedo; only land does. Grazing a coastline does not block, as for
    line of sight. Each land item is a shapely geometry or holds one as ``geometry`` or
    ``polygon``.
    """
    if not land:
        return False
    from shapely.geometry import LineString

    x0, y0, x1, y1 = run
    line = LineString([(x0, y0), (x1, y1)]) if (x0, y0) != (x1, y1) else None
    if line is None:
        return False
    for item in land:
        geom = _geometry(item)
        if bool(line.intersects(geom)) and not bool(line.touches(geom)):
            return True
    return False


def _geometry(item: Any) -> Any:
    for name in ("geometry", "polygon"):
        geom = getattr(item, name, None)
        if geom is not None:
            return geom
    return item


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


# -- validation -------------------------------------------------------------------------------


def _mount(log: ShipLog, key: str) -> TorpedoMount:
    for mount in log.cls.torpedoes:
        if mount.key == key:
            return mount
    keys = ", ".join(m.key for m in log.cls.torpedoes) or "none"
    raise IllegalOrderError(
        f"{log.name}: no torpedo mount {key!r} (its mounts: {keys}) (BF6-TORP-03)"
    )


def tubes_left(log: ShipLog, mount: TorpedoMount) -> int:
    """Torpedoes not yet crossed off for one mount (BF6-TORP-03)."""
    return log.torpedoes_left.get(mount.key, 0)


def _base(scale: BaseSizes | None, log: ShipLog) -> tuple[float, float] | None:
    return None if scale is None else scale.base_size_m(log.cls)


def validate_launch(
    launch: TorpedoLaunch,
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: BaseSizes | None,
    land: Sequence[Any],
    *,
    already: Mapping[tuple[str, str, str], int] | None = None,
) -> None:
    """Raise :class:`IllegalOrderError` if ``launch`` breaks a rule now.

    Checks, in order: both ships exist and the firer is in the battle and not sinking
    (BF6-SINK-03); the mount exists and has the torpedoes (BF6-TORP-03); the target is in the
    mount's arc (BF6-TORP-09/10); within the mount's range (REF-BF6-18); and no land lies across
    the run (BF6-TORP-04; ship bases never block). ``already`` counts torpedoes declared earlier
    in the same step, by (firer, mount, launching side).
    """
    _check_launch(launch, poses, logs, scale, land, already or {})


def _check_launch(
    launch: TorpedoLaunch,
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: BaseSizes | None,
    land: Sequence[Any],
    used: Mapping[tuple[str, str, str], int],
) -> tuple[TorpedoMount, str]:
    """:func:`validate_launch`; returns the mount and the launching side it found."""
    who = f"{launch.firer} -> {launch.target}"
    firer = logs.get(launch.firer)
    target = logs.get(launch.target)
    if firer is None:
        raise IllegalOrderError(f"torpedo launch {who}: no ship named {launch.firer!r}")
    if target is None:
        raise IllegalOrderError(f"torpedo launch {who}: no ship named {launch.target!r}")
    if launch.firer == launch.target:
        raise IllegalOrderError(f"torpedo launch {who}: a ship cannot torpedo itself")
    if firer.sunk or firer.surrendered:
        raise IllegalOrderError(f"torpedo launch {who}: {firer.name} is out of the battle")
    if firer.sinking is not None:
        raise IllegalOrderError(
            f"torpedo launch {who}: {firer.name} is sinking and launches no torpedoes (BF6-SINK-03)"
        )
    if target.sunk:
        raise IllegalOrderError(f"torpedo launch {who}: {target.name} has already sunk")
    mount = _mount(firer, launch.mount)
    left = tubes_left(firer, mount) - sum(
        n for (f, m, _), n in used.items() if (f, m) == (launch.firer, mount.key)
    )
    if launch.count > left:
        raise IllegalOrderError(
            f"torpedo launch {who}: mount {mount.key!r} has {max(left, 0)} torpedo(es) left, "
            f"not {launch.count} (BF6-TORP-03)"
        )
    if launch.firer not in poses or launch.target not in poses:
        missing = launch.firer if launch.firer not in poses else launch.target
        raise IllegalOrderError(f"torpedo launch {who}: {missing} is not on the table")
    here, there = poses[launch.firer], poses[launch.target]
    theta = here.bearing_to(there.x, there.y)
    arc = bearing_arc(mount, theta)
    if arc is None:
        arcs = " or ".join(f"[{a:g}°, {b:g}°]" for a, b in launch_arcs(mount))
        raise IllegalOrderError(
            f"torpedo launch {who}: {launch.target} bears {theta:.0f}° off the bow, outside the "
            f"{mount.position} tubes' arc {arcs} (BF6-TORP-09, BF6-TORP-10)"
        )
    side = launching_side(mount, arc)
    if mount.position == "beam":
        per_side = math.ceil(mount.tubes / 2)
        fired = used.get((launch.firer, mount.key, side), 0)
        if launch.count + fired > per_side:
            raise IllegalOrderError(
                f"torpedo launch {who}: beam-pattern mount {mount.key!r} has {per_side} tube(s) "
                f"on the {side} side, {per_side - fired} free this step, not {launch.count} "
                "(BF6-BEAM-05)"
            )
    run = torpedo_run(here, there, _base(scale, target))
    distance = run_length(run)
    if distance > mount.range_m + 1e-6:
        raise IllegalOrderError(
            f"torpedo launch {who}: {launch.target} is beyond the {mount.key} torpedoes' "
            f"range of {mount.range_m:,.0f} m (REF-BF6-18)"
        )
    if land_blocks(run, land):
        raise IllegalOrderError(
            f"torpedo launch {who}: land lies across the torpedo's run (BF6-TORP-04)"
        )
    return mount, side


def validate_launches(
    launches: Sequence[TorpedoLaunch],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: BaseSizes | None,
    land: Sequence[Any],
) -> None:
    """Validate a step's launches together, so two launches cannot share the last tube."""
    used: dict[tuple[str, str, str], int] = {}
    for launch in launches:
        mount, side = _check_launch(launch, poses, logs, scale, land, used)
        key = (launch.firer, mount.key, side)
        used[key] = used.get(key, 0) + launch.count


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
        mount = _mount(log, launch.mount)
        log.torpedoes_left[mount.key] = tubes_left(log, mount) - launch.count
        here, there = poses[launch.firer], poses[launch.target]
        arc = bearing_arc(mount, here.bearing_to(there.x, there.y))
        side = launching_side(mount, arc or launch_arcs(mount)[0])
        distance = run_length(torpedo_run(here, there, _base(scale, logs[launch.target])))
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
    mount = _mount(firer, launch.mount)
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
