"""The DBA scenario schema: a TOML file checked with pydantic at the boundary.

A DBA scenario file says ``ruleset = "dba"`` (the registry dispatches on that line), names two
sides, the optional rules it plays with (``options``), the light and sea for the whole game, and
lists its ships by Annex A name with side, squadron, base position (in bases) and heading::

    ruleset = "dba"
    title = "Off the Yalu"
    sides = ["China", "Japan"]
    options = ["windy_corners"]

    [[ship]]
    annex = "Ting Yuen"
    side = "China"
    squadron = "Peiyang"
    x = 0.0
    y = 0.0
    heading = 90.0

Ships given the same ``base`` label share one base (DBA-BAS-01: two TBD/TB, or a scout cruiser
or TGB with one TBD/TB); any other pairing is refused. Every error is one ``ScenarioError`` line
naming the file and the field.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)

from battleline.errors import RulesetError, ScenarioError
from battleline.rulesets.dba.factors import ShipFactors, load_annex_a
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.torpedo_boats import check_base

RULESET_NAME = "dba"
_PACKAGE = "battleline.rulesets.dba"


class ShipEntry(BaseModel):
    """One ``[[ship]]`` table."""

    model_config = ConfigDict(extra="forbid")

    annex: str = Field(min_length=1, description="the ship's Annex A name")
    name: str | None = Field(default=None, min_length=1)
    side: str
    squadron: str | None = None
    x: float
    y: float
    heading: float
    #: Ships with the same label share one base (DBA-BAS-01).
    base: str | None = None

    @field_validator("annex")
    @classmethod
    def _known(cls, value: str) -> str:
        annex = load_annex_a()
        if value not in annex:
            raise ValueError(f"no ship {value!r} in Annex A (see 'battleline dba ships')")
        return annex[value].name

    @property
    def factors(self) -> ShipFactors:
        """The ship's Annex A factors."""
        return load_annex_a()[self.annex]

    @property
    def ship_name(self) -> str:
        """The name in play (the Annex A name unless given)."""
        return self.name or self.annex


class SideEntry(BaseModel):
    """Optional ``[[side]]`` settings: a side's preferred fighting band for its AI admiral."""

    model_config = ConfigDict(extra="forbid")

    name: str
    doctrine: str = Field(default="normal", pattern="^(close|normal|long|extreme)$")


class DbaScenario(BaseModel):
    """A whole DBA scenario file."""

    model_config = ConfigDict(extra="forbid")

    ruleset: str
    name: str | None = None
    title: str | None = None
    description: str | None = None
    reconstructed: StrictBool = False
    turn_limit: int = Field(default=10, ge=1, le=200)
    sides: list[str] = Field(min_length=2, max_length=2)
    side: list[SideEntry] = Field(default_factory=list)
    options: list[str] = Field(default_factory=list)
    night: StrictBool = False
    dusk_or_dawn: StrictBool = False
    heavy_seas: StrictBool = False
    ship: list[ShipEntry] = Field(min_length=1)

    @field_validator("ruleset")
    @classmethod
    def _dba(cls, value: str) -> str:
        if value.strip().lower() not in (RULESET_NAME, "dbsa", "damn-battleships-again"):
            raise ValueError(f"this is the DBA schema; the file says ruleset {value!r}")
        return RULESET_NAME

    @field_validator("options")
    @classmethod
    def _options(cls, value: list[str]) -> list[str]:
        try:
            Options.parse(value)
        except ScenarioError as exc:
            raise ValueError(str(exc)) from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> DbaScenario:
        if len(set(self.sides)) != 2:
            raise ValueError("sides: the two sides need different names")
        for i, entry in enumerate(self.ship):
            if entry.side not in self.sides:
                raise ValueError(
                    f"ship[{i}].side: {entry.side!r} is not one of {', '.join(self.sides)}"
                )
        names = [s.ship_name for s in self.ship]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"ship: two ships named {name!r}")
        for s in self.side:
            if s.name not in self.sides:
                raise ValueError(f"side: {s.name!r} is not one of {', '.join(self.sides)}")
        for label, group in self.bases().items():
            if len({s.side for s in group}) > 1:
                raise ValueError(f"ship.base {label!r}: ships of both sides on one base")
            try:
                check_base([s.factors for s in group])
            except ScenarioError as exc:
                raise ValueError(f"ship.base {label!r}: {exc}") from None
        return self

    @property
    def options_parsed(self) -> Options:
        """The option toggles."""
        return Options.parse(self.options)

    def bases(self) -> dict[str, list[ShipEntry]]:
        """Ships by shared-base label (DBA-BAS-01)."""
        out: dict[str, list[ShipEntry]] = {}
        for s in self.ship:
            if s.base is not None:
                out.setdefault(s.base, []).append(s)
        return out

    def doctrine(self, side: str) -> str:
        """A side's preferred range band (for its AI admiral)."""
        return next((s.doctrine for s in self.side if s.name == side), "normal")


