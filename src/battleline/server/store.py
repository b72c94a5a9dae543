"""Games kept in a database as their records, rebuilt by replay, cached live in memory.

A game row holds what :class:`~battleline.engine.GameRecord` holds — scenario, ruleset, seed —
plus the AI sides, a status and the state hash after the last save; its orders are rows of their
own, in the order they were sealed, and the orders sealed for the open phase (not yet resolved)
are kept apart so that a restart loses nothing. Join tokens are stored only as SHA-256 digests:
the token itself is shown once, when the game is made.

Loading a game replays its record (:func:`battleline.engine.replay_game`), re-seals the pending
orders and checks the state hash. Live games are cached; each save bumps a version number, and a
cached game whose version no longer matches the database (another worker wrote it) is reloaded.

The same code serves embedded SQLite (the default, ``sqlite:///battleline.sqlite3`` or any file
path) and PostgreSQL (``postgresql+psycopg://user@host/db``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column
from sqlalchemy.pool import StaticPool

from battleline.engine import Game, GameRecord, RecordedOrders, state_hash
from battleline.errors import BattlelineError, UnknownNameError
from battleline.game import replay_game

DEFAULT_DB = "sqlite:///battleline.sqlite3"
UMPIRE = "umpire"  # the role of the umpire's token; every other role is a side name


class StoreError(BattlelineError):
    """A stored game cannot be rebuilt, or was changed by someone else meanwhile."""


class StaleGameError(StoreError):
    """The game was saved by another writer since it was loaded (optimistic locking)."""


class _Base(DeclarativeBase):
    pass


class GameRow(_Base):
    """One game: the record's header, the AI sides, status and the last saved state hash."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    scenario: Mapped[str] = mapped_column(String(500))
    ruleset: Mapped[str] = mapped_column(String(100))
    seed: Mapped[int] = mapped_column(BigInteger)
    ai_sides: Mapped[str] = mapped_column(Text, default="[]")  # JSON list of side names
    status: Mapped[str] = mapped_column(String(20), default="open")
    state_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OrderRow(_Base):
    """One side's final orders for one phase, in sealing order (the record's order list)."""

    __tablename__ = "orders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    side: Mapped[str] = mapped_column(String(200))
    lines: Mapped[str] = mapped_column(Text)  # JSON list of order lines


