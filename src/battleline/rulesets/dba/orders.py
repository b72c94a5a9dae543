"""The DBA order notations and the checks made when orders are submitted.

Movement (the speller's ``move-N`` phase), one line per ship or squadron (a squadron order is a
group move)::

    Peiyang: 1                 one base straight on
    Flying Squadron: T-45 2    turn 45° to port, then two bases
    Yoshino: stop
    Naniwa: nets down          (nets option; "nets up" raises them)
    Red: succession T90 1      turn in succession (DBA-WC-01); "succession 2" carries on round
    Conqueror: ram Hoche 2 +1  head for Hoche, run two bases; a "ram" states +1, -1 or 0
    Inflexible: launch TB      (tb_launch option, DBA-TBL-02)

Fire (both sides, ``combat-N``)::

    Ting Yuen -> Yoshino               gunfire; a second line is a second target (DBA-TGT-05)
    Kotaka torpedo 1 -> Ting Yuen      a torpedo attack at factor 1 or 2
    Hoche: if rammed -1                a "ram" target's standing choice (DBA-RAM-06)

Each line prints back as it was read (``str(line)``). A line that breaks a rule is refused with
an ``IllegalOrderError`` naming the ship and the rule; the state is not touched.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace

from battleline.errors import IllegalOrderError, OrderSyntaxError
from battleline.rulesets.dba.factors import ShipFactors, ShipType, load_annex_a
from battleline.rulesets.dba.movement import (
    TurnTogetherLock,
    change_nets_cost,
    check_allocation,
    group_move_cost,
    move_cost,
)
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.status import ShipStatus
from battleline.rulesets.dba.tables import load_core
from battleline.rulesets.dba.torpedo_boats import LAUNCH_NIPS, launch_tb

_MOVE = re.compile(r"^\s*(?P<who>[^:]+?)\s*:\s*(?P<what>.+?)\s*$")
_STEP = re.compile(r"^(?:T(?P<turn>[+-]?\d+(?:\.\d+)?)\s+)?(?P<bases>\d+)$", re.IGNORECASE)
_RAM = re.compile(
    r"^ram\s+(?P<target>.+?)\s+(?P<bases>\d+)(?:\s+(?P<adjust>[+-]1|0))?$", re.IGNORECASE
)
_FIRE = re.compile(
    r"^\s*(?P<shooter>.+?)\s+(?:torpedo\s+(?P<af>\d)\s+)?->\s*(?P<target>.+?)\s*$", re.IGNORECASE
)
_IF_RAMMED = re.compile(r"^\s*(?P<ship>[^:]+?)\s*:\s*if rammed\s+(?P<adjust>[+-]1|0)\s*$", re.I)


@dataclass(frozen=True, slots=True)
class MoveLine:
    """One movement order."""

    who: str
    turn: float = 0.0
    bases: int = 0
    stop: bool = False
    nets: bool | None = None
    #: A turn in succession: each ship turns where the leader turned (DBA-WC-01).
    succession: bool = False
    #: A voluntary ram: head for this enemy ship and run ``bases`` (DBA-RAM-01/03).
    ram: str | None = None
    #: A "ram" rammer's stated +1 / −1 / 0 (DBA-RAM-06); ``None``: +1 if it is a ram.
    ram_adjust: int | None = None
    #: Launch one 2nd Class TB (DBA-TBL-02).
    launch: bool = False

    def __str__(self) -> str:
        if self.ram is not None:
            adj = "" if self.ram_adjust is None else f" {self.ram_adjust:+d}".replace("+0", "0")
            return f"{self.who}: ram {self.ram} {self.bases}{adj}"
        if self.stop:
            return f"{self.who}: stop"
        if self.launch:
            return f"{self.who}: launch TB"
        if self.nets is not None:
            return f"{self.who}: nets {'down' if self.nets else 'up'}"
        turn = f"T{self.turn:+g} " if self.turn else ""
        return f"{self.who}: {'succession ' if self.succession else ''}{turn}{self.bases}"


@dataclass(frozen=True, slots=True)
class FireLine:
    """One fire order."""

    shooter: str
    target: str
    torpedo: int = 0

    def __str__(self) -> str:
        torp = f" torpedo {self.torpedo}" if self.torpedo else ""
        return f"{self.shooter}{torp} -> {self.target}"


@dataclass(frozen=True, slots=True)
class RamChoice:
    """A "ram" ship's standing choice for when it is rammed (DBA-RAM-06): +1, −1 or 0."""

    ship: str
    adjust: int

    def __str__(self) -> str:
        return f"{self.ship}: if rammed {self.adjust:+d}".replace("+0", "0")


