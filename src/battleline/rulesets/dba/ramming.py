"""Ramming and collisions (DBA-RAM-01..17, EX-DBA-06, EX-DRV-10, REF-DBA-04).

The test (DBA-RAM-05/06): one D6 + the rammer's declared speed in bases − the target's speed last
spell (0 if it has since stopped); a ship that is a "ram" may add, or deduct, one, the rammer
stating its choice first and the target then deciding (DBA-RAM-06, AMB-80).
An effective ram needs at least 5 (voluntary) or 6 (involuntary) against a broadside edge, 6 or 7
against a bow or stern edge (DBA-RAM-07/08, AMB-79); 1 or less means the target has rammed the
rammer (DBA-RAM-09). The effect comes from the relative size (DBA-RAM-11) read in the
reconstructed result table of ``data/core.toml``; stern-edge rams drop both results a level
(DBA-RAM-16, AMB-81).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.factors import ShipFactors
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.status import ShipStatus, apply_result, start_flooding
from battleline.rulesets.dba.tables import RAM_LEVELS, CoreTables, RamResult, Result, load_core


class RamKind(StrEnum):
    """DBA-RAM-01."""

    VOLUNTARY = "voluntary"
    INVOLUNTARY = "involuntary"


class Edge(StrEnum):
    """The target's base edge the rammer contacts."""

    BROADSIDE = "broadside"
    BOW = "bow"
    STERN = "stern"


class Formation(StrEnum):
    """How several movers that meet one ship are formed (DBA-RAM-04)."""

    LINE_ABREAST = "line_abreast"
    LINE_AHEAD = "line_ahead"


class Placement(StrEnum):
    """Where the rammer ends (DBA-RAM-10/13/14/15)."""

    PASSES_THROUGH = "passes through and completes its move"
    BROADSIDE_TO_BROADSIDE = "placed broadside to broadside with the target"
    STOPS_SHORT = "stops without passing through the target"
    STOPS = "stops"


#: Effective-ram thresholds, "at least": broadside DBA-RAM-07, bow or stern DBA-RAM-08 (AMB-79).
THRESHOLDS: dict[tuple[bool, RamKind], int] = {
    (True, RamKind.VOLUNTARY): 5,
    (True, RamKind.INVOLUNTARY): 6,
    (False, RamKind.VOLUNTARY): 6,
    (False, RamKind.INVOLUNTARY): 7,
}
COUNTER_RAM_AT_MOST = 1  # DBA-RAM-09

_AS_RESULT = {
    RamResult.OK: Result.NONE,
    RamResult.D: Result.DAMAGED,
    RamResult.C: Result.CRIPPLED,
    RamResult.S: Result.SUNK,
}
_ORDER = (RamResult.OK, RamResult.D, RamResult.C, RamResult.S)


def ram_kind(*, same_side: bool, wishes_to_ram: bool) -> RamKind:
    """Voluntary only when the mover wishes to ram an enemy (DBA-RAM-01)."""
    return RamKind.VOLUNTARY if wishes_to_ram and not same_side else RamKind.INVOLUNTARY


def effective_threshold(edge: Edge, kind: RamKind) -> int:
    """The least score that rams effectively (DBA-RAM-07/08)."""
    return THRESHOLDS[(edge is Edge.BROADSIDE, kind)]


@dataclass(frozen=True, slots=True)
class MoveKey:
    """One optional mover's place in the friendly-collision order (DBA-RAM-02)."""

    name: str
    compulsory: bool
    squadron_nips: int
    max_speed: int
    size: int


def collision_move_order(movers: Sequence[MoveKey]) -> list[str]:
    """DBA-RAM-02: compulsory moves first; then lowest squadron NIP die, slowest maximum speed,
    largest ship."""
    ordered = sorted(
        movers,
        key=lambda m: (not m.compulsory, m.squadron_nips, m.max_speed, -m.size),
    )
    return [m.name for m in ordered]


@dataclass(frozen=True, slots=True)
class RamTest:
    """The ram test's dice and verdict."""

    roll: int
    score: int
    threshold: int
    effective: bool
    counter_ram: bool


def ram_adjustment(ship: ShipFactors, choice: int | None, *, rammer: bool) -> int:
    """A "ram" ship's ±1 (DBA-RAM-06): its stated choice (+1, −1 or 0), or by default +1 for a
    rammer and −1 for a target; 0 for a ship that is no ram (which may not choose)."""
    if choice is not None and choice not in (-1, 0, 1):
        raise IllegalOrderError(f"{ship.name}: a ram adds or deducts one, not {choice:+d}")
    if not ship.is_ram:
        if choice:
            raise IllegalOrderError(f'{ship.name}: only a "ram" may add or deduct one (DBA-RAM-06)')
        return 0
    if choice is None:
        return 1 if rammer else -1
    return choice


def ram_score(
    roll: int,
    *,
    rammer: ShipFactors,
    target: ShipFactors,
    declared_bases: int,
    target_speed: int,
    rammer_adjust: int | None = None,
    target_adjust: int | None = None,
) -> int:
    """D6 + declared bases − target's speed (DBA-RAM-05), plus each "ram" ship's stated +1 or −1
    (DBA-RAM-06, AMB-80/83)."""
    score = roll + declared_bases - target_speed
    score += ram_adjustment(rammer, rammer_adjust, rammer=True)
    score += ram_adjustment(target, target_adjust, rammer=False)
    return score


