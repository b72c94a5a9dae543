"""Acceptance checks for issue 4 (gunnery and torpedoes), through the public surfaces: the engine
(``battleline.engine``: ``new_game``, ``Game.check``/``submit``, ``view``) and the CLI (``replay``
of a game record, the CLI path that takes gunnery logs and torpedo launches), in process and as a
real subprocess for the exit code and "no traceback".

An illegal gunnery or torpedo entry names the ship, the target and the rule: out of arc
(BF6-POS-01, BF6-TORP-09, BF6-TORP-10), no line of sight (BF6-LOS-01, BF6-LOS-02), two estimates for
one target (BF6-TGT-02), ROF over-allocation (BF6-ROF-01), a ROF ½ gun two turns running
(BF6-ROF-02), beyond maximum range (BF6-GUN-04), no tubes left (BF6-TORP-03), land across a
torpedo's run (BF6-TORP-04). Estimates and launches are sealed per side until measured (BF6-GUN-01).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_process import one_error, run_cli
from typer.testing import CliRunner

from battleline.cli import app
from battleline.engine import Game, GameRecord, umpire_view, view
from battleline.engine.events import EventKind
from battleline.engine.flow import RecordedOrders
from battleline.errors import BattlelineError, IllegalOrderError, OrderSyntaxError
from battleline.game import new_game

runner = CliRunner()

# Blue: Mikasa at the origin heading east; Ikazuchi (2 centre-line tubes, 1,500 m) 1 km south.
# Red: Fuji 4 km north (port beam of Mikasa, in the bracket 2); Yashima 5 km south behind the Rock
# and Ikazuchi; Chinyen dead astern of Mikasa; Shikishima 1.2 km south of Ikazuchi (its starboard
# beam, in torpedo range); Hatsuse 1.4 km from Ikazuchi, 45° on its starboard bow, behind the Reef.
SCENARIO = """
id = "acceptance-gunnery"
title = "Acceptance: gunnery and torpedoes"
scale = "small"
turn_limit = 4

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
x = 0
y = 0
heading = 90
speed = 0
ships = [{ name = "Mikasa", class = "Mikasa" }]
[[sides.divisions]]
name = "Blue boats"
x = 0
y = -1000
heading = 90
speed = 0
ships = [{ name = "Ikazuchi", class = "Ikazuchi" }]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red north"
x = 0
y = 4000
heading = 90
speed = 0
ships = [{ name = "Fuji", class = "Fuji" }]
[[sides.divisions]]
name = "Red hidden"
x = 0
y = -5000
heading = 90
speed = 0
ships = [{ name = "Yashima", class = "Fuji" }]
[[sides.divisions]]
name = "Red astern"
x = -4000
y = 0
heading = 90
speed = 0
ships = [{ name = "Chinyen", class = "Fuji" }]
[[sides.divisions]]
name = "Red south"
x = 0
y = -2200
heading = 90
speed = 0
ships = [{ name = "Shikishima", class = "Fuji" }]
[[sides.divisions]]
name = "Red reef"
x = 1000
y = -2000
heading = 90
speed = 0
ships = [{ name = "Hatsuse", class = "Fuji" }]

[[land]]
name = "Rock"
points = [[-800, -2500], [800, -2500], [800, -3500], [-800, -3500]]
[[land]]
name = "Reef"
points = [[400, -1400], [600, -1400], [600, -1600], [400, -1600]]
"""


def _scenario(tmp_path: Path) -> Path:
    path = tmp_path / "gunnery.toml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def _advance_to(game: Game, phase: str) -> Game:
    """Submit no orders until ``phase`` is open."""
    for _ in range(12):
        if game.spec.name == phase:
            return game
        for side in game.state.sides:
            if side in game.pending.waiting_for:
                game.submit(side, [])
    raise AssertionError(f"never reached {phase} (at {game.spec.name})")


@pytest.fixture
def game(tmp_path: Path) -> Game:
    return _advance_to(new_game(str(_scenario(tmp_path)), 1), "gunnery")


# -- illegal gunnery entries -----------------------------------------------------------------

GUNNERY_ERRORS = [
    (["Mikasa: Chinyen @4000 A:2"], ("Mikasa firing at Chinyen", "mounting A cannot bear",
                                     "BF6-POS-01")),
    # No ship of Blue's sees Yashima past the Rock: "not in sight", naming nothing that hides her.
    (["Mikasa: Yashima @5000 A:2"], ("Mikasa firing at Yashima", "not in sight",
                                     "BF6-LOS-01")),
    (["Mikasa: Fuji @4000 A:2", "Mikasa: Fuji @4200 Z:2"],
     ("Mikasa firing at Fuji", "a second range estimate for Fuji", "BF6-TGT-02")),
    (["Mikasa: Fuji @4000 A:9"], ("Mikasa firing at Fuji", "9 rounds", "BF6-ROF-01")),
    (["Mikasa: Fuji @40000 A:2"], ("Mikasa firing at Fuji", "beyond maximum gun range",
                                   "BF6-GUN-04")),
    (["Mikasa: Fuji @4000 Q:2"], ("Mikasa firing at Fuji", "no mounting 'Q'", "BF6-TGT-02")),
    (["Mikasa: Nosuch @4000 A:2"], ("Mikasa firing at Nosuch", "no ship 'Nosuch'")),
]  # fmt: skip


@pytest.mark.parametrize(("entries", "expect"), GUNNERY_ERRORS)
def test_illegal_gunnery_entries_name_ship_target_and_rule(
    game: Game, entries: list[str], expect: tuple[str, ...]
) -> None:
    """Issue 4 Done means: out of arc (BF6-POS-01), no line of sight (BF6-LOS-01, BF6-LOS-02:
    land and a ship base block it), two estimates for one target (BF6-TGT-02), ROF
    over-allocation (BF6-ROF-01), beyond the scale's maximum range (BF6-GUN-04)."""
    with pytest.raises(IllegalOrderError) as info:
        game.check("Blue", entries)
    for text in expect:
        assert text in str(info.value), str(info.value)


