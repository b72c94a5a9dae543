"""The Gunnery Phase: the gunnery log, its validation, measuring, hit and danger zones.

Procedure (BF6-GUN-01, BF6-GUN-02, BF6-GUN-03, BF6-GUN-04, BF6-GUN-05; BF6-MEAS-01, BF6-MEAS-02,
BF6-MEAS-03, BF6-MEAS-04; BF6-DZ-01, BF6-DZ-02, BF6-DZ-03; BF6-HIT-01):

1. Every side writes its gunnery log in secret: per firing ship and target, one range estimate,
   the ammunition (HE unless AP is written) and the rounds each mounting sends
   (:class:`GunneryEntry`; text notation in ``docs/gunnery-log.md``).
2. :func:`validate_entries` checks every entry against the table: line of sight, arcs, maximum
   range, rates of fire and split fire. A broken rule raises
   :class:`~battleline.errors.IllegalOrderError` naming the ship, the target and the rule ID.
3. Only when every estimate is in, :func:`resolve_gunnery` measures them all: the estimate is
   laid along the line from the firer's forward funnel through the target's forward funnel
   (AMB-17). Inside the target's base, or inside its danger zone (AMB-18), is a hit zone
   (red marker, ``EventKind.HIT_ZONE``); anywhere else is a splash (white marker,
   ``EventKind.SPLASH``). Both events carry the point's ``x`` and ``y``.
4. Every hit zone hands one :class:`~battleline.rulesets.bf1900.hits.ShellSet` per mounting to
   Damage Step Two; nothing is rolled here (BF6-HIT-01).

Until measuring, a side may see none of the other side's entries: :func:`redact` and
:func:`side_view`.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.arcs import (
    Arc,
    bearing_guns,
    mount_spans,
    mounting_arcs,
    span_holds,
)
from battleline.rulesets.bf1900.damage.step4 import abandon_guns_roll
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet, embattled_side
from battleline.rulesets.bf1900.los import SightLines
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.ship import Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.table import Land, funnel_point

# -- the gunnery log -----------------------------------------------------------------------

_ENTRY = re.compile(
    r"\s*(?P<firer>[^:@]+?)\s*:\s*(?P<target>[^:@]+?)\s*@\s*(?P<est>[0-9]+(?:\.[0-9]+)?)\s*m?"
    r"(?P<rest>(?:\s+.*)?)\s*"
)
_ROUNDS = re.compile(r"(?P<key>[A-Za-z][A-Za-z0-9_-]*):(?P<n>[0-9]+)")


@dataclass(frozen=True, slots=True)
class GunneryEntry:
    """One line of a ship's gunnery log: one target, one estimate (BF6-GUN-02, BF6-TGT-02).

    ``rounds`` pairs each assigned mounting's key with the rounds it sends at this target.
    ``side`` is who wrote it (left empty, the firer's side from its ship log is used).

    >>> e = GunneryEntry.parse("Fuji: Mikasa @5200 AP A:2 Z:2 sec:4")
    >>> e.estimate_m, e.ammo.value, e.rounds
    (5200.0, 'AP', (('A', 2), ('Z', 2), ('sec', 4)))
    >>> str(e)
    'Fuji: Mikasa @5200 AP A:2 Z:2 sec:4'
    """

    firer: str
    target: str
    estimate_m: float
    ammo: Ammo = Ammo.HE
    rounds: tuple[tuple[str, int], ...] = ()
    side: str = field(default="", compare=False)

    @classmethod
    def parse(cls, text: str, side: str = "") -> GunneryEntry:
        """Read the notation ``Firer: Target @metres [AP|HE] key:rounds ...``.

        Raises :class:`OrderSyntaxError` for text that does not fit.
        """
        m = _ENTRY.fullmatch(text)
        if m is None:
            raise OrderSyntaxError(
                f"cannot read gunnery entry {text!r}: expected 'Firer: Target @metres [AP] "
                "key:rounds ...', e.g. 'Fuji: Mikasa @5200 AP A:2 Z:2'"
            )
        tokens = m.group("rest").split()
        ammo = Ammo.HE
        if tokens and tokens[0].upper() in (Ammo.AP.value, Ammo.HE.value):
            ammo = Ammo(tokens.pop(0).upper())
        rounds: list[tuple[str, int]] = []
        for tok in tokens:
            r = _ROUNDS.fullmatch(tok)
            if r is None:
                raise OrderSyntaxError(
                    f"gunnery entry {text!r}: {tok!r} is not 'mounting:rounds' (e.g. 'A:2')"
                )
            key, n = r.group("key"), int(r.group("n"))
            if n < 1:
                raise OrderSyntaxError(f"gunnery entry {text!r}: {key} must fire at least 1 round")
            if any(k == key for k, _ in rounds):
                raise OrderSyntaxError(f"gunnery entry {text!r}: mounting {key} is listed twice")
            rounds.append((key, n))
        if not rounds:
            raise OrderSyntaxError(
                f"gunnery entry {text!r} assigns no guns; add e.g. 'A:2' (BF6-TGT-02)"
            )
        return cls(
            m.group("firer"), m.group("target"), float(m.group("est")), ammo, tuple(rounds), side
        )

    def notation(self) -> str:
        """The entry in its text notation (AP written, HE the default left out)."""
        est = (
            f"{self.estimate_m:.0f}"
            if self.estimate_m == int(self.estimate_m)
            else (f"{self.estimate_m:g}")
        )
        parts = [f"{self.firer}: {self.target} @{est}"]
        if self.ammo is Ammo.AP:
            parts.append("AP")
        parts.extend(f"{k}:{n}" for k, n in self.rounds)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.notation()

    @property
    def total_rounds(self) -> int:
        """All rounds sent at this target."""
        return sum(n for _, n in self.rounds)

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, for the writer's own view and for saved games."""
        return {
            "firer": self.firer,
            "target": self.target,
            "estimate_m": self.estimate_m,
            "ammo": self.ammo.value,
            "rounds": [[k, n] for k, n in self.rounds],
            "side": self.side,
            "notation": self.notation(),
        }


def parse_log(text: str, side: str = "") -> list[GunneryEntry]:
    """A whole gunnery log, one entry a line; blank lines and ``#`` comments are skipped."""
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(GunneryEntry.parse(line, side))
    return out


# -- secrecy -------------------------------------------------------------------------------


def redact(entry: GunneryEntry) -> dict[str, Any]:
    """What an opponent may see of an entry before measuring: nothing (BF6-GUN-01)."""
    del entry
    return {}


def entry_side(entry: GunneryEntry, side_of: Mapping[str, str]) -> str:
    """The side that wrote an entry: its own ``side``, else the firer's side."""
    return entry.side or side_of.get(entry.firer, "")


def side_view(
    entries: Iterable[GunneryEntry], viewer: str, side_of: Mapping[str, str]
) -> list[dict[str, Any]]:
    """A side's view of the pending (unmeasured) entries: its own in full, the enemy's none."""
    out = []
    for e in entries:
        seen = e.to_dict() if entry_side(e, side_of) == viewer else redact(e)
        if seen:
            out.append(seen)
    return out


# -- validation ----------------------------------------------------------------------------

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
    """This turn's sight lines between every ship afloat (sinking ships block: BF6-SINK-05)."""
    sizes = {n: scale.base_size_m(logs[n].cls) for n in poses if n in logs}
    afloat = {n for n in sizes if logs[n].afloat}
    return SightLines({n: poses[n] for n in sizes}, sizes, land, afloat)


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
    ) -> None:
        self.poses = poses
        self.logs = logs
        self.scale = scale
        self.sight = sight
        self.turn = turn
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
            raise self.fail(
                e, f"no line of sight: blocked by {', '.join(blockers)}", "BF6-LOS-01, BF6-LOS-02"
            )
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
                    f"mounting {key} cannot bear: target at relative bearing {theta:.1f}°, "
                    f"arcs {_fmt_arcs(mounting_arcs(mount))}",
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
        guns = log.guns_in_action(mount.key)
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
) -> None:
    """Check a gunnery log against the table; raise :class:`IllegalOrderError` if any entry
    breaks a rule (LOS, arcs, maximum range, ROF, split fire, one estimate per target).

    ``side``, if given, is the side submitting: every firer must be one of its ships.
    """
    sight = sight if sight is not None else sight_lines(poses, logs, scale, land)
    check = _Checker(poses, logs, scale, sight, turn)
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


