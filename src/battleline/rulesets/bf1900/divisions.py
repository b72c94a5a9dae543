"""Divisions, formations and station keeping (BF6-CMD-02, BF6-CMD-05, BF6-CMD-10, REF-BF6-15).

A :class:`Division` is an ordered group of ships, lead first, that obeys one command column. The
formations section of the rules is missing (REF-BF6-15); battleline's reading is in
``docs/rules-gaps/command.md``:

* a formation is the relative bearing at which each ship keeps station on the ship ahead of it in
  the list: line ahead 180° (dead astern), line abreast 90° or 270° (beam), echelon 135° or 225°
  (quarter); the interval between neighbours is :attr:`Division.interval_m`, centre to centre;
* a simultaneous turn of δ moves that bearing to b − δ, because every ship runs the same legs, so
  the formation after the turn is known exactly (:func:`formation_after_turn`); a bearing the
  other way round (0°, 45°, 315°) is the same formation with the list reversed;
* followers in line ahead keep to the lead's track: each remembers the path (its *wake*) from its
  own position to the lead, made of :class:`Step` pieces, and runs along it (AMB-03).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise

from battleline.engine.geometry import Pose, bearing, norm360, signed_angle, unit
from battleline.errors import ScenarioError


class Formation(StrEnum):
    """How the ships of a division lie relative to each other (REF-BF6-15, reconstructed)."""

    LINE_AHEAD = "line ahead"
    LINE_ABREAST_STARBOARD = "line abreast to starboard"
    LINE_ABREAST_PORT = "line abreast to port"
    ECHELON_STARBOARD = "echelon to starboard"
    ECHELON_PORT = "echelon to port"
    NONE = "no formation"

    @property
    def station_bearing(self) -> float | None:
        """Relative bearing of each ship from the ship ahead of it in the list."""
        return _STATION_BEARING.get(self)


_STATION_BEARING: dict[Formation, float] = {
    Formation.LINE_AHEAD: 180.0,
    Formation.LINE_ABREAST_STARBOARD: 90.0,
    Formation.LINE_ABREAST_PORT: 270.0,
    Formation.ECHELON_STARBOARD: 135.0,
    Formation.ECHELON_PORT: 225.0,
}

#: Bearing tolerance, degrees, when ships' poses are matched to a formation.
BEARING_TOLERANCE = 1.0


def formation_of_bearing(
    station_bearing: float, tolerance_deg: float = 1e-6
) -> tuple[Formation, bool]:
    """The formation whose station bearing is ``station_bearing``, and whether the list must be
    read backwards (a ship *ahead* of the previous one). ``(NONE, False)`` if none fits."""
    b = norm360(station_bearing)
    for reverse in (False, True):  # a direct match first: abreast to port is not reversed
        for formation, sb in _STATION_BEARING.items():
            if abs(signed_angle(b - sb - (180.0 if reverse else 0.0))) <= tolerance_deg:
                return formation, reverse
    return Formation.NONE, False


def formation_after_turn(formation: Formation, turn_deg: float) -> tuple[Formation, bool]:
    """The formation after a simultaneous turn of ``turn_deg`` (+ starboard), and whether the
    ship order reverses (BF6-CMD-08, BF6-CMD-10).

    >>> formation_after_turn(Formation.LINE_AHEAD, 90)
    (<Formation.LINE_ABREAST_STARBOARD: 'line abreast to starboard'>, False)
    >>> formation_after_turn(Formation.LINE_ABREAST_STARBOARD, -90)
    (<Formation.LINE_AHEAD: 'line ahead'>, False)
    >>> formation_after_turn(Formation.LINE_AHEAD, 180)
    (<Formation.LINE_AHEAD: 'line ahead'>, True)
    """
    sb = formation.station_bearing
    if sb is None:
        return Formation.NONE, False
    return formation_of_bearing(sb - turn_deg)


def restores_line_ahead(formation: Formation, turn_deg: float) -> bool:
    """True if a simultaneous turn brings the division into line ahead (BF6-CMD-10, REF-BF6-15).

    From line abreast only a 90° turn (either side) does; from echelon only a 45° turn away from
    the side the followers lie on (or 135° towards it, which reverses the line).
    """
    return formation_after_turn(formation, turn_deg)[0] is Formation.LINE_AHEAD


@dataclass(frozen=True, slots=True)
class Step:
    """One piece of a path: run ``straight_m`` metres, or turn ``turn_deg`` (+ starboard)."""

    straight_m: float = 0.0
    turn_deg: float = 0.0

    def length(self, radius_m: float) -> float:
        """Distance spent on this piece at turning radius ``radius_m``."""
        return self.straight_m + radius_m * math.radians(abs(self.turn_deg))


def path_length(steps: Sequence[Step], radius_m: float) -> float:
    """Distance along a path."""
    return sum(s.length(radius_m) for s in steps)


def split_path(
    steps: Sequence[Step], at_m: float, radius_m: float
) -> tuple[tuple[Step, ...], tuple[Step, ...]]:
    """Cut a path ``at_m`` metres along it: (the part run, the part left)."""
    head: list[Step] = []
    left = at_m
    for i, step in enumerate(steps):
        length = step.length(radius_m)
        if left >= length - 1e-9:
            head.append(step)
            left -= length
            continue
        if left <= 1e-9:
            return tuple(head), tuple(steps[i:])
        if step.turn_deg:
            done = math.degrees(left / radius_m) * math.copysign(1.0, step.turn_deg)
            first, rest = Step(turn_deg=done), Step(turn_deg=step.turn_deg - done)
        else:
            first, rest = Step(straight_m=left), Step(straight_m=step.straight_m - left)
        return (*head, first), (rest, *steps[i + 1 :])
    return tuple(head), ()


def _nonempty(steps: Sequence[Step]) -> tuple[Step, ...]:
    return tuple(s for s in steps if abs(s.straight_m) > 1e-6 or abs(s.turn_deg) > 1e-6)


Wake = tuple[tuple[str, tuple[Step, ...]], ...]


@dataclass(frozen=True, slots=True)
class Division:
    """A division: ships in order, lead first (BF6-CMD-02).

    ``flagship`` carries the division commander (it need not lead); ``fleet_flagship`` marks the
    division whose flagship also commands the fleet. ``interval_m`` is the station interval
    between neighbours, centre to centre (0 means "the default at this scale", see
    :func:`default_interval_m`). ``wake`` holds, for each follower in line ahead, the path from it
    to the lead (AMB-03). ``must_turn_out`` marks a ship that has just dropped out (BF6-CMD-17).
    """

    name: str
    side: str
    ships: tuple[str, ...]
    flagship: str = ""
    formation: Formation = Formation.LINE_AHEAD
    fleet_flagship: bool = False
    interval_m: float = 0.0
    wake: Wake = ()
    must_turn_out: bool = False

    def __post_init__(self) -> None:
        if not self.ships:
            raise ScenarioError(f"division {self.name!r} has no ships")
        if len(set(self.ships)) != len(self.ships):
            raise ScenarioError(f"division {self.name!r} lists a ship twice: {self.ships}")
        if not self.flagship:
            object.__setattr__(self, "flagship", self.ships[0])
        if self.flagship not in self.ships:
            raise ScenarioError(
                f"division {self.name!r}: flagship {self.flagship!r} is not one of its ships"
            )
        if self.interval_m < 0:
            raise ScenarioError(f"division {self.name!r}: interval_m must not be negative")

    @property
    def lead(self) -> str:
        """The lead ship, which the others follow (BF6-CMD-02)."""
        return self.ships[0]

    @property
    def followers(self) -> tuple[str, ...]:
        """Every ship but the lead, in order."""
        return self.ships[1:]

    def astern_of(self, ship: str) -> str | None:
        """The ship directly astern of (after) ``ship`` in the list, if any."""
        i = self.index(ship)
        return self.ships[i + 1] if i + 1 < len(self.ships) else None

    def index(self, ship: str) -> int:
        """Position of ``ship`` in the list (0 = lead)."""
        try:
            return self.ships.index(ship)
        except ValueError:
            raise KeyError(f"{ship!r} is not in division {self.name!r}") from None

    def wake_of(self, ship: str) -> tuple[Step, ...] | None:
        """The remembered path from ``ship`` to the lead, if any."""
        return dict(self.wake).get(ship)

    def without(self, ship: str) -> Division:
        """The division with ``ship`` taken out (the flagship cannot be taken out this way)."""
        if ship == self.flagship:
            raise ValueError(f"{ship!r} is the flagship of {self.name!r}; transfer command first")
        ships = tuple(s for s in self.ships if s != ship)
        if not ships:
            raise ValueError(f"{ship!r} is the last ship of {self.name!r}")
        # The wakes lead to the lead ship; when the lead leaves they are forgotten (the ships
        # astern then steer straight for the new lead).
        wake = () if ship == self.lead else tuple((s, w) for s, w in self.wake if s != ship)
        return replace(self, ships=ships, wake=wake)

    def reversed(self) -> Division:
        """The division with its list read backwards (after a 16-point turn together)."""
        return replace(self, ships=tuple(reversed(self.ships)), wake=())

    def with_(self, **changes: object) -> Division:
        """A copy with fields changed (``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


def default_interval_m(base_lengths_m: Sequence[float]) -> float:
    """The default station interval: two base lengths of the longest base, centre to centre
    (reconstructed; the rules give none)."""
    return 2.0 * max(base_lengths_m)


def station_poses(lead: Pose, count: int, formation: Formation, interval_m: float) -> list[Pose]:
    """Poses of ``count`` ships in ``formation`` behind (or beside) ``lead``, all on its heading.

    >>> [round(p.y) for p in station_poses(Pose(0, 0, 0), 3, Formation.LINE_AHEAD, 500)]
    [0, -500, -1000]
    """
    sb = formation.station_bearing
    if sb is None:
        raise ValueError("ships in no formation have no stations")
    poses = [lead]
    dx, dy = unit(norm360(lead.heading + sb))
    for _ in range(count - 1):
        p = poses[-1]
        poses.append(Pose(p.x + dx * interval_m, p.y + dy * interval_m, lead.heading))
    return poses


def classify_formation(
    poses: Sequence[Pose], tolerance_deg: float = BEARING_TOLERANCE
) -> tuple[Formation, bool]:
    """The formation a row of ships is in, read from their poses, and whether it is reversed.

    All ships must share a heading and each must lie at the same station bearing from the one
    before it; otherwise ``(NONE, False)``.
    """
    if len(poses) < 2:
        return Formation.LINE_AHEAD, False
    heading = poses[0].heading
    if any(abs(signed_angle(p.heading - heading)) > tolerance_deg for p in poses):
        return Formation.NONE, False
    rel = [norm360(bearing(a.x, a.y, b.x, b.y) - heading) for a, b in pairwise(poses)]
    if any(abs(signed_angle(r - rel[0])) > tolerance_deg for r in rel):
        return Formation.NONE, False
    return formation_of_bearing(rel[0], tolerance_deg)


def initial_wake(division: Division, poses: Mapping[str, Pose]) -> Wake:
    """Wakes for a division set up in line ahead: each follower runs straight to the lead."""
    if division.formation is not Formation.LINE_AHEAD:
        return ()
    lead = poses[division.lead]
    out: list[tuple[str, tuple[Step, ...]]] = []
    for ship in division.followers:
        p = poses[ship]
        dx, dy = unit(p.heading)
        ahead = (lead.x - p.x) * dx + (lead.y - p.y) * dy
        out.append((ship, _nonempty([Step(straight_m=max(0.0, ahead))])))
    return tuple(out)


__all__ = [
    "BEARING_TOLERANCE",
    "Division",
    "Formation",
    "Step",
    "Wake",
    "classify_formation",
    "default_interval_m",
    "formation_after_turn",
    "formation_of_bearing",
    "initial_wake",
    "path_length",
    "restores_line_ahead",
    "split_path",
    "station_poses",
]
