"""The damage-code mapping (BF6-DTYPE-01..03, BF6-PROP, BF6-LET, BF6-PAT, BF6-MAIN, BF6-SEC)."""

from __future__ import annotations

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES, apply_codes, parse_code
from battleline.rulesets.bf1900.damage.context import Code, DamageContext
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, PropulsionBoxes, RudderState
from battleline.testing import FixedDice
from conftest import (
    FakeCharts,
    cruiser,
    ctx_for,
    destroyer,
    lozenge,
    majestic,
    make_log,
    plain_class,
)


def _apply(log, codes, dice_values, charts=None, aspect=Aspect.PORT, events=None):  # type: ignore[no-untyped-def]
    dice = FixedDice(dice_values)
    events = events if events is not None else EventLog()
    apply_codes(log, codes, ctx_for(charts or FakeCharts(), dice, events, aspect))
    dice.assert_consumed()
    return events


# -- parsing ------------------------------------------------------------------------------------


def test_parse_counted_and_fixed_column_codes() -> None:
    """BF6-DTYPE-03: the codes of the text (Px, P, FL, S, T, M, BR, ST, R, DC, CT) parse."""
    for name in ("Px", "P", "FL", "S", "T", "M", "BR", "ST", "R", "DC", "CT"):
        assert parse_code(name).name == name
    assert parse_code("3F") == Code("F", 3)
    assert parse_code("2IF") == Code("IF", 2)
    assert parse_code("150FL") == Code("FL", 1, 150)
    assert parse_code("200FL") == Code("FL", 1, 200)
    assert parse_code("FL") == Code("FL")
    assert parse_code("PX") == Code("Px")  # the 1D12 spelling (AMB-40)
    assert parse_code(" Mx ") == Code("Mx")
    assert parse_code("-") == Code("-")
    assert str(parse_code("150FL")) == "150FL" and str(parse_code("2IF")) == "2IF"


@pytest.mark.parametrize("bad", ["Q", "3", "", "F2", "0F", "XYZ"])
def test_unknown_code_is_a_rules_data_error(bad: str) -> None:
    with pytest.raises(RulesDataError, match="damage code"):
        parse_code(bad)
    with pytest.raises(RulesDataError):
        apply_codes(make_log(majestic()), [bad], ctx_for(FakeCharts(), FixedDice([])))


def test_every_code_name_has_an_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    """The glossary's codes and the dispatch stay in step (BF6-DTYPE-01)."""
    import battleline.rulesets.bf1900.damage.codes as codes_mod

    monkeypatch.setattr(codes_mod, "_flood", lambda log, ctx, column: None)
    from battleline.testing import SeededDice

    for name in sorted(CODE_NAMES):
        log = make_log(majestic())
        apply_codes(log, [name], ctx_for(FakeCharts(), SeededDice(1)))  # type: ignore[arg-type]


def test_context_rejects_unknown_cause() -> None:
    with pytest.raises(ValueError, match="cause"):
        DamageContext(FakeCharts(), FixedDice([]), EventLog(), None, None, "magic")


# -- propulsion ----------------------------------------------------------------------------------


def test_EX_BF6_11_px_converts_damaged_box() -> None:
    """BF6-PROP-03, BF6-PROP-05: 2 destroyed + 4 damaged, then Px → 3 destroyed, 3 damaged,
    1 margin."""
    log = make_log(cruiser())
    log.propulsion.destroyed, log.propulsion.damaged = 2, 4
    assert log.propulsion.available == 0  # dead in the water
    _apply(log, ["Px"], [])
    p = log.propulsion
    assert (p.destroyed, p.damaged, p.margin) == (3, 3, 1)
    # Margin "propulsion access" damage is repaired before any box (BF6-PROP-04).
    assert p.repair() == "margin"
    assert (p.destroyed, p.damaged, p.margin) == (3, 3, 0)
    assert p.repair() == "box"


