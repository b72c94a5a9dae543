"""The DBA rule corrections of issue 11 §6, each played through the game flow with fixed dice and
checked against the sentence of seed 004 it implements."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.engine.events import EventKind, EventLog
from battleline.engine.flow import Game
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.rulesets.dba.factors import load_annex_a
from battleline.rulesets.dba.ramming import Edge, RamKind, ram_score, ram_test
from battleline.rulesets.dba.ruleset import RULESET
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import load_core
from battleline.testing import FixedDice

A = load_annex_a()
BASE = load_core().base_metres


def _scenario(tmp_path: Path, body: str, options: str = "[]", name: str = "s") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(
        f'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 4\noptions = {options}\n' + body
    )
    return str(path)


def _ship(annex: str, side: str, x: float, y: float = 0.0, heading: float = 0.0, **kw: str) -> str:
    extra = "".join(f'{k} = "{v}"\n' for k, v in kw.items())
    return (
        f'[[ship]]\nannex = "{annex}"\nside = "{side}"\nx = {x}\ny = {y}\nheading = {heading}\n'
        + extra
    )


def _fixed(game: Game, *values: int) -> FixedDice:
    dice = FixedDice(values, log=game.events)
    game.dice = dice  # type: ignore[assignment]
    return dice


def _shots(game: Game, start: int = 0) -> list[str]:
    return [e.text for e in game.events.events[start:] if "gunfire" in e.text and "→" in e.text]


# -- DBA-TF-10 -------------------------------------------------------------------------------
def test_DBA_TF_10_stopped_last_spell_counts_in_the_very_next_spell(tmp_path: Path) -> None:
    """Seed 004: "+1 vs target that was stopped last spell and is not crippled now."

    Majestic (GB) stops in GB's spell 1; in FR's spell 2 she *was stopped last spell*, so Hoche
    fires at +1 (DBA-TF-10). Before the correction the bonus came one spell late, in spell 3."""
    g = Game(RULESET, _scenario(tmp_path, _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3)), 1)
    g.submit("GB", ["Majestic: stop"])  # spell 1: Majestic stays where she is
    _fixed(g, 1, 6, 3)  # spell 1 combat: Hoche misses; FR's NIPs for spell 2
    g.submit("GB", [])
    g.submit("FR", ["Hoche -> Majestic"])
    (spell1,) = _shots(g)
    assert "DBA-TF-10" not in spell1  # she was not stopped in spell 0
    assert g.state.ships["Majestic"].stopped
    mark = len(g.events.events)
    g.submit("FR", ["Hoche: stop"])
    g.dice.push(1, 6, 4)  # type: ignore[attr-defined]  # a miss; GB's NIPs for turn 2
    g.submit("GB", [])
    g.submit("FR", ["Hoche -> Majestic"])
    (spell2,) = _shots(g, mark)
    assert "+1 target stopped last spell DBA-TF-10" in spell2
    assert g.dice.remaining == 0  # type: ignore[attr-defined]


def test_DBA_TF_10_no_bonus_against_a_ship_that_kept_moving(tmp_path: Path) -> None:
    """A ship that moved in her own spell was not stopped in the enemy's next spell."""
    g = Game(RULESET, _scenario(tmp_path, _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3)), 1)
    g.submit("GB", ["Majestic: 1"])
    g.submit("GB", [])
    g.submit("FR", [])
    mark = len(g.events.events)
    g.submit("FR", ["Hoche: 1"])
    g.submit("GB", [])
    g.submit("FR", ["Hoche -> Majestic"])
    assert not any("DBA-TF-10" in t for t in _shots(g, mark))


