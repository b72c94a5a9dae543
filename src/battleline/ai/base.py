"""The seam between the engine and AI admirals, and a deliberately simple stand-in admiral.

An :class:`Admiral` sees only its side's :class:`~battleline.engine.view.SideView` and answers
with order TEXT in the normal notations of the phase (divisional orders, gunnery log lines,
torpedo launches, damage-control declarations). A factory ``(side, seed_sequence) -> Admiral``
builds one; the seed is spawned from the game seed (:func:`battleline.engine.admiral_seed`), so
an admiral's randomness never touches the game's dice.

:class:`StandInAdmiral` steams straight on, fires every gun that bears at the nearest enemy with a
range estimate of its own (true distance as seen from the bridge, spoiled by a Gaussian error
from its own ``numpy`` Generator — it never reads a measured range), launches torpedoes when an
enemy is in reach, and declares no damage control. The real admirals live in
``battleline.ai.admiral`` (``default_admiral``); :func:`admiral_factory` prefers them.

:func:`play` drives a whole game with one admiral per side. It offers each admiral's lines to the
umpire (:meth:`Game.check`) and drops any line the rules refuse, as a player would rub out an
illegal entry, so a clumsy admiral never stops the game.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from battleline.engine.events import Event, EventKind
from battleline.engine.flow import Game, admiral_seed
from battleline.engine.view import view
from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.arcs import bearing_guns
from battleline.rulesets.bf1900.gunnery import rounds_per_gun
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.table import funnel_point
from battleline.rulesets.bf1900.torpedoes import bearing_arc
from battleline.rulesets.bf1900.view import OwnShip, SideView


class Admiral(Protocol):
    """Gives a side's orders for a phase, as text lines, from that side's view only."""

    def orders(self, view: SideView, phase: str) -> list[str]:
        """Order lines for ``phase`` (empty for none)."""
        ...


AdmiralFactory = Callable[[str, np.random.SeedSequence], Admiral]


class StandInAdmiral:
    """Steam straight, fire at the nearest visible enemy by eye, no damage control."""

    #: Relative standard deviation of a range guessed by eye (reconstructed).
    ESTIMATE_SD = 0.12

    def __init__(self, side: str, seed: np.random.SeedSequence | int) -> None:
        self.side = side
        self.rng = np.random.default_rng(seed)

    # -- helpers ----------------------------------------------------------------------------

    def guess(self, seen_m: float) -> float:
        """A range estimate by eye: the distance as it looks, off by a random error, to 50 m."""
        factor = 1.0 + float(self.rng.normal(0.0, self.ESTIMATE_SD))
        return max(100.0, round(seen_m * max(factor, 0.3) / 50.0) * 50.0)

    @staticmethod
    def _funnel(
        scale: Scale, cls_name: str, x: float, y: float, heading: float
    ) -> tuple[float, float]:
        from battleline.engine.geometry import Pose

        length = scale.base_size_m(lookup_class(cls_name))[0]
        return funnel_point(Pose(x, y, heading), length)

    def _targets(
        self, view: SideView, ship: OwnShip, scale: Scale
    ) -> list[tuple[float, str, tuple[float, float]]]:
        here = self._funnel(scale, ship.cls, ship.pose.x, ship.pose.y, ship.pose.heading)
        out = []
        for c in view.contacts:
            if c.surrendered:
                continue
            there = self._funnel(scale, c.cls, c.pose.x, c.pose.y, c.pose.heading)
            out.append((math.dist(here, there), c.name, there))
        out.sort()
        return out

    # -- the phases -------------------------------------------------------------------------

    def orders(self, view: SideView, phase: str) -> list[str]:
        """Gunnery and torpedo lines; nothing in the other phases."""
        if phase == "gunnery":
            return self.gunnery(view)
        if phase == "torpedo":
            return self.torpedoes(view)
        return []

    def gunnery(self, view: SideView) -> list[str]:
        """Every gun that bears at the nearest enemy in range, with an estimate by eye."""
        scale = get_scale(view.scale)
        lines = []
        for ship in view.own:
            log = ship.log
            if log.sunk or log.surrendered or (log.sinking and log.sinking.guns_abandoned):
                continue
            for seen, name, there in self._targets(view, ship, scale):
                if seen > scale.max_range_m:
                    break
                estimate = self.guess(seen)
                bracket = scale.bracket(min(estimate, scale.max_range_m)) or 4
                theta = ship.pose.bearing_to(*there)
                parts = []
                for mount in log.cls.mountings:
                    if mount.rof < 1 and mount.key in log.rof_half_fired_last_turn:
                        continue
                    if mount.penetration[bracket - 1] is None:
                        continue
                    guns = bearing_guns(log, mount, theta).guns
                    if guns > 0:
                        parts.append(f"{mount.key}:{guns * rounds_per_gun(mount, bracket)}")
                if parts:
                    ammo = (
                        " AP"
                        if bracket <= 2
                        and lookup_class(next(c.cls for c in view.contacts if c.name == name)).size
                        >= 5
                        else ""
                    )
                    lines.append(f"{ship.name}: {name} @{estimate:.0f}{ammo} {' '.join(parts)}")
                    break
        return lines

    def torpedoes(self, view: SideView) -> list[str]:
        """One torpedo from each loaded mount at the nearest enemy it can reach and bears on."""
        scale = get_scale(view.scale)
        lines = []
        for ship in view.own:
            log = ship.log
            if not log.in_battle:
                continue
            for mount in log.cls.torpedoes:
                if log.torpedoes_left.get(mount.key, 0) <= 0:
                    continue
                for seen, name, there in self._targets(view, ship, scale):
                    if self.guess(seen) > mount.range_m:
                        break
                    if bearing_arc(mount, ship.pose.bearing_to(*there)) is not None:
                        lines.append(f"{ship.name}: TT {mount.key} -> {name}")
                        break
        return lines


def stand_in(side: str, seed: np.random.SeedSequence) -> Admiral:
    """Factory for :class:`StandInAdmiral`."""
    return StandInAdmiral(side, seed)


#: Every event kind an AI admiral reads from its views. A Monte Carlo battle records only these
#: (and what its tally counts): an admiral that reads another kind must add it here, or it would
#: play differently in a simulation than in a demo (``tests/sim/test_lean_log.py`` checks).
ADMIRAL_READS: frozenset[EventKind] = frozenset(
    {EventKind.MOVE, EventKind.COLLISION, EventKind.SPLASH, EventKind.HIT_ZONE}
)

#: Each ruleset's AI admiral: ruleset name → "module:factory". A ruleset plays AI against AI
#: only when it is listed here.
ADMIRALS: dict[str, str] = {
    "bf1900": "battleline.ai.admiral:default_admiral",
    "bf1900-1d12": "battleline.ai.admiral:default_admiral",
    "tgd": "battleline.ai.tgd_admiral:tgd_admiral",
    "dba": "battleline.ai.dba_admiral:dba_admiral",
}


def admiral_factory(ruleset: str = "bf1900") -> AdmiralFactory:
    """The AI admiral factory for a ruleset (by canonical name)."""
    entry = ADMIRALS.get(ruleset)
    if entry is None:
        raise BattlelineError(f"ruleset {ruleset!r} has no AI admiral; known: {sorted(ADMIRALS)}")
    module, attr = entry.split(":")
    factory: AdmiralFactory = getattr(importlib.import_module(module), attr)
    return factory


def _passes(game: Game[Any, Any], side: str, lines: Sequence[str]) -> bool:
    try:
        game.check(side, lines)
    except BattlelineError:
        return False
    return True


def legal_lines(game: Game[Any, Any], side: str, lines: Sequence[str]) -> list[str]:
    """The admiral's lines the umpire accepts: all of them, or greedily as many as pass.

    A refused list is first cut to the lines the umpire accepts one by one (an admiral that
    checked its lines against the table as its view shows it is refused a few, at the edge of
    an arc or a sight line); only if those together still fail are they kept greedily in order.
    """
    if _passes(game, side, lines):
        return list(lines)
    alone = [line for line in lines if _passes(game, side, [line])]
    if _passes(game, side, alone):
        return alone
    kept: list[str] = []
    for line in alone:
        if _passes(game, side, [*kept, line]):
            kept.append(line)
    return kept


def play(
    game: Game[Any, Any],
    admirals: dict[str, Admiral] | None = None,
    *,
    on_events: Callable[[list[Event]], None] | None = None,
    factory: AdmiralFactory | None = None,
) -> Game[Any, Any]:
    """Play ``game`` to its end, one admiral per side (built by ``factory`` when not given)."""
    if admirals is None:
        make = factory or admiral_factory(game.ruleset.name)
        seed = game.state.seed
        admirals = {s: make(s, admiral_seed(seed, i)) for i, s in enumerate(game.state.sides)}
    cursor = dict.fromkeys(game.state.sides, 0)  # each admiral sees the events new to it
    while not game.finished:
        phase = game.spec.name
        turn = game.state.turn
        produced: list[Event] = []
        for side in game.pending.waiting_for:
            seen = view(game, side, since=cursor[side])
            cursor[side] = len(game.events)
            lines = admirals[side].orders(seen, phase)
            try:
                produced = game.submit(side, lines, turn=turn, phase=phase)
            except BattlelineError:
                if side in game.pending.texts:
                    raise  # sealed already: the error came from the resolution itself
                # Refused as a whole: keep what the umpire accepts.
                produced = game.submit(side, legal_lines(game, side, lines), turn=turn, phase=phase)
        if on_events is not None and produced:
            on_events(produced)
    return game
