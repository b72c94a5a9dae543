"""DBA end to end: whole games AI against AI through the public entry points (Python API, CLI
demo, sim, replay), the option toggles reached from scenario files, and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from battleline.ai.base import admiral_factory, play
from battleline.ai.dba_admiral import DbaAdmiral
from battleline.cli import app
from battleline.engine import GameRecord
from battleline.engine.events import EventKind
from battleline.engine.flow import Game
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.game import new_game, verify
from battleline.rulesets import named_ruleset, ruleset_of_scenario
from battleline.rulesets.dba.ruleset import RULESET
from battleline.rulesets.dba.table import band_of
from battleline.rulesets.dba.tables import load_core
from battleline.testing import FixedDice

runner = CliRunner()
YALU = Path(__file__).parents[3] / "src/battleline/rulesets/dba/data/scenarios/yalu.toml"


def _scenario(tmp_path: Path, body: str, options: str = "[]", name: str = "s") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 4\noptions = {options}\n' + body
    )
    return str(path)


def _ship(annex: str, side: str, x: float, y: float = 0.0, heading: float = 0.0) -> str:
    return f'[[ship]]\nannex = "{annex}"\nside = "{side}"\nx = {x}\ny = {y}\nheading = {heading}\n'


# -- the registry and the scenario files ------------------------------------------------------
def test_the_yalu_file_says_its_ruleset_and_the_registry_dispatches_on_it() -> None:
    """Issue 11: `demo --scenario <the DBA yalu.toml>` used to be read with bf1900's schema."""
    assert 'ruleset = "dba"' in YALU.read_text()
    assert named_ruleset(str(YALU)) == "dba"
    assert ruleset_of_scenario(str(YALU)).name == "dba"
    assert named_ruleset("dba-tutorial") == "dba" and named_ruleset("yalu") == "dba"


def test_scenario_errors_name_the_field(tmp_path: Path) -> None:
    bad = _scenario(tmp_path, _ship("Majestic", "GB", 0) + "speed = 3\n")
    with pytest.raises(ScenarioError, match=r"ship\[0\]\.speed: unknown field"):
        RULESET.check_scenario(bad)
    bad = _scenario(tmp_path, _ship("Dreadnought", "GB", 0))
    with pytest.raises(ScenarioError, match=r"ship\[0\]\.annex: no ship 'Dreadnought'"):
        RULESET.check_scenario(bad)
    path = tmp_path / "nolines.toml"
    path.write_text('ruleset = "dba"\nsides = ["A", "B"]\n')
    with pytest.raises(ScenarioError, match="ship: field required"):
        RULESET.check_scenario(str(path))


def test_a_scenario_needing_a_part_dba_lacks_is_refused(tmp_path: Path) -> None:
    body = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3)
    path = Path(_scenario(tmp_path, body))
    path.write_text(path.read_text() + '[[land]]\nname = "Island"\npoints = [[0, 0], [1, 1]]\n')
    with pytest.raises(ScenarioError, match="land: the dba ruleset has no rules for land"):
        new_game(str(path), 1)


def test_a_side_that_cannot_act_in_a_phase_is_told_so() -> None:
    g = new_game("dba-tutorial", 1)
    assert g.spec.name == "move-1" and g.pending.waiting_for == ("Blue",)
    with pytest.raises(IllegalOrderError, match="it is Blue's spell; Red gives no movement"):
        g.submit("Red", ["Red Cruisers: 1"])
    state = g.state.to_dict()
    g.submit("Blue", [])
    assert state != g.state.to_dict()  # Blue's orders resolved; Red's refusal changed nothing


# -- the option toggles, each from a scenario file ----------------------------------------------
def _first_shot(g: Game, shooter: str) -> str:
    return next(e.text for e in g.events if e.text.startswith(f"{shooter} → "))