def test_EX_BF12_01_destroyed_box_result_same_numbers() -> None:
    """EX-BF12-01: the 1D12 'destroyed-box result' gives the same numbers as EX-BF6-11."""
    p = PropulsionBoxes((20, 17, 14, 10, 7, 3), destroyed=2, damaged=4)
    assert p.destroy() == "converted"
    assert (p.destroyed, p.damaged, p.margin, p.hits) == (3, 3, 1, 7)


def test_BF6_PROP_01_marked_from_the_top() -> None:
    log = make_log(cruiser())
    _apply(log, ["P"], [])
    assert log.propulsion.available == 16
    _apply(log, ["Px"], [])  # the damaged mark migrates down (BF6-PROP-03)
    p = log.propulsion
    assert (p.destroyed, p.damaged, p.available) == (1, 1, 13)


def test_BF6_PROP_04_overflow_goes_to_the_margin() -> None:
    log = make_log(destroyer())
    _apply(log, ["6P"], [])
    assert log.propulsion.available == 0
    _apply(log, ["P"], [])
    assert log.propulsion.margin == 1
    log.propulsion.damaged, log.propulsion.destroyed = 0, 6
    _apply(log, ["Px"], [])  # AMB-27: nothing left to convert → margin
    assert log.propulsion.margin == 2


# -- main positions ------------------------------------------------------------------------------


def test_EX_BF6_12_lettered_position_takes_unlimited_slashes() -> None:
    """EX-BF6-12:
    BF6-LET-01, BF6-LET-02: a second hit on A (1 slash) gives 2 slashes; each M is located
    anew and there is no cap."""
    log = make_log(majestic())
    log.positions["A"].slashes = 1
    # location 2 → A; Main/TT critical check rolls 1 → '-'
    _apply(log, ["M"], [2, 1])
    assert log.positions["A"].slashes == 2
    _apply(log, ["M", "M"], [3, 1, 1, 1])
    assert log.positions["A"].slashes == 4
    assert not log.positions["A"].destroyed  # AMB-38: slashes never turn into an X


def test_main_hit_rolls_the_main_tt_critical_line() -> None:
    charts = FakeCharts(crit={"main_tt": {6: ("EX",)}, "explosion": {4: ("2F", "IF")}})
    log = make_log(majestic())
    ev = _apply(log, ["Mx"], [5, 6, 4], charts)  # Z destroyed, crit 6 → EX, explosion 4
    assert log.positions["Z"].destroyed
    assert (log.fires_external, log.fires_internal) == (2, 1)
    assert ev.of_kind(EventKind.EXPLOSION)


def test_BF6_MAIN_03_destroyed_position_hit_again_still_checks() -> None:
    charts = FakeCharts(crit={"main_tt": {6: ("F",)}})
    log = make_log(majestic())
    log.positions["A"].destroyed = True
    _apply(log, ["M"], [1, 6], charts)
    assert log.fires == 1


def test_BF6_MAIN_03_flooded_magazine_skips_the_check() -> None:
    """EX-BF6-17 / BF6-CF-03: a later hit on a flooded-magazine position needs no critical roll."""
    log = make_log(majestic())
    log.positions["A"].destroyed = True
    log.positions["A"].magazine_flooded = True
    ev = _apply(log, ["M"], [1])  # only the location die
    assert any("no critical check" in e.text for e in ev)


def test_BF6_MAIN_02_lozenge_embattled_wing_takes_the_hit() -> None:
    log = make_log(lozenge())
    _apply(log, ["M"], [4, 1], aspect=Aspect.STARBOARD)
    assert log.positions["R"].slashes == 1 and log.positions["P"].slashes == 0


# -- secondary, tertiary, boat guns ----------------------------------------------------------


