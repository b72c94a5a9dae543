"""Typed event records produced by resolution.

An :class:`Event` is a small frozen record with a ``kind``, a one-line human narrative and a dict of
structured data. Every die roll is an event too (``EventKind.ROLL``), so the log read top to bottom
shows each roll next to what it caused, e.g. ``"Mikasa: Hvy FL in port amidships rolls 6 → 150FL"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    """What an event records."""

    ROLL = "roll"
    PHASE = "phase"
    ORDER = "order"
    MOVE = "move"
    COLLISION = "collision"
    GROUNDING = "grounding"
    COMMAND = "command"
    SIGNAL = "signal"
    SALVO = "salvo"
    SPLASH = "splash"
    HIT_ZONE = "hit_zone"
    TORPEDO_LAUNCH = "torpedo_launch"
    TORPEDO_HIT = "torpedo_hit"
    TORPEDO_MISS = "torpedo_miss"
    HIT = "hit"
    DAMAGE = "damage"
    FIRE = "fire"
    FLOODING = "flooding"
    CRITICAL = "critical"
    EXPLOSION = "explosion"
    REPAIR = "repair"
    COMMAND_FUNCTION = "command_function"
    LISTING = "listing"
    SINKING = "sinking"
    SUNK = "sunk"
    SURRENDER = "surrender"
    NOTE = "note"
    RESULT = "result"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    ``side`` is set when the event is private to one side until revealed (a sealed order); an event
    with ``side=None`` is public.
    """

    kind: EventKind
    text: str
    turn: int = 0
    phase: str = ""
    ship: str | None = None
    side: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, used by saved games, the web API and golden files."""
        out: dict[str, Any] = {"kind": self.kind.value, "text": self.text, "turn": self.turn}
        if self.phase:
            out["phase"] = self.phase
        if self.ship is not None:
            out["ship"] = self.ship
        if self.side is not None:
            out["side"] = self.side
        if self.data:
            out["data"] = dict(self.data)
        return out


class _EventDraft:
    """An unfrozen twin of :class:`Event` (same slots in the same order) for :func:`new_event`."""

    __slots__ = Event.__slots__

    def __init__(
        self,
        kind: EventKind,
        text: str,
        turn: int,
        phase: str,
        ship: str | None,
        side: str | None,
        data: Mapping[str, Any],
    ) -> None:
        self.kind = kind
        self.text = text
        self.turn = turn
        self.phase = phase
        self.ship = ship
        self.side = side
        self.data = data


def new_event(
    kind: EventKind,
    text: str,
    turn: int,
    phase: str,
    ship: str | None,
    side: str | None,
    data: Mapping[str, Any],
) -> Event:
    """``Event(kind, text, turn, phase, ship, side, data)``, about three times cheaper.

    A frozen dataclass sets each field through ``object.__setattr__``, which is slow, and a battle
    makes tens of thousands of events. This fills an :class:`_EventDraft` with plain slot stores
    and then turns it into an :class:`Event`: the two classes have the same slots, so the
    ``__class__`` switch is allowed, and the result is an ordinary frozen :class:`Event` (equal to
    the one the constructor makes, with the same ``repr``, ``to_dict`` and immutability).
    """
    event: Any = _EventDraft(kind, text, turn, phase, ship, side, data)
    event.__class__ = Event
    return event  # type: ignore[no-any-return]


class EventLog:
    """An append-only list of events that stamps each one with the current turn and phase."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.turn = 0
        self.phase = ""

    def emit(
        self,
        kind: EventKind,
        text: str,
        *,
        ship: str | None = None,
        side: str | None = None,
        **data: Any,
    ) -> Event:
        """Record and return a new event."""
        event = new_event(kind, text, self.turn, self.phase, ship, side, data)
        self.events.append(event)
        return event

    def of_kind(self, *kinds: EventKind) -> list[Event]:
        """The events of the given kinds, in order."""
        return [e for e in self.events if e.kind in kinds]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)
