"""The 1D6 combat charts as data (REF-BF6-04, REF-BF6-06, REF-BF6-18, REF-BF6-19).

Transcription tests read rows back from the packaged TOML; property tests check what the rules
text forces on any chart; validation tests feed malformed files through ``load_charts``.
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900 import charts as charts_mod
from battleline.rulesets.bf1900.charts import (
    COMMAND_FUNCTIONS,
    CRITICAL_LINES,
    LOCATIONS,
    REPAIR_ACTIONS,
    TORPEDO_ASPECTS,
    TORPEDO_COURSES,
    Charts,
    UnevenEffect,
    load_charts,
)
from battleline.rulesets.bf1900.damage.codes import parse_code
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import ShipLog

FACES = range(1, 7)
CHARTS = load_charts()
PACKAGED = Path(charts_mod.__file__).parent / "data" / "charts"


# -- the packaged charts: header and caching --------------------------------------------------


def test_packaged_charts_are_marked_reconstructed() -> None:
    """Every value is ours (REF-BF6-04): the charts say so and name their edition."""
    assert CHARTS.reconstructed is True
    assert CHARTS.edition == "1D6"
    assert CHARTS.version == "1.0"
    assert "packaged" in CHARTS.source
    for path in PACKAGED.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        assert "reconstructed = true" in text and 'edition = "1D6"' in text, path.name


def test_default_charts_are_cached() -> None:
    assert load_charts() is load_charts()


def test_user_directory_replaces_the_packaged_charts(tmp_path: Path) -> None:
    """A user's directory is loaded afresh, not from the cache."""
    user = _copy(tmp_path)
    _edit(
        user / "torpedo.toml",
        "converging      = { rake = 6, beam = 5 }",
        "converging      = { rake = 6, beam = 2 }",
    )
    charts = load_charts(user)
    assert charts is not load_charts()
    assert charts.torpedo_to_hit("converging", "beam") == 2
    assert charts.source == str(user)


def test_user_single_file_holds_every_table(tmp_path: Path) -> None:
    """One file may hold all the tables; headers appear once."""
    parts = []
    for i, path in enumerate(sorted(PACKAGED.glob("*.toml"))):
        lines = path.read_text(encoding="utf-8").splitlines()
        if i:
            lines = [
                ln for ln in lines if not ln.startswith(("version", "reconstructed", "edition"))
            ]
        parts.append("\n".join(lines))
    one = tmp_path / "all.toml"
    one.write_text("\n".join(parts), encoding="utf-8")
    charts = load_charts(one)
    assert charts.critical("explosion", 4) == CHARTS.critical("explosion", 4)
    assert charts.sink_roll(9) == CHARTS.sink_roll(9)


# -- transcription: rows read back from the TOML ---------------------------------------------


@pytest.mark.parametrize(
    ("roll", "ap", "he"),
    [
        (1, "vitals", "vitals"),
        (2, "upperworks", "upperworks"),
        (3, None, None),
        (4, None, None),
        (5, None, None),
        (6, None, None),
    ],
)
def test_location_rows(roll: int, ap: str | None, he: str | None) -> None:
    """AP: 1 Vitals, 2 Upperworks, 3–6 miss (rules-context.md). HE strikes as often (a shell's
    filling does not change whether it strikes; issue 12 calibration, docs/rules-gaps/charts.md)."""
    assert CHARTS.ap_location(roll) == ap
    assert CHARTS.he_location(roll) == he


@pytest.mark.parametrize(
    ("ammo", "location", "pct", "roll", "codes"),
    [
        (Ammo.AP, "vitals", 40, 6, ("P",)),
        (Ammo.AP, "vitals", 90, 6, ("P",)),  # no FL without penetration (issue 12)
        (Ammo.AP, "vitals", 120, 3, ("M",)),
        (Ammo.AP, "vitals", 120, 1, ()),
        (Ammo.AP, "vitals", 200, 1, ("CT",)),
        (Ammo.AP, "vitals", 200, 6, ("Px", "FL")),
        (Ammo.AP, "upperworks", 120, 1, ("TT",)),
        (Ammo.AP, "upperworks", 200, 6, ("Sx",)),
        (Ammo.HE, "vitals", 30, 6, ("F",)),
        (Ammo.HE, "vitals", 200, 6, ("Px", "FL")),
        (Ammo.HE, "upperworks", 75, 6, ("MISC",)),
        (Ammo.HE, "upperworks", 200, 6, ("MISC", "2F")),
    ],
)
def test_shell_damage_cells(
    ammo: Ammo, location: str, pct: float, roll: int, codes: tuple[str, ...]
) -> None:
    assert CHARTS.shell_damage(ammo, location, pct, roll) == codes


