"""A tgd game through the web API: a human side against the server's AI admiral, to the end;
the side's view carries its own card and only what shows of the enemy's."""

from __future__ import annotations

from fastapi.testclient import TestClient

from battleline.server.app import create_app


def test_a_tgd_game_over_http_to_the_end() -> None:
    client = TestClient(create_app())
    made = client.post("/api/games", json={"scenario": "tgd-duel", "seed": 1, "ai": ["Russia"]})
    assert made.status_code == 201, made.text
    game, token = made.json()["game_id"], made.json()["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    fired = 0
    for _ in range(200):
        view = client.get(f"/api/games/{game}/view", headers=auth).json()
        if view["result"]:
            break
        assert set(view["seen"][0]) == {"name", "burning", "stopped", "sunk"}
        assert "log" not in view["seen"][0] and view["cards"][0]["name"] == "Mikasa"
        lines: list[str] = []
        if view["phase"].startswith("fire-") and view["firing_side"] == "Japan":
            ready = view["cards"][0]["ready"]
            lines = ["Mikasa: 6 -> Retvisan"] if {"f 6x2", "a 6x2"} & set(ready) else []
            fired += len(lines)
        body = {"turn": view["turn"], "phase": view["phase"], "lines": lines}
        sent = client.post(f"/api/games/{game}/orders", headers=auth, json=body)
        assert sent.status_code == 200, sent.text
    assert view["result"] and fired >= 3