def ram_test(
    rammer: ShipStatus,
    target: ShipStatus,
    dice: Dice,
    *,
    kind: RamKind,
    edge: Edge,
    declared_bases: int | None,
    target_speed: int,
    rammer_adjust: int | None = None,
    target_adjust: int | None = None,
    log: EventLog | None = None,
) -> RamTest:
    """Roll the ram/collision test (DBA-RAM-03/05..09)."""
    if declared_bases is None or declared_bases < 1:
        raise IllegalOrderError(
            f"{rammer.name}: declare how many NIPs (bases) it will move before the ram test "
            "(DBA-RAM-03)"
        )
    if target_speed < 0:
        raise IllegalOrderError(f"{target.name}: a speed cannot be negative")
    # DBA-RAM-06: the rammer states its choice before the target decides.
    for status, choice, is_rammer in (
        (rammer, rammer_adjust, True),
        (target, target_adjust, False),
    ):
        adj = ram_adjustment(status.ship, choice, rammer=is_rammer)
        if status.ship.is_ram and log is not None:
            word = "adds one" if adj > 0 else "deducts one" if adj < 0 else "leaves the score"
            log.emit(
                EventKind.COLLISION,
                f"{status.name} (a ram, {'rammer' if is_rammer else 'target'}) {word} (DBA-RAM-06)",
                ship=status.name,
                public=True,
                adjust=adj,
            )
    roll = dice.d6(
        f"{kind.value} ram on {target.name}'s {edge.value} (DBA-RAM-05)", ship=rammer.name
    )
    score = ram_score(
        roll,
        rammer=rammer.ship,
        target=target.ship,
        declared_bases=declared_bases,
        target_speed=target_speed,
        rammer_adjust=rammer_adjust,
        target_adjust=target_adjust,
    )
    threshold = effective_threshold(edge, kind)
    test = RamTest(roll, score, threshold, score >= threshold, score <= COUNTER_RAM_AT_MOST)
    if log is not None:
        verdict = (
            "effective ram"
            if test.effective
            else "target rams the rammer"
            if test.counter_ram
            else "no effective ram"
        )
        log.emit(
            EventKind.COLLISION,
            f"{rammer.name} → {target.name} ({edge.value}, {kind.value}): score {score} "
            f"(needs {threshold}) → {verdict}",
            ship=rammer.name,
            public=True,
            score=score,
        )
    return test


def relative_size(
    rammer: ShipFactors,
    target: ShipFactors,
    *,
    rammer_bases: int,
    core: CoreTables | None = None,
) -> str:
    """The size level of DBA-RAM-11: smaller / same / larger / much_larger."""
    core = core or load_core()
    diff = rammer.size - target.size
    same, larger, much = core.ram_thresholds
    level = 0 if diff < same else 1 if diff < larger else 2 if diff < much else 3
    if rammer_bases <= 1:
        level = max(level - 1, 0)  # "smaller" is the minimum
    if rammer.is_ram:
        level = min(level + 1, len(RAM_LEVELS) - 1)
    return RAM_LEVELS[level]


def reduce_level(result: RamResult) -> RamResult:
    """One level milder: S → C → D → OK (DBA-RAM-16)."""
    return _ORDER[max(_ORDER.index(result) - 1, 0)]


def ram_effect(
    level: str, *, edge: Edge, core: CoreTables | None = None
) -> tuple[RamResult, RamResult]:
    """(rammer, target) results for a size level; stern-edge rams reduced (DBA-RAM-16, AMB-81)."""
    core = core or load_core()
    rammer_r, target_r = core.ram_results[level]
    if edge is Edge.STERN:
        return reduce_level(rammer_r), reduce_level(target_r)
    return rammer_r, target_r


@dataclass(frozen=True, slots=True)
class RamOutcome:
    """Everything one ram or collision did."""

    rammer: str
    target: str
    test: RamTest
    level: str | None = None
    rammer_result: RamResult = RamResult.OK
    target_result: RamResult = RamResult.OK
    rammer_final: Result = Result.NONE
    target_final: Result = Result.NONE
    placement: Placement = Placement.PASSES_THROUGH
    rammer_stopped: bool = False
    target_stopped: bool = False

    @property
    def effective(self) -> bool:
        """Did the mover ram effectively?"""
        return self.test.effective

    @property
    def counter_ram(self) -> bool:
        """Did the target ram the mover (DBA-RAM-09)?"""
        return self.test.counter_ram


def _apply(status: ShipStatus, result: RamResult, log: EventLog | None, core: CoreTables) -> Result:
    """Apply a ram result: D or C start flooding even on a crippled ship (DBA-RAM-13/14/17)."""
    final = apply_result(status, _AS_RESULT[result], cause="ram", log=log, core=core, ram=True)
    if result in (RamResult.D, RamResult.C):
        start_flooding(status, why="ram", log=log)
    return final


