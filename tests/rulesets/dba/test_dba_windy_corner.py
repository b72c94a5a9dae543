"""Splash confusion, Windy Corners and stopped ships (DBA-TF-02, DBA-WC-01..07,
EX-DBA-01..05, AMB-73..76)."""

from __future__ import annotations

from battleline.engine.events import EventLog
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.windy_corner import SplashConfusion

ON = Options(windy_corners=True)
BLUE = [f"b{i}" for i in range(1, 9)]
RED = ["A", "B", "C", "D"]


def no_deduction(penalties: dict[str, int]) -> bool:
    return all(v == 0 for v in penalties.values())


def test_DBA_TF_02_three_or_more_shooters_take_minus_one() -> None:
    sc = SplashConfusion(ON)
    assert no_deduction(sc.fire(1, "A", ["b1", "b2"]))
    assert sc.fire(1, "B", ["b3", "b4", "b5"]) == {"b3": -1, "b4": -1, "b5": -1}
    assert SplashConfusion().fire(1, "B", BLUE[:4]) == dict.fromkeys(BLUE[:4], -1)


def test_DBA_WC_01_more_than_45_degrees_makes_a_windy_corner() -> None:
    sc = SplashConfusion(ON)
    assert sc.turn_in_succession("Red", RED, degrees=45, location="L0", first_through="A") is None
    assert sc.turn_in_succession("Red", RED, degrees=-90, location="L1", first_through="A")
    assert sc.corner_of("A") == "L1"
    off = SplashConfusion()
    assert off.turn_in_succession("Red", RED, degrees=90, location="L1", first_through="A") is None


def test_EX_DBA_01_to_05_windy_corner_spell_by_spell() -> None:
    sc = SplashConfusion(ON)
    log = EventLog()
    # Spell 1 (EX-DBA-01): Red moves one base and turns 90° in succession; only A completes it.
    sc.turn_in_succession("Red", RED, degrees=90, location="WC", first_through="A", log=log)
    assert log.events and "Windy Corner" in log.events[0].text
    for i, red in enumerate(RED):
        assert no_deduction(sc.fire(1, red, BLUE[2 * i : 2 * i + 2]))
    # Spell 2 (EX-DBA-02): Red does not move; A still on the corner. 4 Blues on A, no deduction:
    # b1, b2 fired at the corner last spell and are exempt, b3, b4 are the only counted shooters.
    on_a = sc.fire(2, "A", ["b1", "b2", "b3", "b4"], target_stopped=True)
    assert no_deduction(on_a)
    assert sc.exempt(2, "b1", "A", target_stopped=True)
    assert not sc.exempt(2, "b3", "A", target_stopped=True)
    sc.fire(2, "C", ["b5", "b6"])
    sc.fire(2, "D", ["b7", "b8"])
    # Spell 3 (EX-DBA-03): A moves off, B moves through, C stops on the corner: 6 Blues on C.
    sc.leave("A")
    sc.pass_through("B", "WC")
    sc.arrive("C", "WC")
    assert sc.corner_of("C") == "WC" and sc.corner_of("A") is None
    assert no_deduction(sc.fire(3, "C", BLUE[:6]))
    sc.fire(3, "D", ["b7", "b8"])
    # Spell 4 (EX-DBA-04): all 8 Blues concentrate on C with no deduction.
    assert no_deduction(sc.fire(4, "C", BLUE))
    state = (dict(sc.fired_at_corner), {k: v for k, v in sc.corners.items()})

    # Spell 5a (EX-DBA-05 a): C was lucky; it moves off, D moves through, the corner is gone.
    sc.leave("C")
    sc.pass_through("D", "WC")
    assert sc.corners == {}
    assert not sc.exempt(5, "b1", "C", target_stopped=False)

    # Spell 5b (EX-DBA-05 b): C was crippled in spell 4 and hauls out but stays on the corner.
    sc_b = SplashConfusion(ON, fired_at_corner=state[0])
    sc_b.turn_in_succession("Red", RED, degrees=90, location="WC", first_through="C")
    sc_b.corners["WC"].to_pass = {"D"}
    sc_b.leave("C", crippled=True)  # DBA-WC-04
    assert sc_b.corner_of("C") == "WC"
    sc_b.pass_through("D", "WC")  # D has the NIPs to get through
    assert "WC" in sc_b.corners
    assert no_deduction(sc_b.penalties(5, "C", BLUE))
    # ... or D lacks the NIPs and ends on the hot spot: Blue may fire at C, D or both.
    sc_c = SplashConfusion(ON, fired_at_corner=state[0])
    sc_c.turn_in_succession("Red", RED, degrees=90, location="WC", first_through="C")
    sc_c.leave("C", crippled=True)
    sc_c.arrive("D", "WC")
    assert no_deduction(sc_c.penalties(5, "C", BLUE[:4]))
    assert no_deduction(sc_c.penalties(5, "D", BLUE[4:]))


