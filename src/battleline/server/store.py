"""Games kept in a database as their records, rebuilt by replay, cached live in memory.

A game row holds the record's header — the scenario reference (a built-in id or
``upload-<sha256>`` naming a row of ``scenario_texts``), ruleset, seed — plus the AI sides, a
status and the portable state hash after the last save. Its orders are rows of their own, in
sealing order, and the orders sealed for the open phase are kept apart so that a restart loses
nothing. Credentials are stored only as SHA-256 digests: ``invites`` (one per human side, good
for one claim) and ``tokens`` (a claimed seat's credential, and the umpire's).

Durability: a change is committed before the server answers, in one transaction. SQLite runs in
WAL mode with ``synchronous=FULL`` and a busy timeout; every write goes through
:meth:`GameStore._write`, which holds one writer lock per process and retries a transaction the
database reports busy or locked (another process) or, on PostgreSQL, a serialization failure.

The same code serves embedded SQLite (the default, ``sqlite:///battleline.sqlite3`` or any file
path) and PostgreSQL (``postgresql+psycopg://user@host/db``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, delete, event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlalchemy.orm import Session
from sqlalchemy.pool import StaticPool

from battleline.errors import BattlelineError, UnknownNameError
from battleline.server import adapter, clocks
from battleline.server.scenarios import (
    UPLOAD_PREFIX,
    ScenarioInputError,
    builtin_names,
    default_folder,
    discard,
    materialize,
)
from battleline.server.tables import (
    Base,
    GameRow,
    InviteRow,
    OrderRow,
    ScenarioTextRow,
    SealedRow,
    TokenRow,
)

DEFAULT_DB = "sqlite:///battleline.sqlite3"
UMPIRE = "umpire"  # the role of the umpire's token; every other role is a side name
#: How often a write the database reports busy is tried, and the first pause between tries (s).
WRITE_TRIES = 8
FIRST_PAUSE = 0.02
#: SQLite's own wait for a lock held by another process, in milliseconds.
BUSY_TIMEOUT_MS = 10_000
T = TypeVar("T")


class StoreError(BattlelineError):
    """A stored game cannot be rebuilt, or was changed by someone else meanwhile."""


class StaleGameError(StoreError):
    """The game was saved by another writer since it was loaded (optimistic locking)."""


class ClaimError(BattlelineError):
    """An invite that opens nothing, or one already used."""


def digest(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8", errors="replace")).hexdigest()


def new_token() -> str:
    """A fresh random credential."""
    return secrets.token_urlsafe(24)


def database_url(db: str | None) -> str:
    """``None`` → the default SQLite file; a plain path → a SQLite URL; a URL as it is."""
    if not db:
        return DEFAULT_DB
    return db if "://" in db else f"sqlite:///{db}"


def _now() -> datetime:
    return datetime.now(UTC)


def _busy(exc: DBAPIError) -> bool:
    """Whether a database error is a lock or serialization conflict worth another try."""
    text = str(exc.orig).lower()
    code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
    return "locked" in text or "busy" in text or code in ("40001", "40P01")


@dataclass(slots=True)
class LiveGame:
    """A game held in memory: the engine's game and what the server knows about it."""

    id: str
    ref: str  # the scenario reference stored with the game
    game: adapter.Game
    ai_sides: tuple[str, ...]
    version: int
    saved_orders: int  # how many of the record's orders are in the database
    lock: threading.RLock = field(default_factory=threading.RLock)
    admirals: dict[str, object] = field(default_factory=dict)
    cursors: dict[str, int] = field(default_factory=dict)

    @property
    def human_sides(self) -> tuple[str, ...]:
        """The sides played by people."""
        return tuple(s for s in adapter.sides(self.game) if s not in self.ai_sides)


@dataclass(frozen=True, slots=True)
class NewSeats:
    """The plain credentials of a new game, shown only once: invites by side, the umpire's."""

    invites: dict[str, str]
    umpire: str


