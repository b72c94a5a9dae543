"""The true-scale play aids measure true (BF6-GEN-02, REF-BF6-09, REF-BF6-13, REF-BF6-01).

The PDFs are measured, not the layout code: ``pdf_geometry`` reads each page's drawing operators
and fits circles to the curves. A radius printed as "350 m" must be 350 m → table units → points
within 0.5 pt, on A4 and on US Letter, at every scale.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from pdf_geometry import arcs, rects, sectors
from typer.testing import CliRunner

from battleline.cli import app
from battleline.printing.paper import PAPERS, get_paper
from battleline.printing.table_aids import write_true_scale_aids
from battleline.rulesets.bf1900.arcs import POSITION_ARCS, mirror, side_layout
from battleline.rulesets.bf1900.conversion import load_conversion
from battleline.rulesets.bf1900.gunnery import danger_zone_m
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.torpedoes import LAUNCH_ARCS

pypdf = pytest.importorskip("pypdf")

TOL = 0.5  # points
#: Points per table unit, worked out here rather than taken from the code under test.
PT = {"mm": 72 / 25.4, "in": 72.0}


def expected_pt(scale_name: str, metres: float) -> float:
    """metres of sea → table units (units per km from scales.toml) → points."""
    per_km = {"small": 85.0, "medium": 170.0, "large": 10.5}[scale_name]
    unit = "in" if scale_name == "large" else "mm"
    return metres / 1000 * per_km * PT[unit]


def reader(path: Path) -> pypdf.PdfReader:
    return pypdf.PdfReader(str(path))


@pytest.fixture(scope="module", params=[("small", "a4"), ("large", "letter"), ("medium", "a4")])
def aids(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple:
    scale, paper = request.param
    out = tmp_path_factory.mktemp("aids") / f"{scale}-{paper}.pdf"
    write_true_scale_aids(out, get_scale(scale), get_paper(paper))
    return scale, paper, reader(out)


def _pages(pdf: pypdf.PdfReader, title: str) -> list:
    return [p for p in pdf.pages if title in p.extract_text()]


def test_every_page_is_the_paper_size_and_has_a_100_mm_and_a_4_in_calibration_bar(aids) -> None:
    _, paper, pdf = aids
    want = PAPERS[paper]
    for page in pdf.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert (w, h) == pytest.approx((want.width, want.height))
        widths = [r[2] for r in rects(page) if r[3] == pytest.approx(5.0)]
        assert any(abs(w - 100 * PT["mm"]) < TOL for w in widths)
        assert any(abs(w - 4 * PT["in"]) < TOL for w in widths)
    assert {"a4": (841.9, 595.3), "letter": (792.0, 612.0)}[paper] == pytest.approx(
        (want.width, want.height), abs=0.1
    )


def test_arc_card_radius_measures_its_printed_distance_at_the_scale(aids) -> None:
    """Every card's shaded sectors and rim have the radius printed under it ("radius 350 m")."""
    scale, _, pdf = aids
    pages = _pages(pdf, "Arcs of fire")
    # 28 cards: 8 a page, or 2 at the large scale so that a 5 in battleship base fits on a card
    assert len(pages) == (14 if scale == "large" else 4)
    for page in pages:
        text = page.extract_text()
        radius_m = float(re.search(r"radius (\d+) m", text).group(1))
        want = expected_pt(scale, radius_m)
        drawn = sectors(page)
        full = [s for s in drawn if abs(s.radius - want) < TOL]
        banded = sum(f"Beam pattern {p}" in text for p in (1, 2))  # bands, no full sector
        assert len(full) >= text.count("radius ") - banded  # at least one full sector a card
        # the only others are the innermost beam-pattern bands, a third of the radius
        assert all(abs(s.radius - want / 3) < TOL for s in drawn if s not in full)
        rims = [r for _, r in arcs(page) if abs(r - want) < TOL]
        assert len(rims) >= text.count("radius ")  # at least the rim circle of each card


def _card_arcs(page) -> list[list[tuple[float, float]]]:
    """The arcs drawn on a page, grouped by card (cards have different centres)."""
    cards: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for s in sectors(page):
        key = (round(s.centre[0], 1), round(s.centre[1], 1))
        cards.setdefault(key, []).append((round(s.start, 3) % 360, round(s.end, 3) % 360))
    return list(cards.values())


