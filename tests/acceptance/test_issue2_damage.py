"""Acceptance checks for issue 2 (foundation and the 1D6 damage model), through the public
surfaces only: the ``battleline`` CLI (in process with ``CliRunner`` and as a real subprocess
for exit codes and "no traceback") and the engine (``battleline.engine``).

Each test names the issue item it proves; ``docs/acceptance.md`` maps every "Done means" item to
its tests. Bad input: an unknown ship, a bad chart file (BF6-GEN-02 charts as data, REF-BF6-04),
an illegal damage-control declaration (BF6-DC-02, BF6-DC-04, BF6-CF-01, BF6-SINK-03).
"""

from __future__ import annotations

import re
import shutil
from importlib import resources
from pathlib import Path

import pytest
from cli_process import one_error, run_cli
from typer.testing import CliRunner

from battleline.cli import app
from battleline.engine import Game
from battleline.errors import BattlelineError, IllegalOrderError, RulesDataError
from battleline.game import new_game

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
CHARTS = resources.files("battleline.rulesets.bf1900").joinpath("data", "charts")


def _chart_copy(tmp_path: Path) -> Path:
    """A writable copy of the packaged chart folder."""
    folder = tmp_path / "charts"
    folder.mkdir()
    for entry in CHARTS.iterdir():
        if entry.name.endswith(".toml"):
            (folder / entry.name).write_bytes(entry.read_bytes())
    return folder


# -- 1. the project: README quick start, .ci/run ---------------------------------------------


def _quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in re.findall(r"```sh\n(.*?)```", section, flags=re.S)]


def test_readme_quick_start_has_exactly_two_commands_install_and_run_then_test() -> None:
    """Issue 2 §1: two commands, the first installs and runs the main job, the second installs
    the test dependencies and runs the tests."""
    first, second, *rest = _quick_start_commands()
    assert not rest
    assert "pip install ." in first and first.endswith("battleline demo")
    assert '".[test]"' in second and "pytest" in second


def test_ci_run_runs_the_readme_test_command_in_a_fresh_virtualenv() -> None:
    """Issue 2 §1: ``.ci/run`` runs the README's test command, from a clean virtualenv."""
    script = ROOT / ".ci" / "run"
    assert script.stat().st_mode & 0o111, ".ci/run must be executable"
    body = script.read_text(encoding="utf-8")
    assert "python3 -m venv" in body
    test_command = _quick_start_commands()[1]
    # the README command after its venv set-up part, word for word
    assert test_command.split("&& ", 2)[2] in body


