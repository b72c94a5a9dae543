"""Table geometry: one internal unit (metres of real sea), one bearing convention.

* Coordinates: ``x`` east, ``y`` north, in metres. Table units (mm, inches) appear only at the
  edges, through a rule system's scale.
* Headings and bearings: degrees clockwise from north, in [0, 360).
* Relative bearing θ: degrees clockwise from the ship's bow, 0 = dead ahead, 90 = starboard beam,
  180 = dead astern, 270 = port beam (the rules inventory's convention).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Bound once: the hot paths below call them hundreds of thousands of times a battle.
_atan2 = math.atan2
_degrees = math.degrees
_radians = math.radians
_sin = math.sin
_cos = math.cos


def norm360(deg: float) -> float:
    """An angle in [0, 360)."""
    d = deg % 360.0
    return 0.0 if d == 360.0 else d


def signed_angle(deg: float) -> float:
    """An angle in (-180, 180]."""
    d = deg % 360.0
    if d == 360.0:
        return 0.0
    return d - 360.0 if d > 180.0 else d


def bearing(x0: float, y0: float, x1: float, y1: float) -> float:
    """Compass bearing from (x0, y0) to (x1, y1)."""
    d = _degrees(_atan2(x1 - x0, y1 - y0)) % 360.0
    return 0.0 if d == 360.0 else d


def relative_bearing(heading: float, absolute_bearing: float) -> float:
    """Bearing of a target measured clockwise from a ship's bow."""
    return norm360(absolute_bearing - heading)


def unit(heading: float) -> tuple[float, float]:
    """The (dx, dy) unit vector of a heading."""
    r = math.radians(heading)
    return math.sin(r), math.cos(r)


def in_arc(theta: float, start: float, end: float, eps: float = 1e-9) -> bool:
    """True if relative bearing ``theta`` lies in the closed clockwise arc [start, end].

    Arcs may wrap through 0 (e.g. [312.5, 47.5]); edges are inclusive (AMB-15).
    """
    # norm360 inlined (hot path), each offset computed once.
    width = (end - start) % 360.0
    if width == 360.0 or (width == 0.0 and end != start):  # 360.0 implies end != start
        width = 360.0
    d = (theta - start) % 360.0
    if d == 360.0:
        d = 0.0
    return d <= width + eps or d >= 360.0 - eps


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a ship is: the centre of its base, in metres, and its heading."""

    x: float
    y: float
    heading: float

    def forward(self, distance: float) -> Pose:
        """The pose after moving straight ahead."""
        r = _radians(self.heading)  # unit() inlined
        dx, dy = _sin(r), _cos(r)
        return Pose(self.x + dx * distance, self.y + dy * distance, self.heading)

    def offset(self, ahead: float, starboard: float) -> tuple[float, float]:
        """A point given in the ship's own frame (metres ahead of and to starboard of centre)."""
        r = _radians(self.heading)  # unit() inlined
        dx, dy = _sin(r), _cos(r)
        return self.x + dx * ahead + dy * starboard, self.y + dy * ahead - dx * starboard

    def distance_to(self, other: Pose) -> float:
        """Centre-to-centre distance."""
        return math.hypot(other.x - self.x, other.y - self.y)

    def bearing_to(self, x: float, y: float) -> float:
        """Relative bearing from this ship's bow to a point.

        Same arithmetic as ``relative_bearing(heading, bearing(...))``, inlined (hot path).
        """
        b = _degrees(_atan2(x - self.x, y - self.y)) % 360.0
        if b == 360.0:
            b = 0.0
        d = (b - self.heading) % 360.0
        return 0.0 if d == 360.0 else d
