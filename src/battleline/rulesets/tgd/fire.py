"""One TGD fire action: one ship, one gun strength, one target (TGD-FIRE, TGD-RNG, TGD-HIT).

The firer picks a strength and fires one, several or all of its undamaged batteries of that
strength (TGD-FIRE-01, AMB-68) at one target, which must be in the arc of every battery fired
(TGD-FIRE-03) and within strength × 10, boundary included (TGD-RNG-01, AMB-58). Targets are
chosen one action at a time (TGD-FIRE-02); each battery fires once per fire phase (our reading).
Each gun rolls a d6 against the chart number for the range (TGD-HIT-01/03), "6 then N" entries
re-roll the sixes (TGD-HIT-04), and the +1 modifiers for nationality, rake and a stationary
target (TGD-HIT-02/05/06/07) add to the last roll only; a natural 1 always misses (AMB-60).

Who sees what (a game's events are private to the ship's side unless marked): the fire action
and its to-hit dice are the firer's; the number of hits is public (the fall of shot shows); the
location dice, the location call and "hit"/"ping" are shared by both players (TGD-LOC-02,
TGD-ARM-02); the damage written on the card is the target owner's (:mod:`.damage`).
"""

from __future__ import annotations

from dataclasses import dataclass

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.tgd.arcs import bears, raked, target_frame
from battleline.rulesets.tgd.card import Battery
from battleline.rulesets.tgd.cardlog import BatteryRef, CardLog
from battleline.rulesets.tgd.charts import Charts, HitNumber
from battleline.rulesets.tgd.damage import HitResult, resolve_hits


@dataclass(frozen=True, slots=True)
class FireOrder:
    """What the firing player declares for one action.

    ``bearing`` is the target's relative bearing from the firer's bow (arcs); ``aspect`` the
    firer's relative bearing from the target's bow (rake, nearest battery). ``arcs`` names the
    batteries by their arc letters; empty means every battery of the strength that bears.
    ``target_halted`` says the target has not moved (TGD-HIT-06).
    """

    strength: int
    rng: float
    bearing: float
    aspect: float
    arcs: tuple[str, ...] = ()
    target_halted: bool = False


@dataclass(frozen=True, slots=True)
class ToHit:
    """The chart entry for the range, the modifiers that apply, and the number to roll."""

    base: HitNumber
    modifiers: tuple[tuple[str, int], ...]
    final: HitNumber

    @property
    def total(self) -> int:
        """Sum of the modifiers."""
        return sum(v for _, v in self.modifiers)


@dataclass(frozen=True, slots=True)
class FireResult:
    """What one fire action did."""

    firer: str
    target: str
    batteries: tuple[str, ...]
    guns: int
    to_hit: ToHit
    hits: int
    results: tuple[HitResult, ...]


def modified_hit_number(base: HitNumber, modifier: int) -> HitNumber:
    """Apply to-hit modifiers to the last roll only (AMB-60); a natural 1 always misses, so the
    number never drops below 2 (and a 7 cannot be rolled)."""
    return HitNumber(min(7, max(2, base.need - modifier)), base.first)


def to_hit(charts: Charts, rng: float, *, nation: str, rake: bool, stationary: bool) -> ToHit:
    """The number each gun needs at a range (TGD-HIT-01..06)."""
    base = charts.hit_number(rng)
    mods: list[tuple[str, int]] = []
    national = charts.nation_modifier(nation)
    if national:
        mods.append((f"{nation} gunnery", national))  # TGD-HIT-02
    if rake:
        mods.append(("rake", 1))  # TGD-HIT-05
    if stationary:
        mods.append(("stationary target", 1))  # TGD-HIT-06
    total = sum(v for _, v in mods)
    return ToHit(base, tuple(mods), modified_hit_number(base, total))


def roll_to_hit(dice: Dice, guns: int, number: HitNumber, *, ship: str) -> int:
    """Roll one d6 per gun and count the hits (TGD-HIT-01); for "6 then N" keep the sixes and
    roll them again (TGD-HIT-04, EX-TGD-09)."""
    if number.first is not None:
        first = [dice.d6("to hit, first roll (6 needed)", ship=ship) for _ in range(guns)]
        guns = sum(1 for v in first if v == 6)
    rolls = [dice.d6(f"to hit ({number.need}+)", ship=ship) for _ in range(guns)]
    return sum(1 for v in rolls if v != 1 and v >= number.need)


def _num(value: float) -> str:
    """A measured value for messages: at most two decimals."""
    return f"{round(value, 2):g}"


def _refuse(firer: str, text: str, rule: str) -> IllegalOrderError:
    return IllegalOrderError(f"{firer}: {text} ({rule})")


