"""The "dba" ruleset in the engine flow: two spells a turn (DBA-SEQ-01), NIPs, movement in bases,
combat with torpedoes first, damage control; scenario set-up and the end of the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.engine.flow import Game
from battleline.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from battleline.rulesets.dba.ruleset import (
    RULESET,
    new_state,
    parse_fire_line,
    parse_move_line,
    ships_of,
    verdict,
)
from battleline.rulesets.dba.tables import load_core

BASE = load_core().base_metres


def texts(game: Game, *kinds: EventKind) -> list[str]:
    return [e.text for e in game.events if not kinds or e.kind in kinds]


def test_DBA_SEQ_01_phase_table_two_spells_with_damage_control() -> None:
    assert [p.name for p in RULESET.phases] == [
        "nips-1",
        "move-1",
        "combat-1",
        "dc-1",
        "nips-2",
        "move-2",
        "combat-2",
        "dc-2",
    ]


def test_game_opens_with_nips_rolled_for_the_spellers_squadrons() -> None:
    g = Game(RULESET, "yalu", 5)
    assert g.spec.name == "move-1"
    assert "Peiyang: 5 NIPs" in texts(g, EventKind.COMMAND)
    assert not any("Flying Squadron" in t for t in texts(g, EventKind.COMMAND))


def test_movement_in_bases_and_turns() -> None:
    g = Game(RULESET, "yalu", 5)
    before = g.state.poses["Chih Yuen"]
    g.submit(
        "China",
        [
            "Peiyang: 1",
        ],
    )
    after = g.state.poses["Chih Yuen"]
    assert after.x - before.x == pytest.approx(BASE) and after.heading == before.heading
    assert ships_of(g.state)["Chih Yuen"].moved_last_spell == 1


def test_movement_orders_are_checked_on_submission() -> None:
    g = Game(RULESET, "yalu", 5)
    with pytest.raises(OrderSyntaxError):
        g.submit("China", ["Ting Yuen: full ahead"])
    with pytest.raises(IllegalOrderError, match="not a ship of China"):
        g.submit("China", ["Yoshino: 1"])
    with pytest.raises(IllegalOrderError, match="DBA-TYPE-01"):
        g.submit("China", ["Ting Yuen: 3"])  # "2*" speed: two bases at most
    with pytest.raises(IllegalOrderError, match="neither a ship nor a squadron"):
        g.submit("China", ["Beiyang: 1"])


def test_nips_limit_the_orders() -> None:
    seed = next(s for s in range(200) if "Peiyang: 1 NIPs" in texts(Game(RULESET, "yalu", s)))
    g = Game(RULESET, "yalu", seed)
    with pytest.raises(IllegalOrderError, match="only 1 rolled"):
        g.submit("China", ["Ting Yuen: 1", "Chen Yuen: 1"])
    g.submit("China", ["Peiyang: 1"])  # one NIP moves the whole squadron as a group


def test_move_and_fire_notation() -> None:
    line = parse_move_line("Flying Squadron: T-45 2")
    assert (line.who, line.turn, line.bases) == ("Flying Squadron", -45.0, 2)
    assert parse_move_line("Yoshino: nets down").nets is True
    assert parse_move_line("Yoshino: stop").stop
    fire = parse_fire_line("Kotaka torpedo 2 -> Ting Yuen")
    assert (fire.shooter, fire.torpedo, fire.target) == ("Kotaka", 2, "Ting Yuen")
    with pytest.raises(OrderSyntaxError):
        parse_fire_line("Kotaka fires at Ting Yuen")


def test_combat_small_calibre_and_torpedo_range_in_the_flow() -> None:
    g = Game(RULESET, "yalu", 5)
    g.submit("China", ["Peiyang: 1"])
    g.submit("China", ["Ting Yuen -> Yoshino"])
    with pytest.raises(IllegalOrderError, match="friendly"):
        g.submit("Japan", ["Yoshino -> Naniwa"])
    g.submit("Japan", ["Kotaka -> Ting Yuen", "Kotaka torpedo 1 -> Ting Yuen"])
    notes = texts(g, EventKind.NOTE)
    assert any("DBA-SCG-01" in t for t in notes)
    assert any("torpedoes reach normal range at most" in t for t in notes)
    assert any("Ting Yuen → Yoshino: gunfire" in t for t in texts(g))
    assert g.spec.name == "move-2"  # damage control and the Japanese NIPs resolved by themselves


def test_same_seed_same_orders_same_game() -> None:
    def play() -> list[str]:
        g = Game(RULESET, "yalu", 5)
        g.submit("China", ["Peiyang: 2"])
        g.submit("China", ["Ting Yuen -> Yoshino", "Chen Yuen -> Naniwa"])
        g.submit("Japan", ["Yoshino -> Chih Yuen", "Naniwa -> Chih Yuen"])
        return texts(g)

    assert play() == play()


def test_game_ends_when_a_side_has_no_fighting_ship() -> None:
    state = new_state("yalu", 1)
    ships = ships_of(state)
    log = EventLog()
    assert RULESET.end_turn(state, log) is None
    for name in ("Ting Yuen", "Chen Yuen", "Chih Yuen"):
        ships[name].crippled = True
    ships["Chih Yuen"].sunk = True
    result = RULESET.end_turn(state, log)
    assert result is not None and result.winner == "Japan"
    assert "China has no fighting ship left" in result.reason
    # sunk scores the PV, crippled half: Chih Yuen 6 + (9 + 9) / 2
    assert result.points["Japan"] == pytest.approx(6 + 9 / 2 + 9 / 2)
    assert verdict(state, "turn limit").points["China"] == 0


def test_scenario_errors(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="no DBA scenario"):
        new_state("atlantis", 1)
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'ruleset = "dba"\nsides = ["A", "B"]\noptions = ["fog"]\n[[ship]]\nannex = "Majestic"\n'
        'side = "A"\nx = 0\ny = 0\nheading = 0\n'
    )
    with pytest.raises(ScenarioError, match="unknown option 'fog'"):
        new_state(str(bad), 1)
    bad.write_text(
        'ruleset = "dba"\nsides = ["A", "B"]\n'
        '[[ship]]\nannex = "Majestic"\nside = "C"\nx = 0\ny = 0\nheading = 0\n'
    )
    with pytest.raises(ScenarioError, match=r"ship\[0\].side: 'C' is not one of A, B"):
        new_state(str(bad), 1)


def test_registered_and_replayable() -> None:
    """``new_game(..., "dba")`` through the registry; the record replays to the same state."""
    from battleline.engine import GameRecord
    from battleline.game import new_game, replay, verify

    g = new_game("yalu", 5, "dbsa")
    assert g.ruleset.name == "dba"
    g.submit("China", ["Peiyang: 2"])
    g.submit("China", ["Ting Yuen -> Yoshino", "Chen Yuen -> Naniwa"])
    g.submit("Japan", ["Yoshino -> Chih Yuen", "Naniwa -> Chih Yuen"])
    record = GameRecord.of(g)
    ok, _state = verify(record)
    assert ok
    assert [e.text for e in replay(record).events] == texts(g)


def test_DBA_BSA_01_corridor_between_the_extended_base_sides() -> None:
    """AMB-90: as wide as the firer's base, ahead and astern."""
    from battleline.engine.geometry import Pose
    from battleline.rulesets.dba.ruleset import in_corridor

    state = new_state("yalu", 1)
    state.poses["Ting Yuen"] = Pose(0.0, 0.0, 90.0)  # heading east, base 1 cable wide
    state.poses["Yoshino"] = Pose(8 * BASE, 0.6 * BASE, 0.0)  # beam-on, edge reaches the line
    p = state.poses
    assert in_corridor(p["Ting Yuen"], p["Yoshino"])
    state.poses["Yoshino"] = Pose(-8 * BASE, 0.0, 90.0)  # dead astern
    assert in_corridor(p["Ting Yuen"], p["Yoshino"])
    state.poses["Yoshino"] = Pose(8 * BASE, 2 * BASE, 90.0)  # well off the line
    assert not in_corridor(p["Ting Yuen"], p["Yoshino"])


