"""Step 3 of a spell, combat: both sides' fire orders, torpedoes rolled first (DBA-TORP-06).

Ranges, arcs, the target's facing edge and the end-on corridor are measured between the bases
(:mod:`.table`). Splash confusion is counted per target among the ships that really fire
(DBA-TF-02, DBA-WC). A ship crippled in combat, or fouled by its nets, falls out of line one base
width away from the first ship that attacked it, onto a base of its own (DBA-OUT-03,
DBA-NET-04).

Who sees what: a torpedo launch and an attack's opposed dice and outcome are seen by both
players at the table (the firing side rolls its attack, the target's side its defence); what the
result does to the target's log is the owner's, except that a ship crippled or sunk, stopped or
falling out of line is seen by all. Torpedoes left are the owner's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventKind, EventLog
from battleline.errors import IllegalOrderError
from battleline.rulesets.dba.combat import Arc, Attack, gun_attacks
from battleline.rulesets.dba.factors import RangeBand
from battleline.rulesets.dba.orders import FireLine, FireOrder, RamChoice
from battleline.rulesets.dba.outcomes import CombatRound, fall_out_of_line
from battleline.rulesets.dba.spells import Resolver
from battleline.rulesets.dba.state import DbaState
from battleline.rulesets.dba.table import base_metres, bearing, in_corridor, measure
from battleline.rulesets.dba.tables import Result as Outcome
from battleline.rulesets.dba.tables import load_core
from battleline.rulesets.dba.torpedo_boats import share_fate
from battleline.rulesets.dba.torpedoes import multiple_torpedo_targets, torpedo_attack, torpedo_left


def resolve_combat(spell: int) -> Resolver:
    """Resolve one spell's fire."""

    def resolve(
        state: DbaState, orders: Mapping[str, object], dice: SeededDice, events: EventLog
    ) -> None:
        number = state.spell_number(spell)
        every: list[FireOrder] = [
            ln
            for side in state.sides
            for ln in orders.get(side, [])  # type: ignore[attr-defined]
        ]
        for choice in every:
            if isinstance(choice, RamChoice):
                state.ram_choice[choice.ship] = choice.adjust
        lines = [ln for ln in every if isinstance(ln, FireLine)]
        banned = {n for n, s in state.ships.items() if s.blast_ban}
        torpedoes = _torpedoes(state, spell, [ln for ln in lines if ln.torpedo], events)
        guns = _gunfire(state, spell, [ln for ln in lines if not ln.torpedo], events)
        first_from: dict[str, float] = {}
        for attack in (*torpedoes, *guns):
            first_from.setdefault(
                attack.target,
                bearing(state.poses[attack.target], state.poses[attack.shooter]),
            )
        was_out = {n for n, s in state.ships.items() if s.crippled or s.fouled}
        before = {n: (s.damage, s.crippled, s.sunk) for n, s in state.ships.items()}
        CombatRound(state.ships, torpedoes, guns).resolve(
            dice, options=state.options, log=events, core=load_core()
        )
        _share_fates(state, before, number, events)
        for name, s in state.ships.items():
            if (s.crippled or s.fouled) and not s.sunk and name not in was_out:
                fire_from = first_from.get(name)
                if fire_from is not None:  # DBA-OUT-03, DBA-NET-04 "as if crippled"
                    state.poses[name] = fall_out_of_line(
                        state.poses[name], fire_from, base_width=base_metres() / 2
                    )
                    s.base = ""
                    why = "crippled" if s.crippled else "fouled by its nets, stops"
                    events.emit(
                        EventKind.MOVE,
                        f"{name}: {why}, falls out of line (DBA-OUT-03)",
                        ship=name,
                        public=True,
                    )
            if name in banned:
                s.blast_ban -= 1

    return resolve


def _torpedoes(
    state: DbaState, spell: int, lines: Sequence[FireLine], events: EventLog
) -> list[Attack]:
    core = load_core()
    speller = state.speller(spell)
    adjacent = {
        t: [
            o
            for o in state.ships
            if o != t
            and not state.ships[o].sunk
            and measure(state.poses[t], state.poses[o])[0] <= 1.0
        ]
        for t in {ln.target for ln in lines}
    }
    multiple = multiple_torpedo_targets([ln.target for ln in lines], adjacent)
    out: list[Attack] = []
    for ln, many in zip(lines, multiple, strict=True):
        shooter = state.ships[ln.shooter]
        dist, arc, edge = measure(state.poses[ln.shooter], state.poses[ln.target])
        band = core.band(dist)
        try:
            if band is None:
                raise IllegalOrderError(f"{ln.target} is out of range")
            out.append(
                torpedo_attack(
                    shooter,
                    state.ships[ln.target],
                    af=ln.torpedo,
                    arc=arc,
                    band=band,
                    edge=edge,
                    own_spell=shooter.side == speller,
                    multiple=many,
                    conditions=state.conditions,
                    options=state.options,
                    core=core,
                )
            )
        except IllegalOrderError as exc:
            events.emit(
                EventKind.NOTE, f"{ln.shooter} does not fire torpedoes: {exc}", ship=ln.shooter
            )
            continue
        events.emit(
            EventKind.TORPEDO_LAUNCH,
            f"{ln.shooter} fires torpedoes at {ln.target} (a {ln.torpedo}-factor marker on its "
            "base, DBA-TORP-07)",
            ship=ln.shooter,
            public=True,
            target=ln.target,
        )
        events.emit(
            EventKind.NOTE,
            f"{ln.shooter} has {torpedo_left(shooter)} torpedo factor left",
            ship=ln.shooter,
        )
    return out


