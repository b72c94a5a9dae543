"""The server tests run on both stores: SQLite files, and PostgreSQL when one is given.

``BATTLELINE_TEST_PG_URL`` (``.ci/run`` starts a local server and sets it) names a PostgreSQL
database; each test gets a schema of its own there, dropped afterwards. Without the variable the
PostgreSQL half of every store test skips.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from battleline.server.app import create_app
from battleline.server.limits import Limits

PG_URL = os.environ.get("BATTLELINE_TEST_PG_URL", "")


def _pg_schema_url(base: str) -> Iterator[str]:
    from sqlalchemy import create_engine, text

    schema = "t_" + secrets.token_hex(6)
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    sep = "&" if "?" in base else "?"
    try:
        yield f"{base}{sep}options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind: a SQLite file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
        return
    if not PG_URL:
        pytest.skip("BATTLELINE_TEST_PG_URL is not set (.ci/run starts a PostgreSQL)")
    yield from _pg_schema_url(PG_URL)


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    """A SQLite file (for the tests about the file itself)."""
    return str(tmp_path / "games.sqlite3")


@pytest.fixture
def scenario_dir(tmp_path: Path) -> Path:
    """Where the server writes uploaded scenarios for the engine."""
    return tmp_path / "scenarios"


@pytest.fixture
def client(db: str, scenario_dir: Path) -> Iterator[TestClient]:
    """The app over ``db`` through Starlette's test client. Every request comes from one
    address here, and whole games run as fast as the machine, so the rate limit is off (the
    body limits stay); the rate-limit tests make apps of their own (``test_safety.py``)."""
    app = create_app(db, allow_seed=True, scenario_dir=scenario_dir, limits=Limits.unlimited_rate())
    with TestClient(app) as c:
        yield c
