"""The after-action report: fates, gunnery, damage by cause and the victory points ship by ship.

The figures come from :mod:`battleline.aar` (the front-end-neutral report the web server
serves too): the game's events read by the ruleset's own ``aar`` part, and the ruleset's
:meth:`~battleline.engine.ruleset.Ruleset.fates`. The points
breakdown comes from the ruleset's ``ship_points(state)`` where it has one (bf1900 and the
rulesets built on it) when it adds up to the verdict; otherwise the report gives the sides'
totals only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from battleline.aar import CAUSES, ShipRecord, checked_ship_points, reading_of, tally
from battleline.engine.ruleset import ShipFate

__all__ = ["CAUSES", "ShipRecord", "print_report", "tally"]

FATE_STYLE = {
    "sunk": "bold red",
    "sinking": "red",
    "surrendered": "yellow",
    "crippled": "yellow",
    "intact": "green",
}


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} {100 * part / whole:.0f}%" if whole else "-"


def fates_table(fates: Sequence[ShipFate]) -> Table:
    """Each ship's fate, with the ruleset's own detail columns."""
    table = Table(title="Fates", title_justify="left")
    extra = [k for k, _ in fates[0].details] if fates else []
    for col in ("side", "ship", "class", "fate", *extra):
        table.add_column(col)
    for f in fates:
        table.add_row(
            f.side,
            f.name,
            f.ship_class,
            Text(f.fate, style=FATE_STYLE.get(f.fate, "")),
            *(v for _, v in f.details),
        )
    return table


def gunnery_table(fates: Sequence[ShipFate], records: dict[str, ShipRecord]) -> Table:
    """Hits given and taken, and accuracy: hit zones over salvos, hits over rounds."""
    table = Table(title="Gunnery and torpedoes", title_justify="left")
    for col in ("ship", "hit zones/salvos", "hits/rounds", "hits taken", "torpedoes hit/fired"):
        table.add_column(col, justify="left" if col == "ship" else "right")
    for f in fates:
        r = records.get(f.name, ShipRecord())
        table.add_row(
            f.name,
            _pct(r.zones, r.salvos),
            _pct(r.hits_given, r.rounds),
            str(r.hits_taken),
            f"{r.torpedo_hits_given}/{r.torpedoes_fired}" if r.torpedoes_fired else "-",
        )
    return table


def damage_table(fates: Sequence[ShipFate], records: dict[str, ShipRecord]) -> Table:
    """The damage each ship took, by cause (events counted)."""
    table = Table(title="Damage taken by cause", title_justify="left")
    table.add_column("ship")
    for cause in CAUSES:
        table.add_column(cause, justify="right")
    for f in fates:
        taken = records.get(f.name, ShipRecord()).taken
        table.add_row(f.name, *(str(taken[c]) if taken[c] else "-" for c in CAUSES))
    return table


def points_table(ruleset: Any, state: Any) -> Table | None:
    """The victory points ship by ship, from the ruleset's ``ship_points`` (if it has one).

    ``None`` when the ruleset has no breakdown, cannot give one for this state, or gives one
    that does not add up to the verdict's totals (a ruleset that inherits ``ship_points`` but
    scores by other rules): a wrong breakdown is worse than none.
    """
    rows = checked_ship_points(ruleset, state)
    if rows is None:
        return None
    table = Table(title="Victory points, ship by ship (scored by the enemy)", title_justify="left")
    for col in ("side", "ship", "points", "why"):
        table.add_column(col, justify="right" if col == "points" else "left")
    for name, side, points, why in rows:
        table.add_row(side, name, f"{points:g}" if points else "-", why)
    return table


def print_report(console: Console, game: Any) -> None:
    """The after-action report of a finished game."""
    fates = game.ruleset.fates(game.state)
    records = tally(game.events.events, reading_of(game.ruleset.name).gunnery)
    console.rule("[bold]After-action report[/]")
    console.print(fates_table(fates))
    console.print(gunnery_table(fates, records))
    console.print(damage_table(fates, records))
    points = points_table(game.ruleset, game.state)
    if points is not None:
        console.print(points)
    result = game.state.result
    if result is not None:
        totals = ", ".join(f"{side} {p:g}" for side, p in result.points.items())
        console.print(f"points: {totals}")
        console.print(Text(result.line(), style="bold"))
