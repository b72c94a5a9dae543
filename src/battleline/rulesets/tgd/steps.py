"""The TGD fire phase as alternating fire steps: one battery group a ship, results seen at once.

The draft lets the firing player fire one battery, see what it did, and only then choose where
to fire next (TGD-FIRE-01/02). In the engine that is a run of **fire steps** in the phase table,
``fire-1`` to ``fire-12``. The sides take the steps in turn: the odd steps belong to the side that
opens this turn's fire, the even steps to the other, and the opening side alternates from turn to
turn. In its step a side writes at most one line per ship,

    <ship>: <strength> [arc letters ...] -> <target>       e.g.  Mikasa: 6 -> Retvisan

one fire action: guns of one strength, all that bear or the batteries named, at one target. The
step resolves at once — to-hit dice, hits, locations, hit or ping, damage, a sinking — and the
other side orders its step knowing it. Six steps a side is enough for every gun strength a card
can carry (1 to 6); each battery fires once a turn. A side with nothing that can fire in its step
is passed over without being asked, and the other side is never asked in a step not its own.

Range, the target's bearing and the firer's aspect are measured from the poses; range is in TGD
units of ``metres_per_unit`` (``data/derive.toml``, reconstructed). A ship that did not move last
turn is stationary (TGD-HIT-06). Knots lost on the card cap the ship's propulsion, and a ship the
card sinks is sunk on its bf1900 log, so movement and victory see the damage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.tgd.card import ARC_CODES
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import Charts, load_charts
from battleline.rulesets.tgd.derive import derive_rules
from battleline.rulesets.tgd.fire import FireOrder, fire, select_batteries
from battleline.rulesets.tgd.state import TgdState

#: Fire steps a side gets each turn (one gun strength a ship a step; strengths run 1..6).
ROUNDS = 6
#: The fire steps of a turn, in order: ``fire-1`` .. ``fire-12``.
STEPS: tuple[str, ...] = tuple(f"fire-{k}" for k in range(1, 2 * ROUNDS + 1))

_LINE = re.compile(
    r"^\s*(?P<ship>[^:]+?)\s*:\s*(?P<strength>[0-9]+)(?P<arcs>[^>]*?)->\s*(?P<target>.+?)\s*$"
)


@dataclass(frozen=True, slots=True)
class FireLine:
    """One fire action as written: firer, strength, arcs named (none: all that bear), target."""

    firer: str
    strength: int
    arcs: tuple[str, ...]
    target: str

    def __str__(self) -> str:
        arcs = "".join(f" {a}" for a in self.arcs)
        return f"{self.firer}: {self.strength}{arcs} -> {self.target}"


def parse_fire_line(text: str) -> FireLine:
    """``"Pelayo: 5 fp fs -> Iowa"`` → :class:`FireLine` (TGD-FIRE-01)."""
    m = _LINE.match(text)
    if not m and re.search(r"\bTT\b", text):
        raise OrderSyntaxError(
            f"cannot read {text!r}: the TGD rules have no torpedoes; a fire step takes gun fire "
            "only, '<ship>: <strength> [arcs] -> <target>' (TGD-FIRE-01, REF-TGD-06)"
        )
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


@cache
def charts() -> Charts:
    """The packaged TGD charts."""
    return load_charts()


# -- whose step ------------------------------------------------------------------------------


def opening_side(state: TgdState) -> str:
    """The side that opens this turn's fire: the first side on odd turns, the second on even."""
    return state.sides[(state.turn - 1) % len(state.sides)]


def step_side(state: TgdState, step: int) -> str:
    """The side that fires in step ``step`` (1-based) of this turn."""
    first = (state.turn - 1) % len(state.sides)
    return state.sides[(first + step - 1) % len(state.sides)]


# -- geometry and the cards ------------------------------------------------------------------


def geometry(state: TgdState, firer: str, target: str) -> tuple[float, float, float]:
    """Range in TGD units, the target's bearing from the firer's bow, the firer's from the
    target's bow."""
    a, b = state.poses[firer], state.poses[target]
    rng = a.distance_to(b) / derive_rules().metres_per_unit
    return rng, a.bearing_to(b.x, b.y), b.bearing_to(a.x, a.y)


def fire_order(state: TgdState, line: FireLine) -> FireOrder:
    """The :class:`FireOrder` of a line, measured on the table now."""
    rng, bearing, aspect = geometry(state, line.firer, line.target)
    halted = state.moved_last_m.get(line.target, 1.0) <= 0.0
    return FireOrder(line.strength, round(rng, 6), bearing, aspect, line.arcs, halted)


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


