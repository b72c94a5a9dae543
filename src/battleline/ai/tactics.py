"""The admiral's decisions, phase by phase, written as order text in the normal notations.

* Command (BF6-CMD-01..32): each battle division closes to the 2nd range bracket while staying
  outside the torpedo range of the enemy's big ships, then turns in succession to bring its
  broadsides to bear, preferring the side that crosses the enemy's T; flotillas run in at top speed
  and turn to launch; damaged ships drop out of the line (BF6-CMD-16/17); beaten sides turn away
  together and run, and a division dead in the water under the enemy's guns strikes (BF6-CMD-32).
* Gunnery (BF6-GUN, BF6-TGT, BF6-ROF): each division concentrates on one target; guns that cannot
  bear on it take the next best; AP where its penetration beats the target's vitals armour.
* Torpedoes (BF6-TORP-02..10): launch when a worthwhile target is, by eye, well inside range.
* Damage control (BF6-DC-01..04, BF6-REP, BF6-CF): by priority within the ship's DC dice.

Every helper reads only an admiral's :class:`~battleline.ai.picture.Picture` of its side's view.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from battleline.ai import steering
from battleline.ai.picture import Picture, is_flotilla
from battleline.ai.pursuit import CLOSE_ANGLE_DEG, pursuit_angles
from battleline.ai.speed import at_box, speed_order
from battleline.ai.standing import lame
from battleline.ai.steering import (
    CLEARANCE_M,
    COLLISION_CLEAR_DEG,
    Points,
    clear_of_collision,
    drop_side,
    pinned,
    predicted_track,
)
from battleline.engine.geometry import Pose, bearing, norm360, signed_angle
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.command import drop_out_eligible
from battleline.rulesets.bf1900.divisions import Division, Formation, restores_line_ahead
from battleline.rulesets.bf1900.notation import DropOut, parse_orders
from battleline.rulesets.bf1900.planning import plan_division_move
from battleline.rulesets.bf1900.torpedoes import (
    runs_shallow,
)

#: A battle line aims for this fraction of the way into the 2nd range bracket (reconstructed).
ENGAGE_FRACTION = 1.6
#: ... but keeps at least this far outside the enemy big ships' torpedo range, metres.
TORPEDO_MARGIN_M = 700.0
#: Band either side of the wanted range inside which a line simply holds its broadside.
RANGE_BAND = 0.2
#: Smaller heading changes are not worth an order, degrees.
MIN_TURN_DEG = 8
#: Flotillas launch when the target looks within this fraction of the torpedo range.
LAUNCH_FRACTION = 0.85


def centroid(points: Iterable[tuple[float, float]]) -> tuple[float, float] | None:
    """Mean of some points (``None`` for none)."""
    pts = list(points)
    if not pts:
        return None
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def enemy_torpedo_reach_m(picture: Picture) -> float:
    """The longest torpedo range among the enemy's big ships (class values are public)."""
    reach = [
        t.range_m
        for c in picture.targets()
        if not is_flotilla(c.type)
        for t in picture.classes[c.name].torpedoes
    ]
    return max(reach, default=0.0)


def flotilla_torpedo_reach_m(picture: Picture, enemies: Sequence[str]) -> float:
    """The longest torpedo range among some enemy ships (class values are public)."""
    return max((t.range_m for e in enemies for t in picture.classes[e].torpedoes), default=0.0)


# -- the command phase -----------------------------------------------------------------------


def division_of(picture: Picture, name: str) -> Division:
    """A division as the rules see it, rebuilt from the view (ships still in the battle)."""
    info = picture.view.divisions[name]
    ships = tuple(s for s in info["ships"] if s in picture.own and picture.own[s].log.in_battle)
    # None in the battle: the ships still afloat (a sunk ship has left the picture), if any.
    ships = ships or tuple(s for s in info["ships"] if s in picture.own) or tuple(info["ships"])
    flag = info["flagship"] if info["flagship"] in ships else ships[0]
    return Division(
        name,
        picture.view.side,
        ships,
        flag,
        Formation(info["formation"]),
        fleet_flagship=bool(info["fleet_flagship"]),
    )


def away_heading(here: Pose, threat: tuple[float, float]) -> float:
    """Straight away from a point."""
    return norm360(bearing(threat[0], threat[1], here.x, here.y))


def away_side(here: Pose, threat: tuple[float, float] | None) -> str:
    """The side to turn to, away from a threat: port if it lies to starboard, else starboard."""
    if threat is None:
        return "S"
    return "P" if 0.0 <= here.bearing_to(*threat) <= 180.0 else "S"


def _nearest_side_heading(current: float, options: Sequence[float]) -> float:
    return min(options, key=lambda h: (abs(signed_angle(h - current)), h))


