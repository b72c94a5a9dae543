"""TGD hit location, armour and damage by location (TGD-LOC, TGD-PEN, TGD-ARM, TGD-DMG, TGD-REFD).

:func:`resolve_hits` takes the hits one fire action scored: it rolls a location per hit and sorts
the dice (TGD-LOC-01/02), modifies the gun's strength by range (TGD-PEN-01), calls each hit "hit"
or "ping" against the location's armour (TGD-ARM-01/02), and applies the damage of every "hit"
with :func:`apply_location`, passing hits on emptied locations along (referred hits, TGD-REFD).

Audience: the firing player rolls the locations and reads them off, and the owner answers "hit"
or "ping" (TGD-LOC-02, TGD-ARM-02), so those events are shown to the firer's side as well as the
owner's. What the owner then writes on his card (batteries, letters, boxes, knots, the save roll)
is his alone; what shows across the table is public: "burning furiously" (which the attacker is
told, TGD-REFD-03), a ship stopped, a ship sunk.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.tgd.arcs import target_frame
from battleline.rulesets.tgd.card import LOCATION_NAMES, battery_station
from battleline.rulesets.tgd.cardlog import BatteryRef, CardLog
from battleline.rulesets.tgd.charts import Charts

_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)
_WORDS += ("eleven", "twelve")


@dataclass(frozen=True, slots=True)
class HitResult:
    """One hit's fate: the location rolled, "hit" or "ping", and what it did."""

    location: int
    penetrated: bool
    effect: str
    referred: tuple[int, ...] = ()

    @property
    def call(self) -> str:
        """What the owner says (TGD-ARM-02)."""
        return "hit" if self.penetrated else "ping"


def shown_to_firer(events: EventLog, attacker: str) -> AbstractContextManager[None]:
    """Show the events emitted in the block to the attacker's side too (nothing to add when the
    log knows no owners, as in a tabletop session)."""
    side = events.owners.get(attacker) if attacker else None
    return events.shown_to(side) if side else nullcontext()


def number_word(n: int) -> str:
    """``4`` → ``"four"`` (digits past twelve)."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def announce(locations: list[int], strength: int) -> str:
    """The hit-location call, e.g. "four strength three hits in locations 2, 5, 5 and 6"
    (TGD-LOC-02, EX-TGD-10)."""
    n = len(locations)
    where = ", ".join(str(x) for x in locations[:-1])
    where = f"{where} and {locations[-1]}" if where else str(locations[-1])
    noun = "hit" if n == 1 else "hits"
    place = "location" if n == 1 else "locations"
    return f"{number_word(n)} strength {number_word(strength)} {noun} in {place} {where}"


def roll_locations(dice: Dice, hits: int, *, ship: str) -> list[int]:
    """One d6 per hit, sorted low to high (TGD-LOC-01/02)."""
    return sorted(dice.d6("hit location", ship=ship) for _ in range(hits))


def modified_strength(strength: int, rng: float, charts: Charts) -> int:
    """The gun's strength after the penetration column (TGD-PEN-01, AMB-57, EX-DRV-08)."""
    return strength + charts.penetration_modifier(rng)


def penetrates(strength: int, armour: int) -> bool:
    """Penetrates only if the modified strength exceeds the armour (TGD-ARM-01, EX-DRV-09,
    EX-TGD-11)."""
    return strength > armour


def nearest_battery(log: CardLog, location: int, aspect: float | None) -> BatteryRef | None:
    """The undamaged battery of a gun location nearest the incoming shell (TGD-DMG-02, AMB-61).

    ``aspect`` is the firer's bearing from the target's bow; nearest means furthest along the
    line towards the firer. Ties (and an unknown aspect) go to the battery listed first on the
    card, standing for the defender's choice.
    """
    live = log.live_batteries(location)
    if not live:
        return None
    if aspect is None:
        return live[0][0]
    toward = target_frame(1.0, aspect)

    def reach(item: tuple[BatteryRef, object]) -> float:
        ref = item[0]
        battery = log.card.columns[ref[0] - 1][ref[1]]
        ahead, side = battery_station(battery.arc)
        return round(ahead * toward[0] + side * toward[1], 9)

    best = max(reach(item) for item in live)
    return next(ref for ref, b in live if reach((ref, b)) == best)