def test_DBA_WC_02_exempt_next_spell_against_any_ship_on_the_same_corner() -> None:
    """DBA-WC-02: not necessarily the same target ship."""
    sc = SplashConfusion(ON)
    sc.turn_in_succession("Red", RED, degrees=90, location="L1", first_through="A")
    sc.fire(1, "A", ["b1", "b2", "b3"])
    sc.leave("A")
    sc.arrive("B", "L1")
    assert no_deduction(sc.penalties(2, "B", ["b1", "b2", "b3", "b4", "b5"]))
    assert sc.penalties(3, "B", ["b1", "b2", "b3"])["b1"] == -1  # only the next spell


def test_DBA_WC_05_bonus_does_not_transfer_between_corners() -> None:
    """DBA-WC-05."""
    sc = SplashConfusion(ON)
    sc.turn_in_succession("Red", RED, degrees=90, location="L1", first_through="A")
    sc.turn_in_succession("Red", RED, degrees=90, location="L2", first_through="B")
    sc.fire(1, "A", ["b1", "b2", "b3"])
    assert sc.penalties(2, "B", ["b1", "b2", "b3"]) == {"b1": -1, "b2": -1, "b3": -1}
    assert no_deduction(sc.penalties(2, "A", ["b1", "b2", "b3", "b4", "b5"]))


def test_DBA_WC_06_stopped_ship_same_procedure() -> None:
    """DBA-WC-06: AMB-76: exempt against the same ship while it is still stopped."""
    sc = SplashConfusion(ON)
    sc.fire(1, "X", ["b1", "b2"], target_stopped=True)
    assert no_deduction(sc.penalties(2, "X", ["b1", "b2", "b3", "b4"], target_stopped=True))
    assert sc.penalties(2, "X", ["b1", "b2", "b3"], target_stopped=False)["b1"] == -1
    # the exemption lasts one spell only, re-earned each spell (AMB-75)
    assert sc.penalties(3, "X", ["b1", "b2", "b3"], target_stopped=True)["b1"] == -1


def test_DBA_WC_07_only_non_exempt_shooters_count_and_take_the_minus_one() -> None:
    """DBA-WC-07: AMB-73: exempt shooters never take −1; three counted shooters do."""
    sc = SplashConfusion(ON)
    sc.fire(1, "X", ["b1", "b2"], target_stopped=True)
    pen = sc.penalties(2, "X", ["b1", "b2", "b3", "b4", "b5"], target_stopped=True)
    assert pen == {"b1": 0, "b2": 0, "b3": -1, "b4": -1, "b5": -1}


def test_DBA_WC_03_corner_lasts_until_the_whole_squadron_passes() -> None:
    """DBA-WC-03."""
    sc = SplashConfusion(ON)
    sc.turn_in_succession("Red", ["A", "B"], degrees=60, location="L", first_through="A")
    sc.leave("A")
    assert "L" in sc.corners  # B has not yet passed
    sc.pass_through("B", "L")
    assert "L" not in sc.corners