def test_misc_and_critical_rows() -> None:
    assert [CHARTS.misc_damage(r) for r in FACES] == [
        ("SL",),
        ("B",),
        ("DC",),
        ("BR",),
        ("EH",),
        ("SC",),
    ]
    assert CHARTS.critical("fire_external", 1) == ("XF",)
    assert CHARTS.critical("fire_internal", 4) == ("IF",)
    assert CHARTS.critical("heavy_flooding", 6) == ("100FL",)
    assert CHARTS.critical("severe_flooding", 6) == ("150FL",)
    assert CHARTS.critical("main_tt", 6) == ("EX",)
    assert CHARTS.critical("explosion", 4) == ("3F", "200FL")  # the 1D12 "3F, 200FL" shape
    assert CHARTS.critical("explosion", 6) == ("3F", "200FL", "EX")
    assert CHARTS.critical("elec_hydr", 6) == ("DC", "M")
    assert CHARTS.critical("steering", 5) == ("JP",)
    assert CHARTS.critical("steering", 1) == ()


def test_flooding_rows() -> None:
    assert CHARTS.flood_column_names == ("25>", "50>", "100>", "150>", "200>")
    assert [CHARTS.flood_occurrence("100>", r) for r in FACES] == [
        FloodLevel.LIGHT,
        FloodLevel.MODERATE,
        FloodLevel.MODERATE,
        FloodLevel.HEAVY,
        FloodLevel.HEAVY,
        FloodLevel.SEVERE,
    ]
    assert CHARTS.flood_occurrence("25>", 1) is FloodLevel.NONE
    assert CHARTS.flood_occurrence("200>", 6) is FloodLevel.SEVERE
    assert CHARTS.flood_effect(FloodLevel.LIGHT, 6) == ("DC",)
    assert CHARTS.flood_effect(FloodLevel.MODERATE, 6) == ("P",)
    assert CHARTS.flood_effect(FloodLevel.SEVERE, 6) == ("Px", "P")


def test_uneven_sinking_control_and_torpedo_rows() -> None:
    assert CHARTS.uneven_flooding("side", 3) == UnevenEffect(1, 2, 1, True)
    assert CHARTS.uneven_flooding("fore_aft", 2) == UnevenEffect(1, 0, 0, False)
    assert CHARTS.sink_roll(5) == (6, 6, 8)
    assert CHARTS.sink_roll(9) == (4, 6, 4)
    assert CHARTS.sink_roll(16) == (1, 6, 1)
    assert CHARTS.repair_range("P_BR") == (5, 6)
    assert CHARTS.repair_range("M_ST") == (6, 6)
    assert CHARTS.repair_range("STOP_HVY_FL") == (4, 6)
    assert CHARTS.command_range("FLOOD_MAGAZINE") == (3, 6)
    assert CHARTS.command_range("RECOVER_CT") == (4, 6)
    assert CHARTS.torpedo_to_hit("converging", "beam") == 5  # calibrated, issue 12 (was 4)
    assert CHARTS.torpedo_to_hit("diverging", "rake") == 6
    assert CHARTS.torpedo_to_hit("stationary_nets", "beam") == 6


# -- what the rules force on any chart --------------------------------------------------------


def test_EX_DRV_04_four_points_no_sink_roll_five_points_roll() -> None:
    """BF6-SINK-01, EX-DRV-04: 4 flooding points give no roll; Moderate 2 + Heavy 3 = 5 do."""
    log = _log()
    log.compartments[Compartment.FORWARD].level = FloodLevel.SEVERE
    assert log.flooding_points == 4
    assert CHARTS.sink_roll(log.flooding_points) is None
    log.compartments[Compartment.FORWARD].level = FloodLevel.MODERATE
    log.compartments[Compartment.AFT].level = FloodLevel.HEAVY
    assert log.flooding_points == 5
    row = CHARTS.sink_roll(log.flooding_points)
    assert row is not None and 1 <= row[0] <= row[1] <= 6 and row[2] >= 1


