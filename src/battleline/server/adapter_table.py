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
from battleline.errors import BattlelineError
from battleline.game import replay_game
from battleline.rulesets import ruleset_part
from battleline.server.adapter import Game

#: How many (record prefix, side) tables the cache keeps (a table is a few kilobytes).
CACHE_TABLES = 4096


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


_CACHE: OrderedDict[str, dict[str, Any]] = OrderedDict()
_LOCK = threading.Lock()
#: Held while a record is replayed, so that concurrent cold requests do not each replay it (and
#: no number of them can keep more than one core busy with replays).
_REPLAYING = threading.Lock()


def _cached(key: str) -> dict[str, Any] | None:
    with _LOCK:
        found = _CACHE.get(key)
        if found is not None:
            _CACHE.move_to_end(key)
        return found


def _keep(key: str, body: dict[str, Any]) -> None:
    with _LOCK:
        _CACHE[key] = body
        _CACHE.move_to_end(key)
        while len(_CACHE) > CACHE_TABLES:
            _CACHE.popitem(last=False)


def clear_cache() -> None:
    """Forget every rebuilt table (tests and the benchmark measure a cold rebuild with it)."""
    with _LOCK:
        _CACHE.clear()


def table_at(record: Record, side: str, turn: int) -> dict[str, Any]:
    """``side``'s table as it stood at the first phase of ``turn`` (an earlier turn than the
    open one), from the cache or by replaying the record up to it."""
    key = record.key(turn, side)
    found = _cached(key)
    if found is not None:
        return found
    with _REPLAYING:  # one replay at a time: a second asker waits, then finds it cached
        found = _cached(key)
        if found is None:
            _replay_to(record, turn)
            found = _cached(key)
    assert found is not None, "the replay passed the turn"
    return found


def _replay_to(record: Record, turn: int) -> None:
    """Replay the record's orders before ``turn``, snapshotting each turn it opens."""
    game = replay_game(GameRecord(record.scenario, record.ruleset, record.seed, []))
    part = table_part(game)

    def snapshot() -> None:
        at = game.state.turn
        for s in record.sides:
            key = record.key(at, s)
            if _cached(key) is None:
                _keep(key, part.table(game, s))

    snapshot()
    for t, phase, side, lines in record.before(turn):
        opened = game.state.turn
        game.submit(side, list(lines), turn=t, phase=phase)
        if game.state.turn != opened:
            snapshot()


__all__ = ["NoTableError", "Record", "clear_cache", "table_at", "table_now", "table_part"]
