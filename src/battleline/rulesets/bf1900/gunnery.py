"""The Gunnery Phase: measuring every estimate, hit zones and danger zones.

Procedure (BF6-GUN-01, BF6-GUN-02, BF6-GUN-03, BF6-GUN-04, BF6-GUN-05; BF6-MEAS-01, BF6-MEAS-02,
BF6-MEAS-03, BF6-MEAS-04; BF6-DZ-01, BF6-DZ-02, BF6-DZ-03; BF6-HIT-01):

1. Every side writes its gunnery log in secret (:mod:`.gunnery_log`); it is checked against the
   table when submitted (:mod:`.gunnery_checks`).
2. Only when every estimate is in, :func:`resolve_gunnery` measures them all: the estimate is
   laid along the line from the firer's forward funnel through the target's forward funnel
   (AMB-17). Inside the target's base, or inside its danger zone (AMB-18), is a hit zone
   (red marker, ``EventKind.HIT_ZONE``); anywhere else is a splash (white marker,
   ``EventKind.SPLASH``).
3. Every hit zone hands one :class:`~battleline.rulesets.bf1900.hits.ShellSet` per mounting to
   Damage Step Two; nothing is rolled here (BF6-HIT-01).

Who sees what: the marker event is public (where it lies, and whether it fell over or short of
the target as seen from the firing ship); the estimate stays in its writer's own orders, and the
measured figures (the true range to the leading edge, the zone's end) go to an umpire-only note.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.damage.step4 import abandon_guns_roll
from battleline.rulesets.bf1900.gunnery_checks import (
    CUT_TARGETS,
    arc_rule,
    battery_flow,
    max_flow,
    rounds_per_gun,
    salvos_per_turn,
    sight_lines,
    validate_entries,
)
from battleline.rulesets.bf1900.gunnery_log import GunneryEntry, parse_log
from battleline.rulesets.bf1900.hits import Aspect, ShellSet, embattled_side
from battleline.rulesets.bf1900.scales import Scale
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import Land, funnel_point

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
                f"{e.firer}: {key} cannot reach the target; its {n} round(s) are lost",
                ship=e.firer,
                mounting=key,
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


def mark_fall(
    m: Measurement, fall: str, events: EventLog, calibres: Mapping[str, int] | None = None
) -> None:
    """Put down one salvo's marker: the public event and the umpire's measured figures.

    The marker (``HIT_ZONE`` red, ``SPLASH`` white) is what everyone at the table sees: where it
    lies (``x``, ``y``), who fired at whom, how many rounds, and for a splash whether it fell
    ``"over"`` or ``"short"`` of the target as seen from the firing ship. It holds neither the
    estimate (the firer's own order) nor the true range. Those, with the leading edge, the end of
    the zone and its bracket, go to a ``NOTE`` with no owner: the umpire's alone until the game
    ends (issue 11 §3-4). The note also holds the salvo's rounds by calibre (``calibres``, cm →
    rounds), which the simulator's hit rates count (:mod:`.tally`).
    """
    e = m.entry
    x, y = m.point
    if fall == "hit":
        kind = EventKind.HIT_ZONE
        text = f"{e.firer} → {e.target}: hit zone, red marker ({e.total_rounds} rounds)"
    else:
        kind = EventKind.SPLASH
        text = f"{e.firer} → {e.target}: splash, white marker, {fall}"
    events.emit(
        kind,
        text,
        ship=e.firer,
        public=True,
        x=x,
        y=y,
        firer=e.firer,
        target=e.target,
        rounds=e.total_rounds,
        fall=fall,
    )
    off = 0.0
    if fall == "short":
        off = e.estimate_m - m.leading_m
    elif fall == "over":
        off = e.estimate_m - m.zone_end_m
    events.emit(
        EventKind.NOTE,
        f"umpire: {e.firer} → {e.target} estimated {e.estimate_m:,.0f} m, leading edge at "
        f"{m.leading_m:,.0f} m, zone to {m.zone_end_m:,.0f} m (bracket {m.bracket}) → "
        + ("hit zone" if fall == "hit" else f"{abs(off):,.0f} m {fall}"),
        measured=True,
        firer=e.firer,
        target=e.target,
        estimate_m=e.estimate_m,
        leading_m=m.leading_m,
        zone_end_m=m.zone_end_m,
        bracket=m.bracket,
        hit=m.hit,
        ammo=e.ammo.value,
        off_m=off,
        rounds_by_calibre=dict(calibres or {}),
    )


def rounds_by_calibre(entry: GunneryEntry, firer: ShipLog) -> dict[str, int]:
    """One salvo's rounds by the calibre of the mountings firing them (``"30.5"`` cm → rounds)."""
    out: dict[str, int] = {}
    for key, n in entry.rounds:
        calibre = f"{firer.cls.mounting(key).calibre_cm:g}"
        out[calibre] = out.get(calibre, 0) + n
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
    checked: bool = False,
) -> list[ShellSet]:
    """The Gunnery Phase once every estimate is written (BF6-GUN-03, BF6-MEAS-01).

    Validates the whole log, rolls for the crews of sinking ships that want to fire, measures
    every estimate (a public SPLASH or HIT_ZONE marker and the umpire's figures, see
    :func:`mark_fall`), returns the shell sets of
    all hit zones, and records which ROF-½ mountings fired (for AMB-10) on every ship log.
    ``checked``: every entry was validated on this very table already (each side's log, when
    the ruleset's parser sealed it), so it is not validated a second time.
    """
    sight = sight_lines(poses, logs, scale, land)
    if not checked:
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
        fall = "hit" if m.hit else ("short" if e.estimate_m < m.leading_m else "over")
        mark_fall(m, fall, events, rounds_by_calibre(e, firer))
        if m.hit:
            out.extend(shell_sets(m, firer, events))
    for name, keys in fired_half.items():
        logs[name].rof_half_fired_last_turn = keys
    return out


__all__ = [
    "CUT_TARGETS",
    "GunneryEntry",
    "Measurement",
    "arc_rule",
    "battery_flow",
    "clip_to_base",
    "danger_zone_m",
    "mark_fall",
    "max_flow",
    "measure",
    "parse_log",
    "resolve_gunnery",
    "rounds_by_calibre",
    "rounds_per_gun",
    "salvos_per_turn",
    "shell_sets",
    "sight_lines",
    "validate_entries",
]