def test_BF6_SINK_02_every_row_has_a_range_and_turns() -> None:
    """Rows 5..16: the sink range never narrows and the ship never sinks more slowly as the
    flooding rises (design check)."""
    rows = [CHARTS.sink_roll(p) for p in range(5, 17)]
    assert all(r is not None for r in rows)
    widths = [r[1] - r[0] for r in rows if r]
    turns = [r[2] for r in rows if r]
    assert widths == sorted(widths) and turns == sorted(turns, reverse=True)
    assert CHARTS.sink_roll(20) == CHARTS.sink_roll(16)


def test_BF6_DMG_05_fire_lines_can_put_fires_out() -> None:
    for line in ("fire_external", "fire_internal"):
        assert any("XF" in CHARTS.critical(line, r) for r in FACES), line


def test_BF6_DMG_06_flooding_lines_can_make_new_flood_hits() -> None:
    """Hvy/Sev FL may trigger fresh FL hits, as nnnFL in a named column (BF12C-CRIT-04)."""
    for line in ("heavy_flooding", "severe_flooding"):
        cols = [parse_code(c).column for r in FACES for c in CHARTS.critical(line, r)]
        assert any(c is not None for c in cols), line


def test_BF12C_CRIT_lines_hold_their_kinds_of_result() -> None:
    """Main/TT leads to a (rare) explosion; explosions mix fires, flooding and more explosions;
    elec/hydr fails DC, main and other guns; steering gives TR hits, rudder damage and jams."""

    def names(line: str) -> set[str]:
        return {parse_code(c).name for r in FACES for c in CHARTS.critical(line, r)}

    assert "EX" in names("main_tt")
    assert sum("EX" in CHARTS.critical("main_tt", r) for r in FACES) == 1
    assert {"F", "IF", "FL", "EX"} <= names("explosion")
    assert {"DC", "M"} <= names("elec_hydr")
    assert {"ST", "R", "JP", "JS"} <= names("steering")


def test_REF_BF6_04_command_ranges_run_to_six() -> None:
    """A roll below a command function's range fails, so every range ends at 6."""
    for function in COMMAND_FUNCTIONS:
        lo, hi = CHARTS.command_range(function)
        assert hi == 6 and 1 <= lo <= 6
    for action in REPAIR_ACTIONS:
        lo, hi = CHARTS.repair_range(action)
        assert 1 <= lo <= hi <= 6


def test_BF6_DMG_13_fore_aft_less_deadly_than_side_to_side() -> None:
    """At every difference a trim does no more than a list of the same size."""
    for diff in range(0, 5):
        side, trim = CHARTS.uneven_flooding("side", diff), CHARTS.uneven_flooding("fore_aft", diff)
        assert trim.speed_boxes <= side.speed_boxes
        assert trim.tr_hits <= side.tr_hits
        assert trim.dc_boxes <= side.dc_boxes
        assert side.low_guns_silent or not trim.low_guns_silent
    assert CHARTS.uneven_flooding("side", 0).none
    assert not CHARTS.uneven_flooding("side", 1).none
    assert CHARTS.uneven_flooding("side", 9) == CHARTS.uneven_flooding("side", 4)


def test_uneven_effects_combine_over_both_axes() -> None:
    """AMB-53: both axes apply together."""
    both = CHARTS.uneven_flooding("side", 2) + CHARTS.uneven_flooding("fore_aft", 4)
    assert both == UnevenEffect(3, 2, 0, True)
    assert str(both) == "-3 speed boxes, +2 TR, low-side guns silent"
    assert str(UnevenEffect()) == "no effect"


