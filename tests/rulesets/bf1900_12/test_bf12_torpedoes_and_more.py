"""1D12 torpedo hits on the d12 (BF12C-TH), the lozenge main layout (BF12-MAIN-02), the
"Titanic" orientation (EX-BF12-06) and the damage codes of the charts (BF12-DTYPE-01)."""

from __future__ import annotations

import dataclasses
from typing import Any

from bf12_helpers import CHARTS, mikasa, mikasa_class

from battleline.engine.events import EventKind, EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES, parse_code
from battleline.rulesets.bf1900.damage.locations import locate_main_hit
from battleline.rulesets.bf1900.hits import Aspect, TorpedoHit
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, Rating, ShipClass
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.torpedoes import (
    TorpedoLaunch,
    course_relation,
    resolve_torpedoes,
    shot_aspect,
)
from battleline.rulesets.bf1900_12 import ruleset as bf12
from battleline.rulesets.bf1900_12.damage import resolve_torpedo_hit
from battleline.rulesets.bf1900_12.edition import runs_under_size, to_1d12
from battleline.testing import FixedDice


class _Bases:
    def base_size_m(self, cls: ShipClass) -> tuple[float, float]:
        return 100.0, 20.0


def _torpedo(target_heading: float, roll: int, *, harbour: bool = False) -> tuple[list, FixedDice]:  # type: ignore[type-arg]
    logs = {"Asahi": ShipLog("Asahi", mikasa_class(), "Blue"), "Mikasa": mikasa()}
    poses = {"Asahi": Pose(0.0, 0.0, 0.0), "Mikasa": Pose(1000.0, 0.0, target_heading)}
    dice = FixedDice([roll])
    hits = resolve_torpedoes(
        [TorpedoLaunch.parse("Asahi: TT beam -> Mikasa")],
        poses,
        logs,
        _Bases(),
        [],
        CHARTS,
        dice,
        EventLog(),
        harbour=harbour,
        die=12,
    )
    dice.assert_consumed()
    return hits, dice


def test_BF12C_TH_01_a_torpedo_rolls_a_d12_against_the_chart() -> None:
    """BF12C-TH-01, BF12C-TH-03, AMB-54: launched from the target's beam arc on converging
    courses it needs the converging/beam value on a d12; the hit carries the 1D12 torpedo size
    (8 × 12 = 96)."""
    need = CHARTS.torpedo_to_hit("converging", "beam")
    hits, dice = _torpedo(0.0, need)
    assert dice.history[0].sides == 12
    assert len(hits) == 1 and hits[0].size == 96
    assert _torpedo(0.0, need - 1)[0] == []


def test_BF12C_TH_02_and_EX_BF12C_07_diverging() -> None:
    """BF12C-TH-02, EX-BF12C-07: X's bow turned even slightly away from Y → diverging, whatever
    Y's heading; diverging needs a higher roll."""
    x = Pose(0.0, 0.0, 91.0)  # Y lies dead north: 91° off X's bow
    for y_heading in (0.0, 90.0, 180.0, 270.0):
        assert course_relation(x, Pose(0.0, 1000.0, y_heading)) == "diverging"
    assert course_relation(Pose(0.0, 0.0, 89.0), Pose(0.0, 1000.0, 180.0)) == "converging"
    need = CHARTS.torpedo_to_hit("diverging", "beam")
    assert _torpedo(10.0, need - 1)[0] == []
    assert len(_torpedo(10.0, need)[0]) == 1


def test_BF12C_TH_03_rake_from_the_front_or_rear_arc() -> None:
    """BF12C-TH-03: a launch from inside the target's front or rear arc is a rake, from a beam
    arc a beam shot."""
    target = Pose(0.0, 0.0, 0.0)
    assert shot_aspect(Pose(0.0, 1000.0, 180.0), target) == "rake"
    assert shot_aspect(Pose(0.0, -1000.0, 0.0), target) == "rake"
    assert shot_aspect(Pose(1000.0, 0.0, 270.0), target) == "beam"


