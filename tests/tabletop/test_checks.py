"""Reported hits and launches held against what the firing ship could have done this turn
(BF6-ROF-01..07, AMB-10, AMB-12, BF6-TGT-02, BF6-TORP-03, BF6-SINK-03/04, BF6-CMD-32)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog, SinkingState
from battleline.tabletop.checks import (
    LaunchReport,
    most_guns_bearing,
    parse_launch,
    parse_launches,
)
from battleline.tabletop.hits_notation import parse_hits
from battleline.tabletop.session import TabletopSession
from battleline.testing import FixedDice

SHIPS = [
    ("Mikasa", None, None),
    ("Fuji", None, None),
    ("Oslyabya", None, None),
    ("Sokol", None, None),
]


def _session() -> TabletopSession:
    return TabletopSession.new(SHIPS, seed=3)


def _check(
    session: TabletopSession, hits: str, launches: str = "", *, friendly: bool = False
) -> None:
    session.check(parse_hits(hits), parse_launches([launches]), friendly_fire=friendly)


def _refused(session: TabletopSession, hits: str, launches: str = "") -> str:
    with pytest.raises(IllegalOrderError) as info:
        _check(session, hits, launches)
    return str(info.value)


def test_BF6_ROF_03_twenty_rounds_from_a_two_gun_turret_are_refused() -> None:
    """Mikasa's A: two 30.5 cm guns at ROF 1 fire two rounds a turn, never twenty."""
    msg = _refused(_session(), "Oslyabya <- Mikasa A 20 AP b2 port")
    assert "Mikasa's A has 2 gun(s) in action at ROF 1: at most 2 round(s) a turn, not 20" in msg
    assert "BF6-ROF-03" in msg and "Oslyabya <- Mikasa A 20 AP b2 port" in msg
    _check(_session(), "Oslyabya <- Mikasa A 2 AP b2 port")  # the full salvo is fine


def test_BF6_ROF_03_rounds_already_reported_this_turn_count() -> None:
    session = _session()
    session.report(parse_hits("Oslyabya <- Mikasa A 2 AP b2 port"))
    msg = _refused(session, "Sokol <- Mikasa A 2 AP b1 port")
    assert "not 4 (2 already reported this turn)" in msg


def test_BF6_ROF_04_05_rof_2_only_in_the_first_two_brackets() -> None:
    """Oslyabya's secondary battery: 10 guns in a beam pattern 1 (5 bear on one beam), ROF 2."""
    session = _session()
    assert (
        most_guns_bearing(session.logs["Oslyabya"], session.logs["Oslyabya"].cls.mounting("sec"))
        == 5
    )
    _check(session, "Mikasa <- Oslyabya sec 10 b2 port")  # 5 guns × 2 rounds
    msg = _refused(session, "Mikasa <- Oslyabya sec 6 b3 port")
    assert "at most 5 round(s) at Mikasa in bracket b3" in msg and "BF6-ROF-05" in msg
    _check(session, "Mikasa <- Oslyabya sec 5 b3 port")
    # both beams together: 20 rounds a turn at most, 10 at each of two targets in bracket 1–2
    _check(session, "Mikasa <- Oslyabya sec 10 b2 port; Fuji <- Oslyabya sec 10 b1 port")
    msg = _refused(session, "Mikasa <- Oslyabya sec 10 b2 port; Fuji <- Oslyabya sec 11 b1 port")
    assert "at most 20 round(s) a turn, not 21" in msg and "BF6-ROF-04" in msg


def test_BF6_ROF_06_a_turret_fires_whole_salvos_and_damaged_guns_do_not_fire() -> None:
    """AMB-12: a lettered position gives each target the salvo of all its guns, so Mikasa's
    two-gun A cannot have put a single round on a target; Sokol's single guns at ROF 2 fire up
    to two rounds each (BF6-ROF-07). A damaged position fires nothing (BF6-ROF-01)."""
    session = _session()
    msg = _refused(session, "Oslyabya <- Mikasa A 1 AP b2 port")
    assert "whole 2-gun salvos" in msg and "BF6-ROF-06" in msg
    _check(session, "Mikasa <- Sokol A 2 b1 port")
    assert "at most 2 round(s) a turn, not 3" in _refused(session, "Mikasa <- Sokol A 3 b1 port")
    session.logs["Mikasa"].positions["A"].slashes = 1
    assert "no guns in action" in _refused(session, "Oslyabya <- Mikasa A 2 AP b2 port")


def test_one_bracket_per_firer_and_target_in_a_turn() -> None:
    msg = _refused(
        _session(), "Mikasa <- Oslyabya A 2 AP b2 port; Mikasa <- Oslyabya sec 4 b1 port"
    )
    assert "already reported in bracket b2" in msg and "BF6-TGT-02" in msg


def test_BF6_ROF_02_AMB_10_a_rof_half_mounting_fires_every_other_turn() -> None:
    """Yalu's Ting Yuen carries 30.5 cm guns at ROF ½: after firing she is loading a turn."""
    session = TabletopSession.new([("Ting Yuen", None, None), ("Yoshino", None, None)], seed=1)
    half = next(m for m in session.logs["Ting Yuen"].cls.mountings if m.rof < 1)
    line = f"Yoshino <- Ting Yuen {half.key} {half.guns} AP b1 port"
    session.damage_phase(parse_hits(line), {}, dice=FixedDice([6] * half.guns))
    assert session.logs["Ting Yuen"].rof_half_fired_last_turn == {half.key}
    msg = _refused(session, line)
    assert "still loading" in msg and "BF6-ROF-02" in msg
    session.damage_phase([], {}, dice=FixedDice([]))  # a turn without firing: loaded again
    assert session.logs["Ting Yuen"].rof_half_fired_last_turn == set()
    _check(session, line)


