"""Shared fixtures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=40, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def tiny() -> str:
    """The tiny two-cruiser scenario the simulator tests play: tests/data/tiny_duel.toml."""
    return str(Path(__file__).with_name("data") / "tiny_duel.toml")
