"""The TGD hit and damage rules as a ruleset, "tgd", on Battlefleet 1900 scenarios.

The TGD draft gives hits and damage only (REF-TGD-06), so this ruleset borrows the rest from
bf1900: set-up, the Command and Movement Phases are bf1900's. Its own part is the fire phase,
played as alternating **fire steps** (:mod:`.steps`): a side fires one gun strength a ship,
sees the hits, locations and damage, and the other side answers, twelve steps a turn. Each
ship's TGD card (:class:`~.state.TgdState` ``cards``) is the packaged one named like it or its
class, or one derived from its ship values (:mod:`.derive`).

=========== ============================ ============================================
phase       orders                       resolved by
=========== ============================ ============================================
command     divisional and fleet orders  bf1900 ``resolve_command``
movement    none                         bf1900 ``resolve_movement``
fire-1..12  fire actions, one side/step  :func:`.steps.resolve_step` (TGD-FIRE/HIT/DMG)
=========== ============================ ============================================

Victory is the scenario's points for ships sunk and crippled, by the TGD card (:func:`ship_fate`;
crippled is reconstructed, see docs/rules-gaps/tgd.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from battleline.engine.events import EventLog
from battleline.engine.ruleset import PhaseSpec, ShipFate
from battleline.engine.state import Result
from battleline.rulesets.bf1900 import ruleset as bf6
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.tgd import scenarios
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.derive import card_for_ship
from battleline.rulesets.tgd.state import TgdState
from battleline.rulesets.tgd.steps import (
    STEPS,
    FireLine,
    geometry,
    new_fire_phase,
    parse_fire_line,
    resolve_step,
    step_needs_orders,
    step_parser,
    sync_log,
)
from battleline.rulesets.tgd.view import TgdSideView, secrets, tgd_view

if TYPE_CHECKING:
    from battleline.engine.flow import Game

NAME = "tgd"
VERSION = "0.2"
ALIASES: tuple[str, ...] = ()

Orders = Mapping[str, Any]

__all__ = [
    "RULESET",
    "FireLine",
    "Ruleset",
    "geometry",
    "new_state",
    "parse_fire_line",
    "ship_fate",
    "sync_log",
    "verdict",
]


# -- set-up ----------------------------------------------------------------------------------


def new_state(scenario: str, seed: int) -> TgdState:
    """bf1900's set-up, with a fresh TGD card for every ship."""
    base = bf6.new_state(scenario, seed)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(Bf1900State)}
    fields.update(scenario=scenario, ruleset=f"{NAME}@{VERSION}")
    cards = {n: CardLog(card_for_ship(n, log.cls), label=n) for n, log in base.logs.items()}
    return TgdState(**fields, cards=cards)


def _fire_steps() -> tuple[PhaseSpec[TgdState, Any], ...]:
    return tuple(
        PhaseSpec(
            name,
            "fire actions",
            resolve_step,
            step_parser(k),
            needs_orders=step_needs_orders(k),
            rules="TGD-FIRE-01..03, TGD-HIT-01..07, TGD-DMG-01..08, TGD-REFD-01..04",
        )
        for k, name in enumerate(STEPS, start=1)
    )


PHASES: tuple[PhaseSpec[TgdState, Any], ...] = (
    PhaseSpec(
        "command",
        "divisional and fleet orders",
        bf6.resolve_command,
        bf6.parse_command,
        rules="BF6-CMD-01..32",
    ),
    PhaseSpec("movement", None, bf6.resolve_movement, rules="BF6-MOV-01..07"),
    *_fire_steps(),
)


# -- victory ---------------------------------------------------------------------------------


def card_crippled(card: CardLog) -> bool:
    """Crippled (reconstructed): immobile, topside wrecked, or half or more of its batteries
    destroyed."""
    total = len(card.card.batteries())
    return card.speed == 0 or card.topside_wrecked or (total > 0 and 2 * len(card.lost) >= total)


def ship_fate(log: ShipLog, card: CardLog) -> str:
    """One word: sunk, surrendered, crippled, damaged or intact, by the card and the log."""
    if log.sunk or card.sunk:
        return "sunk"
    if log.surrendered:
        return "surrendered"
    if card_crippled(card):
        return "crippled"
    marked = card.lost or card.superstructure_hits or card.hull_end_hits or card.hull_centre_hits
    return "damaged" if marked or card.knots_lost else "intact"


