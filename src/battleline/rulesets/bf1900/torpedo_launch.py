"""A torpedo launch order: its notation, and the checks a declared launch must pass
(BF6-TORP-02..04, BF6-TORP-09/10, BF6-BEAM-05, BF6-SINK-03, REF-BF6-18).

Launch notation (one launch per line; ``x1`` may be left out)::

    Kasumi: TT bow -> Mikasa x2
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.ship import TorpedoMount
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.torpedo_geometry import (
    BaseSizes,
    bearing_arc,
    land_blocks,
    launch_arcs,
    launching_side,
    run_length,
    torpedo_run,
)

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


# -- validation -------------------------------------------------------------------------------


def mount_of(log: ShipLog, key: str) -> TorpedoMount:
    """The firer's torpedo mount named ``key`` (BF6-TORP-03); refused if she has none."""
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


def base_of(scale: BaseSizes | None, log: ShipLog) -> tuple[float, float] | None:
    """The ship's base (length, width) in metres on the game scale, if one is given."""
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
    mount = mount_of(firer, launch.mount)
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
            f"torpedo launch {who}: {launch.target} lies outside the {mount.position} tubes' "
            f"arc {arcs} (BF6-TORP-09, BF6-TORP-10; her true bearing is not told)"
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
    run = torpedo_run(here, there, base_of(scale, target))
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
