"""The admiral's picture of the table, built from its side's view and nothing else.

Everything here comes from :class:`~battleline.engine.view.SideView`: own ships with their logs,
enemy ships as seen (name, class, pose, whether sinking or struck). Enemy ship classes are public
knowledge (recognition books), so their class values are looked up by class name. For the rules'
own validation helpers, which want a ship log for every ship, an enemy is stood in for by a fresh
log of its class: it carries no hidden damage, only what anyone could know.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.los import SightLines
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.ship import ShipClass, ShipType
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import funnel_point
from battleline.rulesets.bf1900.view import Contact, OwnShip, SideView

#: Ship types that fight as flotillas: they run in and launch torpedoes (BF6-CMD-30).
FLOTILLA_TYPES = frozenset({ShipType.DESTROYER.value, ShipType.TORPEDO_BOAT.value, "TGB"})

Point = tuple[float, float]
T = TypeVar("T")

#: Points along a coast are laid this far apart at most, metres (well inside the clearance a
#: division keeps, so that it cannot slip between two of them onto the land).
COAST_STEP_M = 150.0


def is_flotilla(ship_type: str) -> bool:
    """True for destroyers, torpedo boats and torpedo gunboats."""
    return ship_type in FLOTILLA_TYPES


@dataclass(frozen=True)
class Picture:
    """One side's picture of the table at one phase.

    Made afresh from each view and never changed, so what is worked out from it alone holds for
    the whole phase: the sight lines and stand-in logs are built when first asked for, and
    assessments several decisions read (:func:`per_picture`) are worked out once.
    """

    view: SideView
    scale: Scale
    own: dict[str, OwnShip]
    enemy: dict[str, Contact]
    classes: dict[str, ShipClass]
    poses: dict[str, Pose]
    funnels: dict[str, Point]
    #: Every ship's base (length, width) in metres, as the scale gives it for its type.
    sizes: dict[str, tuple[float, float]]
    #: The answers of the :func:`per_picture` functions asked of this picture so far.
    worked_out: dict[Callable[..., Any], Any] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @cached_property
    def logs(self) -> Mapping[str, ShipLog]:
        """Every ship's log: an own ship's from the view, an enemy's a fresh log of her class
        (:func:`blank_log`; it carries no damage the side cannot see). Only the rules' gunnery
        and torpedo checks read them, and an enemy's log is made when first read
        (:class:`StandInLogs`)."""
        return StandInLogs(self.own, self.enemy)

    @cached_property
    def sight(self) -> SightLines:
        """Line of sight between the ships on the table (BF6-LOS-01), built when first asked
        for: only the gunnery planners look, so the command, torpedo and damage-control
        pictures never pay for the index. The picture's poses and sizes never change, so a
        late build sees what an early one would. The index is shared with every other
        :class:`SightLines` over an identical table (the other admiral's, the umpire's), which
        reveals nothing: this table holds only what the side's view shows, and each answer is
        the one this picture would compute itself."""
        return SightLines(self.poses, self.sizes)

    @cached_property
    def coast(self) -> npt.NDArray[np.float64]:
        """Points along the outline of the table's land, at most :data:`COAST_STEP_M` apart, as
        an ``(n, 2)`` array (empty without land): what a division steers clear of, as it does
        of other ships (:func:`~battleline.ai.steering.steer_clear`)."""
        points: list[tuple[float, float]] = []
        for piece in self.view.land:
            for (ax, ay), (bx, by) in zip(piece, (*piece[1:], piece[0]), strict=True):
                n = max(1, math.ceil(math.hypot(bx - ax, by - ay) / COAST_STEP_M))
                points.extend((ax + (bx - ax) * k / n, ay + (by - ay) * k / n) for k in range(n))
        return np.array(points, dtype=np.float64).reshape(-1, 2)

    @property
    def turn(self) -> int:
        """The game turn."""
        return self.view.turn

    def seen_m(self, a: str, b: str) -> float:
        """Distance between two ships' forward funnels as the table shows it."""
        return math.dist(self.funnels[a], self.funnels[b])

    @cached_property
    def _targets(self) -> tuple[Contact, ...]:
        return tuple(c for c in self.enemy.values() if not c.sinking and not c.surrendered)

    def targets(self) -> list[Contact]:
        """Enemy ships worth shooting at: afloat, not sinking, not struck."""
        return list(self._targets)

    def able(self) -> list[OwnShip]:
        """Own ships still in the battle."""
        return [s for s in self.own.values() if s.log.in_battle]


class StandInLogs(Mapping[str, ShipLog]):
    """Every ship's log as :attr:`Picture.logs` gives it: own ships (in view order) then enemy
    contacts, an enemy's fresh log of her class made when first looked up and kept."""

    def __init__(self, own: Mapping[str, OwnShip], enemy: Mapping[str, Contact]) -> None:
        self._own = own
        self._enemy = enemy
        self._made: dict[str, ShipLog] = {}

    def __getitem__(self, name: str) -> ShipLog:
        own = self._own.get(name)
        if own is not None:
            return own.log
        log = self._made.get(name)
        if log is None:
            contact = self._enemy[name]  # KeyError for a ship not on the picture
            log = self._made[name] = blank_log(name, lookup_class(contact.cls))
        return log

    def __contains__(self, name: object) -> bool:
        return name in self._own or name in self._enemy

    def __iter__(self) -> Iterator[str]:
        yield from self._own
        yield from (n for n in self._enemy if n not in self._own)

    def __len__(self) -> int:
        return len(self._own) + sum(1 for n in self._enemy if n not in self._own)


