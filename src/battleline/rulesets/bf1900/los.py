"""Line of sight, forward funnel to forward funnel (BF6-LOS-01, BF6-LOS-02, BF6-SINK-05).

A sight line is the segment between two ships' forward funnels
(:func:`~battleline.rulesets.bf1900.table.funnel_point`). It is blocked when it crosses or touches
the base of any third ship, or land. Every ship still afloat blocks, including ships that are
sinking, until they go under (BF6-SINK-05); sunk ships are gone.

:class:`SightLines` is built once per turn. It indexes the bases and land in the table's
:class:`~battleline.rulesets.bf1900.table.Obstacles` (bounding boxes, then an exact segment
test), so a query only looks at the few bases near the line, and it caches every answer (sight
is symmetric).
:meth:`SightLines.prime` answers many pairs in one call, so 40 ships a side stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from battleline.engine.geometry import Pose
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.table import (
    Land,
    Obstacles,
    Point,
    base_ring,
    footprint,
    funnel_point,
)


class SightLines:
    """Line of sight between every pair of ships for one turn (BF6-LOS-01, BF6-LOS-02).

    ``poses`` and ``sizes`` (base length, width in metres) cover the ships on the table;
    ``afloat`` names the ships still afloat (sinking ships included, BF6-SINK-05; default: all).
    Sunk ships neither block nor see.
    """

    def __init__(
        self,
        poses: Mapping[str, Pose],
        sizes: Mapping[str, tuple[float, float]],
        land: Sequence[Land] = (),
        afloat: Iterable[str] | None = None,
    ) -> None:
        keep = set(poses) if afloat is None else set(afloat) & set(poses)
        self.names: list[str] = [n for n in poses if n in keep]
        self.poses = {n: poses[n] for n in self.names}
        self.funnels: dict[str, Point] = {
            n: funnel_point(poses[n], sizes[n][0]) for n in self.names
        }
        self.obstacles = Obstacles(
            {n: footprint(poses[n], *sizes[n]) for n in self.names},
            land,
            [base_ring(poses[n], *sizes[n]) for n in self.names],
        )
        self._cache: dict[tuple[str, str], tuple[str, ...]] = {}

    @staticmethod
    def _key(a: str, b: str) -> tuple[str, str]:
        return (a, b) if a <= b else (b, a)

    def _check(self, name: str) -> None:
        if name not in self.funnels:
            raise UnknownNameError("ship afloat", name, self.names)

    def prime(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Answer many pairs at once and cache them."""
        todo = list(dict.fromkeys(self._key(a, b) for a, b in pairs))
        todo = [k for k in todo if k not in self._cache]
        for a, b in todo:
            self._check(a)
            self._check(b)
        found = self.obstacles.blockers_of_segments(
            [(self.funnels[a], self.funnels[b]) for a, b in todo],
            [frozenset((a, b)) for a, b in todo],
        )
        for key, names in zip(todo, found, strict=True):
            self._cache[key] = tuple(names)

    def blockers(self, a: str, b: str) -> tuple[str, ...]:
        """What blocks the line between ``a`` and ``b``: ship names first, then land names."""
        key = (a, b) if a <= b else (b, a)
        found = self._cache.get(key)
        if found is None:  # prime([key]) for one pair, without the batching
            first, second = key
            self._check(first)
            self._check(second)
            found = tuple(
                self.obstacles.blockers_of_segment(
                    self.funnels[first], self.funnels[second], frozenset(key)
                )
            )
            self._cache[key] = found
        return found

    def clear(self, a: str, b: str) -> bool:
        """True if ``a`` can see ``b`` (and so may fire on it): nothing blocks the line."""
        return not self.blockers(a, b)

    def visible_from(self, a: str) -> list[str]:
        """Every other ship afloat that ``a`` can see."""
        self.prime((a, b) for b in self.names if b != a)
        return [b for b in self.names if b != a and self.clear(a, b)]
