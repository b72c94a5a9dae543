"""A ship card's damage state: batteries destroyed, S/F and H boxes crossed off, knots lost.

:class:`CardLog` is mutable, like the bf1900 ``ShipLog``: the damage rules (:mod:`.damage`) cross
boxes off it one hit at a time. It also remembers, for the current fire phase, which batteries
have fired and which ship's fire brought it to a stop (TGD-HIT-07, AMB-66).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from battleline.rulesets.tgd.card import Battery, ShipCard


def card_title(name: str) -> str:
    """The heading of a ship's card page on the web (``web_shiplog``); a secret of the other
    side (``view.card_secrets``), so a leaked card page is caught by its title."""
    return f"Ship card of {name}"


#: A battery's place on the card: (location 1..3, index in its column).
BatteryRef = tuple[int, int]


@dataclass
class CardLog:
    """What has happened to one ship card."""

    card: ShipCard
    label: str = ""
    lost: set[BatteryRef] = field(default_factory=set)
    superstructure_hits: int = 0
    hull_end_hits: int = 0
    hull_centre_hits: int = 0
    knots_lost: int = 0
    sunk: bool = False
    burning: bool = False
    fired: set[BatteryRef] = field(default_factory=set)
    stopped_by: str | None = None

    @property
    def name(self) -> str:
        """The ship's name on the table (its card's name unless it was given another)."""
        return self.label or self.card.name

    @property
    def immobile(self) -> bool:
        """Every H of location 5 or of location 6 is gone (TGD-DMG-06/07, AMB-63)."""
        return (
            self.hull_end_hits >= self.card.hull_ends
            or self.hull_centre_hits >= self.card.hull_centre
        )

    @property
    def speed(self) -> int:
        """Current maximum speed in knots, never below 0 (AMB-63); 0 when immobile."""
        return 0 if self.immobile else max(0, self.card.speed - self.knots_lost)

    def battery_lost(self, ref: BatteryRef) -> bool:
        """Whether a battery has been destroyed."""
        return ref in self.lost

    def live_batteries(self, location: int | None = None) -> list[tuple[BatteryRef, Battery]]:
        """The undamaged batteries (of one location 1..3, or all)."""
        return [
            ((loc, i), b)
            for loc, i, b in self.card.batteries()
            if (location is None or loc == location) and (loc, i) not in self.lost
        ]

    def superstructure_left(self) -> str:
        """The S/F letters not yet crossed off, leftmost first."""
        return self.card.superstructure[self.superstructure_hits :]

    def location_empty(self, location: int) -> bool:
        """Whether everything in location 1..4 is destroyed; a column the card never had counts
        as destroyed (AMB-64)."""
        if location in (1, 2, 3):
            return not self.live_batteries(location)
        if location == 4:
            return not self.superstructure_left()
        raise ValueError(f"location {location} has no column of guns or superstructure")

    @property
    def topside_wrecked(self) -> bool:
        """Everything in locations 1-4 destroyed (TGD-DMG-08, AMB-64)."""
        return all(self.location_empty(loc) for loc in (1, 2, 3, 4))

    def new_fire_phase(self) -> None:
        """Forget which batteries fired and who stopped the ship (AMB-66)."""
        self.fired.clear()
        self.stopped_by = None

    def copy(self) -> CardLog:
        """An independent copy (the card itself is frozen and shared)."""
        return CardLog(
            self.card,
            self.label,
            set(self.lost),
            self.superstructure_hits,
            self.hull_end_hits,
            self.hull_centre_hits,
            self.knots_lost,
            self.sunk,
            self.burning,
            set(self.fired),
            self.stopped_by,
        )

    def __plain__(self) -> dict[str, Any]:
        """The state-hash form: the card by title, then the damage marks."""
        return {"card": self.card.title, **self.to_dict()}

    def summary(self) -> str:
        """One line: speed, guns lost, boxes left, state."""
        state = "sunk" if self.sunk else ("immobile" if self.immobile else "afloat")
        if self.burning and not self.sunk:
            state += ", burning furiously"
        ends = self.card.hull_ends - min(self.hull_end_hits, self.card.hull_ends)
        centre = self.card.hull_centre - min(self.hull_centre_hits, self.card.hull_centre)
        renamed = self.label and self.label != self.card.name
        who = f"{self.label} ({self.card.title})" if renamed else self.card.title
        return (
            f"{who}: {self.speed} kn, batteries lost {len(self.lost)}, "
            f"superstructure {self.superstructure_left() or '-'}, H {ends}/{centre}, {state}"
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (the card itself is saved by name)."""
        return {
            "label": self.label,
            "lost": sorted([loc, i] for loc, i in self.lost),
            "superstructure_hits": self.superstructure_hits,
            "hull_end_hits": self.hull_end_hits,
            "hull_centre_hits": self.hull_centre_hits,
            "knots_lost": self.knots_lost,
            "sunk": self.sunk,
            "burning": self.burning,
            "fired": sorted([loc, i] for loc, i in self.fired),
            "stopped_by": self.stopped_by,
        }

    @classmethod
    def from_dict(cls, card: ShipCard, data: Mapping[str, Any]) -> CardLog:
        """The inverse of :meth:`to_dict`; raises ``KeyError``/``ValueError`` on bad data."""
        refs = {(loc, i) for loc, i, _ in card.batteries()}

        def battery_set(key: str) -> set[BatteryRef]:
            out = {(int(p[0]), int(p[1])) for p in data[key]}
            if out - refs:
                raise ValueError(f"{key}: no such battery on {card.name}: {sorted(out - refs)}")
            return out

        stopped = data.get("stopped_by")
        return cls(
            card=card,
            label=str(data.get("label", "")),
            lost=battery_set("lost"),
            superstructure_hits=int(data["superstructure_hits"]),
            hull_end_hits=int(data["hull_end_hits"]),
            hull_centre_hits=int(data["hull_centre_hits"]),
            knots_lost=int(data["knots_lost"]),
            sunk=bool(data["sunk"]),
            burning=bool(data["burning"]),
            fired=battery_set("fired"),
            stopped_by=None if stopped is None else str(stopped),
        )