def resolve_ram(
    rammer: ShipStatus,
    target: ShipStatus,
    dice: Dice,
    *,
    kind: RamKind,
    edge: Edge,
    declared_bases: int,
    target_speed: int,
    bases_left: int = 0,
    rammer_adjust: int | None = None,
    target_adjust: int | None = None,
    options: Options = DEFAULT_OPTIONS,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> RamOutcome:
    """Test and resolve one ram or collision.

    ``bases_left`` is the mover's moves left after contact (DBA-RAM-10). A counter-ram (score 1
    or less) is resolved as an effective ram by the target into the mover's broadside, its size
    level using the target's ``target_speed`` (our reading; docs/rules-gaps/dba.md).
    """
    if not options.ramming:
        raise IllegalOrderError("ramming is switched off for this game (option 'ramming')")
    core = core or load_core()
    test = ram_test(
        rammer,
        target,
        dice,
        kind=kind,
        edge=edge,
        declared_bases=declared_bases,
        target_speed=target_speed,
        rammer_adjust=rammer_adjust,
        target_adjust=target_adjust,
        log=log,
    )
    if test.counter_ram:
        level = relative_size(
            target.ship, rammer.ship, rammer_bases=max(target_speed, 0), core=core
        )
        striker_r, struck_r = ram_effect(level, edge=Edge.BROADSIDE, core=core)
        target_final = _apply(target, striker_r, log, core)
        rammer_final = _apply(rammer, struck_r, log, core)
        stopped = struck_r in (RamResult.D, RamResult.C, RamResult.S)
        return RamOutcome(
            rammer.name,
            target.name,
            test,
            level,
            struck_r,
            striker_r,
            rammer_final,
            target_final,
            Placement.STOPS if stopped else Placement.PASSES_THROUGH,
            rammer_stopped=stopped,
        )
    if not test.effective:
        placement = Placement.PASSES_THROUGH
        if edge is not Edge.BROADSIDE and bases_left <= 1:
            placement = Placement.BROADSIDE_TO_BROADSIDE  # DBA-RAM-10
        return RamOutcome(rammer.name, target.name, test, placement=placement)
    level = relative_size(rammer.ship, target.ship, rammer_bases=declared_bases, core=core)
    rammer_r, target_r = ram_effect(level, edge=edge, core=core)
    rammer_final = _apply(rammer, rammer_r, log, core)
    target_final = _apply(target, target_r, log, core)
    placement = Placement.PASSES_THROUGH  # DBA-RAM-15: OK carries on
    rammer_stopped = False
    if rammer_r is RamResult.C:  # DBA-RAM-14
        placement = (
            Placement.STOPS_SHORT if edge is Edge.BROADSIDE else (Placement.BROADSIDE_TO_BROADSIDE)
        )
        rammer_stopped = True
    elif rammer_r is RamResult.D:  # DBA-RAM-13
        if edge is Edge.BROADSIDE:
            placement, rammer_stopped = Placement.STOPS, True
        else:
            placement = Placement.BROADSIDE_TO_BROADSIDE  # neither ship is stopped
    elif rammer_r is RamResult.S:
        placement, rammer_stopped = Placement.STOPS, True
    target_stopped = edge is Edge.BROADSIDE and target_r is RamResult.D  # AMB-82
    for status, stop in ((rammer, rammer_stopped), (target, target_stopped)):
        if stop:
            status.stopped = True
    return RamOutcome(
        rammer.name,
        target.name,
        test,
        level,
        rammer_r,
        target_r,
        rammer_final,
        target_final,
        placement,
        rammer_stopped,
        target_stopped,
    )


@dataclass(frozen=True, slots=True)
class RamAttempt:
    """One of several movers meeting the same ship (DBA-RAM-04)."""

    rammer: ShipStatus
    kind: RamKind
    edge: Edge
    declared_bases: int
    #: Distance to the target at the start of the move (closest tests first).
    distance: float
    bases_left: int = 0


def resolve_movers(
    attempts: Sequence[RamAttempt],
    target: ShipStatus,
    dice: Dice,
    *,
    formation: Formation,
    target_speed: int,
    options: Options = DEFAULT_OPTIONS,
    log: EventLog | None = None,
    core: CoreTables | None = None,
) -> list[RamOutcome]:
    """DBA-RAM-04: test movers closest first; the first effective ram ends the tests; a
    counter-ram ends them in line abreast, while in line ahead the rest still test, the target now
    counting as stationary."""
    outcomes: list[RamOutcome] = []
    speed = target_speed
    for attempt in sorted(attempts, key=lambda a: a.distance):
        if target.sunk:
            break
        outcome = resolve_ram(
            attempt.rammer,
            target,
            dice,
            kind=attempt.kind,
            edge=attempt.edge,
            declared_bases=attempt.declared_bases,
            target_speed=speed,
            bases_left=attempt.bases_left,
            options=options,
            log=log,
            core=core,
        )
        outcomes.append(outcome)
        if outcome.effective:
            break
        if outcome.counter_ram:
            if formation is Formation.LINE_ABREAST:
                break
            speed = 0
    return outcomes