def test_penetration_differential_columns() -> None:
    """Penetration equal to armour (100 %) does not penetrate; HE uses half the AP value."""
    assert CHARTS.differential(Ammo.AP, 9, 9) == 100.0
    assert CHARTS.differential_column(Ammo.AP, 100.0) == "51–100%"
    assert CHARTS.differential_column(Ammo.AP, 100.5) == "101–150%"
    assert CHARTS.differential_column(Ammo.AP, 50.0) == "≤50%"
    assert CHARTS.differential_column(Ammo.AP, 0.0) == "≤50%"
    assert CHARTS.differential_column(Ammo.AP, 150.01) == ">150%"
    assert CHARTS.differential(Ammo.HE, 13, 9) == pytest.approx(100 * 6.5 / 9)
    assert CHARTS.differential(Ammo.AP, 4, 0) == math.inf
    assert CHARTS.differential_column(Ammo.HE, math.inf) == ">150%"
    assert CHARTS.penetration_factor(Ammo.HE) == 0.5


def test_flood_columns_by_size_ratio() -> None:
    """Column "N>" from N % (AMB-48); under a quarter of the target's size, none
    (BF12C-FLOOD-03, the 1D6 analogue of EX-DRV-06)."""
    assert CHARTS.flood_column(2, 8) == "25>"  # exactly a quarter
    assert CHARTS.flood_column(2, 9) is None  # 22 %
    assert CHARTS.flood_column(5, 10) == "50>"
    assert CHARTS.flood_column(8, 8) == "100>"
    assert CHARTS.flood_column(8, 5) == "150>"
    assert CHARTS.flood_column(8, 2) == "200>"
    assert CHARTS.flood_column(0, 1) is None
    with pytest.raises(ValueError):
        CHARTS.flood_column(2, 0)


def test_flood_occurrence_never_milder_for_a_bigger_weapon() -> None:
    """Design check: each row rises left to right, each column top to bottom."""
    names = CHARTS.flood_column_names
    for roll in FACES:
        row = [CHARTS.flood_occurrence(c, roll) for c in names]
        assert row == sorted(row)
    for col in names:
        column = [CHARTS.flood_occurrence(col, r) for r in FACES]
        assert column == sorted(column)


