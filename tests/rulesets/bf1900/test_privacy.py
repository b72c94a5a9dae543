"""Private by default (issue 11 §3): in a whole played cruiser-duel, nothing that reaches one side
(its views, the events in them, the answers to its checks) gives away what the rules keep from it.

Each side is served, while the game is on, only: its own ships' logs, dice and orders; the dice of
its own shells on the hit tables and the codes they produce (BF6-DMG-07); and what a player across
the table would see (markers, fires that show, a ship that stops, lists, sinks or strikes, torpedo
launches, collisions). Once the game is over, everything is public for the replay.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from battleline.ai.base import Admiral, admiral_factory, play
from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.flow import Game, admiral_seed
from battleline.errors import BattlelineError
from battleline.game import new_game
from battleline.rulesets.bf1900.observation import contacts_for
from battleline.rulesets.bf1900.outward import Signs, announced, firing_side
from battleline.rulesets.bf1900.secrets import leaks, secrets_for
from battleline.rulesets.bf1900.shiplog import SinkingState
from battleline.rulesets.bf1900.view import SideView

SCENARIO = "cruiser-duel"

#: Orders a side might try that are refused: the answers must not tell a true range.
BAD_ORDERS: dict[str, tuple[str, ...]] = {
    "gunnery": ("{own}: {enemy} @99999 A:1", "{own}: {enemy} @3000 Q:1", "{own}: {own} @3000 A:1"),
    "torpedo": ("{own}: TT beam -> {enemy} x1", "{own}: TT bow -> {enemy} x9"),
}

#: Kinds that only ever tell a ship's own side about her log (never shown to the firer).
LOG_KINDS = frozenset(
    {
        EventKind.FLOODING,
        EventKind.CRITICAL,
        EventKind.EXPLOSION,
        EventKind.REPAIR,
        EventKind.COMMAND_FUNCTION,
        EventKind.LISTING,
        EventKind.SINKING,
        EventKind.FIRE,
        EventKind.ORDER,
    }
)


class Spy:
    """Plays one side with its real AI admiral, and records what that side is served and what,
    at that moment, must not reach it (:func:`secrets_for`, this state's and the last one's)."""

    def __init__(self, game: Game[Any, Any], side: str, admiral: Admiral) -> None:
        self.game = game
        self.side = side
        self.admiral = admiral
        self.served: list[tuple[str, set[str], int]] = []  # (payload, secrets, turn)
        self.events: list[Event] = []
        self.previous: set[str] = set()
        self.shown_contacts = 0

    def orders(self, view: SideView, phase: str) -> list[str]:
        game = self.game
        now = secrets_for(game.state, self.side)
        secrets = now | self.previous
        self.previous = now
        self.events.extend(view.events)
        # The side's own order lines are its own words (its estimates among them), and its own
        # ships' moves are its own measurements, printed in whole metres that may equal a true
        # range by chance: leave both out of the scan.
        data = view.to_dict()
        own_words = (EventKind.ORDER.value, EventKind.MOVE.value)
        data["events"] = [
            e for e in data["events"] if not (e["kind"] in own_words and e.get("side") == self.side)
        ]
        data["my_orders"] = None
        self.served.append((json.dumps(data, ensure_ascii=False), secrets, view.turn))
        self.shown_contacts += len(view.contacts)
        own = [s.name for s in view.own if s.log.in_battle]
        enemy = [c.name for c in view.contacts]
        if own and enemy:
            for template in BAD_ORDERS.get(phase, ()):
                line = template.format(own=own[0], enemy=enemy[0])
                try:
                    game.check(self.side, [line])
                except BattlelineError as refused:
                    self.served.append((str(refused), secrets, view.turn))
        return self.admiral.orders(view, phase)


def _played(seed: int, scenario: str = SCENARIO) -> Duel:
    game = new_game(scenario, seed)
    make = admiral_factory(game.ruleset.name)
    spies = {
        side: Spy(game, side, make(side, admiral_seed(seed, i)))
        for i, side in enumerate(game.state.sides)
    }
    play(game, dict(spies))
    assert game.finished
    return game, spies


Duel = tuple[Game[Any, Any], dict[str, Spy]]


@pytest.fixture(
    scope="module", params=[(SCENARIO, 1), (SCENARIO, 4), ("cruiser-duel-1d12", 2)], ids=str
)
def duel(request: pytest.FixtureRequest) -> Duel:
    """A whole duel played AI v AI: the 1D6 edition twice, the 1D12 edition once."""
    scenario, seed = request.param
    return _played(seed, scenario)


def _shown_as_firer(event: Event, side: str, ships_of_side: set[str]) -> bool:
    """A Step Two event the side sees because its own ship fired the shells."""
    firer = event.data.get("firer")
    if event.kind is EventKind.HIT:
        return firer in ships_of_side
    if event.kind is EventKind.DAMAGE and ({"location", "portion", "bonus"} & set(event.data)):
        return firer in ships_of_side  # a 1D6 or 1D12 hit-table line, or 1D12 bonus doubles
    if event.kind is EventKind.NOTE and "duds" in event.data:
        return firer in ships_of_side  # the fuzes of its own shells (shell quality)
    if event.kind is EventKind.ROLL:
        purpose = str(event.data.get("purpose", ""))
        return any(
            purpose.startswith(f"{ship} ")
            and purpose.endswith((" hit location", " damage", " shell hits", " fuzes"))
            for ship in ships_of_side
        )
    return False


def test_nothing_private_to_the_enemy_reaches_a_side_while_the_game_is_on(duel: Duel) -> None:
    """Issue 11 "done means": no view, event or check answer served to a side holds the enemy's
    log state, flooding or critical rolls, DC dice or declarations, torpedo counts, a true
    range, or an enemy ship's exact coordinates beyond what its contacts show.

    The coordinates: a contact shows the pose the side observes (``contacts_for``); the true
    figures are secrets unless a contact shows the same figure (with the scenario option
    ``observed_positions`` off, contacts are exact and then "what the side may see")."""
    _, spies = duel
    for side, spy in spies.items():
        assert spy.served, f"{side} was never asked for orders"
        assert spy.shown_contacts, f"{side} never saw an enemy ship"
        assert any(not p.startswith("{") for p, _, _ in spy.served), "no check was refused"
        for payload, secrets, turn in spy.served:
            found = leaks(payload, secrets)
            assert not found, f"turn {turn}: {side} was served {found[:5]}"


def test_events_about_enemy_logs_never_reach_a_side_before_the_end(duel: Duel) -> None:
    """What follows a hit on the owner's log stays the owner's: boxes, speed, compartments,
    internal fires, DC, flooding and critical rolls, DC declarations and dice, torpedoes left.
    The side sees the enemy's ships only in public events or as the firer of the shells."""
    game, spies = duel
    for side, spy in spies.items():
        mine = set(game.state.ships_of(side))
        enemy = {n for n in game.state.logs if n not in mine}
        seen_shell_dice = False
        for e in spy.events:
            if e.ship not in enemy or e.public:
                continue
            if _shown_as_firer(e, side, mine):
                seen_shell_dice = True
                continue
            assert e.kind is EventKind.COLLISION, f"{side} was shown {e.kind.value}: {e.text}"
        hit_zones = [
            e
            for e in game.events
            if e.kind is EventKind.HIT_ZONE and e.data["firer"] in mine and e.turn < game.state.turn
        ]
        assert seen_shell_dice or not hit_zones, f"{side} never saw the dice of its own shells"


