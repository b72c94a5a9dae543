"""Typed event records produced by resolution.

An :class:`Event` is a small frozen record with a ``kind``, a one-line human narrative and a dict of
structured data. Every die roll is an event too (``EventKind.ROLL``), so the log read top to bottom
shows each roll next to what it caused, e.g. ``"Mikasa: Hvy FL in port amidships rolls 6 → 150FL"``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
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
    """One thing that happened, and who may see it.

    Events are private by default. ``side`` is the event's owner (the side of its ``ship`` unless
    given): the owner sees it, and so do the sides in ``seen_by``. An event is shown to every side
    only when ``public`` is set. An event with no owner and not public is the umpire's alone. After
    the game ends everything is public, for the replay. What a side is finally shown is decided by
    its ruleset's view (:mod:`battleline.engine.view`).
    """

    kind: EventKind
    text: str
    turn: int = 0
    phase: str = ""
    ship: str | None = None
    side: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    public: bool = False
    seen_by: tuple[str, ...] = ()

    def visible_to(self, side: str) -> bool:
        """Whether ``side`` may see this event while the game is on."""
        return self.public or self.side == side or side in self.seen_by

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
        if self.public:
            out["public"] = True
        if self.seen_by:
            out["seen_by"] = list(self.seen_by)
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
        public: bool,
        seen_by: tuple[str, ...],
    ) -> None:
        self.kind = kind
        self.text = text
        self.turn = turn
        self.phase = phase
        self.ship = ship
        self.side = side
        self.data = data
        self.public = public
        self.seen_by = seen_by


def new_event(
    kind: EventKind,
    text: str,
    turn: int,
    phase: str,
    ship: str | None,
    side: str | None,
    data: Mapping[str, Any],
    public: bool = False,
    seen_by: tuple[str, ...] = (),
) -> Event:
    """``Event(kind, text, turn, phase, ship, side, data, public, seen_by)``, about three times
    cheaper.

    A frozen dataclass sets each field through ``object.__setattr__``, which is slow, and a battle
    makes tens of thousands of events. This fills an :class:`_EventDraft` with plain slot stores
    and then turns it into an :class:`Event`: the two classes have the same slots, so the
    ``__class__`` switch is allowed, and the result is an ordinary frozen :class:`Event` (equal to
    the one the constructor makes, with the same ``repr``, ``to_dict`` and immutability).
    """
    event: Any = _EventDraft(kind, text, turn, phase, ship, side, data, public, seen_by)
    event.__class__ = Event
    return event  # type: ignore[no-any-return]


class EventLog:
    """An append-only list of events that stamps each one with the turn, the phase and its owner.

    ``owners`` maps each ship to its side (the ruleset fills it when the game starts): an event
    about a ship belongs to that ship's side unless ``side`` is given. Inside
    ``with log.shown_to(side):`` every event is also shown to ``side`` (the firing side sees the
    dice of its own shells and the codes they produce).

    A lean log (``keep`` given) records only events of those kinds: a Monte Carlo battle, which
    can always be replayed in full from its seed, keeps what its tally and its admirals read and
    skips the rest (every die roll's narrative, above all). ``emit`` of a kind not kept records
    nothing and returns :data:`DROPPED`.
    """

    def __init__(
        self,
        owners: Mapping[str, str] | None = None,
        *,
        keep: frozenset[EventKind] | None = None,
    ) -> None:
        self.events: list[Event] = []
        self.turn = 0
        self.phase = ""
        self.owners: Mapping[str, str] = owners or {}
        self.keep = keep
        self._shown: tuple[str, ...] = ()

    def keeps(self, kind: EventKind) -> bool:
        """Whether events of ``kind`` are recorded."""
        return self.keep is None or kind in self.keep

    def emit(
        self,
        kind: EventKind,
        text: str,
        *,
        ship: str | None = None,
        side: str | None = None,
        public: bool = False,
        seen_by: tuple[str, ...] = (),
        **data: Any,
    ) -> Event:
        """Record and return a new event (private to its owner unless ``public``)."""
        if self.keep is not None and kind not in self.keep:
            return DROPPED
        if side is None and ship is not None:
            side = self.owners.get(ship)
        if self._shown:
            seen_by = tuple(dict.fromkeys((*seen_by, *self._shown)))
        event = new_event(kind, text, self.turn, self.phase, ship, side, data, public, seen_by)
        self.events.append(event)
        return event

    @contextmanager
    def shown_to(self, *sides: str) -> Iterator[None]:
        """Show every event emitted inside the block to ``sides`` as well as to its owner."""
        before = self._shown
        self._shown = tuple(dict.fromkeys((*before, *sides)))
        try:
            yield
        finally:
            self._shown = before

    def of_kind(self, *kinds: EventKind) -> list[Event]:
        """The events of the given kinds, in order."""
        return [e for e in self.events if e.kind in kinds]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)


#: What :meth:`EventLog.emit` returns for an event a lean log does not keep.
DROPPED = Event(EventKind.NOTE, "(not recorded)")
