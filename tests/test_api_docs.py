"""The example of ``docs/api.md`` runs as written (issue 11, §10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def test_the_api_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 5
    namespace: dict[str, object] = {}
    exec(compile("\n".join(blocks), str(DOC), "exec"), namespace)
    out = capsys.readouterr().out
    assert "['Yoshino'] ['Kasagi']" in out  # own ships and contacts from the view
    assert "vitals" in out  # the fixed dice put both rounds on the vitals
    assert "gunfire" in out  # the sweep's damage table
    view = namespace["view"]
    assert view.side == "Blue"  # type: ignore[attr-defined]