@pytest.mark.parametrize("on", [True, False])
def test_open_barbettes_toggle_DBA_OB_01(tmp_path: Path, on: bool) -> None:
    """+1 at extreme range against an open-barbette ship (Royal Sovereign), only with the
    option."""
    body = _ship("Majestic", "GB", 0) + _ship("Royal Sovereign", "FR", 12)
    g = Game(RULESET, _scenario(tmp_path, body, '["open_barbettes"]' if on else "[]"), 1)
    g.submit("GB", [])
    g.submit("GB", ["Majestic -> Royal Sovereign"])
    g.submit("FR", [])
    assert ("open barbettes DBA-OB-01" in _first_shot(g, "Majestic")) is on


@pytest.mark.parametrize("on", [True, False])
def test_monster_guns_toggle_DBA_MG_01(tmp_path: Path, on: bool) -> None:
    """In the enemy's spell Victoria fires her secondaries' factor (2 at normal range), not 5."""
    body = _ship("Victoria", "GB", 0) + _ship("Hoche", "FR", 3)
    g = Game(RULESET, _scenario(tmp_path, body, '["monster_guns"]' if on else "[]"), 1)
    g.submit("GB", [])
    g.submit("GB", [])
    g.submit("FR", [])
    g.submit("FR", [])  # FR's spell: no move
    g.submit("GB", ["Victoria -> Hoche"])
    g.submit("FR", [])
    shot = _first_shot(g, "Victoria")
    af = shot.split("gunfire ", 1)[1].split(" ", 1)[0].split("+")[1]
    assert af == ("2" if on else "5")


@pytest.mark.parametrize("on", [True, False])
def test_bow_and_stern_arcs_toggle_DBA_BSA_01(tmp_path: Path, on: bool) -> None:
    """Warspite (lozenge) fires dead ahead at long range without the reduced effect, only with
    the option."""
    body = _ship("Warspite", "GB", 0) + _ship("Hoche", "FR", 0, 7)
    g = Game(RULESET, _scenario(tmp_path, body, '["bow_stern_arcs"]' if on else "[]"), 1)
    g.submit("GB", [])
    g.submit("GB", ["Warspite -> Hoche"])
    g.submit("FR", [])
    assert ("reduced effect DBA-TF-03" in _first_shot(g, "Warspite")) is not on


@pytest.mark.parametrize("on", [True, False])
def test_nets_toggle_DBA_NET_01_03(tmp_path: Path, on: bool) -> None:
    """Lowering nets costs a NIP and gives torpedoes −1; without the option there are no nets."""
    body = _ship("Majestic", "GB", 0) + _ship("Havock", "FR", 1.5, 0, 270.0)
    g = Game(RULESET, _scenario(tmp_path, body, '["nets"]' if on else "[]"), 1)
    if not on:
        with pytest.raises(IllegalOrderError, match="option 'nets'"):
            g.submit("GB", ["Majestic: nets down"])
        return
    g.submit("GB", ["Majestic: nets down"])
    assert g.state.ships["Majestic"].nets_lowered
    g.submit("GB", [])
    g.submit("FR", ["Havock torpedo 1 -> Majestic"])
    torp = next(e.text for e in g.events if e.text.startswith("Havock → Majestic: torpedo"))
    assert "nets lowered DBA-NET-03" in torp


# -- the AI admiral ------------------------------------------------------------------------------
def test_the_dba_admiral_is_the_one_the_registry_gives() -> None:
    admiral = admiral_factory("dba")("Blue", 1)  # type: ignore[arg-type]
    assert isinstance(admiral, DbaAdmiral)


def test_admiral_fires_at_enemies_in_range_and_arc_and_only_those() -> None:
    g = new_game("yalu", 3)
    g.submit("China", [])
    view = g.view("China")
    lines = DbaAdmiral("China", 0).orders(view, view.phase)
    assert lines, "the Chinese ironclads have enemies within range"
    for line in lines:
        shooter, target = (p.strip() for p in line.replace("torpedo 1 ", "").split("->"))
        assert band_of(g.state.poses[shooter], g.state.poses[target]) is not None
    g.check("China", lines)  # the umpire accepts every line