@pytest.mark.parametrize(
    "call",
    [
        lambda c: c.ap_location(0),
        lambda c: c.misc_damage(7),
        lambda c: c.critical("fire", 1),
        lambda c: c.shell_damage(Ammo.AP, "deck", 100, 1),
        lambda c: c.shell_damage(Ammo.AP, "vitals", -1, 1),
        lambda c: c.flood_occurrence("75>", 1),
        lambda c: c.flood_effect(FloodLevel.NONE, 1),
        lambda c: c.uneven_flooding("diagonal", 1),
        lambda c: c.uneven_flooding("side", -1),
        lambda c: c.repair_range("FIRE"),
        lambda c: c.command_range("SCUTTLE"),
        lambda c: c.torpedo_to_hit("parallel", "beam"),
    ],
)
def test_bad_lookups_are_value_errors(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        call(CHARTS)


# -- hypothesis: every roll of every table gives valid codes -----------------------------------


def _valid(codes: tuple[str, ...]) -> bool:
    for code in codes:
        parsed = parse_code(code)
        if parsed.column is not None and f"{parsed.column}>" not in CHARTS.flood_column_names:
            return False
    return "-" not in codes


@given(
    ammo=st.sampled_from(list(Ammo)),
    location=st.sampled_from(LOCATIONS),
    pct=st.one_of(st.floats(min_value=0, max_value=1e6), st.just(math.inf)),
    roll=st.integers(1, 6),
)
def test_every_shell_roll_gives_valid_codes(
    ammo: Ammo, location: str, pct: float, roll: int
) -> None:
    assert _valid(CHARTS.shell_damage(ammo, location, pct, roll))


@given(roll=st.integers(1, 6), line=st.sampled_from(CRITICAL_LINES))
def test_every_line_roll_gives_valid_codes(roll: int, line: str) -> None:
    assert _valid(CHARTS.critical(line, roll))
    assert _valid(CHARTS.misc_damage(roll))
    for level in (FloodLevel.LIGHT, FloodLevel.MODERATE, FloodLevel.HEAVY, FloodLevel.SEVERE):
        assert _valid(CHARTS.flood_effect(level, roll))


@given(weapon=st.floats(0, 20), target=st.integers(1, 10), roll=st.integers(1, 6))
def test_every_flood_roll_gives_a_level(weapon: float, target: int, roll: int) -> None:
    column = CHARTS.flood_column(weapon, target)
    if column is None:
        assert weapon * 4 < target
    else:
        assert isinstance(CHARTS.flood_occurrence(column, roll), FloodLevel)


def test_every_torpedo_cell_is_a_die_score() -> None:
    for course in TORPEDO_COURSES:
        for aspect in TORPEDO_ASPECTS:
            assert 1 <= CHARTS.torpedo_to_hit(course, aspect) <= 6


# -- validation: malformed files --------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "old", "new", "table", "field", "reason"),
    [
        pytest.param(
            "critical.toml",
            'fire_external   = [ "XF",   "XF",   "XF",  ',
            'fire_external   = [ "XF",   "XF",  ',
            "critical.fire_external",
            "",
            "exactly 6 cells",
            id="line-with-five-faces",
        ),
        pytest.param(
            "critical.toml",
            '"SL",   "S",',
            '"SL",   "QQ",',
            "critical.elec_hydr",
            "3",
            "unknown damage code 'QQ'",
            id="unknown-code",
        ),
        pytest.param(
            "critical.toml",
            '"3F, 200FL"',
            '"3F, 300FL"',
            "critical.explosion",
            "4",
            "no flooding column '300>'",
            id="flood-column-missing",
        ),
        pytest.param(
            "critical.toml",
            '"100FL" ]',
            '"FL" ]',
            "critical.heavy_flooding",
            "6",
            "plain FL needs a weapon size",
            id="plain-fl-outside-hit-tables",
        ),
        pytest.param(
            "critical.toml",
            '"-",    "ST"',
            '"12F",    "ST"',
            "critical.steering",
            "1",
            "count above 9",
            id="count-too-big",
        ),
        pytest.param(
            "hits.toml",
            'upperworks = "2", miss = "3-6"',
            'upperworks = "1-2", miss = "3-6"',
            "ap.location",
            "upperworks",
            "ranges overlap",
            id="location-overlap",
        ),
        pytest.param(
            "hits.toml",
            'upperworks = "2", miss = "3-6"',
            'upperworks = "2", miss = "4-6"',
            "ap.location",
            "",
            "face 3 not covered",
            id="location-gap",
        ),
        pytest.param(
            "hits.toml",
            '{ name = "101–150%", over = 100, upto = 150 },\n    { name = ">150%"',
            '{ name = "101–150%", over = 110, upto = 150 },\n    { name = ">150%"',
            "ap.columns",
            "[2].over",
            "contiguous",
            id="columns-not-contiguous",
        ),
        pytest.param(
            "hits.toml",
            '1 = [ "-",   "-",     "-",      "CT" ]',
            '1 = [ "-",   "-",     "CT" ]',
            "ap.vitals",
            "1",
            "expected 4 cells",
            id="row-missing-a-column",
        ),
        pytest.param(
            "hits.toml",
            '6 = [ "T",   "MISC",  "Sx",     "Sx" ]',
            "",
            "ap.upperworks",
            "6",
            "missing",
            id="face-row-missing",
        ),
        pytest.param(
            "flooding.toml",
            '9  = { sink = "4-6", turns = 4 }\n',
            "",
            "sinking",
            "9",
            "contiguously",
            id="sinking-row-missing",
        ),
        pytest.param(
            "flooding.toml",
            '5  = { sink = "6",   turns = 8 }',
            '4  = { sink = "6",   turns = 8 }',
            "sinking",
            "4",
            "no sink roll",
            id="sinking-row-4",
        ),
        pytest.param(
            "flooding.toml",
            '7  = { sink = "6"',
            '7  = { sink = "6-7"',
            "sinking",
            "7.sink",
            "within 1–6",
            id="range-beyond-six",
        ),
        pytest.param(
            "flooding.toml",
            '"none",     "light",    "moderate", "heavy",    "heavy" ]',
            '"none",     "medium",    "moderate", "heavy",    "heavy" ]',
            "flooding.occurrence",
            "3 [50>]",
            "unknown flooding level 'medium'",
            id="bad-flood-level",
        ),
        pytest.param(
            "control.toml",
            'RECOVER_CT = "4-6"',
            'RECOVER_CT = "4-5"',
            "command_functions",
            "RECOVER_CT",
            "must end at 6",
            id="command-range-not-to-six",
        ),
        pytest.param(
            "control.toml",
            'M_ST = "6"',
            'M_ST = "0-6"',
            "damage_control",
            "M_ST",
            "within 1–6",
            id="repair-range-from-zero",
        ),
        pytest.param(
            "control.toml",
            'P_BR = "5-6"',
            'P_BR = "five"',
            "damage_control",
            "P_BR",
            "1D6 range",
            id="repair-range-words",
        ),
        pytest.param(
            "control.toml",
            'SECURE_R = "3-6"',
            'SECURE_RUDDER = "3-6"',
            "damage_control",
            "SECURE_RUDDER",
            "unknown field",
            id="typo-in-key",
        ),
        pytest.param(
            "torpedo.toml",
            "diverging       = { rake = 6, beam = 6 }",
            "diverging       = { rake = 7, beam = 5 }",
            "torpedo_hits",
            "diverging.rake",
            "between 1 and 6",
            id="torpedo-score-seven",
        ),
        pytest.param(
            "torpedo.toml",
            'edition = "1D6"',
            'edition = "1D12"',
            "(file header)",
            "edition",
            "1D6",
            id="wrong-edition",
        ),
        pytest.param(
            "torpedo.toml",
            'version = "1.0"',
            'version = "2.0"',
            "(file header)",
            "version",
            "differs",
            id="versions-disagree",
        ),
        pytest.param(
            "torpedo.toml",
            "reconstructed = true",
            'reconstructed = "yes"',
            "(file header)",
            "reconstructed",
            "true or false",
            id="reconstructed-not-bool",
        ),
        pytest.param(
            "torpedo.toml",
            "[torpedo_hits]",
            "[torpedo_hitz]",
            "torpedo_hitz",
            "",
            "unknown table",
            id="unknown-table",
        ),
        pytest.param(
            "flooding.toml",
            "1 = { speed_boxes = 0, tr_hits = 1,",
            "1 = { speed_boxes = -1, tr_hits = 1,",
            "uneven.side",
            "1.speed_boxes",
            "between 0 and 6",
            id="uneven-negative",
        ),
    ],
)
def test_malformed_chart_names_file_table_and_field(
    tmp_path: Path, file: str, old: str, new: str, table: str, field: str, reason: str
) -> None:
    user = _copy(tmp_path)
    _edit(user / file, old, new)
    with pytest.raises(RulesDataError) as info:
        load_charts(user)
    err = info.value
    assert (Path(err.file).name, err.table, err.field) == (file, table, field)
    assert reason in err.reason
    assert "\n" not in str(err) and file in str(err)


