"""The web page's ship log: a side's own logs box by box, and what it sees of an enemy ship.

Found by the server as ``ruleset_part(name, "web_shiplog")`` (the 1D12 edition borrows it). It
reads the side's **view** only: an own ship's log (:class:`~.view.OwnShip`, in full) laid out
with the printed log's boxes (:mod:`.log_layout`, BF6-GEN-04, REF-BF6-05), and of an enemy ship
her contact alone — name, class and type as identified, and what shows from outside (burning,
sinking, struck). Never an enemy's log, torpedoes, damage control or speed boxes, and no
position of any ship.

Each log is a list of sections (``title``, ``rows``, ``notes``); a row has a ``label``, a
``note`` and ``boxes``, each box a ``label`` and a ``mark``: ``"none"``, ``"slash"`` (damaged,
repairable; a flooding level reached; a box ticked) or ``"cross"`` (destroyed, fired). A lettered
position's box also counts its ``slashes`` (BF6-LET-02); the Hvy box carries the containment
``frame`` (``"open"`` / ``"closed"``, BF6-REP-08); ``over`` counts marks past a tally's last box.
"""

from __future__ import annotations

from typing import Any

from battleline.rulesets.bf1900.log_layout import (
    BR_BOXES,
    CLASS_TITLE,
    COMPARTMENT_TITLE,
    CT_BOXES,
    FIRE_BOXES,
    RUDDER_BOXES,
    ST_BOXES,
    TYPE_NAMES,
    flood_boxes,
    log_title,
    marks,
    rof_text,
    tally,
    torpedo_marks,
    where,
)
from battleline.rulesets.bf1900.observation import Contact
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.ship import GunClass, Mounting
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog
from battleline.rulesets.bf1900.view import OwnShip, SideView

Json = dict[str, Any]

#: How a box's mark is sent.
MARK_NAMES = {Mark.NONE: "none", Mark.DAMAGED: "slash", Mark.DESTROYED: "cross"}
#: What the legend under every log says each mark means.
LEGEND = {
    "slash": "damaged (repairable), a flooding level reached, or a box ticked",
    "cross": "destroyed (never repaired), or a torpedo fired",
}


def _box(label: str, mark: Mark = Mark.NONE, **more: Any) -> Json:
    return {"label": label, "mark": MARK_NAMES[mark], **more}


def _tick(label: str, on: bool) -> Json:
    return _box(label, Mark.DAMAGED if on else Mark.NONE)


def _row(label: str, boxes: list[Json], note: str = "", **more: Any) -> Json:
    return {"label": label, "note": note, "boxes": boxes, **more}


def _tally_row(label: str, count: int, boxes: int, note: str = "") -> Json:
    line, over = tally(count, boxes)
    return _row(label, [_box("", m) for m in line], note, over=over)


def _section(key: str, title: str, rows: list[Json], notes: list[str] | None = None) -> Json:
    return {"id": key, "title": title, "rows": rows, "notes": notes or []}


def _pens(m: Mounting) -> str:
    return "/".join("-" if p is None else str(p) for p in m.penetration)


def _mounting(log: ShipLog, m: Mounting) -> Json:
    gun = m.label.split("\u00d7", 1)[-1] if m.label else ""
    place = ", ".join(w for w in where(m) if w)
    info = f"{gun + ', ' if gun else ''}ROF {rof_text(m.rof)}, AP pen {_pens(m)}; {place}"
    label = f"{CLASS_TITLE[m.gun_class]} {m.calibre_cm:g} cm ({m.key})"
    if m.is_lettered:
        state = log.positions[m.key]
        mark = Mark.DESTROYED if state.destroyed else Mark.NONE
        note = f"{m.guns} gun{'s' if m.guns != 1 else ''}"
        if state.slashes:
            note += f", {state.slashes} hit{'s' if state.slashes != 1 else ''}"
        if state.destroyed:
            note += ", destroyed"
        if state.magazine_flooded:
            note += ", magazine flooded"
        box = _box(str(m.position), mark, slashes=state.slashes)
        return _row(label, [box], note, info=info)
    boxes = [_box(str(i + 1), mk) for i, mk in enumerate(log.batteries[m.key])]
    left = log.guns_in_action(m.key)
    return _row(label, boxes, f"{left} of {m.guns} in action", info=info)