class _Damage:
    """Applies hits to one card, narrating as it goes."""

    def __init__(
        self,
        log: CardLog,
        *,
        charts: Charts,
        dice: Dice,
        events: EventLog,
        attacker: str,
        aspect: float | None,
    ) -> None:
        self.log, self.charts, self.dice, self.events = log, charts, dice, events
        self.attacker, self.aspect = attacker, aspect
        self.ship = log.name

    def note(self, kind: EventKind, text: str, **data: Any) -> None:
        self.events.emit(kind, f"{self.ship}: {text}", ship=self.ship, **data)

    def lose_knots(self, knots: int, why: str, before: int | None = None) -> None:
        before = self.log.speed if before is None else before
        self.log.knots_lost += knots
        self.note(
            EventKind.DAMAGE,
            f"{why}: speed {before} → {self.log.speed} knots",
            knots=knots,
            speed=self.log.speed,
        )

    def apply(self, location: int, trail: tuple[int, ...] = ()) -> tuple[str, tuple[int, ...]]:
        """Damage one location; returns the effect and the locations it was referred to."""
        log = self.log
        if log.sunk:
            return "no effect (already sunk)", trail
        if location in (1, 2, 3):
            if log.location_empty(location):
                return self.refer(location, 4, trail)  # TGD-REFD-01, TGD-REFD-02
            ref = nearest_battery(log, location, self.aspect)
            assert ref is not None
            battery = log.card.columns[ref[0] - 1][ref[1]]
            log.lost.add(ref)  # the whole battery: TGD-DMG-02, TGD-DMG-03, TGD-DMG-04, EX-TGD-12
            effect = f"battery {battery} destroyed"
            self.note(EventKind.DAMAGE, f"location {location} {effect}", battery=str(battery))
            return effect, trail
        if location == 4:
            left = log.superstructure_left()
            if not left:
                for nxt in (3, 2, 1):  # TGD-REFD-03
                    if not log.location_empty(nxt):
                        return self.refer(4, nxt, trail)
                log.burning = True
                effect = "burning furiously"  # EX-TGD-15
                self.events.emit(
                    EventKind.FIRE,
                    f"{self.ship}: everything topside is gone: burning furiously",
                    ship=self.ship,
                    public=True,  # the attacker is told (TGD-REFD-03), and it shows
                )
                return effect, trail
            letter = left[0]
            log.superstructure_hits += 1
            if letter == "F":  # TGD-DMG-05, EX-TGD-13
                self.note(EventKind.DAMAGE, "funnel holed (F crossed off)")
                self.lose_knots(self.charts.funnel_knots, "funnel hit")
                return f"F crossed off, -{self.charts.funnel_knots} knots", trail
            self.note(EventKind.DAMAGE, "superstructure S crossed off (no immediate effect)")
            return "S crossed off", trail
        if location == 5:
            return self.hull_end(), trail
        if location == 6:
            return self.hull_centre(), trail
        raise ValueError(f"hit location must be 1..6, not {location}")

    def refer(
        self, source: int, target: int, trail: tuple[int, ...]
    ) -> tuple[str, tuple[int, ...]]:
        """Pass a hit on an emptied location along; no armour check (TGD-REFD-04, AMB-62)."""
        self.note(
            EventKind.DAMAGE,
            f"location {source} ({LOCATION_NAMES[source]}) is empty: hit referred to "
            f"location {target} ({LOCATION_NAMES[target]}), no armour",
        )
        return self.apply(target, (*trail, target))

    def hull_end(self) -> str:
        """Location 5 (TGD-DMG-06)."""
        log = self.log
        if log.hull_end_hits >= log.card.hull_ends:
            self.note(EventKind.DAMAGE, "bow/stern hull has no H left: no effect")
            return "no effect (every H gone)"
        before = log.speed
        log.hull_end_hits += 1
        self.note(EventKind.FLOODING, "bow/stern hull H crossed off")
        self.lose_knots(self.charts.hull_end_knots, "bow/stern flooding", before)
        if log.hull_end_hits == log.card.hull_ends:
            self.note(EventKind.FLOODING, "flooding critical: the ship can no longer move")
            return f"H crossed off, -{self.charts.hull_end_knots} knots, immobile"
        return f"H crossed off, -{self.charts.hull_end_knots} knots"

    def hull_centre(self) -> str:
        """Location 6 (TGD-DMG-07, TGD-DMG-08; the save of EX-TGD-14)."""
        log = self.log
        if log.hull_centre_hits < log.card.hull_centre:
            before = log.speed
            log.hull_centre_hits += 1
            self.note(EventKind.FLOODING, "centre hull H crossed off")
            knots = self.dice.d6("knots lost, centre hull", ship=self.ship)
            self.lose_knots(knots, "centre hull hit", before)
            if log.hull_centre_hits == log.card.hull_centre:
                self.note(EventKind.FLOODING, "every centre H gone: the ship is immobile")
                return f"H crossed off, -{knots} knots, immobile"
            return f"H crossed off, -{knots} knots"
        need = self.charts.save_number(log.card.ship_type)
        roll = self.dice.d6("save vs sinking", ship=self.ship)
        modifier = self.charts.topside_wrecked if log.topside_wrecked else 0
        score = roll + modifier
        wrecked = f" {modifier:+d} topside wrecked" if modifier else ""
        if score >= need:
            self.note(
                EventKind.SINKING,
                f"save vs sinking {roll}{wrecked} = {score}, needs {need}+: saved",
                roll=roll,
                need=need,
            )
            return "saved from sinking"
        log.sunk = True
        self.note(
            EventKind.SINKING,
            f"save vs sinking {roll}{wrecked} = {score}, needs {need}+: fails",
            roll=roll,
            need=need,
        )
        self.events.emit(EventKind.SUNK, f"{self.ship} sinks", ship=self.ship, public=True)
        return "sunk"


