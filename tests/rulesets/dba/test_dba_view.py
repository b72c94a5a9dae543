"""What a DBA side sees: its own ships in full, the enemy as across the table, events private by
default, and no secret of one side in anything served to the other (issue 11 §3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from battleline.ai.base import play
from battleline.engine.events import Event, EventKind
from battleline.engine.flow import Game
from battleline.game import new_game
from battleline.rulesets.dba.ruleset import RULESET
from battleline.testing import FixedDice


def _duel(tmp_path: Path) -> Game:
    path = tmp_path / "duel.toml"
    path.write_text(
        'ruleset = "dba"\nsides = ["GB", "FR"]\nturn_limit = 4\n'
        '[[ship]]\nannex = "Majestic"\nside = "GB"\nx = 0\ny = 0\nheading = 0\n'
        '[[ship]]\nannex = "Hoche"\nside = "FR"\nx = 3\ny = 0\nheading = 0\n'
    )
    return Game(RULESET, str(path), 1)


def test_own_ships_in_full_enemy_as_seen(tmp_path: Path) -> None:
    g = _duel(tmp_path)
    g.submit("GB", [])
    g.dice = FixedDice([1, 1, 3], log=g.events)  # type: ignore[assignment]  # beaten: damaged
    g.submit("GB", [])
    g.submit("FR", ["Hoche -> Majestic"])
    assert g.state.ships["Majestic"].damage == 1
    gb, fr = g.view("GB"), g.view("FR")
    (own,) = gb.own
    assert (own.name, own.af, own.df, own.damage, own.torpedo_left) == (
        "Majestic",
        "5/4/3/2",
        "3",
        1,
        1,
    )
    (seen,) = fr.contacts
    assert seen.name == "Majestic" and seen.pose == g.state.poses["Majestic"]
    assert not hasattr(seen, "damage") and not hasattr(seen, "torpedo_left")
    assert "damage" not in json.dumps(fr.to_dict()["contacts"])
    # The attack's opposed dice are seen by both players; the damage marker only by the owner.
    shot = next(e for e in g.events if e.text.startswith("Hoche → Majestic"))
    assert shot.visible_to("GB") and shot.visible_to("FR")
    damage = next(e for e in g.events if "(Majestic is damaged ×1)" in e.text)
    assert damage.visible_to("GB") and not damage.visible_to("FR")
    assert "Majestic is damaged ×1" in RULESET.secrets(g.state, "FR")
    assert not any("Majestic is damaged" in e.text for e in fr.events)
    assert any("Majestic is damaged ×1" in e.text for e in gb.events)


def test_nips_and_torpedoes_left_are_the_owners(tmp_path: Path) -> None:
    g = _duel(tmp_path)
    nips = next(e for e in g.events if e.kind is EventKind.COMMAND)
    assert nips.visible_to("GB") and not nips.visible_to("FR")
    assert g.view("GB").nips and not g.view("FR").nips
    assert "Hoche has 1 torpedo factor left" in RULESET.secrets(g.state, "GB")
    assert "Majestic has 1 torpedo factor left" not in RULESET.secrets(g.state, "GB")


def test_crippled_and_sunk_are_seen_by_all(tmp_path: Path) -> None:
    g = _duel(tmp_path)
    g.submit("GB", [])
    g.dice = FixedDice([6, 1, 2], log=g.events)  # type: ignore[assignment]  # doubled: crippled
    g.submit("GB", ["Majestic -> Hoche"])
    g.submit("FR", [])
    public = [e for e in g.events if e.public and e.text == "Hoche is crippled"]
    assert public
    assert next(c for c in g.view("GB").contacts if c.name == "Hoche").crippled


def _served(game: Game, side: str) -> str:
    view = game.view(side)
    return json.dumps(view.to_dict(), ensure_ascii=False)


@pytest.mark.parametrize(("scenario", "seed"), [("yalu", 1), ("yalu", 4), ("dba-tutorial", 3)])
def test_no_secret_reaches_the_other_side_in_a_played_game(scenario: str, seed: int) -> None:
    """After every resolution, each side's whole view (own ships, contacts, events) is scanned for
    the other side's secrets: damage short of crippling, flooding, torpedoes left, NIPs."""
    game = new_game(scenario, seed)
    scans = 0

    def scan(_events: list[Event]) -> None:
        nonlocal scans
        if game.finished:
            return
        for side in game.state.sides:
            text = _served(game, side)
            for secret in RULESET.secrets(game.state, side):
                assert secret not in text, f"{secret!r} served to {side}"
            scans += 1

    play(game, on_events=scan)
    assert game.finished and scans > 10
    # The scan is not empty: each side's own view does carry its own secrets by those words.
    owner_words = [e.text for e in game.events if "torpedo factor left" in e.text]
    assert owner_words or all(s.torpedo_used == 0 for s in game.state.ships.values())


def test_fates_and_picture(tmp_path: Path) -> None:
    g = play(new_game("dba-tutorial", 1))
    fates = RULESET.fates(g.state)
    assert [f.name for f in fates] == list(g.state.ships)
    assert {f.fate for f in fates} <= {"sunk", "crippled", "damaged", "intact"}
    assert all(dict(f.details)["damage"].isdigit() for f in fates)
    out = RULESET.picture(g.state, str(tmp_path / "t.png"))
    assert out is not None and out.endswith(".svg")
    svg = Path(out).read_text()
    assert svg.startswith("<svg") and svg.count("<polygon") == len(g.state.ships)
    assert "Arrogant" in svg
