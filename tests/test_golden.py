"""The golden battles (``tools/golden.py``): fourteen fixed AI battles keep their dice and orders.

A change that alters a rule or an AI decision on purpose re-records ``tools/golden.json`` in the
same commit and says so in its message (issue 11, §8).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_golden_battles_keep_their_dice_and_orders() -> None:
    proc = subprocess.run(
        [sys.executable, "tools/golden.py", "--check", "tools/golden.json", "--workers", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("identical")
