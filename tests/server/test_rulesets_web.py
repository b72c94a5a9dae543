"""Every ruleset plays in the web game (issue 11, §2): a human side against the server's AI.

The human here holds his fire and gives no orders; the AI side plays. Each game runs to its
result over the API on both stores, and the human's view holds his own ships and only what
shows of the enemy's.
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.server.server_helpers import start

GAMES = {
    "tgd": ("tgd-duel", "Russia"),
    "dba": ("dba-tutorial", None),
    "bf1900-1d12": ("cruiser-duel-1d12", "Red"),
}


def test_every_ruleset_lists_its_scenarios(client: TestClient) -> None:
    listed = {s["id"]: s["ruleset"] for s in client.get("/api/scenarios").json()}
    for ruleset, (scenario, _) in GAMES.items():
        assert listed.get(scenario) == ruleset
    assert listed.get("cruiser-duel") == "bf1900"


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_game_of_each_ruleset_plays_to_its_end_over_the_api(
    client: TestClient, ruleset: str
) -> None:
    scenario, ai = GAMES[ruleset]
    sides = next(s["sides"] for s in client.get("/api/scenarios").json() if s["id"] == scenario)
    ai = ai or sides[1]
    human = next(s for s in sides if s != ai)
    _, seats = start(client, ai=[ai], scenario=scenario, seed=3)
    me = seats[human]
    view = me.view()
    assert view["side"] == human
    for _ in range(400):
        view = me.view()
        if view["result"]:
            break
        sent = me.order(view["turn"], view["phase"])
        assert sent.status_code == 200, sent.text
    assert view["result"], "the game did not end"
    raw = me.raw_view()
    assert "Traceback" not in raw
