"""The after-action report: fates, gunnery, damage by cause and the victory points ship by ship.

Everything is counted from the game's events (read with ``data.get``, so any ruleset's log
serves) and from the ruleset's :meth:`~battleline.engine.ruleset.Ruleset.fates`. The points
breakdown comes from the ruleset's ``ship_points(state)`` where it has one (bf1900 and the
rulesets built on it) when it adds up to the verdict; otherwise the report gives the sides'
totals only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from battleline.engine.events import Event, EventKind
from battleline.engine.ruleset import ShipFate
from battleline.errors import BattlelineError

FATE_STYLE = {
    "sunk": "bold red",
    "sinking": "red",
    "surrendered": "yellow",
    "crippled": "yellow",
    "intact": "green",
}


@dataclass
class ShipRecord:
    """One ship's battle in numbers."""

    salvos: int = 0
    zones: int = 0
    rounds: int = 0
    hits_given: int = 0
    hits_taken: int = 0
    torpedoes_fired: int = 0
    torpedo_hits_given: int = 0
    taken: Counter[str] = field(default_factory=Counter)


#: The damage a ship takes, by cause (the report's column order).
CAUSES = ("shell hits", "torpedo hits", "fires", "flooding", "critical", "explosions", "collisions")


def tally(events: Iterable[Event]) -> dict[str, ShipRecord]:
    """Each ship's gunnery, torpedoes and damage taken, from the event log."""
    out: dict[str, ShipRecord] = defaultdict(ShipRecord)
    for e in events:
        d = e.data
        ship = e.ship or ""
        if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
            r = out[str(d.get("firer", ship))]
            r.salvos += 1
            r.rounds += int(d.get("rounds", 0) or 0)
            r.zones += e.kind is EventKind.HIT_ZONE
        elif e.kind is EventKind.HIT:
            hits = int(d.get("hits", 0) or 0)
            out[str(d.get("firer", "?"))].hits_given += hits
            out[ship].hits_taken += hits
            out[ship].taken["shell hits"] += hits
        elif e.kind is EventKind.TORPEDO_LAUNCH:
            out[ship].torpedoes_fired += int(d.get("count", 1) or 1)
        elif e.kind is EventKind.TORPEDO_HIT:
            out[str(d.get("firer", "?"))].torpedo_hits_given += 1
            out[ship].taken["torpedo hits"] += 1
        elif e.kind is EventKind.FIRE and "internal" in d:
            out[ship].taken["fires"] += 1
        elif e.kind is EventKind.FLOODING and d.get("rose"):
            out[ship].taken["flooding"] += 1
        elif e.kind is EventKind.CRITICAL:
            out[ship].taken["critical"] += 1
        elif e.kind is EventKind.EXPLOSION:
            out[ship].taken["explosions"] += 1
        elif e.kind is EventKind.COLLISION:
            out[ship].taken["collisions"] += 1
            out[str(d.get("other", "?"))].taken["collisions"] += 1
    return out


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
    breakdown = getattr(ruleset, "ship_points", None)
    if breakdown is None:
        return None
    try:
        rows: Sequence[tuple[str, str, float, str]] = breakdown(state)
    except BattlelineError:
        return None
    result = getattr(state, "result", None)
    if result is not None:
        scored = dict.fromkeys(result.points, 0.0)
        for _, side, points, _ in rows:
            for other in scored:
                if other != side:
                    scored[other] += points
        if any(abs(scored[s] - float(p)) > 1e-9 for s, p in result.points.items()):
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
    records = tally(game.events.events)
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
