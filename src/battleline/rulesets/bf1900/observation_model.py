"""The numbers of the observation model: each crew quality's eye for range and the spreads of
bearing, heading and haze, read and checked from ``data/observation.toml`` or a user's file in the
same format (``docs/observation.md``; used by :mod:`~battleline.rulesets.bf1900.observation`
and the AI's range-taking).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from statistics import NormalDist
from typing import Any

from battleline.rulesets.tomldata import Where, read_toml_file


@dataclass(frozen=True, slots=True)
class Eye:
    """One crew quality's judgement of range (values from ``data/observation.toml``).

    Relative standard deviations at no range (``*_0``) and at ``reference_m`` (``*_max``),
    linear in between and beyond; ``bias`` is the mean error (negative: habitually short).
    """

    name: str
    sys_0: float
    sys_max: float
    jit_0: float
    jit_max: float
    bias: float
    reference_m: float = 10000.0

    def sd_sys(self, range_m: float) -> float:
        """Spread of the lasting error at ``range_m``."""
        return self.sys_0 + (self.sys_max - self.sys_0) * range_m / self.reference_m

    def sd_jit(self, range_m: float) -> float:
        """Spread of the turn's error at ``range_m``."""
        return self.jit_0 + (self.jit_max - self.jit_0) * range_m / self.reference_m

    def sd_total(self, range_m: float) -> float:
        """Spread of one observation at ``range_m`` (both parts together)."""
        return math.hypot(self.sd_sys(range_m), self.sd_jit(range_m))


@dataclass(frozen=True, slots=True)
class ObservationModel:
    """The numbers of the observation model (``data/observation.toml``)."""

    eyes: dict[str, Eye]
    default_skill: str
    min_factor: float
    bearing_sd_deg: float
    heading_sd_deg: float
    haze_gain: float

    def eye(self, skill: str | None) -> Eye:
        """The eye of a crew quality (the default one for ``None``)."""
        name = self.default_skill if skill is None else skill
        try:
            return self.eyes[name]
        except KeyError:
            raise ValueError(
                f"unknown gunnery {name!r}; use one of {', '.join(self.eyes)}"
            ) from None

    def haze(self, range_m: float, visibility_m: float | None) -> float:
        """Spread multiplier for poor visibility: 1 without a limit, else grows to the limit."""
        if visibility_m is None:
            return 1.0
        return 1.0 + self.haze_gain * min(range_m / visibility_m, 1.0)

    def factor(
        self,
        eye: Eye,
        range_m: float,
        z_sys: float,
        z_turn: float,
        visibility_m: float | None = None,
    ) -> float:
        """Observed range ÷ true range for the standard normal draws ``z_sys`` and ``z_turn``."""
        haze = self.haze(range_m, visibility_m)
        error = eye.bias + haze * (z_sys * eye.sd_sys(range_m) + z_turn * eye.sd_jit(range_m))
        return max(1.0 + error, self.min_factor)

    def chance_between(
        self,
        eye: Eye,
        range_m: float,
        lo_m: float,
        hi_m: float,
        visibility_m: float | None = None,
    ) -> float:
        """The chance that one observation of a ship ``range_m`` away falls from ``lo_m`` to
        ``hi_m`` (both errors together, before any correction: a first judgement)."""
        sd = self.haze(range_m, visibility_m) * eye.sd_total(range_m) * range_m
        dist = NormalDist(range_m * (1.0 + eye.bias), sd)
        return max(0.0, dist.cdf(hi_m) - dist.cdf(lo_m))


def _positive(where: Where, raw: dict[str, Any], field: str) -> float:
    value = where.number(raw.get(field), field)
    if value <= 0:
        where.fail(field, f"must be positive, got {value:g}")
    return value


def _read_model(raw: dict[str, Any], name: str) -> ObservationModel:
    top = Where(name, "(top)")
    top.keys(
        raw,
        required=(
            "reference_range_m",
            "min_factor",
            "bearing_sd_deg",
            "heading_sd_deg",
            "haze_gain",
            "default_skill",
            "skills",
        ),
        optional=("digital_adaptation", "reconstructed"),
    )
    reference = _positive(top, raw, "reference_range_m")
    min_factor = _positive(top, raw, "min_factor")
    if min_factor >= 1.0:
        top.fail("min_factor", f"must be below 1, got {min_factor:g}")
    eyes: dict[str, Eye] = {}
    for skill, table in top.as_table(raw["skills"], "skills").items():
        where = Where(name, f"skills.{skill}")
        table = where.as_table(table)
        fields = ("sys_0", "sys_max", "jit_0", "jit_max")
        where.keys(table, required=(*fields, "bias"))
        spreads = [where.number(table[f], f) for f in fields]
        for f, v in zip(fields, spreads, strict=True):
            if v < 0:
                where.fail(f, f"a spread cannot be negative, got {v:g}")
        sys_0, sys_max, jit_0, jit_max = spreads
        bias = where.number(table["bias"], "bias")
        eyes[skill] = Eye(skill, sys_0, sys_max, jit_0, jit_max, bias, reference)
    default = raw["default_skill"]
    if default not in eyes:
        top.fail("default_skill", f"{default!r} is not one of the skills {sorted(eyes)}")
    return ObservationModel(
        eyes,
        str(default),
        min_factor,
        top.number(raw["bearing_sd_deg"], "bearing_sd_deg"),
        top.number(raw["heading_sd_deg"], "heading_sd_deg"),
        top.number(raw["haze_gain"], "haze_gain"),
    )


@cache
def _packaged() -> ObservationModel:
    res = resources.files("battleline.rulesets.bf1900").joinpath("data", "observation.toml")
    return _read_model(read_toml_file("observation.toml", res), "observation.toml")


def load_observation(path: str | Path | None = None) -> ObservationModel:
    """The observation model: the packaged numbers, or a user's file in the same format (bad
    data raises :class:`~battleline.errors.RulesDataError` naming file, table and field)."""
    if path is None:
        return _packaged()
    p = Path(path)
    return _read_model(read_toml_file(str(p), p), str(p))


__all__ = ["Eye", "ObservationModel", "load_observation"]
