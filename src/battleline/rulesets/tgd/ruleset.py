"""The TGD hit and damage rules as a ruleset, "tgd", on the Battlefleet 1900 scenarios.

The TGD draft gives hits and damage only (REF-TGD-06), so this ruleset borrows the rest from
bf1900: set-up, the Command and Movement Phases and the victory points are bf1900's unchanged.
Its own phase is **fire**: each side writes one line per fire action,

    <ship>: <strength> [arc letters ...] -> <target>       e.g.  Mikasa: 6 -> Retvisan

and the actions resolve alternately, one from each side in turn (the side that starts alternates
by turn), each against the TGD card of its target (:mod:`.fire`, :mod:`.damage`). Range, the
target's bearing and the firer's aspect are measured from the poses; range is in TGD units of
``metres_per_unit`` (``data/derive.toml``, reconstructed). A ship that did not move last turn is
stationary (TGD-HIT-06). Knots lost on the card cap the ship's propulsion, and a ship the card
sinks is sunk on its bf1900 log, so movement and victory see the damage.

The cards' damage lives in ``state.extra["tgd"]`` as plain JSON; a ship's card is the packaged
one named like it or its class, or one derived from its ship values (:mod:`.derive`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.engine.ruleset import PhaseSpec
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900 import ruleset as bf6
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.tgd.card import ARC_CODES
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import Charts, load_charts
from battleline.rulesets.tgd.derive import card_for_ship, derive_rules
from battleline.rulesets.tgd.fire import FireOrder, fire, select_batteries

NAME = "tgd"
VERSION = "0.1"
ALIASES: tuple[str, ...] = ()
_EXTRA = "tgd"
_LINE = re.compile(
    r"^\s*(?P<ship>[^:]+?)\s*:\s*(?P<strength>[0-9]+)(?P<arcs>[^>]*?)->\s*(?P<target>.+?)\s*$"
)

Orders = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class FireLine:
    """One fire action as written: firer, strength, arcs named (none: all that bear), target."""

    firer: str
    strength: int
    arcs: tuple[str, ...]
    target: str


def parse_fire_line(text: str) -> FireLine:
    """``"Pelayo: 5 fp fs -> Iowa"`` → :class:`FireLine` (TGD-FIRE-01)."""
    m = _LINE.match(text)
    if not m:
        raise OrderSyntaxError(
            f"cannot read {text!r}: write '<ship>: <strength> [arcs] -> <target>', "
            "e.g. 'Mikasa: 6 -> Retvisan' or 'Pelayo: 5 fp -> Iowa' (TGD-FIRE-01)"
        )
    arcs = tuple(a.lower() for a in m.group("arcs").replace(",", " ").split())
    bad = [a for a in arcs if a not in ARC_CODES]
    if bad:
        raise OrderSyntaxError(
            f"{text!r}: unknown arc {bad[0]!r}; use one of {', '.join(ARC_CODES)} (TGD-ARC-02..07)"
        )
    return FireLine(m.group("ship").strip(), int(m.group("strength")), arcs, m.group("target"))


# -- the cards in the state ------------------------------------------------------------------


def cards_of(state: Bf1900State) -> dict[str, CardLog]:
    """Every ship's TGD card log, rebuilt from ``state.extra``."""
    stored = state.extra.get(_EXTRA, {})
    return {
        name: CardLog.from_dict(card_for_ship(name, log.cls), stored[name])
        if name in stored
        else CardLog(card_for_ship(name, log.cls), label=name)
        for name, log in state.logs.items()
    }


def _store(state: Bf1900State, cards: Mapping[str, CardLog]) -> None:
    state.extra[_EXTRA] = {name: card.to_dict() for name, card in cards.items()}


def sync_log(log: ShipLog, card: CardLog) -> None:
    """Carry a card's damage to the bf1900 log: propulsion capped at the card's knots, sunk."""
    if card.sunk and not log.sunk:
        log.sunk = True
        log.lost_reason = log.lost_reason or "sank"
    p = log.propulsion
    allowed = log.cls.max_knots * card.speed / card.card.speed if card.card.speed else 0.0
    cap = len(p.speeds)
    if card.speed > 0:
        cap = next((i for i, k in enumerate(p.speeds) if k <= allowed + 1e-9), len(p.speeds))
    p.destroyed = max(p.destroyed, min(len(p.speeds), cap) - p.damaged)


def new_state(scenario: str, seed: int) -> Bf1900State:
    """bf1900's set-up, with a fresh TGD card for every ship."""
    state = bf6.new_state(scenario, seed)
    state.ruleset = f"{NAME}@{VERSION}"
    _store(state, {n: CardLog(card_for_ship(n, log.cls), label=n) for n, log in state.logs.items()})
    return state


