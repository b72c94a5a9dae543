"""Dropping out of line (BF6-CMD-16/17): which ship may leave her division, and the one-ship
division she then steams as, which must turn out of the line in its next move.
"""

from __future__ import annotations

from collections.abc import Mapping

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.divisions import (
    Division,
    Formation,
)
from battleline.rulesets.bf1900.planning import (
    illegal_order,
)
from battleline.rulesets.bf1900.shiplog import ShipLog

# -- dropping out --------------------------------------------------------------------------


def drop_out_eligible(division: Division, ship: str, logs: Mapping[str, ShipLog]) -> bool:
    """At least one more propulsion-box hit than the ship directly astern (BF6-CMD-16, AMB-07).

    Hits are destroyed + damaged + margin marks. The last ship of a line, with nobody astern, is
    eligible once it has one hit (AMB-07's suggested ruling).
    """
    hits = logs[ship].propulsion.hits
    astern = division.astern_of(ship)
    return hits >= (logs[astern].propulsion.hits if astern else 0) + 1


def drop_out(
    division: Division, ship: str, logs: Mapping[str, ShipLog], events: EventLog
) -> tuple[Division, Division]:
    """``ship`` leaves its division as a one-ship division (BF6-CMD-16/17).

    Returns (the division without it, the new one-ship division). The new division must turn out
    of the line in its next move (``must_turn_out``); the ships astern close the gap by station
    keeping (:func:`plan_division_move`). The flagship cannot drop out; transfer command first.
    """
    name = division.name
    if ship not in division.ships:
        raise illegal_order(name, "BF6-CMD-16", f"{ship!r} is not a ship of this division")
    if len(division.ships) == 1:
        raise illegal_order(name, "BF6-CMD-16", f"{ship} is already alone")
    if ship == division.flagship:
        raise illegal_order(
            name, "BF6-CMD-17", f"{ship} is the flagship; transfer command before dropping out"
        )
    if not drop_out_eligible(division, ship, logs):
        astern = division.astern_of(ship)
        mine = logs[ship].propulsion.hits
        theirs = logs[astern].propulsion.hits if astern else 0
        who = f"{astern} astern has {theirs}" if astern else "it needs at least 1"
        raise illegal_order(
            name,
            "BF6-CMD-16",
            f"{ship} has {mine} propulsion hit(s) and {who}; dropping out needs one more than "
            "the ship astern",
        )
    rest = division.without(ship)
    alone = Division(
        name=f"{name}/{ship}",
        side=division.side,
        ships=(ship,),
        flagship=ship,
        formation=Formation.LINE_AHEAD,
        interval_m=division.interval_m,
        must_turn_out=True,
    )
    events.emit(
        EventKind.COMMAND,
        f"{ship} drops out of {name} and steams as division {alone.name} (BF6-CMD-17)",
        ship=ship,
        division=name,
        new_division=alone.name,
    )
    return rest, alone
