"""What the 1D12 edition does differently with the shared ship log (DIFF-03, DIFF-10, DIFF-23).

* ship values on the 1D12 scale: sizes, shell and torpedo sizes, armour "beam - front/rear"
  and the penetration index by three ranges, "18-14-10" (REF-BF12-03, REF-BF12-14,
  EX-BF12C-03), converted from the 1D6 ship database by ``data/edition.toml``;
* torpedo running depth on the 1D12 size scale: a normal-depth torpedo passes under size 22 or
  less, a shallow one is halved against good or great flood protection (BF6-TORP-07/08);
* the damage-control pool: the propulsion boxes not destroyed (BF12-DC-03/04, EX-DRV-07);
* the ``S`` code: one position of *each* weapon type of secondary class or smaller, from the
  embattled side first (BF12-SEC-01..04, EX-BF12-03).
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from battleline.engine.events import EventKind
from battleline.errors import RulesDataError
from battleline.rulesets.bf1900.damage.context import Code, CodeEffect, DamageContext
from battleline.rulesets.bf1900.damage.locations import choose, position_compartment
from battleline.rulesets.bf1900.damage.step2 import HALVING_PROTECTION
from battleline.rulesets.bf1900.hits import Aspect, TorpedoHit
from battleline.rulesets.bf1900.ship import Compartment, GunClass, Mounting, ShipClass
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.torpedoes import NORMAL_DEPTH_MISSES_UP_TO

#: Weapon types an S hit reaches, largest first (BF12-SEC-01).
SECONDARY_OR_SMALLER = (GunClass.SECONDARY, GunClass.TERTIARY, GunClass.BOAT)
SECTIONS = ("fore", "mid", "aft")


#: The three ranges of a 1D12 penetration index ("18-14-10", EX-BF12C-03).
RANGES = ("short", "medium", "long")
#: The four gunnery brackets (REF-BF6-01) the shared gunnery module measures in.
BRACKETS = 4

#: A 1D12 penetration index: short, medium and long range; ``None`` is a dash.
PenetrationIndex = tuple[int | None, int | None, int | None]


@dataclass(frozen=True, slots=True)
class Conversion:
    """The 1D6 → 1D12 ship-value conversion (reconstructed, ``data/edition.toml``).

    The penetration index: range ``r`` is the 1D6 AP value at bracket ``pen_from_bracket[r]``
    times ``pen_factor[r]``, rounded half up; ``bracket_range[b]`` is the range gunnery bracket
    ``b + 1`` counts as.
    """

    ship_factor: float = 5.5
    shell_factor: float = 12.0
    torpedo_factor: float = 12.0
    front_rear_factor: float = 0.75
    end_divisor: int = 5
    pen_from_bracket: tuple[int, int, int] = (1, 2, 3)
    pen_factor: tuple[float, float, float] = (1.4, 1.4, 1.25)
    bracket_range: tuple[int, int, int, int] = (0, 1, 2, 2)


def half_up(x: float) -> int:
    """Round half up (5.5 × 3 = 16.5 → 17)."""
    return math.floor(x + 0.5)


def load_conversion(path: str | Path | None = None) -> Conversion:
    """The packaged conversion (cached), or a user's file of the same layout."""
    if path is None:
        return _default_conversion()
    p = Path(path)
    try:
        return _conversion(p.read_bytes(), str(p))
    except OSError as exc:
        raise RulesDataError(str(p), "(file)", "", f"cannot read: {exc.strerror}") from None


@lru_cache(maxsize=1)
def _default_conversion() -> Conversion:
    res = resources.files("battleline.rulesets.bf1900_12").joinpath("data", "edition.toml")
    return _conversion(res.read_bytes(), "data/edition.toml")


def _conversion(raw: bytes, name: str) -> Conversion:
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(name, "(file)", "", f"not valid TOML: {exc}") from None
    if doc.get("edition") != "1D12":
        raise RulesDataError(name, "(file header)", "edition", "write edition = '1D12'")
    if not isinstance(doc.get("reconstructed"), bool):
        raise RulesDataError(name, "(file header)", "reconstructed", "must be true or false")

    def number(table: str, field: str, lo: float) -> float:
        value: Any = doc.get(table, {}).get(field) if isinstance(doc.get(table), dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float) or not value > lo:
            raise RulesDataError(
                name, table, field, f"expected a number above {lo:g}, got {value!r}"
            )
        return float(value)

    divisor = number("secondaries", "end_divisor", 0)
    if divisor != int(divisor):
        raise RulesDataError(name, "secondaries", "end_divisor", "must be a whole number")
    from_bracket, factor, bracket_range = _penetration(doc.get("penetration"), name)
    return Conversion(
        ship_factor=number("sizes", "ship_factor", 0),
        shell_factor=number("sizes", "shell_factor", 0),
        torpedo_factor=number("sizes", "torpedo_factor", 0),
        front_rear_factor=number("armour", "front_rear_factor", 0),
        end_divisor=int(divisor),
        pen_from_bracket=from_bracket,
        pen_factor=factor,
        bracket_range=bracket_range,
    )


