"""The AI admiral of the tgd ruleset: bf1900's fleet handling, TGD fire step by step.

:class:`TgdAdmiral` wraps :class:`~battleline.ai.admiral.FleetAdmiral` for everything bf1900's
(divisional orders, fleet signals, keeping the line), and gives its own fire actions in each of
its fire steps, from its :class:`~battleline.rulesets.tgd.view.TgdSideView` alone: every ship with
a ready battery fires the gun strength and target that promise the most damage now —

    guns that bear × chance to hit × share of the target's six locations the shell can pierce

with the chance to hit from the TGD chart for the measured range, the firer's nation, rake and a
stopped target (TGD-HIT-01..07), and the pierce share from the target's published card armour
(never its damage marks, which the view does not show). Nearer targets win ties. A ship fires one
strength a step; the next strength waits for the next step, when the last results are in view.
A division does not strike its colours while any of its ships still has a gun battery. The
line keeps :data:`FIGHTING_RANGE_M` unless the scenario gives the side a doctrine range, and
does not shy away from torpedo tubes the TGD rules never fire.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from battleline.ai.admiral import FleetAdmiral
from battleline.ai.picture import Picture
from battleline.errors import IllegalOrderError
from battleline.rulesets.bf1900.scenario import lookup_class
from battleline.rulesets.bf1900.view import SideView
from battleline.rulesets.tgd.arcs import raked
from battleline.rulesets.tgd.card import ShipCard
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import Charts, HitNumber
from battleline.rulesets.tgd.derive import card_for_ship, derive_rules
from battleline.rulesets.tgd.fire import FireOrder, select_batteries, to_hit
from battleline.rulesets.tgd.steps import STEPS, charts
from battleline.rulesets.tgd.view import TgdSideView


def hit_chance(number: HitNumber) -> float:
    """The chance one die scores ``number`` (a natural 1 always misses; "6 then N" needs a six
    first, TGD-HIT-04)."""
    p = max(0, 7 - max(2, number.need)) / 6
    return p / 6 if number.first is not None else p


def pierce_share(strength: int, rng: float, armour: tuple[int, ...], table: Charts) -> float:
    """Share of the six locations a hit of ``strength`` at ``rng`` penetrates (TGD-PEN-01,
    TGD-ARM-01)."""
    modified = strength + table.penetration_modifier(rng)
    return sum(1 for a in armour if modified > a) / len(armour)


#: The range the TGD admiral's battle line keeps when the scenario sets none (ours): inside
#: 2,000 m a strength-6 gun hits on 5+ with +1 strength (TGD-HIT-03, TGD-PEN-01) and the
#: strength-2 secondaries reach (TGD-RNG-01).
FIGHTING_RANGE_M = 1800.0


class TgdFleetAdmiral(FleetAdmiral):
    """bf1900's fleet admiral for a TGD game: no enemy torpedoes to keep clear of (the TGD rules
    have none), so the line closes to its fighting range."""

    def command(self, picture: Picture) -> list[str]:
        """bf1900's divisional orders, the enemy classes' torpedo tubes left out."""
        for name in picture.enemy:
            cls = picture.classes[name]
            if cls.torpedoes:
                picture.classes[name] = dataclasses.replace(cls, torpedoes=())
        return super().command(picture)


class TgdAdmiral:
    """A side's TGD admiral: a bf1900 :class:`FleetAdmiral` at the helm, TGD fire of its own."""

    def __init__(self, side: str, seed: np.random.SeedSequence | int) -> None:
        self.side = side
        self.fleet = TgdFleetAdmiral(side, seed)
        self._cards: dict[str, ShipCard] = {}

    def orders(self, view: SideView, phase: str) -> list[str]:
        """Order lines for ``phase``: the fleet admiral's outside the fire steps."""
        if isinstance(view, TgdSideView) and view.doctrine_range_m is None:
            view = dataclasses.replace(view, doctrine_range_m=FIGHTING_RANGE_M)
        lines = self.fleet.orders(view, phase)  # it also takes in the view's news
        if not isinstance(view, TgdSideView):
            return lines
        if phase in STEPS:
            return self.fire(view)
        if phase == "command":
            return [line for line in lines if not self._needless_surrender(view, line)]
        return lines

    @staticmethod
    def _needless_surrender(view: TgdSideView, line: str) -> bool:
        """A division striking while one of its ships still has a gun battery: a TGD ship dead in
        the water fights on with every gun she has left, so the bf1900 admiral's "dead in the
        water: strike" is not given then."""
        name, _, orders = line.partition(":")
        if "SIG SURRENDER" not in orders:
            return False
        ships = view.divisions.get(name.strip(), {}).get("ships", [])
        cards = {c.name: c for c in view.cards}
        return any(cards[s].log.live_batteries() for s in ships if s in cards)

    def _enemy_card(self, name: str, cls: str) -> ShipCard:
        card = self._cards.get(name)
        if card is None:
            card = self._cards[name] = card_for_ship(name, lookup_class(cls))
        return card

    def fire(self, view: TgdSideView) -> list[str]:
        """One fire action for each ship that can fire in this step."""
        if view.firing_side != self.side:
            return []
        table = charts()
        unit = derive_rules().metres_per_unit
        seen = {s.name: s for s in view.seen}
        lines: list[str] = []
        for own in view.cards:
            ship = view.ship(own.name)
            log = own.log
            if not ship.in_battle or log.sunk or not own.ready:
                continue
            best: tuple[float, float, int, str] | None = None
            for contact in view.contacts:
                shown = seen.get(contact.name)
                if contact.surrendered or (shown is not None and shown.sunk):
                    continue
                here, there = ship.pose, contact.pose
                rng = math.dist((here.x, here.y), (there.x, there.y)) / unit
                bearing = here.bearing_to(there.x, there.y)
                aspect = there.bearing_to(here.x, here.y)
                stopped = shown is not None and shown.stopped
                armour = self._enemy_card(contact.name, contact.cls).armour
                for strength in log.card.strengths():
                    value = self._value(log, strength, rng, bearing, aspect, stopped, armour, table)
                    if value <= 0:
                        continue
                    option = (value, -rng, strength, contact.name)
                    if best is None or option > best:
                        best = option
            if best is not None:
                lines.append(f"{own.name}: {best[2]} -> {best[3]}")
        return lines

    @staticmethod
    def _value(
        log: CardLog,
        strength: int,
        rng: float,
        bearing: float,
        aspect: float,
        stopped: bool,
        armour: tuple[int, ...],
        table: Charts,
    ) -> float:
        """Expected penetrating hits of the strength's ready batteries that bear (0: none)."""
        order = FireOrder(strength, round(rng, 6), bearing, aspect)
        try:
            chosen = select_batteries(log, order)
        except IllegalOrderError:
            return 0.0
        guns = sum(b.guns for _, b in chosen)
        number = to_hit(
            table, rng, nation=log.card.nation, rake=raked(aspect), stationary=stopped
        ).final
        pierce = pierce_share(strength, rng, armour, table)
        # A ping still tells the range; a shell that can pierce nothing is worth a little.
        return guns * hit_chance(number) * max(pierce, 0.05)


def tgd_admiral(side: str, seed: np.random.SeedSequence) -> TgdAdmiral:
    """Factory for :class:`TgdAdmiral` (``ai.base.ADMIRALS["tgd"]``)."""
    return TgdAdmiral(side, seed)


__all__ = [
    "FIGHTING_RANGE_M",
    "TgdAdmiral",
    "TgdFleetAdmiral",
    "hit_chance",
    "pierce_share",
    "tgd_admiral",
]
