"""Checks on a gunnery log against the table (BF6-GUN-04, BF6-TGT-01/02, BF6-LOS-01/02,
BF6-ROF-01..07, BF6-POS, BF6-BEAM, BF6-SINK-04/05, BF6-CMD-32).

:func:`validate_entries` raises :class:`~battleline.errors.IllegalOrderError` naming the turn, the
ship, the target and the rule for the first entry that breaks one: line of sight, arcs, maximum
range, rates of fire and split fire (a battery's guns each fire within their own arc: a small
flow problem, :func:`battery_flow`). The answer is the same whether a side checks its log before
submitting or the umpire checks it at resolution; it reveals no true range.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache

from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.arcs import (
    Arc,
    bearing_guns,
    mount_spans,
    mounting_arcs,
    span_holds,
)
from battleline.rulesets.bf1900.gunnery_log import GunneryEntry
from battleline.rulesets.bf1900.los import SightLines
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.table import Land

#: The rule that sets each position's arc, for error messages.
_POSITION_RULE = {
    "A": "BF6-POS-01",
    "B": "BF6-POS-02",
    "C": "BF6-POS-02",
    "D": "BF6-POS-03",
    "E": "BF6-POS-03",
    "M": "BF6-POS-04",
    "O": "BF6-POS-04",
    "P": "BF6-POS-05",
    "R": "BF6-POS-05",
    "S": "BF6-POS-06",
    "U": "BF6-POS-06",
    "V": "BF6-POS-07",
    "W": "BF6-POS-07",
    "X": "BF6-POS-08",
    "Y": "BF6-POS-08",
    "Z": "BF6-POS-09",
    "stem": "BF6-POS-10",
    "stern": "BF6-POS-10",
    "centreline": "BF6-POS-11",
}
_PATTERN_RULE = {2: "BF6-BEAM-02", 1: "BF6-BEAM-03", 0: "BF6-BEAM-04"}


def arc_rule(mount: Mounting) -> str:
    """The rule ID that gives a mounting its arc."""
    if mount.position is not None:
        return _POSITION_RULE.get(mount.position, "BF6-POS")
    return _PATTERN_RULE.get(mount.beam_pattern or 0, "BF6-BEAM-01")


def salvos_per_turn(mount: Mounting) -> int:
    """Rounds per gun this turn at most: ROF ½ and 1 give 1, ROF 2 gives 2 (BF6-ROF-01..04)."""
    return 2 if mount.rof >= 2 else 1


def rounds_per_gun(mount: Mounting, bracket: int) -> int:
    """Rounds per gun at one target in ``bracket``: ROF 2 only in brackets 1–2 (BF6-ROF-04/05)."""
    return salvos_per_turn(mount) if bracket <= 2 else 1


def sight_lines(
    poses: Mapping[str, Pose], logs: Mapping[str, ShipLog], scale: Scale, land: Sequence[Land] = ()
) -> SightLines:
    """This turn's sight lines between every ship afloat (sinking ships block: BF6-SINK-05).

    The same table gives the same object (:func:`_table_sight`), so the checks of one phase (a
    submission, an admiral's rejected lines tried one by one, the resolution) share its answers.
    """
    by_type: dict[str, tuple[float, float]] = {}  # a base's size depends on the type alone
    ships: list[tuple[str, float, float, float, float, float, bool]] = []
    for n, pose in poses.items():
        log = logs.get(n)
        if log is not None:
            kind = log.cls.type.value
            size = by_type.get(kind)
            if size is None:
                size = by_type[kind] = scale.base_size_m(log.cls)
            ships.append((n, pose.x, pose.y, pose.heading, *size, log.afloat))
    return _table_sight(tuple(ships), tuple(land))


@lru_cache(maxsize=8)
def _table_sight(
    ships: tuple[tuple[str, float, float, float, float, float, bool], ...], land: tuple[Land, ...]
) -> SightLines:
    """The :class:`SightLines` of a table: each ship's name, pose (x, y, heading), base length
    and width and whether she is afloat, and the land. A pure function of immutable values (a
    sight line's answer depends on nothing else), so cached; the object only ever adds exact
    answers to its own cache."""
    poses = {n: Pose(x, y, h) for n, x, y, h, _, _, _ in ships}
    sizes = {n: (length, width) for n, _, _, _, length, width, _ in ships}
    return SightLines(poses, sizes, land, [n for n, *_, afloat in ships if afloat])


def _fmt_arcs(arcs: Sequence[Arc]) -> str:
    return " or ".join(f"[{a:g}°, {b:g}°]" for a, b in arcs)


class _Checker:
    """Validates a turn's gunnery log entries; one instance per call."""

    def __init__(
        self,
        poses: Mapping[str, Pose],
        logs: Mapping[str, ShipLog],
        scale: Scale,
        sight: SightLines,
        turn: int,
        shown: Collection[str] | None = None,
    ) -> None:
        self.poses = poses
        self.logs = logs
        self.scale = scale
        self.sight = sight
        self.turn = turn
        #: The ships an error may name (``None``: any); see :func:`validate_entries`.
        self.shown = shown
        self._thetas: dict[tuple[str, str], float] = {}

    def theta(self, e: GunneryEntry) -> float:
        """Relative bearing from the firer's bow to the target's forward funnel.

        Cached per (firer, target) for this check: the battery check needs it for every arc
        group of every entry, and poses do not change while a log is checked.
        """
        key = (e.firer, e.target)
        theta = self._thetas.get(key)
        if theta is None:
            theta = self.poses[e.firer].bearing_to(*self.sight.funnels[e.target])
            self._thetas[key] = theta
        return theta

    def fail(self, entry: GunneryEntry, reason: str, rule: str) -> IllegalOrderError:
        where = f"turn {self.turn}, gunnery" if self.turn else "gunnery"
        return IllegalOrderError(
            f"{where}: {entry.firer} firing at {entry.target}: {reason} ({rule})"
        )

    def entry(self, e: GunneryEntry) -> int:
        """Check one entry on its own; returns the bracket of its estimate."""
        for who in (e.firer, e.target):
            if who not in self.logs or who not in self.poses:
                raise self.fail(e, f"there is no ship {who!r} on the table", "BF6-TGT-02")
        firer, target = self.logs[e.firer], self.logs[e.target]
        if e.firer == e.target:
            raise self.fail(e, "a ship cannot fire at itself", "BF6-TGT-01")
        if not firer.afloat:
            raise self.fail(e, f"{e.firer} has sunk", "BF6-SINK-05")
        if firer.surrendered:
            raise self.fail(e, f"{e.firer} has surrendered and fires no more", "BF6-CMD-32")
        if firer.sinking is not None and firer.sinking.guns_abandoned:
            raise self.fail(e, f"{e.firer}'s crews have abandoned the guns", "BF6-SINK-04")
        if not target.afloat:
            raise self.fail(e, f"{e.target} has sunk", "BF6-TGT-01")
        if not e.rounds:
            raise self.fail(e, "no guns are assigned to this target", "BF6-TGT-02")
        if not (math.isfinite(e.estimate_m) and e.estimate_m > 0):
            raise self.fail(e, f"range estimate {e.estimate_m:g} m must be positive", "BF6-GUN-02")
        bracket = self.scale.bracket(e.estimate_m)
        if bracket is None:
            raise self.fail(
                e,
                f"range estimate {e.estimate_m:g} m is beyond maximum gun range "
                f"{self.scale.max_range_m:g} m at the {self.scale.name} scale",
                "BF6-GUN-04",
            )
        blockers = self.sight.blockers(e.firer, e.target)
        if blockers:
            # Land, and ships the checking side may know of; never a ship hidden from it.
            shown, logs = self.shown, self.logs
            named = [b for b in blockers if shown is None or b in shown or b not in logs]
            by = f" by {', '.join(named)}" if named else ""
            raise self.fail(e, f"no line of sight: blocked{by}", "BF6-LOS-01, BF6-LOS-02")
        theta = self.theta(e)
        for key, n in e.rounds:
            try:
                mount = firer.cls.mounting(key)
            except KeyError:
                known = ", ".join(m.key for m in firer.cls.mountings)
                raise self.fail(
                    e, f"{e.firer} has no mounting {key!r} (it has {known})", "BF6-TGT-02"
                ) from None
            bears = bearing_guns(firer, mount, theta)
            if bears.in_arc == 0:
                raise self.fail(
                    e,
                    # The true bearing stays out of the answer: from two ships it would fix
                    # the target's true position, and so the range (no ruler, issue 11 §4).
                    f"mounting {key} cannot bear on {e.target} where she lies: its arcs are "
                    f"{_fmt_arcs(mounting_arcs(mount))}",
                    arc_rule(mount),
                )
            if bears.guns == 0:
                raise self.fail(e, f"mounting {key} has no guns in action that bear", "BF6-ROF-01")
            if mount.penetration[bracket - 1] is None:
                raise self.fail(
                    e,
                    f"mounting {key} cannot fire in range bracket {bracket} "
                    f"(its penetration there is '-')",
                    "BF6-GUN-04",
                )
            if n > bears.guns * rounds_per_gun(mount, bracket):
                rule = "BF6-ROF-05" if bracket > 2 and mount.rof >= 2 else "BF6-ROF-01"
                raise self.fail(
                    e,
                    f"mounting {key}: {n} rounds from {bears.guns} gun(s) bearing at ROF "
                    f"{_rof(mount)} in bracket {bracket} (at most "
                    f"{bears.guns * rounds_per_gun(mount, bracket)})",
                    rule,
                )
        return bracket

    def firer(self, name: str, entries: Sequence[tuple[GunneryEntry, int]]) -> None:
        """Check one ship's entries together: one estimate per target, ROF and split fire."""
        log = self.logs[name]
        seen: set[str] = set()
        for e, _ in entries:
            if e.target in seen:
                raise self.fail(
                    e, f"a second range estimate for {e.target} this turn", "BF6-TGT-02"
                )
            seen.add(e.target)
        uses: dict[str, list[tuple[GunneryEntry, int, int]]] = {}
        for e, bracket in entries:
            for key, n in e.rounds:
                uses.setdefault(key, []).append((e, bracket, n))
        for key, used in uses.items():
            mount = log.cls.mounting(key)
            first = used[0][0]
            if mount.rof < 1 and key in log.rof_half_fired_last_turn:
                raise self.fail(
                    first,
                    f"mounting {key} (ROF ½) fired last turn and is still loading",
                    "BF6-ROF-02",
                )
            if mount.is_lettered:
                self._position(log, mount, used)
            else:
                self._battery(log, mount, used)

    def _position(
        self, log: ShipLog, mount: Mounting, used: Sequence[tuple[GunneryEntry, int, int]]
    ) -> None:
        """Whole salvos only (BF6-ROF-06, AMB-12); no more salvos than ROF allows."""
        guns = log.guns_of(mount)
        salvos = 0
        for e, _, n in used:
            if n % guns:
                raise self.fail(
                    e,
                    f"mounting {mount.key} fires whole {guns}-gun salvos; {n} round(s) cannot be "
                    f"split from it (allowed: multiples of {guns})",
                    "BF6-ROF-06",
                )
            salvos += n // guns
        limit = salvos_per_turn(mount)
        if salvos > limit:
            total = sum(n for _, _, n in used)
            raise self.fail(
                used[-1][0],
                f"mounting {mount.key} is over-allocated: {total} rounds in {salvos} salvos "
                f"across {len(used)} target(s), but {guns} gun(s) at ROF {_rof(mount)} fire "
                f"at most {limit * guns}",
                "BF6-ROF-06" if limit == 2 else "BF6-ROF-03",
            )

    def _battery(
        self, log: ShipLog, mount: Mounting, used: Sequence[tuple[GunneryEntry, int, int]]
    ) -> None:
        """Single guns allocate their own rounds (BF6-ROF-07): a flow from guns to targets.

        The guns are grouped by arc; group ``i`` supplies ``n_i × salvos`` rounds, of which at
        most ``n_i × rounds_per_gun(bracket)`` may go to a target in its arc.
        """
        marks = log.batteries[mount.key]
        n_marks = len(marks)
        per_gun = salvos_per_turn(mount)
        thetas = [self.theta(e) for e, _, _ in used]
        rates = [rounds_per_gun(mount, bracket) for _, bracket, _ in used]
        ready = 0
        supply: list[int] = []
        caps: list[list[int]] = []
        for span, idx in mount_spans(mount):
            n_guns = sum(1 for i in idx if i < n_marks and marks[i] is _READY)
            if n_guns:
                ready += n_guns
                supply.append(n_guns * per_gun)
                caps.append(
                    [
                        n_guns * r if span_holds(t, span) else 0
                        for t, r in zip(thetas, rates, strict=True)
                    ]
                )
        demand = [n for _, _, n in used]
        if battery_flow(supply, caps, demand) < sum(demand):
            split = " + ".join(f"{n} at {e.target}" for e, _, n in used)
            raise self.fail(
                used[-1][0],
                f"battery {mount.key} is over-allocated: {split} from {ready} gun(s) in action "
                f"at ROF {_rof(mount)}, each gun firing only within its own arc",
                "BF6-ROF-07",
            )


#: A box with no mark: the gun is in action.
_READY = Mark.NONE


def _rof(mount: Mounting) -> str:
    return "½" if mount.rof < 1 else f"{mount.rof:g}"


#: Up to this many targets, :func:`battery_flow` enumerates cuts instead of running a flow.
CUT_TARGETS = 6


def battery_flow(
    supply: Sequence[int], caps: Sequence[Sequence[int]], demand: Sequence[int]
) -> int:
    """Maximum flow source → group ``i`` (``supply[i]``) → target ``j`` (``caps[i][j]``, 0 for
    no edge) → sink (``demand[j]``): how many of the wanted rounds a battery can fire (BF6-ROF-07).

    Closed form by max-flow = min-cut. A cut puts some set ``T`` of targets on the source side
    (paying their demand); each group then pays the cheaper of its supply and its edges to the
    targets outside ``T``. So the flow is the minimum over ``T`` of
    ``Σ_{j∈T} demand[j] + Σ_i min(supply[i], Σ_{j∉T} caps[i][j])``; with one target that is
    ``min(demand, Σ_i min(supply[i], caps[i]))``. Integer arithmetic, so exactly the flow
    :func:`max_flow` finds; beyond :data:`CUT_TARGETS` targets it runs :func:`max_flow`.
    A negative capacity carries nothing, as in :func:`max_flow`.
    """
    k = len(demand)
    if k == 1:  # the common case, spelled out
        carried = sum(min(max(a, 0), max(row[0], 0)) for a, row in zip(supply, caps, strict=True))
        return min(max(demand[0], 0), carried)
    supply = [max(a, 0) for a in supply]
    caps = [[max(c, 0) for c in row] for row in caps]
    demand = [max(n, 0) for n in demand]
    if k > CUT_TARGETS:
        cap: dict[tuple[str, str], int] = {}
        for i, (a, row) in enumerate(zip(supply, caps, strict=True)):
            cap[("src", f"g{i}")] = a
            for j, c in enumerate(row):
                if c:
                    cap[(f"g{i}", f"t{j}")] = c
        for j, n in enumerate(demand):
            cap[(f"t{j}", "sink")] = n
        return max_flow(cap, "src", "sink")
    best = sum(demand)  # the cut with every target on the source side
    for mask in range((1 << k) - 1):
        outside = [j for j in range(k) if not mask >> j & 1]
        cost = sum(demand[j] for j in range(k) if mask >> j & 1)
        for a, row in zip(supply, caps, strict=True):
            cost += min(a, sum(row[j] for j in outside))
            if cost >= best:
                break
        best = min(best, cost)
    return best


def max_flow(cap: Mapping[tuple[str, str], int], source: str, sink: str) -> int:
    """Maximum flow through a small network given as edge capacities (Edmonds–Karp).

    Nodes are numbered in order of first appearance; the residual network is a matrix.
    """
    ids: dict[str, int] = {source: 0}
    for tail, head in cap:
        ids.setdefault(tail, len(ids))
        ids.setdefault(head, len(ids))
    ids.setdefault(sink, len(ids))
    size = len(ids)
    residual = [[0] * size for _ in range(size)]
    adjacent: list[list[int]] = [[] for _ in range(size)]
    for (u_name, v_name), c in cap.items():
        u, v = ids[u_name], ids[v_name]
        if v not in adjacent[u]:
            adjacent[u].append(v)
            adjacent[v].append(u)
        residual[u][v] += c
    s, t = ids[source], ids[sink]
    flow = 0
    while True:
        parent = [-1] * size
        parent[s] = s
        queue = deque([s])
        while queue and parent[t] < 0:
            u = queue.popleft()
            for v in adjacent[u]:
                if parent[v] < 0 and residual[u][v] > 0:
                    parent[v] = u
                    queue.append(v)
        if parent[t] < 0:
            return flow
        push = residual[parent[t]][t]
        v = t
        while v != s:
            u = parent[v]
            push = min(push, residual[u][v])
            v = u
        v = t
        while v != s:
            u = parent[v]
            residual[u][v] -= push
            residual[v][u] += push
            v = u
        flow += push


def validate_entries(
    entries: Sequence[GunneryEntry],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    sight: SightLines | None = None,
    *,
    land: Sequence[Land] = (),
    turn: int = 0,
    side: str | None = None,
    shown: Collection[str] | None = None,
) -> None:
    """Check a gunnery log against the table; raise :class:`IllegalOrderError` if any entry
    breaks a rule (LOS, arcs, maximum range, ROF, split fire, one estimate per target).

    ``side``, if given, is the side submitting: every firer must be one of its ships.
    ``shown``, if given, names the ships the error may name (the side's own and those in its
    view): a sight line blocked by another ship says "blocked" without naming her (issue 11,
    §3); land is always named.
    """
    sight = sight if sight is not None else sight_lines(poses, logs, scale, land)
    check = _Checker(poses, logs, scale, sight, turn, shown)
    # One vectorised sight-line query for every pair on the table (BF6-LOS-01/02).
    sight.prime(
        (e.firer, e.target)
        for e in entries
        if e.firer != e.target and e.firer in sight.funnels and e.target in sight.funnels
    )
    by_firer: dict[str, list[tuple[GunneryEntry, int]]] = {}
    for e in entries:
        if side is not None and e.firer in logs and logs[e.firer].side != side:
            raise check.fail(e, f"{e.firer} is not a ship of side {side!r}", "BF6-GUN-01")
        by_firer.setdefault(e.firer, []).append((e, check.entry(e)))
    for name, own in by_firer.items():
        check.firer(name, own)


__all__ = [
    "CUT_TARGETS",
    "arc_rule",
    "battery_flow",
    "max_flow",
    "rounds_per_gun",
    "salvos_per_turn",
    "sight_lines",
    "validate_entries",
]
