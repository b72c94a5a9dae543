"""The after-action report as data, for every front end (the CLI's tables, the web's JSON).

Each ship's gunnery is counted from the game's events by the ruleset's own reading of its log —
its optional part ``aar`` (:func:`battleline.rulesets.ruleset_part`), which says which events
are salvos, rounds, hits and torpedoes, and names the figures its rules do not have. The fates
come from the ruleset's ``fates``; the points breakdown from its ``ship_points`` when that adds
up to the verdict. Nothing here knows a rule system.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from battleline.engine.events import Event, EventKind
from battleline.errors import BattlelineError

#: What a ruleset's ``aar.gunnery(event)`` may count for a ship: (ship, figure, amount).
FIGURES = (
    "salvos",
    "zones",
    "rounds",
    "hits_given",
    "hits_taken",
    "torpedoes_fired",
    "torpedo_hits_given",
    "torpedo_hits_taken",
)
#: The damage a ship takes, by cause (the report's column order).
CAUSES = ("shell hits", "torpedo hits", "fires", "flooding", "critical", "explosions", "collisions")
Reading = Callable[[Event], Iterable[tuple[str, str, int]]]


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


def _other_damage(e: Event) -> Iterator[tuple[str, str]]:
    """The damage causes every ruleset logs with the same event kinds: (ship, cause)."""
    ship = e.ship or ""
    d = e.data
    if e.kind is EventKind.FIRE and "internal" in d:
        yield ship, "fires"
    elif e.kind is EventKind.FLOODING and d.get("rose"):
        yield ship, "flooding"
    elif e.kind is EventKind.CRITICAL:
        yield ship, "critical"
    elif e.kind is EventKind.EXPLOSION:
        yield ship, "explosions"
    elif e.kind is EventKind.COLLISION:
        yield ship, "collisions"
        yield str(d.get("other", "?")), "collisions"


def tally(events: Iterable[Event], reading: Reading | None = None) -> dict[str, ShipRecord]:
    """Each ship's gunnery, torpedoes and damage taken, from the event log.

    ``reading`` is the ruleset's ``aar.gunnery`` (bf1900's when not given).
    """
    if reading is None:
        from battleline.rulesets.bf1900 import aar as bf1900_aar

        reading = bf1900_aar.gunnery
    out: dict[str, ShipRecord] = defaultdict(ShipRecord)
    for e in events:
        for ship, figure, n in reading(e):
            r = out[ship]
            if figure == "hits_taken":
                r.hits_taken += n
                r.taken["shell hits"] += n
            elif figure == "torpedo_hits_taken":
                r.taken["torpedo hits"] += n
            else:
                setattr(r, figure, getattr(r, figure) + n)
        for ship, cause in _other_damage(e):
            out[ship].taken[cause] += 1
    return out


def reading_of(ruleset_name: str) -> ModuleType:
    """The ruleset's ``aar`` part (bf1900's when it has none of its own or borrowed, or is a
    ruleset not registered, as a test's)."""
    from battleline.errors import UnknownNameError
    from battleline.rulesets import ruleset_part
    from battleline.rulesets.bf1900 import aar as bf1900_aar

    try:
        return ruleset_part(ruleset_name, "aar") or bf1900_aar
    except UnknownNameError:
        return bf1900_aar


def checked_ship_points(ruleset: Any, state: Any) -> list[tuple[str, str, float, str]] | None:
    """The victory points ship by ship (name, side, points, why), from ``ship_points``.

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
    return [(n, s, float(p), w) for n, s, p, w in rows]


#: Fates that count as a ship lost to her side.
LOST = ("sunk", "sinking", "surrendered")


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def after_action(game: Any) -> dict[str, Any]:
    """The report of a game as plain data: per side the ships lost and points, per ship the
    fate, gunnery (hits per round fired), hits given and taken and damage by cause; the
    verdict; ``lacks``, the figures this ruleset's rules do not have, each with why; and
    ``notes``, figures that mean something else under its rules."""
    part = reading_of(game.ruleset.name)
    fates = game.ruleset.fates(game.state)
    records = tally(game.events.events, part.gunnery)
    lacks: Mapping[str, str] = getattr(part, "LACKS", {})
    points_rows = checked_ship_points(game.ruleset, game.state)
    ship_points = {name: (p, why) for name, _side, p, why in points_rows or ()}
    result = game.state.result
    ships = []
    for f in fates:
        r = records.get(f.name, ShipRecord())
        got = ship_points.get(f.name)
        ships.append(
            {
                "name": f.name,
                "side": f.side,
                "class": f.ship_class,
                "fate": f.fate,
                "lost": f.fate in LOST,
                "in_battle": f.in_battle,
                "details": dict(f.details),
                "salvos": r.salvos,
                "zones": None if "zones" in lacks else r.zones,
                "rounds": r.rounds,
                "hits_given": r.hits_given,
                "hits_taken": r.hits_taken,
                "accuracy": _ratio(r.hits_given, r.rounds),
                "torpedoes_fired": r.torpedoes_fired,
                "torpedo_hits_given": r.torpedo_hits_given,
                "taken": {c: r.taken[c] for c in CAUSES},
                "points_given": None if got is None else got[0],
                "points_why": None if got is None else got[1],
            }
        )
    sides = {
        side: {
            "ships": sum(1 for s in ships if s["side"] == side),
            "ships_lost": sum(1 for s in ships if s["side"] == side and s["lost"]),
            "points": None if result is None else float(result.points.get(side, 0.0)),
        }
        for side in game.state.sides
    }
    return {
        "ruleset": game.ruleset.name,
        "finished": bool(game.finished),
        "verdict": None if result is None else result.line(),
        "winner": None if result is None else result.winner,
        "reason": None if result is None else result.reason,
        "sides": sides,
        "ships": ships,
        "points_by_ship": points_rows is not None,
        "rounds_are": str(getattr(part, "ROUNDS_ARE", "rounds fired")),
        "lacks": dict(lacks),
        "notes": dict(getattr(part, "NOTES", {})),
    }
