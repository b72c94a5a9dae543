"""What a simulator counts from a DBA battle's events (the ``tally`` part, see
:mod:`battleline.engine.tally`).

Every result applied to a ship is one ``DAMAGE`` (or ``SUNK``) event naming its ``cause``
(DBA-OUT-02..05): gunfire from a ship, a torpedo attack, a ram, or flooding (the damage-control
roll that fails). That cause is counted once per result; the public line that follows a crippling
or sinking names no cause and is not counted again, nor is a torpedo boat sharing its mother
ship's fate (DBA-TBL-06). DBA fights by opposed rolls, not rounds: it records no shots.
"""

from __future__ import annotations

from collections.abc import Iterator

from battleline.engine.events import Event, EventKind
from battleline.engine.tally import Shots

#: The event kinds read here (a lean Monte Carlo log keeps them).
KINDS: frozenset[EventKind] = frozenset({EventKind.DAMAGE, EventKind.SUNK})


def damage_cause(event: Event) -> str | None:
    """The damage cause ``event`` counts one of (see the module docstring), or ``None``."""
    if event.kind not in KINDS:
        return None
    cause = event.data.get("cause")
    if not isinstance(cause, str):
        return None
    if cause.startswith("gunfire"):
        return "gunfire"
    if cause.startswith("torpedo"):
        return "torpedo"
    if cause == "ram":
        return "ramming"
    if cause == "flooding":
        return "flooding"
    return None


def shots(event: Event) -> Iterator[Shots]:
    """None: DBA has no rounds to count."""
    return iter(())


__all__ = ["KINDS", "damage_cause", "shots"]