def test_admiral_closes_to_its_doctrine_range_then_turns_broadside_on(tmp_path: Path) -> None:
    far = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 12, 0, 0.0)
    g = Game(RULESET, _scenario(tmp_path, far, name="far"), 1)
    g.state.nips["Majestic"] = 6
    view = g.view("GB")
    (line,) = DbaAdmiral("GB", 0).orders(view, view.phase)
    assert line == "Majestic: T+60 2"  # towards Hoche (due east), as far as she may go
    near = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3, 0, 0.0)
    g = Game(RULESET, _scenario(tmp_path, near, name="near"), 1)
    g.state.nips["Majestic"] = 6
    view = g.view("GB")
    (line,) = DbaAdmiral("GB", 0).orders(view, view.phase)
    assert line == "Majestic: 1"  # Hoche already on the beam: keep her there, keep moving


def test_admiral_attacks_with_torpedoes_when_it_can(tmp_path: Path) -> None:
    body = _ship("Havock", "GB", 0, 0, 0.0) + _ship("Hoche", "FR", 1.5, 0, 0.0)
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    g.submit("GB", ["Havock: stop"])
    view = g.view("GB")
    lines = DbaAdmiral("GB", 0).orders(view, view.phase)
    assert "Havock torpedo 2 -> Hoche" in lines  # own spell: the full factor 2 (DBA-TORP-02)
    g.submit("GB", lines)
    g.submit("FR", [])
    assert any(e.kind is EventKind.TORPEDO_LAUNCH for e in g.events)


# -- whole games -----------------------------------------------------------------------------------
@pytest.mark.parametrize("scenario", ["dba-tutorial", "yalu"])
def test_ai_against_ai_plays_to_a_result_with_shots_hits_and_damage(scenario: str) -> None:
    g = play(new_game(scenario, 1))
    assert g.finished and g.state.result is not None
    kinds = [e.kind for e in g.events]
    assert kinds.count(EventKind.HIT) >= 3
    assert EventKind.DAMAGE in kinds
    assert any(f.fate in ("sunk", "crippled") for f in RULESET.fates(g.state))


def test_python_api_own_orders_against_the_ai() -> None:
    """Load a scenario, give your own orders for a few spells against the AI, read your view."""
    g = new_game("dba-tutorial", 2)
    red = DbaAdmiral("Red", 7)
    for _ in range(12):
        if g.finished:
            break
        phase = g.spec.name
        for side in g.pending.waiting_for:
            view = g.view(side)
            if side == "Blue":
                lines = (
                    ["Blue Cruisers: 1"]
                    if phase.startswith("move")
                    else [
                        f"{s.name} -> {view.contacts[0].name}"
                        for s in view.own
                        if s.may_fire and view.contacts and s.name != "Havock"
                    ]
                )
            else:
                lines = red.orders(view, phase)
            try:
                g.submit(side, lines)
            except IllegalOrderError:
                g.submit(side, [])
    mine = g.view("Blue")
    assert {s.name for s in mine.own} == {"Arrogant", "Leander", "Havock"}
    assert mine.own[0].af == "3/2/1/1" and mine.own[0].torpedo_left in (0, 1)
    assert {c.name for c in mine.contacts} <= {"Yoshino", "Naniwa", "Kotaka"}
    json.dumps(mine.to_dict())


def test_same_seed_same_game_and_replay_verifies(tmp_path: Path) -> None:
    a, b = play(new_game("dba-tutorial", 5)), play(new_game("dba-tutorial", 5))
    assert [e.text for e in a.events] == [e.text for e in b.events]
    record = GameRecord.of(a)
    path = tmp_path / "game.json"
    record.save(path)
    ok, _ = verify(GameRecord.load(path))
    assert ok


