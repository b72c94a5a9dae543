"""Range estimation stays a skill in digital play (issue 11, §4 and §7): a player who computes the
range from his own side's view and enters it as the estimate (BF6-GUN-02) scores hit zones
(BF6-MEAS-01..04, BF6-DZ-01..03) at the rate the observation model gives a first judgement by
eye, far below the 100 % exact coordinates would give him."""

from __future__ import annotations

import dataclasses
import math
import statistics
from pathlib import Path
from typing import Any

from battleline.ai.admiral import FleetAdmiral
from battleline.ai.base import play
from battleline.engine.events import EventKind
from battleline.engine.flow import Game, admiral_seed
from battleline.game import new_game
from battleline.rulesets.bf1900.gunnery import GunneryEntry
from battleline.rulesets.bf1900.observation import load_observation
from battleline.rulesets.bf1900.scales import get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.table import funnel_point
from battleline.rulesets.bf1900.view import SideView

#: Games of cruiser-duel the cheater plays (about ten salvos each).
GAMES = 24


class Cheat:
    """Blue's admiral, except that every estimate is the range computed from Blue's own view:
    own ship's forward funnel to the contact's, to the metre. The test harness (not the cheat)
    also notes the true funnel-to-funnel range of each shot from the game, to reckon the chance
    the model gives it."""

    def __init__(self, game: Game[Any, Any], side: str) -> None:
        self.game = game
        self.inner = FleetAdmiral(side, admiral_seed(game.state.seed, 0))
        self.true_m: dict[tuple[int, str, str], float] = {}

    def orders(self, view: SideView, phase: str) -> list[str]:
        lines = self.inner.orders(view, phase)
        if phase != "gunnery":
            return lines
        scale = get_scale(view.scale)
        state = self.game.state
        out = []
        for line in lines:
            entry = GunneryEntry.parse(line, view.side)
            own = view.ship(entry.firer)
            seen = next(c for c in view.contacts if c.name == entry.target)
            # One ship a side: she is her own observer (no observer when positions are exact).
            assert seen.observer in (entry.firer, None)
            own_len = scale.base_size_m(lookup_class(own.cls))[0]
            target_len = scale.base_size_m(lookup_class(seen.cls))[0]
            here = funnel_point(own.pose, own_len)
            computed = math.dist(here, funnel_point(seen.pose, target_len))
            true_here = funnel_point(state.poses[entry.firer], own_len)
            true_there = funnel_point(state.poses[entry.target], target_len)
            self.true_m[(view.turn, entry.firer, entry.target)] = math.dist(true_here, true_there)
            out.append(dataclasses.replace(entry, estimate_m=float(round(computed))).notation())
        return out


def _cheat(scenario: str, seed: int) -> tuple[list[bool], list[float]]:
    """One game with Blue cheating: each Blue salvo's hit zone or not, and the model's chance."""
    game = new_game(scenario, seed)
    cheat = Cheat(game, "Blue")
    red = FleetAdmiral("Red", admiral_seed(seed, 1))
    play(game, {"Blue": cheat, "Red": red})
    model = load_observation()
    eye = model.eye(None)
    hits: list[bool] = []
    chances: list[float] = []
    for e in game.events:
        # The umpire's measured note of each salvo (the public marker holds no true range).
        if not (e.kind is EventKind.NOTE and e.data.get("measured")):
            continue
        if game.state.logs[str(e.data["firer"])].side != "Blue":
            continue
        true_m = cheat.true_m[(e.turn, str(e.data["firer"]), str(e.data["target"]))]
        lo, hi = float(e.data["leading_m"]), float(e.data["zone_end_m"])
        hits.append(bool(e.data["hit"]))
        chances.append(model.chance_between(eye, true_m, lo, hi))
    return hits, chances


def test_firing_at_ranges_computed_from_the_view_hits_at_the_models_rate() -> None:
    """§7: many turns of cruiser-duel with Blue entering the range computed from its own view.
    Its hit-zone rate matches the model's chance for a first judgement at each shot's range
    (within a tolerance: the side's lasting error is shared by a game's
    salvos), and stays far below 100 %."""
    per_game = [_cheat("cruiser-duel", seed) for seed in range(1, GAMES + 1)]
    hits = [h for game_hits, _ in per_game for h in game_hits]
    chances = [c for _, game_chances in per_game for c in game_chances]
    assert len(hits) >= 150
    rate, expected = sum(hits) / len(hits), statistics.mean(chances)
    # Cluster-robust spread of the difference (one cluster a game).
    residuals = [sum(h) - sum(c) for h, c in per_game]
    se = math.sqrt(sum(r * r for r in residuals)) / len(hits)
    assert abs(rate - expected) <= max(3.0 * se, 0.03), (rate, expected, se)
    assert abs(rate - expected) < 0.1, (rate, expected)
    assert rate < 0.8, rate


def test_with_exact_positions_the_same_cheat_always_hits(tmp_path: Path) -> None:
    """The control: with ``observed_positions`` off (tabletop assist) the view is exact, and the
    computed range is a hit zone every time: what the observation model takes away."""
    folder = Path(__file__).parents[3] / "src/battleline/rulesets/bf1900/data/scenarios"
    builtin = (folder / "01-cruiser-duel.toml").read_text(encoding="utf-8")
    exact = tmp_path / "exact-duel.toml"
    exact.write_text(
        builtin.replace('id = "cruiser-duel"', 'id = "exact-duel"')
        + "\n[options]\nobserved_positions = false\n",
        encoding="utf-8",
    )
    hits = [h for seed in (1, 2) for h in _cheat(str(exact), seed)[0]]
    assert len(hits) >= 10 and all(hits)
