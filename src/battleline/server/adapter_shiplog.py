"""The ship log page's calls into the engine: the ruleset's ``web_shiplog`` part over a side's view.

The layout is the ruleset's (``ruleset_part(name, "web_shiplog")``); the server only hands it the
side's view, so what a side is sent is what that view holds: its own logs in full, the enemy as
contacts.
"""

from __future__ import annotations

from typing import Any

from battleline.engine import view
from battleline.game import AnyGame as Game
from battleline.rulesets import canonical_name, ruleset_part


class NoShipLog(LookupError):
    """The game's ruleset has no ship-log page (the message says why)."""


def _part(game: Game) -> Any:
    name = canonical_name(game.ruleset.name)
    part = ruleset_part(name, "web_shiplog")
    if part is None:
        raise NoShipLog(f"ship log: the {name} ruleset has no ship-log page")
    missing = getattr(part, "MISSING", None)
    if missing:
        raise NoShipLog(f"ship log: {missing}")
    return part


def ship_logs(game: Game, side: str) -> dict[str, Any]:
    """Every own ship's log and every enemy in sight, as the side's view shows them."""
    seen = view(game, side, since=len(game.events))
    out: dict[str, Any] = _part(game).ship_logs(seen)
    return out


def ship_log(game: Game, side: str, ship: str) -> dict[str, Any] | None:
    """One ship's page (own log or enemy card), ``None`` for a ship the side neither has nor
    sees."""
    seen = view(game, side, since=len(game.events))
    out: dict[str, Any] | None = _part(game).ship_log(seen, ship)
    return out