# -- measuring -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Measurement:
    """Where an estimate landed (BF6-MEAS-02, BF6-MEAS-03, BF6-MEAS-04, AMB-17, AMB-18).

    Distances run along the line of fire from the firer's forward funnel: ``leading_m`` and
    ``far_m`` to where it enters and leaves the target's base, ``danger_m`` the danger zone
    reckoned from the leading edge, ``bracket`` the range bracket of the leading edge.
    """

    entry: GunneryEntry
    point: tuple[float, float]
    leading_m: float
    far_m: float
    danger_m: float
    bracket: int | None
    hit: bool
    aspect: Aspect

    @property
    def zone_end_m(self) -> float:
        """Far end of the target area along the line: base or danger zone, whichever is longer."""
        return max(self.far_m, self.leading_m + self.danger_m)


def danger_zone_m(bracket: int | None, bracket_m: float) -> float:
    """Danger zone beyond the leading edge: ½ bracket in the 1st, ¼ in the 2nd, else none
    (BF6-DZ-01, BF6-DZ-02, BF6-DZ-03)."""
    if bracket == 1:
        return bracket_m / 2.0
    if bracket == 2:
        return bracket_m / 4.0
    return 0.0


def clip_to_base(
    origin: tuple[float, float],
    direction: tuple[float, float],
    pose: Pose,
    length: float,
    width: float,
) -> tuple[float, float] | None:
    """Where the line ``origin + t·direction`` enters and leaves a base: ``(t_in, t_out)``.

    ``direction`` is a unit vector; ``None`` if the line misses the base.
    """
    sin_h, cos_h = math.sin(math.radians(pose.heading)), math.cos(math.radians(pose.heading))
    rx, ry = origin[0] - pose.x, origin[1] - pose.y
    # Into the base's own frame: ahead along the heading, starboard to its right.
    p = (rx * sin_h + ry * cos_h, rx * cos_h - ry * sin_h)
    d = (direction[0] * sin_h + direction[1] * cos_h, direction[0] * cos_h - direction[1] * sin_h)
    lo, hi = -math.inf, math.inf
    for pi, di, half in ((p[0], d[0], length / 2.0), (p[1], d[1], width / 2.0)):
        if abs(di) < 1e-12:
            if abs(pi) > half:
                return None
            continue
        t1, t2 = (-half - pi) / di, (half - pi) / di
        lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return (lo, hi) if lo <= hi else None