def test_main_job_is_documented_as_the_demo() -> None:
    """Issue 2 §1: the README says what the main job is."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "battleline demo" in text and "AI against AI" in text


# -- 4. the ship log -------------------------------------------------------------------------


def test_battleline_ship_prints_the_log_as_a_rich_table() -> None:
    """Issue 2 §4 / BF6-GEN-04: ``battleline ship NAME`` prints the ship log: armament,
    propulsion boxes, DC boxes, the four compartments, fires, bridge/CT/steering/rudder."""
    result = runner.invoke(app, ["ship", "Mikasa"])
    assert result.exit_code == 0, result.output
    for text in ("Propulsion", "DC boxes", "forward", "port amidships", "starboard amidships",
                 "aft", "Fires", "Conning tower", "Rudder", "Torpedoes"):  # fmt: skip
        assert text in result.output, text
    assert "┃" in result.output or "│" in result.output  # drawn as a rich table


def test_unknown_ship_is_one_clear_error_line_no_traceback() -> None:
    """Issue 2 Done means: an unknown ship gives a clear error and no traceback."""
    result = runner.invoke(app, ["ship", "Nosuch"])
    assert result.exit_code == 2
    assert "unknown ship 'Nosuch'" in result.output and "Traceback" not in result.output
    line = one_error(run_cli("ship", "Nosuch"))
    assert "unknown ship 'Nosuch'" in line and "try one of" in line


# -- 3. charts as data: the user's own file, malformed files ---------------------------------


def test_every_packaged_chart_file_is_marked_reconstructed() -> None:
    """Issue 2 §3 / REF-BF6-04: every chart value is ours, and the files say so."""
    files = [e for e in CHARTS.iterdir() if e.name.endswith(".toml")]
    assert len(files) >= 5
    for entry in files:
        assert re.search(r"^reconstructed = true$", entry.read_text(encoding="utf-8"), re.M), (
            entry.name
        )


def test_rules_gaps_explains_each_chart_table() -> None:
    """Issue 2 §3: each reconstructed table is explained in docs/rules-gaps (charts)."""
    text = (ROOT / "docs" / "rules-gaps" / "charts.md").read_text(encoding="utf-8").lower()
    for table in ("ap", "he", "misc", "critical", "flooding", "uneven", "sinking",
                  "damage control", "command function", "torpedo"):  # fmt: skip
        assert table in text, table


@pytest.mark.parametrize(
    ("content", "table", "reason"),
    [
        (
            'version = "x"\nreconstructed = true\nedition = "1D6"\n[ap_hits]\nfoo = 1\n',
            "table 'ap_hits'",
            "unknown table",
        ),
        ("not = [toml", "table '(file)'", "not valid TOML"),
    ],
)
def test_demo_with_a_bad_chart_file_is_one_error_naming_file_table_field(
    tmp_path: Path, content: str, table: str, reason: str
) -> None:
    """Issue 2 §3 and Done means: ``battleline demo --charts FILE`` takes the user's chart file;
    a malformed one fails with one message naming the file and the table, no traceback."""
    bad = tmp_path / "bad.toml"
    bad.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["demo", "--charts", str(bad), "--quiet"])
    assert isinstance(result.exception, RulesDataError)
    line = one_error(run_cli("demo", "--charts", str(bad), "--quiet", cwd=tmp_path))
    assert str(bad) in line and table in line and reason in line


def test_a_bad_field_in_a_chart_folder_names_file_table_and_field(tmp_path: Path) -> None:
    """Issue 2 §3: a malformed chart names the file, the table and the field, for every CLI
    chart option (demo, tabletop new, print charts)."""
    folder = _chart_copy(tmp_path)
    crit = folder / "critical.toml"
    text = crit.read_text(encoding="utf-8")
    bad = re.sub(r'^(steering\s*=\s*\[\s*"-",\s*)"ST"', r'\1"QQ"', text, count=1, flags=re.M)
    assert bad != text
    crit.write_text(bad, encoding="utf-8")
    commands = [
        ("demo", "--charts", str(folder), "--quiet"),
        ("tabletop", "new", str(tmp_path / "s.json"), "--ship", "Mikasa", "--charts", str(folder)),
        ("print", "charts", str(tmp_path / "c.pdf"), "--charts", str(folder)),
    ]
    for args in commands:
        line = one_error(run_cli(*args, cwd=tmp_path))
        assert "critical.toml" in line, args
        assert "table 'critical.steering', field '2'" in line, args
        assert "unknown damage code 'QQ'" in line, args


def test_a_missing_chart_path_is_a_clear_error(tmp_path: Path) -> None:
    line = one_error(run_cli("demo", "--charts", str(tmp_path / "nothere"), "--quiet"))
    assert "no such chart file or directory" in line


@pytest.mark.slow
def test_demo_plays_with_the_users_own_chart_folder(tmp_path: Path) -> None:
    """Issue 2 §3: a user's chart folder replaces ours in play: with penetration all but nil,
    shells do (almost) nothing and the same seed ends otherwise than with the packaged charts."""
    from battleline.rulesets.bf1900.ruleset import use_charts

    folder = _chart_copy(tmp_path)
    hits = folder / "hits.toml"
    hits.write_text(
        re.sub(
            r"^penetration_factor = [0-9.]+$",
            "penetration_factor = 0.01",
            hits.read_text(encoding="utf-8"),
            flags=re.M,
        ),
        encoding="utf-8",
    )
    args = ["demo", "--scenario", "cruiser-duel", "--seed", "1", "--quiet"]
    try:
        ours = runner.invoke(app, [*args, "--picture", str(tmp_path / "a.svg")])
        theirs = runner.invoke(
            app, [*args, "--picture", str(tmp_path / "b.svg"), "--charts", str(folder)]
        )
    finally:
        use_charts(None)
    assert ours.exit_code == 0 and theirs.exit_code == 0, (ours.output, theirs.output)
    fates = [o.output.split("Fates", 1)[1] for o in (ours, theirs)]
    assert fates[0] != fates[1]


# -- 5. the Damage Phase: illegal damage-control declarations ---------------------------------

SCENARIO = """
id = "acceptance-dc"
title = "Acceptance: damage control"
scale = "small"
turn_limit = 3

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
x = 0
y = 0
heading = 90
speed = 0
ships = [{ name = "Mikasa", class = "Mikasa" }]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red line"
x = 0
y = 9000
heading = 270
speed = 0
ships = [{ name = "Fuji", class = "Fuji" }]
"""


def _game_at_damage(tmp_path: Path) -> Game:
    """A game whose Mikasa has a damaged propulsion box (P) and a CT hit, at the Damage Phase
    (the damage is marked on the live log before the phase opens, as Step Two would)."""
    path = tmp_path / "dc.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    game = new_game(str(path), 1)
    log = game.state.logs["Mikasa"]
    log.propulsion.damage()
    log.ct_hits = 1
    for _ in range(6):
        if game.spec.name == "damage":
            return game
        for side in game.state.sides:
            if side in game.pending.waiting_for:
                game.submit(side, [])
    raise AssertionError(f"never reached the damage phase (at {game.spec.name})")


def test_illegal_damage_control_declarations_name_ship_and_rule(tmp_path: Path) -> None:
    """Issue 2 Done means: illegal DC declarations are refused with the ship and the rule ID:
    a CT hit bars command functions (BF6-CF-01) but not recovering from it; one die per damage
    event (BF6-DC-02); a ship declares only for its own side."""
    game = _game_at_damage(tmp_path)
    cases = {
        "Mikasa: FLOODMAG:A": ("Mikasa", "BF6-CF-01"),
        "Mikasa: P; P": ("Mikasa", "BF6-DC-02"),
        "Mikasa: HVY:forward": ("Mikasa", "BF6-DC-02"),
        "Fuji: P": ("Fuji", "not a ship of Blue"),
    }
    for text, (ship, rule) in cases.items():
        with pytest.raises(IllegalOrderError) as info:
            game.check("Blue", [text])
        assert ship in str(info.value) and rule in str(info.value), (text, str(info.value))
    game.check("Blue", ["Mikasa: P; RECOVER-CT"])  # legal: one die each


def test_a_dc_declaration_that_does_not_parse_is_a_battleline_error(tmp_path: Path) -> None:
    game = _game_at_damage(tmp_path)
    with pytest.raises(BattlelineError, match="Mikasa: unknown damage-control action 'XYZ'"):
        game.check("Blue", ["Mikasa: XYZ"])


def test_tabletop_dc_check_refuses_illegal_declarations_without_traceback(
    tmp_path: Path,
) -> None:
    """Issue 2 Done means, through the CLI: ``tabletop dc-check`` with an illegal declaration
    (nothing to repair, BF6-DC-02; an unknown action; an unknown ship) is one error line."""
    session = tmp_path / "s.json"
    made = runner.invoke(app, ["tabletop", "new", str(session), "--ship", "Mikasa", "--seed", "3"])
    assert made.exit_code == 0, made.output
    for dc, expect in (
        (
            "Mikasa: P",
            "Mikasa: damage control P: nothing to address; one DC die per damage event (BF6-DC-02)",
        ),
        ("Mikasa: XYZ", "Mikasa: unknown damage-control action 'XYZ'"),
        ("Nosuch: P", "unknown ship 'Nosuch'"),
    ):
        line = one_error(run_cli("tabletop", "dc-check", str(session), "--dc", dc))
        assert expect in line, (dc, line)
    ok = runner.invoke(app, ["tabletop", "dc-check", str(session), "--dc", "Mikasa: SCUTTLE"])
    assert ok.exit_code == 0 and "ok: Mikasa: SCUTTLE" in ok.output


def test_tabletop_bad_hit_report_is_one_error_line(tmp_path: Path) -> None:
    """Bad hit reports for Damage Step Two are refused cleanly (no traceback)."""
    session = tmp_path / "s.json"
    runner.invoke(app, ["tabletop", "new", str(session), "--ship", "Mikasa", "--ship", "Fuji"])
    line = one_error(run_cli("tabletop", "damage", str(session), "--hits", "Mikasa <- Nosuch A 2"))
    assert "Nosuch" in line


# -- 5. the damage codes are one mapping, listed in the docs ---------------------------------


def test_every_damage_code_is_in_the_glossary() -> None:
    """Issue 2 §5: the damage codes are one mapping from code to effect, listed in the docs."""
    from battleline.rulesets.bf1900.damage.codes import CODE_NAMES

    doc = (ROOT / "docs" / "damage-codes.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`([A-Za-z-]+)`", doc))
    missing = sorted(c for c in CODE_NAMES if c not in listed)
    assert not missing, f"codes missing from docs/damage-codes.md: {missing}"


def test_no_other_randomness_than_the_dice_object() -> None:
    """Issue 2 §2: one Dice object owns the randomness: no ``random`` module, no
    ``np.random`` generator outside ``engine/dice.py`` in the engine and the rulesets."""
    src = ROOT / "src" / "battleline"
    offenders = []
    for path in [*(src / "engine").rglob("*.py"), *(src / "rulesets").rglob("*.py")]:
        if path.name == "dice.py" and path.parent.name == "engine":
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"^\s*(import random|from random import)", text, re.M) or re.search(
            r"np\.random\.(default_rng|random|randint|choice|seed)|default_rng\(", text
        ):
            offenders.append(str(path.relative_to(src)))
    assert not offenders, offenders


@pytest.mark.slow
def test_same_seed_same_events_through_the_cli(tmp_path: Path) -> None:
    """Issue 2 Done means (determinism, end to end): the demo prints the same bytes twice."""
    args = ("demo", "--scenario", "cruiser-duel", "--seed", "5", "--quiet", "--picture", "p.svg")
    a, b = run_cli(*args, cwd=tmp_path), run_cli(*args, cwd=tmp_path)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout


def test_chart_helper_copies_are_independent(tmp_path: Path) -> None:
    """The tests above edit copies, never the packaged charts."""
    folder = _chart_copy(tmp_path)
    shutil.rmtree(folder)
    assert any(e.name == "critical.toml" for e in CHARTS.iterdir())


def test_BF6_LOC_01_some_damage_is_placed_at_random_some_in_a_fixed_order() -> None:
    """BF6-LOC-01: propulsion hits (P) are marked in a fixed order, top box down, with no die;
    a main hit (M) is placed by a named location roll (BF6-MAIN-01: 1-3 forward, 4-6 aft), then
    checked on the Main/TT critical line (BF6-MAIN-03); every roll is an event (issue 2 §2)."""
    from battleline.engine.events import EventKind, EventLog
    from battleline.rulesets.bf1900.charts import load_charts
    from battleline.rulesets.bf1900.damage.codes import apply_codes
    from battleline.rulesets.bf1900.damage.context import DamageContext
    from battleline.rulesets.bf1900.hits import Aspect
    from battleline.rulesets.bf1900.shipdb import get_ship_class
    from battleline.rulesets.bf1900.shiplog import ShipLog
    from battleline.testing import FixedDice

    charts = load_charts()
    log = ShipLog("Mikasa", get_ship_class("Mikasa"), "Blue")
    events = EventLog()
    dice = FixedDice([], log=events)
    apply_codes(log, ["P", "P"], DamageContext(charts, dice, events, Aspect.PORT, 5))
    dice.assert_consumed()
    assert (log.propulsion.damaged, log.propulsion.available) == (2, 12.0)
    for face, position in ((5, "Z"), (2, "A")):
        dice = FixedDice([face, 1], log=events)
        apply_codes(log, ["M"], DamageContext(charts, dice, events, Aspect.PORT, 5))
        dice.assert_consumed()
        assert log.positions[position].slashes == 1
    rolls = [e.data["purpose"] for e in events.events if e.kind is EventKind.ROLL]
    assert rolls == [
        "main hit location",
        "Main/TT critical check (main Z)",
        "main hit location",
        "Main/TT critical check (main A)",
    ]
    assert "Mikasa: M: main Z damaged (1 slash)" in [e.text for e in events.events]
