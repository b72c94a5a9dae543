"""What gunnery and torpedo fire hand to Damage Step Two (BF6-HIT-01, BF6-DMG-07/08).

The Gunnery Phase only finds hit zones; the rounds in each zone are rolled later, in sets by ship
and shell size. These records carry everything Step Two needs, so the damage code never looks at
the table geometry.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battleline.rulesets.bf1900.ship import GunClass


class Ammo(StrEnum):
    """Shell type; HE unless AP is written in the gunnery log (BF6-GUN-02)."""

    AP = "AP"
    HE = "HE"


class Aspect(StrEnum):
    """Which face of the target the fire came from: the embattled side (REF-BF6-12)."""

    AHEAD = "ahead"
    ASTERN = "astern"
    PORT = "port"
    STARBOARD = "starboard"


def embattled_side(theta: float) -> Aspect:
    """The embattled side, from the relative bearing of the attacker seen from the target's bow.

    The bow and stern aspects are the 90° sectors centred on dead ahead and dead astern; the beams
    take the rest. Boundaries (45°, 135°, …) count as the beam.
    """
    t = theta % 360.0
    if t < 45.0 or t > 315.0:
        return Aspect.AHEAD
    if 135.0 < t < 225.0:
        return Aspect.ASTERN
    return Aspect.STARBOARD if t <= 180.0 else Aspect.PORT


@dataclass(frozen=True, slots=True)
class ShellSet:
    """Rounds of one mounting's shell size from one ship that landed in a hit zone.

    ``penetration`` is the AP penetration for the bracket of the target's leading edge;
    ``bracket`` is that bracket (1–4); ``rounds`` is how many dice the set rolls.
    """

    firer: str
    target: str
    mounting: str
    gun_class: GunClass
    calibre_cm: float
    rounds: int
    ammo: Ammo
    penetration: int
    bracket: int
    shell_size: int
    aspect: Aspect


@dataclass(frozen=True, slots=True)
class TorpedoHit:
    """One torpedo that struck in the Torpedo Movement Phase (BF6-DMG-08). ``firer_seen`` is
    false when no ship of the target's side could see the firer: her log is then not told whose
    torpedo it was (issue 11 §3)."""

    firer: str
    target: str
    mount: str
    size: int
    shallow: bool
    aspect: Aspect
    firer_seen: bool = True