def verdict(state: TgdState, reason: str) -> Result:
    """The scenario's points for enemy ships sunk (or surrendered) and crippled, by size; the
    winner needs a lead of the scenario's margin of the larger score, else a draw."""
    sc = scenarios.scenario_of(state.scenario)
    v = sc.victory
    points = dict.fromkeys(state.sides, 0.0)
    for name, log in state.logs.items():
        fate = ship_fate(log, state.cards[name])
        size = log.cls.size
        gained = 0.0
        if fate == "sunk" or (fate == "surrendered" and v.surrender_counts_as_sunk):
            gained = v.sunk_per_size * size
        elif fate in ("crippled", "surrendered"):
            gained = v.crippled_per_size * size
        for side in state.sides:
            if side != log.side:
                points[side] += gained
    a, b = state.sides
    hi = max(points.values())
    lead = abs(points[a] - points[b])
    winner = None
    if hi > 0 and lead > 0 and lead >= v.margin * hi:
        winner = a if points[a] > points[b] else b
    return Result(winner, points, reason)


def end_turn(state: TgdState, events: EventLog) -> Result | None:
    """bf1900's end of turn (its hand-overs cleared, the early end when a side has nothing left
    in battle) with the TGD verdict, and a new fire phase for every card (AMB-66)."""
    new_fire_phase(state)
    ended = bf6.end_turn(state, events)
    return None if ended is None else verdict(state, ended.reason)


class Ruleset(bf6.Ruleset):
    """The tgd ruleset as the engine sees it: bf1900's set-up, command and movement with TGD
    cards, alternating fire steps, its own view and victory by the cards."""

    name = NAME
    version = VERSION
    aliases = ALIASES
    phases = PHASES  # type: ignore[assignment]

    def scenario_names(self) -> list[str]:
        """The TGD built-ins (``data/scenarios``) and bf1900 built-ins naming tgd."""
        return scenarios.scenario_names()

    def check_scenario(self, scenario: str) -> str:
        """The bf1900 schema, then what TGD cannot play is refused (:mod:`.scenarios`)."""
        return scenarios.check_scenario(scenario)

    def new_state(self, scenario: str, seed: int) -> TgdState:
        """bf1900's set-up with TGD cards."""
        return new_state(scenario, seed)

    def view(self, game: Game[Any, Any], side: str, since: int = 0) -> TgdSideView:
        """The side's view with its own cards and what shows of the enemy's (:mod:`.view`)."""
        return tgd_view(game, side, since)

    def secrets(self, state: TgdState, side: str) -> set[str]:
        """Strings that must never reach ``side`` (the enemy cards' box states)."""
        return secrets(state, side)

    def end_turn(self, state: Any, events: EventLog) -> Result | None:
        """End-of-turn bookkeeping and the early-end check."""
        return end_turn(state, events)

    def verdict(self, state: Any, reason: str) -> Result:
        """The result by the cards and the scenario's victory points."""
        return verdict(state, reason)

    def fates(self, state: Any) -> tuple[ShipFate, ...]:
        """Each ship's fate by its TGD card, with speed, batteries, S/F and H left."""
        out = []
        for name, log in state.logs.items():
            card: CardLog = state.cards[name]
            c = card.card
            ends = c.hull_ends - min(card.hull_end_hits, c.hull_ends)
            centre = c.hull_centre - min(card.hull_centre_hits, c.hull_centre)
            out.append(
                ShipFate(
                    name,
                    log.side,
                    log.cls.name,
                    log.cls.size,
                    ship_fate(log, card),
                    log.in_battle,
                    (
                        ("speed", f"{card.speed} kn"),
                        (
                            "batteries",
                            f"{len(c.batteries()) - len(card.lost)}/{len(c.batteries())}",
                        ),
                        ("S/F", card.superstructure_left() or "-"),
                        ("H", f"{ends}/{centre}"),
                    ),
                )
            )
        return tuple(out)

    def picture(self, state: Any, path: str) -> str | None:
        """bf1900's picture of the tracks."""
        return bf6.Ruleset.picture(self, state, path)


#: Where :func:`battleline.rulesets.ruleset_part` finds the parts this ruleset borrows (bf1900's
#: web table, order forms and ship log, for the game it is played on).
PARTS_FROM = "battleline.rulesets.bf1900"
RULESET = Ruleset()
