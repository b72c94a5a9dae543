"""Shared fixtures."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=40, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def tiny() -> str:
    """The tiny two-cruiser scenario the simulator tests play: tests/data/tiny_duel.toml."""
    return str(Path(__file__).with_name("data") / "tiny_duel.toml")


def _tool_module(stem: str) -> ModuleType:
    """``tools/<stem>.py`` imported as a module, once (``tools`` is not a package)."""
    name = f"battleline_tools_{stem}"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parents[1] / "tools" / f"{stem}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def project_tool() -> Callable[[str], ModuleType]:
    """Import one of the project's scripts in ``tools/`` by its stem (``"calibrate"``)."""
    return _tool_module
