"""The 1D12 combat charts as data (BF12C-GEN-01, REF-BF12-02..10) and the facts the texts fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from bf12_helpers import CHARTS

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.ship import FloodLevel
from battleline.rulesets.bf1900_12.charts import DIE, load_charts

DATA = Path(__file__).parents[3] / "src/battleline/rulesets/bf1900_12/data/charts"


def test_BF12C_GEN_01_every_chart_area_is_loaded_reconstructed_d12() -> None:
    """BF12C-GEN-01: Shell Hits, Misc, Flooding, Sinking, Critical, Damage Control, Torpedo Hits
    and Uneven Flooding, all on the d12 (DIFF-01), marked reconstructed."""
    c = CHARTS
    assert c.edition == "1D12" and c.die == DIE == 12 and c.reconstructed
    assert len(c.penetration) == len(c.no_penetration) == len(c.misc) == 12
    assert all(len(line) == 12 for line in c.critical_lines.values())
    assert len(c.occurrence) == 12 and all(len(v) == 12 for v in c.effects.values())
    assert sorted(c.sinking) == list(range(5, 17))
    assert set(c.uneven) == {"side", "fore_aft"}
    assert c.torpedo_to_hit("converging", "beam") <= 12


def test_BF12C_SHL_05_a_third_of_every_column_does_no_damage() -> None:
    """BF12C-SHL-05: 4 of the 12 faces in each column give no damage."""
    for rows in (CHARTS.penetration, CHARTS.no_penetration):
        for col in range(len(rows[0])):
            assert sum(1 for row in rows if row[col] == ()) == 4


@pytest.mark.parametrize(
    ("penetration", "armour", "portion", "column"),
    [
        (6, 12, "no penetration", "<=1/2"),
        (7, 12, "no penetration", ">1/2"),
        (12, 12, "no penetration", ">1/2"),
        (13, 12, "penetration", "1,2"),
        (14, 12, "penetration", "1,2"),
        (15, 12, "penetration", "3,4"),
        (19, 12, "penetration", "5-7"),
        (20, 12, "penetration", "8+"),
    ],
)
def test_BF12C_SHL_01_02_03_column_by_penetration_against_armour(
    penetration: int, armour: int, portion: str, column: str
) -> None:
    """BF12C-SHL-01, BF12C-SHL-02, BF12C-SHL-03, AMB-43, AMB-46: above armour the margin picks the
    Penetration column ("1,2" = margin 1 or 2); otherwise at or below half the armour the left No
    Penetration column, above half the right one."""
    col = CHARTS.shell_column(penetration, armour)
    assert (col.portion, col.name) == (portion, column)


def test_EX_BF12C_03_column_1_2_faces() -> None:
    """EX-BF12C-03 (REF-BF12-02): 14 against 12 reads column "1,2"; of faces 3 and 10 exactly
    one is a fire (AMB-47), and face 12 is FL."""
    col = CHARTS.shell_column(14, 12)
    assert col.name == "1,2"
    pair = [CHARTS.shell_damage(col, 3), CHARTS.shell_damage(col, 10)]
    assert sum(codes.count("F") for codes in pair) == 1
    assert () in pair
    assert CHARTS.shell_damage(col, 12) == ("FL",)


def test_EX_BF12C_04_and_EX_DRV_06_flooding_columns() -> None:
    """EX-BF12C-04, BF12C-FLOOD-01, AMB-48: size 60 against 55 reads "100>", where 8 is
    Moderate and 9 on the Moderate Effects line is PX. EX-DRV-06, BF12C-FLOOD-03: size 13
    against 55 cannot flood, 14 can."""
    assert CHARTS.flood_column(60, 55) == "100>"
    assert CHARTS.flood_occurrence("100>", 8) is FloodLevel.MODERATE
    assert CHARTS.flood_effect(FloodLevel.MODERATE, 9) == ("Px",)
    assert CHARTS.flood_column(13, 55) is None
    assert CHARTS.flood_column(14, 55) == "25>"
    assert CHARTS.flood_column(110, 55) == "200>"


def test_flooding_lookups_refuse_what_no_table_holds() -> None:
    """The look-ups the 1D12 charts share with the 1D6 ones refuse a face the d12 lacks, an
    unknown column and a negative weapon size, each naming it."""
    with pytest.raises(ValueError, match="a d12 roll must be 1–12, not 13"):
        CHARTS.flood_occurrence("100>", 13)
    with pytest.raises(ValueError, match="unknown flooding column '30>'"):
        CHARTS.flood_occurrence("30>", 4)
    with pytest.raises(ValueError, match="cannot be negative"):
        CHARTS.flood_column(-1, 55)
    assert CHARTS.flood_effect(FloodLevel.MODERATE, 12)  # the top face reads the last row


def test_BF12C_CRIT_03_to_08_lines() -> None:
    """BF12C-CRIT-01, BF12C-CRIT-02, BF12C-CRIT-03, BF12C-CRIT-04, BF12C-CRIT-05, BF12C-CRIT-06,
    BF12C-CRIT-07, BF12C-CRIT-08: Fire 10–11 → Misc, nothing else (AMB-52); Sev/Hvy FL 10+ → a roll
    in the named column (150FL at 11); Main/TT 12 → Explosion; an Explosion result "3F, 200FL";
    Elec/Hydr and Steering lines hit weapons and the steering."""
    fire = [CHARTS.critical("fire", f) for f in range(1, 13)]
    assert [f for f, c in enumerate(fire, 1) if c] == [10, 11]
    assert fire[9] == fire[10] == ("MISC",)
    flood = [CHARTS.critical("flooding", f) for f in range(1, 13)]
    assert all(c == () for c in flood[:9]) and flood[10] == ("150FL",)
    assert all(c[0].endswith("FL") for c in flood[9:])
    assert CHARTS.critical("main_tt", 12) == ("EX",)
    assert "EX" not in {c for f in range(1, 12) for c in CHARTS.critical("main_tt", f)}
    assert ("3F", "200FL") in [CHARTS.critical("explosion", f) for f in range(1, 13)]
    steering = {c for f in range(1, 13) for c in CHARTS.critical("steering", f)}
    assert {"JP", "JS", "ST"} <= steering
    elec = {c for f in range(1, 13) for c in CHARTS.critical("elec_hydr", f)}
    assert {"M", "S"} <= elec
    # The shared 1D6 line names reach the 1D12 lines.
    assert CHARTS.critical("fire_external", 10) == ("MISC",)
    assert CHARTS.critical("severe_flooding", 11) == CHARTS.critical("heavy_flooding", 11)


def test_BF12C_MISC_01_every_misc_face_has_codes() -> None:
    """BF12C-MISC-01, REF-BF12-04: one d12 gives the codes to apply."""
    assert all(CHARTS.misc_damage(f) for f in range(1, 13))
    with pytest.raises(ValueError, match="1–12"):
        CHARTS.misc_damage(13)


def test_BF12C_DCC_01_and_repair_values() -> None:
    """BF12C-DCC-01, BF12-REP-02, BF12-REP-03, BF12-REP-04, BF12-REP-05, BF12-CMDA-02, BF12-CMDA-04,
    BF12-CMDA-06 (REF-BF12-08): main, propulsion, steering 12; secondary and fire 11–12; sink
    modifier 10–12; flood magazine and counterflood 4–12; recover CT 7–12."""
    r = CHARTS.repair_range
    assert r("main") == r("propulsion") == r("steering") == (12, 12)
    assert r("secondary") == r("fire") == (11, 12)
    assert r("sink_modifier") == (10, 12)
    assert r("flood_magazine") == r("counterflood") == (4, 12)
    assert r("recover_ct") == (7, 12)


def test_BF12C_SINKC_01_rows_start_at_five_points() -> None:
    """BF12C-SINKC-01, BF12-SINK-01, EX-DRV-04: no row below 5 points; ranges widen with the
    flooding."""
    assert CHARTS.sink_range(4) is None
    assert CHARTS.sink_range(5) == (12, 12)
    lows = [CHARTS.sink_range(p)[0] for p in range(5, 17)]  # type: ignore[index]
    assert lows == sorted(lows, reverse=True)


def test_BF12C_TH_01_torpedo_cells_are_d12_scores() -> None:
    """BF12C-TH-01, BF12C-TH-04: converging/diverging × rake/beam, plus Stationary with nets;
    diverging and rakes are harder (AMB-54)."""
    t = CHARTS.torpedo_to_hit
    for course in ("converging", "diverging", "stationary_nets"):
        for aspect in ("rake", "beam"):
            assert 1 <= t(course, aspect) <= 12
    assert t("diverging", "beam") > t("converging", "beam")
    assert t("converging", "rake") > t("converging", "beam")


def _copy(tmp_path: Path, replace: tuple[str, str, str] | None = None) -> Path:
    for f in DATA.glob("*.toml"):
        text = f.read_text()
        if replace and f.name == replace[0]:
            assert replace[1] in text
            text = text.replace(replace[1], replace[2])
        (tmp_path / f.name).write_text(text)
    return tmp_path


def test_a_user_chart_directory_replaces_the_packaged_one(tmp_path: Path) -> None:
    """Charts are data: a user directory loads and is validated the same way."""
    charts = load_charts(
        _copy(tmp_path, ("control.toml", 'recover_ct = "7-12"', 'recover_ct = "8-12"'))
    )
    assert charts.repair_range("recover_ct") == (8, 12)


@pytest.mark.parametrize(
    ("file", "old", "new", "field"),
    [
        ("shell_hits.toml", 'edition = "1D12"', 'edition = "1D6"', "edition"),
        ("shell_hits.toml", '12 = [ "FL",  "FL",  "FL, F",   "Mx, FL" ]', '12 = [ "FL" ]', "12"),
        ("critical.toml", '"MISC", "MISC", "-"]', '"MISC", "MISC", "XYZ"]', "12"),
        ("control.toml", 'fire = "11-12"', 'fire = "11-13"', "fire"),
        ("flooding.toml", '5 = "12"', '5 = "twelve"', "5"),
    ],
)
def test_malformed_chart_files_raise_rules_data_error(
    tmp_path: Path, file: str, old: str, new: str, field: str
) -> None:
    """A bad value names the file, the table and the field."""
    with pytest.raises(RulesDataError) as err:
        load_charts(_copy(tmp_path, (file, old, new)))
    assert file in str(err.value) and field in str(err.value)
