"""Who sees a torpedo launch (issue 11 §3: the other side sees "torpedo launches it could see").

A launch shows only to the sides with a ship that can see the firer (the observation model's
sight: BF6-LOS-01/02, land, the scenario's ``visibility_m``); a side that cannot see her learns
of the torpedo only where it ends, without the firer's name. Played through a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from battleline.engine.events import EventKind
from battleline.engine.flow import Game
from battleline.game import new_game

# Blue: Mikasa at the origin, stopped, heading east. Red: two destroyers heading east north of
# her, on her port beam and she on their starboard beams (centre-line tubes, 1,500 m torpedoes):
# Inazuma 600 m off, in sight; Akatsuki 1,350 m off, beyond a visibility of 1,000 m. Red sees
# Mikasa from Inazuma, so both may launch at her.
SCENARIO = """
id = "torpedo-sight-test"
title = "Torpedo launches seen and unseen"
scale = "small"
turn_limit = 4
{extra}

[[sides]]
name = "Blue"
[[sides.divisions]]
name = "Blue line"
heading = 90
speed = 0
ships = [{{ name = "Mikasa", class = "Mikasa" }}]

[[sides]]
name = "Red"
[[sides.divisions]]
name = "Red near"
y = 600
heading = 90
speed = 0
ships = [{{ name = "Inazuma", class = "Ikazuchi" }}]
[[sides.divisions]]
name = "Red far"
x = 100
y = 1350
heading = 90
speed = 0
ships = [{{ name = "Akatsuki", class = "Ikazuchi" }}]
"""


def _game(tmp_path: Path, extra: str) -> Game[Any, Any]:
    path = tmp_path / "torpedo-sight.toml"
    path.write_text(SCENARIO.format(extra=extra), encoding="utf-8")
    return new_game(str(path), 13)  # seed 13: both torpedoes hit (converging beam, 5 or more)


def _launch_both(game: Game[Any, Any]) -> None:
    """No orders until the torpedo phase, then both destroyers launch one torpedo at Mikasa."""
    for _ in range(12):
        if game.spec.name == "torpedo":
            break
        for side in game.state.sides:
            if side in game.pending.waiting_for:
                game.submit(side, [])
    assert game.spec.name == "torpedo"
    game.submit("Blue", [])
    game.submit("Red", ["Inazuma: TT centreline -> Mikasa", "Akatsuki: TT centreline -> Mikasa"])
    assert game.state.result is None


def _torpedo_events(game: Game[Any, Any], side: str) -> list[str]:
    kinds = (EventKind.TORPEDO_LAUNCH, EventKind.TORPEDO_HIT, EventKind.TORPEDO_MISS)
    return [e.text for e in game.events_for(side) if e.kind in kinds]


def test_a_launch_beyond_visibility_is_not_in_the_other_sides_events(tmp_path: Path) -> None:
    """Blue sees Inazuma's launch, not Akatsuki's; both torpedoes strike Mikasa, and Blue is
    told of the unseen one, in the torpedo step and in Damage Step Two, without her name. Red's
    own record holds both launches in full."""
    game = _game(tmp_path, "visibility_m = 1000")
    assert {c.name for c in game.view("Blue").contacts} == {"Inazuma"}
    _launch_both(game)
    assert game.state.turn == 2  # the Damage Phase of turn 1 is over
    blue = _torpedo_events(game, "Blue")
    assert "Inazuma launches torpedoes at Mikasa" in blue
    assert "Mikasa is hit by a torpedo from Inazuma" in blue
    assert not any(
        "Akatsuki" in e.text or "Akatsuki" in str(e.data) for e in game.events_for("Blue")
    )
    assert "Akatsuki" not in game.view("Blue").to_json()
    assert "Mikasa is hit by a torpedo" in blue
    strikes = [t for t in blue if t.startswith("Mikasa: shallow torpedo")]
    assert len(strikes) == 2 and sum("from Inazuma (centreline)" in t for t in strikes) == 1
    red = _torpedo_events(game, "Red")
    assert "Akatsuki launches torpedoes at Mikasa" in red
    assert any(t.startswith("Akatsuki launches 1 torpedo(es)") for t in red)
    assert any("a torpedo from Akatsuki" in t or "torpedo from Akatsuki" in t for t in red)


def test_a_launch_in_sight_of_every_side_is_public(tmp_path: Path) -> None:
    """Without a visibility limit Blue sees both destroyers, and both launches show to it as
    public events (the launch, never the count or the tubes left)."""
    game = _game(tmp_path, "")
    _launch_both(game)
    blue = _torpedo_events(game, "Blue")
    assert "Inazuma launches torpedoes at Mikasa" in blue
    assert "Akatsuki launches torpedoes at Mikasa" in blue
    assert not any(" left" in t for t in blue)
    launches = [
        e
        for e in game.events.of_kind(EventKind.TORPEDO_LAUNCH)
        if e.text.endswith("launches torpedoes at Mikasa")
    ]
    assert len(launches) == 2 and all(e.public for e in launches)


def test_with_observed_positions_off_every_launch_shows_as_on_a_tabletop(tmp_path: Path) -> None:
    """The tabletop toggle: every enemy ship afloat is in view, so every launch shows."""
    game = _game(tmp_path, "visibility_m = 1000\n[options]\nobserved_positions = false")
    _launch_both(game)
    assert "Akatsuki launches torpedoes at Mikasa" in _torpedo_events(game, "Blue")