def test_friendly_fire_is_questioned_and_may_be_confirmed() -> None:
    session = _session()
    msg = _refused(session, "Oslyabya <- Sokol torpedo port")
    assert "Sokol and Oslyabya are both of Russia" in msg and "--friendly-fire" in msg
    _check(session, "Oslyabya <- Sokol torpedo port", friendly=True)
    session.report(parse_hits("Fuji <- Mikasa A 2 AP b1 port"), friendly_fire=True)
    _check(session, "")  # the confirmed report stays confirmed for the rest of the turn
    assert session.friendly_fire == [("Mikasa", "Fuji")]


def test_BF6_TORP_03_a_third_torpedo_from_two_tubes_is_refused() -> None:
    session = _session()
    _check(session, "Mikasa <- Sokol torpedo port", "Sokol 2")
    msg = _refused(session, "Mikasa <- Sokol torpedo port", "Sokol 3")
    assert "centreline tubes have 2 torpedo(es) left, so 3 cannot" in msg
    assert "BF6-TORP-03" in msg
    msg = _refused(
        session,
        "Mikasa <- Sokol torpedo port; Fuji <- Sokol torpedo port; Mikasa <- Sokol torpedo stbd",
    )
    assert "so 3 cannot" in msg
    msg = _refused(session, "Mikasa <- Sokol torpedo port; Fuji <- Sokol torpedo port", "Sokol 1")
    assert "2 torpedo hit(s) reported from Sokol's centreline tubes, but 1 launched" in msg


def test_BF6_TORP_03_fired_torpedoes_are_crossed_off_over_the_turns() -> None:
    session = _session()
    hits = parse_hits("Mikasa <- Sokol torpedo port")
    session.damage_phase(hits, {}, launches=[parse_launch("Sokol 1")], dice=FixedDice([6] * 8))
    assert session.logs["Sokol"].torpedoes_left == {"centreline": 1}
    session.damage_phase([], {}, launches=[parse_launch("Sokol")], dice=FixedDice([6] * 8))
    assert session.logs["Sokol"].torpedoes_left == {"centreline": 0}
    assert session.history[-1].launches == ("Sokol 1",)
    msg = _refused(session, "", "Sokol 1")
    assert "0 torpedo(es) left" in msg


def test_a_launch_names_the_mount_when_the_ship_has_several() -> None:
    session = _session()
    msg = _refused(session, "", "Oslyabya 1")
    assert "torpedo mounts bow, beam; write which" in msg
    _check(session, "", "Oslyabya bow 1")
    assert "no torpedo mount 'aft'" in _refused(session, "", "Oslyabya aft 1")
    assert "carries no torpedoes" in _refused(
        _session_with("Oslyabya", "Baltimore"), "", "Baltimore 1"
    )
    with pytest.raises(OrderSyntaxError):
        parse_launch("Sokol -1")
    assert parse_launch("Kaiser Friedrich III 2") == LaunchReport("Kaiser Friedrich III", None, 2)


def _session_with(*names: str) -> TabletopSession:
    return TabletopSession.new([(n, None, None) for n in names], seed=1)


def test_BF6_SINK_04_CMD_32_ships_out_of_the_fight_fire_nothing() -> None:
    session = _session()
    session.logs["Mikasa"].surrendered = True
    assert "has surrendered" in _refused(session, "Oslyabya <- Mikasa A 2 AP b2 port")
    session = _session()
    session.logs["Sokol"].sinking = SinkingState(2, guns_abandoned=False)
    assert "BF6-SINK-03" in _refused(session, "Mikasa <- Sokol torpedo port")
    session.logs["Sokol"].sinking = SinkingState(1, guns_abandoned=True)
    assert "BF6-SINK-04" in _refused(session, "Mikasa <- Sokol A 2 b1 port")


def test_damaged_battery_guns_do_not_count() -> None:
    session = _session()
    marks = session.logs["Oslyabya"].batteries["sec"]
    for i in range(len(marks)):
        marks[i] = Mark.DESTROYED
    assert "no guns in action" in _refused(session, "Mikasa <- Oslyabya sec 1 b1 port")


@settings(max_examples=40, deadline=None)
@given(rounds=st.integers(1, 40), bracket=st.integers(1, 3))
def test_a_report_passes_exactly_when_the_battery_could_have_fired_it(
    rounds: int, bracket: int
) -> None:
    """Mikasa's secondary battery (14 guns, beam pattern 1, ROF 2): the limit at one target is
    the guns bearing × the rounds per gun in that bracket (BF6-ROF-04/05/07)."""
    session = _session()
    log: ShipLog = session.logs["Mikasa"]
    assert most_guns_bearing(log, log.cls.mounting("sec")) == 7  # one beam's half of 14
    cap = 7 * (2 if bracket <= 2 else 1)
    line = f"Oslyabya <- Mikasa sec {rounds} b{bracket} port"
    if rounds <= cap:
        _check(session, line)
    else:
        _refused(session, line)