def test_BF12C_TH_04_stationary_with_nets_only_at_anchor() -> None:
    """BF12C-TH-04: the "Stationary with nets" line only for ships a scenario puts at anchor."""
    need = CHARTS.torpedo_to_hit("stationary_nets", "beam")
    assert need > CHARTS.torpedo_to_hit("converging", "beam")
    assert _torpedo(0.0, need - 1, harbour=True)[0] == []
    assert len(_torpedo(0.0, need - 1)[0]) == 1  # in open water the ordinary line applies


def test_BF12_MAIN_02_lozenge_thirds_on_a_d12() -> None:
    """BF12-MAIN-02: a lozenge layout splits the d12 in thirds: 1–4 forward, 5–8 the wing turret
    on the embattled side, 9–12 aft."""
    from battleline.rulesets.bf1900.shipdb import get_ship_class
    from battleline.rulesets.bf1900_12.edition import to_1d12

    base = to_1d12(get_ship_class("Yoshino"))  # main A, Z and wings P, R
    cls = dataclasses.replace(base, lozenge=True)
    log = ShipLog("Yoshino", cls, "Blue")
    keys = []
    for face in (1, 4, 5, 8, 9, 12):
        dice = FixedDice([face])
        mount = locate_main_hit(log, dice, Aspect.PORT, die=12)
        dice.assert_consumed()
        assert mount is not None
        keys.append(mount.key)
    assert keys[0] == keys[1] == "A" and keys[4] == keys[5] == "Z"
    assert keys[2] == keys[3] and keys[2] in ("P", "R")


def test_EX_BF12_06_titanic_orientation() -> None:
    """EX-BF12-06 (as EX-BF6-18), BF12-UNV-01: flooding forward sits the ship down by the bows."""
    log = mikasa()
    log.compartments[Compartment.FORWARD].level = FloodLevel.SEVERE
    assert "down by the bows" in " ".join(log.listing)
    assert log.fore_aft_difference == 4 and log.side_to_side_difference == 0


def test_BF12_DTYPE_01_every_chart_code_has_an_effect() -> None:
    """BF12-DTYPE-01, REF-BF12-01: the code-bearing charts (Shell Hits both portions, Misc,
    Critical Effects, Flooding Effects) hold only codes the damage-code mapping knows."""
    cells = [
        *(c for row in CHARTS.penetration for c in row),
        *(c for row in CHARTS.no_penetration for c in row),
        *CHARTS.misc,
        *(c for line in CHARTS.critical_lines.values() for c in line),
        *(c for line in CHARTS.effects.values() for c in line),
    ]
    names = {parse_code(code).name for cell in cells for code in cell}
    assert names <= CODE_NAMES
    assert {"FL", "Px", "F", "S"} <= names
    assert "T" not in names and "B" not in names and "DC" not in names  # DIFF-10, DIFF-03


# -- running depth on the 1D12 size scale (BF6-TORP-07/08, DIFF-23) ----------------------------


def _duel_with_target(target_class: str) -> tuple[Any, TorpedoLaunch]:
    """cruiser-duel-1d12 with Kasagi replaced by ``target_class`` (on the 1D12 scale) 700 m off
    Yoshino's port beam, and Yoshino's beam-tube launch at her."""
    state = bf12.new_state("cruiser-duel-1d12", 1)
    state.logs["Kasagi"].cls = to_1d12(get_ship_class(target_class))
    state.poses["Yoshino"] = Pose(0.0, 0.0, 90.0)
    state.poses["Kasagi"] = Pose(0.0, 700.0, 90.0)
    return state, TorpedoLaunch.parse("Yoshino: TT beam -> Kasagi")