def build_picture(view: SideView) -> Picture:
    """The picture of ``view``: poses, funnels, class values (and, when asked, sight lines)."""
    scale = get_scale(view.scale)
    own = {s.name: s for s in view.own if not s.log.sunk}
    enemy = {c.name: c for c in view.contacts}
    classes: dict[str, ShipClass] = {n: s.log.cls for n, s in own.items()}
    classes.update({n: lookup_class(c.cls) for n, c in enemy.items()})
    poses = {n: s.pose for n, s in own.items()}
    poses.update({n: c.pose for n, c in enemy.items()})
    base_of: dict[str, tuple[float, float]] = {}  # a fleet has few classes: one lookup each
    sizes = {n: _base_size(scale, cls, base_of) for n, cls in classes.items()}
    funnels = {n: funnel_point(poses[n], sizes[n][0]) for n in poses}
    return Picture(view, scale, own, enemy, classes, poses, funnels, sizes)


def per_picture(fn: Callable[[Picture], T]) -> Callable[[Picture], T]:
    """``fn`` of a picture alone, worked out once per picture and kept in it
    (:attr:`Picture.worked_out`): the command phase asks several times whether the side is
    beaten or outgunned, and a picture never changes. ``fn`` must read nothing but the picture,
    and its answer must not be changed by those it is handed to (a number, a flag, a tuple).
    """

    @functools.wraps(fn)
    def once(picture: Picture) -> T:
        memo = picture.worked_out
        if fn in memo:
            return memo[fn]  # type: ignore[no-any-return]
        value = memo[fn] = fn(picture)
        return value

    return once


def _base_size(
    scale: Scale, cls: ShipClass, memo: dict[str, tuple[float, float]]
) -> tuple[float, float]:
    """``scale.base_size_m(cls)``, remembered in ``memo`` by class name for one picture."""
    size = memo.get(cls.name)
    if size is None:
        size = memo[cls.name] = scale.base_size_m(cls)
    return size


#: One fresh log per ship class, by class name: the pattern :func:`blank_log` copies. A pure
#: cache: a fresh log depends only on its class (a frozen value), and the patterns are never
#: handed out, only copies of them.
_BLANK_LOGS: dict[str, ShipLog] = {}


def blank_log(name: str, cls: ShipClass) -> ShipLog:
    """A fresh, unmarked log of ``cls`` named ``name`` with no side: what an enemy is stood in
    by. Equal to ``ShipLog(name, cls, "")`` but copied from a per-class pattern, which is
    several times cheaper than building every box again."""
    pattern = _BLANK_LOGS.get(cls.name)
    if pattern is None or pattern.cls is not cls:
        pattern = _BLANK_LOGS[cls.name] = ShipLog(cls.name, cls, "")
    log = pattern.copy()
    log.name = name
    return log


__all__ = [
    "FLOTILLA_TYPES",
    "Picture",
    "blank_log",
    "build_picture",
    "class_weight_of_fire",
    "fire_balance",
    "is_flotilla",
    "per_picture",
    "weight_of_fire",
]


def weight_of_fire(log: ShipLog, guns_in_action: bool) -> float:
    """A ship's broadside weight of fire: for each mounting, the guns bearing on one side ×
    shell size × rate of fire. With ``guns_in_action`` only the guns her log shows in action
    count (an own ship, whose damage the side knows); else the class's full armament (an enemy,
    whose damage it cannot see: :func:`class_weight_of_fire`)."""
    if not guns_in_action:
        return class_weight_of_fire(log.cls)
    total = 0.0
    for m in log.cls.mountings:
        guns = m.guns_per_side
        if m.guns:
            guns = min(guns, log.guns_of(m))
        total += guns * m.shell_size * m.rof
    return total


def class_weight_of_fire(cls: ShipClass) -> float:
    """:func:`weight_of_fire` of a ship of ``cls`` with every gun in action (class values are
    public, so no log is needed)."""
    total = 0.0
    for m in cls.mountings:
        total += m.guns_per_side * m.shell_size * m.rof
    return total


@per_picture
def fire_balance(picture: Picture) -> float:
    """The enemy's visible weight of fire over one's own: ships in sight, afloat and not
    struck, at their class values, against one's own ships in the battle with the guns they
    have left (:func:`weight_of_fire`); ``inf`` when one's own guns are all silent."""
    theirs = sum(class_weight_of_fire(picture.classes[c.name]) for c in picture.targets())
    mine = sum(weight_of_fire(s.log, True) for s in picture.able())
    if mine <= 0.0:
        return math.inf if theirs > 0.0 else 0.0
    return theirs / mine
