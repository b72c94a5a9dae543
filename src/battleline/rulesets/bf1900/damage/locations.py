"""Damage locations (BF6-LOC-01): where on the ship a hit lands.

* flooding on the embattled side, explosions anywhere (BF6-FLD-01, AMB-21);
* main hits 1–3 forward / 4–6 aft for two positions, thirds with the embattled wing turret for a
  lozenge layout, a random choice among three or more (BF6-MAIN-01/02, AMB-34/35);
* secondary and tertiary hits at random over the whole ship (BF6-SEC-01/02);
* the compartment a gun position stands in (AMB-30).

Awkward choices use :func:`choose`, battleline's stand-in for the missing Battlefleet Randomizer
(REF-BF6-11): one 1D6 split into equal bands when it divides evenly, re-rolling faces too high for
four or five choices, and a single die of that many sides beyond six.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from battleline.engine.dice import Dice
from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.hits import Aspect
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog

T = TypeVar("T")

#: Lettered positions from bow to stern (BF6-POS-01..11), for "forward" and "aft" turrets.
POSITION_ORDER: tuple[str, ...] = (
    "stem", "A", "B", "C", "D", "E", "M", "N", "O", "P", "Q", "R",
    "centreline", "S", "T", "U", "V", "W", "X", "Y", "Z", "stern",
)  # fmt: skip

_FORWARD_POSITIONS = frozenset({"stem", "A", "B", "C", "D", "E"})
_AFT_POSITIONS = frozenset({"V", "W", "X", "Y", "Z", "stern"})
# The first letter of each pair is the port member (AMB-13); N, Q, T and centre-line amidships
# positions go to port amidships unless the ship data names a compartment.
_STARBOARD_POSITIONS = frozenset({"O", "R", "U"})


def choose(dice: Dice, options: Sequence[T], purpose: str, ship: str, *, die: int = 6) -> T:
    """Pick one of ``options`` at random (REF-BF6-11 stand-in; see the module docstring).

    One option needs no roll. Two, three or six split 1D6 into equal bands; four and five roll
    1D6 and re-roll faces above the count; more than six roll one die with that many faces.
    ``die`` is the edition's die (12 in the 1D12 edition, where 2, 3, 4 and 6 split it into
    bands: 1–6 / 7–12 for two, EX-BF12-02).
    """
    n = len(options)
    if n == 0:
        raise ValueError("nothing to choose from")
    if n == 1:
        return options[0]
    if die % n == 0:
        face = dice.roll(die, purpose, ship=ship)
        return options[(face - 1) * n // die]
    if n < die:
        while True:
            face = dice.roll(die, purpose, ship=ship)
            if face <= n:
                return options[face - 1]
    return options[dice.roll(n, purpose, ship=ship) - 1]


# -- flooding ------------------------------------------------------------------------------------

#: 1D6 thirds on the embattled side (BF6-FLD-01, EX-BF6-15, AMB-21): 1–2, 3–4, 5–6.
_FLOOD_THIRDS: dict[Aspect, tuple[Compartment, Compartment, Compartment]] = {
    Aspect.PORT: (Compartment.FORWARD, Compartment.PORT, Compartment.AFT),
    Aspect.STARBOARD: (Compartment.FORWARD, Compartment.STARBOARD, Compartment.AFT),
    Aspect.AHEAD: (Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD),
    Aspect.ASTERN: (Compartment.AFT, Compartment.PORT, Compartment.STARBOARD),
}

#: Explosion flooding: 1D6, 1 forward, 2 port, 3 starboard, 4 aft, re-roll 5–6 (AMB-21).
_FLOOD_ANY = (Compartment.FORWARD, Compartment.PORT, Compartment.STARBOARD, Compartment.AFT)


def flood_compartment(dice: Dice, aspect: Aspect | None, ship: str, *, die: int = 6) -> Compartment:
    """The compartment a flooding hit lands in (BF6-FLD-01, EX-BF6-15, AMB-21).

    A hit with an aspect lands in one of three zones on the embattled side (the die in thirds;
    a d12 in the 1D12 edition, BF12-FLD-01, EX-BF12-04); a hit with no aspect (an explosion)
    lands in any of the four.
    """
    if aspect is None:
        return choose(dice, _FLOOD_ANY, "explosion flooding location", ship, die=die)
    face = dice.roll(die, f"flooding location ({aspect.value})", ship=ship)
    return _FLOOD_THIRDS[aspect][(face - 1) * 3 // die]


def raise_flooding(
    log: ShipLog, compartment: Compartment, level: FloodLevel, events: EventLog
) -> bool:
    """Record a flooding result: the compartment keeps its most severe level (BF6-DMG-12).

    A new Heavy-or-worse result in a contained zone cancels the containment (BF6-REP-08,
    AMB-33). Damage flooding that rises above a counterflooded level makes the zone an ordinary
    flooded zone again (it then triggers Step One rolls). Returns whether the level rose.
    """
    state = log.compartments[compartment]
    if state.contained and level >= FloodLevel.HEAVY:
        state.contained = False
        events.emit(
            EventKind.FLOODING,
            f"{log.name}: new {level.name.title()} flooding in {compartment.value} "
            "breaks the containment (BF6-REP-08)",
            ship=log.name,
            compartment=compartment.value,
        )
    if level <= state.level:
        events.emit(
            EventKind.FLOODING,
            f"{log.name}: {level.name.title()} flooding in {compartment.value} "
            f"(already {state.level.name.title()})",
            ship=log.name,
            compartment=compartment.value,
            level=int(level),
            rose=False,
        )
        return False
    old = state.level
    state.level = level
    state.counterflooded = False
    was = "dry" if old is FloodLevel.NONE else old.name.title()
    events.emit(
        EventKind.FLOODING,
        f"{log.name}: {compartment.value} flooding {was} → {level.name.title()}",
        ship=log.name,
        compartment=compartment.value,
        level=int(level),
        rose=True,
    )
    return True


def position_compartment(mount: Mounting) -> Compartment:
    """The compartment a lettered position stands in (AMB-30).

    The ship data's ``compartment`` wins; otherwise A–E and stem are forward, V–Z and stern aft,
    and wing positions go to their side's amidships (first letter of a pair = port, AMB-13).
    """
    if mount.compartment is not None:
        return mount.compartment
    pos = mount.position or ""
    if pos in _FORWARD_POSITIONS:
        return Compartment.FORWARD
    if pos in _AFT_POSITIONS:
        return Compartment.AFT
    if pos in _STARBOARD_POSITIONS:
        return Compartment.STARBOARD
    return Compartment.PORT


# -- main hits -----------------------------------------------------------------------------------


def _order_key(mount: Mounting) -> int:
    pos = mount.position or ""
    return POSITION_ORDER.index(pos) if pos in POSITION_ORDER else len(POSITION_ORDER)


def main_positions(log: ShipLog) -> list[Mounting]:
    """The ship's main lettered positions, bow to stern."""
    mounts = [m for m in log.cls.mountings_of(GunClass.MAIN) if m.is_lettered]
    return sorted(mounts, key=_order_key)