def test_DBA_TGT_04_two_gun_lines_put_a_no_secondaries_ship_at_reduced_effect(
    tmp_path: Path,
) -> None:
    from battleline.engine.geometry import Pose

    scenario = tmp_path / "tgt.toml"
    scenario.write_text(
        'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 2\n'
        '[[ship]]\nannex = "Devastation"\nside = "GB"\nx = 0\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "Hoche"\nside = "FR"\nx = 3\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "Charles Martel"\nside = "FR"\nx = -3\ny = 0\nheading = 0\n'
    )
    g = Game(RULESET, str(scenario), 5)
    assert g.state.poses["Devastation"] == Pose(0.0, 0.0, 0.0)
    g.submit("GB", [])
    g.submit("GB", ["Devastation -> Hoche", "Devastation -> Charles Martel"])
    g.submit("FR", [])
    shots = [e.text for e in g.events if e.text.startswith("Devastation →")]
    assert len(shots) == 2 and all("reduced effect DBA-TF-03" in t for t in shots)


def _windy_scenario(tmp_path: Path, windy: bool) -> str:
    """Red A–D (Mikasa) in line ahead heading north; eight Blue Leanders seven bases east."""
    lines = [
        'ruleset = "dba"\nsides = ["Red", "Blue"]',
        "turn_limit = 6",
        'options = ["windy_corners"]' if windy else "options = []",
    ]
    for i, n in enumerate("ABCD"):
        lines += [
            "[[ship]]",
            'annex = "Mikasa"',
            f'name = "{n}"',
            'side = "Red"',
            'squadron = "Red"',
            "x = 0",
            f"y = {-i}",
            "heading = 0",
        ]
    for i in range(8):
        lines += [
            "[[ship]]",
            'annex = "Leander"',
            f'name = "b{i + 1}"',
            'side = "Blue"',
            f'squadron = "Blue{i}"',
            "x = 7",
            f"y = {3 - i}",
            "heading = 0",
        ]
    path = tmp_path / f"windy-{windy}.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


