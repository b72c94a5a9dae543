"""An AI admiral for Damn Battleships Again, reading only its side's :class:`DbaSideView`.

Doctrine, spell by spell:

* **Movement** (its own spell): each squadron moves together behind its leader. Beyond its
  doctrine band (the scenario's ``[[side]] doctrine``, normal range by default) it turns towards
  the nearest enemy and closes as far as its NIPs pay for; inside it, it turns to bring the enemy
  on the beam, where every gun and tube bears at full effect (DBA-TGT, DBA-TORP-05), and keeps
  moving one base so it is never a stopped target (DBA-TF-10). Torpedo craft with torpedoes
  left run in to close range; once they have spent them they keep their distance. Crippled
  ships are given their NIP first (DBA-MOV-02). Turns are held to 60° so a squadron never
  wheels into line abreast and locks itself (DBA-MOV-03), and no move crosses another base
  (which would be an involuntary ramming test, DBA-RAM-01): the admiral turns a little more or
  less, or moves fewer bases, until the way is clear. With the ``nets`` option a netted
  squadron lowers its nets while an enemy torpedo craft is within torpedo range, and raises them
  again when none is (DBA-NET-01..03).
* **Combat** (both spells): every ship that may fire engages the nearest enemy in range and
  arc, preferring one on the beam and one that fewer than two of its ships already fire at (a
  third costs each of them −1, DBA-TF-02), and a second enemy on the opposite beam when it has
  one; a ship with torpedoes left
  attacks a target at close range, or at normal range when it is a torpedo craft, at factor 2 in
  its own spell and 1 in the enemy's (DBA-TORP-02/03).

Every cost is asked of the rules library (:func:`move_cost`, :func:`group_move_cost`), so the
admiral never offers an order the umpire would refuse for NIPs; :func:`battleline.ai.base.play`
drops any line the rules still refuse.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from shapely import LineString

from battleline.engine.geometry import Pose, norm360, signed_angle
from battleline.errors import BattlelineError
from battleline.rulesets.dba.combat import Arc, arc_of
from battleline.rulesets.dba.factors import RangeBand, load_annex_a
from battleline.rulesets.dba.movement import group_move_cost, move_cost
from battleline.rulesets.dba.options import Options
from battleline.rulesets.dba.table import band_of, base_metres, bearing, distance_bases, footprint
from battleline.rulesets.dba.tables import load_core
from battleline.rulesets.dba.view import DbaContact, DbaOwnShip, DbaSideView

#: Greatest turn the admiral orders in one move (below the 90° wheel of DBA-MOV-03).
MAX_TURN = 60.0
_TURN_STEP = 15.0
#: Shooters one target takes before splash confusion sets in (DBA-TF-02, DBA-WC-07).
SPLASH_FREE = 2
_TORPEDO_CRAFT = frozenset({"tbd", "tb_1", "tb_2"})


class DbaAdmiral:
    """Closes to its doctrine band, fights broadside on, fires at what bears, torpedoes close."""

    def __init__(self, side: str, seed: np.random.SeedSequence | int) -> None:
        self.side = side
        self.rng = np.random.default_rng(seed)

    def orders(self, view: DbaSideView, phase: str) -> list[str]:
        """Order lines for the open phase (empty where the admiral has nothing to order)."""
        if phase.startswith("move-") and view.speller == self.side:
            return self.movement(view)
        if phase.startswith("combat-"):
            return self.fire(view)
        return []

    # -- movement ---------------------------------------------------------------------------
    def movement(self, view: DbaSideView) -> list[str]:
        """One group move per squadron (crippled ships first, on their own), each steering
        clear of every other base so that no move risks an involuntary ram (DBA-RAM-01)."""
        options = Options.parse(list(view.options))
        enemies = [c for c in view.contacts if not c.sunk]
        lines: list[str] = []
        if not enemies:
            return lines
        where = {s.name: s.pose for s in view.own if not s.sunk}
        where.update({c.name: c.pose for c in enemies})
        squadrons: dict[str, list[DbaOwnShip]] = {}
        for s in view.own:
            if not s.sunk:
                squadrons.setdefault(s.squadron, []).append(s)

        def order(who: str, group: list[DbaOwnShip], turn: float, nips: int, cap: int) -> int:
            t, b = self._choose(group, turn, nips, options, cap, where)
            if not b:
                return 0
            lines.append(self._line(who, t, b))
            for m in group:
                where[m.name] = Pose(m.pose.x, m.pose.y, norm360(m.pose.heading + t)).forward(
                    b * base_metres()
                )
            return self._cost(group, t, b, options)

        for squadron, ships in squadrons.items():
            nips = view.nips.get(squadron, 0)
            cripples = [s for s in ships if s.crippled and not s.fouled]
            sound = [s for s in ships if not s.crippled and not s.fouled]
            for s in cripples:  # DBA-MOV-02: each crippled ship gets its NIP first
                if nips >= 1:
                    nips -= order(s.name, [s], self._steer(view, s, enemies)[0], 1, 1)
            if not sound or nips < 1:
                continue
            leader = sound[0]
            turn, want = self._steer(view, leader, enemies)
            if len(sound) == len(ships):
                who = squadron if len(sound) > 1 else leader.name
                nets = self._nets(sound, enemies, options)
                if nets is not None and nips >= 1:  # DBA-NET-01: 1 NIP, a group move
                    lines.append(f"{who}: nets {'down' if nets else 'up'}")
                    nips -= 1
                    want = min(want, 1) if nets else want  # DBA-NET-02
                if nips >= 1:
                    order(who, sound, turn, nips, want)
                continue
            for s in sound:  # a broken squadron: one by one
                t, w = self._steer(view, s, enemies)
                nips -= order(s.name, [s], t, nips, w)
        return lines

    @staticmethod
    def _nets(
        group: Sequence[DbaOwnShip], enemies: Sequence[DbaContact], options: Options
    ) -> bool | None:
        """Lower the nets (True) when an enemy torpedo craft is within torpedo range, raise them
        (False) when none is; ``None`` to leave them (DBA-NET-01..03)."""
        if not options.nets or not all(m.status.ship.nets for m in group):
            return None
        reach = load_core().range_bands[RangeBand.NORMAL]
        threat = any(
            c.type in _TORPEDO_CRAFT and not c.crippled and distance_bases(m.pose, c.pose) <= reach
            for c in enemies
            for m in group
        )
        lowered = any(m.nets_lowered for m in group)
        if threat and not lowered:
            return True
        if lowered and not threat:
            return False
        return None

    def _choose(
        self,
        group: Sequence[DbaOwnShip],
        turn: float,
        nips: int,
        options: Options,
        cap: int,
        where: dict[str, Pose],
    ) -> tuple[float, int]:
        """The wanted turn, or the nearest one that is clear, with the most bases affordable."""
        tried: list[float] = []
        for delta in (0.0, 15.0, -15.0, 30.0, -30.0, 45.0, -45.0):
            t = max(-MAX_TURN, min(MAX_TURN, turn + delta))
            if t in tried:
                continue
            tried.append(t)
            for b in range(self._affordable(group, t, nips, options, cap), 0, -1):
                if self._clear(group, t, b, where):
                    return t, b
        return 0.0, 0

    @staticmethod
    def _clear(
        group: Sequence[DbaOwnShip], turn: float, bases: int, where: dict[str, Pose]
    ) -> bool:
        """Does no ship of the group cross another base on this move?"""
        base = base_metres()
        names = {m.name for m in group}
        for m in group:
            start = Pose(m.pose.x, m.pose.y, norm360(m.pose.heading + turn))
            end = start.forward(bases * base)
            path = LineString([(start.x, start.y), (end.x, end.y)])
            here = footprint(m.pose, base)
            for name, pose in where.items():
                if name in names:
                    continue
                there = footprint(pose, base)
                if not there.intersects(here) and path.intersects(there):
                    return False
        return True

    @staticmethod
    def _line(who: str, turn: float, bases: int) -> str:
        return f"{who}: T{turn:+g} {bases}" if turn else f"{who}: {bases}"

    def _doctrine_bases(self, view: DbaSideView, ship: DbaOwnShip) -> float:
        core = load_core()
        if ship.type in _TORPEDO_CRAFT and ship.torpedo_left:
            return core.range_bands[RangeBand.CLOSE]
        band = RangeBand(view.doctrine)
        return core.range_bands[band]

    def _steer(
        self, view: DbaSideView, ship: DbaOwnShip, enemies: Sequence[DbaContact]
    ) -> tuple[float, int]:
        """(turn, bases wanted): close the nearest enemy, or bring her on the beam."""
        target = min(enemies, key=lambda c: distance_bases(ship.pose, c.pose))
        dist = distance_bases(ship.pose, target.pose)
        rel = signed_angle(bearing(ship.pose, target.pose) - ship.pose.heading)
        doctrine = self._doctrine_bases(view, ship)
        if dist > doctrine:
            wanted = rel
            bases = max(1, math.ceil(dist - doctrine))
        else:  # put her abeam: turn until the relative bearing is ±90°
            wanted = rel - math.copysign(90.0, rel) if rel else 90.0
            bases = 1
        turn = max(-MAX_TURN, min(MAX_TURN, round(wanted / _TURN_STEP) * _TURN_STEP))
        return float(turn), bases

    @staticmethod
    def _cost(ships: Sequence[DbaOwnShip], turn: float, bases: int, options: Options) -> int:
        statuses = [s.status for s in ships]
        turns = 1 if turn else 0
        if len(statuses) > 1:
            return group_move_cost(statuses, bases, turns=turns, options=options).nips
        return move_cost(statuses[0], bases, turns=turns, options=options).nips

    def _affordable(
        self,
        ships: Sequence[DbaOwnShip],
        turn: float,
        nips: int,
        options: Options,
        cap: int = 99,
    ) -> int:
        """The most bases (up to ``cap``) these ships can move for ``nips``, or 0."""
        best = 0
        for bases in range(1, min(cap, 6) + 1):
            try:
                cost = self._cost(ships, turn, bases, options)
            except BattlelineError:
                break
            if cost <= nips:
                best = bases
        return best

    # -- combat -----------------------------------------------------------------------------
    def fire(self, view: DbaSideView) -> list[str]:
        """Guns at the nearest enemy that bears, a second target on the other beam, and
        torpedoes when an enemy is close enough."""
        own_spell = view.speller == self.side
        enemies = [c for c in view.contacts if not c.sunk]
        lines: list[str] = []
        shooters_at: dict[str, int] = {}
        for ship in view.own:
            if ship.sunk:
                continue
            ranked = sorted(
                (
                    (distance_bases(ship.pose, c.pose), c)
                    for c in enemies
                    if band_of(ship.pose, c.pose) is not None
                ),
                key=lambda dc: (dc[0], dc[1].name),
            )
            if not ranked:
                continue
            if ship.torpedo_left and not ship.crippled:
                line = self._torpedo(ship, ranked, own_spell)
                if line:
                    lines.append(line)
            if not ship.may_fire:
                continue
            guns = [(d, c) for d, c in ranked if self._guns_reach(ship, c)]
            beam = [(d, c) for d, c in guns if self._arc(ship, c).broadside]
            if not guns:
                continue
            # Spread the fire: a third ship on one target costs every shooter −1 (DBA-TF-02).
            choice = [(d, c) for d, c in (beam or guns) if shooters_at.get(c.name, 0) < SPLASH_FREE]
            first = (choice or beam or guns)[0][1]
            first_arc = self._arc(ship, first)
            lines.append(f"{ship.name} -> {first.name}")
            shooters_at[first.name] = shooters_at.get(first.name, 0) + 1
            for _d, c in beam:  # a second target on the opposite beam (DBA-TGT-01/05)
                arc = self._arc(ship, c)
                if first_arc.broadside and arc is not first_arc:
                    lines.append(f"{ship.name} -> {c.name}")
                    shooters_at[c.name] = shooters_at.get(c.name, 0) + 1
                    break
        return lines

    @staticmethod
    def _arc(ship: DbaOwnShip, c: DbaContact) -> Arc:
        return arc_of(ship.pose.bearing_to(c.pose.x, c.pose.y))

    @staticmethod
    def _guns_reach(ship: DbaOwnShip, c: DbaContact) -> bool:
        """Has the ship an attack factor at this band (not Annex A's 'x'), and can its guns
        hurt the target at all (DBA-SCG-01)?"""
        band = band_of(ship.pose, c.pose)
        if band is None:
            return False
        target = load_annex_a()[c.annex]
        factors = ship.status.ship
        if factors.small_calibre and target.df > 1:
            return False
        use = band if band is not RangeBand.CLOSE or target.torpedo_craft else RangeBand.NORMAL
        return factors.af.at(use) is not None

    @staticmethod
    def _torpedo(
        ship: DbaOwnShip, ranked: Sequence[tuple[float, DbaContact]], own_spell: bool
    ) -> str | None:
        core = load_core()
        craft = ship.type in _TORPEDO_CRAFT
        reach = core.range_bands[RangeBand.NORMAL if craft else RangeBand.CLOSE]
        for dist, c in ranked:
            if dist > reach:
                break
            arc = arc_of(ship.pose.bearing_to(c.pose.x, c.pose.y))
            if craft and arc is Arc.STERN:
                continue  # DBA-TORP-04
            if not craft and not arc.broadside:
                continue  # keep the tubes for a full-effect beam shot (DBA-TORP-05)
            af = min(ship.torpedo_left, 2 if own_spell else 1)
            return f"{ship.name} torpedo {af} -> {c.name}"
        return None


def dba_admiral(side: str, seed: np.random.SeedSequence) -> DbaAdmiral:
    """Factory for :class:`DbaAdmiral` (listed in :data:`battleline.ai.base.ADMIRALS`)."""
    return DbaAdmiral(side, seed)
