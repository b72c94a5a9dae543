"""A ship log drawn with rich tables (REF-BF6-05, "Ship Log Overview").

The left half of the printed log holds the ship details; the right half the damage. Here each
part is one table: details, armament boxes, propulsion boxes, damage control, compartments, and
the remaining boxes (fires, bridge/CT/ST/R, searchlights, torpedoes, boat guns, sinking).
:func:`log_tables` returns them as one renderable, for ``battleline ship`` and the demo.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from battleline.rulesets.bf1900.ship import GunClass, Mounting, ShipClass
from battleline.rulesets.bf1900.shiplog import Mark, ShipLog

_BOX = {Mark.NONE: "□", Mark.DAMAGED: "/", Mark.DESTROYED: "X"}
_BOX_STYLE = {Mark.NONE: "", Mark.DAMAGED: "yellow", Mark.DESTROYED: "bold red"}
_CLASS_TITLE = {
    GunClass.MAIN: "Main",
    GunClass.SECONDARY: "Secondary",
    GunClass.TERTIARY: "Tertiary",
    GunClass.BOAT: "Boat guns",
}


def rof_text(rof: float) -> str:
    """ROF as printed on the log: ½, 1 or 2 (BF6-ROF-01)."""
    return "½" if rof == 0.5 else f"{rof:g}"


def penetration_text(pen: tuple[int | None, ...]) -> str:
    """Penetration per bracket, '-' where the gun cannot reach: '13-10-8-6', '7-5-4--'."""
    return "-".join("–" if p is None else str(p) for p in pen)


def _boxes(marks: list[Mark], numbered: bool = False) -> Text:
    out = Text()
    for i, mark in enumerate(marks, start=1):
        if out:
            out.append(" ")
        label = f"{i}{'' if mark is Mark.NONE else _BOX[mark]}" if numbered else _BOX[mark]
        out.append(label, style=_BOX_STYLE[mark])
    return out


def details_table(log: ShipLog) -> Table:
    """The left half of the log: the ship's details."""
    c: ShipClass = log.cls
    table = Table(title=f"{log.name} — {c.name} class ({c.navy}, {c.year})", title_justify="left",
                  show_header=False, box=None, pad_edge=False)  # fmt: skip
    table.add_column(style="bold")
    table.add_column()
    table.add_column(style="bold")
    table.add_column()
    deck = "yes" if c.armoured_deck else "no"
    layout = "lozenge" if c.lozenge else "normal"
    rows = [
        ("Type", c.type.value, "Size", str(c.size)),
        (
            "Armour",
            f"{c.armour_vitals}-{c.armour_upperworks}",
            "Upperworks",
            c.upperworks_protection.value,
        ),
        ("Flood protection", c.flood_protection.value, "Armoured deck", deck),
        ("Stability", c.stability, "Seaway", c.seaway),
        ("Turning circle", f"{c.turning_circle_m:g} m", "Main layout", layout),
        ("Length × beam", f"{c.length_m:g} × {c.beam_m:g} m", "Side", log.side or "—"),
    ]
    for row in rows:
        table.add_row(*row)
    if c.overrides:
        table.add_row("Hand-set", Text(", ".join(c.overrides), style="magenta"), "", "")
    status = "sunk" if log.sunk else "surrendered" if log.surrendered else ""
    if log.sinking is not None and not log.sunk:
        status = f"sinking: {log.sinking.turns_left} turn(s) left" + (
            ", guns abandoned" if log.sinking.guns_abandoned else ""
        )
    if status:
        table.add_row("Status", Text(status, style="bold red"), "", "")
    return table


def _where(m: Mounting) -> str:
    if m.is_lettered:
        comp = f" ({m.compartment.value})" if m.compartment else ""
        return f"{m.position}{comp}"
    return f"pattern {m.beam_pattern}"


def _damage(log: ShipLog, m: Mounting) -> Text:
    if m.is_lettered:
        state = log.positions[m.key]
        out = Text()
        if state.slashes:
            out.append("/" * state.slashes, style="yellow")
        if state.destroyed:
            out.append("X", style="bold red")
        if state.magazine_flooded:
            out.append(" magazine flooded", style="blue")
        return out or Text("□")
    return _boxes(log.batteries[m.key], numbered=True)


