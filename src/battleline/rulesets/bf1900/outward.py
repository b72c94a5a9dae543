"""What a player across the table sees of a ship, and who sees which event (issue 11 §3).

Events are private to the ship's side unless marked. The bf1900 family marks them here:

* :func:`firing_side` names the side that fired a shell or torpedo: it sees the dice of its own
  shells on the hit tables and the codes they produce (``with events.shown_to(*firing_side(...))``
  around those rolls in Damage Step Two), never what the codes then do to the target's log.
* :class:`Signs` is what shows of a ship from outside: she burns (external fires make smoke; an
  internal fire does not show), she has stopped, she lists heavily (an Uneven Flooding effect,
  BF6-DMG-11/13), she is sinking, she has gone under, she has struck her colours. Inside
  ``with announced(logs, events):`` every change of a ship's signs is told to everyone in a
  short public event (``"Yoshino has stopped"``) while the detailed events stay her owner's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import NamedTuple

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.shiplog import ShipLog


def firing_side(events: EventLog, firer: str) -> tuple[str, ...]:
    """The side of the ship that fired, as a tuple for ``events.shown_to`` (empty if unknown)."""
    side = events.owners.get(firer)
    return (side,) if side else ()


_tuple_new = tuple.__new__


class Signs(NamedTuple):
    """What shows of one ship across the table (a named tuple: built for every ship before and
    after each damage step, so cheap to make and compare)."""

    burning: bool
    stopped: bool
    listing: bool
    sinking: bool
    sunk: bool
    struck: bool

    @classmethod
    def of(cls, log: ShipLog) -> Signs:
        """The signs a ship shows now."""
        sunk, sinking = log.sunk, log.sinking is not None
        # ``tuple.__new__`` with the fields in order: the named tuple's own ``__new__`` is a
        # Python function, and this is built for every ship before and after each damage step.
        return _tuple_new(
            cls,
            (
                log.fires_external > 0 and not sunk,  # burning
                not (sunk or sinking) and log.speed_knots <= 0.0,  # stopped
                bool(log.uneven) and not sunk,  # listing
                sinking and not sunk,  # sinking
                sunk,
                log.surrendered,  # struck
            ),
        )


#: Each sign's words when it appears and when it goes, and the event kind that tells it.
_WORDS: dict[str, tuple[str, str, EventKind]] = {
    "burning": ("is on fire", "is no longer burning", EventKind.FIRE),
    "stopped": ("has stopped", "is under way again", EventKind.NOTE),
    "listing": ("lists heavily", "is back on an even keel", EventKind.LISTING),
    "sinking": ("is sinking", "", EventKind.SINKING),
    "sunk": ("has gone under", "", EventKind.SUNK),
    "struck": ("has struck her colours", "", EventKind.SURRENDER),
}


def announce(name: str, before: Signs, after: Signs, events: EventLog) -> None:
    """Tell everyone how a ship's signs changed, one short public event per sign."""
    if before == after:
        return
    for sign, (shows, goes, kind) in _WORDS.items():
        was, now = getattr(before, sign), getattr(after, sign)
        if was == now or not (shows if now else goes):
            continue
        events.emit(
            kind, f"{name} {shows if now else goes}", ship=name, public=True, sign=sign, shows=now
        )


@contextmanager
def announced(logs: Mapping[str, ShipLog], events: EventLog) -> Iterator[None]:
    """Announce, once the block ends, every ship whose signs it changed."""
    before = {name: Signs.of(log) for name, log in logs.items()}
    yield
    for name, log in logs.items():
        was = before.get(name)
        if was is not None:
            announce(name, was, Signs.of(log), events)


__all__ = ["Signs", "announce", "announced", "firing_side"]
