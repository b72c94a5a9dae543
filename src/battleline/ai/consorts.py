"""Standing by a consort: a squadron that turns back to cover a ship fallen behind.

A side whose scenario sets ``[[sides]] stand_by_until_turn`` does not break off, or turn away,
without a big ship of its own that has fallen behind, until that turn: each battle division
steers back towards her while it is farther off than :data:`STAND_BY_M`, and near her fights
as if it had not broken off. At Ulsan, Jessen turned back more than once to cover Rurik, her
steering wrecked, and kept Rossia and Gromoboi under Kamimura's guns for some three hours before
he gave her up (``docs/ai.md``). Torpedo craft are never stood by, and never stand by.
"""

from __future__ import annotations

from collections.abc import Sequence

from battleline.ai.picture import Picture, is_flotilla

#: A division this near the consort it covers fights beside her; farther off it steers for her.
STAND_BY_M = 3000.0
#: A consort farther than this from the division is beyond help.
STAND_BY_REACH_M = 20000.0


def consort_to_cover(picture: Picture, alive: Sequence[str]) -> str | None:
    """The own big ship outside the division ``alive`` that it stands by now: the nearest one
    still in the battle within :data:`STAND_BY_REACH_M`, while the turn is not past the side's
    ``stand_by_until_turn``; ``None`` otherwise, or for a flotilla."""
    until = picture.view.stand_by_until_turn
    if until is None or picture.turn > until or not alive:
        return None
    if any(is_flotilla(picture.own[s].type) for s in alive):
        return None
    here = picture.poses[alive[0]]
    best: tuple[float, str] | None = None
    for name, ship in picture.own.items():
        if name in alive or is_flotilla(ship.type) or not ship.log.in_battle:
            continue
        gap = here.distance_to(picture.poses[name])
        if gap <= STAND_BY_REACH_M and (best is None or gap < best[0]):
            best = (gap, name)
    return None if best is None else best[1]


def stands_off(picture: Picture, alive: Sequence[str], consort: str) -> bool:
    """Whether the division is farther from ``consort`` than :data:`STAND_BY_M`."""
    return picture.poses[alive[0]].distance_to(picture.poses[consort]) > STAND_BY_M


__all__ = ["STAND_BY_M", "STAND_BY_REACH_M", "consort_to_cover", "stands_off"]