def _penetration(
    table: Any, name: str
) -> tuple[tuple[int, int, int], tuple[float, float, float], tuple[int, int, int, int]]:
    """The ``[penetration]`` table: ``from_bracket`` and ``factor`` per range (three each),
    ``bracket_range`` per gunnery bracket (four range names)."""

    def fail(field: str, reason: str) -> RulesDataError:
        return RulesDataError(name, "penetration", field, reason)

    if not isinstance(table, dict):
        raise fail("", "missing: the 1D12 penetration index needs a [penetration] table")
    allowed = {"from_bracket", "factor", "bracket_range"}
    for key in table:
        if key not in allowed:
            raise fail(key, f"unknown field; expected {sorted(allowed)}")

    def items(field: str, count: int) -> list[Any]:
        value = table.get(field)
        if not isinstance(value, list) or len(value) != count:
            raise fail(field, f"expected a list of {count}, got {value!r}")
        return value

    brackets = items("from_bracket", len(RANGES))
    for b in brackets:
        if isinstance(b, bool) or not isinstance(b, int) or not 1 <= b <= BRACKETS:
            raise fail("from_bracket", f"a 1D6 range bracket is 1 to {BRACKETS}, got {b!r}")
    factors = items("factor", len(RANGES))
    for f in factors:
        if isinstance(f, bool) or not isinstance(f, int | float) or not 0 < f < 100:
            raise fail("factor", f"expected a number above 0, got {f!r}")
    ranges = items("bracket_range", BRACKETS)
    for r in ranges:
        if r not in RANGES:
            raise fail("bracket_range", f"expected one of {list(RANGES)}, got {r!r}")
    idx = [RANGES.index(r) for r in ranges]
    if idx != sorted(idx):
        raise fail("bracket_range", "a farther bracket cannot count as a shorter range")
    return (
        (brackets[0], brackets[1], brackets[2]),
        (float(factors[0]), float(factors[1]), float(factors[2])),
        (idx[0], idx[1], idx[2], idx[3]),
    )


# -- ship values -------------------------------------------------------------------------------


def to_1d12(cls: ShipClass, conv: Conversion | None = None) -> ShipClass:
    """The class on the 1D12 scale (DIFF-23): size, shell and torpedo sizes scaled; armour
    ``armour_vitals`` = beam, ``armour_upperworks`` = front/rear ("12-9", REF-BF12-03); each
    gun's penetration its 1D12 index laid over the gunnery brackets (:func:`gunnery_penetration`).
    """
    c = conv or load_conversion()
    return dataclasses.replace(
        cls,
        size=max(1, half_up(cls.size * c.ship_factor)),
        armour_upperworks=half_up(cls.armour_vitals * c.front_rear_factor),
        mountings=tuple(
            dataclasses.replace(
                m,
                shell_size=half_up(m.shell_size * c.shell_factor),
                penetration=gunnery_penetration(m.penetration, c),
            )
            for m in cls.mountings
        ),
        torpedoes=tuple(
            dataclasses.replace(t, size=half_up(t.size * c.torpedo_factor)) for t in cls.torpedoes
        ),
    )


def penetration_index(
    penetration_1d6: tuple[int | None, ...], conv: Conversion | None = None
) -> PenetrationIndex:
    """A gun's 1D12 penetration index, short-medium-long (REF-BF12-03, EX-BF12C-03): each range
    the gun's 1D6 AP value at its source bracket times the range's factor, rounded half up, a
    dash where the 1D6 value is one. Mikasa's 12-inch (1D6 13-10-8-6) → 18-14-10."""
    c = conv or load_conversion()
    out: list[int | None] = []
    for bracket, factor in zip(c.pen_from_bracket, c.pen_factor, strict=True):
        value = penetration_1d6[bracket - 1]
        out.append(None if value is None else half_up(value * factor))
    return out[0], out[1], out[2]