def test_a_rof_half_gun_fires_every_other_turn(game: Game) -> None:
    """BF6-ROF-02: Fuji's ROF ½ main guns fire on turn 1, are refused on turn 2 (naming ship,
    target and rule), and may fire again on turn 3."""
    game.submit("Blue", [])
    game.submit("Red", ["Fuji: Mikasa @4012 A:2"])
    _advance_to(game, "gunnery")
    assert game.state.turn == 2
    with pytest.raises(IllegalOrderError) as info:
        game.check("Red", ["Fuji: Mikasa @4012 A:2"])
    assert "Fuji firing at Mikasa" in str(info.value) and "BF6-ROF-02" in str(info.value)
    game.check("Red", ["Fuji: Mikasa @4012 sec:2"])  # the secondaries are not ROF ½


def test_gunnery_text_that_does_not_parse_is_a_syntax_error(game: Game) -> None:
    with pytest.raises(OrderSyntaxError, match="Firer: Target @metres"):
        game.check("Blue", ["Mikasa fires at Fuji"])


# -- measuring and the hand-over to Damage Step Two ------------------------------------------


def test_an_estimate_on_the_target_base_is_a_hit_zone_handed_to_damage(game: Game) -> None:
    """BF6-MEAS-01, BF6-MEAS-02, BF6-HIT-01: an estimate on Fuji's base (3,953-4,047 m along the
    line of sight) is a hit zone; its rounds go to Damage Step Two as shell sets with the bracket of
    the leading edge (2nd) and the aspect (Fuji shows Mikasa its starboard side). An estimate
    far short is a splash."""
    game.submit("Blue", ["Mikasa: Fuji @4012 AP A:2 Z:2"])
    events = game.submit("Red", ["Fuji: Mikasa @3000 A:2"])
    zones = [e for e in events if e.kind is EventKind.HIT_ZONE]
    splashes = [e for e in events if e.kind is EventKind.SPLASH]
    assert [(e.data.get("firer", e.ship), e.data.get("target")) for e in zones] == [
        ("Mikasa", "Fuji")
    ]
    assert [e.data.get("target") for e in splashes] == ["Mikasa"]
    sets = [s for s in game.state.shell_sets if s.target == "Fuji"]
    assert sum(s.rounds for s in sets) == 4
    assert {(s.bracket, s.aspect.value, s.ammo.value) for s in sets} == {(2, "starboard", "AP")}


# -- torpedoes -------------------------------------------------------------------------------


def test_illegal_torpedo_launches_name_ship_target_and_rule(game: Game) -> None:
    """Issue 4 Done means: out of arc (BF6-TORP-09, BF6-TORP-10), land across the run
    (BF6-TORP-04), too many torpedoes for the tubes (BF6-TORP-03), beyond torpedo range
    (REF-BF6-18), an unknown mount (BF6-TORP-03)."""
    game.submit("Blue", [])
    game.submit("Red", [])
    assert game.spec.name == "torpedo"
    cases = [
        ("Ikazuchi: TT centreline -> Chinyen x1",
         ("Ikazuchi -> Chinyen", "outside", "BF6-TORP-09")),
        ("Ikazuchi: TT centreline -> Hatsuse x1", ("Ikazuchi -> Hatsuse", "land", "BF6-TORP-04")),
        ("Ikazuchi: TT centreline -> Shikishima x3",
         ("Ikazuchi -> Shikishima", "2 torpedo(es) left, not 3", "BF6-TORP-03")),
        ("Ikazuchi: TT centreline -> Fuji x1", ("Ikazuchi -> Fuji", "beyond", "REF-BF6-18")),
        ("Ikazuchi: TT bow -> Shikishima x1", ("Ikazuchi", "no torpedo mount 'bow'",
                                               "BF6-TORP-03")),
    ]  # fmt: skip
    for text, expect in cases:
        with pytest.raises(IllegalOrderError) as info:
            game.check("Blue", [text])
        for part in expect:
            assert part in str(info.value), (text, str(info.value))
    game.check("Blue", ["Ikazuchi: TT centreline -> Shikishima x2"])