def test_what_shows_across_the_table_does_reach_the_other_side(duel: Duel) -> None:
    """The markers of the enemy's salvos and the outward signs of the enemy's ships arrive, and
    they carry neither an estimate nor a true range."""
    game, spies = duel
    for side, spy in spies.items():
        mine = set(game.state.ships_of(side))
        markers = [
            e
            for e in spy.events
            if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE) and e.data["firer"] not in mine
        ]
        assert markers, f"{side} saw none of the enemy's salvos fall"
        for m in markers:
            assert m.public and set(m.data) == {"x", "y", "firer", "target", "rounds", "fall"}
            assert m.data["fall"] in ("hit", "over", "short")
    signs = [e for e in game.events if e.public and "sign" in e.data]
    assert signs, "something showed across the table (fire, a list, a stop, a sinking, colours)"


def test_after_the_end_everything_is_public(duel: Duel) -> None:
    """Once the game is over the replay shows everything: the enemy's rolls and the umpire's."""
    game, _ = duel
    a, b = game.state.sides
    everything = game.view(a).events
    assert len(everything) == len(game.events)
    assert any(e.side == b and e.kind is EventKind.ROLL for e in everything)
    assert any(e.side is None and e.data.get("measured") for e in everything)


def test_the_firing_side_sees_its_hit_table_dice_and_codes_not_their_effects() -> None:
    """BF6-DMG-07 through the game: the side whose ship fired reads the location and damage
    dice of its shells and the codes they give; what the codes do on the target's log (the
    leak found in review: ``"Yoshino: Px: box destroyed (speed 19.2 kn)"`` served to Red) is
    the target's side's alone."""
    for seed in range(1, 9):
        game = play(new_game(SCENARIO, seed))
        codes = [e for e in game.events if e.kind is EventKind.DAMAGE and "location" in e.data]
        effects = [
            e for e in game.events if e.kind is EventKind.DAMAGE and "location" not in e.data
        ]
        if codes and effects:
            break
    else:
        pytest.fail("no cruiser-duel seed in 1..8 produced a hit with effects")
    hit = codes[0]
    target_side = game.state.side_of(str(hit.ship))
    firer_side = game.state.side_of(str(hit.data["firer"]))
    assert firer_side != target_side
    assert hit.visible_to(firer_side) and hit.visible_to(target_side) and not hit.public
    for e in effects:
        owner = game.state.side_of(str(e.ship))
        assert e.visible_to(owner) and not e.public
        assert not any(e.visible_to(s) for s in game.state.sides if s != owner), e.text


