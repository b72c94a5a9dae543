"""What the push channel reads and writes in the game store: progress, chat and presence.

Every function here is blocking (SQLAlchemy); the stream calls them through
``run_in_threadpool``. :func:`marks` is the cheap query a stream repeats every second or two —
the game's save counter, its newest chat message and the seats with an open stream — so that a
change made by another server process on the same database reaches every stream; only when the
save counter moved does :func:`progress` open the game itself.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from battleline.server import adapter
from battleline.server.store import UMPIRE, GameStore
from battleline.server.tables import ChatRow, GameRow, PresenceRow

#: The longest chat message, in characters.
CHAT_MAX_CHARS = 1000
#: How many chat messages one game may hold.
CHAT_MAX_PER_GAME = 5000
#: How many messages one ``GET /chat`` answers at most (ask again with ``since``).
CHAT_PAGE = 500
#: A stream's presence row counts while refreshed within this many seconds.
PRESENCE_TTL_S = 45.0
CHANNELS = ("side", "all")


class ChatError(ValueError):
    """A chat message the server refuses; the text names the field and the reason."""


@dataclass(frozen=True, slots=True)
class Marks:
    """The cheap per-poll reading of a game: save counter, newest chat id, seats listening."""

    version: int
    chat: int
    present: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a game stands, as every seat may know it (no side's secrets)."""

    version: int
    turn: int
    phase: str
    sides: tuple[str, ...]
    waiting_for: tuple[str, ...]
    result: str | None
    events: int

    @property
    def sealed(self) -> list[str]:
        """The sides whose orders for the open phase are in."""
        return [s for s in self.sides if s not in self.waiting_for]

    def at(self) -> tuple[int, str, str | None]:
        """The open phase (and the result): what a ``resolved`` message announces."""
        return self.turn, self.phase, self.result


def _now() -> datetime:
    return datetime.now(UTC)


def marks(store: GameStore, game_id: str) -> Marks:
    """The game's save counter, its newest chat message id and the seats with open streams."""
    fresh = _now() - timedelta(seconds=PRESENCE_TTL_S)
    with Session(store.engine) as session:
        version = session.scalar(select(GameRow.version).where(GameRow.id == game_id))
        chat = session.scalar(select(func.max(ChatRow.id)).where(ChatRow.game_id == game_id))
        roles = session.scalars(
            select(PresenceRow.role)
            .where(PresenceRow.game_id == game_id, PresenceRow.seen_at >= fresh)
            .distinct()
        ).all()
    return Marks(version or 0, chat or 0, tuple(sorted(roles)))


def progress(store: GameStore, game_id: str) -> Progress:
    """The open turn and phase, who is still to seal, the result and the event count."""
    with store.locked(game_id) as live:
        game = live.game
        turn, phase = adapter.open_phase(game)
        over = adapter.finished(game)
        return Progress(
            version=live.version,
            turn=turn,
            phase=phase,
            sides=adapter.sides(game),
            waiting_for=() if over else adapter.waiting_for(game),
            result=adapter.result_line(game),
            events=adapter.events_count(game),
        )


# -- presence ---------------------------------------------------------------------------------


def arrive(store: GameStore, game_id: str, role: str) -> str:
    """Record an open stream of a seat; the answer names the stream's row."""
    stream = secrets.token_hex(8)

    def work(session: Session) -> None:
        session.add(PresenceRow(stream=stream, game_id=game_id, role=role, seen_at=_now()))

    store._write(work)
    return stream


def still_here(store: GameStore, stream: str) -> None:
    """Refresh a stream's presence row."""

    def work(session: Session) -> None:
        session.execute(
            update(PresenceRow).where(PresenceRow.stream == stream).values(seen_at=_now())
        )

    store._write(work)


def leave(store: GameStore, stream: str) -> None:
    """Remove a closed stream's presence row (and any left by streams long gone)."""
    stale = _now() - timedelta(seconds=4 * PRESENCE_TTL_S)

    def work(session: Session) -> None:
        session.execute(
            delete(PresenceRow).where(
                or_(PresenceRow.stream == stream, PresenceRow.seen_at < stale)
            )
        )

    store._write(work)


# -- chat -------------------------------------------------------------------------------------


def clean_text(text: str) -> str:
    """A message's text, trimmed; refused when empty, too long or holding control characters."""
    text = text.strip()
    if not text:
        raise ChatError("text: empty; write something to send")
    if len(text) > CHAT_MAX_CHARS:
        raise ChatError(f"text: {len(text)} characters is more than the {CHAT_MAX_CHARS} allowed")
    if any(ord(c) < 32 and c not in "\n\t" for c in text):
        raise ChatError("text: holds control characters")
    return text


def post(
    store: GameStore, game_id: str, role: str, channel: str, text: str, to: str | None
) -> dict[str, Any]:
    """Store a message from ``role`` and return it as the API shows it.

    A side writes to its own side channel or to everyone; the umpire writes to everyone or, with
    ``to``, to one side's channel.
    """
    if channel not in CHANNELS:
        raise ChatError(f"channel: {channel!r} is neither 'side' nor 'all'")
    text = clean_text(text)
    side: str | None = None
    if channel == "side":
        if role == UMPIRE:
            with store.locked(game_id) as live:
                known = adapter.sides(live.game)
            if to not in known:
                raise ChatError(f"to: the umpire names the side to write to, one of {known}")
            side = to
        elif to not in (None, role):
            raise ChatError(f"to: a side writes only to its own side channel ({role!r})")
        else:
            side = role
    elif to is not None:
        raise ChatError("to: only for the 'side' channel")

    def work(session: Session) -> dict[str, Any]:
        count = session.scalar(select(func.count()).where(ChatRow.game_id == game_id)) or 0
        if count >= CHAT_MAX_PER_GAME:
            raise ChatError(f"chat: this game holds its {CHAT_MAX_PER_GAME} messages already")
        row = ChatRow(
            game_id=game_id, sender=role, channel=channel, side=side, text=text, sent_at=_now()
        )
        session.add(row)
        session.flush()
        return shown(row)

    return store._write(work)


def shown(row: ChatRow) -> dict[str, Any]:
    """A message as the API and the push channel show it."""
    return {
        "id": row.id,
        "from": row.sender,
        "channel": row.channel,
        "side": row.side,
        "text": row.text,
        "at": row.sent_at.isoformat(),
    }


def read(
    store: GameStore, game_id: str, role: str, since: int = 0, everything: bool = False
) -> list[dict[str, Any]]:
    """The messages after ``since`` that ``role`` may read: everyone's, and its own side's.

    The umpire reads every channel; ``everything`` (the battle is over) opens every channel to
    every seat.
    """
    query = select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.id > since)
    if role != UMPIRE and not everything:
        query = query.where(or_(ChatRow.channel == "all", ChatRow.side == role))
    with Session(store.engine) as session:
        rows = session.scalars(query.order_by(ChatRow.id).limit(CHAT_PAGE)).all()
        return [shown(r) for r in rows]


def finished(store: GameStore, game_id: str) -> bool:
    """Whether the battle is over (its row says so; no replay needed)."""
    with Session(store.engine) as session:
        status = session.scalar(select(GameRow.status).where(GameRow.id == game_id))
    return status == "finished"