def select_batteries(
    firer: CardLog, order: FireOrder, *, target: str = "the target"
) -> list[tuple[BatteryRef, Battery]]:
    """The batteries that fire: all of one strength that bear, or the ones named, each of which
    must bear (TGD-FIRE-01/03, TGD-RNG-01, AMB-58, AMB-68)."""
    name, card = firer.name, firer.card
    if order.strength not in card.strengths():
        raise _refuse(
            name,
            f"has no strength-{order.strength} guns (it has {card.strengths()})",
            "TGD-FIRE-01",
        )
    if order.rng <= 0:
        raise _refuse(name, f"range must be more than 0, not {_num(order.rng)}", "TGD-RNG-01")
    max_range = order.strength * 10  # TGD-RNG-01, EX-TGD-07, EX-TGD-08
    if order.rng > max_range:
        raise _refuse(
            name,
            # The range itself is not told: in a game it is the umpire's measure, which the side
            # may not learn (range is judged by eye).
            f"{target} is beyond strength {order.strength}'s maximum range {max_range}",
            "TGD-RNG-01",
        )
    ahead, starboard = target_frame(order.rng, order.bearing)
    same = [(ref, b) for ref, b in firer.live_batteries() if b.strength == order.strength]
    ready = [(ref, b) for ref, b in same if ref not in firer.fired]

    def bearing_on(b: Battery) -> bool:
        return bears(b.arc, ahead, starboard, length=card.length, max_range=b.max_range)

    if not order.arcs:
        chosen = [(ref, b) for ref, b in ready if bearing_on(b)]
        if not chosen and same and not ready:
            raise _refuse(
                name,
                f"every strength-{order.strength} battery has fired this phase; "
                "each battery fires once per fire phase",
                "TGD-FIRE-01",
            )
        if not chosen:
            raise _refuse(
                name,
                f"no strength-{order.strength} battery bears on {target} at bearing "
                f"{_num(order.bearing)}°",
                "TGD-FIRE-03",
            )
        return chosen
    chosen = []
    for arc in dict.fromkeys(order.arcs):
        matching = [(ref, b) for ref, b in ready if b.arc == arc]
        if not matching:
            raise _refuse(
                name,
                f"no undamaged strength-{order.strength} battery on arc {arc!r} ready to fire "
                "(destroyed, already fired this phase, or not on the card)",
                "TGD-FIRE-01",
            )
        for ref, b in matching:
            if not bearing_on(b):
                raise _refuse(
                    name,
                    f"battery {b} does not bear on {target} at bearing {_num(order.bearing)}°; "
                    "the target must be in the arc of every gun fired",
                    "TGD-FIRE-03",
                )
            chosen.append((ref, b))
    return chosen


def fire(
    firer: CardLog,
    target: CardLog,
    order: FireOrder,
    *,
    charts: Charts,
    dice: Dice,
    events: EventLog,
) -> FireResult:
    """Resolve one fire action and apply its damage to ``target``."""
    if firer.sunk:
        raise _refuse(firer.name, "has sunk and cannot fire", "TGD-DMG-08")
    if target.sunk:
        raise _refuse(firer.name, f"{target.name} has sunk and cannot be a target", "TGD-DMG-08")
    if firer is target or firer.name == target.name:
        raise _refuse(firer.name, "cannot fire at itself", "TGD-FIRE-01")
    chosen = select_batteries(firer, order, target=target.name)
    guns = sum(b.guns for _, b in chosen)
    stopped = target.immobile or target.speed == 0 or order.target_halted
    # TGD-HIT-07, AMB-66: the ship that stopped it fires on as if it were still moving.
    stationary = stopped and target.stopped_by != firer.name
    rake = raked(order.aspect)
    hit = to_hit(charts, order.rng, nation=firer.card.nation, rake=rake, stationary=stationary)
    labels = ", ".join(str(b) for _, b in chosen)
    mods = "".join(f", {n} {v:+d}" for n, v in hit.modifiers)
    events.emit(
        EventKind.SALVO,
        f"{firer.name} fires {labels} ({guns} gun{'s' if guns != 1 else ''}) at {target.name}, "
        f"range {_num(order.rng)}: chart {hit.base}{mods} → {hit.final}",
        ship=firer.name,
        target=target.name,
        guns=guns,
        need=str(hit.final),
    )
    firer.fired.update(ref for ref, _ in chosen)
    hits = roll_to_hit(dice, guns, hit.final, ship=firer.name)
    # The fall of shot shows across the table: how many hits, not the dice or the modifiers.
    events.emit(
        EventKind.HIT if hits else EventKind.NOTE,
        f"{firer.name}: {hits} hit{'s' if hits != 1 else ''} on {target.name}"
        if hits
        else f"{firer.name}: no hits on {target.name}",
        ship=firer.name,
        public=True,
        target=target.name,
        hits=hits,
        strength=order.strength,
    )
    results = resolve_hits(
        target,
        hits,
        strength=order.strength,
        rng=order.rng,
        charts=charts,
        dice=dice,
        events=events,
        attacker=firer.name,
        aspect=order.aspect,
    )
    return FireResult(
        firer.name,
        target.name,
        tuple(str(b) for _, b in chosen),
        guns,
        hit,
        hits,
        tuple(results),
    )