FireOrder = FireLine | RamChoice


def parse_move_line(text: str) -> MoveLine:
    """``"Yoshino: T-45 2"`` → turn 45° to port, then 2 bases."""
    m = _MOVE.match(text)
    if not m:
        raise OrderSyntaxError(f"cannot read {text!r}: write '<ship or squadron>: [T±deg] bases'")
    who, what = m.group("who"), m.group("what").strip().lower()
    ram = _RAM.match(m.group("what").strip())
    if ram:
        adjust = ram.group("adjust")
        return MoveLine(
            who,
            bases=int(ram.group("bases")),
            ram=ram.group("target"),
            ram_adjust=None if adjust is None else int(adjust),
        )
    if what == "stop":
        return MoveLine(who, stop=True)
    if what == "launch tb":
        return MoveLine(who, launch=True)
    if what in ("nets down", "nets up"):
        return MoveLine(who, nets=what.endswith("down"))
    succession = what.startswith("succession ")
    if succession:
        what = what.removeprefix("succession ").strip()
    step = _STEP.match(what)
    if not step:
        raise OrderSyntaxError(
            f"cannot read {text!r}: after the colon write '[T±degrees] bases', 'stop', "
            "'ram <ship> <bases> [+1|-1|0]' or 'nets down'/'nets up'"
        )
    turn = float(step.group("turn") or 0.0)
    if abs(turn) > 180:
        raise OrderSyntaxError(f"{text!r}: a turn is at most 180°")
    return MoveLine(who, turn, int(step.group("bases")), succession=succession)


def parse_fire_line(text: str) -> FireOrder:
    """``"Yoshino -> Chih Yuen"``, ``"Kotaka torpedo 2 -> Ting Yuen"`` or
    ``"Hoche: if rammed -1"``."""
    choice = _IF_RAMMED.match(text)
    if choice:
        return RamChoice(choice.group("ship").strip(), int(choice.group("adjust")))
    m = _FIRE.match(text)
    if not m:
        raise OrderSyntaxError(
            f"cannot read {text!r}: write '<shooter> -> <target>', "
            "'<shooter> torpedo <1|2> -> <target>' or '<ship>: if rammed <+1|-1|0>'"
        )
    return FireLine(m.group("shooter").strip(), m.group("target").strip(), int(m.group("af") or 0))


# -- movement checks ------------------------------------------------------------------------
@contextmanager
def _on_line(text: str) -> Iterator[None]:
    """Name the order line in a rule breach found while checking it."""
    try:
        yield
    except IllegalOrderError as exc:
        raise IllegalOrderError(f"order {text.strip()!r}: {exc}") from None


def check_moves(state: DbaState, side: str, texts: Sequence[str], spell: int) -> list[MoveLine]:
    """Parse and check the speller's movement orders (NIPs, speeds, crippled-first, locks)."""
    lines: list[MoveLine] = []
    for text in (t for t in texts if t.strip()):
        with _on_line(text):
            line = _checked_ram(state, side, parse_move_line(text))
            _check_move_line(state, side, line)
            lines.append(line)
    _check_launches(state, lines)
    costs(state, side, lines, spell)
    return lines


