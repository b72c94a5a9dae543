"""What a simulator counts from a bf1900 battle's events (the ``tally`` part, see
:mod:`battleline.engine.tally`); the 1D12 edition borrows it.

Damage by cause, one count per:

* gunfire: a shell that struck a location (Damage Step Two's ``DAMAGE`` naming the location), or
  in the 1D12 edition a round rolled on the Shell Hits chart (its ``DAMAGE`` naming the portion);
* torpedo: a torpedo whose hit is resolved in Damage Step Two (its ``TORPEDO_HIT`` names the
  size it floods with; the Torpedo Phase's own ``TORPEDO_HIT`` is not counted again);
* flooding: a flood hit whose Occurrence roll gave a level (the ``FLOODING`` naming the column
  and a level above none), whatever caused it; the compartment's new level and the effects roll
  that follow it are not counted again;
* fire: a fire started (``FIRE`` naming internal or external);
* explosion: an ``EXPLOSION``.

Shots (hits per round fired, issue 12 item 5): every salvo's rounds by calibre are in the
umpire's note on its marker (BF6-MEAS-02..04; hit zone or splash alike); a hit is a round of a
hit zone that the hit-location roll puts on the ship (vitals or upperworks, BF6-HIT-01; a dud
still hit), from Damage Step Two's ``HIT`` event, or in the 1D12 edition every round rolled on
the Shell Hits chart. Each is counted under its calibre class and its bore (``"15.2 cm"``).
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind
from battleline.engine.tally import Shots

#: The event kinds read here (a lean Monte Carlo log keeps them).
KINDS: frozenset[EventKind] = frozenset(
    {
        EventKind.DAMAGE,
        EventKind.TORPEDO_HIT,
        EventKind.FLOODING,
        EventKind.FIRE,
        EventKind.EXPLOSION,
        EventKind.HIT,
        EventKind.NOTE,
    }
)

#: Calibre classes, heaviest first: (name, smallest calibre in cm). 10 in is 25.4 cm; the
#: 15 cm Krupp guns of the Chinese ships count with the 6 in (15.2 cm) as medium.
CALIBRE_CLASSES: tuple[tuple[str, float], ...] = (("heavy", 25.0), ("medium", 15.0), ("light", 0.0))


def calibre_class(calibre_cm: float) -> str:
    """``heavy`` (10 in and over), ``medium`` (15 cm / 6 in to 9.4 in) or ``light``."""
    for name, least in CALIBRE_CLASSES:
        if calibre_cm >= least:
            return name
    return CALIBRE_CLASSES[-1][0]


def bore(calibre_cm: float) -> str:
    """The bore label the simulator counts a gun under: ``"15.2 cm"``."""
    return f"{calibre_cm:g} cm"


def damage_cause(event: Event) -> str | None:
    """The damage cause ``event`` counts one of (see the module docstring), or ``None``."""
    kind = event.kind
    data = event.data
    if kind is EventKind.DAMAGE:
        return "gunfire" if "location" in data or "portion" in data else None
    if kind is EventKind.TORPEDO_HIT:
        return "torpedo" if "size" in data else None
    if kind is EventKind.FLOODING:
        return "flooding" if data.get("level") and "column" in data else None
    if kind is EventKind.FIRE:
        return "fire" if "internal" in data else None
    if kind is EventKind.EXPLOSION:
        return "explosion"
    return None


def shots(event: Event) -> Iterator[Shots]:
    """The rounds fired (a marker's umpire note) or hits made (a ``HIT``) ``event`` records."""
    kind = event.kind
    data = event.data
    if kind is EventKind.NOTE:
        fired = data.get("rounds_by_calibre")
        if fired and data.get("measured"):
            for calibre, n in fired.items():
                cm = float(calibre)
                yield Shots(
                    data["firer"],
                    calibre_class(cm),
                    fired=n,
                    target=data.get("target"),
                    bore=bore(cm),
                )
    elif kind is EventKind.HIT:
        if "calibre_cm" in data:
            cm = data["calibre_cm"]
            firer, hits = data["firer"], data["hits"]
            yield Shots(firer, calibre_class(cm), hits=hits, target=event.ship, bore=bore(cm))
    elif kind is EventKind.DAMAGE and "portion" in data and "calibre_cm" in data:
        cm = data["calibre_cm"]
        yield Shots(data["firer"], calibre_class(cm), hits=1, target=event.ship, bore=bore(cm))


__all__ = ["CALIBRE_CLASSES", "KINDS", "bore", "calibre_class", "damage_cause", "shots"]
