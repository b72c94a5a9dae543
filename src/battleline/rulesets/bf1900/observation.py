"""What a side sees of the enemy: each ship in sight, where she appears to be (issue 11, §4).

A digital adaptation, not a rule of the seeds (``docs/observation.md``): on the tabletop a player
judges every range by eye before it is measured (BF6-GUN-02, BF6-MEAS-01), so a side's view must
not hand him the enemy's exact coordinates to compute it from. :func:`contacts_for` gives a side

* only the enemy ships that at least one of its ships afloat can see: a sight line funnel to
  funnel that crosses no land (BF6-LOS-01, BF6-LOS-02; another ship's base hides a target from
  the guns, not from view, see :func:`sighted`) and, when the scenario sets ``visibility_m``,
  no longer than that;
* each of them where the side's nearest ship that sees her judges her to be: bearing and heading
  near-exact, the range off by a relative error that grows with range and with poor visibility
  and shrinks with the side's crew quality (scenario ``gunnery``; the spreads are the data file
  ``data/observation.toml``, read by :mod:`~battleline.rulesets.bf1900.observation_model`).

The error is ``bias + z_sys × sd_sys(range) + z_turn × sd_jit(range)``: ``z_sys`` is drawn once a
game for each (observing side, ship), the side's lasting misjudgement of her that its splashes
let it correct; ``z_turn`` (with the bearing and heading errors) afresh each turn, so within one
turn every phase and every repeated view shows the same error, however the ships move. Both
come from the game seed through :func:`~battleline.engine.dice.keyed_normals`, so replay
reproduces them, and never from the game's dice, whose rolls they leave untouched. The
scenario option ``observed_positions`` (default on) switches the model off: every enemy afloat
in view at her exact pose, as on a tabletop.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass
from functools import cache, lru_cache

from battleline.engine.dice import keyed_normals
from battleline.engine.geometry import Pose, norm360
from battleline.rulesets.bf1900.observation_model import Eye, ObservationModel, load_observation
from battleline.rulesets.bf1900.outward import Signs
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.ship import ShipType
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.table import FUNNEL_FRACTION, Land, Obstacles, funnel_point

#: The scenario option that switches the model (default on).
OPTION = "observed_positions"


@dataclass(frozen=True, slots=True)
class Contact:
    """An enemy ship as seen: identity, apparent pose, and what shows from outside.

    ``observer`` is the side's own ship she is seen from (the nearest that sees her), ``None``
    when the observation model is off; ``observed`` tells whether ``pose`` is an observation
    (True) or the exact pose (False).
    """

    name: str
    cls: str
    type: str
    size: int
    pose: Pose
    fires: bool
    sinking: bool
    surrendered: bool
    observer: str | None = None
    observed: bool = False
    stopped: bool = False  # dead in the water, as anyone watching her sees
    listing: bool = False  # a heavy list (uneven flooding) shows too


# -- sight -----------------------------------------------------------------------------------


def observing(state: Bf1900State) -> bool:
    """Whether the game's scenario plays with observed positions (option ``observed_positions``,
    default on)."""
    return get_scenario(state.scenario).option(OPTION, True)


@lru_cache(maxsize=64)
def _coasts(scenario: str) -> Obstacles | None:
    """The scenario's land as sight-line obstacles (no ships); ``None`` without land."""
    pieces = [Land.from_coords(p.name, p.points) for p in get_scenario(scenario).land]
    return Obstacles({}, pieces) if pieces else None


#: One ship afloat as sight reads her: name, side, pose (x, y, heading) and base length, metres.
#: Plain numbers, so that a key made of them hashes without calling back into Python.
Afloat = tuple[str, str, float, float, float, float]


def afloat_ships(state: Bf1900State) -> tuple[Afloat, ...]:
    """Every ship afloat (sinking ones too), in scenario order, as sight reads her: all that
    :func:`sighted` and :func:`contacts_for` know of the table besides the scenario."""
    from battleline.rulesets.bf1900.ruleset import scale_of

    scale = scale_of(state)
    poses = state.poses
    # A base's size depends on the ship type alone (Scale.base_size_m): one look-up a type.
    by_type: dict[ShipType, float] = {}
    out: list[Afloat] = []
    for n, log in state.logs.items():
        if log.sunk:
            continue
        kind = log.cls.type
        length = by_type.get(kind)
        if length is None:
            length = by_type[kind] = scale.base_size_m(log.cls)[0]
        pose = poses[n]
        out.append((n, log.side, pose.x, pose.y, pose.heading, length))
    return tuple(out)


def sighted(state: Bf1900State, side: str) -> dict[str, str]:
    """The enemy ships afloat that ``side`` can see, each with the own ship she is seen from:
    the nearest (funnel to funnel) whose sight line, drawn as BF6-LOS-01 draws it, crosses no
    land (BF6-LOS-02), within the scenario's ``visibility_m`` (or the enemy side's nearer
    ``seen_at_m``). In scenario order.

    Another ship's base in the way hides a target from the guns (BF6-LOS-02, checked when the
    gunnery log is) but not from view: her masts and smoke still show, and torpedoes may be
    launched at her (BF6-TORP-04), which presumes she is seen."""
    return dict(_sight(state.scenario, afloat_ships(state), side).seen)


