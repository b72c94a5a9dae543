"""``battleline ships`` and ``battleline ship NAME`` (REF-BF6-05 log layout, REF-BF6-17)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from battleline.cli import app
from battleline.cli.logsheet import log_tables, penetration_text, rof_text
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog

runner = CliRunner()


def test_ships_json_lists_60_classes_from_8_navies() -> None:
    result = runner.invoke(app, ["ships", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert len(data) >= 60
    assert len({c["navy"] for c in data}) >= 8
    mikasa = next(c for c in data if c["name"] == "Mikasa")
    assert mikasa["type"] == "BB"
    assert mikasa["dc_boxes"] == 6
    assert mikasa["mountings"][0]["penetration"] == [13, 10, 8, 6]
    assert mikasa["sources"]


def test_ships_filters_by_navy() -> None:
    result = runner.invoke(app, ["ships", "--navy", "china"])
    assert result.exit_code == 0, result.output
    assert "Ting Yuen" in result.output
    assert "Mikasa" not in result.output
    data = json.loads(runner.invoke(app, ["ships", "--navy", "Spain", "--json"]).output)
    assert {c["navy"] for c in data} == {"Spain"}


def test_ships_unknown_navy_is_a_clear_error() -> None:
    result = runner.invoke(app, ["ships", "--navy", "Atlantis"])
    assert result.exit_code == 2
    assert "no navy 'Atlantis'" in result.output
    assert "Traceback" not in result.output


def test_ship_prints_the_log() -> None:
    """REF-BF6-05: details, armament (calibre, ROF, penetration, position/pattern), propulsion
    boxes, DC boxes, compartments, fires, bridge/CT/ST/R, searchlights, torpedoes, boat guns."""
    result = runner.invoke(app, ["ship", "Majestic"])
    assert result.exit_code == 0, result.output
    out = result.output
    for text in ("Majestic class", "Armour", "9-5", "pattern 1", "pattern 0", "A (forward)",
                 "12-9-7-5", "½", "Propulsion (knots)", "14.2", "DC boxes", "port amidships",
                 "Fires", "Conning tower", "Rudder", "Searchlights", "Torpedoes (beam)",
                 "Boat guns manned", "Sources"):  # fmt: skip
        assert text in out, text


def test_ship_by_ship_name_uses_that_name_and_shows_overrides() -> None:
    result = runner.invoke(app, ["ship", "Yashima"])
    assert result.exit_code == 0, result.output
    assert "Yashima — Fuji class" in result.output
    assert "Hand-set" in result.output and "mountings.A.rof" in result.output


def test_ship_unknown_or_ambiguous_name_is_a_clear_error() -> None:
    result = runner.invoke(app, ["ship", "Mikassa"])
    assert result.exit_code == 2
    assert "unknown ship 'Mikassa'" in result.output and "Mikasa" in result.output
    result = runner.invoke(app, ["ship", "Diana"])
    assert result.exit_code == 2
    assert "ambiguous" in result.output
    assert runner.invoke(app, ["ship", "Diana", "--navy", "Russia"]).exit_code == 0


def test_ship_with_user_data_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(
        'navy = "Testland"\n[[class]]\nname = "Alpha"\ntype = "TB"\nyear = 1900\n'
        'ships = ["Alpha 1"]\ndisplacement_t = 120\nlength_m = 40\nbeam_m = 4\nspeed_kn = 24\n'
        'guns = [{ calibre_mm = 37, count = 1, mounting = "open", location = "fore" }]\n',
        encoding="utf-8",
    )
    result = runner.invoke(app, ["ship", "Alpha 1", "--data", str(path)])
    assert result.exit_code == 0, result.output
    assert "Alpha 1 — Alpha class" in result.output
    path.write_text("navy = 'Testland'\n[[class]]\nname = 'Broken'\n", encoding="utf-8")
    result = runner.invoke(app, ["ships", "--data", str(path)])
    assert result.exit_code == 2
    assert "Broken" in result.output and "mine.toml" in result.output


def test_log_tables_show_marks() -> None:
    """Marks drawn on the log: slashes and X on positions, crossed pattern guns, boxes."""
    from rich.console import Console

    log = ShipLog(name="Mikasa", cls=get_ship_class("Mikasa"))
    log.positions["A"].slashes = 2
    log.positions["Z"].destroyed = True
    log.batteries["sec"][0] = Mark.DESTROYED
    log.propulsion.damage()
    log.dc_boxes[0] = Mark.DAMAGED
    console = Console(width=120, record=True)
    console.print(log_tables(log))
    text = console.export_text()
    assert "//" in text and "1X" in text and "great" in text


def test_rof_and_penetration_text() -> None:
    assert rof_text(0.5) == "½" and rof_text(2.0) == "2"
    assert penetration_text((7, 5, None, None)) == "7-5-–-–"
