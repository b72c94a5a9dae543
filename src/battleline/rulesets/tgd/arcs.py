"""TGD arcs of fire and the rake arcs (TGD-ARC-01..07, TGD-HIT-05).

Arcs are closed clockwise intervals of relative bearing θ (0 = dead ahead, 90 = starboard beam),
edges inclusive, as everywhere in battleline. Fore and aft arcs are measured from the ship's
centre; port and starboard arcs from any point along that side (TGD-ARC-01), so with a hull of
``length`` a side battery covers the band ``distance(ahead, hull) <= sideways distance``. The
corner (fp/fs/ap/as) and sponson (p+/s+) arcs are the centre arc plus that side band. The en
echelon ps/sp guns add a rectangle out from the far side, as wide as the hull and as deep as the
gun's range (AMB-65).

Positions are given in the firing ship's frame: ``ahead`` and ``starboard`` of its centre, in
range units (:func:`target_frame` turns a range and bearing into that).
"""

from __future__ import annotations

import math

from battleline.engine.geometry import in_arc, norm360

#: Arcs measured from the ship's centre (TGD-ARC-02..06; Pelayo's examples EX-TGD-02, EX-TGD-03,
#: EX-TGD-04, EX-TGD-05, EX-TGD-06).
CENTRE_ARCS: dict[str, tuple[tuple[float, float], ...]] = {
    "f": ((225.0, 135.0),),  # 270°, blind 90° astern (TGD-ARC-02)
    "a": ((45.0, 315.0),),  # 270°, blind 90° ahead (TGD-ARC-02)
    "ff": ((315.0, 45.0),),  # 90° forward (TGD-ARC-05)
    "aa": ((135.0, 225.0),),  # 90° aft (TGD-ARC-05)
    "p": ((225.0, 315.0),),  # 90° to port (TGD-ARC-03)
    "s": ((45.0, 135.0),),  # 90° to starboard (TGD-ARC-03)
    "c": ((225.0, 315.0), (45.0, 135.0)),  # 90° to both sides (TGD-ARC-03)
    "fp": ((225.0, 360.0),),  # 135° (TGD-ARC-04)
    "fs": ((0.0, 135.0),),
    "ap": ((180.0, 315.0),),
    "as": ((45.0, 180.0),),
    "p+": ((180.0, 360.0),),  # 180° (TGD-ARC-06)
    "s+": ((0.0, 180.0),),
    "ps": ((180.0, 360.0),),  # the p+ arc ... (TGD-ARC-07)
    "sp": ((0.0, 180.0),),  # ... and its mirror
}
#: Which side's band (from any point along that side) each arc also covers (TGD-ARC-01).
SIDE_BANDS: dict[str, tuple[int, ...]] = {
    "p": (-1,),
    "s": (1,),
    "c": (-1, 1),
    "fp": (-1,),
    "ap": (-1,),
    "p+": (-1,),
    "ps": (-1,),
    "fs": (1,),
    "as": (1,),
    "s+": (1,),
    "sp": (1,),
}
#: The far side an en echelon gun reaches with its rectangle (TGD-ARC-07, AMB-65).
FAR_SIDE: dict[str, int] = {"ps": 1, "sp": -1}
#: Rake: a 45° arc in total centred on the bow line and one on the stern line (AMB-59).
RAKE_ARCS = ((337.5, 22.5), (157.5, 202.5))


def target_frame(rng: float, theta: float) -> tuple[float, float]:
    """A target at ``rng`` on relative bearing ``theta`` → (ahead, starboard) of the centre."""
    r = math.radians(theta)
    return rng * math.cos(r), rng * math.sin(r)


def theta_of(ahead: float, starboard: float) -> float:
    """The relative bearing of a point in the ship's frame (dead ahead for the centre itself)."""
    return norm360(math.degrees(math.atan2(starboard, ahead)))


def _in_side_band(side: int, ahead: float, starboard: float, half: float, eps: float) -> bool:
    across = starboard * side
    along = max(0.0, abs(ahead) - half)
    return across > 0 and along <= across + eps


def bears(
    arc: str,
    ahead: float,
    starboard: float,
    *,
    length: float = 0.0,
    max_range: float = math.inf,
    eps: float = 1e-9,
) -> bool:
    """Whether a battery on ``arc`` bears on a target at (ahead, starboard) (TGD-ARC-01..07).

    ``length`` is the firing ship's hull length (0: every arc from the centre); ``max_range``
    bounds the en echelon rectangle (AMB-65). Range itself is checked by the fire procedure.
    """
    if arc not in CENTRE_ARCS:
        raise ValueError(f"unknown TGD arc {arc!r}")
    theta = theta_of(ahead, starboard)
    if any(in_arc(theta, lo, hi, eps) for lo, hi in CENTRE_ARCS[arc]):
        return True
    half = length / 2.0
    if any(_in_side_band(side, ahead, starboard, half, eps) for side in SIDE_BANDS.get(arc, ())):
        return True
    far = FAR_SIDE.get(arc)
    if far is not None:
        across = starboard * far
        return 0 < across <= max_range + eps and abs(ahead) <= half + eps
    return False


def bears_on_bearing(arc: str, theta: float, rng: float = 1.0, *, length: float = 0.0) -> bool:
    """:func:`bears` for a target given by relative bearing and range."""
    ahead, starboard = target_frame(rng, theta)
    return bears(arc, ahead, starboard, length=length)


def raked(aspect: float) -> bool:
    """Whether a firer at relative bearing ``aspect`` from the target's bow rakes it (TGD-HIT-05).

    ``aspect`` is the bearing of the firing ship's centre measured from the target's bow.
    """
    return any(in_arc(aspect, lo, hi) for lo, hi in RAKE_ARCS)
