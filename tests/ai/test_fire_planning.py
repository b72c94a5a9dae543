"""The admiral's fire planning (gunnery, torpedoes, damage control) plans exactly what the
straightforward algorithms it was sped up from plan, on tables from real AI battles.

The ``_reference_*`` functions below are those algorithms as first written: every check of a
new entry, launch or declaration against the whole list kept so far, every sight line and
bearing asked for pair by pair.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from battleline.ai.admiral import FleetAdmiral
from battleline.ai.base import play
from battleline.ai.damage_control import dc_plan, dc_priorities
from battleline.ai.gunnery import (
    _arc_groups,
    allocate_guns,
    fire_plan,
    legal_entries,
    prime_targets,
    target_order,
    threat,
)
from battleline.ai.picture import Picture, build_picture, is_flotilla
from battleline.ai.tactics import LAUNCH_FRACTION
from battleline.ai.torpedoes import (
    CLOSE_M,
    FLOTILLA_LAUNCH_FRACTION,
    launch_plan,
    legal_launches,
)
from battleline.engine.flow import admiral_seed
from battleline.engine.geometry import in_arc
from battleline.errors import BattlelineError
from battleline.game import new_game
from battleline.rulesets.bf1900.arcs import battery_layout, bearing_guns
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.gunnery import GunneryEntry, rounds_per_gun, validate_entries
from battleline.rulesets.bf1900.ship import GunClass
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.torpedoes import (
    TorpedoLaunch,
    bearing_arc,
    runs_shallow,
    validate_launches,
)
from battleline.rulesets.bf1900.view import SideView

# -- the algorithms as first written ---------------------------------------------------------


def _reference_target_order(picture: Picture, firer: str) -> list[str]:
    scale = picture.scale
    out = []
    for c in picture.targets():
        seen = picture.seen_m(firer, c.name)
        if seen > scale.max_range_m * 1.05 or not picture.sight.clear(firer, c.name):
            continue
        out.append((seen / max(threat(picture, firer, c.name), 0.1), c.name))
    out.sort()
    return [n for _, n in out]


def _reference_allocate_guns(
    picture: Picture, firer: str, targets: Sequence[tuple[str, int]]
) -> list[list[tuple[str, int]]]:
    log = picture.own[firer].log
    here = picture.poses[firer]
    thetas = [here.bearing_to(*picture.funnels[t]) for t, _ in targets]
    out: list[list[tuple[str, int]]] = [[] for _ in targets]
    plain = list(range(len(targets)))
    small_first = sorted(plain, key=lambda i: not is_flotilla(picture.enemy[targets[i][0]].type))
    for mount in log.cls.mountings:
        if mount.rof < 1 and mount.key in log.rof_half_fired_last_turn:
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
        marks = log.batteries[mount.key]
        counts = [0] * len(targets)
        for gun in battery_layout(mount):
            if gun.index >= len(marks) or marks[gun.index] is not Mark.NONE:
                continue
            for i in order:
                bracket = targets[i][1]
                if mount.penetration[bracket - 1] is not None and in_arc(thetas[i], *gun.arc):
                    counts[i] += 1
                    break
        for i, n in enumerate(counts):
            if n:
                out[i].append((mount.key, n * rounds_per_gun(mount, targets[i][1])))
    return out


def _reference_legal_entries(
    picture: Picture, entries: Sequence[GunneryEntry]
) -> list[GunneryEntry]:
    kept: list[GunneryEntry] = []
    for e in entries:
        try:
            validate_entries([*kept, e], picture.poses, picture.logs, picture.scale, picture.sight)
        except BattlelineError:
            continue
        kept.append(e)
    return kept


def _reference_legal_launches(
    picture: Picture, launches: Sequence[TorpedoLaunch]
) -> list[TorpedoLaunch]:
    kept: list[TorpedoLaunch] = []
    for launch in launches:
        for attempt in (launch, TorpedoLaunch(launch.firer, launch.mount, launch.target, 1)):
            try:
                validate_launches([*kept, attempt], picture.poses, picture.logs, picture.scale, ())
            except BattlelineError:
                continue
            kept.append(attempt)
            break
    return kept


def _reference_launch_plan(picture: Picture, eye: Callable[[float], float]) -> list[TorpedoLaunch]:
    launches: list[TorpedoLaunch] = []
    for ship in picture.able():
        log = ship.log
        shallow = runs_shallow(log.cls)
        targets = sorted(
            (c for c in picture.targets() if shallow or c.size > 4),
            key=lambda c: (-c.size, picture.seen_m(ship.name, c.name), c.name),
        )
        for mount in log.cls.torpedoes:
            left = log.torpedoes_left.get(mount.key, 0)
            if left <= 0:
                continue
            for c in targets:
                there = picture.poses[c.name]
                if bearing_arc(mount, ship.pose.bearing_to(there.x, there.y)) is None:
                    continue
                flotilla = is_flotilla(ship.type)
                share = FLOTILLA_LAUNCH_FRACTION if flotilla else LAUNCH_FRACTION
                reach = mount.range_m * share if flotilla else min(mount.range_m * share, CLOSE_M)
                if eye(ship.pose.distance_to(there)) > reach:
                    continue
                if mount.position == "beam":
                    count = math.ceil(mount.tubes / 2) if flotilla else 1
                else:
                    count = left if flotilla else 1
                launches.append(TorpedoLaunch(ship.name, mount.key, c.name, min(count, left)))
                break
    return _reference_legal_launches(picture, launches)


def _reference_dc_plan(log: ShipLog) -> list[DCDeclaration]:
    if not log.in_battle or log.dc_dice <= 0:
        return []
    kept: list[DCDeclaration] = []
    for decl in dc_priorities(log):
        if len(kept) >= log.dc_dice:
            break
        try:
            validate_declarations(log, [*kept, decl])
        except BattlelineError:
            continue
        kept.append(decl)
    return kept


# -- tables from real battles ------------------------------------------------------------------


class _Watcher:
    """A :class:`FleetAdmiral` that keeps every view it is handed."""

    def __init__(
        self, side: str, seed: np.random.SeedSequence, seen: list[tuple[str, SideView]]
    ) -> None:
        self.inner = FleetAdmiral(side, seed)
        self.seen = seen

    def orders(self, view: SideView, phase: str) -> list[str]:
        self.seen.append((phase, view))
        return self.inner.orders(view, phase)


@cache
def _views(phase: str) -> tuple[SideView, ...]:
    """Every view handed to an admiral in ``phase`` of two short AI battles (destroyers running
    in on a battle line; two cruisers)."""
    out: list[SideView] = []
    for scenario, seed in (("destroyer-attack", 4), ("cruiser-duel", 2)):
        game = new_game(scenario, seed)
        seen: list[tuple[str, SideView]] = []
        admirals = {
            s: _Watcher(s, admiral_seed(game.state.seed, i), seen)
            for i, s in enumerate(game.state.sides)
        }
        play(game, dict(admirals))
        out += [v for p, v in seen if p == phase]
    return tuple(out)


def _picture(phase: str, index: int) -> Picture:
    """A fresh picture (with empty sight-line caches) of one recorded view."""
    views = _views(phase)
    return build_picture(views[index % len(views)])


def _true_range(firer: str, target: str, seen: float) -> float:
    return seen


def _entry_pool(picture: Picture) -> list[GunneryEntry]:
    """Entries the admiral would write, and ones the rules refuse: doubled rounds
    (BF6-ROF-06/07), a second estimate for a target (BF6-TGT-02), beyond range (BF6-GUN-04),
    a ship firing at itself (BF6-TGT-01), guns that do not bear (BF6-POS)."""
    pool: list[GunneryEntry] = []
    for ship in picture.able():
        for target in [*target_order(picture, ship.name), None]:
            pool += fire_plan(picture, ship.name, target, _true_range)
    extra: list[GunneryEntry] = []
    for e in pool:
        extra.append(dataclasses.replace(e, rounds=tuple((k, 2 * n) for k, n in e.rounds)))
        extra.append(dataclasses.replace(e, estimate_m=e.estimate_m + 150.0))
        extra.append(dataclasses.replace(e, estimate_m=99_000.0))
        extra.append(dataclasses.replace(e, target=e.firer))
        for other in picture.enemy:
            extra.append(dataclasses.replace(e, target=other))
    return pool + extra


# -- gunnery ---------------------------------------------------------------------------------


def test_the_recorded_battles_give_tables_to_plan_on() -> None:
    assert len(_views("gunnery")) >= 20
    assert len(_views("torpedo")) >= 20
    assert any(_entry_pool(build_picture(v)) for v in _views("gunnery"))


@given(st.integers(min_value=0, max_value=10_000), st.booleans())
def test_target_order_is_the_pair_by_pair_order(index: int, primed: bool) -> None:
    """Targets in range and sight (BF6-LOS-01/02), nearest by threat first: the same whether
    sight lines are asked for at once, firer by firer (:func:`prime_targets`) or pair by pair."""
    picture = _picture("gunnery", index)
    reference = {s: _reference_target_order(_picture("gunnery", index), s) for s in picture.own}
    if primed:
        prime_targets(picture)
    assert {s: target_order(picture, s) for s in picture.own} == reference


@given(
    st.integers(min_value=0, max_value=10_000),
    st.lists(st.integers(min_value=1, max_value=4), min_size=1, max_size=3),
)
def test_BF6_ROF_07_allocate_guns_is_the_gun_by_gun_allocation(
    index: int, brackets: list[int]
) -> None:
    """Each battery gun fires at the first target in its own arc (BF6-ROF-07), a position's whole
    salvo at one target (BF6-ROF-06), ROF 2 only in brackets 1-2 (BF6-ROF-05): worked out once
    per arc, the same as gun by gun."""
    picture = _picture("gunnery", index)
    enemies = list(picture.enemy)
    for ship in picture.able():
        order = target_order(picture, ship.name) + enemies
        targets = [(t, b) for t, b in zip(order, brackets, strict=False)]
        assert allocate_guns(picture, ship.name, targets) == _reference_allocate_guns(
            picture, ship.name, targets
        )


def test_BF6_BEAM_01_arc_groups_hold_every_battery_gun_once() -> None:
    """A battery's guns grouped by arc (BF6-BEAM-01..04): every gun of :func:`battery_layout`
    once, under its own arc, no arc twice."""
    mounts = {
        m
        for v in _views("gunnery")
        for s in v.own
        for m in s.log.cls.mountings
        if not m.is_lettered
    }
    assert mounts
    for mount in mounts:
        groups = _arc_groups(mount)
        assert len({arc for arc, _ in groups}) == len(groups)
        placed = sorted((g, arc) for arc, indices in groups for g in indices)
        assert placed == [(gun.index, gun.arc) for gun in battery_layout(mount)]


@given(st.integers(min_value=0, max_value=10_000), st.data())
def test_BF6_TGT_02_legal_entries_keeps_what_the_whole_log_check_keeps(
    index: int, data: st.DataObject
) -> None:
    """Checking a new entry with its own firer's kept entries keeps exactly what checking it with
    the whole log kept so far keeps: one estimate per target (BF6-TGT-02), whole salvos and ROF
    (BF6-ROF-06, BF6-ROF-07), range (BF6-GUN-04)."""
    picture = _picture("gunnery", index)
    pool = _entry_pool(picture)
    if not pool:
        return
    entries = data.draw(st.lists(st.sampled_from(pool), max_size=30))
    assert legal_entries(picture, entries) == _reference_legal_entries(picture, entries)


def test_BF6_TGT_02_a_second_estimate_for_the_same_target_is_dropped() -> None:
    """Every view's own plan, written twice: the second copy of each entry is refused
    (BF6-TGT-02), the first kept exactly as the whole-log check keeps it."""
    dropped = 0
    for v in _views("gunnery")[:40]:
        picture = build_picture(v)
        plan = [e for s in picture.able() for e in fire_plan(picture, s.name, None, _true_range)]
        kept = legal_entries(picture, plan + plan)
        assert kept == _reference_legal_entries(picture, plan + plan)
        assert kept == legal_entries(picture, plan)
        dropped += len(plan)
    assert dropped > 0


# -- torpedoes -------------------------------------------------------------------------------


def _launch_pool(picture: Picture) -> list[TorpedoLaunch]:
    """Every launch the rules accept on its own (one torpedo to all tubes, from every mount at
    every target), then as many refused ones: at own ships, from a mount the ship has not got."""
    good: list[TorpedoLaunch] = []
    bad: list[TorpedoLaunch] = []
    for ship in picture.own.values():
        for mount in ship.log.cls.torpedoes:
            for target in [*picture.enemy, ship.name]:
                for count in range(1, mount.tubes + 1):
                    launch = TorpedoLaunch(ship.name, mount.key, target, count)
                    try:
                        validate_launches([launch], picture.poses, picture.logs, picture.scale, ())
                    except BattlelineError:
                        bad.append(launch)
                    else:
                        good.append(launch)
        if ship.log.cls.torpedoes:
            bad.append(TorpedoLaunch(ship.name, "nowhere", next(iter(picture.enemy)), 1))
    return good + bad[: len(good)]


@cache
def _launch_tables() -> tuple[int, ...]:
    """The torpedo-phase views in which some launch is possible."""
    views = _views("torpedo")
    return tuple(i for i in range(len(views)) if _launch_pool(build_picture(views[i])))


def test_some_recorded_tables_allow_launches() -> None:
    assert len(_launch_tables()) >= 3


@given(st.integers(min_value=0, max_value=10_000), st.data())
def test_BF6_TORP_03_legal_launches_keeps_what_the_whole_list_check_keeps(
    index: int, data: st.DataObject
) -> None:
    """Tubes and beam sides are shared only by one firer's launches (BF6-TORP-03, BF6-BEAM-05),
    so checking each with its own firer's kept launches keeps what the whole list keeps."""
    tables = _launch_tables()
    picture = _picture("torpedo", tables[index % len(tables)])
    pool = _launch_pool(picture)
    launches = data.draw(st.lists(st.sampled_from(pool), max_size=25))
    assert legal_launches(picture, launches) == _reference_legal_launches(picture, launches)