def gunnery_penetration(
    penetration_1d6: tuple[int | None, int | None, int | None, int | None],
    conv: Conversion | None = None,
) -> tuple[int | None, int | None, int | None, int | None]:
    """The 1D12 index by gunnery bracket, as the shared gunnery reads a mounting: bracket ``b``
    takes the index at the range it counts as (1 short, 2 medium, 3 and 4 long). A bracket the
    gun cannot reach in the ship database stays a dash: the reach is unchanged (BF6-GUN-04)."""
    c = conv or load_conversion()
    index = penetration_index(penetration_1d6, c)
    out = [
        None if penetration_1d6[b] is None else index[c.bracket_range[b]] for b in range(BRACKETS)
    ]
    return out[0], out[1], out[2], out[3]


def runs_under_size(conv: Conversion | None = None) -> int:
    """The largest 1D12 size a normal-depth torpedo passes under: the 1D6 rule's size 4
    (BF6-TORP-07) on the 1D12 scale, 4 × 5.5 = 22. Every 1D6 size up to 4 converts to 22 or
    less and every larger one to 28 or more, so the rule picks the same ships in both editions."""
    c = conv or load_conversion()
    return half_up(NORMAL_DEPTH_MISSES_UP_TO * c.ship_factor)


def torpedo_size(torpedo: TorpedoHit, log: ShipLog, conv: Conversion | None = None) -> int | None:
    """The size a torpedo that struck floods with on the 1D12 scale, ``None`` if it cannot harm
    the ship: normal depth against size 22 or less (BF6-TORP-07, :func:`runs_under_size`); a
    shallow torpedo's size is halved, rounded down, against good or great flood protection
    (BF6-TORP-08, AMB-20)."""
    if not torpedo.shallow and log.cls.size <= runs_under_size(conv):
        return None
    if torpedo.shallow and log.cls.flood_protection in HALVING_PROTECTION:
        return torpedo.size // 2
    return torpedo.size


def armour_value(cls: ShipClass, aspect: Aspect | None) -> int:
    """The armour a round meets: the beam value from either beam, front/rear from ahead or
    astern (BF12C-SHL-01, EX-BF12C-03)."""
    if aspect in (Aspect.PORT, Aspect.STARBOARD):
        return cls.armour_vitals
    return cls.armour_upperworks


def dc_pool(log: ShipLog) -> int:
    """Damage dice this turn: propulsion boxes not destroyed; damaged ones still count
    (BF12-DC-03/04, EX-DRV-07). Counted as of the Command Phase by the caller (AMB-50)."""
    return len(log.propulsion.speeds) - log.propulsion.destroyed


# -- the S code (BF12-SEC-01..04) --------------------------------------------------------------


def gun_side(index: int, guns: int) -> str:
    """Which side a beam-pattern gun box is on: alternate port, starboard, …; an odd last gun to
    starboard (as the ship log prints them)."""
    if guns % 2 == 1 and index == guns - 1:
        return "starboard"
    return "port" if index % 2 == 0 else "starboard"


def beam_sections(mount: Mounting, conv: Conversion | None = None) -> dict[str, tuple[int, ...]]:
    """One side's gun boxes of a pattern-1/2 battery in fore, mid and aft sections
    (BF12-SEC-03): ``per side // end_divisor`` at each end, the rest amidships ("1, 5, 1")."""
    c = conv or load_conversion()
    out: dict[str, tuple[int, ...]] = {}
    for side in ("port", "starboard"):
        boxes = [i for i in range(mount.guns) if gun_side(i, mount.guns) == side]
        end = len(boxes) // c.end_divisor
        out[f"{side} fore"] = tuple(boxes[:end])
        out[f"{side} mid"] = tuple(boxes[end : len(boxes) - end])
        out[f"{side} aft"] = tuple(boxes[len(boxes) - end :])
    return out


def _sides_in_order(aspect: Aspect | None) -> tuple[tuple[str, ...], ...]:
    """The embattled side first, then the other (BF12-SEC-02); ahead/astern: both at once."""
    if aspect is Aspect.PORT:
        return (("port",), ("starboard",))
    if aspect is Aspect.STARBOARD:
        return (("starboard",), ("port",))
    return (("port", "starboard"),)