# -- DBA-NET-04 ------------------------------------------------------------------------------
def test_DBA_NET_04_fouled_ship_falls_out_of_line_and_stops_as_if_crippled(
    tmp_path: Path,
) -> None:
    """Seed 004: "On a score of 5 or 6 if the nets are lowered, or of 6 if they are raised, the
    nets foul the ship. It falls out of line and stops as if crippled. In the damage control
    segment throw to cut away the fouling on a score of 5 or 6."

    Hoche beats Majestic (1+4 = 5 against 1+3 = 4: damaged); the nets roll 6 fouls her, raised
    nets and all. She hauls out of line one base width away from Hoche's fire, like a crippled
    ship (DBA-OUT-03), stops, may not move until the fouling is cut away, and is not crippled for
    combat (AMB-87)."""
    body = _ship("Majestic", "GB", 0) + _ship("Hoche", "FR", 3)
    g = Game(RULESET, _scenario(tmp_path, body, '["nets"]'), 1)
    g.submit("GB", ["Majestic: stop"])
    before = g.state.poses["Majestic"]
    _fixed(g, 1, 1, 6, 4, 2)  # attack, defence, nets foul, cut away (fails), FR's NIPs
    g.submit("GB", [])
    g.submit("FR", ["Hoche -> Majestic"])
    majestic = g.state.ships["Majestic"]
    assert majestic.fouled and majestic.stopped and not majestic.crippled
    assert majestic.damage == 1
    after = g.state.poses["Majestic"]
    assert after.x == pytest.approx(before.x - BASE / 2)  # fire from starboard: out to port
    assert after.heading == before.heading
    moves = [e for e in g.events if e.kind is EventKind.MOVE and "falls out of line" in e.text]
    assert moves and moves[0].public  # what a player across the table sees
    assert any("still fouled" in e.text for e in g.events if e.kind is EventKind.REPAIR)
    # FR's spell passes; in GB's next spell the fouled ship may not move.
    g.dice.push(4)  # type: ignore[attr-defined]  # GB's NIPs, turn 2
    g.submit("FR", [])
    g.submit("GB", [])
    g.submit("FR", [])
    assert g.spec.name == "move-1" and g.state.turn == 2
    with pytest.raises(IllegalOrderError, match="DBA-NET-04"):
        g.submit("GB", ["Majestic: 1"])


# -- DBA-BAS-01 ------------------------------------------------------------------------------
def test_DBA_BAS_01_two_torpedo_craft_may_share_a_base(tmp_path: Path) -> None:
    """Seed 004: "Up to two TBD or TB, or one scout cruiser or TGB and one TBD/TB may be mounted
    on one base." Two TBDs, and a TGB with a TB, start on shared bases."""
    body = (
        _ship("Havock", "GB", 0, squadron="F", base="b1", name="Havock")
        + _ship("Havock", "GB", 0, squadron="F", base="b1", name="Hornet")
        + _ship("Sharpshooter", "GB", 2, base="b2")
        + _ship("TB 81", "GB", 2, base="b2")
        + _ship("Hoche", "FR", 6)
    )
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    ships = g.state.ships
    assert ships["Havock"].base == ships["Hornet"].base == "b1"
    assert ships["Sharpshooter"].base == ships["TB 81"].base == "b2"
    assert g.state.poses["Havock"] == g.state.poses["Hornet"]
    g.state.nips["F"] = 1
    g.submit("GB", ["F: 1"])  # a squadron moving together keeps its base
    assert g.state.ships["Havock"].base == g.state.ships["Hornet"].base == "b1"


@pytest.mark.parametrize(
    ("first", "second"),
    [("Majestic", "Havock"), ("Sharpshooter", "Adventure"), ("Havock", "Havock")],
)
def test_DBA_BAS_01_other_pairings_are_refused(tmp_path: Path, first: str, second: str) -> None:
    """A battleship with a TBD, or a TGB with a scout cruiser, may not share; nor three craft."""
    body = _ship(first, "GB", 0, base="b1", name="one") + _ship(second, "GB", 0, base="b1")
    if first == second:
        body += _ship("TB 81", "GB", 0, base="b1")
    with pytest.raises(ScenarioError, match=r"ship\.base 'b1'.*DBA-BAS-01"):
        RULESET.check_scenario(_scenario(tmp_path, body + _ship("Hoche", "FR", 6)))


