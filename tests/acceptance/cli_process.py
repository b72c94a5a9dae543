"""Run the real ``battleline`` CLI in a subprocess and check its one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m battleline.cli ARGS`` in a real process (the console entry point's path)."""
    return subprocess.run(
        [sys.executable, "-m", "battleline.cli", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
        timeout=300,
    )


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    """Exit code 2, no traceback, exactly one ``error:`` line; the line, unwrapped."""
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert "Traceback" not in proc.stderr and "Traceback" not in proc.stdout
    line = proc.stderr.strip()
    assert line.startswith("error: ") and "\n" not in line and line.count("error:") == 1, line
    return line