def test_BF6_POS_arc_cards_draw_every_positions_arcs_from_arcs_py(aids) -> None:
    """BF6-POS-01..11: A, B/C, D/E, M-O, P-R, S-U, V/W, X/Y, Z, stem, stern, centre-line."""
    _, _, pdf = aids
    pages = _pages(pdf, "Arcs of fire")
    drawn = [card for page in pages for card in _card_arcs(page)]
    order = ["A", "B", "C", "D", "E", "M", "O", "P", "R", "S", "U", "V", "W", "X", "Y", "Z",
             "stem", "stern", "centreline"]  # fmt: skip
    assert set(order) == set(POSITION_ARCS)
    for key, card in zip(order, drawn, strict=False):
        assert sorted(card) == sorted((a % 360, b % 360) for a, b in POSITION_ARCS[key]), key
    # the numbers of the rules, measured: A's 265° arc has its blind 95° on the stern
    assert drawn[0] == [(227.5, 132.5)]
    assert sorted(drawn[2]) == [(0.0, 135.0), (312.5, 47.5)]  # C, 182.5° in all (EX-BF6-07)
    text = "".join(p.extract_text() for p in pages)
    for title in ("B  (port gun of B/C)", "M  (port gun of M-O)", "Centre-line", "Stem", "Stern"):
        assert title in text


def test_BF6_BEAM_pattern_cards_give_each_side_its_bow_stern_and_beam_arcs(aids) -> None:
    """BF6-BEAM-02..04: patterns 2 and 1 have bow-anchored, stern-anchored and beam-centred
    135° arcs a side, pattern 0 only the beam-centred one; measured as bands on the page."""
    scale, _, pdf = aids
    for pattern in (2, 1, 0):
        page = _pages(pdf, f"Beam pattern {pattern}")[0]
        text = page.extract_text()
        assert f"{2 * pattern} guns bear dead ahead" in text
        radius_m = float(re.search(r"radius (\d+) m", text).group(1))
        outer = expected_pt(scale, radius_m)
        radii = sorted({round(r, 1) for _, r in arcs(page)})
        if pattern:  # three bands a side: edges at a third and two thirds of the radius
            for share in (1, 2 / 3, 1 / 3):
                assert any(abs(r - outer * share) < TOL for r in radii), share
    # pattern 0 (a full-radius sector each side) is beam-centred 135° on both beams
    zero = {(round(s.start, 3) % 360, round(s.end, 3) % 360) for s in sectors(page)}
    beam = side_layout(0, 3)[0]
    assert {beam, mirror(beam)} <= zero
    assert beam == (22.5, 157.5)


def test_BF6_TORP_09_torpedo_cards_have_60_and_95_degree_arcs(aids) -> None:
    _, _, pdf = aids
    pages = _pages(pdf, "Torpedo:")
    drawn = {(round(s.start, 3) % 360, round(s.end, 3) % 360) for p in pages for s in sectors(p)}
    for position, launch in LAUNCH_ARCS.items():
        assert set(launch) <= drawn, position
    widths = {round((s.end - s.start) % 360, 3) for p in pages for s in sectors(p)}
    assert {60.0, 95.0} <= widths
    text = "".join(p.extract_text() for p in pages)
    assert "Torpedo: bow tube (60°)" in text and "Torpedo: centre-line tubes (95°)" in text


def test_REF_BF6_13_turning_circles_measure_their_radius_at_the_scale(aids) -> None:
    """One half disc per turning class (the conversion table's diameters and the per-type
    defaults), each of radius diameter/2 at the table's scale."""
    scale, _, pdf = aids
    pages = _pages(pdf, "Turning circles")
    diameters = {d for _, d in load_conversion().turning_circle}
    diameters |= {d for _, d in get_scale(scale).turning_circles_m}
    assert diameters == {300, 350, 400, 450, 500, 550, 600, 700, 800}
    measured = [r for p in pages for _, r in arcs(p)]
    for d in diameters:
        want = expected_pt(scale, d / 2)
        assert sum(abs(r - want) < TOL for r in measured) >= 1, d
    text = "".join(p.extract_text() for p in pages)
    for d in diameters:
        assert f"{d:g} m circle" in text


