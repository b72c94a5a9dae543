"""Range estimation by eye: the admiral's error model and its "walking the splashes".

An admiral never reads a measured range (BF6-GUN-02: every range is an estimate, sealed before
measuring). Its eye takes the distance between the forward funnels as the view shows them and
spoils it with an error drawn from its own ``numpy`` Generator:

    estimate = seen × (1 + e + j)

* ``e`` is the *persistent* error of one gun layer's picture of one target: drawn when the firer
  first ranges on that target, from N(bias, sd_sys(range)); it stays until corrected.
* ``j`` is this turn's jitter, N(0, sd_jit(range)), drawn afresh each time.
* Both spreads grow linearly with range (the further, the harder to judge) and shrink with skill
  (:data:`SKILLS`; the values are ours, reconstructed, see ``docs/ai.md``).

Walking the splashes: after each salvo the admiral sees where its marker fell. A hit zone means
the range is found: the persistent error is kept and the next turn's jitter is halved. A splash
short or over moves the persistent error one correction step the other way; when the fall swaps
side (short then over) the step is halved, the classic bracket. The admiral learns only "short",
"over" or "hit" — what a spotter sees — never by how much.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from battleline.rulesets.bf1900.gunnery import danger_zone_m

#: Estimates are written to the nearest this many metres.
ROUND_TO_M = 50.0
#: No estimate below this, whatever the dice say.
MIN_ESTIMATE_M = 100.0
#: The longest range the error model is scaled to (the 4th bracket's end at every scale).
REFERENCE_RANGE_M = 10000.0


class Fall(StrEnum):
    """Where a salvo's marker fell as the firer saw it."""

    HIT = "hit"
    SHORT = "short"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Skill:
    """One skill level of the range-takers (all values reconstructed).

    Relative standard deviations at zero range (``*_0``) and at :data:`REFERENCE_RANGE_M`
    (``*_max``), linear in between and beyond; ``bias`` is the mean persistent error (negative =
    habitually short); ``step`` is a splash correction as a multiple of the total spread;
    ``found`` multiplies the jitter on a target hit last turn.
    """

    name: str
    sys_0: float
    sys_max: float
    jit_0: float
    jit_max: float
    bias: float
    step: float = 1.0
    found: float = 0.5

    def sd_sys(self, range_m: float) -> float:
        """Spread of the persistent error at ``range_m``."""
        return self.sys_0 + (self.sys_max - self.sys_0) * range_m / REFERENCE_RANGE_M

    def sd_jit(self, range_m: float) -> float:
        """Spread of the turn-to-turn jitter at ``range_m``."""
        return self.jit_0 + (self.jit_max - self.jit_0) * range_m / REFERENCE_RANGE_M

    def sd_total(self, range_m: float) -> float:
        """Spread of a first estimate at ``range_m`` (both parts together)."""
        return math.hypot(self.sd_sys(range_m), self.sd_jit(range_m))


#: The three skill levels: a first estimate is off by about 6–13 % (green), 4–9 % (veteran) or
#: 3–6 % (elite) of the true range, one standard deviation, from close to maximum range.
SKILLS: dict[str, Skill] = {
    "green": Skill("green", 0.045, 0.100, 0.040, 0.080, -0.03, step=0.8, found=0.6),
    "veteran": Skill("veteran", 0.030, 0.070, 0.025, 0.055, -0.015),
    "elite": Skill("elite", 0.020, 0.045, 0.018, 0.035, 0.0, step=1.0, found=0.4),
}


def get_skill(name: str) -> Skill:
    """A skill level by name; ``ValueError`` naming the known ones otherwise."""
    try:
        return SKILLS[name.lower()]
    except KeyError:
        raise ValueError(
            f"unknown admiral skill {name!r}; use one of {', '.join(SKILLS)}"
        ) from None


@dataclass(slots=True)
class _Track:
    """What one firer remembers of ranging one target."""

    error: float
    last_turn: int
    fall: Fall | None = None
    step: float = 1.0


@dataclass(slots=True)
class RangeKeeper:
    """One side's range-takers: estimates by eye and the memory of each firer's last fall."""

    skill: Skill
    rng: np.random.Generator
    tracks: dict[tuple[str, str], _Track] = field(default_factory=dict)

    def estimate(
        self, firer: str, target: str, seen_m: float, turn: int, bracket_m: float | None = None
    ) -> float:
        """The range ``firer`` writes for ``target`` this turn, from the distance as seen.

        A target not ranged on last turn is judged afresh (a new persistent error); one ranged
        last turn keeps its error as corrected by the fall of the splash. With ``bracket_m`` the
        gun layer also aims long by half the danger zone he expects (:func:`aim_long`).
        """
        key = (firer, target)
        track = self.tracks.get(key)
        sd_sys = self.skill.sd_sys(seen_m)
        if track is None or track.last_turn < turn - 1:
            track = _Track(float(self.rng.normal(self.skill.bias, sd_sys)), turn)
            self.tracks[key] = track
        jitter_sd = self.skill.sd_jit(seen_m)
        if track.fall is Fall.HIT and track.last_turn == turn - 1:
            jitter_sd *= self.skill.found
        jitter = float(self.rng.normal(0.0, jitter_sd))
        track.last_turn = turn
        judged = seen_m * max(1.0 + track.error + jitter, 0.3)
        if bracket_m is not None:
            judged = aim_long(judged, bracket_m)
        return max(MIN_ESTIMATE_M, round(judged / ROUND_TO_M) * ROUND_TO_M)

    def observe(self, firer: str, target: str, fall: Fall, seen_m: float) -> None:
        """Correct a firer's picture of a target from where its last salvo fell."""
        track = self.tracks.get((firer, target))
        if track is None:
            return
        if fall is not Fall.HIT:
            swapped = track.fall is not None and track.fall is not Fall.HIT and track.fall != fall
            if swapped:
                track.step *= 0.5
            size = self.skill.step * track.step * self.skill.sd_total(seen_m)
            track.error += size if fall is Fall.SHORT else -size
        track.fall = fall


def aim_long(judged_m: float, bracket_m: float) -> float:
    """Aim half a danger zone beyond the range judged: the danger zone lies beyond the leading
    edge (½ bracket deep in the 1st bracket, ¼ in the 2nd, none further out: BF6-DZ-01..03), so
    a shell meant to fall in it should be written long, not on the target's near side."""
    bracket = max(1, math.ceil(judged_m / bracket_m - 1e-9))
    return judged_m + danger_zone_m(bracket, bracket_m) / 2.0


def fall_of(
    marker: tuple[float, float], firer: tuple[float, float], target: tuple[float, float]
) -> Fall:
    """Short or over, as a spotter sees a white marker against the target: beyond the target
    along the line of fire is over, this side of it short."""
    lx, ly = target[0] - firer[0], target[1] - firer[1]
    mx, my = marker[0] - target[0], marker[1] - target[1]
    return Fall.OVER if mx * lx + my * ly > 0 else Fall.SHORT


__all__ = [
    "MIN_ESTIMATE_M",
    "ROUND_TO_M",
    "SKILLS",
    "Fall",
    "RangeKeeper",
    "Skill",
    "aim_long",
    "fall_of",
    "get_skill",
]