@given(
    st.integers(min_value=0, max_value=10_000),
    st.lists(st.floats(min_value=0.05, max_value=3.0), min_size=1, max_size=50),
)
def test_BF6_TORP_09_launch_plan_asks_the_eye_the_same_questions(
    index: int, factors: list[float]
) -> None:
    """Same launches, and the eye (the admiral's random judgement of range) asked about the same
    ranges in the same order, so the admiral's generator is drawn from exactly as before."""
    picture = _picture("torpedo", index)

    def eye_from(asked: list[float]) -> Callable[[float], float]:
        def eye(seen: float) -> float:
            asked.append(seen)
            return seen * factors[len(asked) % len(factors)]

        return eye

    mine: list[float] = []
    theirs: list[float] = []
    assert launch_plan(picture, eye_from(mine)) == _reference_launch_plan(picture, eye_from(theirs))
    assert mine == theirs


def test_BF6_TORP_02_launch_plan_launches_in_the_recorded_battles() -> None:
    """The comparison above is not empty: judging ranges true, destroyers find targets."""
    launches = [
        launch
        for i in range(len(_views("torpedo")))
        for launch in launch_plan(_picture("torpedo", i), lambda seen: seen)
    ]
    assert launches


# -- damage control --------------------------------------------------------------------------


def test_BF6_DC_04_dc_plan_is_the_one_by_one_plan_within_the_dice() -> None:
    """Within the ship's DC dice (BF6-DC-04), one die per damage event (BF6-DC-02): the same
    declarations as counting the dice again for every declaration."""
    logs = [s.log for v in _views("damage") for s in v.own]
    damaged = [log for log in logs if dc_priorities(log)]
    assert damaged
    for log in logs:
        assert dc_plan(log) == _reference_dc_plan(log)
