"""Line of sight, forward funnel to forward funnel (BF6-LOS-01/02, BF6-SINK-05).

A sight line is the segment between two ships' forward funnels. It is blocked when it passes
through the base of any third ship or through land. Every ship still afloat blocks, including
ships that are sinking, until they go under (BF6-SINK-05). A line that only grazes a base's edge
or corner is not blocked.

:class:`SightLines` is built once per turn from the ships' poses; it keeps the bases in a shapely
``STRtree`` so each query only looks at the few bases near the line, and it caches every answer
(sight is symmetric), so 40 ships a side stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from shapely import LineString, Polygon, STRtree

from battleline.engine.geometry import Pose
from battleline.errors import UnknownNameError

#: Where the forward funnel stands, as a fraction of the base length ahead of the base centre.
#: Reconstructed: the rules place LOS on the forward funnel but models vary (docs/rules-gaps).
FUNNEL_AHEAD = 0.1

#: What blocks a sight line that is not a ship.
LAND = "land"


def forward_funnel(pose: Pose, length: float) -> tuple[float, float]:
    """The forward funnel of a ship whose base is ``length`` metres long (BF6-LOS-01)."""
    return pose.offset(FUNNEL_AHEAD * length, 0.0)


def base_polygon(pose: Pose, length: float, width: float) -> Any:
    """A ship's base as a shapely polygon: a ``length`` × ``width`` rectangle on its heading."""
    hl, hw = length / 2.0, width / 2.0
    corners = [pose.offset(a, s) for a, s in ((hl, -hw), (hl, hw), (-hl, hw), (-hl, -hw))]
    return Polygon(corners)


def _land_geometry(item: Any) -> Any:
    """A land feature's shapely geometry: the item itself or its ``geometry``/``polygon``."""
    for attr in ("geometry", "polygon"):
        geom = getattr(item, attr, None)
        if geom is not None:
            return geom
    return item


def _passes_through(line: Any, geom: Any) -> bool:
    """True if the line enters the geometry's interior (grazing an edge does not count)."""
    return bool(line.intersects(geom)) and not bool(line.touches(geom))


class SightLines:
    """Line of sight between every pair of ships for one turn (BF6-LOS-01/02).

    ``poses`` and ``sizes`` (base length, width in metres) cover the ships on the table;
    ``afloat`` names the ships still afloat (sinking ships included, BF6-SINK-05); sunk ships
    neither block nor see. ``land`` holds shapely geometries (or objects with a ``geometry``).
    """

    def __init__(
        self,
        poses: Mapping[str, Pose],
        sizes: Mapping[str, tuple[float, float]],
        land: Iterable[Any] = (),
        afloat: Iterable[str] | None = None,
    ) -> None:
        keep = set(poses) if afloat is None else set(afloat) & set(poses)
        self.names: list[str] = [n for n in poses if n in keep]
        self._index = {n: i for i, n in enumerate(self.names)}
        self.poses = {n: poses[n] for n in self.names}
        self.funnels = {n: forward_funnel(poses[n], sizes[n][0]) for n in self.names}
        self.bases = [base_polygon(poses[n], *sizes[n]) for n in self.names]
        self._tree = STRtree(self.bases)
        self.land = [_land_geometry(item) for item in land]
        self._land_tree = STRtree(self.land) if self.land else None
        self._cache: dict[tuple[str, str], tuple[str, ...]] = {}

    def _check(self, name: str) -> None:
        if name not in self._index:
            raise UnknownNameError("ship afloat", name, self.names)

    def line(self, a: str, b: str) -> Any:
        """The sight line from ``a``'s forward funnel to ``b``'s."""
        self._check(a)
        self._check(b)
        return LineString([self.funnels[a], self.funnels[b]])

    def blockers(self, a: str, b: str) -> tuple[str, ...]:
        """What blocks the line between ``a`` and ``b``: ship names, then ``"land"`` if any."""
        key = (a, b) if a <= b else (b, a)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        line = self.line(a, b)
        ends = {self._index[a], self._index[b]}
        found = [
            self.names[i]
            for i in sorted(int(i) for i in self._tree.query(line, predicate="intersects"))
            if i not in ends and _passes_through(line, self.bases[i])
        ]
        if self._land_tree is not None:
            hits = self._land_tree.query(line, predicate="intersects")
            if any(_passes_through(line, self.land[int(i)]) for i in hits):
                found.append(LAND)
        result = tuple(found)
        self._cache[key] = result
        return result

    def clear(self, a: str, b: str) -> bool:
        """True if ``a`` can see ``b`` (and so may fire on it): nothing blocks the line."""
        return not self.blockers(a, b)

    def visible_from(self, a: str) -> list[str]:
        """Every other ship afloat that ``a`` can see."""
        return [b for b in self.names if b != a and self.clear(a, b)]
