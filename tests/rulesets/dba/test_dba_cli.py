"""``battleline dba``: the referee CLI over the DBA rules."""

from __future__ import annotations

from typer.testing import CliRunner

from battleline.cli import app

runner = CliRunner()


def test_ship_and_points() -> None:
    r = runner.invoke(app, ["dba", "ship", "victoria"])
    assert r.exit_code == 0, r.output
    assert "AF 5/5/3/2" in r.output and "DBA-MG-01" in r.output
    r = runner.invoke(app, ["dba", "points", "Majestic"])
    assert r.exit_code == 0 and r.output.strip().endswith("= 12")


def test_ships_lists_annex_a() -> None:
    r = runner.invoke(app, ["dba", "ships"])
    assert r.exit_code == 0 and "Katahdin" in r.output


def test_fire_with_table_dice() -> None:
    r = runner.invoke(app, ["dba", "fire", "Majestic", "Mikasa", "--dice", "5,2"])
    assert r.exit_code == 0, r.output
    assert "gunfire 5+4 = 9 vs 2+4 = 6 → beaten, damaged" in r.output
    assert "Mikasa is damaged ×1" in r.output


def test_torpedo_cripples_and_floods() -> None:
    r = runner.invoke(
        app,
        ["dba", "torpedo", "Havock", "Majestic", "--factor", "2", "--arc", "bow", "--dice", "4,2"],
    )
    assert r.exit_code == 0, r.output
    assert "Majestic is crippled, flooding" in r.output


def test_ram_reports_size_level_and_placement() -> None:
    r = runner.invoke(
        app,
        [
            "dba",
            "ram",
            "Conqueror",
            "Majestic",
            "--bases",
            "2",
            "--target-speed",
            "1",
            "--dice",
            "6",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "relative size: same; rammer D, target C" in r.output


def test_rule_breaches_and_bad_input_are_one_error_line() -> None:
    r = runner.invoke(app, ["dba", "fire", "Warrior", "Majestic", "--arc", "bow"])
    assert r.exit_code == 2 and "DBA-TGT-01" in r.output
    r = runner.invoke(app, ["dba", "fire", "Majestic", "Mikasa", "--option", "fog"])
    assert r.exit_code == 2 and "unknown option 'fog'" in r.output
    r = runner.invoke(app, ["dba", "fire", "Majestic", "Mikasa", "--dice", "7"])
    assert r.exit_code == 2 and "1..6" in r.output
    r = runner.invoke(app, ["dba", "ship", "Dreadnought"])
    assert r.exit_code == 2 and "unknown DBA ship" in r.output