def test_EX_BF6_13_beam_pattern_hit_takes_an_undamaged_gun() -> None:
    """EX-BF6-13, BF6-PAT-01: seed 000 — "if a vessel's six secondary guns are located in beam
    pattern 0 and one of those guns has already been damaged, a new S hit will cause another
    previously undamaged gun to be crossed out." The example's own ship: one battery of six
    secondaries in beam pattern 0, no other secondary mounting, so no location roll."""
    six = Mounting("sec", GunClass.SECONDARY, 15.2, 1, (4, 2, None, None), 6, 2, beam_pattern=0)
    log = make_log(plain_class([six]))
    assert log.batteries["sec"] == [Mark.NONE] * 6
    log.batteries["sec"][5] = Mark.DAMAGED  # the gun already damaged
    _apply(log, ["S"], [])
    marks = log.batteries["sec"]
    assert marks.count(Mark.DAMAGED) == 2 and marks.count(Mark.NONE) == 4
    assert marks == [Mark.NONE] * 4 + [Mark.DAMAGED] * 2  # descending run of crossed numbers
    # The already-damaged gun is never chosen again, wherever it stands in the battery.
    log2 = make_log(plain_class([six]))
    log2.batteries["sec"][2] = Mark.DAMAGED
    _apply(log2, ["S"], [])
    n, d = Mark.NONE, Mark.DAMAGED
    assert log2.batteries["sec"] == [n, n, d, n, n, d]  # gun 6 crossed out, gun 3 stays


def test_BF6_SEC_01_one_gun_or_position_at_random() -> None:
    """BF6-SEC-01, BF6-SEC-02: S picks one of the four secondary positions (1D6, re-roll 5–6)."""
    log = make_log(cruiser())
    _apply(log, ["S"], [6, 3])  # 6 re-rolled, 3 → V
    assert log.positions["V"].slashes == 1
    _apply(log, ["Sx"], [1])
    assert log.positions["D"].destroyed
    _apply(log, ["T"], [])  # one tertiary battery: no roll needed
    assert log.batteries["tert"].count(Mark.DAMAGED) == 1


def test_BF6_DTYPE_02_missing_feature_has_no_effect() -> None:
    """A code aimed at a feature the ship lacks does nothing and says so."""
    log = make_log(destroyer())
    ev = _apply(log, ["S", "T", "SL", "SL", "SL"], [])
    assert log.searchlights == [Mark.DESTROYED, Mark.DESTROYED]
    notes = [e.text for e in ev if "BF6-DTYPE-02" in e.text]
    assert len(notes) == 3  # S, T and the third SL
    log2 = make_log(lozenge())
    ev2 = _apply(log2, ["TT", "XF"], [])
    assert sum("BF6-DTYPE-02" in e.text for e in ev2) == 2


def test_BF6_SEC_03_one_boat_gun_per_hit_while_crews_not_deployed() -> None:
    log = make_log(majestic())  # armoured deck, crews not deployed
    ev = _apply(log, ["2B"], [])
    assert log.batteries["boat"].count(Mark.DESTROYED) == 1
    assert any("BF6-SEC-03" in e.text for e in ev)
    log.boat_crews_deployed = True
    _apply(log, ["B", "B"], [])
    assert log.batteries["boat"].count(Mark.DESTROYED) == 2
    dd = make_log(destroyer())  # no armoured deck: always manned
    dd.boat_crews_deployed = False  # even if the log says otherwise
    _apply(dd, ["2B"], [])
    assert dd.batteries["boat"].count(Mark.DESTROYED) == 2


# -- lines and simple boxes --------------------------------------------------------------------


def test_fires_and_fire_out() -> None:
    log = make_log(majestic())
    _apply(log, ["3F", "2IF"], [])
    assert (log.fires_external, log.fires_internal) == (3, 2)
    _apply(log, ["XF", "XF", "XF"], [])
    assert (log.fires_external, log.fires_internal) == (2, 0)