def _gunfire(
    state: DbaState, spell: int, lines: Sequence[FireLine], events: EventLog
) -> list[Attack]:
    """Check every gun line first; only ships that really fire count for splash confusion."""
    core = load_core()
    speller = state.speller(spell)
    number = state.spell_number(spell)
    fired: dict[str, Arc] = {}
    gun_count = {sh: sum(ln.shooter == sh for ln in lines) for sh in shooters_of(lines)}

    def shots(
        ln: FireLine, arc: Arc, band: RangeBand, second: bool, splash_mod: int
    ) -> list[Attack]:
        return gun_attacks(
            state.ships[ln.shooter],
            state.ships[ln.target],
            arc=arc,
            band=band,
            own_spell=state.ships[ln.shooter].side == speller,
            second_target=second,
            both_broadsides=gun_count[ln.shooter] > 1,  # DBA-TGT-02/04
            in_corridor=in_corridor(state.poses[ln.shooter], state.poses[ln.target]),
            splash=splash_mod,
            conditions=state.conditions,
            options=state.options,
            core=core,
        )

    valid: list[tuple[FireLine, Arc, RangeBand, bool]] = []
    for ln in lines:
        dist, arc, _edge = measure(state.poses[ln.shooter], state.poses[ln.target])
        band = core.band(dist)
        second = ln.shooter in fired
        try:
            if band is None:
                raise IllegalOrderError(f"{ln.target} is beyond extreme range")
            if second and not (
                arc.broadside and fired[ln.shooter].broadside and arc is not fired[ln.shooter]
            ):
                raise IllegalOrderError("a second target must be on the opposite beam")
            made = shots(ln, arc, band, second, 0)
        except IllegalOrderError as exc:
            events.emit(EventKind.NOTE, f"{ln.shooter} does not fire: {exc}", ship=ln.shooter)
            continue
        fired.setdefault(ln.shooter, arc)
        if not made:  # AMB-94: no roll, and no splash either
            events.emit(
                EventKind.NOTE,
                f"{ln.shooter}'s light guns cannot hurt {ln.target} (DBA-SCG-01)",
                ship=ln.shooter,
            )
            continue
        valid.append((ln, arc, band, second))
    shooters_at: dict[str, list[str]] = {}
    for ln, *_rest in valid:
        shooters_at.setdefault(ln.target, []).append(ln.shooter)
    penalties: dict[tuple[str, str], int] = {}
    for target, shooters in shooters_at.items():
        stopped = state.ships[target].stopped
        with events.shown_to(*state.sides):
            for shooter, value in state.splash.fire(
                number, target, shooters, target_stopped=stopped, core=core
            ).items():
                penalties[(shooter, target)] = value
    guns: list[Attack] = []
    for ln, arc, band, second in valid:
        guns.extend(shots(ln, arc, band, second, penalties[(ln.shooter, ln.target)]))
    return guns


def _share_fates(
    state: DbaState, before: Mapping[str, tuple[int, bool, bool]], number: int, events: EventLog
) -> None:
    """DBA-TBL-06: TBs launched this spell share what their mother suffered in it."""
    for mother_name in {m for m, sp in state.launched.values() if sp == number}:
        mother = state.ships[mother_name]
        damage, crippled, sunk = before[mother_name]
        result = (
            Outcome.SUNK
            if mother.sunk and not sunk
            else Outcome.CRIPPLED
            if mother.crippled and not crippled
            else Outcome.DAMAGED
            if mother.damage > damage
            else Outcome.NONE
        )
        tbs = [
            state.ships[t]
            for t, (m, sp) in state.launched.items()
            if m == mother_name and sp == number
        ]
        share_fate(mother, result, tbs, log=events)


def shooters_of(lines: Sequence[FireLine]) -> list[str]:
    """The shooters of some fire lines, each once, in order."""
    return list(dict.fromkeys(ln.shooter for ln in lines))
