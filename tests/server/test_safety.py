"""Safe creation and seats (issue 13, part 1), through the API on both stores.

A game is made from a built-in name or from uploaded TOML text stored with the game; no request
makes the server open a path it names; a side acts only through the seat it claimed with its
invite; the seed stays secret until the battle ends; every bad request gets a 4xx naming the
problem (bad JSON, binary and huge bodies, unknown names, bad tokens); rate limits answer 429.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import matplotlib
import pytest
from fastapi.testclient import TestClient

from battleline.rulesets.bf1900.scenario import builtin_scenarios
from battleline.server.app import create_app
from battleline.server.limits import Limits
from battleline.server.scenarios import MAX_SCENARIO_BYTES
from server.server_helpers import Seat, claim, start

DUEL = Path(sys.modules["battleline.rulesets.bf1900.scenario"].__file__ or "").parent / (
    "data/scenarios/01-cruiser-duel.toml"
)
#: The cruiser duel under another id: text a creator might upload.
UPLOADED = DUEL.read_text(encoding="utf-8").replace('id = "cruiser-duel"', 'id = "my-duel"', 1)
PATHS = ["/dev/zero", "/etc/passwd", "/etc/hostname", "../../etc/passwd", "/no/such/file.toml"]

_opened: list[str] | None = None


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if event == "open" and _opened is not None and isinstance(args[0], str | bytes | Path):
        _opened.append(str(args[0]))


sys.addaudithook(_audit)


@pytest.fixture
def opened() -> Iterator[list[str]]:
    """Every file the process opens while the test runs (from the ``open`` audit event)."""
    global _opened
    _opened = []
    try:
        yield _opened
    finally:
        _opened = None


def test_a_name_that_is_not_built_in_is_refused_and_never_opened(
    client: TestClient, opened: list[str]
) -> None:
    """/dev/zero, /etc/passwd, relative and missing paths: 422 with the list, nothing opened."""
    for path in PATHS:
        r = client.post("/api/games", json={"scenario": path, "ai": ["Red"]})
        assert r.status_code == 422, (path, r.text)
        detail = r.json()["detail"]
        assert "not a built-in scenario" in detail and "never opens a path" in detail
        assert all(name in detail for name in builtin_scenarios())
    # The answers are the same whether the file exists or not: no file-existence oracle.
    answers = {
        client.post("/api/games", json={"scenario": p}).json()["detail"].split("'")[2]
        for p in PATHS
    }
    assert len(answers) == 1
    touched = [p for p in opened if any(p.endswith(x.lstrip("./")) for x in PATHS)]
    assert touched == []


def test_no_api_call_reads_a_path_from_the_request(
    client: TestClient, opened: list[str], scenario_dir: Path, tmp_path: Path
) -> None:
    """A whole game through every route opens only the package's data, the database and the
    server's own scenario folder."""
    made, seats = start(client, ai=["Red"], scenario=None, scenario_text=UPLOADED)
    blue = seats["Blue"]
    assert blue.order(1, "command", "Blue cruiser: SPD15").status_code == 200
    assert blue.get("view").status_code == 200 and blue.get("picture.svg").status_code == 200
    assert seats["umpire"].get("umpire").status_code == 200
    assert client.get(f"/api/games/{made['game_id']}").status_code == 200
    package = Path(sys.modules["battleline"].__file__ or "").parent
    drawing = (matplotlib.get_cachedir(), matplotlib.get_configdir(), tempfile.gettempdir())
    zones = "/usr/share/zoneinfo"  # the PostgreSQL driver reads the time zone
    allowed = (str(package), str(tmp_path), sys.prefix, sys.base_prefix, zones, *drawing)
    strange = [p for p in opened if not p.startswith(allowed)]
    assert strange == []
    assert any(p.startswith(str(scenario_dir)) for p in opened)  # the upload, written and read