BLUE = [f"b{i}" for i in range(1, 9)]


def _fire(target: str, shooters: list[str]) -> list[str]:
    return [f"{s} -> {target}" for s in shooters]


def _shots(game: Game, start: int, target: str) -> list[str]:
    return [e.text for e in game.events.events[start:] if f"→ {target}: gunfire" in e.text]


def test_EX_DBA_01_to_05_windy_corner_through_the_game_flow(tmp_path: Path) -> None:
    """DBA-WC-01..05 spell by spell with real moves: 2 → 4 → 6 → 8 shooters, no deduction."""
    g = Game(RULESET, _windy_scenario(tmp_path, True), 0)

    def corners() -> dict[str, dict[str, object]]:
        return {
            k: {
                "squadron": c.squadron,
                "to_pass": sorted(c.to_pass),
                "occupants": sorted(c.occupants),
            }
            for k, c in g.state.splash.corners.items()
        }

    # Spell 1 (EX-DBA-01): Red turns 90° in succession; only A gets round.
    g.submit("Red", ["Red: succession T90 1"])
    assert corners() == {
        "WC1-Red": {"squadron": "Red", "to_pass": ["B", "C", "D"], "occupants": ["A"]}
    }
    g.submit("Red", [])
    g.submit(
        "Blue",
        _fire("A", BLUE[:2]) + _fire("B", BLUE[2:4]) + _fire("C", BLUE[4:6]) + _fire("D", BLUE[6:]),
    )
    # Spell 2 (EX-DBA-02): Red does not move; four Blues on A, none deducts.
    g.submit("Blue", [])
    mark = len(g.events.events)
    g.submit("Red", [])
    g.submit("Blue", _fire("A", BLUE[:4]) + _fire("C", BLUE[4:6]) + _fire("D", BLUE[6:]))
    shots = _shots(g, mark, "A")
    assert len(shots) == 4 and not any("DBA-TF-02" in t for t in shots)
    # Spell 3 (EX-DBA-03): A moves off, B through, C onto the corner; six Blues on C.
    g.submit("Red", ["Red: succession 2"])
    assert corners()["WC1-Red"]["occupants"] == ["C"]
    assert "B" not in corners()["WC1-Red"]["to_pass"]
    mark = len(g.events.events)
    g.submit("Red", [])
    g.submit("Blue", _fire("C", BLUE[:6]) + _fire("D", BLUE[6:]))
    shots = _shots(g, mark, "C")
    assert len(shots) == 6 and not any("DBA-TF-02" in t for t in shots)
    # Spell 4 (EX-DBA-04): all eight on C.
    g.submit("Blue", [])
    mark = len(g.events.events)
    g.submit("Red", [])
    g.submit("Blue", _fire("C", BLUE))
    shots = _shots(g, mark, "C")
    assert len(shots) == 8 and not any("DBA-TF-02" in t for t in shots)
    # Spell 5 (EX-DBA-05 a): C was lucky, moves off; D goes through; the corner is gone.
    assert not ships_of(g.state)["C"].crippled
    g.submit("Red", ["Red: succession 2"])
    assert corners() == {}


