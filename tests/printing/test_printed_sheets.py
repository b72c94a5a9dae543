"""The printed sheets of issue 14: the gunnery log's guns column and turn rows to the turn limit
(BF6-GEN-05, BF6-TGT-02), small ships two logs a sheet (BF6-GEN-04), A4 and US Letter, the
damage-codes key (REF-BF6-10), the scale and range-bracket table (REF-BF6-01, BF6-DZ-01/02) and
the set-up sheet (BF6-GEN-06)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from pdf_geometry import shapes
from typer.testing import CliRunner

from battleline.cli import app
from battleline.game import new_game
from battleline.printing import scenario_sections, write_scenario_aids
from battleline.printing.compact_log import SMALL_TYPES, fits_half_sheet, is_half_sheet
from battleline.printing.gunnery_log_pdf import (
    ROWS_PER_SHEET,
    SHIP_CELLS,
    GunnerySection,
    division_sections,
    write_gunnery_logs,
)
from battleline.printing.paper import PAPERS, get_paper
from battleline.printing.reference_pdf import CODE_KEY, write_reference
from battleline.printing.setup_pdf import placements, table_corner
from battleline.printing.shiplog_pdf import write_ship_logs
from battleline.rulesets.bf1900.damage.codes import CODE_NAMES
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.shipdb import class_of_ship, load_ship_classes
from battleline.rulesets.bf1900.shiplog import ShipLog, SinkingState

pypdf = pytest.importorskip("pypdf")

SMALL = get_scale("small")
MM = 72 / 25.4


def texts(path: Path) -> list[str]:
    return [p.extract_text() for p in pypdf.PdfReader(str(path)).pages]


def log(name: str, side: str = "") -> ShipLog:
    return ShipLog(name=name, cls=class_of_ship(name), side=side)


# -- the gunnery log ---------------------------------------------------------------------------


def _row_lines(page) -> list[float]:
    """Heights (y) of the full-width horizontal rules of a gunnery sheet: the turn rows."""
    width = float(page.mediabox.width)
    ys = []
    for s in shapes(page):
        if s.start is not None and len(s.lines) == 1 and not s.runs:
            (x0, y0), (x1, y1) = s.start, s.lines[0]
            if abs(y0 - y1) < 0.01 and abs(x1 - x0) > 0.85 * width:
                ys.append(round(y0, 2))
    return sorted(set(ys), reverse=True)


def test_BF6_TGT_02_every_ship_column_has_a_guns_cell(tmp_path: Path) -> None:
    sections = division_sections("1st", ["Mikasa", "Shikishima", "Fuji", "Asahi"])
    sections += division_sections("2nd", ["Kasuga", "Nisshin"])
    (text,) = texts(write_gunnery_logs(tmp_path / "g.pdf", sections, turns=12, unit="mm"))
    assert SHIP_CELLS == ("Target", "Guns", "Range est.", "AP/HE", "Hits")
    assert text.count("Guns") == 2 * 4  # four ship columns in each of the two sections
    assert text.index("Target") < text.index("Guns") < text.index("Range est. (mm)")


def test_a_60_turn_game_gets_60_rows_on_continuation_sheets_none_under_5_mm(
    tmp_path: Path,
) -> None:
    """The issue's case: 60 turns used to give 24 rows of 3.5 mm. Now every turn has a row of at
    least 5 mm (measured in the PDF), 12 to a sheet, the same divisions on each sheet."""
    sections = division_sections("1st", ["A", "B"]) + division_sections("2nd", ["C"])
    out = write_gunnery_logs(tmp_path / "g.pdf", sections, turns=60, title="Long game")
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == 60 // ROWS_PER_SHEET == 5
    seen: list[int] = []
    for n, page in enumerate(reader.pages):
        text = page.extract_text()
        assert "1st" in text and "2nd" in text and "A" in text and "C" in text
        first = n * ROWS_PER_SHEET + 1
        if n:
            assert f"continued: turns {first}-{first + ROWS_PER_SHEET - 1}" in text
        lines = _row_lines(page)
        gaps = [a - b for a, b in itertools.pairwise(lines)]
        row_gaps = [g for g in gaps if g < 30]  # the gap between the two sections is larger
        assert len(row_gaps) >= 2 * (ROWS_PER_SHEET - 1)
        assert min(row_gaps) >= 5 * MM - 0.01
        seen += [t for t in range(first, first + ROWS_PER_SHEET) if f"\n{t}\n" in text]
    assert seen == list(range(1, 61))


def test_a_scenario_prints_a_gunnery_row_for_every_turn_of_its_limit(tmp_path: Path) -> None:
    sc = get_scenario("tsushima-1905")
    assert sc.turn_limit == 60
    out = write_gunnery_logs(
        tmp_path / "t.pdf", scenario_sections(sc)["Japan"], turns=sc.turn_limit, unit="mm"
    )
    text = "\n".join(texts(out))
    assert "\n60\n" in text and "Iwate" in text and "continued: turns 49-60" in text


def test_turn_counts_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="1 to 200 turn rows"):
        write_gunnery_logs("unused.pdf", [GunnerySection("x")], turns=201)
    assert not Path("unused.pdf").exists()


# -- ship logs: small ships two to a sheet -----------------------------------------------------


def test_BF6_GEN_04_small_craft_share_a_sheet_battleships_do_not(tmp_path: Path) -> None:
    classes = load_ship_classes().values()
    small = [c for c in classes if c.type in SMALL_TYPES]
    assert small and all(fits_half_sheet(c) for c in small)  # every small craft class fits
    names = ["Mikasa", "Ikazuchi", "Inazuma", "Fuji", "Havock"]
    logs = [log(n, "Japan") for n in names]
    text = texts(write_ship_logs(tmp_path / "l.pdf", logs, SMALL))
    # Mikasa | Ikazuchi + Inazuma | Fuji | Akatsuki (alone on the last half sheet)
    assert len(text) == 4
    assert "Ikazuchi" in text[1] and "Inazuma" in text[1] and "two small ships" in text[1]
    assert "Havock" in text[3] and "Fuji" not in text[3]
    every = texts(write_ship_logs(tmp_path / "n.pdf", logs, SMALL, half_sheets="none"))
    assert len(every) == 5
    for lg in logs[1:3]:
        assert is_half_sheet(lg, "small") and not is_half_sheet(lg, "none")
    assert not is_half_sheet(logs[0], "small")
    assert not is_half_sheet(logs[0], "all")  # Mikasa's 12-gun battery needs the full page
    fits = next(c for c in classes if c.type.value == "BB" and fits_half_sheet(c))
    assert is_half_sheet(ShipLog(fits.name, fits), "all")
    with pytest.raises(ValueError, match="choose small, all, none"):
        is_half_sheet(logs[0], "some")


def test_a_half_sheet_log_has_the_fields_and_prints_a_ship_in_play(tmp_path: Path) -> None:
    dd = log("Ikazuchi")
    (blank,) = texts(write_ship_logs(tmp_path / "b.pdf", [dd], SMALL))
    for field in ("Size", "Armour V/U", "Flood prot.", "DC boxes", "Forward", "Port amidships",
                  "Stbd amidships", "Aft", "Hvy", "Sev", "Ext.", "Int.", "BR", "CT", "ST", "RC",
                  "Searchlights", "Shallow-running", "margin", "Boat guns manned"):  # fmt: skip
        assert field in blank, field
    for knots in dd.cls.propulsion_knots:
        assert f"{knots:g} kn" in blank
    for t in dd.cls.torpedoes:
        assert f"{t.range_m:g} m = {SMALL.fmt(t.range_m)}" in blank
    dd.fires_external = 13
    dd.sinking = SinkingState(turns_left=2)
    dd.sunk = True
    (hit,) = texts(write_ship_logs(tmp_path / "h.pdf", [dd], SMALL))
    assert "+3" in hit and "turns left 2" in hit and "SUNK" in hit


# -- paper sizes -------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_sheet_prints_on_both_papers(tmp_path: Path, paper: str) -> None:
    sc = get_scenario("destroyer-attack")
    out = write_scenario_aids(tmp_path / f"{paper}.pdf", sc, paper=get_paper(paper))
    reader = pypdf.PdfReader(str(out))
    want = PAPERS[paper]
    for page in reader.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert (w, h) == pytest.approx((want.width, want.height))
        # nothing is drawn off the paper
        for s in shapes(page):
            for x, y in [p for p in (s.start, *s.lines) if p is not None]:
                assert -0.5 <= x <= w + 0.5 and -0.5 <= y <= h + 0.5
    text = "\n".join(p.extract_text() for p in reader.pages)
    for entry in (s for side in sc.sides for d in side.divisions for s in d.ships):
        assert entry.name in text


# -- key, scale table, set-up sheet ------------------------------------------------------------


def test_REF_BF6_10_the_key_names_every_damage_code_the_engine_knows(tmp_path: Path) -> None:
    assert set(CODE_KEY) == set(CODE_NAMES)
    text = texts(write_reference(tmp_path / "k.pdf"))[0]
    for code, (name, _) in CODE_KEY.items():
        assert f"{code}\n{name}" in text or f"{code} {name}" in text, code


def test_REF_BF6_01_the_scale_table_gives_brackets_danger_zones_and_speeds(tmp_path: Path) -> None:
    text = "\n".join(texts(write_reference(tmp_path / "s.pdf", key=False)))
    assert "Damage codes" not in text
    # small scale: 2,500 m brackets at 85 mm/km; danger zones of 1/2 and 1/4 bracket
    assert "0-2500 m" in text and "to 212 mm" in text and "to 850 mm" in text
    assert "1250 m = 106 mm" in text and "625 m = 53 mm" in text
    assert "18 kn" in text and "1667 m = 142 mm" in text  # 18 knots for 3 minutes
    assert "1250 m = 13.1 in" in text  # the large scale in inches
    assert "BB" in text and "25 x 8 mm" in text


def test_BF6_GEN_06_set_up_sheet_places_every_ship_where_the_engine_does(tmp_path: Path) -> None:
    sc = get_scenario("tsushima-1905")
    state = new_game("tsushima-1905", 0).state
    placed = placements(sc, SMALL)
    assert len(placed) == len(state.poses) == 24
    for p in placed:
        pose = state.poses[p.name]
        assert (p.x, p.y, p.heading) == pytest.approx((pose.x, pose.y, pose.heading))
        assert p.side == state.logs[p.name].side
    cx, cy = table_corner(sc, placed)
    assert all(p.x - cx >= 1000 and p.y - cy >= 1000 for p in placed)
    out = write_scenario_aids(tmp_path / "t.pdf", sc)
    (setup,) = texts(out)[:1]
    assert setup.startswith("Set-up: Tsushima")
    assert "60 turns of 3 minutes" in setup
    mikasa = next(p for p in placed if p.name == "Mikasa")
    assert f"Mikasa\nMikasa\n{SMALL.fmt(mikasa.x - cx)}\n{SMALL.fmt(mikasa.y - cy)}" in setup
    for d in (d for side in sc.sides for d in side.divisions):
        assert d.name in setup


def test_cli_setup_reference_letter_and_bad_choices(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "deep" / "setup.pdf"
    result = runner.invoke(app, ["print", "setup", "santiago-1898", str(out), "--paper", "letter"])
    assert result.exit_code == 0, result.output
    (text,) = texts(out)
    assert text.startswith("Set-up:") and "Santiago" in text
    result = runner.invoke(app, ["print", "reference", str(tmp_path / "r.pdf")])
    assert result.exit_code == 0 and "Damage codes" in texts(tmp_path / "r.pdf")[0]
    result = runner.invoke(
        app, ["print", "ships", str(tmp_path / "s.pdf"), "--ship", "Ikazuchi", "--ship",
              "Inazuma", "--paper", "letter"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert len(texts(tmp_path / "s.pdf")) == 1
    result = runner.invoke(app, ["print", "gunnery", str(tmp_path / "g.pdf"), "--turns", "60"])
    assert result.exit_code == 0 and len(texts(tmp_path / "g.pdf")) == 5
    for bad, message in (
        (["print", "ships", str(tmp_path / "x.pdf"), "--ship", "Mikasa", "--half-sheets", "x"],
         "unknown --half-sheets choice 'x'"),
        (["print", "scenario", "cruiser-duel", str(tmp_path / "x.pdf"), "--paper", "A3"],
         "unknown paper size 'A3'"),
        (["print", "setup", "no-such-battle", str(tmp_path / "x.pdf")], "no-such-battle"),
    ):  # fmt: skip
        result = runner.invoke(app, bad)
        assert result.exit_code == 2, result.output
        assert message in result.output and "Traceback" not in result.output
        assert not (tmp_path / "x.pdf").exists()
