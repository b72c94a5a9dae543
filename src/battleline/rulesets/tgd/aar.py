"""How a TGD log counts in the after-action report (:mod:`battleline.aar`).

Each SALVO event is one ship's fire at one target with the guns it fired (a die per gun); its
HIT event names the firer as the ship and the target, with the hits scored. There are no hit-zone
markers in TGD, so the report gives hits per gun fired.
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind

ROUNDS_ARE = "guns fired"
LACKS: dict[str, str] = {
    "zones": "TGD rolls to hit gun by gun; it has no hit-zone markers",
}


def gunnery(e: Event) -> Iterator[tuple[str, str, int]]:
    """(ship, figure, amount) for one event."""
    d = e.data
    ship = e.ship or ""
    if e.kind is EventKind.SALVO:
        yield ship, "salvos", 1
        yield ship, "rounds", int(d.get("guns", 0) or 0)
    elif e.kind is EventKind.HIT and "target" in d:
        hits = int(d.get("hits", 0) or 0)
        yield ship, "hits_given", hits
        yield str(d["target"]), "hits_taken", hits
    elif e.kind is EventKind.TORPEDO_LAUNCH:
        yield ship, "torpedoes_fired", int(d.get("count", 1) or 1)
    elif e.kind is EventKind.TORPEDO_HIT and "firer" in d:
        yield str(d["firer"]), "torpedo_hits_given", 1
        yield ship, "torpedo_hits_taken", 1
