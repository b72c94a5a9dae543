"""The game state and its stable hash.

One :class:`GameState` holds everything a game needs between two submissions: the ship logs, the
ships' poses, the divisions, where the turn stands (turn number and phase), the seed and how many
dice have been drawn, and the transient hand-overs between phases of one turn (the division plans
from the Command Phase, the shell sets of the Gunnery Phase, the torpedo hits). The state is a
mutable dataclass; the engine copies it once per resolution (``GameState.copy``) so a caller's
state is never changed under it (architecture.md, "State and copies").

:func:`state_hash` is the sha256 of a canonical JSON dump (sorted keys, floats rounded to six
decimals); replay verification compares it.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any

from battleline.engine.geometry import Pose
from battleline.rulesets.bf1900.shiplog import ShipLog

if TYPE_CHECKING:  # a runtime import would be circular when divisions.py is imported first
    from battleline.rulesets.bf1900.divisions import Division
from battleline.rulesets.bf1900.hits import ShellSet, TorpedoHit
from battleline.rulesets.bf1900.notation import Order

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


@dataclass(slots=True)
class GameState:
    """Everything the engine knows about one game at a phase boundary."""

    scenario: str
    ruleset: str
    seed: int
    sides: tuple[str, ...]
    logs: dict[str, ShipLog]
    poses: dict[str, Pose]
    divisions: dict[str, Division]
    turn_limit: int
    scale: str
    land: list[list[tuple[float, float]]] = field(default_factory=list)
    turn: int = 1
    phase: str = ""
    draws: int = 0
    result: Result | None = None
    #: Ship centre tracks, one point per Movement Phase, for the battle picture.
    tracks: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    #: Distance each ship moved last turn, metres (BF6-MOV-03 speed change limit).
    moved_last_m: dict[str, float] = field(default_factory=dict)
    #: Hand-overs inside one turn, cleared when the turn ends: each division's movement orders
    #: (Command → Movement), the hit zones' shell sets (Gunnery → Damage Step Two) and the
    #: torpedo hits (Torpedo Movement → Damage Step Two).
    plans: dict[str, tuple[Order, ...]] | None = None
    shell_sets: list[ShellSet] = field(default_factory=list)
    torpedo_hits: list[TorpedoHit] = field(default_factory=list)
    #: Ruleset-owned values that must survive between turns (JSON-able only).
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def finished(self) -> bool:
        """True once a result has been declared."""
        return self.result is not None

    def side_of(self, ship: str) -> str:
        """The side a ship fights for."""
        return self.logs[ship].side

    def ships_of(self, side: str) -> list[str]:
        """A side's ships in scenario order."""
        return [n for n, log in self.logs.items() if log.side == side]

    def copy(self) -> GameState:
        """One copy per resolution: logs deep-copied, class values shared (frozen).

        The shallow copy is made slot by slot without ``__init__`` (``copy.copy`` goes through
        ``__reduce_ex__``, several times slower); every mutable field is then replaced below.
        """
        new: GameState = object.__new__(GameState)
        for name in _STATE_SLOTS:
            setattr(new, name, getattr(self, name))
        new.logs = {k: v.copy() for k, v in self.logs.items()}
        new.poses = dict(self.poses)
        new.divisions = dict(self.divisions)  # Division is frozen
        new.land = self.land  # never changes during a game
        new.tracks = {k: list(v) for k, v in self.tracks.items()}
        new.moved_last_m = dict(self.moved_last_m)
        new.plans = None if self.plans is None else dict(self.plans)  # orders are frozen
        new.shell_sets = list(self.shell_sets)
        new.torpedo_hits = list(self.torpedo_hits)
        new.extra = copy_extra(self.extra)
        return new


#: Every field of :class:`GameState` (its slots), for the shallow step of ``GameState.copy``.
_STATE_SLOTS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(GameState))

#: Types ``copy.deepcopy`` returns as they are (immutable leaves of JSON-like data).
_ATOMIC = frozenset({type(None), bool, int, float, str})


def copy_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """``copy.deepcopy(extra)``, faster for what ``GameState.extra`` holds (JSON-like data).

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
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return repr(value)


def log_to_dict(log: ShipLog) -> dict[str, Any]:
    """A ship log's marks as plain JSON; the class is given by name only."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(log):
        if f.name == "cls":
            out["class"] = log.cls.name
        else:
            out[f.name] = _plain(getattr(log, f.name))
    return out


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The whole state as canonical plain JSON (ship classes by name)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(state):
        value = getattr(state, f.name)
        if f.name == "logs":
            out["logs"] = {k: log_to_dict(v) for k, v in value.items()}
        else:
            out[f.name] = _plain(value)
    return out


def canonical_json(data: Any) -> str:
    """Sorted keys, no spaces, floats already rounded by :func:`_plain`."""
    return json.dumps(_plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def state_hash(state: GameState) -> str:
    """sha256 of the canonical JSON dump of the state."""
    return hashlib.sha256(canonical_json(state_to_dict(state)).encode("utf-8")).hexdigest()