def test_a_ship_stopping_is_told_to_all_while_her_boxes_stay_private() -> None:
    """The detailed propulsion note is the owner's; everyone hears "has stopped"."""
    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    ship = game.state.ships_of(b)[0]
    log = game.state.logs[ship]
    events = EventLog(game.state.ship_sides())
    with announced(game.state.logs, events):
        for _ in log.propulsion.speeds:
            log.propulsion.destroy()
        events.emit(EventKind.DAMAGE, f"{ship}: Px: box destroyed (speed 0 kn)", ship=ship)
    detailed, told = events.events
    assert detailed.side == b and not detailed.visible_to(a)
    assert told.public and told.text == f"{ship} has stopped" and told.data["sign"] == "stopped"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("burning", "is on fire"),
        ("sinking", "is sinking"),
        ("sunk", "has gone under"),
        ("struck", "has struck her colours"),
    ],
)
def test_outward_signs_are_public_and_say_no_more(change: str, words: str) -> None:
    """A fire that shows, a sinking, a ship gone under or struck: one short public event each,
    with no turns left, no fire count, no internal fire."""
    game = new_game(SCENARIO, 1)
    ship = game.state.ships_of(game.state.sides[1])[0]
    log = game.state.logs[ship]
    events = EventLog(game.state.ship_sides())
    with announced(game.state.logs, events):
        if change == "burning":
            log.fires_external = 2
            log.fires_internal = 1
        elif change == "sinking":
            log.sinking = SinkingState(turns_left=3)
        elif change == "sunk":
            log.sunk = True
        else:
            log.surrendered = True
    (told,) = events.events
    assert told.public and told.text == f"{ship} {words}"
    assert set(told.data) == {"sign", "shows"} and "3" not in told.text


def test_an_internal_fire_does_not_show() -> None:
    game = new_game(SCENARIO, 1)
    log = game.state.logs[game.state.ships_of(game.state.sides[1])[0]]
    before = Signs.of(log)
    log.fires_internal = 2
    assert Signs.of(log) == before


def test_firing_side_of_an_unknown_ship_is_nobody() -> None:
    events = EventLog({"Fuji": "Japan"})
    assert firing_side(events, "Fuji") == ("Japan",)
    assert firing_side(events, "Nobody") == ()


