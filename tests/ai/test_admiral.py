"""The AI admiral: honest play from its side's view, determinism, legal orders, and the tactics a
naval wargamer would recognise (BF6-CMD, BF6-GUN, BF6-TORP, BF6-DC)."""

from __future__ import annotations

import dataclasses
import statistics
from collections.abc import Callable

import pytest

from battleline.ai.admiral import FleetAdmiral, default_admiral
from battleline.ai.base import Admiral, legal_lines, play
from battleline.ai.damage_control import dc_plan
from battleline.ai.gunnery import choose_ammo
from battleline.ai.picture import build_picture
from battleline.ai.standing import is_beaten
from battleline.ai.tactics import division_of, line_heading
from battleline.engine import Game, view
from battleline.engine.events import Event, EventKind
from battleline.engine.flow import admiral_seed
from battleline.engine.geometry import Pose
from battleline.game import new_game
from battleline.rulesets.bf1900.damage.declarations import format_declarations
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog, SinkingState
from battleline.rulesets.bf1900.view import SideView


class Spy:
    """Wraps an admiral and records what it is handed and what it answers."""

    def __init__(self, inner: Admiral) -> None:
        self.inner = inner
        self.handed: list[object] = []
        self.answers: list[tuple[int, str, list[str]]] = []

    def orders(self, view: SideView, phase: str) -> list[str]:
        self.handed.append(view)
        lines = self.inner.orders(view, phase)
        self.answers.append((view.turn, phase, list(lines)))
        return lines


def spies(game: Game) -> dict[str, Spy]:
    return {
        s: Spy(default_admiral(s, admiral_seed(game.state.seed, i)))
        for i, s in enumerate(game.state.sides)
    }


def run_to(game: Game, admirals: dict[str, Admiral], turn: int, phase: str) -> None:
    """Play on until ``phase`` of ``turn`` is open, each admiral's lines struck out where the
    umpire refuses them, as :func:`play` does: the admiral checks its lines against the table
    as its view shows it (observed positions), so at the edge of an arc or a sight line the
    true table may refuse one."""
    cursor = dict.fromkeys(game.state.sides, 0)
    while not game.finished and (game.state.turn, game.spec.name) != (turn, phase):
        for side in game.pending.waiting_for:
            shown = view(game, side, since=cursor[side])
            cursor[side] = len(game.events)
            lines = admirals[side].orders(shown, game.spec.name)
            lines = legal_lines(game, side, lines)
            game.submit(side, lines, turn=game.state.turn, phase=game.spec.name)


# -- honesty ---------------------------------------------------------------------------------


def test_the_admiral_is_only_ever_handed_a_side_view_and_the_game_ends() -> None:
    """A whole game, admiral against admiral, ends with a result; each admiral saw nothing but
    its own side's view."""
    game = new_game("cruiser-duel", 3)
    watched = spies(game)
    play(game, dict(watched))
    assert game.state.result is not None
    for side, spy in watched.items():
        assert spy.handed
        assert all(type(v) is SideView and v.side == side for v in spy.handed)


def test_the_admiral_refuses_anything_but_its_own_sides_view() -> None:
    game = new_game("cruiser-duel", 1)
    admiral = FleetAdmiral("Blue", 1)
    with pytest.raises(TypeError, match="SideView"):
        admiral.orders(game.state, "command")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Red's view"):
        admiral.orders(view(game, "Red"), "command")


def _scrambled(v: SideView) -> SideView:
    """The view with everything the umpire measured (true ranges, texts) changed in the shot
    events: an honest admiral reads only where its markers lie."""
    events: list[Event] = []
    for e in v.events:
        if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
            data = dict(e.data)
            for key in ("leading_m", "zone_end_m", "estimate_m"):
                data[key] = 123456.0
            data["bracket"] = 9
            e = dataclasses.replace(e, text="(scrambled)", data=data)
        events.append(e)
    return dataclasses.replace(v, events=tuple(events))


def test_BF6_GUN_02_estimates_depend_only_on_the_view() -> None:
    """Same view, same gunnery log, whatever the admiral's seed: it judges no range itself (the
    view's observed positions carry the side's eye). The umpire's measured ranges in the events
    change nothing; the same table seen under another game seed is judged differently."""
    game = new_game("channel-1900", 4)
    run_to(game, dict(spies(game)), 4, "gunnery")
    shown = view(game, "Britain")
    assert any(e.kind is EventKind.SPLASH for e in shown.events)
    a = FleetAdmiral("Britain", 99).orders(shown, "gunnery")
    b = FleetAdmiral("Britain", 99).orders(_scrambled(shown), "gunnery")
    c = FleetAdmiral("Britain", 98).orders(shown, "gunnery")
    assert a and a == b == c
    other = game.state.copy()
    other.seed += 1  # the same table, observed with other draws
    game.state = other
    d = FleetAdmiral("Britain", 99).orders(view(game, "Britain"), "gunnery")
    assert d and d != a


