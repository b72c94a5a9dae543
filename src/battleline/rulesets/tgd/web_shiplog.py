"""The web ship log under the tgd ruleset: each own ship's TGD card, box by box.

A tgd ship's damage is marked on her TGD card (:mod:`.cardlog`, TGD-CARD-01..03), not on the
bf1900 log the ruleset borrows its set-up from, so this part replaces bf1900's (which ``PARTS_FROM``
would otherwise lend). It reads the side's view only (:class:`~.view.TgdSideView`): its own cards
(``cards``, with every mark) and of each enemy what shows across the table (``seen``: burning
furiously, stopped, sunk; TGD-ARM-02: the owner keeps his card) with her contact's identity.

The answer has the shape of bf1900's :mod:`~battleline.rulesets.bf1900.web_shiplog` (sections of
rows of boxes, each box ``none`` / ``slash`` / ``cross``), so the page draws either; the legend
says what a slash and a cross mean on a card.
"""

from __future__ import annotations

from typing import Any

from battleline.rulesets.tgd.card import LOCATION_NAMES
from battleline.rulesets.tgd.cardlog import card_title
from battleline.rulesets.tgd.view import OwnCard, SeenCard, TgdSideView

Json = dict[str, Any]

LEGEND = {
    "slash": "a battery that has fired this fire phase, or a box ticked",
    "cross": "destroyed: a battery lost, an S/F letter or an H box crossed off",
}


def _box(label: str, mark: str = "none") -> Json:
    return {"label": label, "mark": mark}


def _row(label: str, boxes: list[Json], note: str = "") -> Json:
    return {"label": label, "note": note, "boxes": boxes}


def _crossed(total: int, hits: int) -> list[Json]:
    return [_box("H", "cross" if i < hits else "none") for i in range(total)]


def own_card(own: OwnCard, view: TgdSideView) -> Json:
    """One own ship's card with every mark."""
    log, card = own.log, own.log.card
    sections = []
    for loc in (1, 2, 3):
        rows = []
        for i, battery in enumerate(card.columns[loc - 1]):
            ref = (loc, i)
            mark = "cross" if ref in log.lost else "slash" if ref in log.fired else "none"
            note = "lost" if ref in log.lost else "fired" if ref in log.fired else "ready"
            rows.append(_row(str(battery), [_box(battery.arc, mark)], note))
        notes = [] if rows else ["No battery in this column."]
        title = f"Location {loc}: {LOCATION_NAMES[loc]} (armour {card.armour[loc - 1]})"
        sections.append({"id": f"location-{loc}", "title": title, "rows": rows, "notes": notes})
    letters = [
        _box(ch, "cross" if i < log.superstructure_hits else "none")
        for i, ch in enumerate(card.superstructure)
    ]
    hull = [
        (5, "Bow and stern", card.hull_ends, log.hull_end_hits),
        (6, "Centre", card.hull_centre, log.hull_centre_hits),
    ]
    sections.append(
        {
            "id": "location-4",
            "title": f"Location 4: {LOCATION_NAMES[4]} (armour {card.armour[3]})",
            "rows": [_row("S/F letters", letters, f"{log.superstructure_left() or '-'} left")],
            "notes": ["F: a funnel; S: the rest of the superstructure."],
        }
    )
    for loc, label, total, hits in hull:
        sections.append(
            {
                "id": f"location-{loc}",
                "title": f"Location {loc}: {LOCATION_NAMES[loc]} (armour {card.armour[loc - 1]})",
                "rows": [_row(f"{label} H boxes", _crossed(total, hits), f"{total - hits} left")],
                "notes": [],
            }
        )
    state = [
        _row("Burning furiously", [_box("", "slash" if log.burning else "none")]),
        _row("Immobile", [_box("", "slash" if log.immobile else "none")]),
    ]
    sections.append(
        {
            "id": "speed",
            "title": "Speed and state",
            "rows": [
                _row("Speed", [], f"{log.speed} of {card.speed} kn ({log.knots_lost} lost)"),
                *state,
            ],
            "notes": [],
        }
    )
    status = ["sunk"] if log.sunk else (["immobile"] if log.immobile else [])
    return {
        "own": True,
        "title": card_title(own.name),
        "name": own.name,
        "class": card.title,
        "navy": card.nation,
        "year": "",
        "division": next(
            (d for d, info in view.divisions.items() if own.name in info["ships"]), ""
        ),
        "speed_knots": log.speed,
        "status": status,
        "details": [
            ["Card", card.title + (" (reconstructed)" if card.reconstructed else "")],
            ["Nation", card.nation],
            ["Top speed", f"{card.speed} kn"],
            ["Armour by location", " / ".join(str(a) for a in card.armour)],
            ["Ready to fire", ", ".join(own.ready) or "none"],
        ],
        "sections": sections,
        "legend": LEGEND,
    }


def enemy_card(seen: SeenCard, view: TgdSideView) -> Json:
    """What shows of an enemy card across the table, with her contact's identity."""
    contact = next((c for c in view.contacts if c.name == seen.name), None)
    words = [
        w
        for w, on in (
            ("burning furiously", seen.burning),
            ("stopped", seen.stopped),
            ("sunk", seen.sunk),
        )
        if on
    ]
    return {
        "own": False,
        "name": seen.name,
        "class": contact.cls if contact else "",
        "type": contact.type if contact else "",
        "size": contact.size if contact else 0,
        "seen": words,
        "seen_from": contact.observer if contact else None,
        "note": "an enemy ship: only what shows across the table; her card is her own",
    }


def ship_logs(view: TgdSideView) -> Json:
    """Every own card and every enemy ship in sight."""
    return {
        "side": view.side,
        "turn": view.turn,
        "phase": view.phase,
        "ships": [own_card(c, view) for c in view.cards],
        "enemies": [enemy_card(s, view) for s in view.seen],
    }


def ship_log(view: TgdSideView, name: str) -> Json | None:
    """One ship's page (own card or what shows of an enemy), ``None`` for any other name."""
    for c in view.cards:
        if c.name == name:
            return own_card(c, view)
    for s in view.seen:
        if s.name == name:
            return enemy_card(s, view)
    return None


__all__ = ["LEGEND", "enemy_card", "own_card", "ship_log", "ship_logs"]