def test_an_uploaded_scenario_is_stored_with_its_game_and_survives_its_file(
    db: str, scenario_dir: Path
) -> None:
    """The text is in the database: deleting every scenario file and restarting breaks nothing."""
    with TestClient(create_app(db, allow_seed=True, scenario_dir=scenario_dir)) as c:
        made, seats = start(c, scenario=None, scenario_text=UPLOADED)
        assert made["scenario"].startswith("upload-") and made["title"].startswith("Cruiser duel")
        assert seats["Blue"].order(1, "command", "Blue cruiser: SPD15").status_code == 200
        tokens = {side: s.token for side, s in seats.items()}
    shutil.rmtree(scenario_dir)
    with TestClient(create_app(db, scenario_dir=scenario_dir)) as c:
        blue = Seat(c, made["game_id"], tokens["Blue"])
        red = Seat(c, made["game_id"], tokens["Red"])
        assert blue.view()["my_orders"] == ["Blue cruiser: SPD15"]
        assert red.order(1, "command", "Red cruiser: SPD16").json()["phase"] == "gunnery"
        shutil.rmtree(scenario_dir)  # deleted again while the game is live
        assert blue.order(1, "gunnery", "Yoshino: Kasagi @5150 AP A:1 Z:1").status_code == 200
        assert red.view()["waiting_for"] == ["Red"]


def test_the_raw_upload_route_takes_a_scenario_file(client: TestClient) -> None:
    r = client.post(
        "/api/games/upload",
        params={"ai": "Red", "seed": 3},
        content=UPLOADED.encode("utf-8"),
        headers={"Content-Type": "application/toml"},
    )
    assert r.status_code == 201, r.text
    assert [i["human"] for i in r.json()["invites"]] == [True, False]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not UTF-8"),
        (b"id = 'x'\x00\x00", "NUL"),
        ("id = 'x'\ntitle = 'caf\u00e9'\n".encode("latin-1"), "not UTF-8"),
        (b"this is = = not toml", "not valid TOML"),
        (b"   ", "empty"),
        (b'id = "x"\n', "scenario_text: title"),
        (b'ruleset = "chess"\n', "scenario_text: ruleset"),
        (UPLOADED.replace('class = "Kasagi"', 'class = "Kasagiii"').encode(), "Kasagiii"),
        (b"#" * (MAX_SCENARIO_BYTES + 1), "more than the limit"),
    ],
)
def test_bad_uploads_get_a_4xx_naming_the_problem(
    client: TestClient, body: bytes, problem: str, scenario_dir: Path
) -> None:
    r = client.post("/api/games/upload", content=body)
    assert r.status_code == 422, r.text
    assert problem in r.json()["detail"]
    assert str(scenario_dir) not in r.json()["detail"]  # the server's folder stays its own
    assert list(scenario_dir.glob("upload-*")) == []  # no file is left for a refused text


