"""The tables of the game store (SQLAlchemy 2 declarative models); see :mod:`.store`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, DateTime, ForeignKey, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The store's metadata."""


class GameRow(Base):
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


class OrderRow(Base):
    """One side's final orders for one phase, in sealing order (the record's order list)."""

    __tablename__ = "orders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    side: Mapped[str] = mapped_column(String(200))
    lines: Mapped[str] = mapped_column(Text)  # JSON list of order lines


class SealedRow(Base):
    """Orders sealed for the open phase that has not resolved yet (never shown to a player)."""

    __tablename__ = "sealed"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    side: Mapped[str] = mapped_column(String(200), primary_key=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    lines: Mapped[str] = mapped_column(Text)


class TokenRow(Base):
    """A credential's digest and what it opens: one side of one game, or its umpire."""

    __tablename__ = "tokens"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    role: Mapped[str] = mapped_column(String(200))


class InviteRow(Base):
    """A side's invite: claimed once, it yields that side's credential."""

    __tablename__ = "invites"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    side: Mapped[str] = mapped_column(String(200))
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ScenarioTextRow(Base):
    """An uploaded scenario's text, named by its SHA-256 (shared by the games made from it)."""

    __tablename__ = "scenario_texts"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    text: Mapped[str] = mapped_column(Text)


class ChatRow(Base):
    """One chat message of a game: to everyone (``all``) or to one side and the umpire."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    sender: Mapped[str] = mapped_column(String(200))  # a side name or "umpire"
    channel: Mapped[str] = mapped_column(String(10))  # "side" or "all"
    side: Mapped[str | None] = mapped_column(String(200), nullable=True)  # the side channel's
    text: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PresenceRow(Base):
    """One open push stream: which seat listens, refreshed while it stays open."""

    __tablename__ = "presence"

    stream: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    role: Mapped[str] = mapped_column(String(200))
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClockRow(Base):
    """A game's turn deadline and when its open phase opened (added by the running part;
    ``create_all`` makes it in an older database, whose games simply have no deadline)."""

    __tablename__ = "game_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    deadline_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class UmpireActionRow(Base):
    """What the umpire did to a game, in order (the orders it caused are in ``orders``)."""

    __tablename__ = "umpire_actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    action: Mapped[str] = mapped_column(String(40))
    turn: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(50))
    detail: Mapped[str] = mapped_column(Text, default="")
