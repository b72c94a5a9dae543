"""The order forms of the web page, as data: what a side may order in the open phase.

:func:`form_data` describes one form per phase for one side, built from that side's view (the
enemy only as its contacts, where she appears to be) and its own ships' logs, with the rules'
own functions: the speeds a division may order (BF6-MOV-01/03/06, ``movement.allowance_at``),
the drop-outs and flag transfers open to it (BF6-CMD-16/19), the fleet messages (BF6-CMD-25..32);
per ship the mountings that bear on each seen ship (``arcs.bearing_guns``, the gunnery check's
arc test, taken to where the contact appears), their ROF and the rounds they may fire
(BF6-ROF-01..07); the torpedo tubes left and their arcs (BF6-TORP-03/09/10); the damage-control
declarations the phase's own check accepts for the ship's actual damage (BF6-DC-01..04).

Nothing here reads an enemy ship's true pose or log: no true range, no enemy coordinate. The
range estimate stays a free number (BF6-GUN-02). :func:`compose` (``web_compose``) turns a filled
form into the phase's notation with the ruleset's own printers. The 1D12 edition and TGD borrow
this module (``PARTS_FROM``); a phase it has no form for (TGD's fire steps) gets ``None``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

from battleline.engine.events import EventLog
from battleline.errors import BattlelineError, IllegalOrderError
from battleline.rulesets.bf1900 import command, torpedoes
from battleline.rulesets.bf1900.arcs import bearing_guns, mounting_arcs
from battleline.rulesets.bf1900.damage.declarations import DCAction
from battleline.rulesets.bf1900.gunnery_checks import rounds_per_gun, salvos_per_turn
from battleline.rulesets.bf1900.movement import allowance_at
from battleline.rulesets.bf1900.notation import FleetMessage
from battleline.rulesets.bf1900.observation import Contact
from battleline.rulesets.bf1900.scales import BRACKETS, Scale, get_scale
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900.table import funnel_point
from battleline.rulesets.bf1900.web_compose import Composed, compose, field_of

Form = dict[str, Any]


def form_data(game: Any, side: str) -> Form | None:
    """The form of the open phase for ``side``, or ``None`` when this module has none for it
    (the page falls back to the notation box)."""
    build = _BUILDERS.get(game.spec.name)
    if build is None:
        return None
    view = game.view(side, since=len(game.events))
    out: Form = {"kind": game.spec.name, "turn": view.turn, "side": side}
    out.update(build(game, side, view))
    return out


# -- command -------------------------------------------------------------------------------


def _tenths_down(knots: float) -> float:
    return math.floor(knots * 10.0 + 1e-6) / 10.0


def _tenths_up(knots: float) -> float:
    return math.ceil(knots * 10.0 - 1e-6) / 10.0


def speed_range(
    ships: Iterable[str], logs: dict[str, ShipLog], scale: Scale, last: dict[str, float]
) -> tuple[float, float] | None:
    """The speeds in knots (tenths) a division of ``ships`` may order this turn: no more than
    each ship's top undamaged box or one box above her last move (BF6-MOV-01/03), no less than
    her minimum movement (BF6-MOV-06); ``None`` when no ship can move."""
    lo_kn, hi_kn = 0.0, math.inf
    able = False
    for ship in ships:
        log = logs[ship]
        knots = log.speed_knots
        moved = last.get(ship, scale.knots_to_m_per_turn(knots))
        lo, hi = allowance_at(log, scale, moved, knots)
        if hi <= 0:
            continue
        able = True
        hi_kn = min(hi_kn, scale.m_per_turn_to_knots(min(hi, scale.knots_to_m_per_turn(knots))))
        lo_kn = max(lo_kn, scale.m_per_turn_to_knots(lo))
    if not able:
        return None
    return _tenths_up(lo_kn), _tenths_down(hi_kn)


def _speed(division: Any, logs: dict[str, ShipLog], scale: Scale, last: dict[str, float]) -> Form:
    bounds = speed_range(division.ships, logs, scale, last)
    last_kn = round(scale.m_per_turn_to_knots(last.get(division.lead, 0.0)), 1)
    if bounds is None:
        return {"min": 0.0, "max": 0.0, "choices": [], "last": last_kn}
    lo, hi = bounds
    boxes = {b for s in division.ships for b in logs[s].propulsion.speeds}
    keep = {last_kn} if lo <= last_kn <= hi else set()
    choices = sorted({k for k in boxes if lo <= k <= hi} | {lo, hi} | keep)
    return {"min": lo, "max": hi, "choices": [k for k in choices if k >= 0], "last": last_kn}


def _command(game: Any, side: str, view: Any) -> Form:
    state = game.state
    scale = get_scale(state.scale)
    logs, poses, last = state.logs, state.poses, state.moved_last_m
    surrender = get_scenario(state.scenario).option("surrender", True)
    divisions = []
    for name, division in state.divisions.items():
        if division.side != side:
            continue
        drop = [
            s
            for s in division.ships
            if s != division.flagship
            and len(division.ships) > 1
            and command.drop_out_eligible(division, s, logs)
        ]
        flag = [s for s in division.ships if _may_take_flag(division, s, logs, poses, scale, last)]
        divisions.append(
            {
                "name": name,
                "ships": list(division.ships),
                "flagship": division.flagship,
                "fleet_flagship": division.fleet_flagship,
                "formation": division.formation.value,
                "must_turn_out": division.must_turn_out,
                "speed": _speed(division, logs, scale, last),
                "drop_out": drop,
                "flag_to": flag,
            }
        )
    signals = [
        {"message": m.value, "label": m.wording, "needs_side": m.turn_deg is not None}
        for m in FleetMessage
        if surrender or m is not FleetMessage.SURRENDER
    ]
    return {
        "divisions": divisions,
        "signals": signals,
        "turn_modes": [
            {"mode": "TS", "label": "in succession"},
            {"mode": "TT", "label": "together"},
        ],
        "turn_sides": [{"side": "P", "label": "port"}, {"side": "S", "label": "starboard"}],
        "max_turn_deg": 360,
    }


def _may_take_flag(
    division: Any,
    ship: str,
    logs: dict[str, ShipLog],
    poses: Any,
    scale: Scale,
    last: dict[str, float],
) -> bool:
    """Whether a voluntary transfer to ``ship`` passes BF6-CMD-19 now (own ships only)."""
    if ship == division.flagship:
        return False
    try:
        command.voluntary_transfer(division, ship, logs, poses, scale, last, EventLog())
    except IllegalOrderError:
        return False
    return True


# -- gunnery -------------------------------------------------------------------------------


def _rof_text(rof: float) -> str:
    return "½" if rof < 1 else f"{rof:g}"


def _mounting(log: ShipLog, m: Mounting) -> Form:
    loading = m.rof < 1 and m.key in log.rof_half_fired_last_turn
    return {
        "key": m.key,
        "class": m.gun_class.value,
        "guns": m.guns,
        "in_action": log.guns_in_action(m.key),
        "calibre_cm": m.calibre_cm,
        "rof": _rof_text(m.rof),
        "salvos": 0 if loading else salvos_per_turn(m),
        "loading": loading,
        "whole_salvos": m.is_lettered,
        "arcs": [list(a) for a in mounting_arcs(m)],
    }


def _rounds(m: Mounting, guns: int, bracket: int, loading: bool) -> list[int]:
    """The rounds one mounting may send at one target in ``bracket``: none where it cannot
    reach (penetration '-', BF6-GUN-04), whole salvos of a lettered position (BF6-ROF-06), any
    count from single battery guns (BF6-ROF-07); ROF 2 fires twice only in brackets 1–2."""
    if loading or guns == 0 or m.penetration[bracket - 1] is None:
        return []
    per_gun = rounds_per_gun(m, bracket)
    if m.is_lettered:
        return [guns * k for k in range(1, per_gun + 1)]
    return list(range(1, guns * per_gun + 1))


def rounds_by_bracket(m: Mounting, guns: int, loading: bool, scale: Scale) -> list[Form]:
    """The rounds a mounting may send, by the bracket the estimate falls in: ``upto_m`` is each
    bracket's far edge (the last one the maximum range)."""
    return [
        {
            "upto_m": min(b * scale.bracket_m, scale.max_range_m),
            "choices": _rounds(m, guns, b, loading),
        }
        for b in range(1, BRACKETS + 1)
        if (b - 1) * scale.bracket_m < scale.max_range_m
    ]


