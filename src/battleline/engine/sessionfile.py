"""Session files shared by the table-assist referees (tabletop BF 1900, TGD).

A session is one JSON object written atomically; it is read back with clear errors, and its dice
are rebuilt from the seed and the number of dice already drawn, so a saved game continues exactly
as an unbroken one would.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from battleline.engine.dice import SeededDice
from battleline.engine.events import EventLog
from battleline.errors import BattlelineError


def save_json_atomic(
    path: str | Path, data: Mapping[str, Any], error: type[BattlelineError]
) -> None:
    """Write ``data`` as JSON, atomically: a crash never leaves half a file.

    A folder that cannot be written raises ``error`` naming the file.
    """
    target = Path(path)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise error(f"{target}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_json_object(
    path: str | Path, error: type[BattlelineError], *, kind: str, missing: str
) -> dict[str, Any]:
    """Read a JSON object; a missing, unreadable or malformed file raises ``error``.

    ``missing`` says what a missing file is (``"no such TGD session file"``); ``kind`` names
    what a JSON value other than an object is not (``"TGD session"``).
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{p}: {missing}") from None
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{p}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise error(f"{p}: not a battleline {kind}")
    return data


def replay_dice(seed: int, draws: int, events: EventLog) -> SeededDice:
    """Seeded dice advanced past the ``draws`` already made, narrating into ``events``."""
    dice = SeededDice(seed)
    for _ in range(draws):
        dice.roll(6, "replay")  # skip the dice earlier turns used
    dice.log = events
    return dice
