"""What every route module shares: the store, the credential checks and the route annotations.

``create_app`` builds one :class:`ServerContext` and hands it to each module in
:mod:`battleline.server.routes`, so a route module never reaches into another's closures.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Header, HTTPException, Query
from fastapi import Path as PathParam

from battleline.server.models import Problem
from battleline.server.store import UMPIRE, GameStore, LiveGame

GameId = Annotated[str, PathParam(max_length=64)]
#: The error answers every game route may give (for the OpenAPI document).
ERRORS: dict[int | str, dict[str, Any]] = {
    s: {"model": Problem} for s in (403, 404, 409, 410, 413, 422, 429, 503)
}


def _token(
    x_battleline_token: Annotated[str | None, Header(max_length=200)] = None,
    authorization: Annotated[str | None, Header(max_length=300)] = None,
    token: Annotated[str | None, Query(max_length=200)] = None,
) -> str:
    if x_battleline_token:
        return x_battleline_token
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return token or ""


#: A route's credential: ``X-Battleline-Token``, ``Authorization: Bearer …`` or ``?token=``.
Token = Annotated[str, Depends(_token)]


@dataclass(frozen=True)
class ServerContext:
    """The store and the seat checks, shared by the route modules."""

    store: GameStore
    allow_seed: bool = False

    def role_of(self, game_id: str, token: str) -> str:
        """The seat (a side, or the umpire) a credential opens; 404 / 403 otherwise."""
        if not self.store.exists(game_id):
            raise HTTPException(404, f"unknown game {game_id!r}")
        role = self.store.role(game_id, token) if token else None
        if role is None:
            raise HTTPException(
                403, "token: opens no seat in this game (an invite must be claimed first)"
            )
        return role

    def side_of(self, game_id: str, token: str) -> str:
        """The side a credential plays; the umpire's credential is refused."""
        role = self.role_of(game_id, token)
        if role == UMPIRE:
            raise HTTPException(403, "token: the umpire's opens /umpire, not a side's view")
        return role

    def umpire_of(self, game_id: str, token: str) -> None:
        """Refuse any credential but the umpire's."""
        if self.role_of(game_id, token) != UMPIRE:
            raise HTTPException(403, "token: only the umpire's opens the umpire's view")

    @property
    def opened(self) -> Callable[[str], AbstractContextManager[LiveGame]]:
        """``with ctx.opened(game_id) as live:`` the game, locked for the block."""
        return self.store.locked