def test_DBA_BAS_01_base_mates_split_when_one_moves_alone(tmp_path: Path) -> None:
    """In play the basing rule is kept: a ship that leaves its base-mate is on its own base."""
    body = (
        _ship("Havock", "GB", 0, squadron="F", base="b1", name="Havock")
        + _ship("Havock", "GB", 0, squadron="G", base="b1", name="Hornet")
        + _ship("Hoche", "FR", 8)
    )
    g = Game(RULESET, _scenario(tmp_path, body), 1)
    _fixed(g)
    g.state.nips.update({"F": 2, "G": 2})
    g.submit("GB", ["F: 1"])
    assert g.state.ships["Havock"].base == g.state.ships["Hornet"].base == ""


# -- DBA ramming: add or deduct ----------------------------------------------------------------
def test_DBA_RAM_06_a_ram_may_add_or_deduct_and_the_rammer_states_first() -> None:
    """Seed 004: "If either of the ships involved is a "ram" it may add, or deduct, one to the
    dice score to reflect its superior manoeuvrability. If both ships are rams the rammer states
    whether he is adding or subtracting before the target decides."

    Conqueror (a ram) rams Katahdin (a ram): the rammer deducts, the target adds, both said in
    that order before the die is thrown. Before the correction the rammer could only add and the
    target only deduct."""
    log = EventLog()
    rammer = ShipStatus(A["Conqueror"], name="Conqueror")
    target = ShipStatus(A["Katahdin"], name="Katahdin")
    test = ram_test(
        rammer,
        target,
        FixedDice([3], log=log),
        kind=RamKind.VOLUNTARY,
        edge=Edge.BROADSIDE,
        declared_bases=2,
        target_speed=0,
        rammer_adjust=-1,
        target_adjust=+1,
        log=log,
    )
    assert test.score == 3 + 2 - 0 - 1 + 1
    said = [e.text for e in log if "DBA-RAM-06" in e.text]
    assert said == [
        "Conqueror (a ram, rammer) deducts one (DBA-RAM-06)",
        "Katahdin (a ram, target) adds one (DBA-RAM-06)",
    ]
    kw = {"declared_bases": 2, "target_speed": 0}
    assert ram_score(3, rammer=A["Conqueror"], target=A["Majestic"], rammer_adjust=-1, **kw) == 4
    assert ram_score(3, rammer=A["Majestic"], target=A["Katahdin"], target_adjust=1, **kw) == 6
    with pytest.raises(IllegalOrderError, match='only a "ram"'):
        ram_score(3, rammer=A["Majestic"], target=A["Hoche"], rammer_adjust=1, **kw)


def test_DBA_RAM_06_both_choices_reach_the_game_through_orders(tmp_path: Path) -> None:
    """The rammer states its ±1 in its ram order; a "ram" target gives its choice beforehand as
    a standing ``if rammed`` line with its fire orders."""
    body = (
        _ship("Conqueror", "GB", 0, heading=90.0)
        + _ship("Katahdin", "FR", 2)
        + _ship("Hoche", "FR", 12, 12)
    )
    g = Game(RULESET, _scenario(tmp_path, body), 3)
    g.submit("GB", [])
    g.submit("GB", [])
    with pytest.raises(IllegalOrderError, match="DBA-RAM-06"):
        g.check("FR", ["Hoche: if rammed +1"])
    g.submit("FR", ["Katahdin: if rammed +1"])
    assert g.state.ram_choice == {"Katahdin": 1}
    g.submit("FR", [])  # FR's spell 2: Katahdin stays stopped
    g.submit("GB", [])
    g.submit("FR", [])
    assert g.spec.name == "move-1" and g.state.turn == 2
    g.state.nips["Conqueror"] = 2
    _fixed(g, 3, 1, 1, 1, 1)
    mark = len(g.events.events)
    g.submit("GB", ["Conqueror: ram Katahdin 2 -1"])
    said = [e.text for e in g.events.events[mark:] if e.kind is EventKind.COLLISION]
    assert said[0] == "Conqueror (a ram, rammer) deducts one (DBA-RAM-06)"
    assert said[1] == "Katahdin (a ram, target) adds one (DBA-RAM-06)"
    assert "score 5 (needs 5) → effective ram" in said[2]  # 3 + 2 − 0 − 1 + 1