def test_secrets_hold_true_ranges_and_enemy_logs_but_not_the_contacts_poses() -> None:
    """``secrets_for`` names the true range between the duellists as a range is printed
    ("4,989 m"), the enemy log's dump and its orders' opening, and leaves out the figures the
    side's own contacts show."""
    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    secrets = game.ruleset.secrets(game.state, a)
    assert secrets == secrets_for(game.state, a)
    mine, theirs = game.state.ships_of(a)[0], game.state.ships_of(b)[0]
    p, q = game.state.poses[mine], game.state.poses[theirs]
    centre = ((q.x - p.x) ** 2 + (q.y - p.y) ** 2) ** 0.5
    assert f"{centre:,.0f} m" in secrets and f"{centre:.0f}" not in secrets
    assert f"{b}: {theirs}: " in secrets and f"{theirs}: Px: " in secrets
    shown = {json.dumps(c.pose.x) for c in contacts_for(game.state, a)}
    assert not shown & secrets
    assert leaks(f"{theirs}: Px: box destroyed", secrets) == [f"{theirs}: Px: "]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Kasagi is 4,540 m away", ["4,540 m"]),
        ("a run of 14,540 m", []),
        ("x 14321.15", []),
        ('{"x":4321.1,"y":0.0}', ["4321.1"]),
        ("x 4321.12", []),
        ("nothing here", []),
    ],
)
def test_leaks_match_whole_numbers_only(text: str, found: Sequence[str]) -> None:
    assert leaks(text, {"4,540 m", "4321.1"}) == list(found)


def test_true_coordinates_are_secrets_and_the_observed_view_holds_none() -> None:
    """With the observation model on, a contact shows where the ship appears to be: the enemy's
    true coordinates are secrets, the side's view carries none of them, and a payload that did
    would be caught."""
    from battleline.engine.geometry import Pose

    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    enemy = game.state.ships_of(b)[0]
    game.state.poses[enemy] = Pose(14321.123456, 18765.654321, 90.0)
    secrets = secrets_for(game.state, a)
    assert {"14321.123456", "18765.654321", "14321.1", "18765.7"} <= secrets
    assert leaks(game.view(a).to_json(), secrets) == []
    assert leaks('{"x":14321.123456}', secrets) == ["14321.123456"]


def test_only_the_umpires_notes_have_no_audience(duel: Duel) -> None:
    """Command and division events belong to their side; the damage steps' headings are public;
    the only events no side sees during play are the umpire's measured figures."""
    game, _ = duel
    unseen = [e for e in game.events if e.side is None and not e.public and not e.seen_by]
    assert unseen and all(e.kind is EventKind.NOTE for e in unseen)
    assert all(e.data.get("measured") or "run_m" in e.data for e in unseen), unseen[:3]
    assert all(e.side in game.state.sides for e in game.events.of_kind(EventKind.COMMAND))


def test_a_collision_is_told_to_all_without_coordinates() -> None:
    """BF6-MOV (collisions stop both ships): the sides of the two ships get the point of contact,
    which lies on their own bases; everyone gets the collision, with no coordinates."""
    from battleline.rulesets.bf1900.movement import Contact

    events = EventLog({"Fuji": "Japan", "Retvizan": "Russia", "Mikasa": "Japan"})
    bump = Contact(EventKind.COLLISION, "Fuji", "Retvizan", 1234.56, 789.01, "Fuji hits (1235 m)")
    detailed = bump.emit(events)
    assert detailed.visible_to("Japan") and detailed.visible_to("Russia") and not detailed.public
    (told,) = [e for e in events.events if e.public]
    assert told.text == "Fuji collides with Retvizan; both stop" and told.data == {
        "other": "Retvizan"
    }
    aground = Contact(EventKind.GROUNDING, "Mikasa", "Island", 50.0, 60.0, "Mikasa aground")
    own = aground.emit(events)
    assert own.side == "Japan" and not own.visible_to("Russia")
    assert events.events[-1].public and events.events[-1].data == {"land": "Island"}


def test_an_internal_fire_does_not_show_to_the_enemy_an_external_one_does() -> None:
    """Fires and smoke that show are public; a fire below decks is the owner's alone."""
    from battleline.game import new_game
    from battleline.rulesets.bf1900.observation import contacts_for

    game = new_game("cruiser-duel", 1)
    kasagi = game.state.logs["Kasagi"]
    kasagi.fires_internal = 2
    assert not next(c for c in contacts_for(game.state, "Blue") if c.name == "Kasagi").fires
    kasagi.fires_external = 1
    assert next(c for c in contacts_for(game.state, "Blue") if c.name == "Kasagi").fires