def test_no_tubes_left_after_the_torpedoes_are_spent(game: Game) -> None:
    """BF6-TORP-02/03: launches are crossed off the tubes; the next turn a launch from the empty
    mount is refused, naming ship, target and rule."""
    game.submit("Blue", [])
    game.submit("Red", [])
    game.submit("Blue", ["Ikazuchi: TT centreline -> Shikishima x2"])
    events = game.submit("Red", [])
    assert any(e.kind is EventKind.TORPEDO_LAUNCH for e in events)
    assert game.state.logs["Ikazuchi"].torpedoes_left == {"centreline": 0}
    _advance_to(game, "gunnery")
    game.submit("Blue", [])
    game.submit("Red", [])
    assert game.spec.name == "torpedo" and game.state.turn == 2  # Mikasa still has tubes
    with pytest.raises(IllegalOrderError) as info:
        game.check("Blue", ["Ikazuchi: TT centreline -> Shikishima x1"])
    msg = str(info.value)
    assert "Ikazuchi -> Shikishima" in msg and "0 torpedo(es) left" in msg and "BF6-TORP-03" in msg


# -- who can see what ------------------------------------------------------------------------


def test_estimates_are_sealed_from_the_other_side_until_measured(game: Game) -> None:
    """Issue 4 "Who can see what" / BF6-GUN-01: after Blue writes its log, Red's view holds no
    trace of Blue's estimate; Blue's and the umpire's do; once measured it is still Blue's own."""
    game.submit("Blue", ["Mikasa: Fuji @4012 AP A:2"])
    red = view(game, "Red").to_json()
    blue = view(game, "Blue").to_json()
    assert "4012" not in red and "Fuji @4012" in blue
    assert "4012" in str(umpire_view(game))
    game.submit("Red", [])
    assert "Fuji @4012" not in view(game, "Red").to_json()
    assert "Fuji @4012" in view(game, "Blue").to_json()


def test_torpedo_launches_are_sealed_until_the_step_resolves(game: Game) -> None:
    game.submit("Blue", [])
    game.submit("Red", [])
    game.submit("Blue", ["Ikazuchi: TT centreline -> Shikishima x2"])
    assert "Shikishima x2" not in view(game, "Red").to_json()
    assert "centreline" not in view(game, "Red").to_json()
    assert "Shikishima x2" in view(game, "Blue").to_json()


# -- the same through the CLI (``battleline replay``) ------------------------------------------


def _record(tmp_path: Path, *entries: tuple[int, str, str, list[str]]) -> Path:
    record = GameRecord(
        str(_scenario(tmp_path)),
        "bf1900@0.1",
        1,
        [RecordedOrders(t, ph, side, tuple(o)) for t, ph, side, o in entries],
    )
    path = tmp_path / "record.json"
    record.save(path)
    return path


QUIET_COMMAND: list[tuple[int, str, str, list[str]]] = [
    (1, "command", "Blue", []),
    (1, "command", "Red", []),
]


@pytest.mark.parametrize(
    ("entries", "expect"),
    [
        ([(1, "gunnery", "Blue", ["Mikasa: Chinyen @4000 A:2"])],
         "Mikasa firing at Chinyen: mounting A cannot bear"),
        ([(1, "gunnery", "Blue", ["Mikasa: Yashima @5000 A:2"])],
         "Mikasa firing at Yashima: not in sight"),
        ([(1, "gunnery", "Blue", ["Mikasa: Fuji @4000 A:2", "Mikasa: Fuji @4100 Z:2"])],
         "a second range estimate for Fuji this turn (BF6-TGT-02)"),
        ([(1, "gunnery", "Blue", ["Mikasa: Fuji @4000 A:9"])], "(BF6-ROF-01)"),
        ([(1, "gunnery", "Blue", []), (1, "gunnery", "Red", []),
          (1, "torpedo", "Blue", ["Ikazuchi: TT centreline -> Shikishima x3"])],
         "Ikazuchi -> Shikishima: mount 'centreline' has 2 torpedo(es) left, not 3 (BF6-TORP-03)"),
    ],
)  # fmt: skip
def test_replay_of_an_illegal_entry_is_one_error_line(
    tmp_path: Path, entries: list[tuple[int, str, str, list[str]]], expect: str
) -> None:
    """Issue 4 Done means through the CLI: exit 2, one line naming ship, target and rule."""
    record = _record(tmp_path, *QUIET_COMMAND, *entries)
    result = runner.invoke(app, ["replay", str(record)])
    assert result.exit_code != 0 and isinstance(result.exception, BattlelineError)
    assert expect in str(result.exception)


def test_replay_subprocess_exit_code_and_no_traceback(tmp_path: Path) -> None:
    record = _record(
        tmp_path, *QUIET_COMMAND, (1, "gunnery", "Blue", ["Mikasa: Chinyen @4000 A:2"])
    )
    line = one_error(run_cli("replay", str(record)))
    assert "Mikasa firing at Chinyen" in line and "BF6-POS-01" in line