def test_without_the_option_four_shooters_all_deduct(tmp_path: Path) -> None:
    g = Game(RULESET, _windy_scenario(tmp_path, False), 0)
    g.submit("Red", ["Red: succession T90 1"])
    assert g.state.splash.corners == {}
    g.submit("Red", [])
    g.submit("Blue", _fire("A", BLUE[:2]))
    g.submit("Blue", [])
    mark = len(g.events.events)
    g.submit("Red", [])
    g.submit("Blue", _fire("A", BLUE[:4]))
    shots = _shots(g, mark, "A")
    assert len(shots) == 4 and all("splash confusion DBA-TF-02" in t for t in shots)


def test_succession_needs_a_turn_to_start_and_a_squadron() -> None:
    g = Game(RULESET, "yalu", 5)
    with pytest.raises(IllegalOrderError, match="no turn in succession to continue"):
        g.submit("China", ["Peiyang: succession 1"])
    with pytest.raises(IllegalOrderError, match="only a squadron"):
        g.submit("China", ["Ting Yuen: succession T90 1"])


def _ram_scenario(tmp_path: Path, hoche_x: float, options: str = "[]") -> str:
    path = tmp_path / "ram.toml"
    path.write_text(
        f'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 3\noptions = {options}\n'
        '[[ship]]\nannex = "Conqueror"\nside = "GB"\nx = 0\ny = 0\nheading = 90\n'
        f'[[ship]]\nannex = "Hoche"\nside = "FR"\nx = {hoche_x}\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "Majestic"\nside = "GB"\nx = 0\ny = -3\nheading = 90\n'
    )
    return str(path)


def test_DBA_RAM_05_11_13_ram_order_in_the_flow(tmp_path: Path) -> None:
    """Conqueror (a ram) heads for Hoche's port beam 2 bases off: D6 + 2 − 0 + 1 ≥ 5 always rams;
    a coast defence ram against a battleship is "same" size: rammer D, target C; the rammer
    stops (DBA-RAM-13) and both flood."""
    g = Game(RULESET, _ram_scenario(tmp_path, 2), 3)
    g.submit("GB", ["Conqueror: ram hoche 2"])
    collision = texts(g, EventKind.COLLISION)
    assert collision[0] == "Conqueror (a ram, rammer) adds one (DBA-RAM-06)"
    assert "Conqueror → Hoche (broadside, voluntary)" in collision[1]
    ships = ships_of(g.state)
    assert ships["Conqueror"].damage == 1 and ships["Conqueror"].flooding
    assert ships["Conqueror"].stopped
    assert ships["Hoche"].crippled and ships["Hoche"].flooding
    assert g.state.poses["Conqueror"].x == pytest.approx(1.75 * BASE)  # at the contact