def armament_table(log: ShipLog) -> Table:
    """The armament boxes: calibre, ROF, AP penetration per bracket, position or pattern."""
    table = Table(title="Armament", title_justify="left")
    for col in (
        "box",
        "key",
        "guns",
        "gun",
        "ROF",
        "AP pen 1-2-3-4",
        "position / pattern",
        "marks",
    ):
        table.add_column(col)
    for m in log.cls.mountings:
        table.add_row(
            _CLASS_TITLE[m.gun_class],
            m.key,
            str(m.guns),
            f"{m.calibre_cm:g} cm" + (f" ({m.label.split('×', 1)[-1]})" if m.label else ""),
            rof_text(m.rof),
            penetration_text(m.penetration),
            _where(m),
            _damage(log, m),
        )
    return table


def propulsion_table(log: ShipLog) -> Table:
    """Propulsion boxes in knots, highest first, with their marks and the margin."""
    p = log.propulsion
    table = Table(title="Propulsion (knots)", title_justify="left")
    marks = [Mark.DESTROYED] * p.destroyed + [Mark.DAMAGED] * p.damaged
    marks += [Mark.NONE] * (len(p.speeds) - len(marks))
    for speed in p.speeds:
        table.add_column(f"{speed:g}", justify="center")
    table.add_column("margin", justify="center")
    table.add_row(*(Text(_BOX[m], style=_BOX_STYLE[m]) for m in marks), "/" * p.margin or "—")
    return table


def damage_control_table(log: ShipLog) -> Table:
    """DC boxes (BF6-DC-03) and the compartments with their flooding (BF6-FLD-02)."""
    table = Table(title="Damage control and flooding", title_justify="left")
    table.add_column("DC boxes")
    for comp in log.compartments:
        table.add_column(comp.value)
    cells: list[Text] = []
    for state in log.compartments.values():
        text = Text(state.level.name.lower() if state.level else "—")
        if state.contained:
            text = Text(f"[{text.plain}]")
        if state.counterflooded:
            text.append(" (cf)")
        cells.append(text)
    table.add_row(_boxes(log.dc_boxes), *cells)
    table.caption = f"flooding points {log.flooding_points}"
    return table


def other_boxes_table(log: ShipLog) -> Table:
    """Fires, bridge/CT/ST/R, searchlights, torpedoes and boat guns."""
    table = Table(title="Other boxes", title_justify="left", show_header=False)
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Fires", f"external {log.fires_external}, internal {log.fires_internal}")
    table.add_row("Bridge (BR)", "/" * log.bridge_hits or "□")
    table.add_row("Conning tower (CT)", "/" * log.ct_hits or "□")
    tr = log.tr_hits + log.uneven_tr_hits
    table.add_row("Steering (ST)", f"{tr} TR" if tr else "□")
    table.add_row("Rudder", log.rudder.value)
    table.add_row("Searchlights", _boxes(log.searchlights))
    for t in log.cls.torpedoes:
        left = log.torpedoes_left.get(t.key, t.tubes)
        marks = [Mark.NONE] * left + [Mark.DESTROYED] * (t.tubes - left)
        table.add_row(
            f"Torpedoes ({t.position})",
            Text(f"size {t.size}, {t.range_m:g} m  ") + _boxes(marks),
        )
    if log.cls.torpedoes and log.cls.shallow_torpedoes:
        table.add_row("Shallow-running", "yes")
    if log.cls.mountings_of(GunClass.BOAT):
        table.add_row("Boat guns manned", "yes" if log.boat_crews_deployed else "no")
    return table


def log_tables(log: ShipLog) -> Group:
    """The whole ship log as rich tables, top to bottom."""
    return Group(
        details_table(log),
        armament_table(log),
        propulsion_table(log),
        damage_control_table(log),
        other_boxes_table(log),
    )