def test_bad_scenario_text_in_json_gets_a_4xx(client: TestClient) -> None:
    lone = '{"scenario_text": "id = \\"\\ud800\\""}'  # a lone surrogate: not encodable
    r = client.post("/api/games", content=lone, headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"].startswith("scenario_text:")
    both = {"scenario": "cruiser-duel", "scenario_text": UPLOADED}
    r = client.post("/api/games", json=both)
    assert r.status_code == 422 and "not both" in r.json()["detail"]
    r = client.post("/api/games", json={})
    assert r.status_code == 422 and "missing" in r.json()["detail"]
    r = client.post("/api/games", json={"scenario_text": "x" * (MAX_SCENARIO_BYTES + 1)})
    assert r.status_code == 422 and "scenario_text" in r.json()["detail"]


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe\x00\x01binary", "not valid JSON"),
        (b'{"scenario": 12}', "scenario"),
        (b'{"scenario": "cruiser-duel", "secnario": 1}', "secnario"),
        (b'{"scenario": "cruiser-duel", "ai": "Red"}', "ai"),
        (b"[]", "body"),
    ],
)
def test_malformed_requests_get_a_422_naming_the_field(
    client: TestClient, body: bytes, problem: str
) -> None:
    r = client.post("/api/games", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 422, r.text
    assert isinstance(r.json()["detail"], str) and problem in r.json()["detail"]


def test_huge_bodies_are_refused_with_413_on_every_route(client: TestClient) -> None:
    made, seats = start(client)
    game = made["game_id"]
    big = b"x" * (1024 * 1024 + 1)
    for path in ("/api/games", "/api/games/upload", f"/api/games/{game}/orders", "/api/scenarios"):
        r = client.post(path, content=big)
        assert r.status_code == 413, path
        assert "body" in r.json()["detail"]
    r = client.post(f"/api/games/{game}/claim", content=b"{" + b" " * 70_000 + b"}")
    assert r.status_code == 413
    r = seats["Blue"].order(1, "command", *(["Blue cruiser: SPD15"] * 4000))
    assert r.status_code == 413


def test_a_seed_is_secret_until_the_battle_ends(db: str) -> None:
    with TestClient(create_app(db)) as c:
        r = c.post("/api/games", json={"scenario": "cruiser-duel", "seed": 5, "ai": ["Red"]})
        assert r.status_code == 422 and r.json()["detail"].startswith("seed:")
        made, seats = start(c, ai=["Red"], seed=None)  # type: ignore[arg-type]
        info = c.get(f"/api/games/{made['game_id']}").json()
        assert info["seed"] is None and not info["finished"]
        assert seats["umpire"].get("umpire").json()["state"]["seed"] is None
        assert "seed" not in seats["Blue"].view()
        blue = seats["Blue"]
        assert blue.order(1, "command", "Blue cruiser: SIG SURRENDER").status_code == 200
        while not (view := blue.view())["result"]:
            assert blue.order(view["turn"], view["phase"]).status_code == 200
        info = c.get(f"/api/games/{made['game_id']}").json()
        assert info["finished"] and isinstance(info["seed"], int)
        umpire = seats["umpire"].get("umpire").json()
        assert umpire["state"]["seed"] == info["seed"]
        assert json.loads(umpire["record"])["seed"] == info["seed"]


def test_the_creator_cannot_act_for_a_side_without_claiming_it(client: TestClient) -> None:
    """Invites and the umpire's credential open no side; a claim works once."""
    made = client.post("/api/games", json={"scenario": "cruiser-duel", "seed": 1}).json()
    game = made["game_id"]
    invite = {i["side"]: i["invite"] for i in made["invites"]}
    order = {"turn": 1, "phase": "command", "lines": ["Blue cruiser: SPD15"]}
    for token in (invite["Blue"], invite["Red"], made["umpire_token"]):
        headers = {"X-Battleline-Token": token}
        assert client.get(f"/api/games/{game}/view", headers=headers).status_code == 403
        r = client.post(f"/api/games/{game}/orders", headers=headers, json=order)
        assert r.status_code == 403 and "token" in r.json()["detail"]
        assert (
            client.post(f"/api/games/{game}/check", headers=headers, json=order).status_code == 403
        )
    assert client.get(f"/api/games/{game}").json()["seats"][0]["claimed"] is False
    got = claim(client, game, invite["Blue"])
    assert got.status_code == 200 and got.json()["side"] == "Blue"
    assert got.json()["url"].endswith(f"#game={game}&token={got.json()['token']}")
    again = claim(client, game, invite["Blue"])
    assert again.status_code == 409 and "claimed already" in again.json()["detail"]
    assert claim(client, game, "guessed").status_code == 403
    assert claim(client, "nosuchgame", invite["Red"]).status_code == 404
    other = client.post("/api/games", json={"scenario": "cruiser-duel", "seed": 1}).json()
    assert claim(client, other["game_id"], invite["Red"]).status_code == 403
    blue = Seat(client, game, got.json()["token"])
    assert blue.order(1, "command", "Blue cruiser: SPD15").status_code == 200
    seats = client.get(f"/api/games/{game}").json()["seats"]
    assert [(s["side"], s["claimed"]) for s in seats] == [("Blue", True), ("Red", False)]


def test_bad_tokens_and_ids_get_4xx(client: TestClient) -> None:
    made, _seats = start(client)
    game = made["game_id"]
    for headers in (
        {"X-Battleline-Token": "x" * 201},
        {"Authorization": "Basic abc"},
        {"X-Battleline-Token": "\u00e9t\u00e9".encode()},  # type: ignore[dict-item]
    ):
        r = client.get(f"/api/games/{game}/view", headers=headers)
        assert r.status_code in (403, 422), headers
        assert "token" in r.text.lower()
    assert client.get(f"/api/games/{'a' * 65}/view").status_code == 422
    assert client.get("/api/games/nosuch").status_code == 404


def test_rate_limit_answers_429_with_retry_after(db: str) -> None:
    limits = Limits(rate=0.01, burst=5, create_rate=0.01, create_burst=1)
    with TestClient(create_app(db, limits=limits)) as c:
        answers = [c.get("/api/scenarios").status_code for _ in range(7)]
        assert answers == [200] * 5 + [429] * 2
        r = c.get("/api/notation")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "too many requests" in r.json()["detail"]
        for page_file in ("/", "/umpire", "/static/js/main.js", "/static/style.css"):
            assert c.get(page_file).status_code == 200, page_file  # the page's files: free
        assert c.get("/api/notation").status_code == 429
        assert c.post("/api/games", json={"scenario": "cruiser-duel"}).status_code == 201
        r = c.post("/api/games", json={"scenario": "cruiser-duel"})
        assert r.status_code == 429 and "new games" in r.json()["detail"]


def test_a_tampered_scenario_copy_is_written_again(client: TestClient, scenario_dir: Path) -> None:
    """The server's copy of an upload is named by its digest; other bytes under it are replaced."""
    from battleline.server.scenarios import _verified, materialize

    made, _seats = start(client, scenario=None, scenario_text=UPLOADED)
    digest = made["scenario"].removeprefix("upload-")
    copy = scenario_dir / f"upload-{digest}.toml"
    copy.write_text(UPLOADED.replace("Yoshino", "Kasagi"))
    _verified.discard(copy)
    assert materialize(scenario_dir, digest, UPLOADED) == copy
    assert copy.read_text(encoding="utf-8") == UPLOADED
    scenario_dir.chmod(0o777)
    _verified.discard(copy)
    with pytest.raises(ValueError, match="writable by no one else"):
        materialize(scenario_dir, digest, UPLOADED)
    scenario_dir.chmod(0o700)


def test_a_failed_save_is_answered_503_and_nothing_is_kept(client: TestClient) -> None:
    """The orders were sealed in memory but not committed: no 200, and the copy is dropped."""
    import sqlite3

    from sqlalchemy.exc import OperationalError

    _made, seats = start(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    real = store._write

    def locked(_work: Any) -> None:
        raise OperationalError("UPDATE games", {}, sqlite3.OperationalError("database is locked"))

    store._write = locked
    r = seats["Blue"].order(1, "command", "Blue cruiser: SPD15")
    assert r.status_code == 503 and "nothing was saved" in r.json()["detail"]
    assert r.headers["retry-after"] == "1"
    store._write = real
    assert seats["Blue"].view()["my_orders"] is None
    assert seats["Blue"].order(1, "command", "Blue cruiser: SPD15").status_code == 200
    assert seats["Blue"].view()["my_orders"] == ["Blue cruiser: SPD15"]


def test_a_game_stored_with_a_path_is_refused_without_opening_it(
    client: TestClient, opened: list[str]
) -> None:
    """A game an older version made from a file path answers 410; the path is never opened."""
    from sqlalchemy import update

    from battleline.server.tables import GameRow

    made, seats = start(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    with store.engine.begin() as conn:
        conn.execute(
            update(GameRow).where(GameRow.id == made["game_id"]).values(scenario="/etc/passwd")
        )
    store.forget(made["game_id"])
    r = seats["Blue"].get("view")
    assert r.status_code == 410 and "older version" in r.json()["detail"]
    assert client.get(f"/api/games/{made['game_id']}").status_code == 410
    assert [p for p in opened if "passwd" in p] == []


def test_no_body_on_any_route_gets_a_5xx(sqlite_db: str, scenario_dir: Path) -> None:
    """Hypothesis: arbitrary bytes, JSON values and credentials give a 4xx or a 2xx, never 5xx."""
    from hypothesis import given
    from hypothesis import strategies as st

    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=40),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
        max_leaves=12,
    )
    order_like = st.fixed_dictionaries(
        {"turn": st.integers(-5, 20), "phase": st.text(max_size=12), "lines": st.lists(st.text())}
    )
    with TestClient(
        create_app(sqlite_db, limits=Limits.unlimited_rate(), scenario_dir=scenario_dir)
    ) as c:
        made, seats = start(c, seed=None)  # type: ignore[arg-type]
        game, token = made["game_id"], seats["Blue"].token
        routes = ["/api/games", "/api/games/upload", f"/api/games/{game}/claim"]
        routes += [f"/api/games/{game}/orders", f"/api/games/{game}/check"]

        @given(
            st.sampled_from(routes),
            st.binary(max_size=300) | json_values.map(json.dumps) | order_like.map(json.dumps),
            st.sampled_from([token, "", "nonsense", made["umpire_token"]]),
        )
        def never_5xx(path: str, body: bytes | str, credential: str) -> None:
            r = c.post(
                path,
                content=body,
                headers={"X-Battleline-Token": credential, "Content-Type": "application/json"},
            )
            assert r.status_code < 500, (path, body, r.text)
            if r.status_code >= 400:
                assert isinstance(r.json()["detail"], str) and r.json()["detail"]

        never_5xx()