def test_ram_that_falls_short_misses(tmp_path: Path) -> None:
    g = Game(RULESET, _ram_scenario(tmp_path, 5), 3)
    g.submit("GB", ["Conqueror: ram Hoche 2"])
    assert any("misses" in t for t in texts(g, EventKind.MOVE))
    assert not texts(g, EventKind.COLLISION)
    assert g.state.poses["Conqueror"].x == pytest.approx(2 * BASE)


def test_ram_orders_are_checked(tmp_path: Path) -> None:
    g = Game(RULESET, _ram_scenario(tmp_path, 2), 3)
    with pytest.raises(IllegalOrderError, match="DBA-RAM-01"):
        g.submit("GB", ["Conqueror: ram Majestic 1"])
    with pytest.raises(IllegalOrderError, match="no ship 'Bouvet'"):
        g.submit("GB", ["Conqueror: ram Bouvet 1"])
    with pytest.raises(IllegalOrderError, match="at most 2"):
        g.submit("GB", ["Conqueror: ram Hoche 3"])
    off = Game(RULESET, _ram_scenario(tmp_path, 2, '["no_ramming"]'), 3)
    with pytest.raises(IllegalOrderError, match="switched off"):
        off.submit("GB", ["Conqueror: ram Hoche 2"])


def _tb_scenario(tmp_path: Path, options: str = '["tb_launch"]') -> str:
    path = tmp_path / "tb.toml"
    path.write_text(
        f'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 3\noptions = {options}\n'
        '[[ship]]\nannex = "Inflexible"\nside = "GB"\nx = 0\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "Hoche"\nside = "FR"\nx = 3\ny = 0\nheading = 0\n'
    )
    return str(path)


@pytest.mark.parametrize(("seed", "fate"), [(0, "damaged ×1"), (1, "crippled"), (2, "sound")])
def test_DBA_TBL_02_04_05_06_launch_in_the_flow(tmp_path: Path, seed: int, fate: str) -> None:
    g = Game(RULESET, _tb_scenario(tmp_path), seed)
    g.submit("GB", ["Inflexible: launch TB"])
    ships = ships_of(g.state)
    tb = ships["Inflexible TB 1"]
    assert tb.squadron == "Inflexible TBs" and ships["Inflexible"].tbs_carried == 1
    mother = g.state.poses["Inflexible"]
    assert g.state.poses["Inflexible TB 1"].x == pytest.approx(mother.x + BASE / 2)  # abeam
    g.submit("GB", ["Inflexible -> Hoche"])
    g.submit("FR", ["Hoche -> Inflexible"])
    assert any("DBA-TBL-04" in t for t in texts(g, EventKind.NOTE))
    ships = ships_of(g.state)
    assert ships["Inflexible"].state_text == fate
    assert ships["Inflexible TB 1"].state_text == fate  # DBA-TBL-06


def test_launch_orders_are_checked(tmp_path: Path) -> None:
    g = Game(RULESET, _tb_scenario(tmp_path), 0)
    with pytest.raises(IllegalOrderError, match="DBA-TBL-03"):
        g.submit("GB", ["Inflexible: launch TB", "Inflexible: launch TB"])
    with pytest.raises(IllegalOrderError, match="AMB-97"):
        g.submit("GB", ["Inflexible: launch TB", "Inflexible: 1"])
    off = Game(RULESET, _tb_scenario(tmp_path, "[]"), 0)
    with pytest.raises(IllegalOrderError, match="tb_launch"):
        off.submit("GB", ["Inflexible: launch TB"])