def apply_location(
    log: CardLog,
    location: int,
    *,
    charts: Charts,
    dice: Dice,
    events: EventLog,
    attacker: str = "",
    aspect: float | None = None,
) -> tuple[str, tuple[int, ...]]:
    """Apply one penetrating hit on a location (TGD-DMG-01..08, TGD-REFD-01..04).

    Returns the effect and the chain of locations the hit was referred to.
    """
    damage = _Damage(log, charts=charts, dice=dice, events=events, attacker=attacker, aspect=aspect)
    return damage.apply(location)


def resolve_hits(
    log: CardLog,
    hits: int,
    *,
    strength: int,
    rng: float,
    charts: Charts,
    dice: Dice,
    events: EventLog,
    attacker: str = "",
    aspect: float | None = None,
) -> list[HitResult]:
    """Roll locations for ``hits`` hits of one strength at one range and apply them."""
    if hits <= 0:
        return []
    ship = log.name
    with shown_to_firer(events, attacker):  # the firer rolls and reads them off (TGD-LOC-02)
        locations = roll_locations(dice, hits, ship=ship)
        events.emit(
            EventKind.HIT,
            f"{ship}: {announce(locations, strength)}",
            ship=ship,
            locations=locations,
            strength=strength,
        )
    modified = modified_strength(strength, rng, charts)
    damage = _Damage(log, charts=charts, dice=dice, events=events, attacker=attacker, aspect=aspect)
    moving = not (log.immobile or log.speed == 0)
    results: list[HitResult] = []
    for location in locations:
        armour = log.card.armour[location - 1]  # an emptied location keeps it (TGD-ARM-03)
        call = "hit" if penetrates(modified, armour) else "ping"
        with shown_to_firer(events, attacker):  # the owner tells the firer (TGD-ARM-02)
            events.emit(
                EventKind.HIT,
                f"{ship}: location {location}: strength {modified} against armour {armour}: {call}",
                ship=ship,
                location=location,
                call=call,
            )
        if call == "ping":
            results.append(HitResult(location, False, "no damage"))
            continue
        effect, trail = damage.apply(location)
        results.append(HitResult(location, True, effect, trail))
    if moving and (log.immobile or log.speed == 0) and not log.sunk and attacker:
        log.stopped_by = attacker  # TGD-HIT-07
        events.emit(
            EventKind.NOTE,
            f"{ship} is now stationary; {attacker} fires on as if it were still moving this "
            "phase, every other ship gets +1 (TGD-HIT-07)",
            ship=ship,
            public=True,  # a ship that stops shows
        )
    return results
