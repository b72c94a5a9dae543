"""Without the optional web packages, ``serve`` and ``web-new`` refuse with one clear line."""

from __future__ import annotations

import importlib.util

import pytest

from battleline.cli.commands import serve
from battleline.errors import BattlelineError


def test_missing_web_extra_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name)
    )
    with pytest.raises(BattlelineError, match=r"needs uvicorn: pip install 'battleline\[web\]'"):
        serve.need_web_extra()


def test_installed_web_extra_passes() -> None:
    serve.need_web_extra()
