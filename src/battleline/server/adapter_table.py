"""The server's calls into the engine for the table part: the side's table now, or as it stood.

The table is the ruleset's ``web_table`` part (:func:`battleline.rulesets.ruleset_part`), built
from the side's view. A past turn's table is rebuilt from the game's record: the orders of the
turns before it are replayed on a fresh game from the same scenario and seed, which then stands
at that turn's first phase, and the part is asked again. One replay takes a snapshot of every
turn it passes, for every side, into a bounded in-process cache keyed by a digest of the record
prefix itself (scenario reference, ruleset, seed and the orders before that turn): the key
lists no game field by hand, two games with the same record share it, and a record that differs
in anything misses it. The record is stored with the game, so a past turn's table is the same
after a page reload or a server restart (then rebuilt once).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from battleline.engine import GameRecord
from battleline.engine.record import RecordError
from battleline.errors import BattlelineError
from battleline.game import replay_game
from battleline.rulesets import ruleset_part
from battleline.server.adapter import Game

#: How much the cache of past tables may hold, in characters of their JSON (a 24-ship table is
#: about 40 KB, a cruiser duel's 3 KB); the least recently used go first.
CACHE_CHARS = 64 * 1024 * 1024


class NoTableError(BattlelineError):
    """The game's ruleset draws no table."""


def table_part(game: Game) -> ModuleType:
    """The ruleset's ``web_table`` part; :class:`NoTableError` when it has none."""
    name = game.ruleset.name
    part = ruleset_part(name, "web_table")
    if part is None:
        raise NoTableError(f"this ruleset has no table: {name} games are not drawn")
    return part


def table_now(game: Game, side: str) -> dict[str, Any]:
    """The table as ``side`` sees it at the open phase."""
    body: dict[str, Any] = table_part(game).table(game, side)
    return body


@dataclass(frozen=True, slots=True)
class Record:
    """What rebuilding a past turn needs, copied out of the live game under its lock."""

    ref: str
    scenario: str
    ruleset: str
    seed: int
    orders: tuple[tuple[int, str, str, tuple[str, ...]], ...]
    turn: int
    sides: tuple[str, ...]

    @classmethod
    def of(cls, game: Game, ref: str) -> Record:
        """The record of a live game so far."""
        st = game.state
        orders = tuple((o.turn, o.phase, o.side, tuple(o.orders)) for o in game.history)
        return cls(ref, st.scenario, st.ruleset, st.seed, orders, st.turn, tuple(st.sides))

    def before(self, turn: int) -> Sequence[tuple[int, str, str, tuple[str, ...]]]:
        """The orders of the turns before ``turn`` (the record is in play order)."""
        return [o for o in self.orders if o[0] < turn]

    def key(self, turn: int, side: str) -> str:
        """The cache key of ``side``'s table at ``turn``: a digest of the record before it."""
        text = json.dumps(
            [self.ref, self.ruleset, self.seed, side, self.before(turn)], ensure_ascii=False
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


_CACHE: OrderedDict[str, tuple[dict[str, Any], int]] = OrderedDict()
_HELD = [0]  # characters held
_LOCK = threading.Lock()
#: Held while a record is replayed, so that concurrent cold requests do not each replay it (and
#: no number of them can keep more than one core busy with replays).
_REPLAYING = threading.Lock()


def _cached(key: str) -> dict[str, Any] | None:
    with _LOCK:
        found = _CACHE.get(key)
        if found is None:
            return None
        _CACHE.move_to_end(key)
        return found[0]


def _keep(key: str, body: dict[str, Any]) -> None:
    size = len(json.dumps(body))
    with _LOCK:
        old = _CACHE.pop(key, None)
        _HELD[0] -= old[1] if old else 0
        _CACHE[key] = (body, size)
        _HELD[0] += size
        while _HELD[0] > CACHE_CHARS and len(_CACHE) > 1:
            _HELD[0] -= _CACHE.popitem(last=False)[1][1]


def clear_cache() -> None:
    """Forget every rebuilt table (tests and the benchmark measure a cold rebuild with it)."""
    with _LOCK:
        _CACHE.clear()
        _HELD[0] = 0


def table_at(record: Record, side: str, turn: int) -> dict[str, Any]:
    """``side``'s table as it stood at the first phase of ``turn`` (an earlier turn than the
    open one), from the cache or by replaying the record up to it."""
    key = record.key(turn, side)
    found = _cached(key)
    if found is not None:
        return found
    with _REPLAYING:  # one replay at a time: a second asker waits, then finds it cached
        found = _cached(key)
        return found if found is not None else _replay_to(record, turn, side)


def _replay_to(record: Record, turn: int, side: str) -> dict[str, Any]:
    """Replay the record's orders before ``turn``, snapshotting each turn it opens for every
    side; the answer is ``side``'s table at ``turn``."""
    game = replay_game(GameRecord(record.scenario, record.ruleset, record.seed, []))
    part = table_part(game)
    wanted: dict[str, Any] = {}

    def snapshot() -> None:
        at = game.state.turn
        for s in record.sides:
            key = record.key(at, s)
            body = _cached(key)
            if body is None:
                body = part.table(game, s)
                _keep(key, body)
            if (at, s) == (turn, side):
                wanted.update(body)

    snapshot()
    for t, phase, who, lines in record.before(turn):
        opened = game.state.turn
        game.submit(who, list(lines), turn=t, phase=phase)
        if game.state.turn != opened:
            snapshot()
    if not wanted:
        raise RecordError(f"turn: the record does not reach turn {turn}")
    return wanted


__all__ = ["NoTableError", "Record", "clear_cache", "table_at", "table_now", "table_part"]
