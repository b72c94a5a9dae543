"""What a simulator counts from a TGD battle's events (the ``tally`` part, see
:mod:`battleline.engine.tally`).

Damage by cause, one count per:

* gunfire: a hit location whose strength beat the armour (the owner's ``HIT`` calling "hit",
  TGD-ARM-02; a "ping" does no damage and is not counted);
* flooding: a hull box crossed off (every ``FLOODING`` event);
* fire: a ship set burning furiously (a ``FIRE`` event, EX-TGD-15).

Shots: a salvo's guns are its rounds (``SALVO``, TGD-FIRE-01), its hits the public ``HIT`` that
follows it on the firer; the card's batteries are not told apart by calibre (one class, "all").
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind
from battleline.engine.tally import ALL_GUNS, Shots

#: The event kinds read here (a lean Monte Carlo log keeps them).
KINDS: frozenset[EventKind] = frozenset(
    {EventKind.SALVO, EventKind.HIT, EventKind.FLOODING, EventKind.FIRE}
)


def damage_cause(event: Event) -> str | None:
    """The damage cause ``event`` counts one of (see the module docstring), or ``None``."""
    kind = event.kind
    if kind is EventKind.HIT:
        return "gunfire" if event.data.get("call") == "hit" else None
    if kind is EventKind.FLOODING:
        return "flooding"
    if kind is EventKind.FIRE:
        return "fire"
    return None


def shots(event: Event) -> Iterator[Shots]:
    """The guns a ``SALVO`` fires, or the hits its public ``HIT`` announces."""
    data = event.data
    if event.ship is None or "target" not in data:
        return
    if event.kind is EventKind.SALVO:
        yield Shots(event.ship, ALL_GUNS, fired=data["guns"], target=data["target"])
    elif event.kind is EventKind.HIT and "hits" in data:
        yield Shots(event.ship, ALL_GUNS, hits=data["hits"], target=data["target"])


__all__ = ["KINDS", "damage_cause", "shots"]