def _lettered_side(mount: Mounting) -> tuple[str, ...]:
    comp = position_compartment(mount)
    if comp is Compartment.STARBOARD and mount.position not in (None, "centreline"):
        return ("starboard",)
    if comp is Compartment.PORT and mount.position in ("M", "P", "S"):
        return ("port",)
    return ("port", "starboard")


def _undamaged(log: ShipLog, mount: Mounting, sides: tuple[str, ...]) -> list[int]:
    marks = log.batteries[mount.key]
    return [i for i, m in enumerate(marks) if m is Mark.NONE and gun_side(i, mount.guns) in sides]


def secondary_hit(log: ShipLog, code: Code, ctx: DamageContext) -> None:
    """``S`` / ``Sx``: one position of each secondary-or-smaller type, embattled side first,
    then an undamaged weapon on the far side (BF12-SEC-01/02, EX-BF12-03). Pattern 1/2 batteries
    roll the section (fore, mid, aft) on the d12 (BF12-SEC-03); pattern 0 needs no roll
    (BF12-SEC-04)."""
    destroy = code.name == "Sx"
    hit_any = False
    for gun_class in SECONDARY_OR_SMALLER:
        mounts = log.cls.mountings_of(gun_class)
        if not mounts:
            continue
        hit_any = True
        if not _hit_one(log, mounts, gun_class, destroy, ctx):
            ctx.events.emit(
                _DAMAGE,
                f"{log.name}: {code}: no {gun_class.value} weapon left in action, no effect",
                ship=log.name,
                code=str(code),
            )
    if not hit_any:
        ctx.events.emit(
            _DAMAGE,
            f"{log.name}: {code}: no secondary or smaller weapons aboard, no effect",
            ship=log.name,
            code=str(code),
        )


def _hit_one(
    log: ShipLog,
    mounts: tuple[Mounting, ...],
    gun_class: GunClass,
    destroy: bool,
    ctx: DamageContext,
) -> bool:
    for sides in _sides_in_order(ctx.aspect):
        lettered = [
            m
            for m in mounts
            if m.is_lettered
            and not log.positions[m.key].destroyed
            and set(_lettered_side(m)) & set(sides)
        ]
        batteries = [m for m in mounts if not m.is_lettered and _undamaged(log, m, sides)]
        candidates = [*lettered, *batteries]
        if not candidates:
            continue
        mount = choose(
            ctx.dice, candidates, f"{gun_class.value} hit location", log.name, die=ctx.die
        )
        if mount.is_lettered:
            pos = log.positions[mount.key]
            if destroy:
                pos.destroyed = True
            else:
                pos.slashes += 1
            word = "destroyed" if destroy else "damaged"
            _emit(log, ctx, f"{gun_class.value} {mount.key} {word}", position=mount.key)
            return True
        index = _battery_box(log, mount, sides, ctx)
        log.batteries[mount.key][index] = Mark.DESTROYED if destroy else Mark.DAMAGED
        left = sum(1 for m in log.batteries[mount.key] if m is Mark.NONE)
        _emit(
            log,
            ctx,
            f"{gun_class.value} gun {index + 1} of {mount.key} ({gun_side(index, mount.guns)}) "
            f"{'destroyed' if destroy else 'damaged'} ({left} left)",
            battery=mount.key,
            gun=index + 1,
        )
        return True
    return False


def _battery_box(log: ShipLog, mount: Mounting, sides: tuple[str, ...], ctx: DamageContext) -> int:
    """The gun box a battery loses: pattern 0 the last undamaged one (no roll, BF12-SEC-04);
    patterns 1/2 a d12 in thirds for the section, then the last undamaged gun there, else
    anywhere on those sides (BF12-SEC-03)."""
    free = _undamaged(log, mount, sides)
    if not mount.beam_pattern:
        return free[-1]
    section = choose(
        ctx.dice, SECTIONS, f"{mount.key} section (fore/mid/aft)", log.name, die=ctx.die
    )
    parts = beam_sections(mount)
    in_section = [i for i in free if any(i in parts[f"{s} {section}"] for s in sides)]
    return (in_section or free)[-1]


def _emit(log: ShipLog, ctx: DamageContext, text: str, **data: Any) -> None:
    ctx.events.emit(_DAMAGE, f"{log.name}: {text} (BF12-SEC-01)", ship=log.name, **data)


_DAMAGE = EventKind.DAMAGE

#: The codes whose effect differs in this edition (``DamageContext.effects``).
EFFECTS: Mapping[str, CodeEffect] = MappingProxyType({"S": secondary_hit, "Sx": secondary_hit})
