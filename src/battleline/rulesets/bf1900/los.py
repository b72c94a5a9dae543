"""Line of sight, forward funnel to forward funnel (BF6-LOS-01, BF6-LOS-02, BF6-SINK-05).

A sight line is the segment between two ships' forward funnels
(:func:`~battleline.rulesets.bf1900.table.funnel_point`). It is blocked when it crosses or touches
the base of any third ship, or land. Every ship still afloat blocks, including ships that are
sinking, until they go under (BF6-SINK-05); sunk ships are gone.

:class:`SightLines` is built once per turn. It indexes the bases and land in the table's
:class:`~battleline.rulesets.bf1900.table.Obstacles` (bounding boxes, then an exact segment
test), so a query only looks at the few bases near the line, and it caches every answer (sight
is symmetric). Index and answers are shared by every :class:`SightLines` over the same table
(both admirals, the umpire's check and the resolution of one Gunnery Phase): see
:func:`_shared_table`.
:meth:`SightLines.prime` answers many pairs in one call, so 40 ships a side stay cheap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from battleline.engine.geometry import Pose
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.table import (
    Land,
    Obstacles,
    Point,
    footprint_corners,
    funnel_point,
)

#: One ship on a table as a sight-line index sees it: name, pose, base length and width (metres).
Base = tuple[str, Pose, float, float]


class _Table:
    """The shared part of :class:`SightLines`: the index of one table and its answers per pair.

    Built from ``bases`` sorted by name (the canonical order) and ``land``; answers are cached by
    pair, each the blockers in this canonical order, ships first, then land.
    """

    def __init__(self, bases: tuple[Base, ...], land: tuple[Land, ...]) -> None:
        self.funnels: dict[str, Point] = {n: funnel_point(p, length) for n, p, length, _ in bases}
        self.obstacles = Obstacles.of_bases(list(self.funnels), _corners(bases), land)
        self.cache: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def answer(self, keys: Sequence[tuple[str, str]]) -> None:
        """Cache the blockers of every pair in ``keys`` (each ``(a, b)`` with ``a <= b``)."""
        todo = [k for k in dict.fromkeys(keys) if k not in self.cache]
        if not todo:
            return
        funnels = self.funnels
        if len(todo) == 1:
            a, b = todo[0]
            found = [self.obstacles.blockers_of_segment(funnels[a], funnels[b], frozenset(todo[0]))]
        else:
            found = self.obstacles.blockers_of_segments(
                [(funnels[a], funnels[b]) for a, b in todo], [frozenset(k) for k in todo]
            )
        for key, names in zip(todo, found, strict=True):
            if not names:  # most lines: nothing in the way
                self.cache[key] = ((), ())
                continue
            n_ships = next((i for i, n in enumerate(names) if n not in funnels), len(names))
            self.cache[key] = (tuple(names[:n_ships]), tuple(names[n_ships:]))


def _corners(bases: Sequence[Base]) -> NDArray[np.float64]:
    """The corners of every base's :func:`~battleline.rulesets.bf1900.table.footprint` in one
    broadcast (:func:`~battleline.rulesets.bf1900.table.footprint_corners`: the same
    operations on each number, so the same corners bit for bit), shape (bases, 4, 2)."""
    if not bases:
        return np.empty((0, 4, 2))
    rows = np.array([(p.x, p.y, p.heading, length, width) for _, p, length, width in bases])
    return footprint_corners(*rows.T)


@lru_cache(maxsize=4)
def _shared_table(bases: tuple[Base, ...], land: tuple[Land, ...]) -> _Table:
    """The one :class:`_Table` of a table, shared by every :class:`SightLines` over it.

    Safe: the key is immutable (names, frozen poses, base sizes as floats, frozen land) and every
    answer is a pure function of the pair and the table (the exact segment test against each
    base and piece of land), so it does not depend on who asked first or which pairs were primed.
    It reveals nothing hidden: an admiral's picture holds only what its side's view shows, and an
    entry is reused only for an identical table, whose answers that side could compute itself.
    The bases are sorted by name, so callers listing the same ships in another order share an
    entry (each :class:`SightLines` puts answers back in its own order); a table lacking a ship
    (sunk, or not in a side's view) or with other land is another key, as it must be. Bounded: a
    phase asks about one table (two admirals, the check and the resolution).
    """
    return _Table(bases, land)


class SightLines:
    """Line of sight between every pair of ships for one turn (BF6-LOS-01, BF6-LOS-02).

    ``poses`` and ``sizes`` (base length, width in metres) cover the ships on the table;
    ``afloat`` names the ships still afloat (sinking ships included, BF6-SINK-05; default: all).
    Sunk ships neither block nor see.

    The index and its answers per pair live in a :class:`_Table` shared by every
    :class:`SightLines` of the same table (:func:`_shared_table`); this object only keeps the
    caller's order of ships, in which :meth:`blockers` and :meth:`visible_from` answer (the
    order a table of its own would give: ships in ``poses`` order, then land).
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
        bases = tuple(sorted((n, poses[n], *sizes[n]) for n in self.names))
        self._table = _shared_table(bases, tuple(land))
        self.funnels: dict[str, Point] = {n: self._table.funnels[n] for n in self.names}
        #: Rank of each ship in the caller's order, when that is not the canonical (sorted) one.
        self._rank: dict[str, int] | None = None
        if any(b[0] != n for b, n in zip(bases, self.names, strict=True)):
            self._rank = {n: i for i, n in enumerate(self.names)}
        self._cache: dict[tuple[str, str], tuple[str, ...]] = {}

    @property
    def obstacles(self) -> Obstacles:
        """The table's bases and land (in canonical order: ships by name, then land)."""
        return self._table.obstacles

    def _check(self, name: str) -> None:
        if name not in self.funnels:
            raise UnknownNameError("ship afloat", name, self.names)

    def _ordered(self, key: tuple[str, str]) -> tuple[str, ...]:
        """The table's answer for ``key``, ships put back in the caller's order."""
        ships, land = self._table.cache[key]
        if len(ships) > 1 and self._rank is not None:
            ships = tuple(sorted(ships, key=self._rank.__getitem__))
        found = ships + land if land else ships
        self._cache[key] = found
        return found

    def prime(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Answer many pairs at once and cache them."""
        cache = self._cache
        todo = list(
            dict.fromkeys(
                key for a, b in pairs if (key := (a, b) if a <= b else (b, a)) not in cache
            )
        )
        if not todo:
            return
        funnels = self.funnels
        for a, b in todo:
            if a not in funnels or b not in funnels:
                self._check(a)
                self._check(b)
        self._table.answer(todo)
        for key in todo:
            self._ordered(key)

    def blockers(self, a: str, b: str) -> tuple[str, ...]:
        """What blocks the line between ``a`` and ``b``: ship names first, then land names."""
        key = (a, b) if a <= b else (b, a)
        found = self._cache.get(key)
        if found is None:
            self._check(key[0])
            self._check(key[1])
            self._table.answer([key])
            found = self._ordered(key)
        return found

    def clear(self, a: str, b: str) -> bool:
        """True if ``a`` can see ``b`` (and so may fire on it): nothing blocks the line."""
        return not self.blockers(a, b)

    def visible_from(self, a: str) -> list[str]:
        """Every other ship afloat that ``a`` can see."""
        self.prime((a, b) for b in self.names if b != a)
        return [b for b in self.names if b != a and self.clear(a, b)]
