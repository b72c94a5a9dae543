"""The TGD table as one side sees it: bf1900's table with the arcs of the side's own cards.

TGD plays on bf1900's table (set-up, Command and Movement Phases), so everything but the arcs of
fire is :func:`battleline.rulesets.bf1900.web_table.table`. A TGD battery fires through the arc
its letters name (TGD-ARC-01..07): the fore, aft and corner arcs from the ship's centre, the side
arcs from any point along that side, the en echelon ps/sp guns also over a rectangle out from the
far side (AMB-65), to strength × 10 range units (TGD-RNG-01). Such a region is not a wedge, so
each battery comes as an ``outline``: for every few degrees of relative bearing, how far out the
battery bears, found from :func:`battleline.rulesets.tgd.arcs.bears` itself (each ray from the
centre leaves the region once, so the farthest point on it is found by bisection).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from battleline.rulesets.bf1900 import web_table as bf1900_table
from battleline.rulesets.tgd.arcs import bears, target_frame
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.derive import derive_rules
from battleline.rulesets.tgd.view import TgdSideView

if TYPE_CHECKING:
    from battleline.engine.flow import Game
    from battleline.rulesets.tgd.state import TgdState

#: Degrees between the rays of an outline.
STEP_DEG = 5.0
#: Bisection steps along a ray (the reach is found to a 2⁻¹² part of the battery's range).
STEPS = 12


def reach(arc: str, theta: float, length: float, max_range: float) -> float:
    """How far out, in range units, a battery on ``arc`` bears along relative bearing ``theta``
    (0 where it does not bear at all)."""

    def holds(r: float) -> bool:
        return bears(arc, *target_frame(r, theta), length=length, max_range=max_range)

    if holds(max_range):
        return max_range
    near = min(max_range, max(length, 1e-3) * 1e-3)
    if not holds(near):
        return 0.0
    lo, hi = near, max_range
    for _ in range(STEPS):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if holds(mid) else (lo, mid)
    return lo


@lru_cache(maxsize=1024)
def outline(
    arc: str, length: float, max_range: float, metres_per_unit: float
) -> tuple[tuple[float, float], ...]:
    """(relative bearing, reach in metres) every :data:`STEP_DEG` degrees; cached, as it depends
    on nothing but these four values."""
    steps = round(360.0 / STEP_DEG)
    return tuple(
        (k * STEP_DEG, round(reach(arc, k * STEP_DEG, length, max_range) * metres_per_unit, 1))
        for k in range(steps)
    )


def card_arcs(log: CardLog, metres_per_unit: float) -> list[dict[str, Any]]:
    """Each battery of an own card, with the outline of the region it bears on."""
    card = log.card
    live = {ref for ref, _ in log.live_batteries()}
    out = []
    for loc, i, battery in card.batteries():
        rng = float(battery.max_range)
        shape = [list(p) for p in outline(battery.arc, card.length, rng, metres_per_unit)]
        ready = battery.guns if (loc, i) in live and (loc, i) not in log.fired else 0
        out.append(
            {
                "mounting": f"{loc}.{i + 1} {battery.arc}",
                "label": f"{battery.arc} {battery.strength}x{battery.guns}",
                "gun_class": ("primary", "secondary", "tertiary")[loc - 1],
                "guns": battery.guns,
                "rule": "TGD-ARC-01",
                "groups": [{"outline": shape, "guns": battery.guns, "ready": ready}],
                "max_range_m": round(rng * metres_per_unit, 1),
            }
        )
    return out


def table(game: Game[TgdState, TgdSideView], side: str) -> dict[str, Any]:
    """bf1900's table of ``side`` with the arcs of fire of its own TGD cards."""
    body = bf1900_table.table(game, side)  # type: ignore[arg-type]
    seen = game.view(side, since=len(game.events.events))
    cards = {c.name: c.log for c in getattr(seen, "cards", ())}
    mpu = derive_rules().metres_per_unit
    for ship in body["own"]:
        log = cards.get(ship["name"])
        if log is not None:
            ship["arcs"] = card_arcs(log, mpu)
    body["arcs_drawn"] = True
    return body


__all__ = ["card_arcs", "reach", "table"]
