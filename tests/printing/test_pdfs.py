"""The printed play aids: PDFs are written, have the expected pages, and carry the ship's values
(BF6-GEN-02, BF6-GEN-04, BF6-GEN-05, REF-BF6-05, REF-BF6-08)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from battleline.cli import app
from battleline.printing import scenario_logs, scenario_sections, write_scenario_aids
from battleline.printing.charts_pdf import chart_grids, write_charts
from battleline.printing.compact_log import is_half_sheet
from battleline.printing.draw import PAGE_H, PAGE_W
from battleline.printing.gunnery_log_pdf import (
    SHIP_CELLS,
    SPARE_COMMAND_BOXES,
    GunnerySection,
    division_sections,
    draw_gunnery_log,
    log_pages,
    sheets_of,
    write_gunnery_logs,
)
from battleline.printing.shiplog_pdf import speed_line, write_ship_logs
from battleline.rulesets.bf1900.arcs import battery_layout
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.shipdb import class_of_ship, load_ship_classes
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog, SinkingState

pypdf = pytest.importorskip("pypdf")

SMALL = get_scale("small")


def pages(path: Path, which: slice = slice(None)) -> list[str]:
    """The text of every page (or of a slice of them: pypdf reads some 4 pages a second)."""
    return [p.extract_text() for p in pypdf.PdfReader(str(path)).pages[which]]


def page_count(path: Path) -> int:
    return len(pypdf.PdfReader(str(path)).pages)


def log(name: str, side: str = "") -> ShipLog:
    return ShipLog(name=name, cls=class_of_ship(name), side=side)


# -- ship logs --------------------------------------------------------------------------------


def test_a_ship_log_page_per_ship_with_names_calibres_rof_and_penetration(tmp_path: Path) -> None:
    mikasa, framee = log("Mikasa", "Japan"), log("Framee")
    out = write_ship_logs(tmp_path / "logs.pdf", [mikasa, framee], SMALL)
    assert out.stat().st_size > 2000
    text = pages(out)
    assert len(text) == 2
    assert "Mikasa" in text[0] and "Framee" not in text[0]
    assert "Framee" in text[1]
    assert "Mikasa class, Japan, 1902" in text[0] and "side: Japan" in text[0]
    for m in mikasa.cls.mountings:
        assert f"{m.calibre_cm:g} cm" in text[0]
        for pen in m.penetration:
            if pen is not None:
                assert str(pen) in text[0]


def test_rof_half_prints_as_a_half(tmp_path: Path) -> None:
    """BF6-ROF-01: slow guns fire every other turn, printed ½."""
    slow = next(c for c in load_ship_classes().values() if any(m.rof == 0.5 for m in c.mountings))
    text = pages(write_ship_logs(tmp_path / "s.pdf", [ShipLog(slow.name, slow)], SMALL))[0]
    assert "\u00bd" in text


def test_propulsion_boxes_print_knots_and_distance_per_turn_at_the_scale(tmp_path: Path) -> None:
    """BF6-PROP-01 boxes, highest first, in knots and table units (BF6-GEN-09)."""
    mikasa = log("Mikasa")
    small = pages(write_ship_logs(tmp_path / "s.pdf", [mikasa], SMALL))[0]
    large = pages(write_ship_logs(tmp_path / "l.pdf", [mikasa], get_scale("large")))[0]
    for knots in mikasa.cls.propulsion_knots:
        assert f"{knots:g} kn" in small
        assert speed_line(knots, SMALL) in small
        assert speed_line(knots, get_scale("large")) in large
    # 18 knots for 3 minutes is 1,667 m: 142 mm at 85 mm/km, 17.5 in at 10.5 in/km.
    assert speed_line(18, SMALL) == "142 mm"
    assert speed_line(18, get_scale("large")) == "17.5 in"
    assert small.index("18 kn") < small.index("3 kn")


def test_the_log_has_every_REF_BF6_05_field(tmp_path: Path) -> None:
    text = pages(write_ship_logs(tmp_path / "m.pdf", [log("Mikasa")], SMALL))[0]
    for field in (
        "Size", "Armour: vitals", "Armour: upperworks", "Flood protection", "Stability",
        "Armoured deck", "Boat guns manned", "DC boxes", "Forward", "Port amidships",
        "Stbd amidships", "Aft", "Hvy", "Sev", "External", "Internal", "BR bridge",
        "CT conning tower", "ST (TR hits)", "RC", "Searchlights", "Torpedoes, beam",
        "Shallow-running torpedoes: no", "margin", "pattern 1",
    ):  # fmt: skip
        assert field in text, field


def test_a_log_in_play_prints_its_state(tmp_path: Path) -> None:
    """Marks drawn over boxes change the page; counts past the printed boxes are noted."""
    blank = log("Mikasa")
    hit = log("Mikasa")
    hit.propulsion.destroy()
    hit.dc_boxes[0] = Mark.DESTROYED
    hit.fires_external = 12
    hit.sinking = SinkingState(turns_left=3)
    a = write_ship_logs(tmp_path / "a.pdf", [blank], SMALL)
    b = write_ship_logs(tmp_path / "b.pdf", [hit], SMALL)
    assert a.read_bytes() != b.read_bytes()
    text = pages(b)[0]
    assert "turns left 3" in text and "+2" in text
    hit.sunk = True
    assert "SUNK" in pages(write_ship_logs(tmp_path / "c.pdf", [hit], SMALL))[0]


def test_output_is_deterministic(tmp_path: Path) -> None:
    a = write_ship_logs(tmp_path / "a.pdf", [log("Mikasa")], SMALL)
    b = write_ship_logs(tmp_path / "b.pdf", [log("Mikasa")], SMALL)
    assert a.read_bytes() == b.read_bytes()


# -- gunnery logs -----------------------------------------------------------------------------


class SpyCanvas(Canvas):  # type: ignore[misc]
    """A canvas that remembers its rectangles as (x, y, w, h)."""

    def __init__(self, path: str) -> None:
        super().__init__(path, pagesize=(PAGE_W, PAGE_H))
        self.rects: list[tuple[float, float, float, float]] = []

    def rect(self, x: float, y: float, width: float, height: float, *a: Any, **k: Any) -> None:
        self.rects.append((x, y, width, height))
        super().rect(x, y, width, height, *a, **k)


def test_BF6_GEN_05_two_sections_of_four_ship_columns_and_spare_command_boxes(
    tmp_path: Path,
) -> None:
    sections = [
        GunnerySection(
            "1st Division", ("Mikasa", "Shikishima", "Fuji", "Asahi"), "Japan", "Mikasa"
        ),
        GunnerySection("2nd Division", ("Kasuga", "Nisshin"), "Japan", "Kasuga"),
    ]
    canvas = SpyCanvas(str(tmp_path / "spy.pdf"))
    draw_gunnery_log(canvas, sections, turns=12)
    spare = [r for r in canvas.rects if r[2] == r[3] == 14.0]
    assert len(spare) == 2 * SPARE_COMMAND_BOXES
    out = write_gunnery_logs(tmp_path / "g.pdf", sections, title="Yellow Sea", unit="mm")
    (text,) = pages(out)
    for ship in ("Mikasa (flag)", "Shikishima", "Fuji", "Asahi", "Kasuga (flag)", "Nisshin"):
        assert ship in text
    for cell in SHIP_CELLS[:1] + SHIP_CELLS[2:]:
        assert text.count(cell) == 2 * 4  # four ship columns in each of the two sections
    assert text.count("Range est. (mm)") == 8
    assert text.count("Command") == 2 and text.count("Spare command boxes") == 2
    assert text.index("Command") < text.index("Mikasa (flag)")  # command column at far left
    assert text.count("Ship: ___") == 2  # the 2nd division's empty columns


def test_a_division_of_more_than_four_runs_on_and_pages_hold_two_sections(tmp_path: Path) -> None:
    five = division_sections("1st", ["A", "B", "C", "D", "E"], side="X", flagship="A")
    assert [s.ships for s in five] == [("A", "B", "C", "D"), ("E",)]
    assert five[1].division == "1st (cont.)"
    with pytest.raises(ValueError, match="4 ship columns"):
        GunnerySection("big", ("A", "B", "C", "D", "E"))
    assert log_pages([]) == 1 and log_pages(five * 2) == 2
    three = five + division_sections("2nd", ["F"])
    assert len(pages(write_gunnery_logs(tmp_path / "g.pdf", three))) == 2
    with pytest.raises(ValueError, match="turn rows"):
        write_gunnery_logs(tmp_path / "bad.pdf", five, turns=0)


# -- scenario bundle and charts ---------------------------------------------------------------


def test_scenario_aids_have_every_ship_log_then_each_sides_gunnery_logs(tmp_path: Path) -> None:
    """BF6-GEN-06: the set-up sheet first; BF6-GEN-04: a log for every ship (the destroyers two
    to a sheet); BF6-GEN-05: each side's divisions on gunnery logs to the turn limit; then the
    damage-codes key and the scale table."""
    sc = get_scenario("channel-1900")
    logs = scenario_logs(sc)
    small = [lg for lg in logs if is_half_sheet(lg, "small")]
    assert len(small) == 2  # the two destroyers share a sheet
    sections = scenario_sections(sc)
    out = write_scenario_aids(tmp_path / "channel.pdf", sc)
    gunnery_pages = sum(len(sheets_of(s, sc.turn_limit)) for s in sections.values())
    # three divisions a side: two sheets for each 10 of the 20 turns
    assert sc.turn_limit == 20 and gunnery_pages == 2 * 2 * 2
    log_pages_ = len(logs) - len(small) // 2
    text = pages(out)
    assert len(text) == 1 + log_pages_ + gunnery_pages + 1
    assert text[0].startswith(f"Set-up: {sc.title}")
    first, last = text[1], text[log_pages_]
    assert first.startswith(logs[0].name) and f"side: {logs[0].side}" in first
    assert f"side: {logs[-1].side}" in last and f"{logs[-1].cls.max_knots:g} kn" in last
    shared = [t for t in text[1 : 1 + log_pages_] if all(lg.name in t for lg in small)]
    assert len(shared) == 1 and "two small ships a sheet" in shared[0]
    gunnery = "\n".join(text[1 + log_pages_ : -1])
    for side in sc.sides:
        for division in side.divisions:
            assert division.name in gunnery
            for entry in division.ships:
                assert entry.name in gunnery
    assert "Range est. (mm)" in gunnery and f"\n{sc.turn_limit}\n" in gunnery
    assert "Damage codes" in text[-1] and "range brackets" in text[-1]


def test_chart_tables_print_on_one_page_marked_reconstructed(tmp_path: Path) -> None:
    charts = load_charts()
    (text,) = pages(write_charts(tmp_path / "charts.pdf", charts))
    assert "RECONSTRUCTED" in text
    for grid in chart_grids(charts):
        assert grid.title in text
    assert "Sinking" in text and "Torpedo hits" in text and "P, IF" in text
    own = dataclasses.replace(charts, reconstructed=False)
    (mine,) = pages(write_charts(tmp_path / "own.pdf", own))
    assert "RECONSTRUCTED" not in mine


# -- command line -----------------------------------------------------------------------------


def test_cli_print_ships_scenario_charts_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "ships.pdf"
    result = runner.invoke(
        app, ["print", "ships", str(out), "--ship", "Mikasa", "--ship", "Fuji", "--scale", "large"]
    )
    assert result.exit_code == 0, result.output
    text = pages(out)
    assert len(text) == 2 and "Fuji" in text[1] and " in" in text[1]
    result = runner.invoke(app, ["print", "scenario", "cruiser-duel", str(tmp_path / "s.pdf")])
    assert result.exit_code == 0, result.output
    # set-up, two ship logs, one gunnery sheet a side (12 turns), key and scale table
    assert page_count(tmp_path / "s.pdf") == 1 + 2 + 2 + 1
    result = runner.invoke(app, ["print", "charts", str(tmp_path / "c.pdf")])
    assert result.exit_code == 0 and (tmp_path / "c.pdf").stat().st_size > 1000
    result = runner.invoke(app, ["print", "gunnery", str(tmp_path / "g.pdf"), "--sheets", "3"])
    assert result.exit_code == 0 and page_count(tmp_path / "g.pdf") == 3
    bad = runner.invoke(app, ["print", "ships", str(tmp_path / "x.pdf"), "--ship", "Fooo"])
    assert bad.exit_code == 2 and "unknown ship 'Fooo'" in bad.output
    assert not (tmp_path / "x.pdf").exists()


def test_beam_pattern_boxes_say_which_side_each_gun_is_on(tmp_path: Path) -> None:
    """Gun boxes alternate port and starboard (arcs.battery_layout); an odd gun goes starboard."""
    mikasa = class_of_ship("Mikasa")
    sec = mikasa.mounting("sec")
    odd = dataclasses.replace(sec, guns=7)
    cls = dataclasses.replace(
        mikasa, mountings=tuple(odd if m.key == "sec" else m for m in mikasa.mountings)
    )
    layout = [g.side for g in battery_layout(odd)]
    assert layout == ["port", "starboard"] * 3 + ["starboard"]
    text = pages(write_ship_logs(tmp_path / "odd.pdf", [ShipLog("Odd", cls)], SMALL))[0]
    assert "3 P, 4 S" in text and "odd P, even S" in text
    assert (
        f"{sec.guns // 2} a side"
        in pages(write_ship_logs(tmp_path / "m.pdf", [log("Mikasa")], SMALL))[0]
    )