def test_REF_BF6_01_range_ruler_is_four_brackets_long_with_danger_zone_gauges(aids) -> None:
    """The strips add up to maximum range; the gauges are ½ and ¼ of a bracket (BF6-DZ-01/02)."""
    scale, _, pdf = aids
    pages = _pages(pdf, "Range ruler")
    bars = [r for p in pages for r in rects(p) if r[3] == pytest.approx(14.0)]
    s = get_scale(scale)
    dz = danger_zone_m(1, s.bracket_m) + danger_zone_m(2, s.bracket_m)
    assert sum(r[2] for r in bars) == pytest.approx(expected_pt(scale, s.max_range_m + dz), abs=TOL)
    assert (danger_zone_m(1, 2500), danger_zone_m(2, 2500)) == (1250, 625)
    text = "".join(p.extract_text() for p in pages)
    for b in range(1, 5):
        assert f"Bracket {b}:" in text
    assert "danger zone 1250 m" in text and "danger zone 625 m" in text
    assert "no danger zone" in text


def test_letter_pages_are_letter_and_the_cards_still_measure_true(tmp_path: Path) -> None:
    """The true-scale pages are never shrunk to fit a paper: on Letter the same circles measure
    the same points as on A4."""
    small = get_scale("small")
    radii = {}
    for paper in ("a4", "letter"):
        out = write_true_scale_aids(tmp_path / f"{paper}.pdf", small, get_paper(paper), ["circles"])
        radii[paper] = sorted(round(r, 2) for p in reader(out).pages for _, r in arcs(p))
    assert radii["a4"] == radii["letter"]
    assert math.isclose(radii["a4"][0], expected_pt("small", 150), abs_tol=TOL)


def test_cli_print_aids_on_both_papers_and_bad_paper(tmp_path: Path) -> None:
    runner = CliRunner()
    for paper in ("a4", "letter"):
        out = tmp_path / paper / "arcs.pdf"
        result = runner.invoke(app, ["print", "arcs", str(out), "--paper", paper])
        assert result.exit_code == 0, result.output
        assert len(reader(out).pages) == 4
    out = tmp_path / "all.pdf"
    result = runner.invoke(
        app, ["print", "aids", str(out), "--scale", "large", "--paper", "letter"]
    )
    assert result.exit_code == 0, result.output
    assert float(reader(out).pages[0].mediabox.width) == pytest.approx(792)
    for sub in ("circles", "rulers"):
        result = runner.invoke(app, ["print", sub, str(tmp_path / f"{sub}.pdf")])
        assert result.exit_code == 0, result.output
    bad = runner.invoke(app, ["print", "arcs", str(tmp_path / "x.pdf"), "--paper", "a5"])
    assert bad.exit_code == 2 and "unknown paper size 'a5'" in bad.output
    assert "Traceback" not in bad.output and not (tmp_path / "x.pdf").exists()


def test_cli_aids_from_your_own_scales_file_and_a_circle_too_big_for_the_paper(
    tmp_path: Path,
) -> None:
    """A user's scales file prints its own sizes; a template that cannot fit the paper is one
    clear error line, and no file."""
    builtin = Path(__file__).parents[2] / "src/battleline/rulesets/bf1900/data/scales.toml"
    text = builtin.read_text()
    own = tmp_path / "own.toml"
    own.write_text(text.replace("units_per_km = 85.0", "units_per_km = 100.0"))
    out = tmp_path / "own.pdf"
    runner = CliRunner()
    result = runner.invoke(app, ["print", "circles", str(out), "--scales", str(own)])
    assert result.exit_code == 0, result.output
    measured = [r for p in reader(out).pages for _, r in arcs(p)]
    want = 400 / 1000 * 100 * PT["mm"]  # the 800 m circle at 100 mm per km: 40 mm radius
    assert any(abs(r - want) < TOL for r in measured)
    huge = tmp_path / "huge.toml"
    huge.write_text(text.replace("units_per_km = 10.5", "units_per_km = 60.0"))
    bad = tmp_path / "bad.pdf"
    result = runner.invoke(
        app, ["print", "circles", str(bad), "--scale", "large", "--scales", str(huge)]
    )
    assert result.exit_code == 2
    assert "a 300 m turning circle is 18.0 in across" in result.output
    assert "too large for a4 paper" in result.output and "Traceback" not in result.output
    assert not bad.exists()