def bearing_on(log: ShipLog, pose: Any, contact: Contact, scale: Scale) -> dict[str, int]:
    """Guns in action of each mounting that bear on where ``contact`` appears: the gunnery
    check's arc test (``bearing_guns``) on the relative bearing to her apparent forward
    funnel. Only mountings with a gun bearing are listed."""
    length = _base_length(scale, contact.type)
    theta = pose.bearing_to(*funnel_point(contact.pose, length))
    out: dict[str, int] = {}
    for m in log.cls.mountings:
        guns = bearing_guns(log, m, theta).guns
        if guns:
            out[m.key] = guns
    return out


def _base_length(scale: Scale, ship_type: str) -> float:
    """The length of a base of this ship type (the scale's base table, public on the table)."""
    for key, length, _width in scale.bases:
        if key == ship_type:
            return scale.from_table(length)
    return 0.0


def _why_silent(log: ShipLog) -> str | None:
    if not log.afloat:
        return "sunk"
    if log.surrendered:
        return "struck her colours (BF6-CMD-32)"
    if log.sinking is not None and log.sinking.guns_abandoned:
        return "her crews have abandoned the guns (BF6-SINK-04)"
    return None


def _gunnery(game: Any, side: str, view: Any) -> Form:
    scale = get_scale(view.scale)
    ships = []
    for own in view.own:
        log = own.log
        why = _why_silent(log)
        mounts = {m.key: m for m in log.cls.mountings}
        shown = {k: _mounting(log, m) for k, m in mounts.items()}
        targets = []
        for c in view.contacts if why is None else ():
            bears = bearing_on(log, own.pose, c, scale)
            targets.append(
                {
                    "name": c.name,
                    "cls": c.cls,
                    "type": c.type,
                    "mounts": [
                        {
                            "key": k,
                            "guns": n,
                            "rounds": rounds_by_bracket(mounts[k], n, False, scale),
                        }
                        for k, n in bears.items()
                        if not shown[k]["loading"]
                    ],
                }
            )
        ships.append(
            {
                "name": own.name,
                "cls": own.cls,
                "silent": why,
                "mountings": list(shown.values()),
                "targets": targets,
            }
        )
    return {
        "ships": ships,
        "ammo": [{"value": "HE", "label": "HE"}, {"value": "AP", "label": "AP"}],
        "bracket_m": scale.bracket_m,
        "max_range_m": scale.max_range_m,
    }