def engage_range_m(picture: Picture, lead: str | None = None) -> float:
    """The range a battle line fights at: the doctrine range the scenario gives the division
    that ``lead`` belongs to (whichever of its ships leads it now), else the side's
    (``doctrine_range_m``, :attr:`SideView.doctrine_range_m`), else ``ENGAGE_FRACTION`` brackets."""
    if lead is not None:
        for info in picture.view.divisions.values():
            if lead in info["ships"] and "doctrine_range_m" in info:
                return float(info["doctrine_range_m"])
    doctrine = picture.view.doctrine_range_m
    return doctrine if doctrine is not None else ENGAGE_FRACTION * picture.scale.bracket_m


def line_heading(
    picture: Picture,
    lead: str,
    enemies: Sequence[str],
    run_m: float = 0.0,
    enemy_run_m: float | None = None,
    ships: Sequence[str] = (),
) -> tuple[float, str]:
    """A battle line's heading and why: "close", "broadside", "cross the T", "pursue" or
    "open".

    The range judged is that of the division's ship nearest the enemy (``ships``, the lead
    when none are given): a line bent or abreast after a turn together keeps its nearest ship,
    not only its leader, out of the range it does not want; it opens the range away from the
    enemy ship nearest it.

    The wanted range is :func:`engage_range_m`, and at least the enemy big ships' torpedo range
    plus a margin (the "Engage Enemy" doctrine, BF6-CMD-26). ``enemy_run_m`` is the nearest
    enemy's run last move as seen, when known: a stronger line closing on a fleeing enemy
    steers nearer the bearing, and keeps pace with her at the range it wants
    (:func:`~battleline.ai.pursuit.pursuit_angles`).
    """
    here = picture.poses[lead]
    pts = [picture.funnels[e] for e in enemies]
    nearest = min(enemies, key=lambda e: picture.seen_m(lead, e))
    target = centroid(pts) or picture.funnels[nearest]
    dist, near_own, near_enemy = min(
        (picture.seen_m(s, e), s, e) for s in (*ships, lead) for e in enemies
    )
    if all(is_flotilla(picture.enemy[e].type) for e in enemies if e in picture.enemy):
        # Only torpedo craft in sight: keep outside their torpedo range and let the light guns
        # work, rather than steam away to gun range from boats that are faster anyway.
        wanted = flotilla_torpedo_reach_m(picture, enemies) + TORPEDO_MARGIN_M
    else:
        wanted = max(
            engage_range_m(picture, lead), enemy_torpedo_reach_m(picture) + TORPEDO_MARGIN_M
        )
    to_enemy = bearing(here.x, here.y, *target)
    broadsides = (norm360(to_enemy + 90.0), norm360(to_enemy - 90.0))
    # The band is at least about half a move deep either side, so a fast ship does not zig-zag
    # across it from one turn to the next.
    band = max(wanted * RANGE_BAND, 0.5 * run_m)
    chase = pursuit_angles(picture, lead, nearest, run_m, enemy_run_m)
    if dist > wanted + band:
        # Close obliquely, guns bearing, on the side already turned towards; in a pursuit,
        # nearer the bearing.
        angle = CLOSE_ANGLE_DEG if chase is None else chase[0]
        options = (norm360(to_enemy + angle), norm360(to_enemy - angle))
        return _nearest_side_heading(here.heading, options), "close"
    if dist < wanted - band:
        # Away from the enemy ship that is too near, not from the enemy's centre: turning from
        # the centre of a long line can run the division onto its end.
        there = picture.poses[near_own]
        to_threat = bearing(there.x, there.y, *picture.funnels[near_enemy])
        options = (norm360(to_threat + 140.0), norm360(to_threat - 140.0))
        return _nearest_side_heading(here.heading, options), "open"
    if chase is not None:
        # A running enemy: keep pace on a converging course rather than turn beam-on.
        options = (norm360(to_enemy + chase[1]), norm360(to_enemy - chase[1]))
        return _nearest_side_heading(here.heading, options), "pursue"
    # A parallel course for a running fight, or, when the enemy comes on bow first, whichever
    # broadside turns least: crossing his T (BF6-CMD-26).
    heads = [picture.poses[e].heading for e in enemies]
    mean = math.degrees(
        math.atan2(
            sum(math.sin(math.radians(h)) for h in heads),
            sum(math.cos(math.radians(h)) for h in heads),
        )
    )
    off = [abs(signed_angle(h - mean)) for h in broadsides]
    if abs(off[0] - off[1]) < 40.0:
        return _nearest_side_heading(here.heading, broadsides), "cross the T"
    parallel = broadsides[0] if off[0] < off[1] else broadsides[1]
    other = broadsides[1] if parallel == broadsides[0] else broadsides[0]
    if abs(signed_angle(parallel - here.heading)) <= abs(signed_angle(other - here.heading)) + 60:
        return parallel, "broadside"
    return other, "broadside"