def measure(
    entry: GunneryEntry,
    firer_funnel: tuple[float, float],
    target_pose: Pose,
    target_size: tuple[float, float],
    scale: Scale,
) -> Measurement:
    """Lay one estimate along the line of fire and decide hit zone or splash."""
    length, width = target_size
    tx, ty = funnel_point(target_pose, length)
    fx, fy = firer_funnel
    dist = math.hypot(tx - fx, ty - fy)
    ux, uy = ((tx - fx) / dist, (ty - fy) / dist) if dist > 0 else (0.0, 1.0)
    point = (fx + ux * entry.estimate_m, fy + uy * entry.estimate_m)
    aspect = embattled_side(target_pose.bearing_to(fx, fy))
    span = clip_to_base(firer_funnel, (ux, uy), target_pose, length, width)
    if span is None or span[1] < 0:  # cannot happen for a line through the funnel
        return Measurement(entry, point, dist, dist, 0.0, scale.bracket(dist), False, aspect)
    leading, far = max(span[0], 0.0), span[1]
    bracket = scale.bracket(leading)
    danger = danger_zone_m(bracket, scale.bracket_m)
    eps = 1e-6
    hit = leading - eps <= entry.estimate_m <= max(far, leading + danger) + eps
    return Measurement(entry, point, leading, far, danger, bracket, hit, aspect)