class GameStore:
    """Persistence of games (SQLAlchemy 2) with an in-memory cache of live games."""

    def __init__(self, db: str | None = None, scenario_dir: str | Path | None = None) -> None:
        self.url = database_url(db)
        self.folder = Path(scenario_dir) if scenario_dir else default_folder()
        kwargs: dict[str, Any] = {}
        self.sqlite = self.url.startswith("sqlite")
        if self.sqlite:
            kwargs["connect_args"] = {
                "check_same_thread": False,
                "timeout": BUSY_TIMEOUT_MS / 1000,
            }
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        else:
            kwargs.update(pool_size=10, max_overflow=30, pool_pre_ping=True)
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        self._cache: dict[str, LiveGame] = {}
        self._guard = threading.Lock()
        self._writer = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self.retries = 0  # writes tried again after a busy or locked answer (for the load test)
        self.now: Callable[[], datetime] = _now  # the clock of phase deadlines (tests set it)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one committed transaction (for the route modules' own tables)."""
        return self._write(work)

    def _write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one committed transaction, retrying when the database is busy."""
        pause = FIRST_PAUSE
        for attempt in range(WRITE_TRIES):
            try:
                with self._writer, Session(self.engine) as session, session.begin():
                    return work(session)
            except (OperationalError, DBAPIError) as exc:
                if attempt == WRITE_TRIES - 1 or not _busy(exc):
                    raise
                self.retries += 1
            time.sleep(pause)
            pause = min(pause * 2, 1.0)
        raise AssertionError("unreachable")  # pragma: no cover

    # -- scenarios ----------------------------------------------------------------------------

    def scenario_path(self, ref: str, text: str | None = None) -> str:
        """What the engine is given for a scenario reference: the id, or the file written for it."""
        if not ref.startswith(UPLOAD_PREFIX):
            if ref in builtin_names():
                return ref
            raise StoreError(
                f"scenario {ref!r} is neither built-in nor stored with the game (a game made "
                "from a file path by an older version); make the game again from the text"
            )
        sha = ref[len(UPLOAD_PREFIX) :]
        if text is None:
            with Session(self.engine) as session:
                text = session.scalar(
                    select(ScenarioTextRow.text).where(ScenarioTextRow.digest == sha)
                )
            if text is None:
                raise StoreError(f"scenario {ref!r}: its text is missing from the database")
        try:
            return str(materialize(self.folder, sha, text))
        except (ScenarioInputError, OSError) as exc:
            raise StoreError(f"scenario {ref!r}: cannot write the server's copy: {exc}") from None

    def discard_copy(self, ref: str) -> None:
        """Remove the server's copy of an uploaded text that no stored game holds."""
        sha = ref.removeprefix(UPLOAD_PREFIX)
        with Session(self.engine) as session:
            if session.get(ScenarioTextRow, sha) is not None:
                return
        discard(self.folder, sha)

    # -- making a game ------------------------------------------------------------------------

    def add(
        self,
        game: adapter.Game,
        ref: str,
        ai_sides: Sequence[str],
        text: str | None = None,
        deadline_minutes: int | None = None,
    ) -> tuple[LiveGame, NewSeats]:
        """Store a new game (and its uploaded text, its turn deadline); return it live and its
        new credentials."""
        game_id = secrets.token_hex(8)
        humans = [s for s in adapter.sides(game) if s not in ai_sides]
        seats = NewSeats({side: new_token() for side in humans}, new_token())
        st = game.state
        now = self.now()

        def work(session: Session) -> None:
            if text is not None:
                sha = ref[len(UPLOAD_PREFIX) :]
                if session.get(ScenarioTextRow, sha) is None:
                    session.add(ScenarioTextRow(digest=sha, text=text))
            session.add(
                GameRow(
                    id=game_id,
                    scenario=ref,
                    ruleset=st.ruleset,
                    seed=st.seed,
                    ai_sides=json.dumps(list(ai_sides)),
                    status="open",
                    state_hash=adapter.portable_hash(game, ref),
                    version=0,
                    created_at=now,
                    updated_at=now,
                )
            )
            session.flush()
            for side, token in seats.invites.items():
                session.add(InviteRow(digest=digest(token), game_id=game_id, side=side))
            session.add(TokenRow(digest=digest(seats.umpire), game_id=game_id, role=UMPIRE))
            turn, phase = adapter.open_phase(game)
            clocks.start_clock(session, game_id, deadline_minutes, turn, phase, now)

        self._write(work)
        live = LiveGame(game_id, ref, game, tuple(ai_sides), 0, 0, self._lock_of(game_id))
        self._cache[game_id] = live
        return live, seats

    def claim(self, game_id: str, invite: str) -> tuple[str, str]:
        """Use a side's invite once: return the side and its new secret credential."""
        token = new_token()

        def work(session: Session) -> str:
            row = session.get(InviteRow, digest(invite))
            if row is None or row.game_id != game_id:
                raise ClaimError("invite: this invite opens no seat in this game")
            done = session.execute(
                update(InviteRow)
                .where(InviteRow.digest == row.digest, InviteRow.claimed_at.is_(None))
                .values(claimed_at=_now())
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise ClaimError(f"invite: the {row.side} seat was claimed already")
            session.add(TokenRow(digest=digest(token), game_id=game_id, role=row.side))
            return row.side

        return self._write(work), token

    def seats(self, game_id: str) -> dict[str, bool]:
        """Each human side of a game and whether its seat has been claimed."""
        with Session(self.engine) as session:
            rows = session.scalars(select(InviteRow).where(InviteRow.game_id == game_id)).all()
            return {r.side: r.claimed_at is not None for r in rows}

    # -- finding a game -----------------------------------------------------------------------

    def _lock_of(self, game_id: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.RLock())

    def role(self, game_id: str, token: str) -> str | None:
        """The role a credential opens in a game (a side name or ``"umpire"``), or ``None``."""
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
            if cached.ref.startswith(UPLOAD_PREFIX):
                self.scenario_path(cached.ref)  # written again if someone deleted the file
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
            orders = [
                (o.turn, o.phase, o.side, tuple(json.loads(o.lines)))
                for o in session.scalars(
                    select(OrderRow).where(OrderRow.game_id == game_id).order_by(OrderRow.seq)
                )
            ]
            pending = [
                (s.side, s.turn, s.phase, tuple(json.loads(s.lines)))
                for s in session.scalars(select(SealedRow).where(SealedRow.game_id == game_id))
            ]
            ref, ruleset, seed = row.scenario, row.ruleset, row.seed
            expected, version = row.state_hash, row.version
            ai_sides = tuple(json.loads(row.ai_sides))
        try:
            game = adapter.rebuild(self.scenario_path(ref), ruleset, seed, orders, pending)
        except StoreError:
            raise
        except BattlelineError as exc:
            raise StoreError(f"game {game_id} cannot be rebuilt: {exc}") from None
        if adapter.portable_hash(game, ref) != expected:
            raise StoreError(
                f"game {game_id}: the replayed state does not match the saved hash "
                f"(was the ruleset or its data changed?)"
            )
        return LiveGame(game_id, ref, game, ai_sides, version, len(orders), self._lock_of(game_id))

    # -- saving -------------------------------------------------------------------------------

    def save(self, live: LiveGame) -> None:
        """Write the new orders, the open phase's sealed orders, status and hash, committed.

        Raises :class:`StaleGameError` (and drops the cached copy) if another writer saved the
        game since it was loaded; any failure drops the cached copy, so nothing unsaved is
        ever shown as accepted.
        """
        game = live.game
        new_orders = adapter.history(game, live.saved_orders)
        over = adapter.finished(game)
        pending = {} if over else adapter.sealed(game)
        turn, phase = adapter.open_phase(game)
        state_digest = adapter.portable_hash(game, live.ref)
        now = self.now()

        def work(session: Session) -> None:
            done = session.execute(
                update(GameRow)
                .where(GameRow.id == live.id, GameRow.version == live.version)
                .values(
                    version=live.version + 1,
                    status="finished" if over else "open",
                    state_hash=state_digest,
                    updated_at=_now(),
                )
            )
            if done.rowcount != 1:  # type: ignore[attr-defined]
                raise StaleGameError(f"game {live.id} was changed meanwhile; load it again")
            for seq, (o_turn, o_phase, side, lines) in enumerate(new_orders, live.saved_orders):
                session.add(
                    OrderRow(
                        game_id=live.id,
                        seq=seq,
                        turn=o_turn,
                        phase=o_phase,
                        side=side,
                        lines=json.dumps(list(lines)),
                    )
                )
            session.execute(delete(SealedRow).where(SealedRow.game_id == live.id))
            for side, texts in pending.items():
                session.add(
                    SealedRow(
                        game_id=live.id,
                        side=side,
                        turn=turn,
                        phase=phase,
                        lines=json.dumps(list(texts)),
                    )
                )
            clocks.phase_open(session, live.id, turn, phase, now)

        try:
            self._write(work)
        except BaseException:
            self._cache.pop(live.id, None)
            raise
        live.version += 1
        live.saved_orders += len(new_orders)

    def forget(self, game_id: str) -> None:
        """Drop a game from the memory cache (the next request rebuilds it)."""
        self._cache.pop(game_id, None)


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), a busy wait, and commits that reach the disk."""
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
    finally:
        cur.close()