# -- torpedoes -----------------------------------------------------------------------------


def _torpedo(game: Any, side: str, view: Any) -> Form:
    ships = []
    for own in view.own:
        log = own.log
        if not log.in_battle or log.sinking is not None:
            continue
        mounts = []
        for mount in log.cls.torpedoes:
            left = torpedoes.tubes_left(log, mount)
            if left <= 0:
                continue
            in_arc = [
                c.name
                for c in view.contacts
                if torpedoes.bearing_arc(mount, own.pose.bearing_to(c.pose.x, c.pose.y))
            ]
            per_side = math.ceil(mount.tubes / 2) if mount.position == "beam" else left
            mounts.append(
                {
                    "key": mount.key,
                    "position": mount.position,
                    "left": left,
                    "most": min(left, per_side),
                    "arcs": [list(a) for a in torpedoes.launch_arcs(mount)],
                    "range_m": mount.range_m,
                    "targets": in_arc,
                }
            )
        if mounts:
            ships.append({"name": own.name, "cls": own.cls, "mounts": mounts})
    return {"ships": ships, "targets": [c.name for c in view.contacts]}


# -- damage control ------------------------------------------------------------------------

#: What each declaration does, for the labels (BF6-DC, BF6-REP, BF6-CF; FIRE from the 1D12).
_LABELS: dict[str, str] = {
    "P": "repair a propulsion mark",
    "BR": "repair a bridge hit",
    "M": "repair main position {t}",
    "ST": "repair a steering (TR) hit",
    "HVY": "contain the heavy flooding {t}",
    "S": "repair mounting {t}",
    "DC": "repair a damage-control box",
    "R": "repair the rudder",
    "SECURE": "secure the rudder on the centre-line",
    "FREE": "free the secured rudder",
    "SINK-1": "−1 on this turn's sink roll",
    "FLOODMAG": "flood the magazine of {t}",
    "CF": "counterflood {t}",
    "SCUTTLE": "scuttle the ship (cannot be undone)",
    "RECOVER-CT": "recover from the conning-tower hit",
    "FIRE": "put out a fire",
}