def attack_heading(picture: Picture, lead: str, target: str) -> tuple[float, str]:
    """A flotilla's run at a target: straight in, then beam on to launch from the side tubes."""
    here = picture.poses[lead]
    tx, ty = picture.funnels[target]
    to_target = bearing(here.x, here.y, tx, ty)
    reach = max(
        (t.range_m for s in _division_ships(picture, lead) for t in picture.classes[s].torpedoes),
        default=0.0,
    )
    if picture.seen_m(lead, target) > reach * LAUNCH_FRACTION:
        return norm360(to_target), "attack"
    if all(
        t.position == "bow"
        for s in _division_ships(picture, lead)
        for t in picture.classes[s].torpedoes
    ):
        return norm360(to_target), "launch"
    options = (norm360(to_target + 90.0), norm360(to_target - 90.0))
    return _nearest_side_heading(here.heading, options), "launch"


#: A lame torpedo craft still presses its attack from within this many torpedo ranges.
LAME_PRESS_RANGES = 3.0


def presses_attack(picture: Picture, ships: Sequence[str], quarry: str) -> bool:
    """Whether a flotilla runs in on ``quarry``: torpedoes left, and not every boat lame unless
    the quarry is already close (:data:`LAME_PRESS_RANGES`)."""
    if not torpedoes_left(picture, ships):
        return False
    if not all(lame(picture.own[s].log) for s in ships):
        return True
    reach = max((t.range_m for s in ships for t in picture.classes[s].torpedoes), default=0.0)
    return min(picture.seen_m(s, quarry) for s in ships) <= LAME_PRESS_RANGES * reach


def _division_ships(picture: Picture, ship: str) -> list[str]:
    for info in picture.view.divisions.values():
        if ship in info["ships"]:
            return [s for s in info["ships"] if s in picture.own]
    return [ship]


def torpedoes_left(picture: Picture, ships: Iterable[str]) -> bool:
    """Whether any of these ships can still launch."""
    return any(
        picture.own[s].log.in_battle
        and any(n > 0 for n in picture.own[s].log.torpedoes_left.values())
        for s in ships
    )


def flotilla_target(picture: Picture, lead: str) -> str | None:
    """The flotilla's quarry: the biggest enemy ship its torpedoes can hurt, nearest first."""
    shallow = any(runs_shallow(picture.classes[s]) for s in _division_ships(picture, lead))
    quarry = [
        c.name for c in picture.targets() if not is_flotilla(c.type) and (shallow or c.size > 4)
    ]
    if not quarry:
        return None
    return min(quarry, key=lambda n: (-picture.enemy[n].size, picture.seen_m(lead, n), n))


def steer_clear(
    picture: Picture,
    ships: Sequence[str],
    wanted: float,
    distance_m: float,
    obstacles: Sequence[tuple[float, float]] | Points,
    radius_m: float = 0.0,
    boxed_in: bool = False,
) -> float:
    """The heading nearest ``wanted`` on which no ship of the division runs within
    :data:`CLEARANCE_M` of an obstacle (other ships' present and expected positions): a division
    steers round its own fleet and the enemy rather than into them (collisions, BF6-MOV). With
    ``boxed_in``, a division that no heading clears takes the one that keeps it farthest from
    the other ships (:func:`~battleline.ai.steering.least_close`) rather than ``wanted``.

    Land (``picture.coast``) comes first: when no heading clears both the ships and the land,
    the division takes the first heading that clears the land alone, and when none does, the
    one that keeps farthest from it (:func:`~battleline.ai.steering.least_close`). See
    :func:`battleline.ai.steering.first_clear`, which does the work."""
    poses = [picture.poses[s] for s in ships]
    coast = picture.coast
    both = np.concatenate([steering.as_points(obstacles), coast]) if len(coast) else obstacles
    found = steering.first_clear(poses, wanted, distance_m, both, radius_m)
    if found is None and len(coast):
        found = steering.first_clear(poses, wanted, distance_m, coast, radius_m)
        if found is None:
            here = steering.as_points([(p.x, p.y) for p in poses])
            gaps = np.hypot(coast[:, None, 0] - here[:, 0], coast[:, None, 1] - here[:, 1])
            near = coast[gaps.min(axis=1) < steering.CLEARANCE_M + distance_m]
            found = steering.least_close(poses, wanted, distance_m, near, radius_m)
    if found is None and boxed_in:
        found = steering.least_close(poses, wanted, distance_m, obstacles, radius_m)
    return wanted if found is None else found