def locate_main_hit(
    log: ShipLog, dice: Dice, aspect: Aspect | None, *, die: int = 6
) -> Mounting | None:
    """The main position a main hit strikes; ``None`` if the ship has none (BF6-DTYPE-02).

    Every position may be hit whatever its damage (BF6-LET-01). Two positions: 1–3 forward,
    4–6 aft (BF6-MAIN-01, EX-BF6-14). Lozenge layout: 1–2 forward, 3–4 the wing turret on the
    embattled side, 5–6 aft; from ahead, astern or an explosion a second 1D6 picks the wing,
    1–3 port, 4–6 starboard (BF6-MAIN-02, AMB-34). Otherwise a random choice (AMB-35).
    """
    mounts = main_positions(log)
    if not mounts:
        return None
    if log.cls.lozenge and len(mounts) == 4:
        fwd, aft = mounts[0], mounts[-1]
        wings = {position_compartment(m): m for m in mounts[1:3]}
        port = wings.get(Compartment.PORT, mounts[1])
        stbd = wings.get(Compartment.STARBOARD, mounts[2])
        face = dice.roll(die, "main hit location (lozenge thirds)", ship=log.name)
        third = (face - 1) * 3 // die
        if third == 0:
            return fwd
        if third == 2:
            return aft
        if aspect is Aspect.PORT:
            return port
        if aspect is Aspect.STARBOARD:
            return stbd
        return choose(dice, [port, stbd], "main hit wing turret", log.name, die=die)
    return choose(dice, mounts, "main hit location", log.name, die=die)


# -- secondary, tertiary and boat guns -----------------------------------------------------------


def gun_targets(log: ShipLog, gun_class: GunClass) -> list[Mounting]:
    """Mountings of one armament box that a hit can still find (BF6-SEC-01/02, BF6-PAT-01).

    Lettered positions always count (BF6-LET-01); a beam-pattern battery counts while it has an
    undamaged gun. The whole ship counts, not only the embattled side (BF6-SEC-02).
    """
    out: list[Mounting] = []
    for m in log.cls.mountings_of(gun_class):
        if m.is_lettered or any(mark is Mark.NONE for mark in log.batteries[m.key]):
            out.append(m)
    return out


def locate_gun_hit(
    log: ShipLog, gun_class: GunClass, dice: Dice, *, die: int = 6
) -> Mounting | None:
    """A random secondary/tertiary/boat mounting for one hit, or ``None`` (BF6-SEC-01)."""
    targets = gun_targets(log, gun_class)
    if not targets:
        return None
    return choose(dice, targets, f"{gun_class.value} hit location", log.name, die=die)