def test_bridge_ct_steering_dc_searchlight() -> None:
    log = make_log(majestic())
    _apply(log, ["BR", "CT", "ST", "ST", "DC", "SL", "-"], [])
    assert (log.bridge_hits, log.ct_hits, log.tr_hits) == (1, 1, 2)
    assert log.dc_dice == 5 and log.dc_boxes[0] is Mark.DAMAGED
    assert log.searchlights[0] is Mark.DESTROYED


def test_rudder_hit_and_jams_and_BF6_REP_10_rc_protects() -> None:
    log = make_log(majestic())
    _apply(log, ["R"], [])
    assert log.rudder is RudderState.DAMAGED
    _apply(log, ["JS"], [])
    assert log.rudder is RudderState.JAMMED_STARBOARD
    secured = make_log(majestic())
    secured.rudder = RudderState.SECURED
    _apply(secured, ["JP", "R"], [])
    assert secured.rudder is RudderState.SECURED


def test_torpedo_tube_hit_and_critical_check() -> None:
    log = make_log(majestic())
    _apply(log, ["TT"], [4, 1])  # mount choice 4 → bow; Main/TT check 1 → '-'
    assert log.torpedoes_left == {"beam": 4, "bow": 0}


def test_misc_elec_hydr_and_steering_lines() -> None:
    charts = FakeCharts(
        misc={3: ("DC",)},
        crit={"elec_hydr": {2: ("BR",)}, "steering": {5: ("JP",)}},
    )
    log = make_log(majestic())
    _apply(log, ["MISC", "EH", "SC"], [3, 2, 5], charts)
    assert log.dc_dice == 5 and log.bridge_hits == 1
    assert log.rudder is RudderState.JAMMED_PORT


def test_self_feeding_chart_is_a_data_error() -> None:
    charts = FakeCharts(crit={"explosion": {r: ("EX",) for r in range(1, 7)}})
    from battleline.testing import SeededDice

    with pytest.raises(RulesDataError, match="chained"):
        apply_codes(make_log(majestic()), ["EX"], ctx_for(charts, SeededDice(3)))  # type: ignore[arg-type]


def test_sunk_ship_takes_no_more_damage() -> None:
    log = make_log(majestic())
    log.sunk = True
    _apply(log, ["3F"], [])
    assert log.fires == 0


def test_explosion_codes_carry_no_aspect() -> None:
    """Explosion flooding goes anywhere (BF6-FLD-01): the context below EX has no aspect."""
    seen: list[DamageContext] = []
    import battleline.rulesets.bf1900.damage.codes as codes_mod

    charts = FakeCharts(crit={"explosion": {1: ("200FL",)}})
    original = codes_mod._flood
    try:
        codes_mod._flood = lambda log, ctx, column: seen.append(ctx)  # type: ignore[assignment]
        _apply(make_log(majestic()), ["EX"], [1], charts)
    finally:
        codes_mod._flood = original
    assert seen and seen[0].aspect is None and seen[0].cause == "explosion"


def test_gun_classes_match_codes() -> None:
    assert {m.gun_class for m in majestic().mountings} == set(GunClass)


def test_main_guns_in_a_beam_pattern_lose_a_gun_then_check() -> None:
    """A central-battery ship: M takes an undamaged main gun (BF6-PAT-01), then the Main/TT
    critical check (BF6-MAIN-03)."""
    from dataclasses import replace

    from battleline.rulesets.bf1900.ship import Mounting

    battery = Mounting("main", GunClass.MAIN, 25.4, 0.5, (8, 6, 4, 2), 4, 5, beam_pattern=0)
    cls = replace(majestic(), mountings=(battery,))
    log = make_log(cls)
    charts = FakeCharts(crit={"main_tt": {5: ("F",)}})
    _apply(log, ["M", "Mx"], [1, 5], charts)
    assert log.batteries["main"] == [Mark.NONE, Mark.NONE, Mark.DESTROYED, Mark.DAMAGED]
    assert log.fires == 1
