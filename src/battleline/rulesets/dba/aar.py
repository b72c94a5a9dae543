"""How a DBA log counts in the after-action report (:mod:`battleline.aar`).

DBA settles each attack with one opposed roll: the attack is logged with the shooter as its ship
and the outcome, as a HIT when it had an effect and a NOTE when not; the ship it struck logs the
DAMAGE (or SUNK) with the cause "gunfire from <shooter>". So the report counts attacks where the
other rulesets count rounds, and gives hits per attack.
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind

ROUNDS_ARE = "attacks made"
LACKS: dict[str, str] = {
    "zones": "DBA has no fall of shot: an attack is one opposed roll",
    "rounds": "DBA fires no rounds; the report counts attacks made instead",
}
#: What a figure means here where it differs from the other rulesets.
NOTES: dict[str, str] = {
    "hits_taken": "the results applied to her: DBA combines the attacks on one ship in a phase "
    "into one result, so hits taken can be fewer than the hits the enemy gave",
}
GUNFIRE = "gunfire from "


def gunnery(e: Event) -> Iterator[tuple[str, str, int]]:
    """(ship, figure, amount) for one event."""
    d = e.data
    ship = e.ship or ""
    if e.kind in (EventKind.HIT, EventKind.NOTE) and "outcome" in d:
        yield ship, "salvos", 1
        yield ship, "rounds", 1
        if e.kind is EventKind.HIT:
            yield ship, "hits_given", 1
    elif e.kind in (EventKind.DAMAGE, EventKind.SUNK) and str(d.get("cause", "")).startswith(
        GUNFIRE
    ):
        yield ship, "hits_taken", 1
    elif e.kind in (EventKind.DAMAGE, EventKind.SUNK) and d.get("cause") == "torpedo attack":
        yield ship, "torpedo_hits_taken", 1
    elif e.kind in (EventKind.TORPEDO_HIT, EventKind.TORPEDO_MISS) and "outcome" in d:
        yield ship, "torpedoes_fired", 1
        if e.kind is EventKind.TORPEDO_HIT:
            yield ship, "torpedo_hits_given", 1
