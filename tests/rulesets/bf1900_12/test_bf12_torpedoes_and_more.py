"""1D12 torpedo hits on the d12 (BF12C-TH), the lozenge main layout (BF12-MAIN-02), the
"Titanic" orientation (EX-BF12-06) and the damage codes of the charts (BF12-DTYPE-01)."""

from __future__ import annotations

import dataclasses

from bf12_helpers import CHARTS, mikasa, mikasa_class

from battleline.engine.events import EventLog
from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES, parse_code
from battleline.rulesets.bf1900.damage.locations import locate_main_hit
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, ShipClass
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.torpedoes import (
    TorpedoLaunch,
    course_relation,
    resolve_torpedoes,
    shot_aspect,
)
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