def watchers(state: Bf1900State, ships: Collection[str]) -> dict[str, tuple[str, ...]]:
    """For each of ``ships``, the other sides that can see her (:func:`sighted`), in side order:
    who sees a torpedo launch from her (issue 11, §3). With observed positions off, every other
    side, as on a tabletop."""
    by_side: dict[str, dict[str, str]] = {}
    out: dict[str, tuple[str, ...]] = {}
    for ship in ships:
        own = state.logs[ship].side
        seeing: list[str] = []
        for side in state.sides:
            if side == own:
                continue
            if observing(state):
                if side not in by_side:
                    by_side[side] = sighted(state, side)
                if ship not in by_side[side]:
                    continue
            seeing.append(side)
        out[ship] = tuple(seeing)
    return out


@dataclass(frozen=True, slots=True)
class _Sight:
    """What :func:`_sight` found: ``seen`` (target → observer, scenario order), and the forward
    funnel and base length of every ship it looked at. Shared by every caller asking about the
    same table: never changed after it is built."""

    seen: dict[str, str]
    funnels: dict[str, tuple[float, float]]
    lengths: dict[str, float]


@lru_cache(maxsize=32)
def _sight(scenario: str, ships: tuple[Afloat, ...], side: str) -> _Sight:
    """:func:`sighted` for the ships afloat ``ships`` (:func:`afloat_ships`) on the scenario's
    table.

    A pure function of immutable arguments, so cached: a phase's views, the admirals' views
    and the umpire's "not in sight" checks all ask about the same table, which changes only
    when ships move or sink (and then it is another key).
    """
    own_names = [ship[0] for ship in ships if ship[1] == side]
    enemy = [ship[0] for ship in ships if ship[1] != side]
    if not own_names or not enemy:
        return _Sight({}, {}, {})
    lengths = {n: length for n, _, _, _, _, length in ships}
    funnels = {n: funnel_point(Pose(x, y, h), length) for n, _, x, y, h, length in ships}
    # The enemy is one side; unlit ships may be seen only nearer (``[[sides]] seen_at_m``).
    enemy_side = next(ship[1] for ship in ships if ship[1] != side)
    limit = get_scenario(scenario).seen_limit(enemy_side)
    coasts = _coasts(scenario)
    own_funnels = [funnels[n] for n in own_names]
    hypot = math.hypot
    # Each target's nearest own ship first (ties to the earlier in scenario order), then the
    # sight lines of all those pairs in one batched query; only a target land hides from her
    # nearest ship has the rest of the side ranked, nearest first.
    nearest: list[tuple[str, tuple[float, float], list[tuple[float, int]], int]] = []
    for target in enemy:
        tx, ty = funnels[target]
        dists = [(hypot(fx - tx, fy - ty), i) for i, (fx, fy) in enumerate(own_funnels)]
        d, i = min(dists)
        if limit is None or d <= limit:
            nearest.append((target, (tx, ty), dists, i))
    if coasts is None:
        return _Sight({target: own_names[i] for target, _, _, i in nearest}, funnels, lengths)
    found = coasts.blockers_of_segments([(own_funnels[i], t) for _, t, _, i in nearest])
    out: dict[str, str] = {}
    for (target, t, dists, i), blockers in zip(nearest, found, strict=True):
        if not blockers:
            out[target] = own_names[i]
            continue
        for d, j in sorted(dists)[1:]:
            if limit is not None and d > limit:
                break
            if not coasts.blockers_of_segment(own_funnels[j], t):
                out[target] = own_names[j]
                break
    return _Sight(out, funnels, lengths)


# -- observed poses --------------------------------------------------------------------------


def side_skill(state: Bf1900State, side: str) -> str | None:
    """The side's crew quality from the scenario (``[[sides]] gunnery``), if set."""
    gunnery = state.extra.get("doctrine", {}).get(side, {}).get("gunnery")
    return None if gunnery is None else str(gunnery)


def observation_draws(seed: int, side: str, ship: str, turn: int) -> tuple[float, ...]:
    """The standard normal draws of one observation: ``(z_sys, z_turn, z_bearing, z_heading)``.
    ``z_sys`` depends on the game, side and ship only; the others on the turn too."""
    (z_sys,) = keyed_normals(seed, ("observation", "lasting", side, ship), 1)
    return (z_sys, *keyed_normals(seed, ("observation", side, ship, turn), 3))


