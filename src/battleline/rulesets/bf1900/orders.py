"""Each phase's orders read and checked when a side seals them: divisional and fleet orders (planned
on submission), the gunnery log, torpedo launches and damage-control declarations. A target the
side cannot see is refused as not in sight (BF6-LOS-01). Nothing a side submits fails later at
resolution.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.bf1900 import command, gunnery, notation, torpedoes
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration, parse_declarations
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.game_data import land_of, scale_of
from battleline.rulesets.bf1900.observation import observing, sighted
from battleline.rulesets.bf1900.planning import PlannedMove
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.victory import intact

#: A damage-control declaration of either edition.
D = TypeVar("D")

# -- order parsing ---------------------------------------------------------------------------


def own_ship(state: Bf1900State, side: str, name: str, phase: str) -> ShipLog:
    """The log of ``name``, refused unless she is a ship of ``side``."""
    log = state.logs.get(name)
    if log is None:
        raise IllegalOrderError(f"turn {state.turn} {phase}: no ship named {name!r}")
    if log.side != side:
        raise IllegalOrderError(f"turn {state.turn} {phase}: {name} is not a ship of {side}")
    return log


def split_ship(text: str) -> tuple[str, str]:
    """``"<ship>: <order>"`` as ``(ship, order)``."""
    if ":" not in text:
        raise OrderSyntaxError(f"cannot read {text!r}: write '<ship>: <order>'")
    ship, rest = text.split(":", 1)
    return ship.strip(), rest.strip()


@dataclass(frozen=True, slots=True)
class SealedCommand:
    """One side's Command Phase orders as sealed: the orders by division, and the move each
    division's orders make, planned on submission (the Movement Phase carries it out)."""

    orders: dict[str, tuple[notation.Order, ...]]
    moves: dict[str, PlannedMove]


def parse_command(state: Bf1900State, side: str, texts: Sequence[str]) -> SealedCommand:
    """Read ``<division>: <orders>`` lines (BF6-CMD-01..17 in ``notation``; fleet messages as
    ``SIG ...``), check each division's orders and plan its move (``command.check_and_plan``)."""
    out: dict[str, tuple[notation.Order, ...]] = {}
    for text in texts:
        if ":" not in text:
            raise OrderSyntaxError(
                f"turn {state.turn} command: cannot read {text!r}; write '<division>: <orders>', "
                "e.g. '1st Division: SPD12 TS90S'"
            )
        name, rest = (part.strip() for part in text.split(":", 1))
        division = state.divisions.get(name)
        if division is None or division.side != side:
            known = sorted(n for n, d in state.divisions.items() if d.side == side)
            raise IllegalOrderError(
                f"turn {state.turn} command: {side} has no division {name!r} "
                f"(its divisions: {', '.join(known)}; BF6-CMD-02)"
            )
        out[name] = out.get(name, ()) + notation.parse_orders(rest)
    # Every check the Command Phase makes without dice, done now: stop with another order,
    # impossible speeds (BF6-MOV-01/03/06), ineligible drop-outs (BF6-CMD-16) and flag transfers
    # (BF6-CMD-19), so nothing a side submits can fail later at resolution.
    _, moves = command.check_and_plan(
        state.divisions, out, state.logs, state.poses, scale_of(state), state.moved_last_m
    )
    for name, orders in out.items():
        surrender = [
            o
            for o in orders
            if isinstance(o, notation.Signal) and o.message is notation.FleetMessage.SURRENDER
        ]
        if surrender and not get_scenario(state.scenario).option("surrender", True):
            raise IllegalOrderError(
                f"turn {state.turn} command: {name}: this scenario allows no surrender "
                "(option 'surrender' is off; BF6-CMD-32)"
            )
    return SealedCommand(out, moves)


