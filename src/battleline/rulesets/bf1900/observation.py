"""What a side sees of the enemy: each contact where she appears to be.

:func:`contacts_for` gives a side its contacts: every enemy ship afloat, with her identity, her
pose and what shows from outside (fires, sinking, struck). For now the pose is the true one; the
digital-play observation model (issue 11, §4) replaces it with an observed pose.
"""

from __future__ import annotations

from dataclasses import dataclass

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.state import Bf1900State


@dataclass(frozen=True, slots=True)
class Contact:
    """An enemy ship as seen: identity, pose, and what shows from outside."""

    name: str
    cls: str
    type: str
    size: int
    pose: Pose
    fires: bool
    sinking: bool
    surrendered: bool


def contacts_for(state: Bf1900State, side: str) -> tuple[Contact, ...]:
    """The enemy ships ``side`` sees, in scenario order."""
    out: list[Contact] = []
    for name, log in state.logs.items():
        if log.side == side or log.sunk:
            continue
        out.append(
            Contact(
                name,
                log.cls.name,
                log.cls.type.value,
                log.cls.size,
                state.poses[name],
                log.fires > 0,
                log.sinking is not None,
                log.surrendered,
            )
        )
    return tuple(out)
