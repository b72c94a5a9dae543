"""Undo for tabletop sessions: the exact bytes of the session file before each command.

Every command that changes a session file (``report``, ``damage``) first reads the file's bytes;
after it has saved the new session it pushes those bytes, with the command's description and a
digest of what it wrote, onto a stack kept beside the session (``FILE.undo``). :func:`undo`
writes the top entry's bytes back, so the file is restored byte for byte, and refuses when the
file was changed by anything else since (its digest differs).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from battleline.engine.sessionfile import write_atomic
from battleline.errors import ScenarioError

FORMAT = "battleline-tabletop-undo"
VERSION = 1
#: How many commands can be taken back.
DEPTH = 50


class UndoError(ScenarioError):
    """Nothing to undo, or the undo file or session file cannot be used; the message says why."""


def undo_path(session: Path) -> Path:
    """The undo stack kept beside a session file."""
    return session.with_name(session.name + ".undo")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _load(session: Path) -> list[dict[str, Any]]:
    path = undo_path(session)
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UndoError(f"{path}: cannot read the undo record ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise UndoError(f"{path}: field 'format': not a battleline undo record")
    steps = data.get("steps")
    if not isinstance(steps, list) or not all(
        isinstance(s, dict) and {"command", "before", "after"} <= s.keys() for s in steps
    ):
        raise UndoError(f"{path}: field 'steps': malformed")
    return steps


def _save(session: Path, steps: list[dict[str, Any]]) -> None:
    path = undo_path(session)
    if not steps:
        path.unlink(missing_ok=True)
        return
    body = {"format": FORMAT, "version": VERSION, "steps": steps[-DEPTH:]}
    write_atomic(
        path, (json.dumps(body, ensure_ascii=True, indent=1) + "\n").encode("ascii"), UndoError
    )


def push(session: Path, before: bytes, command: str) -> None:
    """Remember ``before`` (the file's bytes before ``command``), after the command saved."""
    steps = _load(session)
    steps.append(
        {
            "command": command,
            # surrogateescape keeps any byte exactly, even one that is not UTF-8
            "before": before.decode("utf-8", "surrogateescape"),
            "after": _digest(session.read_bytes()),
        }
    )
    _save(session, steps)


def forget(session: Path) -> None:
    """Drop the undo stack (a new session replaces the file)."""
    undo_path(session).unlink(missing_ok=True)


def undo(session: Path) -> str:
    """Restore the session file as it was before the last command; returns that command."""
    steps = _load(session)
    if not steps:
        raise UndoError(f"{session}: nothing to undo")
    last = steps[-1]
    try:
        now = session.read_bytes()
    except OSError as exc:
        raise UndoError(f"{session}: cannot read: {exc.strerror}") from None
    if _digest(now) != last["after"]:
        raise UndoError(
            f"{session}: the file was changed after {last['command']!r} by something else; "
            "undo would lose that change, so it is refused"
        )
    write_atomic(session, str(last["before"]).encode("utf-8", "surrogateescape"), UndoError)
    _save(session, steps[:-1])
    return str(last["command"])