def _where(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


#: Scenario parts other rule systems have and DBA does not (field → what it is).
LACKING: dict[str, str] = {
    "land": "land and islands",
    "islands": "land and islands",
    "searchlights": "searchlights",
    "visibility_m": "a visibility range",
    "observation": "the range-by-eye observation model",
    "mines": "minefields",
    "divisions": "bf1900 divisions",
}


def parse_scenario(raw: dict[str, Any], source: str) -> DbaScenario:
    """Validate a decoded TOML table; one :class:`ScenarioError` line naming the field.

    A scenario that needs a part DBA lacks (land, searchlights ...) is refused by name rather
    than played without it (``RulesetError``)."""
    if "based_on" in raw:
        raise ScenarioError(
            f"{source}: based_on: the dba ruleset reads whole DBA scenarios only; "
            f"{raw['based_on']!r} is a bf1900-schema scenario, played by bf1900, bf1900-1d12 or tgd"
        )
    for key, what in LACKING.items():
        if key in raw:
            raise RulesetError(
                f"{source}: {key}: the dba ruleset has no rules for {what}; remove the field "
                "or play the scenario with a ruleset that has them"
            )
    try:
        return DbaScenario.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = _where(tuple(err["loc"]))
        msg = str(err["msg"]).removeprefix("Value error, ")
        if err["type"] == "extra_forbidden":
            msg = "unknown field (check the spelling)"
        if err["type"] == "missing":
            msg = "field required"
        more = len(exc.errors()) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        raise ScenarioError(f"{source}: {where + ': ' if where else ''}{msg}{tail}") from None


def builtin_names() -> list[str]:
    """The ids of the built-in DBA scenarios."""
    folder = resources.files(_PACKAGE).joinpath("data", "scenarios")
    return sorted(f.name[:-5] for f in folder.iterdir() if f.name.endswith(".toml"))


def scenario_source(scenario: str) -> tuple[bytes, str]:
    """The bytes of a built-in id or a ``.toml`` path, and the name to quote in errors."""
    path = Path(scenario)
    if path.suffix == ".toml" and path.exists():
        return path.read_bytes(), str(path)
    res = resources.files(_PACKAGE).joinpath("data", "scenarios", f"{scenario}.toml")
    if not res.is_file():
        raise ScenarioError(
            f"no DBA scenario {scenario!r} (built-in: {', '.join(builtin_names())}; "
            "or a .toml path)"
        )
    return res.read_bytes(), f"dba/data/scenarios/{scenario}.toml"


@cache
def _cached(data: bytes, source: str) -> DbaScenario:
    try:
        raw = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
    return parse_scenario(raw, source)


def load_scenario(scenario: str) -> DbaScenario:
    """Read and validate a DBA scenario (built-in id or file path)."""
    data, source = scenario_source(scenario)
    return _cached(data, source)