def test_fixed_dice_through_a_spell(tmp_path: Path) -> None:
    """Majestic 6 + 4 = 10 against Hoche 1 + 3 = 4: doubled, crippled (REF-DBA-01 outcome)."""
    g = Game(RULESET, _scenario(tmp_path, _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3)), 1)
    g.submit("GB", [])
    g.dice = FixedDice([6, 1, 2], log=g.events)  # type: ignore[assignment]
    g.submit("GB", ["Majestic -> Hoche"])
    g.submit("FR", [])
    assert "gunfire 6+4 = 10 vs 1+3- = 4 → doubled, crippled" in _first_shot(g, "Majestic")
    assert g.state.ships["Hoche"].crippled


# -- the CLI -------------------------------------------------------------------------------------
def test_cli_demo_save_and_replay_verify(tmp_path: Path) -> None:
    save, pic = tmp_path / "g.json", tmp_path / "p.svg"
    r = runner.invoke(
        app,
        [
            "demo",
            "--scenario",
            "dba-tutorial",
            "--seed",
            "1",
            "--save",
            str(save),
            "--picture",
            str(pic),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "gunfire" in r.output and "crippled" in r.output and "wins" in r.output
    assert pic.read_text().startswith("<svg")
    r = runner.invoke(app, ["replay", str(save), "--verify"])
    assert r.exit_code == 0, r.output


def test_cli_demo_of_the_yalu_file() -> None:
    r = runner.invoke(app, ["demo", "--scenario", str(YALU), "--seed", "1", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "Ting Yuen" in r.output


def test_cli_sim_reports(tmp_path: Path) -> None:
    out = tmp_path / "sim.json"
    r = runner.invoke(
        app, ["sim", "dba-tutorial", "--runs", "20", "--workers", "1", "--json", str(out)]
    )
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert data["runs"] == data["completed"] == 20 and data["failed"] == 0
    assert sum(data["win_rate"].values()) + data["draw_rate"] == pytest.approx(1.0)
    assert "Blue" in r.output and "Red" in r.output


def test_the_python_example_in_docs_dba_md_runs(capsys: pytest.CaptureFixture[str]) -> None:
    doc = (Path(__file__).parents[3] / "docs/dba.md").read_text()
    block = doc.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "docs/dba.md", "exec"), {})
    out = capsys.readouterr().out
    assert " wins " in out or out.startswith("Draw")


def test_admiral_spreads_its_fire_before_splash_confusion(tmp_path: Path) -> None:
    """Two ships on one target fire at full effect; a third would cost all three −1 (DBA-TF-02),
    so the third takes the next enemy on the beam."""
    body = (
        "".join(
            f'[[ship]]\nannex = "Majestic"\nname = "M{i}"\nside = "GB"\nsquadron = "GB"\n'
            f"x = 0\ny = {-i}\nheading = 0\n"
            for i in range(3)
        )
        + '[[ship]]\nannex = "Hoche"\nname = "A"\nside = "FR"\nx = 3\ny = -1\nheading = 0\n'
        + '[[ship]]\nannex = "Hoche"\nname = "B"\nside = "FR"\nx = 6\ny = -1\nheading = 0\n'
    )
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    g.submit("GB", [])
    view = g.view("GB")
    lines = DbaAdmiral("GB", 0).orders(view, view.phase)
    targets = [ln.split("->")[1].strip() for ln in lines if "torpedo" not in ln]
    assert sorted(targets) == ["A", "A", "B"]


def test_bad_orders_name_the_line_and_leave_the_state_alone() -> None:
    g = new_game("yalu", 5)
    before = g.state.to_dict()
    with pytest.raises(IllegalOrderError, match=r"order 'Ting Yuen: 3': .*\(DBA-TYPE-01\)"):
        g.submit("China", ["Peiyang: 1", "Ting Yuen: 3"])
    with pytest.raises(IllegalOrderError, match="order 'Yoshino: 1': Yoshino is not a ship of"):
        g.check("China", ["Yoshino: 1"])
    assert g.state.to_dict() == before and g.pending.waiting_for == ("China",)


def test_DBA_RAM_01_a_move_across_another_base_tests_an_involuntary_ram(tmp_path: Path) -> None:
    """Seed 004 (DBA-RAM-01): a ship whose move crosses another ship tests for involuntary
    ramming. Majestic steams two bases north straight through her own Victoria's beam: a score of
    6 is needed against a broadside when involuntary (DBA-RAM-07); D6 2 + 2 bases − 0 = 4 is no
    ram, so she passes through and completes her move (DBA-RAM-10)."""
    body = _ship("Majestic", "GB", 0, -1.5, 0.0) + _ship("Victoria", "GB", 0, 0.5, 90.0)
    body += _ship("Hoche", "FR", 10, 10)
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    g.state.nips["Majestic"] = 3
    g.dice = FixedDice([2], log=g.events)  # type: ignore[assignment]
    g.submit("GB", ["Majestic: 2"])
    said = [e.text for e in g.events if e.kind is EventKind.COLLISION]
    assert said[0] == "Majestic's move crosses Victoria: involuntary ramming test (DBA-RAM-01)"
    assert "Majestic → Victoria (broadside, involuntary): score 4 (needs 6)" in said[1]
    assert g.state.poses["Majestic"].y == pytest.approx(0.5 * load_core().base_metres)


def test_admiral_steers_clear_of_other_bases(tmp_path: Path) -> None:
    """The admiral never orders a move across another base (no involuntary ram, DBA-RAM-01)."""
    body = _ship("Majestic", "GB", 0, -1.5, 0.0) + _ship("Victoria", "GB", 0, 0.5, 90.0)
    body += _ship("Hoche", "FR", 0, 9, 180.0)
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    g.state.nips.update({"Majestic": 3, "Victoria": 3})
    view = g.view("GB")
    lines = DbaAdmiral("GB", 0).orders(view, view.phase)
    g.submit("GB", lines)
    assert not [e for e in g.events if e.kind is EventKind.COLLISION]
    assert any(ln.startswith("Majestic: ") for ln in lines)  # she still moves


def _two_movers(tmp_path: Path, abreast: bool) -> Game:
    """Two Majestics of one squadron heading north, Hoche across their path (broadside-on to a
    line abreast, stern-on to a line ahead)."""
    b = (0.6, 0.0) if abreast else (0.0, -1.05)
    hoche = _ship("Hoche", "FR", 0.2, 1.6, 90.0) if abreast else _ship("Hoche", "FR", 0.2, 1.3)
    body = (
        '[[ship]]\nannex = "Majestic"\nname = "A"\nside = "GB"\nsquadron = "GB"\n'
        "x = 0\ny = 0\nheading = 0\n"
        '[[ship]]\nannex = "Majestic"\nname = "B"\nside = "GB"\nsquadron = "GB"\n'
        f"x = {b[0]}\ny = {b[1]}\nheading = 0\n" + hoche
    )
    g = Game(RULESET, _scenario(tmp_path, body, name=f"two-{abreast}"), 1)
    g.state.nips["GB"] = 2
    return g


def _crossings(g: Game) -> list[str]:
    return [e.text for e in g.events if "involuntary ramming test" in e.text]


def test_DBA_RAM_04_after_an_effective_ram_the_other_movers_pass_through(tmp_path: Path) -> None:
    """Seed 004 (DBA-RAM-04): "If that ship makes an effective ram ignore all other moving ships
    who pass through the target." A, closest at the start, rolls 4 + 2 − 0 = 6: effective."""
    g = _two_movers(tmp_path, abreast=True)
    g.dice = FixedDice([4], log=g.events)  # type: ignore[assignment]
    g.submit("GB", ["GB: 2"])
    assert _crossings(g) == ["A's move crosses Hoche: involuntary ramming test (DBA-RAM-01)"]
    assert any("score 6 (needs 6) → effective ram" in e.text for e in g.events)


@pytest.mark.parametrize("abreast", [True, False])
def test_DBA_RAM_04_after_a_counter_ram(tmp_path: Path, abreast: bool) -> None:
    """Seed 004 (DBA-RAM-04): "If the target rams one of the moving ships other moving ships are
    ignored if they are in line abreast. If the movers are in line astern the other ships still
    have a chance to ram the target, which may now count as stationary." Hoche ran 3 bases last
    spell: A scores 1 + 2 − 3 = 0, and Hoche rams her; B (astern) then scores 3 + 2 − 0 = 5."""
    g = _two_movers(tmp_path, abreast)
    g.state.ships["Hoche"].moved_last_spell = 3
    g.dice = FixedDice([1, 3], log=g.events)  # type: ignore[assignment]
    g.submit("GB", ["GB: 2"])
    said = _crossings(g)
    assert said[0].startswith("A's move crosses Hoche")
    assert any("score 0 (needs" in e.text and "target rams the rammer" in e.text for e in g.events)
    if abreast:
        assert len(said) == 1
    else:
        assert said[1].startswith("B's move crosses Hoche")
        assert any("B → Hoche (stern, involuntary): score 5" in e.text for e in g.events)


def test_cli_lists_and_draws_the_dba_scenarios(tmp_path: Path) -> None:
    r = runner.invoke(app, ["scenarios"])
    assert r.exit_code == 0 and "dba-tutorial" in r.output and "(dba)" in r.output
    out = tmp_path / "t.svg"
    r = runner.invoke(app, ["draw", "dba-tutorial", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text().count("<polygon") == 6  # the six bases of the tutorial


def test_admiral_lowers_nets_against_torpedo_craft_and_raises_them_after(tmp_path: Path) -> None:
    """DBA-NET-01..03: torpedoes at a ship with nets lowered are at −1; lowering costs 1 NIP
    and holds the ship to one base, so the admiral lowers them only with a TBD/TB in reach."""
    body = _ship("Majestic", "GB", 0) + _ship("Havock", "FR", 3, 0, 270.0)
    g = Game(RULESET, _scenario(tmp_path, body, '["nets"]'), 1)
    g.state.nips["Majestic"] = 3
    view = g.view("GB")
    lines = DbaAdmiral("GB", 0).orders(view, view.phase)
    assert lines[0] == "Majestic: nets down"
    assert all(not ln.endswith((" 2", " 3")) for ln in lines[1:])  # one base at most
    g.submit("GB", lines)
    assert g.state.ships["Majestic"].nets_lowered
    calm = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 6, 0, 270.0)
    g = Game(RULESET, _scenario(tmp_path, calm, '["nets"]', name="calm"), 1)
    g.state.ships["Majestic"].nets_lowered = True
    g.state.nips["Majestic"] = 3
    view = g.view("GB")
    assert DbaAdmiral("GB", 0).orders(view, view.phase)[0] == "Majestic: nets up"


def test_DBA_NET_02_nets_lowered_earlier_in_the_orders_hold_the_move_to_one_base(
    tmp_path: Path,
) -> None:
    """Seed 004: "Ships with nets lowered may only move one base." Orders are carried out in
    the order written, so a move after "nets down" is checked with the nets lowered."""
    body = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 8)
    g = Game(RULESET, _scenario(tmp_path, body, '["nets"]'), 1)
    g.state.nips["Majestic"] = 4
    with pytest.raises(IllegalOrderError, match=r"order 'Majestic: 2'.*DBA-NET-02"):
        g.check("GB", ["Majestic: nets down", "Majestic: 2"])
    g.check("GB", ["Majestic: 2", "Majestic: nets down"])  # moved first, then lowered
