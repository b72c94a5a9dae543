"""Side views: own ships in full, the enemy only as seen, sealed orders never leaked."""

from __future__ import annotations

import json

from battleline.ai.base import StandInAdmiral, legal_lines
from battleline.engine import umpire_view, view
from battleline.engine.events import EventKind
from battleline.game import new_game

SCENARIO = "cruiser-duel"


def _to_gunnery(seed: int = 3):  # type: ignore[no-untyped-def]
    game = new_game(SCENARIO, seed)
    while game.spec.name != "gunnery":
        for side in game.pending.waiting_for:
            game.submit(side, [])
    return game


def _gunnery_lines(game, side: str) -> list[str]:  # type: ignore[no-untyped-def]
    lines = StandInAdmiral(side, 99).gunnery(view(game, side))
    return legal_lines(game, side, lines)


def test_BF6_GEN_07_a_view_never_holds_the_other_sides_sealed_orders() -> None:
    """The other side's gunnery log (targets and range estimates) is absent from the JSON until
    the phase resolves; the writer sees its own."""
    game = _to_gunnery()
    a, b = game.state.sides
    sealed = _gunnery_lines(game, a)
    assert sealed, "the duel opens inside gun range"
    game.submit(a, sealed)
    theirs = view(game, b).to_json()
    mine = view(game, a).to_json()
    for line in sealed:
        assert line not in theirs
        assert line in mine
        estimate = line.split("@", 1)[1].split()[0]
        assert f"@{estimate}" not in theirs
    assert json.loads(mine)["my_orders"] == sealed
    assert json.loads(theirs)["my_orders"] is None
    assert json.loads(theirs)["waiting_for"] == [b]
    # Once both are in, the phase resolves; the written log stays the writer's own (a player never
    # reads the other's gunnery log), and comes out only when the game is over.
    game.submit(b, [])
    after = view(game, b).to_json()
    for line in sealed:
        assert line not in after
        assert line in view(game, a).to_json()


def test_enemy_ships_are_seen_only_from_outside() -> None:
    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    v = view(game, a)
    assert {s.name for s in v.own} == set(game.state.ships_of(a))
    assert {c.name for c in v.contacts} == set(game.state.ships_of(b))
    data = v.to_dict()
    for contact in data["contacts"]:
        assert set(contact) == {
            "name",
            "cls",
            "type",
            "size",
            "pose",
            "fires",
            "sinking",
            "surrendered",
            "observer",
            "observed",
            "stopped",
            "listing",
        }
    for own in data["own"]:
        assert "propulsion" in own["log"] and "dc_boxes" in own["log"]
    assert set(v.divisions) == {d.name for d in game.state.divisions.values() if d.side == a}


def test_events_private_to_another_side_are_filtered_out() -> None:
    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    game.events.emit(EventKind.NOTE, "secret note for b", side=b)
    game.events.emit(EventKind.NOTE, "public note", public=True)
    game.events.emit(EventKind.NOTE, "unmarked note")
    game.events.emit(EventKind.NOTE, "note about a ship of b", ship=game.state.ships_of(b)[0])
    texts_a = [e.text for e in view(game, a).events]
    texts_b = [e.text for e in view(game, b).events]
    assert "secret note for b" not in texts_a
    assert "secret note for b" in texts_b
    assert "public note" in texts_a and "public note" in texts_b
    # Private by default: an event nobody marked public is its owner's, or the umpire's alone.
    assert "unmarked note" not in texts_a and "unmarked note" not in texts_b
    assert "note about a ship of b" in texts_b and "note about a ship of b" not in texts_a


def test_the_umpire_sees_the_sealed_orders() -> None:
    game = _to_gunnery()
    a, _ = game.state.sides
    game.submit(a, [])
    assert umpire_view(game)["pending"] == {a: []}


def test_own_log_in_the_view_is_a_copy() -> None:
    game = new_game(SCENARIO, 1)
    a, _ = game.state.sides
    ship = view(game, a).own[0]
    ship.log.fires_external += 3
    assert game.state.logs[ship.name].fires_external == 0


def test_fires_and_sinking_show_from_outside_but_not_the_log() -> None:
    from battleline.rulesets.bf1900.shiplog import SinkingState

    game = new_game(SCENARIO, 1)
    a, b = game.state.sides
    enemy = game.state.ships_of(b)[0]
    log = game.state.logs[enemy]
    log.fires_external = 2  # smoke and flame show (an internal fire would not)
    log.sinking = SinkingState(turns_left=3)
    contact = next(c for c in view(game, a).contacts if c.name == enemy)
    assert contact.fires and contact.sinking
    assert "turns_left" not in view(game, a).to_json()
    assert '"turns_left":3' in view(game, b).to_json()
    log.sunk = True
    assert enemy not in {c.name for c in view(game, a).contacts}