def _armament(log: ShipLog) -> Json:
    c = log.cls
    rows = [_mounting(log, m) for m in c.mountings]
    if c.mountings_of(GunClass.BOAT):
        always = "always (no armoured deck)" if not c.armoured_deck else "ticked when deployed"
        rows.append(_row("Boat guns manned", [_tick("", log.boat_crews_deployed)], always))
    notes = [
        "A lettered position takes a slash for each damaging hit and a cross when destroyed "
        "(BF6-LET-02).",
        "Beam-pattern guns are crossed out from the highest number down (BF6-PAT-01).",
        "AP penetration by range bracket 1/2/3/4; '-': the gun cannot reach that bracket.",
    ]
    return _section("armament", "Armament", rows, notes)


def _propulsion(log: ShipLog, scale: Scale) -> Json:
    p = log.propulsion
    boxes = [
        _box(f"{kn:g} kn", mk, sub=scale.fmt(scale.knots_to_m_per_turn(kn)))
        for kn, mk in zip(p.speeds, marks(len(p.speeds), p.damaged, p.destroyed), strict=True)
    ]
    rows = [
        _row("Speed boxes", boxes, f"{log.speed_knots:g} kn available now"),
        _row("Margin", [_box("", Mark.DAMAGED) for _ in range(p.margin)], "hits with no box left"),
    ]
    notes = [
        f"Distance per turn at {scale.label}, {scale.turn_minutes:g}-minute turns; boxes are "
        "crossed out from the top speed (BF6-PROP-01..05)."
    ]
    if log.uneven_speed_boxes:
        notes.append(f"{log.uneven_speed_boxes} box(es) lost to uneven flooding while it lasts.")
    return _section("propulsion", "Propulsion", rows, notes)


def _damage_control(log: ShipLog) -> Json:
    boxes = [_box("", m) for m in log.dc_boxes]
    note = f"{log.dc_dice} DC dice this turn"
    return _section(
        "dc",
        "Damage control",
        [_row("DC boxes", boxes, note)],
        ["One DC die per unmarked box (BF6-DC-03, BF6-DC-04)."],
    )


def _flooding(log: ShipLog) -> Json:
    rows = []
    for comp, state in log.compartments.items():
        boxes = [
            _box(
                b.label,
                Mark.DAMAGED if b.marked else Mark.NONE,
                **({"frame": "closed" if b.framed else "open"} if b.frame_box else {}),
            )
            for b in flood_boxes(state)
        ]
        boxes += [_tick("contained", state.contained), _tick("cf", state.counterflooded)]
        reached = [b.label for b in flood_boxes(state) if b.marked]
        rows.append(
            _row(COMPARTMENT_TITLE[comp], boxes, f"{reached[0]} flooding" if reached else "")
        )
    notes = [
        f"Flooding points (L1 M2 Hvy3 Sev4): {log.flooding_points}. The Hvy box is framed when "
        "the flooding is contained (BF6-REP-08); cf: counterflooded (BF6-CF-04)."
    ]
    if log.listing:
        notes.append("She is " + " and ".join(log.listing) + ".")
    return _section("flooding", "Flooding", rows, notes)


def _fires(log: ShipLog) -> Json:
    rows = [
        _tally_row("External", log.fires_external, FIRE_BOXES),
        _tally_row("Internal", log.fires_internal, FIRE_BOXES),
    ]
    return _section("fires", "Fires", rows)


def _command(log: ShipLog) -> Json:
    rows = [
        _tally_row("BR bridge", log.bridge_hits, BR_BOXES),
        _tally_row("CT conning tower", log.ct_hits, CT_BOXES),
        _tally_row("ST steering", log.tr_hits + log.uneven_tr_hits, ST_BOXES, "TR hits"),
        _row(
            "R rudder",
            [_tick(label, log.rudder is state) for state, label in RUDDER_BOXES],
            "free" if log.rudder.value == "R" else log.rudder.value,
        ),
    ]
    return _section("command", "Bridge, conning tower, steering", rows)


def _torpedoes(log: ShipLog, scale: Scale) -> Json:
    c = log.cls
    rows = [_row("Searchlights", [_box("", m) for m in log.searchlights])]
    for t in c.torpedoes:
        left = log.torpedoes_left.get(t.key, t.tubes)
        info = f"size {t.size}, range {t.range_m:g} m = {scale.fmt(t.range_m)}"
        rows.append(
            _row(
                f"Torpedoes, {t.position}",
                [_box("", m) for m in torpedo_marks(t, left)],
                f"{left} left",
                info=info,
            )
        )
    notes = [
        f"Shallow-running torpedoes: {'yes' if c.shallow_torpedoes else 'no'}."
        if c.torpedoes
        else "No torpedoes."
    ]
    return _section("torpedoes", "Searchlights and torpedoes", rows, notes)