def _in_sight(
    state: Bf1900State, side: str, phase: str, shots: Sequence[tuple[str, str]]
) -> dict[str, str] | None:
    """Refuse a ``(firer, target)`` whose target is an enemy ship the side cannot see (not in
    its view): "not in sight", without a word of where she is or what hides her (BF6-LOS-01;
    issue 11, §4). Unknown names, own ships and the sunk are left to the phase's own checks.
    Returns what the side sees (:func:`sighted`) when it had to look."""
    if not shots or not observing(state):
        return None
    seen: dict[str, str] | None = None
    for firer, target in shots:
        log = state.logs.get(target)
        if log is None or log.side == side or not log.afloat:
            continue
        if seen is None:
            seen = sighted(state, side)
        if target not in seen:
            raise IllegalOrderError(
                f"turn {state.turn} {phase}: {firer} firing at {target}: not in sight (BF6-LOS-01)"
            )
    return seen


def _shown(state: Bf1900State, side: str, seen: dict[str, str] | None) -> set[str] | None:
    """The ships an answer to ``side`` may name: its own and the enemy ships in its view
    (``seen``, or :func:`sighted` when not given; ``None`` when every ship afloat is in view,
    the observation model off)."""
    if not observing(state):
        return None
    if seen is None:
        seen = sighted(state, side)
    return {n for n, log in state.logs.items() if log.side == side} | set(seen)


def parse_torpedoes(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[torpedoes.TorpedoLaunch]:
    """Read and check torpedo launches (BF6-TORP-02..10) with ``torpedoes``."""
    launches = [torpedoes.TorpedoLaunch.parse(t) for t in texts]
    for launch in launches:
        own_ship(state, side, launch.firer, "torpedo")
    _in_sight(state, side, "torpedo", [(la.firer, la.target) for la in launches])
    if launches:
        torpedoes.validate_launches(
            launches, state.poses, state.logs, scale_of(state), land_of(state)
        )
    return launches


def parse_gunnery(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[gunnery.GunneryEntry]:
    """Read and check a side's gunnery log (BF6-GUN-01/02, BF6-TGT, BF6-LOS, BF6-ROF, arcs)."""
    entries = [gunnery.GunneryEntry.parse(t, side) for t in texts]
    for e in entries:
        own_ship(state, side, e.firer, "gunnery")
    surprised = get_scenario(state.scenario).surprised_until(side) if entries else 0
    if state.turn <= surprised:
        raise IllegalOrderError(
            f"turn {state.turn} gunnery: {entries[0].firer} cannot fire: {side} was taken by "
            f"surprise and its guns are unmanned until turn {surprised + 1} (scenario "
            "[[sides]] surprised_turns)"
        )
    seen = _in_sight(state, side, "gunnery", [(e.firer, e.target) for e in entries])
    if entries:
        gunnery.validate_entries(
            entries,
            state.poses,
            state.logs,
            scale_of(state),
            land=land_of(state),
            turn=state.turn,
            side=side,
            shown=_shown(state, side, seen),
        )
    return entries


def parse_damage_control(
    state: Bf1900State, side: str, texts: Sequence[str]
) -> list[DCDeclaration]:
    """Read ``<ship>: P; M:A`` lines: each ship's Step Three declarations, named before any die
    is rolled (BF6-REP-05), checked against its log (BF6-DC-02/04, BF6-SINK-03)."""
    return read_declarations(state, side, texts, parse_declarations, validate_declarations)


def read_declarations(
    state: Bf1900State,
    side: str,
    texts: Sequence[str],
    parse: Callable[[str, str], list[D]],
    check: Callable[[ShipLog, list[D]], None],
) -> list[D]:
    """Read ``<ship>: <declarations>`` lines of either edition's damage control: each line is
    ``parse``d for one of the side's own ships and ``check``ed with all that ship's declarations
    so far, so a ship's lines are judged together."""
    out: list[D] = []
    per_ship: dict[str, list[D]] = {}
    for text in texts:
        ship, rest = split_ship(text)
        log = own_ship(state, side, ship, "damage")
        decls = parse(ship, rest)
        per_ship.setdefault(ship, []).extend(decls)
        check(log, per_ship[ship])
        out.extend(decls)
    return out


def has_damage_control(state: Bf1900State, side: str) -> bool:
    """Whether any of the side's ships has DC dice and something to spend them on."""
    return any(
        log.side == side and log.in_battle and log.dc_dice > 0 and not intact(log)
        for log in state.logs.values()
    )