def _check_move_line(state: DbaState, side: str, line: MoveLine) -> None:
    """One movement line: own ship or squadron afloat, succession, fouled nets."""
    squadrons = state.squadrons(side)
    if line.who in state.ships:
        ship = state.ships[line.who]
        if ship.side != side:
            raise IllegalOrderError(f"{line.who} is not a ship of {side}")
        if ship.sunk:
            raise IllegalOrderError(f"{line.who} is sunk")
    elif line.who not in squadrons:
        raise IllegalOrderError(f"{line.who!r} is neither a ship nor a squadron of {side}")
    if line.succession and line.who not in squadrons:
        raise IllegalOrderError(f"{line.who}: only a squadron turns in succession")
    if line.succession and not line.turn and line.who not in state.turn_points:
        raise IllegalOrderError(f"{line.who}: no turn in succession to continue; give T±degrees")
    moving = line.bases > 0 or line.ram is not None
    for m in state.members(side, line.who):
        if moving and m.fouled:
            raise IllegalOrderError(
                f"{m.name}: fouled by its nets, stopped as if crippled until cut free (DBA-NET-04)"
            )


def _tb2() -> ShipFactors:
    return next(s for s in load_annex_a().ships.values() if s.type is ShipType.TB_2)


def _check_launches(state: DbaState, lines: Sequence[MoveLine]) -> None:
    """A launching mother makes no other move this spell and keeps the launch limits
    (DBA-TBL-02/03, AMB-97); the launches themselves are checked by ``launch_tb``."""
    launching = {ln.who for ln in lines if ln.launch}
    if launching and state.options.rough_weather:
        raise IllegalOrderError(
            f"{', '.join(sorted(launching))}: 2nd Class TBs stay aboard in rough weather "
            "(DBA-RW-03)"
        )
    for name in launching:
        if name not in state.ships:
            raise IllegalOrderError(f"{name}: only a single ship launches TBs")
        count = sum(ln.launch and ln.who == name for ln in lines)
        mother = state.ships[name]
        probe = ShipStatus(
            mother.ship,
            tbs_carried=mother.tbs_carried,
            crippled=mother.crippled,
            stopped=True,
            name=name,
        )
        for i in range(count):
            launch_tb(probe, _tb2(), spell=0, launched_this_spell=i, options=state.options)
    for ln in lines:
        moving = not ln.launch and not ln.stop and ln.nets is None
        names = (
            [ln.who]
            if ln.who in state.ships
            else [n for n, s in state.ships.items() if s.squadron == ln.who and not s.sunk]
        )
        if moving and any(m in launching for m in names):
            raise IllegalOrderError(
                f"{ln.who}: a ship launching a TB must stay stopped this spell (DBA-TBL-02, AMB-97)"
            )


def _checked_ram(state: DbaState, side: str, line: MoveLine) -> MoveLine:
    """A ram order names one of the speller's ships and an enemy afloat (DBA-RAM-01)."""
    if line.ram is None:
        return line
    if not state.options.ramming:
        raise IllegalOrderError(f"{line.who}: ramming is switched off (option 'ramming')")
    if line.who not in state.ships:
        raise IllegalOrderError(f"{line.who}: only a single ship rams")
    target = next((n for n in state.ships if n.lower() == line.ram.strip().lower()), None)
    if target is None or state.ships[target].sunk:
        raise IllegalOrderError(f"{line.who}: no ship {line.ram!r} afloat to ram")
    if state.ships[target].side == side:
        raise IllegalOrderError(
            f"{line.who}: will not ram the friendly {target}; collisions are involuntary "
            "(DBA-RAM-01)"
        )
    if line.bases < 1:
        raise IllegalOrderError(f"{line.who}: declare at least one base for a ram (DBA-RAM-03)")
    if line.ram_adjust and not state.ships[line.who].ship.is_ram:
        raise IllegalOrderError(
            f'{line.who}: only a "ram" may add or deduct one on the ram score (DBA-RAM-06)'
        )
    return replace(line, ram=target)


