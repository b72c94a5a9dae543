"""How the fight stands, as an admiral reads it from his picture: how much of his side is lost,
whether it is beaten or outgunned, whether it breaks off for its objective, and which of his
ships are lame or can still fight (the judgements behind the turn-away, break-off, drop-out,
strike and scuttle decisions of ``docs/ai.md``; every threshold reconstructed).
"""

from __future__ import annotations

from collections.abc import Sequence

from battleline.ai.picture import Picture, fire_balance, per_picture
from battleline.engine.geometry import Pose, bearing, norm360
from battleline.rulesets.bf1900.ruleset import crippled
from battleline.rulesets.bf1900.scenario import OBJECTIVE_EDGES
from battleline.rulesets.bf1900.shiplog import ShipLog

#: A side has lost when this share of its tonnage (by size) is lost or crippled (reconstructed).
BEATEN_SHARE = 0.5
#: A division dead in the water strikes when an enemy big ship is within this many brackets.
SURRENDER_BRACKETS = 1.5


@per_picture
def loss_share(picture: Picture) -> float:
    """Share of own size lost (sunk, sinking, struck: 1) or crippled (½)."""
    total = lost = 0.0
    for ship in picture.view.own:
        size = float(ship.size)
        total += size
        log = ship.log
        if not log.in_battle:
            lost += size
        elif crippled(log):
            lost += size / 2.0
    return lost / total if total else 0.0


def is_beaten(picture: Picture) -> bool:
    """Most of the side sunk or crippled: time to break off the action."""
    return loss_share(picture) >= BEATEN_SHARE


#: A side without an objective turns away when the enemy's visible weight of fire is at least
#: this many times its own (reconstructed).
OUTGUNNED_RATIO = 2.0
#: A side with an objective breaks off for it at this ratio already (reconstructed): its aim is
#: to get through, not to win the fight.
BREAK_RATIO = 1.25
#: ... or once this share of its size is lost or crippled (reconstructed; the Yellow Sea turned
#: on one hit on the flagship).
BREAK_SHARE = 0.1


def outgunned(picture: Picture, ratio: float = OUTGUNNED_RATIO) -> bool:
    """Whether the enemy in sight outweighs the side's fire by ``ratio`` or more
    (:func:`~battleline.ai.picture.fire_balance`)."""
    return bool(picture.targets()) and fire_balance(picture) >= ratio


def objective_heading(picture: Picture, here: Pose) -> float | None:
    """The heading that makes for the side's objective (``SideView.objective``: a table edge
    or a port), ``None`` when the scenario names none."""
    goal = picture.view.objective
    if not goal:
        return None
    if goal.get("kind") == "edge":
        return OBJECTIVE_EDGES[str(goal["edge"])]
    return norm360(bearing(here.x, here.y, float(goal["x"]), float(goal["y"])))


def flag_struck(picture: Picture) -> bool:
    """Whether the fleet flagship is out of the battle, crippled, or hit on the bridge or the
    conning tower: the admiral and his staff may be dead (Vitgeft at the Yellow Sea)."""
    for info in picture.view.divisions.values():
        if info["fleet_flagship"]:
            own = picture.own.get(info["flagship"])
            if own is None:
                return True
            log = own.log
            return not log.in_battle or crippled(log) or log.bridge_hits > 0 or log.ct_hits > 0
    return False


def breaks_off(picture: Picture) -> bool:
    """Whether a side with an objective breaks off for it now: outgunned by
    :data:`BREAK_RATIO`, :data:`BREAK_SHARE` of its size lost or crippled, or its fleet
    flagship struck (:func:`flag_struck`)."""
    if not picture.view.objective:
        return False
    return (
        loss_share(picture) >= BREAK_SHARE
        or outgunned(picture, BREAK_RATIO)
        or flag_struck(picture)
    )


#: Below this share of her class's top speed a ship can neither keep her place in the line nor
#: get away (reconstructed).
SLOW_SHARE = 0.6


def slowed(log: ShipLog) -> bool:
    """Down to under :data:`SLOW_SHARE` of the class's top speed, or stopped."""
    return log.speed_knots < SLOW_SHARE * log.cls.max_knots


def lame(log: ShipLog) -> bool:
    """Crippled, or :func:`slowed`."""
    return crippled(log) or slowed(log)


def can_fight(log: ShipLog) -> bool:
    """Whether a ship has any gun in action or any torpedo left to fire."""
    if any(log.guns_in_action(m.key) > 0 for m in log.cls.mountings):
        return True
    return any(n > 0 for n in log.torpedoes_left.values())


def strikes(picture: Picture, alive: Sequence[str], big: Sequence[str], beaten: bool) -> bool:
    """Whether a division strikes its colours (BF6-CMD-32): only when every ship of it can
    neither fight nor get away, an enemy big ship is close by, and the side is losing.

    A ship can fight while any gun or loaded torpedo mount is left to her (:func:`can_fight`);
    she can get away while she makes way at all. The side is losing when it is ``beaten``: a
    winning side never strikes.
    """
    if not big or not beaten:
        return False
    reach = SURRENDER_BRACKETS * picture.scale.bracket_m
    if not any(picture.seen_m(s, e) <= reach for s in alive for e in big):
        return False
    return all(
        picture.own[s].log.speed_knots <= 0 and not can_fight(picture.own[s].log) for s in alive
    )


__all__ = [
    "BEATEN_SHARE",
    "BREAK_RATIO",
    "BREAK_SHARE",
    "OUTGUNNED_RATIO",
    "SLOW_SHARE",
    "SURRENDER_BRACKETS",
    "breaks_off",
    "can_fight",
    "flag_struck",
    "is_beaten",
    "lame",
    "loss_share",
    "objective_heading",
    "outgunned",
    "slowed",
    "strikes",
]