def turn_orders(division: Division, current: float, wanted: float | None, line: bool) -> list[str]:
    """The arrow to draw: turn in succession in line ahead, else turn together (BF6-CMD-05/08).

    Out of line ahead a turn that restores the line is preferred when it costs little (BF6-CMD-10).
    """
    if wanted is None:
        return []
    delta = round(signed_angle(wanted - current))
    in_line = division.formation is Formation.LINE_AHEAD
    if not in_line and line:
        for d in sorted((-135, -90, -45, 45, 90, 135), key=lambda d: abs(d - delta)):
            if abs(d - delta) <= 50 and restores_line_ahead(division.formation, d):
                delta = d
                break
    if abs(delta) < MIN_TURN_DEG:
        return []
    side = "S" if delta > 0 else "P"
    if in_line and line and abs(delta) <= 100 and len(division.ships) > 1:
        return [f"TS{min(abs(delta), 90)}{side}"]
    return [f"TT{min(abs(delta), 180)}{side}"]


def checked_division_orders(
    picture: Picture, division: Division, tokens: list[str], last_moves: Mapping[str, float]
) -> list[str]:
    """The division's orders, dropping the speed and then the turn if the rules refuse them
    (:func:`~battleline.rulesets.bf1900.planning.plan_division_move` is the check).

    The check is a pure function of the orders and the division, so an attempt the same as one
    already refused, or a division the same as one already checked, is not checked again.
    """
    poses = {s: picture.poses[s] for s in division.ships}
    logs = {s: picture.own[s].log for s in division.ships}
    scale = picture.scale
    moves = {
        s: at_box(logs[s], scale, last_moves[s])
        if s in last_moves
        else scale.knots_to_m_per_turn(logs[s].speed_knots)
        for s in division.ships
    }
    candidates = [tokens]
    candidates.append([t for t in tokens if not t.startswith("SPD")])
    candidates.append([t for t in tokens if t.startswith(("SIG", "DROP"))])
    refused: list[list[str]] = []
    for attempt in candidates:
        if attempt in refused:
            continue
        try:
            orders = parse_orders(" ".join(attempt))
            movement = [o for o in orders if o.movement]
            # Checked with every ship listed, as on submission, and without any ship dropping
            # out, as when the move is made.
            moving = division
            for o in orders:
                if isinstance(o, DropOut) and o.ship in moving.ships and o.ship != moving.flagship:
                    moving = moving.without(o.ship)
            for checked in (division,) if moving is division else (division, moving):
                plan_division_move(checked, movement, poses, logs, scale, moves)
            return attempt
        except BattlelineError:
            refused.append(attempt)
    return []


def drop_candidate(picture: Picture, division: Division) -> str:
    """A ship too slow for its line that the rules let drop out (BF6-CMD-16), else ``""``.

    Eligibility (more propulsion hits than the ship astern, AMB-07) must hold both in the
    division as listed now, lost ships included (orders are checked before they are pruned), and
    in the division of ships still in the battle.
    """
    if len(division.ships) < 2:
        return ""
    logs = {s.name: s.log for s in picture.view.own}
    info = picture.view.divisions[division.name]
    listed = Division(division.name, division.side, tuple(info["ships"]), info["flagship"])
    speeds = {s: picture.own[s].log.speed_knots for s in division.ships}
    # The slowest first; measured against the fastest of the rest, so that one ship stopped
    # dead does not keep another lame one in the line.
    for ship in sorted(division.ships, key=lambda s: (speeds[s], s)):
        if ship in (division.flagship, listed.flagship):
            continue
        others = [v for s, v in speeds.items() if s != ship]
        if (
            speeds[ship] < max(others) - 1.5
            and drop_out_eligible(division, ship, logs)
            and drop_out_eligible(listed, ship, logs)
        ):
            return ship
    return ""


__all__ = [
    "CLEARANCE_M",
    "COLLISION_CLEAR_DEG",
    "ENGAGE_FRACTION",
    "LAUNCH_FRACTION",
    "MIN_TURN_DEG",
    "RANGE_BAND",
    "TORPEDO_MARGIN_M",
    "at_box",
    "attack_heading",
    "away_heading",
    "away_side",
    "centroid",
    "checked_division_orders",
    "clear_of_collision",
    "division_of",
    "drop_candidate",
    "drop_side",
    "enemy_torpedo_reach_m",
    "engage_range_m",
    "flotilla_target",
    "flotilla_torpedo_reach_m",
    "line_heading",
    "pinned",
    "predicted_track",
    "presses_attack",
    "speed_order",
    "steer_clear",
    "torpedoes_left",
    "turn_orders",
]