def test_same_seed_same_orders_other_seed_other_battle() -> None:
    """Determinism: the admirals' seeds come from the game seed."""

    def history(seed: int) -> list[tuple[int, str, str, tuple[str, ...]]]:
        game = play(new_game("destroyer-attack", seed))
        return [(r.turn, r.phase, r.side, r.orders) for r in game.history]

    assert history(5) == history(5)
    assert history(5) != history(6)


# -- tactics on a real table -----------------------------------------------------------------


def _channel_view(edit: Callable[[SideView], SideView] | None = None) -> SideView:
    game = new_game("channel-1900", 1)
    shown = view(game, "Britain")
    return edit(shown) if edit else shown


def _with_enemy(v: SideView, name: str, pose: Pose) -> SideView:
    contacts = tuple(dataclasses.replace(c, pose=pose) for c in v.contacts if c.name == name)
    return dataclasses.replace(v, contacts=contacts)


@pytest.mark.parametrize(
    ("y", "heading", "want", "mode"),
    [
        (9000.0, 90.0, 40.0, "close"),  # far: close obliquely
        (4000.0, 90.0, 90.0, "broadside"),  # in the 2nd bracket: parallel course
        (4000.0, 180.0, 90.0, "cross the T"),  # he comes on bows first: cross his T
        (1800.0, 90.0, 140.0, "open"),  # too close (inside 1.6 brackets): open the range
    ],
)
def test_BF6_CMD_26_the_battle_line_closes_to_the_2nd_bracket_and_turns_to_broadside(
    y: float, heading: float, want: float, mode: str
) -> None:
    """Majestic leads east from (0, 0); one French battleship lies due north."""
    shown = _channel_view(lambda v: _with_enemy(v, "Bouvet", Pose(0.0, y, heading)))
    picture = build_picture(shown)
    got, why = line_heading(picture, "Majestic", ["Bouvet"])
    assert why == mode
    assert got == pytest.approx(want, abs=3.0)


def test_ammunition_AP_where_penetration_beats_vitals_armour_else_HE() -> None:
    """Majestic's 12-inch guns (penetration 12/9/7/5) against Bouvet (vitals 12), Gueydon (5)
    and the destroyer Framee (0)."""
    picture = build_picture(_channel_view())
    assert choose_ammo(picture, "Majestic", "Bouvet", 1) is Ammo.AP
    assert choose_ammo(picture, "Majestic", "Bouvet", 2) is Ammo.HE
    assert choose_ammo(picture, "Majestic", "Gueydon", 4) is Ammo.AP
    assert choose_ammo(picture, "Majestic", "Framee", 1) is Ammo.HE


