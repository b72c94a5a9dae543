"""The engine's part of a game state, and the stable hash of any state.

:class:`EngineState` holds what the engine itself reads and writes between two submissions: the
scenario and ruleset names, the seed and how many dice have been drawn, the sides, the turn limit,
where the turn stands (turn number and phase) and the result. Each ruleset's state extends it with
its own fields (ship logs, poses, cards ...); the engine never looks at those. A state is a mutable
dataclass; the engine copies it once per resolution (``copy``) so a caller's state is never
changed under it (architecture.md, "State and copies").

:func:`state_hash` is the sha256 of a canonical JSON dump (sorted keys, floats rounded to six
decimals); replay verification compares it. A value that should be dumped in its own way (a ship
log gives its class by name) defines ``__plain__``.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass
from enum import Enum
from typing import Any, Self

_DIGITS = 6


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended: the winner (``None`` for a draw), the points each side scored, and why."""

    winner: str | None
    points: dict[str, float]
    reason: str

    def line(self) -> str:
        """The one-line verdict, e.g. "Japan wins 24 to 6 (turn limit reached)"."""
        pts = " to ".join(f"{v:g}" for v in sorted(self.points.values(), reverse=True))
        if self.winner is None:
            return f"Draw, {pts} ({self.reason})"
        return f"{self.winner} wins {pts} ({self.reason})"


@dataclass(slots=True, kw_only=True)
class EngineState:
    """What the engine knows of every game; a ruleset's state adds its own fields."""

    scenario: str
    ruleset: str
    seed: int
    sides: tuple[str, ...]
    turn_limit: int
    turn: int = 1
    phase: str = ""
    draws: int = 0
    result: Result | None = None

    @property
    def finished(self) -> bool:
        """True once a result has been declared."""
        return self.result is not None

    def copy(self) -> Self:
        """A copy sharing nothing mutable with this state (a rule system may do it faster)."""
        return copy.deepcopy(self)

    def to_dict(self) -> dict[str, Any]:
        """The whole state as canonical plain JSON."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}


#: Types ``copy.deepcopy`` returns as they are (immutable leaves of JSON-like data).
_ATOMIC = frozenset({type(None), bool, int, float, str})


def copy_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """``copy.deepcopy(extra)``, faster for what a state's ``extra`` holds (JSON-like data).

    Plain dicts are rebuilt here, their atomic keys and values (None, bool, int, float, str)
    shared as ``deepcopy`` shares them; anything else goes to ``copy.deepcopy`` with the same
    memo, and a dict met twice is copied once, so the result is exactly ``deepcopy``'s, sharing
    included (``tests/engine/test_state_copy.py``).
    """
    if type(extra) is not dict:
        return copy.deepcopy(extra)
    new: dict[str, Any] = _deepcopy_dict(extra, {})
    return new


def _deepcopy_dict(value: dict[Any, Any], memo: dict[int, Any]) -> dict[Any, Any]:
    """One plain dict of :func:`copy_extra`, keyed in ``memo`` by ``id`` as ``deepcopy`` does."""
    found: dict[Any, Any] | None = memo.get(id(value))
    if found is not None:
        return found
    new: dict[Any, Any] = {}
    memo[id(value)] = new
    for key, item in value.items():
        if type(key) not in _ATOMIC:
            key = copy.deepcopy(key, memo)
        if type(item) is dict:
            item = _deepcopy_dict(item, memo)
        elif type(item) not in _ATOMIC:
            item = copy.deepcopy(item, memo)
        new[key] = item
    return new


def _plain(value: Any) -> Any:
    """A JSON-able, canonical form of any state value (floats rounded, sets sorted)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        r = round(value, _DIGITS)
        return 0.0 if r == 0 else r
    if isinstance(value, Enum):
        return _plain(value.value)
    if isinstance(value, dict):
        return {str(_plain(k)): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted((_plain(v) for v in value), key=repr)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        own = getattr(value, "__plain__", None)
        if own is not None:
            return own()
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return repr(value)


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, floats already rounded by :func:`_plain`."""
    return json.dumps(_plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plain(value: Any) -> Any:
    """A JSON-able, canonical form of any state value (floats rounded, sets sorted)."""
    return _plain(value)


def state_hash(state: EngineState) -> str:
    """sha256 of the canonical JSON dump of the state."""
    return hashlib.sha256(canonical_json(state.to_dict()).encode("utf-8")).hexdigest()
