"""The admiral's gunnery log: targets, gun allocation and ammunition (BF6-GUN, BF6-TGT, BF6-ROF).

Each division concentrates on one target; guns that cannot bear on it take the next best; AP
where its penetration beats the target's vitals armour. Reads only the admiral's
:class:`~battleline.ai.picture.Picture`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from battleline.ai.picture import Picture, is_flotilla, per_picture
from battleline.engine.geometry import in_arc
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.arcs import Arc, battery_layout, bearing_guns
from battleline.rulesets.bf1900.gunnery import GunneryEntry, rounds_per_gun, validate_entries
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.view import Contact


def threat(picture: Picture, firer: str, target: str) -> float:
    """How much a target matters to a firer: big ships by size, torpedo craft when close."""
    return _weight(picture, picture.enemy[target], picture.seen_m(firer, target))


def _weight(picture: Picture, contact: Contact, seen: float) -> float:
    """:func:`threat` of ``contact`` seen ``seen`` metres away."""
    weight = contact.size / 10.0
    if is_flotilla(contact.type) and seen < 2.0 * picture.scale.bracket_m:
        weight += 1.0
    return weight


def _in_reach(picture: Picture, firer: str) -> tuple[tuple[Contact, float], ...]:
    """The targets within gun range of ``firer`` (with a 5 % margin), each with its seen range
    (:meth:`Picture.seen_m`)."""
    return _reach_of_every_ship(picture)[firer]


@per_picture
def _reach_of_every_ship(picture: Picture) -> dict[str, tuple[tuple[Contact, float], ...]]:
    """:func:`_in_reach` of every own ship afloat, worked out once per picture: the plan asks
    it of each ship two or three times (priming the sight lines, the division's spotter, the
    ship's own fire plan)."""
    reach = picture.scale.max_range_m * 1.05
    targets = [(c, picture.funnels[c.name]) for c in picture.targets()]
    out: dict[str, tuple[tuple[Contact, float], ...]] = {}
    for firer in picture.own:
        here = picture.funnels[firer]
        seen = [(c, math.dist(here, there)) for c, there in targets]
        out[firer] = tuple((c, d) for c, d in seen if not d > reach)
    return out


def prime_targets(picture: Picture) -> None:
    """Ask the sight lines from every own ship in the battle to every target in its reach in one
    vectorised query (BF6-LOS-01/02), before the gunnery log is planned.

    Optional: :func:`target_order` asks for what it needs itself, firer by firer. This only fills
    the picture's own :class:`~battleline.rulesets.bf1900.los.SightLines` cache, whose answers
    are exact per pair whichever way they are asked, so no plan changes.
    """
    picture.sight.prime(
        (ship.name, c.name) for ship in picture.able() for c, _ in _in_reach(picture, ship.name)
    )


def target_order(picture: Picture, firer: str) -> list[str]:
    """Visible targets for ``firer``, best first: nearest weighted by threat, in range and sight.

    The sight lines to every target within range are asked for in one vectorised query
    (:meth:`SightLines.prime`, which only fills the picture's own cache of exact answers).
    """
    near = _in_reach(picture, firer)
    sight = picture.sight
    sight.prime((firer, c.name) for c, _ in near)
    out = [
        (seen / max(_weight(picture, c, seen), 0.1), c.name)
        for c, seen in near
        if sight.clear(firer, c.name)
    ]
    out.sort()
    return [n for _, n in out]


def choose_ammo(picture: Picture, firer: str, target: str, bracket: int) -> Ammo:
    """AP against an armoured target where the main guns' penetration beats its vitals armour."""
    armour = picture.classes[target].armour_vitals
    if armour <= 0:
        return Ammo.HE
    mains = [m for m in picture.classes[firer].mountings if m.gun_class is GunClass.MAIN]
    pens = [m.penetration[bracket - 1] for m in mains]
    best = max((p for p in pens if p is not None), default=0)
    return Ammo.AP if best >= armour else Ammo.HE


def _ready(log: ShipLog, mount: Mounting) -> bool:
    return not (mount.rof < 1 and mount.key in log.rof_half_fired_last_turn)


def allocate_guns(
    picture: Picture, firer: str, targets: Sequence[tuple[str, int]]
) -> list[list[tuple[str, int]]]:
    """Rounds per mounting for each (target, bracket), first target served first, except that
    light guns (secondary, tertiary, boat) serve a torpedo craft first: the big guns for the
    battle line, the quick-firers against the destroyers.

    A lettered position fires whole salvos at one target (BF6-ROF-06); each gun of a battery
    fires at the first target in its own arc (BF6-ROF-07); ROF 2 only in brackets 1–2 (BF6-ROF-05).
    """
    log = picture.own[firer].log
    here = picture.poses[firer]
    thetas = [here.bearing_to(*picture.funnels[t]) for t, _ in targets]
    out: list[list[tuple[str, int]]] = [[] for _ in targets]
    plain = list(range(len(targets)))
    small_first = sorted(plain, key=lambda i: not is_flotilla(picture.enemy[targets[i][0]].type))
    for mount in log.cls.mountings:
        if not _ready(log, mount):
            continue
        order = plain if mount.gun_class is GunClass.MAIN else small_first
        if mount.is_lettered:
            for i in order:
                bracket = targets[i][1]
                if mount.penetration[bracket - 1] is None:
                    continue
                guns = bearing_guns(log, mount, thetas[i]).guns
                if guns:
                    out[i].append((mount.key, guns * rounds_per_gun(mount, bracket)))
                    break
            continue
        counts = _battery_counts(log, mount, order, targets, thetas)
        for i, n in enumerate(counts):
            if n:
                out[i].append((mount.key, n * rounds_per_gun(mount, targets[i][1])))
    return out


@lru_cache(maxsize=1024)
def _arc_groups(mount: Mounting) -> tuple[tuple[Arc, tuple[int, ...]], ...]:
    """A battery's guns grouped by arc: each distinct arc with the log box indices of its guns,
    in :func:`battery_layout` order. Cached: a mounting is frozen."""
    groups: dict[Arc, list[int]] = {}
    for gun in battery_layout(mount):
        groups.setdefault(gun.arc, []).append(gun.index)
    return tuple((arc, tuple(indices)) for arc, indices in groups.items())


def _battery_counts(
    log: ShipLog,
    mount: Mounting,
    order: Sequence[int],
    targets: Sequence[tuple[str, int]],
    thetas: Sequence[float],
) -> list[int]:
    """Guns in action of a battery per target: for each target index, how many guns pick it as
    the first target in ``order`` within their arc and reach (BF6-ROF-07).

    Guns sharing an arc make the same choice, so it is worked out once per distinct arc
    (:func:`_arc_groups`) and counted for every gun of the arc still in action.
    """
    marks = log.batteries[mount.key]
    boxes = len(marks)
    counts = [0] * len(targets)
    for arc, indices in _arc_groups(mount):
        ready = 0
        for g in indices:
            if g < boxes and marks[g] is Mark.NONE:
                ready += 1
        if not ready:
            continue
        for i in order:
            if mount.penetration[targets[i][1] - 1] is not None and in_arc(thetas[i], *arc):
                counts[i] += ready
                break
    return counts


def fire_plan(
    picture: Picture,
    firer: str,
    preferred: str | None,
    estimate: Callable[[str, str, float], float],
) -> list[GunneryEntry]:
    """Up to two gunnery entries for one ship: the division's target, then the best other."""
    order = target_order(picture, firer)
    if preferred in order:
        order.remove(preferred)
        order.insert(0, preferred)
    elif not is_flotilla(picture.own[firer].type):
        # No division target in sight: a big ship's first target is the nearest big ship.
        big = [t for t in order if not is_flotilla(picture.enemy[t].type)]
        order = big[:1] + [t for t in order if t not in big[:1]]
    chosen: list[tuple[str, int, float]] = []
    for target in order[:3]:
        est = estimate(firer, target, picture.seen_m(firer, target))
        bracket = picture.scale.bracket(est)
        if bracket is None:
            continue
        chosen.append((target, bracket, est))
        if len(chosen) == 2:
            break
    if not chosen:
        return []
    rounds = allocate_guns(picture, firer, [(t, b) for t, b, _ in chosen])
    entries = []
    for (target, bracket, est), r in zip(chosen, rounds, strict=True):
        if r:
            ammo = choose_ammo(picture, firer, target, bracket)
            entries.append(GunneryEntry(firer, target, est, ammo, tuple(r), picture.view.side))
    return entries


def legal_entries(picture: Picture, entries: Sequence[GunneryEntry]) -> list[GunneryEntry]:
    """The entries the rules accept on the table as the admiral sees it (greedy, in order).

    Each entry is checked together with the entries already kept *for the same firer* only:
    :func:`validate_entries` checks every entry on its own and then each firer's entries
    together (one estimate per target, ROF, split fire), so other firers' kept entries, which
    passed before, cannot make it fail. The result is the one the whole list ``[*kept, e]``
    would give, without re-checking every ship's entries for every new entry.

    A list the rules accept as a whole is kept whole, after one check: each firer's checks are
    limits (guns, salvos and rounds that bear) and one entry per target, so every beginning of
    a firer's accepted entries is accepted too, and the greedy pass would keep every entry.
    """
    try:
        validate_entries(entries, picture.poses, picture.logs, picture.scale, picture.sight)
    except BattlelineError:
        pass
    else:
        return list(entries)
    kept: list[GunneryEntry] = []
    by_firer: dict[str, list[GunneryEntry]] = {}
    for e in entries:
        mine = by_firer.setdefault(e.firer, [])
        try:
            validate_entries([*mine, e], picture.poses, picture.logs, picture.scale, picture.sight)
        except BattlelineError:
            continue
        mine.append(e)
        kept.append(e)
    return kept


__all__ = [
    "allocate_guns",
    "choose_ammo",
    "fire_plan",
    "legal_entries",
    "prime_targets",
    "target_order",
    "threat",
]
