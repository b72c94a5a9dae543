"""How a bf1900 log counts in the after-action report (:mod:`battleline.aar`).

A salvo is a splash or hit-zone marker with the rounds it fired (BF6-GUN rules); each HIT event
carries the firer and how many of its rounds struck; torpedoes are launches and strikes.
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind

#: What the accuracy divides by.
ROUNDS_ARE = "rounds fired"
#: Figures these rules do not have (none: bf1900 has them all).
LACKS: dict[str, str] = {}


def gunnery(e: Event) -> Iterator[tuple[str, str, int]]:
    """(ship, figure, amount) for one event (the figures of :data:`battleline.aar.FIGURES`)."""
    d = e.data
    ship = e.ship or ""
    if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
        firer = str(d.get("firer", ship))
        yield firer, "salvos", 1
        yield firer, "rounds", int(d.get("rounds", 0) or 0)
        if e.kind is EventKind.HIT_ZONE:
            yield firer, "zones", 1
    elif e.kind is EventKind.HIT:
        hits = int(d.get("hits", 0) or 0)
        yield str(d.get("firer", "?")), "hits_given", hits
        yield ship, "hits_taken", hits
    elif e.kind is EventKind.TORPEDO_LAUNCH:
        yield ship, "torpedoes_fired", int(d.get("count", 1) or 1)
    elif e.kind is EventKind.TORPEDO_HIT:
        yield str(d.get("firer", "?")), "torpedo_hits_given", 1
        yield ship, "torpedo_hits_taken", 1