def costs(state: DbaState, side: str, lines: Sequence[MoveLine], spell: int) -> dict[str, int]:
    """NIPs per squadron for these orders; raises on a rule breach."""
    core = load_core()
    options = state.options
    spent: dict[str, dict[str, int]] = {}
    lock = TurnTogetherLock(dict(state.lock))
    number = state.spell_number(spell)
    nets_now = {n: s.nets_lowered for n, s in state.ships.items()}
    for line in lines:
        with _on_line(str(line)):
            members = []
            for m in state.members(side, line.who):  # nets as the earlier lines left them
                probe = m.copy()
                probe.nets_lowered = nets_now[m.name]
                members.append(probe)
            squadron = members[0].squadron
            if line.nets is not None:
                cost = change_nets_cost(
                    [ShipStatus(m.ship, nets_lowered=m.nets_lowered) for m in members],
                    lower=line.nets,
                    options=options,
                )
                nets_now.update(dict.fromkeys((m.name for m in members), line.nets))
            elif line.stop:
                cost = 0
            elif line.launch:
                cost = LAUNCH_NIPS  # DBA-TBL-02
            elif line.ram is not None:
                cost = move_cost(members[0], line.bases, turns=1, options=options, core=core).nips
            else:
                turns = 1 if line.turn and not line.succession else 0
                if line.succession:
                    cost = group_move_cost(members, line.bases, options=options, core=core).nips
                elif len(members) > 1:
                    if turns:
                        lock.check(squadron, number)
                    cost = group_move_cost(
                        members, line.bases, turns=turns, options=options, core=core
                    ).nips
                else:
                    cost = move_cost(
                        members[0], line.bases, turns=turns, options=options, core=core
                    ).nips
        spent.setdefault(squadron, {})
        spent[squadron][line.who] = spent[squadron].get(line.who, 0) + cost
    for squadron, alloc in spent.items():
        groups = {
            k: [s.name for s in state.members(side, k)] for k in alloc if k not in state.ships
        }
        check_allocation(
            squadron,
            state.squadrons(side)[squadron],
            alloc,
            groups=groups,
            nips=state.nips.get(squadron, 0),
        )
    return {sq: sum(a.values()) for sq, a in spent.items()}


# -- fire checks ----------------------------------------------------------------------------
def check_fire(state: DbaState, side: str, texts: Sequence[str]) -> list[FireOrder]:
    """Parse and check one side's fire orders (names, sides, at most two gun targets)."""
    lines: list[FireOrder] = []
    guns: dict[str, int] = {}
    for text in (t for t in texts if t.strip()):
        with _on_line(text):
            line = parse_fire_line(text)
            _check_fire_line(state, side, line, guns)
            lines.append(line)
    return lines


def _check_fire_line(state: DbaState, side: str, line: FireOrder, guns: dict[str, int]) -> None:
    """One fire line: own shooter, enemy target, at most two gun targets a ship."""
    if isinstance(line, RamChoice):
        ship = state.ships.get(line.ship)
        if ship is None or ship.side != side or ship.sunk:
            raise IllegalOrderError(f"no ship {line.ship!r} of {side} afloat")
        if not ship.ship.is_ram:
            raise IllegalOrderError(
                f'{line.ship}: only a "ram" may add or deduct one when rammed (DBA-RAM-06)'
            )
        return
    for name in (line.shooter, line.target):
        if name not in state.ships or state.ships[name].sunk:
            raise IllegalOrderError(f"no ship {name!r} afloat in this game")
    if state.ships[line.shooter].side != side:
        raise IllegalOrderError(f"{line.shooter} is not a ship of {side}")
    if state.ships[line.target].side == side:
        raise IllegalOrderError(f"{line.shooter}: {line.target} is a friendly ship")
    if not line.torpedo:
        guns[line.shooter] = guns.get(line.shooter, 0) + 1
        if guns[line.shooter] > 2:
            raise IllegalOrderError(f"{line.shooter}: at most two gun targets a spell")
