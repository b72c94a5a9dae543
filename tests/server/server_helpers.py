"""Helpers of the server tests: a player's seat, making a game and claiming its seats."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


class Seat:
    """One player at a browser: the game id and the seat's credential."""

    def __init__(self, client: TestClient, game: str, token: str) -> None:
        self.client, self.game, self.token = client, game, token

    def get(self, what: str, **params: Any) -> Any:
        return self.client.get(
            f"/api/games/{self.game}/{what}",
            headers={"X-Battleline-Token": self.token},
            params=params,
        )

    def view(self) -> dict[str, Any]:
        r = self.get("view")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def raw_view(self) -> str:
        return str(self.get("view").text)

    def order(self, turn: int, phase: str, *lines: str) -> Any:
        return self.client.post(
            f"/api/games/{self.game}/orders",
            headers={"X-Battleline-Token": self.token},
            json={"turn": turn, "phase": phase, "lines": list(lines)},
        )


def claim(client: TestClient, game: str, invite: str) -> Any:
    return client.post(f"/api/games/{game}/claim", json={"invite": invite})


def start(
    client: TestClient, ai: list[str] | None = None, seed: int = 7, **body: Any
) -> tuple[dict[str, Any], dict[str, Seat]]:
    """Make a game and claim every human seat through its invite."""
    made_with = {"scenario": "cruiser-duel", "seed": seed, "ai": ai or [], **body}
    r = client.post("/api/games", json=made_with)
    assert r.status_code == 201, r.text
    made = r.json()
    seats = {}
    for inv in made["invites"]:
        if inv["human"]:
            got = claim(client, made["game_id"], inv["invite"])
            assert got.status_code == 200, got.text
            assert got.json()["side"] == inv["side"]
            seats[inv["side"]] = Seat(client, made["game_id"], got.json()["token"])
    seats["umpire"] = Seat(client, made["game_id"], made["umpire_token"])
    return made, seats