class SealedRow(_Base):
    """Orders sealed for the open phase that has not resolved yet (never shown to a player)."""

    __tablename__ = "sealed"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    side: Mapped[str] = mapped_column(String(200), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    lines: Mapped[str] = mapped_column(Text)


class TokenRow(_Base):
    """A join token's digest and what it opens: one side of one game, or its umpire."""

    __tablename__ = "tokens"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    role: Mapped[str] = mapped_column(String(200))


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh random join token."""
    return secrets.token_urlsafe(24)


def database_url(db: str | None) -> str:
    """``None`` → the default SQLite file; a plain path → a SQLite URL; a URL as it is."""
    if not db:
        return DEFAULT_DB
    return db if "://" in db else f"sqlite:///{db}"


def _now() -> datetime:
    return datetime.now(UTC)


@dataclass(slots=True)
class LiveGame:
    """A game held in memory: the engine's game and what the server knows about it."""

    id: str
    game: Game[Any, Any]
    ai_sides: tuple[str, ...]
    version: int
    saved_orders: int  # how many of ``game.history`` are in the database
    lock: threading.RLock = field(default_factory=threading.RLock)
    admirals: dict[str, object] = field(default_factory=dict)
    cursors: dict[str, int] = field(default_factory=dict)

    @property
    def human_sides(self) -> tuple[str, ...]:
        """The sides played by people."""
        return tuple(s for s in self.game.state.sides if s not in self.ai_sides)


class GameStore:
    """Persistence of games (SQLAlchemy 2) with an in-memory cache of live games."""

    def __init__(self, db: str | None = None) -> None:
        self.url = database_url(db)
        kwargs: dict[str, object] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(self.url, **kwargs)
        _Base.metadata.create_all(self.engine)
        self._cache: dict[str, LiveGame] = {}
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    # -- making a game ------------------------------------------------------------------------

    def add(self, game: Game[Any, Any], ai_sides: Sequence[str]) -> tuple[LiveGame, dict[str, str]]:
        """Store a new game; return it live and the plain tokens by role (shown only now)."""
        game_id = secrets.token_hex(6)
        tokens = {side: new_token() for side in game.state.sides if side not in ai_sides}
        tokens[UMPIRE] = new_token()
        st = game.state
        now = _now()
        with Session(self.engine) as session, session.begin():
            session.add(
                GameRow(
                    id=game_id,
                    scenario=st.scenario,
                    ruleset=st.ruleset,
                    seed=st.seed,
                    ai_sides=json.dumps(list(ai_sides)),
                    status="open",
                    state_hash=state_hash(st),
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
            session.flush()
            for role, token in tokens.items():
                session.add(TokenRow(digest=digest(token), game_id=game_id, role=role))
        live = LiveGame(game_id, game, tuple(ai_sides), 0, 0, self._lock_of(game_id))
        self._cache[game_id] = live
        return live, tokens

    # -- finding a game -----------------------------------------------------------------------

    def _lock_of(self, game_id: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.RLock())

    def role(self, game_id: str, token: str) -> str | None:
        """The role a token opens in a game (a side name or ``"umpire"``), or ``None``."""
        with Session(self.engine) as session:
            row = session.get(TokenRow, digest(token))
        if row is None or row.game_id != game_id:
            return None
        return row.role

    def exists(self, game_id: str) -> bool:
        """Whether a game with this id is stored."""
        with Session(self.engine) as session:
            return session.get(GameRow, game_id) is not None

    @contextmanager
    def locked(self, game_id: str) -> Iterator[LiveGame]:
        """The live game, held under its lock for a read or a change."""
        lock = self._lock_of(game_id)
        with lock:
            yield self.get(game_id)

    def get(self, game_id: str) -> LiveGame:
        """The live game: from the cache if up to date, else rebuilt from the database."""
        with Session(self.engine) as session:
            version = session.scalar(select(GameRow.version).where(GameRow.id == game_id))
        if version is None:
            raise UnknownNameError("game", game_id)
        cached = self._cache.get(game_id)
        if cached is not None and cached.version == version:
            return cached
        live = self._load(game_id)
        self._cache[game_id] = live
        return live

    def _load(self, game_id: str) -> LiveGame:
        """Rebuild a game by replaying its record, then re-seal the open phase's orders."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            if row is None:
                raise UnknownNameError("game", game_id)
            orders = session.scalars(
                select(OrderRow).where(OrderRow.game_id == game_id).order_by(OrderRow.seq)
            ).all()
            sealed = session.scalars(select(SealedRow).where(SealedRow.game_id == game_id)).all()
            record = GameRecord(
                row.scenario,
                row.ruleset,
                row.seed,
                [
                    RecordedOrders(o.turn, o.phase, o.side, tuple(json.loads(o.lines)))
                    for o in orders
                ],
            )
            pending = [(s.side, s.turn, s.phase, list(json.loads(s.lines))) for s in sealed]
            expected, version = row.state_hash, row.version
            ai_sides = tuple(json.loads(row.ai_sides))
        game = replay_game(record)
        order = {s: i for i, s in enumerate(game.state.sides)}
        for side, turn, phase, lines in sorted(pending, key=lambda p: order.get(p[0], 0)):
            game.submit(side, lines, turn=turn, phase=phase)
        if state_hash(game.state) != expected:
            raise StoreError(
                f"game {game_id}: the replayed state does not match the saved hash "
                f"(was the ruleset or its data changed?)"
            )
        return LiveGame(
            game_id, game, ai_sides, version, len(record.orders), self._lock_of(game_id)
        )

    # -- saving -------------------------------------------------------------------------------

    def save(self, live: LiveGame) -> None:
        """Write the new orders, the open phase's sealed orders, status and hash.

        Raises :class:`StaleGameError` (and drops the cached copy) if another writer saved the
        game since it was loaded.
        """
        game = live.game
        st = game.state
        gate = game.pending
        try:
            with Session(self.engine) as session, session.begin():
                done = session.execute(
                    update(GameRow)
                    .where(GameRow.id == live.id, GameRow.version == live.version)
                    .values(
                        version=live.version + 1,
                        status="finished" if game.finished else "open",
                        state_hash=state_hash(st),
                        updated_at=_now(),
                    )
                )
                if done.rowcount != 1:  # type: ignore[attr-defined]
                    raise StaleGameError(f"game {live.id} was changed meanwhile; load it again")
                for seq in range(live.saved_orders, len(game.history)):
                    o = game.history[seq]
                    session.add(
                        OrderRow(
                            game_id=live.id,
                            seq=seq,
                            turn=o.turn,
                            phase=o.phase,
                            side=o.side,
                            lines=json.dumps(list(o.orders)),
                        )
                    )
                session.execute(delete(SealedRow).where(SealedRow.game_id == live.id))
                if not game.finished:
                    for side, texts in gate.texts.items():
                        if side in gate.automatic:
                            continue  # entered by the engine: the replay recomputes it
                        session.add(
                            SealedRow(
                                game_id=live.id,
                                side=side,
                                turn=gate.turn,
                                phase=gate.phase,
                                lines=json.dumps(list(texts)),
                            )
                        )
        except BaseException:
            self._cache.pop(live.id, None)
            raise
        live.version += 1
        live.saved_orders = len(game.history)

    def forget(self, game_id: str) -> None:
        """Drop a game from the memory cache (the next request rebuilds it)."""
        self._cache.pop(game_id, None)
