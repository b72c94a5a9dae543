"""Splash confusion, Windy Corners and stopped ships (DBA-TF-02, DBA-WC-01..07,
EX-DBA-01..05, AMB-73..76).

The splash-confusion limit: a gun shooter takes −1 when three or more ships fire at its target.
With the ``windy_corners`` option, shooters that fired last spell at a ship on the same Windy
Corner (or at the same still-stopped ship) are exempt; only the others are counted, and only they
take the −1 (AMB-73). Exemption is earned afresh each spell (AMB-75), so the count chains
2 → 4 → 6 → 8 shooters without deduction in the amendments' example (EX-DBA-01, EX-DBA-02,
EX-DBA-03, EX-DBA-04, EX-DBA-05).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.dba.options import DEFAULT_OPTIONS, Options
from battleline.rulesets.dba.tables import CoreTables, load_core

#: A turn in succession must exceed this to make a Windy Corner (DBA-WC-01).
WINDY_TURN_DEGREES = 45.0


@dataclass
class WindyCorner:
    """A fixed spot of sea where a squadron turned in succession (DBA-WC-01)."""

    location: str
    squadron: str
    #: Squadron ships that have not yet moved through the corner.
    to_pass: set[str]
    #: Ships counted as on the corner (including crippled ships hauling out, DBA-WC-04).
    occupants: set[str] = field(default_factory=set)


@dataclass
class SplashConfusion:
    """Tracks Windy Corners and last spell's fire for the splash-confusion exemptions."""

    options: Options = DEFAULT_OPTIONS
    corners: dict[str, WindyCorner] = field(default_factory=dict)
    #: (spell, shooter) → Windy Corner location fired at.
    fired_at_corner: dict[tuple[int, str], str] = field(default_factory=dict)
    #: (spell, shooter) → stopped ship fired at.
    fired_at_stopped: dict[tuple[int, str], str] = field(default_factory=dict)

    # -- Windy Corners --------------------------------------------------------------------
    def turn_in_succession(
        self,
        squadron: str,
        ships: Sequence[str],
        *,
        degrees: float,
        location: str,
        first_through: str,
        log: EventLog | None = None,
    ) -> WindyCorner | None:
        """A squadron's turn in succession; over 45° it makes a Windy Corner at ``location``,
        the spot of the first ship that completed the turn (DBA-WC-01, AMB-74)."""
        if not self.options.windy_corners or abs(degrees) <= WINDY_TURN_DEGREES:
            return None
        if location in self.corners:
            return self.corners[location]
        corner = WindyCorner(location, squadron, set(ships) - {first_through}, {first_through})
        self.corners[location] = corner
        if log is not None:
            log.emit(
                EventKind.NOTE,
                f"Windy Corner at {location}: squadron {squadron} turned "
                f"{abs(degrees):g}° in succession, {first_through} on it",
                ship=first_through,
            )
        return corner

    def corner_of(self, ship: str) -> str | None:
        """The Windy Corner a ship counts as on, if any."""
        for corner in self.corners.values():
            if ship in corner.occupants:
                return corner.location
        return None

    def arrive(self, ship: str, location: str) -> None:
        """A ship ends its move on a Windy Corner."""
        corner = self.corners[location]
        corner.occupants.add(ship)

    def pass_through(self, ship: str, location: str) -> None:
        """A ship moves through the corner without stopping on it (no disadvantage)."""
        corner = self.corners[location]
        corner.to_pass.discard(ship)
        corner.occupants.discard(ship)
        self._expire(location)

    def leave(self, ship: str, *, crippled: bool = False) -> None:
        """A ship moves off its corner; a crippled ship still counts as on it (DBA-WC-04)."""
        location = self.corner_of(ship)
        if location is None or crippled:
            return
        corner = self.corners[location]
        corner.occupants.discard(ship)
        corner.to_pass.discard(ship)
        self._expire(location)

    def _expire(self, location: str) -> None:
        """DBA-WC-03: gone once every squadron ship has moved through it."""
        corner = self.corners[location]
        if not corner.to_pass and not corner.occupants:
            del self.corners[location]

    # -- fire ------------------------------------------------------------------------------
    def record_fire(self, spell: int, shooter: str, target: str, *, target_stopped: bool) -> None:
        """Remember gunfire for next spell's exemptions (DBA-WC-02/06)."""
        location = self.corner_of(target)
        if location is not None:
            self.fired_at_corner[(spell, shooter)] = location
        if target_stopped:
            self.fired_at_stopped[(spell, shooter)] = target

    def exempt(self, spell: int, shooter: str, target: str, *, target_stopped: bool) -> bool:
        """Is this shooter outside the splash count against this target? (DBA-WC-02, DBA-WC-05,
        and DBA-WC-06 for stopped ships)"""
        if not self.options.windy_corners:
            return False
        location = self.corner_of(target)
        if location is not None and self.fired_at_corner.get((spell - 1, shooter)) == location:
            return True  # same fixed spot, any ship on it (DBA-WC-05)
        return target_stopped and self.fired_at_stopped.get((spell - 1, shooter)) == target

    def penalties(
        self,
        spell: int,
        target: str,
        shooters: Iterable[str],
        *,
        target_stopped: bool = False,
        core: CoreTables | None = None,
    ) -> dict[str, int]:
        """Each gun shooter's splash-confusion factor against one target (DBA-TF-02, DBA-WC-07).

        Counts only non-exempt shooters; if they reach the limit (3), each takes −1 (AMB-73).
        """
        core = core or load_core()
        shooters = list(dict.fromkeys(shooters))
        counted = [
            s for s in shooters if not self.exempt(spell, s, target, target_stopped=target_stopped)
        ]
        hit = len(counted) >= core.tf["splash_limit"]
        return {s: core.tf["splash_confusion"] if hit and s in counted else 0 for s in shooters}

    def fire(
        self,
        spell: int,
        target: str,
        shooters: Iterable[str],
        *,
        target_stopped: bool = False,
        core: CoreTables | None = None,
    ) -> dict[str, int]:
        """:meth:`penalties`, then :meth:`record_fire` for each shooter."""
        shooters = list(shooters)
        out = self.penalties(spell, target, shooters, target_stopped=target_stopped, core=core)
        for s in shooters:
            self.record_fire(spell, s, target, target_stopped=target_stopped)
        return out
