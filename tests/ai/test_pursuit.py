"""Pursuit (ai/pursuit.py): a stronger line closing on a fleeing enemy steers for her instead of
40° off the bearing, and keeps pace with her at the range it wants; a weaker one does not."""

from __future__ import annotations

import dataclasses

import pytest

from battleline.ai.picture import build_picture, fire_balance
from battleline.ai.pursuit import CLOSE_ANGLE_DEG, pursuit_angles
from battleline.ai.tactics import line_heading
from battleline.engine import view
from battleline.engine.geometry import Pose
from battleline.game import new_game
from battleline.rulesets.bf1900.view import SideView

#: Majestic's run and the fleeing Bouvet's, metres a move (about 19 and 18 knots).
OWN_RUN, HIS_RUN = 1760.0, 1670.0


def _alone(y: float, heading: float) -> SideView:
    """channel-1900 from Britain's side, Majestic leading east from (0, 0), with only Bouvet in
    sight, due north of her."""
    shown = view(new_game("channel-1900", 1), "Britain")
    contacts = tuple(
        dataclasses.replace(c, pose=Pose(0.0, y, heading))
        for c in shown.contacts
        if c.name == "Bouvet"
    )
    return dataclasses.replace(shown, contacts=contacts, pursue=True)


def test_a_stronger_line_steers_for_a_fleeing_enemy() -> None:
    picture = build_picture(_alone(9000.0, 0.0))
    assert fire_balance(picture) < 0.8
    # Unseen twice, her run is unknown: the usual oblique close.
    assert line_heading(picture, "Majestic", ["Bouvet"], OWN_RUN) == (
        pytest.approx(CLOSE_ANGLE_DEG, abs=3.0),
        "close",
    )
    # Running straight away nearly as fast: 40° off would open the range, so straight for her.
    got, why = line_heading(picture, "Majestic", ["Bouvet"], OWN_RUN, HIS_RUN)
    assert why == "close"
    assert got == pytest.approx(0.0, abs=1.0)


def test_at_the_range_it_wants_the_line_keeps_pace_instead_of_turning_beam_on() -> None:
    picture = build_picture(_alone(4000.0, 0.0))
    got, why = line_heading(picture, "Majestic", ["Bouvet"], OWN_RUN, HIS_RUN)
    assert why == "pursue"
    # As far off the bearing as keeps pace: cos(off) = her run / own run.
    assert got == pytest.approx(18.4, abs=1.5)


def test_no_pursuit_of_an_enemy_coming_on_nor_by_a_line_that_is_not_stronger() -> None:
    coming = build_picture(_alone(9000.0, 180.0))
    assert pursuit_angles(coming, "Majestic", "Bouvet", OWN_RUN, HIS_RUN) is None
    # The whole French fleet in sight, and most of Britain's sunk: Britain is the weaker.
    weaker = _alone(9000.0, 0.0)
    whole = view(new_game("channel-1900", 1), "Britain")
    others = tuple(c for c in whole.contacts if c.name != "Bouvet")
    weaker = dataclasses.replace(weaker, contacts=weaker.contacts + others)
    for ship in weaker.own:
        if ship.name in ("Prince George", "Victorious", "Royal Sovereign", "Eclipse"):
            ship.log.sunk = True
    picture = build_picture(weaker)
    assert fire_balance(picture) * 1.25 > 1.0
    assert pursuit_angles(picture, "Majestic", "Bouvet", OWN_RUN, HIS_RUN) is None


def test_no_stern_chase_of_an_enemy_faster_than_the_line() -> None:
    picture = build_picture(_alone(9000.0, 0.0))
    assert pursuit_angles(picture, "Majestic", "Bouvet", OWN_RUN, OWN_RUN * 1.1) is None


def test_only_a_side_the_scenario_has_pursue_does() -> None:
    shown = dataclasses.replace(_alone(9000.0, 0.0), pursue=False)
    assert pursuit_angles(build_picture(shown), "Majestic", "Bouvet", OWN_RUN, HIS_RUN) is None
    assert view(new_game("ulsan-1904", 1), "Japan").pursue
    assert not view(new_game("ulsan-1904", 1), "Russia").pursue