def test_BF6_TORP_07_normal_depth_misses_size_4_or_less_on_the_1d12_scale() -> None:
    """BF6-TORP-07, EX-DRV-02, DIFF-23: seed 000 — "A torpedo running at normal depth will always
    miss vessels whose size is 4 or less". On the 1D12 scale size 4 is 4 × 5.5 = 22: the torpedo
    phase of the 1D12 ruleset lets Yoshino's torpedo run under a size-17 gunboat and a size-22
    cruiser without a die, and rolls the d12 against a size-28 one."""
    assert runs_under_size() == 22
    for name, size in (("Sharpshooter", 17), ("Chih Yuen", 22)):
        state, launch = _duel_with_target(name)
        assert state.logs["Kasagi"].cls.size == size
        dice, events = FixedDice([]), EventLog()
        bf12.resolve_torpedo(state, {"Blue": [launch], "Red": []}, dice, events)  # type: ignore[arg-type]
        dice.assert_consumed()
        assert state.torpedo_hits == []
        # the firer's detailed miss (the public one says only that it missed)
        misses = [e for e in events.events if e.kind is EventKind.TORPEDO_MISS and not e.public]
        assert [e.data["reason"] for e in misses] == ["depth"]
    state, launch = _duel_with_target("Yoshino")  # a protected cruiser, size 33
    dice = FixedDice([12])
    bf12.resolve_torpedo(state, {"Blue": [launch], "Red": []}, dice, EventLog())  # type: ignore[arg-type]
    dice.assert_consumed()
    assert len(state.torpedo_hits) == 1 and dice.history[0].sides == 12


def test_BF6_TORP_08_shallow_torpedo_halved_against_good_or_great_protection() -> None:
    """BF6-TORP-08, AMB-20, BF12-DMG-06: seed 000 — a shallow torpedo "will have its size halved
    against any vessel with a flood protection rating of good or great". Mikasa (size 55, great
    protection): a shallow 96 floods as 48 (87 % → the 75> column), a normal-depth 96 as 96
    (174 % → 150>). Against a ship of poor protection the shallow torpedo keeps its 96."""
    target = mikasa()
    assert target.cls.flood_protection is Rating.GREAT

    def hit(log: ShipLog, shallow: bool) -> EventLog:
        dice, events = FixedDice([1]), EventLog()  # Occurrence 1: no flooding in any column
        torpedo = TorpedoHit("Kaiman", log.name, "centreline", 96, shallow, Aspect.PORT)
        resolve_torpedo_hit(log, torpedo, CHARTS, dice, events)
        dice.assert_consumed()
        return events

    shallow = hit(target, True)
    struck = [e for e in shallow.events if e.kind is EventKind.TORPEDO_HIT]
    assert struck[0].data["size"] == 48 and struck[0].data["halved"]
    assert "halved to 48" in struck[0].text
    assert any("75> column" in e.text for e in shallow.events)
    normal = hit(mikasa(), False)
    assert any("150> column" in e.text for e in normal.events)
    poor = ShipLog("Yoshino", to_1d12(get_ship_class("Yoshino")), "Blue")
    assert poor.cls.flood_protection is Rating.POOR
    kept = [e for e in hit(poor, True).events if e.kind is EventKind.TORPEDO_HIT]
    assert kept[0].data["size"] == 96 and not kept[0].data["halved"]


def test_BF6_TORP_07_a_normal_depth_hit_reported_on_a_small_ship_does_no_harm() -> None:
    """BF6-TORP-07: a normal-depth torpedo hit against a 1D12 size of 22 or less (as a tabletop
    report could give) floods nothing and rolls no die."""
    boat = ShipLog("Havock", to_1d12(get_ship_class("Havock")), "Red")
    dice, events = FixedDice([]), EventLog()
    torpedo = TorpedoHit("Kasagi", "Havock", "beam", 96, False, Aspect.PORT)
    resolve_torpedo_hit(boat, torpedo, CHARTS, dice, events)
    dice.assert_consumed()
    assert any("runs under" in e.text and "BF6-TORP-07" in e.text for e in events.events)
