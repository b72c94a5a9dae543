"""Request and answer models of the running part (deadlines, umpire, lobby)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from battleline.server.clocks import MAX_DEADLINE_MINUTES

#: The most seats one lobby request may ask about.
MAX_LOBBY_SEATS = 50


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DeadlineIn(_In):
    """The umpire's new deadline: minutes each phase is open, or ``null`` for none."""

    minutes: int | None = Field(ge=1, le=MAX_DEADLINE_MINUTES)


class PhaseIn(_In):
    """The phase the umpire means to resolve (refused if another is open by then)."""

    turn: int = Field(ge=1, le=10_000)
    phase: str = Field(min_length=1, max_length=50)


class SideIn(_In):
    """The side the umpire hands to the computer, or takes back."""

    side: str = Field(min_length=1, max_length=200)


class UmpireDone(BaseModel):
    """What an umpire's action changed."""

    action: str
    turn: int
    phase: str
    waiting_for: list[str]
    ai_sides: list[str]
    finished: bool
    result: str | None
    no_orders: list[str] = Field(default_factory=list)


class LobbySeat(_In):
    """A seat the browser holds: its game and credential (the rest is the browser's note)."""

    game: str = Field(max_length=300)
    token: str = Field(max_length=300)
    side: str | None = Field(default=None, max_length=200)
    url: str | None = Field(default=None, max_length=2000)


class LobbyIn(_In):
    """The seats to report on."""

    seats: list[LobbySeat] = Field(max_length=MAX_LOBBY_SEATS)


class LobbyEntry(BaseModel):
    """One seat as the lobby shows it; ``ok`` false with ``problem`` for a seat that opens
    nothing (the rest is then empty)."""

    game: str
    ok: bool
    problem: str | None = None
    role: str | None = None  # a side, or "umpire"
    title: str | None = None
    side: str | None = None
    turn: int | None = None
    phase: str | None = None
    must_move: bool = False
    computer: bool = False  # the umpire handed this side to the computer
    finished: bool = False
    result: str | None = None
    seconds_left: float | None = None


class LobbyOut(BaseModel):
    """The lobby: one entry per seat asked about, in the order asked."""

    seats: list[LobbyEntry]