def observed_pose(
    model: ObservationModel,
    eye: Eye,
    true_pose: Pose,
    length_m: float,
    observer_funnel: tuple[float, float],
    draws: tuple[float, ...],
    visibility_m: float | None = None,
) -> Pose:
    """Where a ship appears from ``observer_funnel``: her forward funnel on the bearing (off by
    ``z_bearing`` × ``bearing_sd_deg``) at the range × :meth:`ObservationModel.factor`, her
    heading off by ``z_heading`` × ``heading_sd_deg``; the pose is placed so that its funnel
    lies there. Range from the observer to the apparent funnel = factor × true range, exactly."""
    z_sys, z_turn, z_bearing, z_heading = draws
    tx, ty = funnel_point(true_pose, length_m)
    ox, oy = observer_funnel
    dist = math.hypot(tx - ox, ty - oy)
    bearing = math.atan2(tx - ox, ty - oy) + math.radians(z_bearing * model.bearing_sd_deg)
    seen = dist * model.factor(eye, dist, z_sys, z_turn, visibility_m)
    fx, fy = ox + math.sin(bearing) * seen, oy + math.cos(bearing) * seen
    heading = norm360(true_pose.heading + z_heading * model.heading_sd_deg)
    hr, ahead = math.radians(heading), FUNNEL_FRACTION * length_m
    return Pose(fx - math.sin(hr) * ahead, fy - math.cos(hr) * ahead, heading)


@lru_cache(maxsize=32)
def _observed(
    scenario: str,
    ships: tuple[Afloat, ...],
    side: str,
    seed: int,
    turn: int,
    skill: str | None,
) -> tuple[tuple[str, str, Pose], ...]:
    """``(name, observer, apparent pose)`` of every enemy ship ``side`` sees on this table, in
    scenario order: the poses of :func:`contacts_for`. A pure function of immutable arguments
    (the draws depend on the seed, side, ship and turn alone), so cached: every view of a
    side in one phase, and in the phases of a turn where nothing moves or sinks, shares it."""
    sight = _sight(scenario, ships, side)
    if not sight.seen:
        return ()
    model = load_observation()
    eye = model.eye(skill)
    limit = get_scenario(scenario).visibility_m
    poses = {n: Pose(x, y, h) for n, _, x, y, h, _ in ships if n in sight.seen}
    out: list[tuple[str, str, Pose]] = []
    for name, observer in sight.seen.items():
        draws = observation_draws(seed, side, name, turn)
        pose = observed_pose(
            model, eye, poses[name], sight.lengths[name], sight.funnels[observer], draws, limit
        )
        out.append((name, observer, pose))
    return tuple(out)


def contacts_for(state: Bf1900State, side: str) -> tuple[Contact, ...]:
    """The enemy ships ``side`` sees, in scenario order, each where she appears to be.

    With the scenario option ``observed_positions`` off: every enemy ship afloat, exact.
    """
    shows: list[Shows] = []
    for name, log in state.logs.items():
        if log.side != side and not log.sunk:
            burning, stopped, listing, sinking, _, struck = Signs.of(log)
            cls = log.cls
            kind = _type_name(cls.type)
            shows.append(
                (name, cls.name, kind, cls.size, burning, sinking, struck, stopped, listing)
            )
    if not observing(state):
        return tuple(_contact(s, state.poses[s[0]], None, False) for s in shows)
    return _contacts(
        state.scenario,
        afloat_ships(state),
        side,
        state.seed,
        state.turn,
        side_skill(state, side),
        tuple(shows),
    )


#: One enemy ship's outward signs for :func:`_contacts`: name, class name, type, size, and (her
#: :class:`~.outward.Signs`) whether she shows smoke and flame, is sinking, has struck, has
#: stopped, lists (an internal fire does not show).
Shows = tuple[str, str, str, int, bool, bool, bool, bool, bool]


@cache
def _type_name(kind: ShipType) -> str:
    """A ship type's name (``kind.value``, read once per type: an enum's ``value`` is a Python
    property)."""
    return kind.value


def _contact(shows: Shows, pose: Pose, observer: str | None, observed: bool) -> Contact:
    name, cls, kind, size, fires, sinking, struck, stopped, listing = shows
    return Contact(
        name, cls, kind, size, pose, fires, sinking, struck, observer, observed, stopped, listing
    )


@lru_cache(maxsize=32)
def _contacts(
    scenario: str,
    ships: tuple[Afloat, ...],
    side: str,
    seed: int,
    turn: int,
    skill: str | None,
    shows: tuple[Shows, ...],
) -> tuple[Contact, ...]:
    """:func:`contacts_for` from immutable values alone (the table, the draws' keys and each
    enemy ship's outward signs), so cached: the contacts are frozen, and every view of a side
    until something moves, sinks, burns or strikes hands out the same ones."""
    signs = {s[0]: s for s in shows}
    return tuple(
        _contact(signs[name], pose, observer, True)
        for name, observer, pose in _observed(scenario, ships, side, seed, turn, skill)
    )


__all__ = [
    "OPTION",
    "Afloat",
    "Contact",
    "Eye",
    "ObservationModel",
    "afloat_ships",
    "contacts_for",
    "load_observation",
    "observation_draws",
    "observed_pose",
    "observing",
    "side_skill",
    "sighted",
    "watchers",
]
