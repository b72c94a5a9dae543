"""How a 1D12 log counts in the after-action report (:mod:`battleline.aar`).

Salvos, rounds and torpedoes are logged as in bf1900; a round that strikes is not a HIT event
but one roll on the Shell Hits chart, a DAMAGE event naming its firer and the chart portion
(BF12C-SHL-01), so each such event is one hit.
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind
from battleline.rulesets.bf1900 import aar as bf1900_aar

ROUNDS_ARE = bf1900_aar.ROUNDS_ARE
LACKS: dict[str, str] = {}


def gunnery(e: Event) -> Iterator[tuple[str, str, int]]:
    """(ship, figure, amount) for one event."""
    if e.kind is EventKind.DAMAGE and "firer" in e.data and "portion" in e.data:
        yield str(e.data["firer"]), "hits_given", 1
        yield e.ship or "", "hits_taken", 1
    elif e.kind is not EventKind.HIT:
        yield from bf1900_aar.gunnery(e)
