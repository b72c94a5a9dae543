"""The route modules beyond the core game routes of :mod:`battleline.server.app`.

Each module has ``add_routes(app, ctx)`` and owns one part of the player's page: the live push
channel and chat, the table, the order forms, the ship logs, and running a game (deadlines,
umpire, lobby, after-action report, replay).
"""

from __future__ import annotations

from types import ModuleType

from battleline.server.routes import forms, live, running, shiplog, table

ROUTE_MODULES: tuple[ModuleType, ...] = (live, table, forms, shiplog, running)
