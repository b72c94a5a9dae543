"""Arcs of fire: lettered positions and beam patterns (BF6-POS-01..11, BF6-BEAM-01..06).

Every arc is a closed clockwise interval ``(start, end)`` of relative bearing, edges inclusive
(AMB-15, :func:`battleline.engine.geometry.in_arc`). The rules give the starboard member of each
pair; the port member is its mirror image, θ → 360 − θ.

Side assignment of the abreast pairs (AMB-13, AMB-14): the first letter of a pair is the port
member, the second the starboard one: B/C, D/E, M/O, P/R, S/U, V/W, X/Y. N, Q and T have no arc
in the rules; asking for one raises :class:`~battleline.errors.RulesDataError`.

A beam-pattern battery of ``n`` guns has ``n // 2`` guns on the port side and the rest on the
starboard side. Box ``i`` of the battery in the ship log is gun ``i`` of :func:`battery_layout`.
Each side is listed bow-anchored, stern-anchored, beam-centred, and the two sides alternate (port,
starboard, port, ...), so that damage taking the highest-numbered gun first (BF6-PAT-01) strikes
the two sides in turn, beam guns first.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from battleline.engine.geometry import Pose, norm360
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.ship import Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog

Arc = tuple[float, float]

# Starboard members and single arcs (BF6-POS, BF6-BEAM): intervals from the inventory.
BOW_95: Arc = (312.5, 47.5)  # 95° centred on the bow (B/C shared arc, stem)
STERN_95: Arc = (132.5, 227.5)  # 95° centred on the stern (X/Y shared arc, stern)
BOW_ANCHORED_135: Arc = (0.0, 135.0)  # D/E, B/C side arc, beam-pattern bow guns
STERN_ANCHORED_135: Arc = (45.0, 180.0)  # V/W, X/Y side arc, beam-pattern stern guns
BEAM_CENTRED_135: Arc = (22.5, 157.5)  # beam-pattern beam guns
BOW_ANCHORED_150: Arc = (0.0, 150.0)  # M/O
BEAM_CENTRED_150: Arc = (15.0, 165.0)  # P/R
STERN_ANCHORED_150: Arc = (30.0, 180.0)  # S/U
A_ARC: Arc = (227.5, 132.5)  # 265°, blind 95° on the stern
Z_ARC: Arc = (47.5, 312.5)  # 265°, blind 95° on the bow
CENTRELINE_STARBOARD: Arc = (42.5, 137.5)  # 95° centred on the beam

#: Port members of the abreast pairs (AMB-13/14: first letter = port).
PORT_LETTERS = frozenset("BDMPSVX")
#: Starboard members.
STARBOARD_LETTERS = frozenset("CEORUWY")


def mirror(arc: Arc) -> Arc:
    """The mirror image of an arc across the centre-line: [a, b] → [360 − b, 360 − a]."""
    start, end = arc
    return (norm360(360.0 - end), norm360(360.0 - start))


def arc_width(arc: Arc) -> float:
    """Width of a clockwise arc in degrees (a full circle is 360)."""
    start, end = arc
    width = norm360(end - start)
    return 360.0 if width == 0.0 and end != start else width


def union_width(arcs: tuple[Arc, ...]) -> float:
    """Exact width in degrees of a union of arcs (e.g. the B/C gun's 182.5°, EX-BF6-07)."""
    pieces: list[tuple[float, float]] = []
    for arc in arcs:
        start, width = arc[0], arc_width(arc)
        end = start + width
        pieces += [(start, 360.0), (0.0, end - 360.0)] if end > 360.0 else [(start, end)]
    total, reach = 0.0, -1.0
    for lo, hi in sorted(pieces):
        if hi > reach:
            total += hi - max(lo, reach)
            reach = hi
    return total


# Starboard-side union of arcs for each pair (BF6-POS-02..08).
_STARBOARD: dict[str, tuple[Arc, ...]] = {
    "BC": (BOW_95, BOW_ANCHORED_135),  # BF6-POS-02
    "DE": (BOW_ANCHORED_135,),  # BF6-POS-03
    "MO": (BOW_ANCHORED_150,),  # BF6-POS-04
    "PR": (BEAM_CENTRED_150,),  # BF6-POS-05
    "SU": (STERN_ANCHORED_150,),  # BF6-POS-06
    "VW": (STERN_ANCHORED_135,),  # BF6-POS-07
    "XY": (STERN_95, STERN_ANCHORED_135),  # BF6-POS-08
}

#: Every named position's arcs. A gun bears if the target lies in any of its arcs.
POSITION_ARCS: dict[str, tuple[Arc, ...]] = {
    "A": (A_ARC,),  # BF6-POS-01
    "Z": (Z_ARC,),  # BF6-POS-09
    "stem": (BOW_95,),  # BF6-POS-10
    "stern": (STERN_95,),  # BF6-POS-10
    # BF6-POS-11, AMB-16: either beam arc may be used.
    "centreline": (CENTRELINE_STARBOARD, mirror(CENTRELINE_STARBOARD)),
}
for _pair, _arcs in _STARBOARD.items():
    _port, _starboard = _pair[0], _pair[1]
    POSITION_ARCS[_starboard] = _arcs
    # The shared 95° bow/stern arcs are symmetric, so mirroring every piece is exact.
    POSITION_ARCS[_port] = tuple(mirror(a) for a in _arcs)


#: An arc as ``(start, width)``: the form :func:`span_holds` tests against.
Span = tuple[float, float]


def _span(arc: Arc) -> Span:
    """An arc as ``(start, width)``."""
    return (arc[0], arc_width(arc))


def span_holds(theta: float, span: Span) -> bool:
    """``in_arc(theta, *arc)`` for an arc given as ``(start, width)`` (same arithmetic)."""
    d = (theta - span[0]) % 360.0
    if d == 360.0:
        d = 0.0
    return d <= span[1] + 1e-9 or d >= 360.0 - 1e-9


#: :data:`POSITION_ARCS` as ``(start, width)`` spans, for :func:`bearing_guns`.
_POSITION_SPANS: dict[str, tuple[Span, ...]] = {
    k: tuple(_span(a) for a in arcs) for k, arcs in POSITION_ARCS.items()
}
#: A box with no mark: the gun is in action.
_READY = Mark.NONE


def position_arcs(position: str) -> tuple[Arc, ...]:
    """The arcs of a lettered (or stem/stern/centre-line) position (BF6-POS-01..11).

    Raises :class:`RulesDataError` for a position the rules give no arc (N, Q, T: AMB-14).
    """
    try:
        return POSITION_ARCS[position]
    except KeyError:
        raise RulesDataError(
            "ship data",
            "mountings",
            "position",
            f"position {position!r} has no arc of fire in the rules (AMB-14); "
            f"use one of {', '.join(sorted(POSITION_ARCS))}",
        ) from None


def side_layout(pattern: int, guns: int) -> tuple[Arc, ...]:
    """Starboard arcs of the ``guns`` guns on one side of a beam pattern.

    BF6-BEAM-02 (pattern 2), BF6-BEAM-03 (pattern 1), BF6-BEAM-04 (pattern 0); so 2, 1 or 0 guns
    a side bear dead ahead and dead astern (BF6-BEAM-06).

    Pattern ``p`` gives ``p`` guns a bow-anchored arc, then ``p`` a stern-anchored arc, and the
    rest the beam-centred arc; a side with fewer guns fills bow first, then stern.
    """
    if pattern not in (0, 1, 2):
        raise RulesDataError(
            "ship data", "mountings", "beam_pattern", f"{pattern} is not 0, 1 or 2"
        )
    bow = min(pattern, guns)
    stern = min(pattern, guns - bow)
    beam = guns - bow - stern
    return (BOW_ANCHORED_135,) * bow + (STERN_ANCHORED_135,) * stern + (BEAM_CENTRED_135,) * beam


@dataclass(frozen=True, slots=True)
class BatteryGun:
    """One gun of a beam-pattern battery: its side and its arc."""

    index: int
    side: str  # "port" | "starboard"
    arc: Arc


def battery_layout(mount: Mounting) -> tuple[BatteryGun, ...]:
    """Every gun of a beam-pattern battery with its arc (BF6-BEAM-01: same pattern each side)."""
    return _layout(_pattern(mount), mount.guns)


def _pattern(mount: Mounting) -> int:
    """A battery's beam pattern; ``ValueError`` for a lettered position."""
    if mount.beam_pattern is None:
        raise ValueError(f"mounting {mount.key!r} is not a beam-pattern battery")
    return mount.beam_pattern


@lru_cache(maxsize=256)
def _layout(pattern: int, guns: int) -> tuple[BatteryGun, ...]:
    """:func:`battery_layout` of a ``guns``-gun battery in beam pattern ``pattern``.

    Cached on the two integers (the layout depends on nothing else; the result is immutable):
    it is asked for at every bearing check, and hashing two ints is cheaper than a mounting.
    """
    port_n = guns // 2
    port = [("port", mirror(a)) for a in side_layout(pattern, port_n)]
    starboard = [("starboard", a) for a in side_layout(pattern, guns - port_n)]
    order = [g for pair in zip(port, starboard, strict=False) for g in pair]
    order += starboard[len(port) :]
    return tuple(BatteryGun(i, side, arc) for i, (side, arc) in enumerate(order))


@lru_cache(maxsize=256)
def battery_spans(pattern: int, guns: int) -> tuple[tuple[Span, tuple[int, ...]], ...]:
    """A battery's guns grouped by arc: ``((start, width), gun indices)`` per distinct arc, in
    order of first appearance in :func:`battery_layout`.

    Cached on the two integers, like :func:`_layout`; lets a bearing check test each distinct arc
    once instead of once per gun.
    """
    groups: dict[Arc, list[int]] = {}
    for g in _layout(pattern, guns):
        groups.setdefault(g.arc, []).append(g.index)
    return tuple((_span(arc), tuple(idx)) for arc, idx in groups.items())


def mount_spans(mount: Mounting) -> tuple[tuple[Span, tuple[int, ...]], ...]:
    """:func:`battery_spans` of a battery; ``ValueError`` for a lettered position."""
    return battery_spans(_pattern(mount), mount.guns)


def mounting_arcs(mount: Mounting) -> tuple[Arc, ...]:
    """All arcs any gun of a mounting covers."""
    if mount.position is not None:
        return position_arcs(mount.position)
    return tuple(dict.fromkeys(g.arc for g in battery_layout(mount)))


@dataclass(frozen=True, slots=True)
class GunsBearing:
    """How many guns of one mounting bear on a target.

    ``guns`` counts guns in action whose arc holds the target; ``in_arc`` counts all guns whose
    arc holds it, damaged or not.
    """

    mounting: Mounting
    guns: int
    in_arc: int

    @property
    def key(self) -> str:
        """The mounting's key."""
        return self.mounting.key


def bearing_guns(log: ShipLog, mount: Mounting, theta: float) -> GunsBearing:
    """Guns of one mounting bearing on relative bearing ``theta``."""
    if mount.position is not None:
        spans = _POSITION_SPANS.get(mount.position)
        if spans is None:
            position_arcs(mount.position)  # raises RulesDataError (AMB-14)
            spans = ()
        n = 0
        for sp in spans:
            if span_holds(theta, sp):
                n = mount.guns
                break
        return GunsBearing(mount, n if log.positions[mount.key].in_action else 0, n)
    marks = log.batteries[mount.key]
    n_marks = len(marks)
    ready = in_arc_n = 0
    for span, idx in battery_spans(_pattern(mount), mount.guns):
        if span_holds(theta, span):
            in_arc_n += len(idx)
            ready += sum(1 for i in idx if i < n_marks and marks[i] is _READY)
    return GunsBearing(mount, ready, in_arc_n)


def guns_bearing(log: ShipLog, pose: Pose, target_xy: tuple[float, float]) -> list[GunsBearing]:
    """For every mounting of the ship, how many guns in action bear on a point.

    The relative bearing is taken from the ship's pose (the centre of its base) to ``target_xy``
    (normally the target's forward funnel). Mountings that cannot bear are listed with 0 guns.
    """
    theta = pose.bearing_to(*target_xy)
    return [bearing_guns(log, m, theta) for m in log.cls.mountings]
