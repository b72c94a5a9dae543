"""Routes: table (filled in by its own change)."""

from __future__ import annotations

from fastapi import FastAPI

from battleline.server.context import ServerContext


def add_routes(app: FastAPI, ctx: ServerContext) -> None:
    """Add this module's routes to ``app``."""