def test_DBA_TF_05_06_RW_03_scenario_light_sea_and_rough_weather(tmp_path: Path) -> None:
    path = tmp_path / "night.toml"
    path.write_text(
        'ruleset = "dba"\nsides = ["GB", "FR"]\nnight = true\nheavy_seas = true\n'
        'options = ["rough_weather", "tb_launch"]\n'
        '[[ship]]\nannex = "Inflexible"\nside = "GB"\nx = 0\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "2nd Class TB"\nname = "TB 51"\nside = "GB"\nx = 0\ny = -2\n'
        "heading = 0\n"
        '[[ship]]\nannex = "Havock"\nside = "FR"\nx = 2\ny = 0\nheading = 0\n'
    )
    g = Game(RULESET, str(path), 1)
    assert "TB 51" not in ships_of(g.state)  # DBA-RW-03: gone home
    assert g.state.withdrawn == ["TB 51"]
    with pytest.raises(IllegalOrderError, match="DBA-RW-03"):
        g.submit("GB", ["Inflexible: launch TB"])
    g.submit("GB", [])
    g.submit("GB", ["Inflexible -> Havock"])
    g.submit("FR", [])
    shot = next(t for t in texts(g) if t.startswith("Inflexible → Havock"))
    assert "DBA-TF-05" in shot and "DBA-TF-06" in shot
    with pytest.raises(ScenarioError, match="night: Input should be a valid boolean"):
        path.write_text('ruleset = "dba"\nsides = ["A", "B"]\nnight = "yes"\n')
        new_state(str(path), 1)


def _nearest_enemy(g: Game, name: str) -> str | None:
    ships = ships_of(g.state)
    me = g.state.poses[name]
    enemies = [n for n, s in ships.items() if s.side != ships[name].side and not s.sunk]
    return min(enemies, key=lambda n: me.distance_to(g.state.poses[n]), default=None)


def _play_to_the_end(seed: int) -> Game:
    """Each spell: every squadron steams one base; every ship fires at its nearest enemy."""
    g = Game(RULESET, "yalu", seed)
    for _ in range(200):
        if g.finished:
            break
        phase = g.spec.name
        ships = ships_of(g.state)
        for side in g.state.sides:
            if side in g.pending.texts:
                continue
            if phase.startswith("move"):
                squadrons = {s.squadron for s in ships.values() if s.side == side and not s.sunk}
                orders = []
                for sq in sorted(squadrons):
                    members = [s for s in ships.values() if s.squadron == sq and not s.sunk]
                    if not any(m.crippled or m.fouled for m in members):
                        orders.append(f"{sq}: 1")
                try:
                    g.submit(side, orders)
                except IllegalOrderError:
                    g.submit(side, [])
            else:
                lines = []
                for name, s in ships.items():
                    target = _nearest_enemy(g, name)
                    if s.side == side and not s.sunk and target is not None:
                        lines.append(f"{name} -> {target}")
                g.submit(side, lines)
            if g.finished or g.spec.name != phase:
                break
    return g


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_game_plays_to_a_result(seed: int) -> None:
    g = _play_to_the_end(seed)
    assert g.finished and g.state.result is not None
    assert g.state.turn <= g.state.turn_limit
    assert texts(g, EventKind.RESULT)


def test_only_ships_that_really_fire_count_for_splash_confusion() -> None:
    """DBA-TF-02 with AMB-94: a TB whose light guns cannot hurt the target is not a shooter."""
    g = Game(RULESET, "yalu", 5)
    g.submit("China", [])
    g.submit("China", [])
    mark = len(g.events.events)
    g.submit("Japan", ["Yoshino -> Ting Yuen", "Naniwa -> Ting Yuen", "Kotaka -> Ting Yuen"])
    shots = [t for t in texts(g)[mark:] if "→ Ting Yuen: gunfire" in t]
    assert len(shots) == 2 and not any("DBA-TF-02" in t for t in shots)
    g2 = Game(RULESET, "yalu", 5)
    g2.submit("China", [])
    g2.submit("China", [])
    g2.submit("Japan", ["Yoshino -> Ting Yuen", "Naniwa -> Ting Yuen", "Matsushima -> Ting Yuen"])
    shots = [t for t in texts(g2) if "→ Ting Yuen: gunfire" in t]
    assert len(shots) == 3 and all("DBA-TF-02" in t for t in shots)
