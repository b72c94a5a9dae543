"""The admiral's gun layers: ranges read from the observed view, walking the splashes, and hit
rates that fall with range when observed ranges are measured by the gunnery rules (BF6-GUN-02,
BF6-MEAS-01..04, BF6-DZ-01..03). The error itself is the observation model's
(``tests/rulesets/bf1900/test_observation.py``)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from battleline.ai.ranging import SKILLS, Fall, RangeKeeper, aim_long, fall_of, get_skill
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.gunnery import GunneryEntry, measure
from battleline.rulesets.bf1900.observation import load_observation
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.table import funnel_point

RANGES = (2000.0, 4500.0, 7000.0, 9500.0)


def test_the_admirals_skills_are_the_observation_models_eyes() -> None:
    """One model for human sides and admirals: each skill's spreads are the data file's."""
    eyes = load_observation().eyes
    assert set(SKILLS) == set(eyes) == {"green", "veteran", "elite"}
    for name, skill in SKILLS.items():
        assert skill.eye is eyes[name]
        assert skill.sd_total(6000.0) == eyes[name].sd_total(6000.0)


def test_unknown_skill_is_refused() -> None:
    with pytest.raises(ValueError, match="green, veteran, elite"):
        get_skill("admiral of the fleet")


def test_BF6_GUN_02_a_first_estimate_is_the_range_as_seen_written_to_50_m() -> None:
    """No error of its own: the view's observation already carries the side's eye."""
    keeper = RangeKeeper(get_skill("veteran"))
    assert keeper.estimate("A", "T", 6230.0, 1) == 6250.0
    assert keeper.estimate("A", "U", 40.0, 1) == 100.0  # never below the minimum
    # Aimed long by half the danger zone in the 2nd bracket (BF6-DZ-02): 2,500 m / 4 / 2.
    assert aim_long(4000.0, 2500.0) == 4312.5
    assert keeper.estimate("A", "V", 4000.0, 1, 2500.0) == 4300.0


def test_fall_of_short_and_over_as_the_spotter_sees_it() -> None:
    """Beyond the target along the line of fire is over, this side of it short."""
    firer, target = (0.0, 0.0), (0.0, 5000.0)
    assert fall_of((30.0, 5400.0), firer, target) is Fall.OVER
    assert fall_of((-20.0, 4700.0), firer, target) is Fall.SHORT


def test_a_short_moves_the_picture_up_an_over_down_and_a_swap_halves_the_step() -> None:
    """Walking the splashes: corrections of one spread, halved once the target is bracketed."""
    skill = get_skill("veteran")
    keeper = RangeKeeper(skill)
    keeper.estimate("A", "T", 6000.0, 1)
    track = keeper.tracks[("A", "T")]
    step = skill.step * skill.sd_total(6000.0)
    keeper.observe("A", "T", Fall.SHORT, 6000.0)
    assert track.correction == pytest.approx(step)
    keeper.observe("A", "T", Fall.OVER, 6000.0)
    assert track.correction == pytest.approx(step - step / 2)
    keeper.observe("A", "T", Fall.OVER, 6000.0)
    assert track.correction == pytest.approx(0.0)
    assert keeper.estimate("A", "T", 6000.0, 4) == 6000.0


def test_a_hit_zone_keeps_the_correction_and_it_outlasts_a_pause() -> None:
    """The correction corrects the side's lasting misjudgement of the ship, so it stays."""
    keeper = RangeKeeper(get_skill("green"))
    keeper.estimate("A", "T", 5000.0, 1)
    keeper.observe("A", "T", Fall.SHORT, 5000.0)
    corrected = keeper.tracks[("A", "T")].correction
    keeper.observe("A", "T", Fall.HIT, 5000.0)
    assert keeper.tracks[("A", "T")].correction == corrected > 0
    assert keeper.estimate("A", "T", 5000.0, 6) == round(5000 * (1 + corrected) / 50) * 50


def test_a_fall_on_a_target_never_ranged_is_ignored() -> None:
    keeper = RangeKeeper(get_skill("elite"))
    keeper.observe("A", "T", Fall.SHORT, 5000.0)
    assert keeper.tracks == {}


# -- observed ranges measured by the gunnery rules ---------------------------------------------


def _hit_rate(seen_true: float, n: int, seed: int, walk_turns: int = 1) -> float:
    """``n`` veteran firers, each ranging a broadside-on battleship ``seen_true`` metres off for
    ``walk_turns`` turns on the range the observation model shows (a lasting error per target,
    a fresh one each turn); the hit rate of the last turn's salvos."""
    model = load_observation()
    eye = model.eye("veteran")
    rng = np.random.default_rng(seed)
    scale = get_scale("small")
    size = scale.base_size_m(lookup_class("Majestic"))
    firer = (0.0, 0.0)
    target = Pose(0.0, seen_true, 90.0)
    funnel = funnel_point(target, size[0])
    true_m = math.dist(firer, funnel)
    hits = 0
    for i in range(n):
        keeper = RangeKeeper(get_skill("veteran"))
        z_sys = float(rng.normal())
        for turn in range(1, walk_turns + 1):
            seen = true_m * model.factor(eye, true_m, z_sys, float(rng.normal()))
            est = keeper.estimate("firer", f"T{i}", seen, turn, scale.bracket_m)
            m = measure(GunneryEntry("firer", f"T{i}", est, rounds=(("A", 2),)), firer, target,
                        size, scale)  # fmt: skip
            fall = Fall.HIT if m.hit else fall_of(m.point, firer, funnel)
            keeper.observe("firer", f"T{i}", fall, seen)
        hits += m.hit
    return hits / n


def test_BF6_MEAS_01_hit_rates_fall_with_range() -> None:
    """Estimates laid along the line of fire (BF6-MEAS-01): the danger zone of the 1st and 2nd
    brackets (BF6-DZ-01, BF6-DZ-02) forgives a lot close in; beyond, only the base does."""
    rates = [_hit_rate(r, 300, 2024) for r in RANGES]
    assert rates[0] > 0.85
    assert rates[-1] < 0.35
    assert all(a > b for a, b in itertools.pairwise(rates)), rates


def test_walking_the_splashes_improves_the_hit_rate() -> None:
    """In the 2nd bracket (4.5 km) the third salvo of a walked series hits clearly more often
    than a first salvo: the splashes teach the gun layer the side's lasting misjudgement."""
    first = _hit_rate(4500.0, 400, 8)
    walked = _hit_rate(4500.0, 400, 8, walk_turns=3)
    assert walked > first + 0.05, (first, walked)