def _sinking(log: ShipLog) -> Json:
    s = log.sinking
    rows = [
        _row(
            "Sinking",
            [_tick("guns abandoned", s is not None and s.guns_abandoned)],
            f"{s.turns_left} turn(s) left" if s is not None else "afloat",
        )
    ]
    return _section("sinking", "Sinking", rows)


def status(log: ShipLog) -> list[str]:
    """The ship's state in a few words: sunk, struck, sinking, scuttling, out of the battle."""
    out = []
    if log.sunk:
        out.append(f"sunk ({log.lost_reason})" if log.lost_reason else "sunk")
    if log.surrendered:
        out.append("struck her colours")
    if log.sinking is not None and not log.sunk:
        out.append("sinking")
    if log.scuttling and not log.sunk:
        out.append("scuttling")
    if not out and not log.in_battle:
        out.append("out of the battle")
    return out


def own_log(ship: OwnShip, view: SideView) -> Json:
    """One own ship's log, every box of the paper log."""
    log, c = ship.log, ship.log.cls
    scale = get_scale(view.scale)
    details = [
        ["Type", f"{c.type.value} ({TYPE_NAMES[c.type]})"],
        ["Size", str(c.size)],
        ["Armour: vitals / upperworks", f"{c.armour_vitals} / {c.armour_upperworks}"],
        ["Upperworks protection", c.upperworks_protection.value],
        ["Flood protection", c.flood_protection.value],
        ["Stability", c.stability],
        ["Seaway", c.seaway],
        ["Armoured deck", "yes" if c.armoured_deck else "no"],
        ["Main layout", "lozenge" if c.lozenge else "normal"],
        ["Turning circle", f"{c.turning_circle_m:g} m = {scale.fmt(c.turning_circle_m)}"],
        ["Length x beam", f"{c.length_m:g} x {c.beam_m:g} m"],
        ["Crew gunnery", view.gunnery or "the scenario's default"],
    ]
    return {
        "own": True,
        "title": log_title(ship.name),
        "name": ship.name,
        "class": c.name,
        "navy": c.navy,
        "year": c.year,
        "division": ship.division,
        "speed_knots": ship.speed_knots,
        "status": status(log),
        "details": details,
        "sections": [
            _armament(log),
            _propulsion(log, scale),
            _damage_control(log),
            _flooding(log),
            _fires(log),
            _command(log),
            _torpedoes(log, scale),
            _sinking(log),
        ],
        "legend": LEGEND,
    }


def enemy_card(contact: Contact) -> Json:
    """What the side sees of an enemy ship: identity and outward signs, no log, no position."""
    seen = [
        word
        for word, shown in (
            ("burning", contact.fires),
            ("stopped", contact.stopped),
            ("listing heavily", contact.listing),
            ("sinking", contact.sinking),
            ("struck her colours", contact.surrendered),
        )
        if shown
    ]
    return {
        "own": False,
        "name": contact.name,
        "class": contact.cls,
        "type": contact.type,
        "size": contact.size,
        "seen": seen,
        "seen_from": contact.observer,
        "note": "an enemy ship: only what shows from your bridges; her log is her own",
    }


def ship_logs(view: SideView) -> Json:
    """Every own ship's log and every enemy ship in sight, for the side's view."""
    return {
        "side": view.side,
        "turn": view.turn,
        "phase": view.phase,
        "ships": [own_log(s, view) for s in view.own],
        "enemies": [enemy_card(c) for c in view.contacts],
    }


def ship_log(view: SideView, name: str) -> Json | None:
    """One ship's page: her log if she is the side's own, her card if she is an enemy in sight;
    ``None`` for a ship the side neither owns nor sees."""
    for s in view.own:
        if s.name == name:
            return own_log(s, view)
    for c in view.contacts:
        if c.name == name:
            return enemy_card(c)
    return None


__all__ = ["LEGEND", "MARK_NAMES", "enemy_card", "own_log", "ship_log", "ship_logs", "status"]
