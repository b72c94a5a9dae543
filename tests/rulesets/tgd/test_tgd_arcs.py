"""TGD arcs of fire and rake (TGD-ARC-01..07, TGD-HIT-05, EX-TGD-02..06, AMB-59, AMB-65)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.rulesets.tgd.arcs import bears, bears_on_bearing, raked, target_frame


def _covered(arc: str) -> set[int]:
    """Whole-degree bearings a battery covers from a point-sized ship."""
    return {t for t in range(360) if bears_on_bearing(arc, float(t))}


def test_EX_TGD_02_f_and_a_have_270_degrees_and_a_90_degree_blind_spot() -> None:
    """TGD-ARC-02: f cannot fire into the 90° astern, a into the 90° ahead."""
    f, a = _covered("f"), _covered("a")
    assert len(f) == 271 and len(a) == 271  # 270° closed arcs, whole degrees, edges counted
    assert all(t not in f for t in range(136, 225))
    assert all(t not in a for t in (*range(316, 360), *range(0, 45)))
    assert {0, 90, 270, 135, 225} <= f
    assert {180, 90, 270, 45, 315} <= a


def test_EX_TGD_03_p_and_s_batteries_cover_90_degrees_on_their_own_side() -> None:
    """EX-TGD-03: TGD-ARC-03."""
    assert _covered("s") == set(range(45, 136))
    assert _covered("p") == set(range(225, 316))
    assert _covered("c") == _covered("p") | _covered("s")
    assert not bears_on_bearing("s", 270.0) and not bears_on_bearing("p", 90.0)


def test_EX_TGD_04_fp_and_fs_both_bear_dead_ahead_and_only_fs_to_starboard() -> None:
    """EX-TGD-04:
    TGD-ARC-04: 135° each, overlapping dead ahead; fp takes in the whole port-gun arc."""
    assert bears_on_bearing("fp", 0.0) and bears_on_bearing("fs", 0.0)
    assert bears_on_bearing("fs", 90.0) and not bears_on_bearing("fp", 90.0)
    assert _covered("fp") >= _covered("p")
    assert len(_covered("fp")) == 136 == len(_covered("fs"))
    assert bears_on_bearing("ap", 180.0) and bears_on_bearing("as", 180.0)
    assert not bears_on_bearing("ap", 0.0) and not bears_on_bearing("as", 1.0)


def test_EX_TGD_05_ff_fires_90_degrees_forward_and_aa_aft() -> None:
    """EX-TGD-05: TGD-ARC-05."""
    assert _covered("ff") == {*range(315, 360), *range(0, 46)}
    assert _covered("aa") == set(range(135, 226))


def test_EX_TGD_06_p_plus_covers_the_port_half_including_ahead_and_astern() -> None:
    """EX-TGD-06:
    TGD-ARC-06: 180° to that side, dead ahead and dead astern included, nothing to the other."""
    assert _covered("p+") == {0, *range(180, 360)}
    assert _covered("s+") == set(range(0, 181))
    assert not any(bears_on_bearing("p+", float(t)) for t in range(1, 180))


def test_TGD_ARC_01_side_arcs_start_anywhere_along_the_side() -> None:
    """A target 1 unit out and 1.5 ahead of the centre is off the centre's s arc, but inside the
    45° line drawn from the bow end of a 2-unit hull."""
    assert not bears("s", 1.5, 1.0, length=0.0)
    assert bears("s", 1.5, 1.0, length=2.0)
    assert bears("s", 2.0, 1.0, length=2.0)  # exactly on the 45° line from the bow: inclusive
    assert not bears("s", 2.1, 1.0, length=2.0)
    # fore and aft arcs still measure from the centre
    assert not bears("aa", -0.5, 1.0, length=2.0)


def test_TGD_ARC_07_ps_is_p_plus_and_a_rectangle_out_to_starboard() -> None:
    """TGD-ARC-07:
    AMB-65: the far-side rectangle is as wide as the hull and as deep as the gun's range."""
    assert bears("ps", 0.0, -30.0, length=2.0, max_range=60)  # p+ part
    assert bears("ps", 0.9, 40.0, length=2.0, max_range=60)  # inside the rectangle
    assert bears("ps", -1.0, 60.0, length=2.0, max_range=60)  # edges inclusive
    assert not bears("ps", 1.5, 20.0, length=2.0, max_range=60)  # starboard bow: outside
    assert not bears("ps", 0.0, 61.0, length=2.0, max_range=60)
    assert bears("sp", 0.5, -10.0, length=2.0, max_range=60)
    assert not bears("sp", 1.5, -20.0, length=2.0, max_range=60)


def test_unknown_arc_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown TGD arc"):
        bears("x", 1.0, 0.0)


@pytest.mark.parametrize(
    ("aspect", "rake"),
    [
        (0.0, True),
        (22.5, True),
        (337.5, True),
        (23.0, False),
        (337.0, False),
        (180.0, True),
        (157.5, True),
        (202.5, True),
        (157.0, False),
        (90.0, False),
        (270.0, False),
    ],
)
def test_TGD_HIT_05_rake_is_a_45_degree_arc_on_bow_and_stern(aspect: float, rake: bool) -> None:
    """AMB-59: 45° in total centred on the bow line and on the stern line (the rake arcs the lost
    Arc of Fire chart draws, REF-TGD-02)."""
    assert raked(aspect) is rake


@given(theta=st.floats(0, 359.999), arc=st.sampled_from(["p", "fp", "ap", "p+", "ps"]))
def test_port_arcs_mirror_starboard_arcs(theta: float, arc: str) -> None:
    mirror = {"p": "s", "fp": "fs", "ap": "as", "p+": "s+", "ps": "sp"}[arc]
    ahead, starboard = target_frame(10.0, theta)
    assert bears(arc, ahead, starboard, length=2.0, max_range=60) == bears(
        mirror, ahead, -starboard, length=2.0, max_range=60
    )
