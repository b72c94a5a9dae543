"""The Damage Phase runner with the packaged charts (BF6-DMG-02/03, EX-BF6-08/09/10)."""

from __future__ import annotations

import json

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.declarations import parse_declarations
from battleline.rulesets.bf1900.damage.phase import run_damage_phase
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import SinkingState
from battleline.testing import FixedDice
from conftest import majestic, make_log

CHARTS = load_charts()


def _run(logs, dice_values, shells=(), decls=None):  # type: ignore[no-untyped-def]
    dice, events = FixedDice(dice_values), EventLog()
    run_damage_phase(
        {log.name: log for log in logs}, list(shells), [], decls or {}, CHARTS, dice, events
    )
    dice.assert_consumed()
    return events


def _shells(firer: str, target: str, mounting: str = "A") -> ShellSet:
    return ShellSet(
        firer=firer,
        target=target,
        mounting=mounting,
        gun_class=GunClass.MAIN,
        calibre_cm=30.5,
        rounds=1,
        ammo=Ammo.AP,
        penetration=20,
        bracket=1,
        shell_size=6,
        aspect=Aspect.PORT,
    )


def test_BF6_DMG_02_steps_run_in_order() -> None:
    events = _run([make_log(majestic())], [])
    steps = [e.data["step"] for e in events.of_kind(EventKind.PHASE)]
    assert steps == [1, 2, 3, 4]


def test_EX_BF6_08_hit_from_a_gun_lost_in_step_one_still_lands() -> None:
    """BF6-DMG-09, BF6-DMG-03: the firer's turret A is knocked out in Step One (a fire roll,
    BF6-DMG-04); its shell hit is still rolled in Step Two (BF6-DMG-07) and still counts."""
    firer, target = make_log(majestic(), "Firer"), make_log(majestic(), "Target")
    firer.fires_internal = 1
    rolls = [
        5,  # Step One: Firer's internal fire → EH
        5,  # Elec/Hydr → M
        1,  # main location → A
        1,  # Main/TT critical → nothing
        1,  # Step Two: Firer's A round, location → vitals
        4,  # damage die, >150% column → Mx
        5,  # main location → Z
        1,  # Main/TT critical → nothing
    ]
    _run([firer, target], rolls, shells=[_shells("Firer", "Target")])
    assert firer.positions["A"].slashes == 1 and not firer.positions["A"].in_action
    assert target.positions["Z"].destroyed


def test_EX_BF6_09_dc_box_lost_in_step_one_is_gone_in_step_three() -> None:
    """EX-BF6-09:
    BF6-DMG-10: six declared repairs, a DC hit in Step One → five dice rolled, one dropped."""
    log = make_log(majestic())
    log.fires_internal = 1
    log.propulsion.damaged = 6
    decls = {log.name: parse_declarations(log.name, "P; P; P; P; P; P")}
    events = _run([log], [3, 6, 6, 6, 6, 6], decls=decls)  # fire → DC, then five repairs
    assert log.dc_dice == 5
    assert log.propulsion.damaged == 1
    assert len(events.of_kind(EventKind.REPAIR)) == 5
    assert any("BF6-DC-04" in e.text for e in events.of_kind(EventKind.NOTE))


_EXPLOSION_ROLLS = [
    5,  # Step One: internal fire → EH
    5,  # Elec/Hydr → M
    1,  # main location → A
    6,  # Main/TT critical → EX
    3,  # explosion → IF, 100FL
    1,  # flooding occurrence (100> column) → Light
    2,  # explosion flooding location → port amidships
    1,  # light flooding effects → nothing
]


def test_EX_BF6_10_counterflooding_in_step_three_cancels_step_four_listing() -> None:
    """EX-BF6-10:
    BF6-DMG-11: explosion flooding in Step One, counterflooded in Step Three → no effect."""
    log = make_log(majestic())
    log.fires_internal = 1
    decls = {log.name: parse_declarations(log.name, "CF:starboard=light")}
    events = _run([log], [*_EXPLOSION_ROLLS, 5], decls=decls)
    assert log.compartments[Compartment.PORT].level is FloodLevel.LIGHT
    assert log.compartments[Compartment.STARBOARD].counterflooded
    assert log.uneven == {} and log.uneven_tr_hits == 0
    assert log.flooding_points == 2  # below 5: no sink roll either
    assert not events.of_kind(EventKind.LISTING)


def test_EX_BF6_10_without_the_counterflood_the_list_bites() -> None:
    """EX-BF6-10."""
    log = make_log(majestic())
    log.fires_internal = 1
    events = _run([log], _EXPLOSION_ROLLS)
    assert set(log.uneven) == {"side"}
    assert log.uneven_tr_hits == 1
    assert "list to port" in events.of_kind(EventKind.LISTING)[0].text
    dumped = json.loads(json.dumps(log.to_dict()))  # the charts' UnevenEffect dumps plainly
    assert dumped["uneven"]["side"]["tr_hits"] == 1


def test_BF6_SINK_03_sinking_ship_declarations_dropped_and_countdown() -> None:
    log = make_log(majestic())
    log.sinking = SinkingState(2)
    log.propulsion.damaged = 1
    decls = {log.name: parse_declarations(log.name, "P")}
    events = _run([log], [], decls=decls)
    assert log.propulsion.damaged == 1
    assert any("BF6-SINK-03" in e.text for e in events.of_kind(EventKind.NOTE))
    assert log.sinking.turns_left == 1


def test_BF6_CF_05_lock_lasts_one_phase_and_unknown_ships_noted() -> None:
    """BF6-CF-05."""
    log = make_log(majestic())
    log.counterflood_locked.add(Compartment.AFT)
    events = _run([log], [], decls={"Ghost": []})
    assert not log.counterflood_locked
    assert any("Ghost" in e.text for e in events.of_kind(EventKind.NOTE))


def test_scuttling_goes_on_with_no_declarations() -> None:
    """BF6-CF-06: an announced scuttling is rolled in every Step Three until it works."""
    log = make_log(majestic())
    log.scuttling = True
    _run([log], [6, 6, 6, 6])
    assert log.sunk and log.lost_reason == "scuttled"


def test_settings_reach_step_three_and_four() -> None:
    """AMB-24 strict reading and the DIFF-02 dice cap pass through the runner."""
    from battleline.rulesets.bf1900.damage.phase import DamageSettings

    log = make_log(majestic())
    for zone in (Compartment.FORWARD, Compartment.AFT):
        log.compartments[zone].level = FloodLevel.MODERATE
    log.compartments[Compartment.PORT].level = FloodLevel.LIGHT  # 5 points
    log.propulsion.damage()
    decls = {log.name: parse_declarations(log.name, "P; P; SINK-1")}
    dice, events = FixedDice([1, 6, 6, 6]), EventLog()  # P fails, P, SINK-1, sink roll
    settings = DamageSettings(sink_roll_dc_bonus=False, dice_per_event=2)
    run_damage_phase({log.name: log}, [], [], decls, CHARTS, dice, events, settings=settings)
    dice.assert_consumed()
    assert log.propulsion.damaged == 0  # the second P die repaired the box
    assert log.sinking is not None  # 6 against 6–6 at 5 points, the −1 ignored