def test_bad_toml_syntax(tmp_path: Path) -> None:
    user = _copy(tmp_path)
    _edit(user / "control.toml", 'P_BR = "5-6"', "P_BR = 5-6")
    with pytest.raises(RulesDataError, match=r"control\.toml.*not valid TOML"):
        load_charts(user)


def test_missing_table(tmp_path: Path) -> None:
    user = _copy(tmp_path)
    (user / "torpedo.toml").unlink()
    with pytest.raises(RulesDataError) as info:
        load_charts(user)
    assert info.value.table == "torpedo_hits" and "missing" in info.value.reason


def test_table_defined_twice(tmp_path: Path) -> None:
    user = _copy(tmp_path)
    shutil.copy(user / "torpedo.toml", user / "torpedo2.toml")
    with pytest.raises(RulesDataError, match="defined twice"):
        load_charts(user)


def test_missing_path_and_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(RulesDataError, match="no such chart file"):
        load_charts(tmp_path / "nowhere.toml")
    with pytest.raises(RulesDataError, match=r"no \.toml chart files"):
        load_charts(tmp_path)


# -- helpers ----------------------------------------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    user = tmp_path / "charts"
    shutil.copytree(PACKAGED, user)
    return user


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test fixture out of date: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _log() -> ShipLog:
    from conftest import majestic

    return ShipLog("Majestic", majestic())


def test_charts_type_is_frozen() -> None:
    with pytest.raises(AttributeError):
        CHARTS.version = "2"  # type: ignore[misc]
    assert isinstance(CHARTS, Charts)