def test_BF6_CMD_28_a_beaten_fleet_turns_away_together_and_runs() -> None:
    """Half the fleet lost, the enemy on the port beam: the fleet flagship signals "Turn 8
    points together" to starboard, away from him, and no division draws a turn of its own."""

    def sink_most(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name in ("Prince George", "Victorious", "Royal Sovereign", "Eclipse"):
                ship.log.sunk = True
        return v

    shown = _channel_view(sink_most)
    assert is_beaten(build_picture(shown))
    lines = FleetAdmiral("Britain", 1).orders(shown, "command")
    flag = next(line for line in lines if line.startswith("1st Division:"))
    assert "SIG TURN8 S" in flag
    assert not any(" TS" in line or " TT" in line for line in lines)


def _wreck(log: ShipLog) -> None:
    """Stop a ship dead and silence every gun and torpedo she has."""
    log.propulsion.destroyed = len(log.propulsion.speeds)
    for key, pos in log.positions.items():
        pos.destroyed = True
        assert log.guns_in_action(key) == 0
    for boxes in log.batteries.values():
        boxes[:] = [Mark.DESTROYED] * len(boxes)
    log.torpedoes_left = dict.fromkeys(log.torpedoes_left, 0)


def test_BF6_CMD_32_a_wrecked_division_of_a_beaten_side_strikes() -> None:
    """Dead in the water, no gun or torpedo left, an enemy battleship close by, and the side
    beaten: the cruisers strike."""

    def wreck_cruisers(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name in ("Eclipse", "Talbot"):
                _wreck(ship.log)
            if ship.name in ("Prince George", "Victorious", "Royal Sovereign"):
                ship.log.sunk = True
        return _with_enemy(v, "Bouvet", Pose(1000.0, 500.0, 90.0))

    lines = FleetAdmiral("Britain", 1).orders(_channel_view(wreck_cruisers), "command")
    assert "Cruisers: SIG SURRENDER" in lines


def test_BF6_CMD_32_no_strike_while_the_guns_fight_or_the_side_is_not_beaten() -> None:
    """Issue 12: a stopped ship out of line under the enemy's guns struck whatever the state of
    the fleet. Now the cruisers strike neither with their guns still in action nor, wrecked,
    while the side is not beaten."""

    def stop_cruisers(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name in ("Eclipse", "Talbot"):
                ship.log.propulsion.destroyed = len(ship.log.propulsion.speeds)
            if ship.name in ("Prince George", "Victorious", "Royal Sovereign"):
                ship.log.sunk = True
        return _with_enemy(v, "Bouvet", Pose(1000.0, 500.0, 90.0))

    def wreck_cruisers_only(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name in ("Eclipse", "Talbot"):
                _wreck(ship.log)
        return _with_enemy(v, "Bouvet", Pose(1000.0, 500.0, 90.0))

    for change in (stop_cruisers, wreck_cruisers_only):
        shown = _channel_view(change)
        lines = FleetAdmiral("Britain", 1).orders(shown, "command")
        assert not any("SURRENDER" in line for line in lines), change.__name__
    assert not is_beaten(build_picture(_channel_view(wreck_cruisers_only)))


def test_BF6_CMD_16_a_damaged_ship_drops_out_of_the_line() -> None:
    """Magnificent has lost two propulsion boxes, the ship astern none: she drops out, turning
    to starboard, away from the enemy to the north, and the line holds its course this move."""

    def slow_magnificent(v: SideView) -> SideView:
        v.ship("Magnificent").log.propulsion.damaged = 2
        return v

    lines = FleetAdmiral("Britain", 1).orders(_channel_view(slow_magnificent), "command")
    first = next(line for line in lines if line.startswith("1st Division:"))
    assert 'DROP "Magnificent" S' in first
    assert " TS" not in first and " TT" not in first


def test_BF6_DC_02_damage_control_by_priority_within_the_dc_dice() -> None:
    """Heavy flooding forward (BF6-REP-08) first, then −1 on the pending sink roll at 5 flooding
    points (BF6-REP-11, BF6-SINK-01), counterfloods of the list and trim (BF6-CF-04), then
    propulsion (BF6-PROP-04); six dice, one per damage event (BF6-DC-02, BF6-DC-04)."""
    log = ShipLog("Majestic", lookup_class("Majestic"), "Britain")
    log.compartments[Compartment.FORWARD].level = FloodLevel.HEAVY
    log.compartments[Compartment.PORT].level = FloodLevel.MODERATE
    log.propulsion.damaged = 2
    log.positions["A"].slashes = 1
    plan = dc_plan(log)
    assert format_declarations(plan) == (
        "HVY:forward; SINK-1; CF:aft=heavy; CF:starboard amidships=moderate; P; P"
    )
    validate_declarations(log, plan)
    log.dc_boxes[:3] = [Mark.DAMAGED] * 3  # three dice left
    assert format_declarations(dc_plan(log)) == "HVY:forward; SINK-1; CF:aft=heavy"


def test_BF6_CF_01_a_conning_tower_hit_is_recovered_before_any_counterflood() -> None:
    """Command functions are barred while a CT hit stands, so the admiral recovers the conning
    tower (BF6-CF-07) and writes no counterflood the rules would refuse."""
    log = ShipLog("Majestic", lookup_class("Majestic"), "Britain")
    log.compartments[Compartment.PORT].level = FloodLevel.HEAVY
    log.compartments[Compartment.PORT].contained = True
    log.ct_hits = 1
    log.bridge_hits = 1
    assert format_declarations(dc_plan(log)) == "RECOVER-CT; BR"


# -- whole games -----------------------------------------------------------------------------


def test_BF6_CMD_30_destroyers_run_in_and_launch_their_torpedoes() -> None:
    """In the destroyer attack the flotilla signals "Torpedo Attack", closes, and launches at the
    battleships; the battleships, which cannot hurt destroyers with normal-depth torpedoes
    (BF6-TORP-07), launch none at them. (Seed 2: since ships work up speed, BF6-MOV-03, seed 4's
    flotilla no longer gets a launch.)"""
    game = new_game("destroyer-attack", 2)
    watched = spies(game)
    play(game, dict(watched))
    orders = [line for _, phase, lines in watched["Flotilla"].answers for line in lines]
    assert any("SIG TORPEDO" in line for line in orders)
    launches = [e for e in game.events if e.kind is EventKind.TORPEDO_LAUNCH]
    firers = {game.state.logs[str(e.ship)].side for e in launches}
    assert firers == {"Flotilla"}


@pytest.mark.slow
def test_ai_battles_range_errors_are_realistic_and_hit_rates_fall_with_range() -> None:
    """Two fleet actions: every estimate compared with the range the umpire measured. The typical
    error is a few per cent, and the share of hit zones falls from the 1st-2nd brackets to the
    3rd-4th. Both games end with a result, and every line the admirals wrote was legal."""
    errors: list[float] = []
    near: list[bool] = []
    far: list[bool] = []
    for seed in (1, 2):
        game = new_game("channel-1900", seed)
        run_to(game, dict(spies(game)), 10**6, "")
        assert game.state.result is not None
        for e in game.events:
            if not (e.kind is EventKind.NOTE and e.data.get("measured")):
                continue  # the umpire's measured figures, one note per salvo
            true = float(e.data["leading_m"])
            errors.append(float(e.data["estimate_m"]) / true - 1.0)
            (near if true <= 5000.0 else far).append(bool(e.data["hit"]))
    assert len(errors) > 100
    spread = statistics.median(abs(x) for x in errors)
    assert 0.01 < spread < 0.12
    assert len(near) > 20 and len(far) > 20
    assert sum(near) / len(near) > 2 * sum(far) / len(far)


def test_the_admiral_walks_its_own_splashes_seen_in_the_events() -> None:
    """After a few turns of firing, the admiral's range-takers know where their last salvoes
    fell (hit, short or over), read from its own splash and hit-zone markers."""
    game = new_game("cruiser-duel", 2)
    admirals = {
        s: FleetAdmiral(s, admiral_seed(game.state.seed, i)) for i, s in enumerate(game.state.sides)
    }
    run_to(game, dict(admirals), 4, "command")
    falls = [t.fall for a in admirals.values() for t in a.keeper.tracks.values()]
    assert falls and all(f is not None for f in falls)


def test_BF6_SINK_04_a_sinking_ship_fights_on_while_her_crews_stand() -> None:
    """Majestic is sinking with her crews at the guns: she still writes a gunnery entry."""

    def sinking_flagship(v: SideView) -> SideView:
        v.ship("Majestic").log.sinking = SinkingState(turns_left=2)
        return _with_enemy(v, "Bouvet", Pose(0.0, 3000.0, 90.0))

    lines = FleetAdmiral("Britain", 4).orders(_channel_view(sinking_flagship), "gunnery")
    assert any(line.startswith("Majestic: Bouvet @") for line in lines)


def test_BF6_TGT_02_big_guns_engage_the_line_and_light_guns_the_destroyers() -> None:
    """A battleship and a destroyer off Majestic's port side: the division concentrates on
    Bouvet with the 12-inch guns; the quick-firers that bear on Framee take her."""

    def two_enemies(v: SideView) -> SideView:
        where = {"Bouvet": Pose(0.0, 4000.0, 90.0), "Framee": Pose(2500.0, 2500.0, 180.0)}
        contacts = tuple(
            dataclasses.replace(c, pose=where[c.name]) for c in v.contacts if c.name in where
        )
        return dataclasses.replace(v, contacts=contacts)

    lines = FleetAdmiral("Britain", 5).orders(_channel_view(two_enemies), "gunnery")
    mine = [line for line in lines if line.startswith("Majestic:")]
    at_bouvet = next(line for line in mine if "Bouvet @" in line)
    at_framee = next(line for line in mine if "Framee @" in line)
    assert " A:2" in at_bouvet and " Z:2" in at_bouvet
    assert " A:" not in at_framee and " Z:" not in at_framee
    assert "sec:" in at_framee


def test_BF6_CMD_26_a_line_abreast_opens_the_range_when_its_nearest_ship_is_too_close() -> None:
    """Issue 12 (Tsushima): Majestic leads east with Bouvet 4 km due north, in the broadside
    band, but Magnificent, out of line after a turn together, lies 2.2 km from him. Judged from
    the leader alone the line holds its broadside; judged from the division's nearest ship, as
    the admiral does, it opens the range (Kamimura's cruisers had steamed into the Russian line
    that way, the far end of a bent line at 1-2 km)."""

    def bent(v: SideView) -> SideView:
        v = _with_enemy(v, "Bouvet", Pose(0.0, 4000.0, 90.0))
        own = tuple(
            dataclasses.replace(s, pose=Pose(-600.0, 1800.0, 90.0))
            if s.name == "Magnificent"
            else s
            for s in v.own
        )
        return dataclasses.replace(v, own=own)

    picture = build_picture(_channel_view(bent))
    assert line_heading(picture, "Majestic", ["Bouvet"])[1] == "broadside"
    got, why = line_heading(picture, "Majestic", ["Bouvet"], ships=["Majestic", "Magnificent"])
    assert why == "open"
    # 140° off the bearing from Magnificent to Bouvet (15°), away from the ship too near.
    assert got == pytest.approx(15.3 + 140.0, abs=3.0)


def test_a_division_is_steered_from_its_first_ship_whose_rudder_is_free() -> None:
    """Issue 12 (Tsushima): with Majestic's rudder jammed (JP, BF6 rudder line) the 1st
    Division's orders are judged from Magnificent, the next ship that steers; with every rudder
    jammed, or none, from the leader."""
    from battleline.ai.steering import steering_lead
    from battleline.ai.tactics import division_of
    from battleline.rulesets.bf1900.shiplog import RudderState

    def jam(names: tuple[str, ...]) -> Callable[[SideView], SideView]:
        def edit(v: SideView) -> SideView:
            for ship in v.own:
                if ship.name in names:
                    ship.log.rudder = RudderState.JAMMED_PORT
            return v

        return edit

    division = ["Majestic", "Magnificent", "Prince George", "Victorious"]
    for jammed, want in [
        ((), "Majestic"),
        (("Majestic",), "Magnificent"),
        (("Majestic", "Magnificent"), "Prince George"),
        (("Magnificent",), "Majestic"),
        (tuple(division), "Majestic"),
    ]:
        picture = build_picture(_channel_view(jam(jammed)))
        got = steering_lead(picture, division_of(picture, "1st Division"), division)
        assert got == want, jammed


#: Four of the six British battleships: with them sunk the side is beaten.
SUNK_LINE = ("Prince George", "Victorious", "Royal Sovereign", "Empress of India")


def _silence_mains(log: ShipLog) -> None:
    """Put every main-gun position and battery of a ship out of action."""
    for mount in log.cls.mountings_of(GunClass.MAIN):
        if mount.is_lettered:
            log.positions[mount.key].destroyed = True
        else:
            log.batteries[mount.key][:] = [Mark.DESTROYED] * len(log.batteries[mount.key])


def _eclipse_stopped(
    enemy: str, pose: Pose, *, line_lost: bool = True, silenced: bool = True
) -> SideView:
    """Eclipse dead in the water (BF6-PROP) and, with ``silenced``, her main guns out of action;
    with ``line_lost`` four battleships sunk (the side beaten); one enemy ship in sight, at
    ``pose``."""

    def edit(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name == "Eclipse":
                ship.log.propulsion.destroyed = len(ship.log.propulsion.speeds)
                if silenced:
                    _silence_mains(ship.log)
            if line_lost and ship.name in SUNK_LINE:
                ship.log.sunk = True
        return _with_enemy(v, enemy, pose)

    return _channel_view(edit)


def test_BF6_CF_06_a_ship_that_can_be_neither_saved_nor_fought_on_is_scuttled() -> None:
    """Eclipse stopped with her main guns silenced, the side beaten and Bouvet 1.1 km off: her
    captain scuttles her, and that is her only declaration. Talbot, still steaming, is not."""
    lines = FleetAdmiral("Britain", 1).orders(
        _eclipse_stopped("Bouvet", Pose(1000.0, 500.0, 90.0)), "damage"
    )
    assert is_beaten(build_picture(_eclipse_stopped("Bouvet", Pose(1000.0, 500.0, 90.0))))
    assert "Eclipse: SCUTTLE" in lines
    assert not any(line.startswith("Talbot:") and "SCUTTLE" in line for line in lines)


@pytest.mark.parametrize(
    ("enemy", "pose", "line_lost", "silenced", "why"),
    [
        ("Bouvet", Pose(1000.0, 20000.0, 90.0), True, True, "no enemy near enough to take her"),
        ("Bouvet", Pose(1000.0, 500.0, 90.0), False, True, "the side not beaten nor outgunned"),
        ("Framee", Pose(1000.0, 500.0, 90.0), True, True, "only a torpedo craft near"),
        ("Bouvet", Pose(1000.0, 500.0, 90.0), True, False, "her main guns still fight"),
    ],
)
def test_BF6_CF_06_no_scuttling_while_help_or_escape_remains(
    enemy: str, pose: Pose, line_lost: bool, silenced: bool, why: str
) -> None:
    """The same stopped Eclipse is not scuttled when one condition fails; stopped with her
    guns in action she is crippled but fights on, as the Chinese battleships did at the Yalu."""
    lines = FleetAdmiral("Britain", 1).orders(
        _eclipse_stopped(enemy, pose, line_lost=line_lost, silenced=silenced), "damage"
    )
    assert not any("SCUTTLE" in line for line in lines), why


def _eclipse_burning(*, scuttle_when_burning: bool, fires: int = 1) -> SideView:
    """Eclipse steaming with her guns in action but on fire, the side beaten, Bouvet 1.1 km
    off; the side's captains scuttling burning ships or not."""

    def edit(v: SideView) -> SideView:
        for ship in v.own:
            if ship.name == "Eclipse":
                ship.log.fires_external = fires
            if ship.name in SUNK_LINE:
                ship.log.sunk = True
        v = _with_enemy(v, "Bouvet", Pose(1000.0, 500.0, 90.0))
        return dataclasses.replace(v, scuttle_when_burning=scuttle_when_burning)

    return _channel_view(edit)


@pytest.mark.parametrize(
    ("setting", "fires", "scuttled"), [(True, 1, True), (False, 1, False), (True, 0, False)]
)
def test_BF6_CF_06_a_side_that_ran_burning_ships_ashore_scuttles_on_fire(
    setting: bool, fires: int, scuttled: bool
) -> None:
    """``[[sides]] scuttle_when_burning`` (Cervera's captains at Santiago): a ship on fire is
    given up although she still steams and fights, when the side is beaten and an enemy big
    ship is close; without the setting, or without a fire, she fights on."""
    lines = FleetAdmiral("Britain", 1).orders(
        _eclipse_burning(scuttle_when_burning=setting, fires=fires), "damage"
    )
    assert ("Eclipse: SCUTTLE" in lines) is scuttled


def test_the_scenario_setting_reaches_only_its_own_sides_view() -> None:
    """Santiago sets ``scuttle_when_burning`` for Spain alone; each side's view carries its own."""
    from battleline.rulesets.bf1900.view import side_view

    game = new_game("santiago-1898", 1)
    assert side_view(game, "Spain").scuttle_when_burning
    assert not side_view(game, "United States").scuttle_when_burning


@pytest.mark.slow
def test_BF6_CF_06_santiago_captains_scuttle_through_the_rules() -> None:
    """A whole game (seed 1): the Spanish admiral's SCUTTLE declarations pass the order gate and
    the Damage Phase loses the ships. A scuttling that only partly succeeds capsizes the ship
    instead (BF6-CF-06; ``capsized`` is written by the scuttling roll alone). Here Infanta Maria
    Teresa, on fire with the Americans close (``scuttle_when_burning``), is scuttled outright and
    both destroyers capsize; every Spanish loss of this game is a scuttling."""
    game = play(new_game("santiago-1898", 1))
    lost = {
        n: log.lost_reason for n, log in game.state.logs.items() if log.sunk and log.side == "Spain"
    }
    assert lost == {"Infanta Maria Teresa": "scuttled", "Furor": "capsized", "Pluton": "capsized"}


def test_a_division_with_no_ship_in_the_battle_lists_only_ships_afloat() -> None:
    """Eclipse sunk and Talbot struck: the admiral's picture of the division holds Talbot only
    (a sunk ship has left the picture, so naming her there stopped the command phase with a
    KeyError once scuttled ships went down beside struck ones)."""

    def edit(v: SideView) -> SideView:
        v.ship("Eclipse").log.sunk = True
        v.ship("Talbot").log.surrendered = True
        return v

    shown = _channel_view(edit)
    assert division_of(build_picture(shown), "Cruisers").ships == ("Talbot",)
    FleetAdmiral("Britain", 1).orders(shown, "command")  # plans without the division
