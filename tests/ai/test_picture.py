"""The admiral's picture: its cached short cuts give what the plain construction gives (BF6-LOS-01).

``build_picture`` copies enemy stand-in logs from a per-class pattern (``blank_log``), looks each
class's base up once, and builds the sight lines only when first asked for; these tests build the
same picture the slow way and compare.
"""

from __future__ import annotations

import pytest

from battleline.ai.picture import blank_log, build_picture
from battleline.engine import view
from battleline.game import new_game
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.table import funnel_point


@pytest.mark.parametrize("scenario", ["cruiser-duel", "tsushima-1905", "destroyer-attack"])
def test_picture_equals_the_plain_construction(scenario: str) -> None:
    """Classes, sizes, funnels (BF6-LOS-01: sight runs funnel to funnel) and stand-in logs as
    the picture would work them out one ship at a time."""
    game = new_game(scenario, 5)
    for side in game.state.sides:
        shown = view(game, side)
        picture = build_picture(shown)
        scale = get_scale(shown.scale)
        classes = {s.name: s.log.cls for s in shown.own if not s.log.sunk}
        classes.update({c.name: lookup_class(c.cls) for c in shown.contacts})
        assert picture.classes == classes
        assert list(picture.funnels) == list(picture.poses) == list(classes)
        for name, cls in classes.items():
            length = scale.base_size_m(cls)[0]
            assert picture.funnels[name] == funnel_point(picture.poses[name], length)
        for contact in shown.contacts:
            stand_in = picture.logs[contact.name]
            assert stand_in == ShipLog(contact.name, classes[contact.name], "")
        for ship in shown.own:
            assert picture.logs[ship.name] is ship.log


def test_blank_logs_are_fresh_and_independent() -> None:
    """Two stand-ins of one class share no marks: marking one leaves the other (and the next
    one made) unmarked."""
    cls = lookup_class("Mikasa")
    first = blank_log("Mikasa", cls)
    second = blank_log("Asahi", cls)
    assert second.name == "Asahi" and second.side == ""
    first.dc_boxes[0] = Mark.DAMAGED
    first.propulsion.damage()
    assert second.dc_dice == len(second.dc_boxes)
    third = blank_log("Mikasa", cls)
    assert third == ShipLog("Mikasa", cls, "")


def test_sight_lines_are_built_once_when_first_asked_for() -> None:
    """BF6-LOS-01: the lazily built sight lines answer as ones built from the same poses and
    sizes at once, and the picture keeps the one it built."""
    from battleline.rulesets.bf1900.los import SightLines

    game = new_game("tsushima-1905", 2)
    picture = build_picture(view(game, game.state.sides[0]))
    assert "sight" not in picture.__dict__
    sight = picture.sight
    assert picture.sight is sight
    eager = SightLines(picture.poses, picture.sizes)
    names = list(picture.poses)
    for a in names:
        for b in names:
            if a != b:
                assert sight.blockers(a, b) == eager.blockers(a, b)


def test_stand_in_logs_are_made_when_first_asked_for() -> None:
    """A picture that is never asked for its logs (command, damage control) copies no stand-in
    log; asked, it makes them once, from the contacts' classes."""
    game = new_game("tsushima-1905", 3)
    picture = build_picture(view(game, game.state.sides[1]))
    assert "logs" not in picture.__dict__
    logs = picture.logs
    assert picture.logs is logs
    assert set(logs) == set(picture.own) | set(picture.enemy)
    assert len(logs) == len(set(picture.own) | set(picture.enemy))
    enemy = next(iter(picture.enemy))
    assert enemy in logs and "no such ship" not in logs
    assert logs.get("no such ship") is None
    assert logs[enemy] is logs[enemy]  # an enemy's stand-in is made once, when first read


def test_per_picture_answers_once_per_picture() -> None:
    """A :func:`per_picture` function runs once for each picture, whatever asks it how often."""
    from battleline.ai.picture import Picture, per_picture

    calls: list[Picture] = []

    @per_picture
    def count(picture: Picture) -> int:
        calls.append(picture)
        return len(calls)

    game = new_game("cruiser-duel", 1)
    first, second = (build_picture(view(game, side)) for side in game.state.sides)
    assert [count(first), count(first), count(second), count(second), count(first)] == [
        1,
        1,
        2,
        2,
        1,
    ]
    assert calls == [first, second]


def test_class_weight_of_fire_is_a_fresh_ships() -> None:
    """An enemy's weight of fire by her class values is that of a ship with every gun in
    action (the plain log computation)."""
    from battleline.ai.picture import class_weight_of_fire, weight_of_fire

    for name in ("Mikasa", "Dingyuan", "Oslyabya", "Yoshino"):
        cls = lookup_class(name)
        fresh = ShipLog(name, cls, "")
        assert class_weight_of_fire(cls) == weight_of_fire(fresh, True)
        assert weight_of_fire(fresh, False) == class_weight_of_fire(cls)


def test_targets_in_reach_are_the_plain_loop() -> None:
    """The gunnery plan's targets in reach of each own ship, worked out once per picture, are
    the ones a ship-by-ship loop over the targets finds (5 % over the longest range)."""
    import math

    from battleline.ai.gunnery import _in_reach

    game = new_game("yalu-1894", 4)
    for side in game.state.sides:
        picture = build_picture(view(game, side))
        reach = picture.scale.max_range_m * 1.05
        for firer in picture.own:
            plain = []
            for c in picture.targets():
                seen = math.dist(picture.funnels[firer], picture.funnels[c.name])
                if not seen > reach:
                    plain.append((c, seen))
            assert list(_in_reach(picture, firer)) == plain