# -- the phase -----------------------------------------------------------------------------


def shell_sets(m: Measurement, firer: ShipLog, events: EventLog) -> list[ShellSet]:
    """The rounds of a hit zone, one set per mounting, for Damage Step Two (BF6-HIT-01)."""
    e = m.entry
    bracket = m.bracket if m.bracket is not None else 4
    out: list[ShellSet] = []
    for key, n in e.rounds:
        mount = firer.cls.mounting(key)
        pen = mount.penetration[bracket - 1]
        if pen is None:
            events.emit(
                EventKind.NOTE,
                f"{e.firer}: {key} cannot reach bracket {bracket}; its {n} round(s) are lost",
                ship=e.firer,
                mounting=key,
                bracket=bracket,
            )
            continue
        out.append(
            ShellSet(
                firer=e.firer,
                target=e.target,
                mounting=key,
                gun_class=mount.gun_class,
                calibre_cm=mount.calibre_cm,
                rounds=n,
                ammo=e.ammo,
                penetration=pen,
                bracket=bracket,
                shell_size=mount.shell_size,
                aspect=m.aspect,
            )
        )
    return out


def resolve_gunnery(
    entries: Sequence[GunneryEntry],
    poses: Mapping[str, Pose],
    logs: Mapping[str, ShipLog],
    scale: Scale,
    land: Sequence[Land],
    dice: Dice,
    events: EventLog,
    *,
    turn: int = 0,
) -> list[ShellSet]:
    """The Gunnery Phase once every estimate is written (BF6-GUN-03, BF6-MEAS-01).

    Validates the whole log, rolls for the crews of sinking ships that want to fire, measures
    every estimate (emitting SPLASH or HIT_ZONE events with the point), returns the shell sets of
    all hit zones, and records which ROF-½ mountings fired (for AMB-10) on every ship log.
    """
    sight = sight_lines(poses, logs, scale, land)
    validate_entries(entries, poses, logs, scale, sight, turn=turn)
    abandoned: set[str] = set()
    for name in dict.fromkeys(e.firer for e in entries):
        log = logs[name]
        # BF6-SINK-04, AMB-26: every Gunnery Phase in which a sinking ship wants to fire.
        if log.sinking is not None and not abandon_guns_roll(log, dice, events):
            abandoned.add(name)
    fired_half: dict[str, set[str]] = {n: set() for n in logs}
    out: list[ShellSet] = []
    for e in entries:
        if e.firer in abandoned:
            continue
        firer = logs[e.firer]
        for key, _ in e.rounds:
            if firer.cls.mounting(key).rof < 1:
                fired_half[e.firer].add(key)
        target = logs[e.target]
        m = measure(
            e, sight.funnels[e.firer], poses[e.target], scale.base_size_m(target.cls), scale
        )
        x, y = m.point
        data: dict[str, Any] = {
            "x": x,
            "y": y,
            "firer": e.firer,
            "target": e.target,
            "estimate_m": e.estimate_m,
            "leading_m": m.leading_m,
            "zone_end_m": m.zone_end_m,
            "bracket": m.bracket,
            "rounds": e.total_rounds,
            "ammo": e.ammo.value,
        }
        if m.hit:
            events.emit(
                EventKind.HIT_ZONE,
                f"{e.firer} → {e.target} @{e.estimate_m:.0f} m: hit zone, red marker "
                f"({e.total_rounds} {e.ammo.value} rounds, leading edge in bracket {m.bracket})",
                ship=e.firer,
                **data,
            )
            out.extend(shell_sets(m, firer, events))
        else:
            off = e.estimate_m - (m.leading_m if e.estimate_m < m.leading_m else m.zone_end_m)
            events.emit(
                EventKind.SPLASH,
                f"{e.firer} → {e.target} @{e.estimate_m:.0f} m: splash, white marker "
                f"{abs(off):.0f} m {'short' if off < 0 else 'over'}",
                ship=e.firer,
                **data,
            )
    for name, keys in fired_half.items():
        logs[name].rof_half_fired_last_turn = keys
    return out
