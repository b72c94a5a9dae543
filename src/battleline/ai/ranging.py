"""Range estimation: the admiral's crews and their "walking the splashes".

An admiral never reads a measured range (BF6-GUN-02: every range is an estimate, sealed before
measuring). Nor does it spoil the ranges it sees with an error of its own: its side's view
already shows every enemy ship where the side's eye judges her to be (the observation model,
:mod:`battleline.rulesets.bf1900.observation`, the same for human sides and admirals; its
spreads per crew quality are :class:`~battleline.rulesets.bf1900.observation.Eye`). So the
range a gun layer writes is the distance between the forward funnels as the view shows them,
corrected by what his splashes taught him:

    estimate = seen × (1 + c)    (then aimed long, :func:`aim_long`, and written to 50 m)

Walking the splashes: ``c`` starts at nought for a target never fired on. After each salvo the
admiral sees whether its marker was a hit zone or a splash short or over (``fall`` on the SPLASH
event, or else the marker's place against the target as the view shows it). A hit zone keeps
``c``; a short moves it up and an over down by one correction step (the skill's ``step`` × the
eye's spread at that range); when the fall swaps side (short, then over) the step is halved, the
classic bracket. What it corrects is the side's lasting misjudgement of that ship; the turn's
own error no correction can know. The admiral learns only "short", "over" or "hit", as a spotter
does, never by how much.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

from battleline.rulesets.bf1900.gunnery import danger_zone_m
from battleline.rulesets.bf1900.observation_model import Eye, load_observation

#: Estimates are written to the nearest this many metres.
ROUND_TO_M = 50.0
#: No estimate below this, whatever the corrections say.
MIN_ESTIMATE_M = 100.0


class Fall(StrEnum):
    """Where a salvo's marker fell as the firer saw it."""

    HIT = "hit"
    SHORT = "short"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Skill:
    """One crew quality as the admiral uses it: the side's eye (the observation model's spreads
    for that quality) and how boldly its gun layers correct (``step``, a multiple of the eye's
    spread at the range; reconstructed)."""

    name: str
    eye: Eye
    step: float = 1.0

    def sd_total(self, range_m: float) -> float:
        """Spread of one observation at ``range_m`` (the eye's)."""
        return self.eye.sd_total(range_m)


#: Correction steps per crew quality: green gun layers correct timidly.
_STEPS = {"green": 0.8, "veteran": 1.0, "elite": 1.0}

#: The skill levels, one per crew quality of the observation model (``green``, ``veteran``,
#: ``elite``).
SKILLS: dict[str, Skill] = {
    name: Skill(name, eye, _STEPS.get(name, 1.0)) for name, eye in load_observation().eyes.items()
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

    correction: float = 0.0
    fall: Fall | None = None
    step: float = 1.0


@dataclass(slots=True)
class RangeKeeper:
    """One side's gun layers: the corrections each firer has learned from its splashes."""

    skill: Skill
    tracks: dict[tuple[str, str], _Track] = field(default_factory=dict)

    def estimate(
        self, firer: str, target: str, seen_m: float, turn: int, bracket_m: float | None = None
    ) -> float:
        """The range ``firer`` writes for ``target`` this turn, from the distance as seen.

        ``turn`` is kept for the callers' sake; the correction learned on a target stays, as the
        misjudgement it corrects does. With ``bracket_m`` the gun layer also aims long by half
        the danger zone he expects (:func:`aim_long`).
        """
        del turn
        track = self.tracks.setdefault((firer, target), _Track())
        judged = seen_m * max(1.0 + track.correction, 0.3)
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
            track.correction += size if fall is Fall.SHORT else -size
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
