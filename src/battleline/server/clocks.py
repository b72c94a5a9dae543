"""Turn deadlines and the umpire's own records, kept in the store's database.

A game's clock row holds its deadline (minutes per phase, or none) and when its open phase
opened: :meth:`GameStore.save <battleline.server.store.GameStore.save>` moves it on in the same
transaction that saves the phase's resolution, so the time a phase opened survives a restart and
is never later than the save that opened it. The umpire's actions (resolving a phase, handing a
side to the AI and back, changing the deadline) are rows of ``umpire_actions``; the orders they
caused are in the game's record like any other, so a replay needs nothing from here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from battleline.server import adapter
from battleline.server.tables import ClockRow, GameRow, UmpireActionRow

if TYPE_CHECKING:
    from battleline.server.store import GameStore, LiveGame

#: The longest deadline the umpire may set (four weeks), in minutes.
MAX_DEADLINE_MINUTES = 4 * 7 * 24 * 60


def _utc(at: datetime) -> datetime:
    """SQLite hands back naive datetimes: they were written in UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Clock:
    """A game's deadline and the open phase's start."""

    deadline_minutes: int | None
    turn: int
    phase: str
    opened_at: datetime

    @property
    def deadline_at(self) -> datetime | None:
        """When the open phase's deadline passes (``None``: the game has no deadline)."""
        if self.deadline_minutes is None:
            return None
        return self.opened_at + timedelta(minutes=self.deadline_minutes)

    def seconds_left(self, now: datetime) -> float | None:
        """Seconds until the deadline (0 once it has passed), ``None`` without a deadline."""
        at = self.deadline_at
        return None if at is None else max(0.0, (at - now).total_seconds())

    def to_dict(self, now: datetime, finished: bool) -> dict[str, Any]:
        """The clock as the API shows it (no deadline runs once the game is over)."""
        at = None if finished else self.deadline_at
        return {
            "deadline_minutes": self.deadline_minutes,
            "turn": self.turn,
            "phase": self.phase,
            "phase_opened_at": self.opened_at.isoformat(),
            "deadline_at": None if at is None else at.isoformat(),
            "seconds_left": None if finished else self.seconds_left(now),
            "passed": at is not None and now >= at,
        }


def start_clock(
    session: Session, game_id: str, minutes: int | None, turn: int, phase: str, at: datetime
) -> None:
    """A new game's clock: its deadline, and its first phase open from ``at``."""
    session.add(
        ClockRow(game_id=game_id, deadline_minutes=minutes, turn=turn, phase=phase, opened_at=at)
    )


def phase_open(session: Session, game_id: str, turn: int, phase: str, at: datetime) -> None:
    """Record that ``turn``/``phase`` is open: from ``at`` if it was not open already."""
    row = session.get(ClockRow, game_id)
    if row is None:  # a game made before clocks were kept: no deadline until one is set
        session.add(ClockRow(game_id=game_id, turn=turn, phase=phase, opened_at=at))
    elif (row.turn, row.phase) != (turn, phase):
        row.turn, row.phase, row.opened_at = turn, phase, at


def clock_of(store: GameStore, game_id: str) -> Clock | None:
    """A game's clock, ``None`` for a game saved before clocks were kept and not since."""
    with Session(store.engine) as session:
        row = session.get(ClockRow, game_id)
        if row is None:
            return None
        return Clock(row.deadline_minutes, row.turn, row.phase, _utc(row.opened_at))


def set_deadline(store: GameStore, live: LiveGame, minutes: int | None) -> None:
    """Change a game's deadline (``None``: none); the open phase keeps the time it opened."""
    turn, phase = adapter.open_phase(live.game)
    now = store.now()

    def work(session: Session) -> None:
        row = session.get(ClockRow, live.id)
        if row is None:
            start_clock(session, live.id, minutes, turn, phase, now)
        else:
            row.deadline_minutes = minutes
        _log(session, live.id, "deadline", turn, phase, {"minutes": minutes}, now)

    store.write(work)


def set_ai_sides(store: GameStore, live: LiveGame, ai_sides: tuple[str, ...], why: str) -> None:
    """Change which sides the computer plays (a new version of the game: other servers reload)."""
    from battleline.server.store import StaleGameError

    turn, phase = adapter.open_phase(live.game)
    now = store.now()

    def work(session: Session) -> None:
        done = session.execute(
            update(GameRow)
            .where(GameRow.id == live.id, GameRow.version == live.version)
            .values(ai_sides=json.dumps(list(ai_sides)), version=live.version + 1, updated_at=now)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise StaleGameError(f"game {live.id} was changed meanwhile; load it again")
        _log(session, live.id, why, turn, phase, {"ai_sides": list(ai_sides)}, now)

    try:
        store.write(work)
    except BaseException:
        store.forget(live.id)
        raise
    live.version += 1
    live.ai_sides = ai_sides


def log_action(store: GameStore, live: LiveGame, action: str, detail: dict[str, Any]) -> None:
    """Record one umpire action at the open phase (after the change it made was saved)."""
    turn, phase = adapter.open_phase(live.game)
    now = store.now()
    store.write(lambda session: _log(session, live.id, action, turn, phase, detail, now))


def _log(
    session: Session,
    game_id: str,
    action: str,
    turn: int,
    phase: str,
    detail: dict[str, Any],
    at: datetime,
) -> None:
    seq = session.scalar(
        select(func.count()).select_from(UmpireActionRow).where(UmpireActionRow.game_id == game_id)
    )
    session.add(
        UmpireActionRow(
            game_id=game_id,
            seq=int(seq or 0),
            at=at,
            action=action,
            turn=turn,
            phase=phase,
            detail=json.dumps(detail),
        )
    )


def actions(store: GameStore, game_id: str) -> list[dict[str, Any]]:
    """The umpire's actions on a game, in order."""
    with Session(store.engine) as session:
        rows = session.scalars(
            select(UmpireActionRow)
            .where(UmpireActionRow.game_id == game_id)
            .order_by(UmpireActionRow.seq)
        ).all()
        return [
            {
                "at": _utc(r.at).isoformat(),
                "action": r.action,
                "turn": r.turn,
                "phase": r.phase,
                **json.loads(r.detail or "{}"),
            }
            for r in rows
        ]
