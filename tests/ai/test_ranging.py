"""The range-estimation error model: spreads by skill and range, walking the splashes, and hit
rates that fall with range when the estimates are measured by the gunnery rules (BF6-GUN-02,
BF6-MEAS-01..04, BF6-DZ-01..03)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from battleline.ai.ranging import SKILLS, Fall, RangeKeeper, fall_of, get_skill
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.gunnery import GunneryEntry, measure
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.table import funnel_point

RANGES = (2000.0, 4500.0, 7000.0, 9500.0)


def first_errors(skill: str, seen: float, n: int = 400, seed: int = 7) -> np.ndarray:
    """Relative errors of ``n`` first estimates (each on a target never ranged before)."""
    keeper = RangeKeeper(get_skill(skill), np.random.default_rng(seed))
    est = [keeper.estimate("A", f"T{i}", seen, turn=1) for i in range(n)]
    return np.array(est) / seen - 1.0


def test_BF6_GUN_02_first_estimates_are_off_by_a_realistic_spread() -> None:
    """Veteran first estimates: about 4 % off at close range, 9 % near maximum range, never
    exactly right on average (the eye is not a rangefinder)."""
    sds = [float(first_errors("veteran", r).std()) for r in RANGES]
    assert 0.03 < sds[0] < 0.06
    assert 0.06 < sds[-1] < 0.11
    assert sds == sorted(sds), "the spread grows with range"
    mean = float(first_errors("veteran", 6000.0).mean())
    assert abs(mean - SKILLS["veteran"].bias) < 0.012


@pytest.mark.parametrize("seen", [3000.0, 8000.0])
def test_spread_shrinks_with_skill(seen: float) -> None:
    """Green range-takers are wider than veterans, veterans wider than the elite."""
    sd = {s: float(first_errors(s, seen).std()) for s in ("green", "veteran", "elite")}
    assert sd["green"] > sd["veteran"] > sd["elite"]


def test_estimates_depend_only_on_what_is_seen_and_the_admirals_own_rng() -> None:
    """Same seed and same seen distance, same estimate; written to the nearest 50 m."""
    a = RangeKeeper(get_skill("elite"), np.random.default_rng(3))
    b = RangeKeeper(get_skill("elite"), np.random.default_rng(3))
    ea = [a.estimate("A", "T", 5000.0 + 10 * t, t) for t in range(1, 6)]
    eb = [b.estimate("A", "T", 5000.0 + 10 * t, t) for t in range(1, 6)]
    assert ea == eb
    assert all(e % 50 == 0 for e in ea)


def test_unknown_skill_is_refused() -> None:
    with pytest.raises(ValueError, match="green, veteran, elite"):
        get_skill("admiral of the fleet")


def test_fall_of_short_and_over_as_the_spotter_sees_it() -> None:
    """Beyond the target along the line of fire is over, this side of it short."""
    firer, target = (0.0, 0.0), (0.0, 5000.0)
    assert fall_of((30.0, 5400.0), firer, target) is Fall.OVER
    assert fall_of((-20.0, 4700.0), firer, target) is Fall.SHORT


def test_a_short_moves_the_picture_up_an_over_down_and_a_swap_halves_the_step() -> None:
    """Walking the splashes: corrections of one spread, halved once the target is bracketed."""
    skill = get_skill("veteran")
    keeper = RangeKeeper(skill, np.random.default_rng(1))
    keeper.estimate("A", "T", 6000.0, 1)
    track = keeper.tracks[("A", "T")]
    e0, step = track.error, skill.step * skill.sd_total(6000.0)
    keeper.observe("A", "T", Fall.SHORT, 6000.0)
    assert track.error == pytest.approx(e0 + step)
    keeper.observe("A", "T", Fall.OVER, 6000.0)
    assert track.error == pytest.approx(e0 + step - step / 2)
    keeper.observe("A", "T", Fall.OVER, 6000.0)
    assert track.error == pytest.approx(e0 + step - step)


def test_a_hit_zone_keeps_the_picture_and_tightens_the_next_estimate() -> None:
    """After a hit zone the jitter is multiplied by the skill's ``found`` factor."""
    skill = get_skill("veteran")
    keeper = RangeKeeper(skill, np.random.default_rng(11))
    spread_fresh, spread_found = [], []
    for i in range(400):
        keeper.estimate("A", f"T{i}", 7000.0, 1)
        track = keeper.tracks[("A", f"T{i}")]
        error = track.error
        keeper.observe("A", f"T{i}", Fall.HIT, 7000.0)
        spread_found.append(keeper.estimate("A", f"T{i}", 7000.0, 2) / 7000.0 - 1.0 - error)
        spread_fresh.append(keeper.estimate("B", f"T{i}", 7000.0, 2) / 7000.0 - 1.0)
    assert np.std(spread_found) < 0.7 * np.std(spread_fresh)
    assert np.std(spread_found) == pytest.approx(skill.found * skill.sd_jit(7000.0), rel=0.25)


def test_a_target_not_ranged_last_turn_is_judged_afresh() -> None:
    keeper = RangeKeeper(get_skill("green"), np.random.default_rng(5))
    keeper.estimate("A", "T", 5000.0, 1)
    first = keeper.tracks[("A", "T")].error
    keeper.estimate("A", "T", 5000.0, 3)
    assert keeper.tracks[("A", "T")].error != first


# -- estimates measured by the gunnery rules ---------------------------------------------------


def _hit_rate(keeper: RangeKeeper, seen: float, n: int, tag: str, walk_turns: int = 1) -> float:
    """Fire ``n`` times at a battleship ``seen`` metres off; hit rate of the last turn's shots."""
    scale = get_scale("small")
    target_cls = lookup_class("Majestic")
    size = scale.base_size_m(target_cls)
    firer = (0.0, 0.0)
    target = Pose(0.0, seen, 90.0)  # broadside on
    funnel = funnel_point(target, size[0])
    seen = math.dist(firer, funnel)  # what the admiral's eye starts from
    hits = 0
    for i in range(n):
        key = f"{tag}{i}"
        for turn in range(1, walk_turns + 1):
            est = keeper.estimate("firer", key, seen, turn, scale.bracket_m)
            entry = GunneryEntry("firer", key, est, rounds=(("A", 2),))
            m = measure(entry, firer, target, size, scale)
            fall = Fall.HIT if m.hit else fall_of(m.point, firer, funnel)
            keeper.observe("firer", key, fall, seen)
        hits += m.hit
    return hits / n


def test_BF6_MEAS_01_hit_rates_fall_with_range() -> None:
    """Estimates laid along the line of fire (BF6-MEAS-01): the danger zone of the 1st and 2nd
    brackets (BF6-DZ-01, BF6-DZ-02) forgives a lot close in; beyond, only the base does."""
    keeper = RangeKeeper(get_skill("veteran"), np.random.default_rng(2024))
    rates = [_hit_rate(keeper, r, 300, f"r{r}") for r in RANGES]
    assert rates[0] > 0.85
    assert rates[-1] < 0.35
    assert all(a > b for a, b in itertools.pairwise(rates)), rates


def test_walking_the_splashes_improves_the_hit_rate() -> None:
    """In the 2nd bracket (4.5 km) the third salvo of a walked series hits clearly more often
    than a first salvo: the splashes tell the gun layer which way to correct."""
    first = _hit_rate(RangeKeeper(get_skill("veteran"), np.random.default_rng(8)), 4500, 300, "a")
    walked = _hit_rate(
        RangeKeeper(get_skill("veteran"), np.random.default_rng(8)), 4500, 300, "b", walk_turns=3
    )
    assert walked > first + 0.08