def can_fire_at(state: TgdState, firer: str, target: str) -> bool:
    """Whether any ready battery of ``firer`` bears on ``target`` within range."""
    card = state.cards[firer]
    for strength in card.card.strengths():
        line = FireLine(firer, strength, (), target)
        try:
            select_batteries(card, fire_order(state, line), target=target)
        except IllegalOrderError:
            continue
        return True
    return False


def able_to_fire(state: TgdState, side: str) -> bool:
    """Whether any ship of ``side`` has a ready battery bearing on an enemy in range."""
    enemies = [n for n, log in state.logs.items() if log.side != side and log.in_battle]
    return any(
        can_fire_at(state, name, enemy)
        for name, log in state.logs.items()
        if log.side == side and log.in_battle and not state.cards[name].sunk
        for enemy in enemies
    )


# -- one step: parse, resolve, ask -----------------------------------------------------------


def parse_step(state: TgdState, side: str, texts: Sequence[str], step: int) -> list[FireLine]:
    """Read and check a side's lines for fire step ``step`` against the cards as they stand."""
    where = f"turn {state.turn} fire-{step}"
    owner = step_side(state, step)
    if side != owner:
        if texts:
            raise IllegalOrderError(
                f"{where}: this fire step is {owner}'s; {side} fires in the "
                f"{'odd' if side == opening_side(state) else 'even'} steps this turn "
                "(the sides fire in turn, TGD-FIRE-02)"
            )
        return []
    out: list[FireLine] = []
    for text in texts:
        line = parse_fire_line(text)
        firer, target = state.logs.get(line.firer), state.logs.get(line.target)
        if firer is None or firer.side != side:
            raise IllegalOrderError(f"{where}: {side} has no ship named {line.firer!r}")
        if target is None or target.side == side:
            raise IllegalOrderError(f"{where}: {line.target!r} is not an enemy ship")
        if not firer.in_battle or not target.in_battle:
            who = line.firer if not firer.in_battle else line.target
            raise IllegalOrderError(f"{where}: {who} is out of the battle (TGD-DMG-08)")
        if any(o.firer == line.firer for o in out):
            raise IllegalOrderError(
                f"{where}: {line.firer} already fires in this step; a ship fires guns of one "
                "strength a step, then sees the result (TGD-FIRE-01/02)"
            )
        try:
            select_batteries(state.cards[line.firer], fire_order(state, line), target=line.target)
        except IllegalOrderError as exc:
            raise IllegalOrderError(f"{where}: {exc}") from None
        out.append(line)
    return out


def resolve_step(
    state: TgdState, orders: Mapping[str, Sequence[FireLine]], dice: Dice, events: EventLog
) -> None:
    """The step's fire actions in the order written (TGD-FIRE, TGD-HIT, TGD-DMG, TGD-REFD)."""
    for side in state.sides:
        for line in orders.get(side, ()):
            firer, target = state.cards[line.firer], state.cards[line.target]
            if firer.sunk or target.sunk:
                who = line.firer if firer.sunk else line.target
                events.emit(
                    EventKind.NOTE, f"{line.firer} does not fire: {who} has sunk", ship=line.firer
                )
                continue
            try:
                fire(
                    firer,
                    target,
                    fire_order(state, line),
                    charts=charts(),
                    dice=dice,
                    events=events,
                )
            except IllegalOrderError as exc:
                events.emit(EventKind.NOTE, f"{line.firer} cannot fire: {exc}", ship=line.firer)
                continue
            sync_log(state.logs[line.target], target)


def step_parser(step: int) -> Callable[[TgdState, str, Sequence[str]], list[FireLine]]:
    """The order parser of fire step ``step``."""

    def parse(state: TgdState, side: str, texts: Sequence[str]) -> list[FireLine]:
        return parse_step(state, side, texts, step)

    return parse


def step_needs_orders(step: int) -> Callable[[TgdState, str], bool]:
    """Whether ``side`` has anything to order in fire step ``step``."""

    def needs(state: TgdState, side: str) -> bool:
        return side == step_side(state, step) and able_to_fire(state, side)

    return needs


def new_fire_phase(state: TgdState) -> None:
    """Every battery may fire again and no ship was stopped by anyone (AMB-66)."""
    for card in state.cards.values():
        card.new_fire_phase()