def geometry(state: Bf1900State, firer: str, target: str) -> tuple[float, float, float]:
    """Range in TGD units, the target's bearing from the firer's bow, the firer's from the
    target's bow."""
    a, b = state.poses[firer], state.poses[target]
    rng = a.distance_to(b) / derive_rules().metres_per_unit
    return rng, a.bearing_to(b.x, b.y), b.bearing_to(a.x, a.y)


def _order(state: Bf1900State, line: FireLine) -> FireOrder:
    rng, bearing, aspect = geometry(state, line.firer, line.target)
    halted = state.moved_last_m.get(line.target, 1.0) <= 0.0
    return FireOrder(line.strength, round(rng, 6), bearing, aspect, line.arcs, halted)


# -- the fire phase --------------------------------------------------------------------------


def parse_fire(state: Bf1900State, side: str, texts: Sequence[str]) -> list[FireLine]:
    """Read and check a side's fire actions against the cards as they stand now."""
    cards = cards_of(state)
    for card in cards.values():
        card.new_fire_phase()  # this turn's fire phase: every battery may fire again
    out: list[FireLine] = []
    for text in texts:
        line = parse_fire_line(text)
        where = f"turn {state.turn} fire"
        firer, target = state.logs.get(line.firer), state.logs.get(line.target)
        if firer is None or firer.side != side:
            raise IllegalOrderError(f"{where}: {side} has no ship named {line.firer!r}")
        if target is None or target.side == side:
            raise IllegalOrderError(f"{where}: {line.target!r} is not an enemy ship")
        if not firer.in_battle or not target.in_battle:
            who = line.firer if not firer.in_battle else line.target
            raise IllegalOrderError(f"{where}: {who} is out of the battle (TGD-DMG-08)")
        try:
            chosen = select_batteries(cards[line.firer], _order(state, line), target=line.target)
        except IllegalOrderError as exc:
            raise IllegalOrderError(f"{where}: {exc}") from None
        cards[line.firer].fired.update(ref for ref, _ in chosen)
        out.append(line)
    return out


def _alternate(state: Bf1900State, orders: Orders) -> list[FireLine]:
    """Actions one from each side in turn; the first side alternates by turn."""
    first = (state.turn - 1) % len(state.sides)
    sides = state.sides[first:] + state.sides[:first]
    queues = [list(orders[s]) for s in sides]
    out: list[FireLine] = []
    while any(queues):
        for queue in queues:
            if queue:
                out.append(queue.pop(0))
    return out


def charts() -> Charts:
    """The packaged TGD charts."""
    return load_charts()


def resolve_fire(state: Bf1900State, orders: Orders, dice: SeededDice, events: EventLog) -> None:
    """Every fire action, alternating sides (TGD-FIRE-01..03, TGD-HIT, TGD-DMG, TGD-REFD)."""
    cards = cards_of(state)
    for card in cards.values():
        card.new_fire_phase()  # a new fire phase each turn (AMB-66)
    for line in _alternate(state, orders):
        firer, target = cards[line.firer], cards[line.target]
        if firer.sunk or target.sunk:
            who = line.firer if firer.sunk else line.target
            events.emit(EventKind.NOTE, f"{line.firer} does not fire: {who} has sunk")
            continue
        try:
            fire(firer, target, _order(state, line), charts=charts(), dice=dice, events=events)
        except IllegalOrderError as exc:
            events.emit(EventKind.NOTE, f"{line.firer} cannot fire: {exc}", ship=line.firer)
            continue
        sync_log(state.logs[line.target], target)
    _store(state, cards)


def _can_fire(state: Bf1900State, side: str) -> bool:
    cards = cards_of(state)
    return any(
        log.in_battle and cards[name].live_batteries()
        for name, log in state.logs.items()
        if log.side == side
    )


PHASES: tuple[PhaseSpec[Bf1900State, Any], ...] = (
    PhaseSpec(
        "command",
        "divisional and fleet orders",
        bf6.resolve_command,
        bf6.parse_command,
        rules="BF6-CMD-01..32",
    ),
    PhaseSpec("movement", None, bf6.resolve_movement, rules="BF6-MOV-01..07"),
    PhaseSpec(
        "fire",
        "fire actions",
        resolve_fire,
        parse_fire,
        needs_orders=_can_fire,
        rules="TGD-FIRE-01..03, TGD-HIT-01..07, TGD-DMG-01..08, TGD-REFD-01..04",
    ),
)


class Ruleset(bf6.Ruleset):
    """The tgd ruleset as the engine sees it: bf1900's set-up, command, movement, view and
    victory points, with its own fire phase and TGD cards."""

    name = NAME
    version = VERSION
    aliases = ALIASES
    phases = PHASES

    def new_state(self, scenario: str, seed: int) -> Bf1900State:
        """bf1900's set-up with TGD cards."""
        return new_state(scenario, seed)


RULESET = Ruleset()