def _candidates(log: ShipLog) -> list[tuple[str, str]]:
    """Every declaration the notation can write for this ship: ``(code, label)``."""
    out: list[tuple[str, str]] = []
    for action in DCAction:
        a = action.value
        if action in (DCAction.REPAIR_M, DCAction.FLOOD_MAGAZINE):
            for m in log.cls.mountings:
                if m.gun_class is GunClass.MAIN and m.is_lettered:
                    out.append((f"{a}:{m.key}", _LABELS[a].format(t=m.key)))
        elif action is DCAction.REPAIR_S:
            for m in log.cls.mountings:
                if m.gun_class in (GunClass.SECONDARY, GunClass.TERTIARY):
                    out.append((f"{a}:{m.key}", _LABELS[a].format(t=m.key)))
        elif action is DCAction.STOP_HVY_FL:
            out += [(f"{a}:{z.value}", _LABELS[a].format(t=z.value)) for z in Compartment]
        elif action is DCAction.COUNTERFLOOD:
            for z in Compartment:
                for level in FloodLevel:
                    if level > log.compartments[z].level:
                        word = level.name.lower()
                        out.append((f"{a}:{z.value}={word}", _LABELS[a].format(t=f"{z} to {word}")))
        else:
            out.append((a, _LABELS[a]))
    out.append(("FIRE", _LABELS["FIRE"]))
    return out


def _most(accepts: Callable[[str], bool], ship: str, code: str, dice: int) -> int:
    """How many times ``code`` may be declared: the largest count the phase's check accepts."""
    n = 0
    while n < dice and accepts(f"{ship}: " + "; ".join([code] * (n + 1))):
        n += 1
    return n


def _damage(game: Any, side: str, view: Any) -> Form:
    def accepts(line: str) -> bool:
        try:
            game.check(side, [line])
        except BattlelineError:
            return False
        return True

    ships = []
    for own in view.own:
        log = own.log
        if not log.in_battle or log.sinking is not None:
            continue
        dice = _dice(game, log)
        offered = []
        for code, label in _candidates(log):
            most = _most(accepts, own.name, code, dice)
            if most:
                offered.append({"code": code, "label": label, "most": most})
        if offered:
            ships.append({"name": own.name, "cls": own.cls, "dice": dice, "offered": offered})
    return {"ships": ships}


def _dice(game: Any, log: ShipLog) -> int:
    """The ship's damage-control dice: unmarked DC boxes (BF6-DC-04), or in the 1D12 edition
    the propulsion boxes not destroyed (BF12-DC-03/04)."""
    if game.ruleset.name == "bf1900-1d12":
        from battleline.rulesets.bf1900_12.edition import dc_pool

        return dc_pool(log)
    return log.dc_dice


_BUILDERS: dict[str, Callable[[Any, str, Any], Form]] = {
    "command": _command,
    "gunnery": _gunnery,
    "torpedo": _torpedo,
    "damage": _damage,
}

__all__ = [
    "Composed",
    "bearing_on",
    "compose",
    "field_of",
    "form_data",
    "rounds_by_bracket",
    "speed_range",
]
