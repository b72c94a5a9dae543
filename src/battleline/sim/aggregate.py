"""Streaming aggregation of battle records: memory flat in the number of runs.

A :class:`Tally` keeps only integer counters — wins, draws, histograms of ships sunk and crippled
and of turns, class survivors, damage counts — never the records themselves. Integer sums do not
depend on the order they are added in, so tallies merged from any number of workers in any order
give exactly the same aggregate (and the same JSON) as one worker adding run 0, 1, 2, ...

Rates carry Wilson score 95 % intervals (:func:`wilson`), which behave at 0 % and 100 %.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from battleline.sim.runner import CAUSES, BattleRecord, GunRows, run_seed

#: How many failed battles a tally keeps the message of (those with the lowest run indices).
KEEP_ERRORS = 5

#: The two-sided 95 % normal quantile.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion; ``(0, 1)`` with no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return low, high


def ratio_ci(
    n: int, fired: int, hits: int, fired2: int, hits2: int, cross: int, z: float = Z95
) -> tuple[float, float]:
    """The 95 % interval of a hit rate ``hits / fired`` summed over ``n`` battles.

    The rounds of one battle are not independent trials (the same crews, ranges and targets),
    so the interval treats the battle as the unit: the ratio estimator's standard error from the
    per-battle sums (``fired2``, ``hits2``, ``cross``: the sums of each battle's rounds squared,
    hits squared and rounds × hits), by the delta method. ``(0, 0)`` with no rounds.
    """
    if fired <= 0:
        return 0.0, 0.0
    r = hits / fired
    if n < 2:
        return r, r
    spread = max(0.0, hits2 - 2 * r * cross + r * r * fired2)  # Σ (h - r·f)²
    se = math.sqrt(spread / (n - 1) / n) * n / fired
    return max(0.0, r - z * se), min(1.0, r + z * se)


GunSums = dict[tuple[str, str], list[int]]


def _add_sums(sums: GunSums, key: tuple[str, str], values: Iterable[int]) -> None:
    """Add ``values`` to the running sums of ``key``, term by term."""
    row = sums.setdefault(key, [0] * 5)
    for j, v in enumerate(values):
        row[j] += v


def _add_gun_rows(sums: GunSums, rows: GunRows) -> None:
    """Add one battle's ``(side, guns, rounds, hits)`` rows to the running sums (with the
    squares and cross products :func:`ratio_ci` needs)."""
    for side, guns, fired, hits in rows:
        _add_sums(sums, (side, guns), (fired, hits, fired * fired, hits * hits, fired * hits))


def _mean(counts: Counter[int]) -> float:
    n = sum(counts.values())
    return sum(k * v for k, v in counts.items()) / n if n else 0.0


def _hist(counts: Counter[int]) -> dict[str, int]:
    return {str(k): counts[k] for k in sorted(counts)}


@dataclass(slots=True)
class Tally:
    """Running counters for one sweep (one scenario, one seed)."""

    scenario: str
    seed: int
    sides: tuple[str, str] | None = None
    runs: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    sunk: dict[str, Counter[int]] = field(default_factory=dict)
    crippled: dict[str, Counter[int]] = field(default_factory=dict)
    turns: Counter[int] = field(default_factory=Counter)
    decided_turns: Counter[int] = field(default_factory=Counter)
    ships: Counter[tuple[str, str]] = field(default_factory=Counter)
    survivors: Counter[tuple[str, str]] = field(default_factory=Counter)
    damage: dict[str, list[int]] = field(default_factory=dict)
    #: (side, calibre class) → [rounds, hits, Σ rounds², Σ hits², Σ rounds·hits] (per battle).
    gunnery: GunSums = field(default_factory=dict)
    #: (side, bore) → the same sums, gun by gun.
    bores: GunSums = field(default_factory=dict)
    hits_taken: Counter[tuple[str, str]] = field(default_factory=Counter)
    failed: int = 0
    errors: dict[int, str] = field(default_factory=dict)

    @property
    def completed(self) -> int:
        """Battles played to a result (the denominator of every rate and mean)."""
        return self.runs - self.failed

    def _note_errors(self, errors: dict[int, str]) -> None:
        """Keep the messages of the lowest-numbered failed runs (order-independent)."""
        self.errors.update(errors)
        for index in sorted(self.errors)[KEEP_ERRORS:]:
            del self.errors[index]

    def _ensure_sides(self, sides: tuple[str, str]) -> None:
        if self.sides is None:
            self.sides = sides
            for s in sides:
                self.sunk[s] = Counter()
                self.crippled[s] = Counter()
                self.damage[s] = [0] * len(CAUSES)
        elif self.sides != sides:
            raise ValueError(f"records of sides {sides} cannot join a tally of {self.sides}")

    def add(self, record: BattleRecord) -> None:
        """Count one battle."""
        self._ensure_sides(record.sides)
        self.runs += 1
        if record.error:
            self.failed += 1
            self._note_errors({record.index: record.error})
            return
        if record.winner is None:
            self.draws += 1
        else:
            self.wins[record.winner] += 1
        for i, side in enumerate(record.sides):
            self.sunk[side][record.sunk[i]] += 1
            self.crippled[side][record.crippled[i]] += 1
            row = self.damage[side]
            for j, n in enumerate(record.damage[i]):
                row[j] += n
        self.turns[record.turns] += 1
        if record.decided:
            self.decided_turns[record.turns] += 1
        for side, cls, n, k in record.classes:
            self.ships[side, cls] += n
            self.survivors[side, cls] += k
        _add_gun_rows(self.gunnery, record.gunnery)
        _add_gun_rows(self.bores, record.bores)
        for side, cls, hits in record.hits_taken:
            self.hits_taken[side, cls] += hits

    def merge(self, other: Tally) -> None:
        """Add another tally of the same sweep (a worker's chunk) to this one."""
        if other.sides is None:
            return
        if (other.scenario, other.seed) != (self.scenario, self.seed):
            raise ValueError("tallies of different sweeps cannot be merged")
        self._ensure_sides(other.sides)
        self.runs += other.runs
        self.failed += other.failed
        self._note_errors(other.errors)
        self.wins.update(other.wins)
        self.draws += other.draws
        for side in other.sides:
            self.sunk[side].update(other.sunk[side])
            self.crippled[side].update(other.crippled[side])
            row = self.damage[side]
            for j, n in enumerate(other.damage[side]):
                row[j] += n
        self.turns.update(other.turns)
        self.decided_turns.update(other.decided_turns)
        self.ships.update(other.ships)
        self.survivors.update(other.survivors)
        for mine, theirs in ((self.gunnery, other.gunnery), (self.bores, other.bores)):
            for key, sums in theirs.items():
                _add_sums(mine, key, sums)
        self.hits_taken.update(other.hits_taken)

    # -- the summary -------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """The aggregate as plain JSON (keys described in ``docs/performance.md``)."""
        sides = self.sides or ("", "")
        n = self.completed
        rate = (lambda k: k / n) if n else (lambda k: 0.0)
        classes: dict[str, dict[str, dict[str, float]]] = {s: {} for s in sides}
        for side, cls in sorted(self.ships):
            ships = self.ships[side, cls]
            alive = self.survivors[side, cls]
            classes[side][cls] = {
                "ships": ships,
                "survived": alive,
                "rate": alive / ships if ships else 0.0,
                "hits_taken_per_ship": self.hits_taken[side, cls] / ships if ships else 0.0,
            }
        decided = sum(self.decided_turns.values())
        return {
            "scenario": self.scenario,
            "runs": self.runs,
            "seed": self.seed,
            "sides": list(sides),
            "completed": n,
            "failed": self.failed,
            "errors": [
                {"run": i, "game_seed": run_seed(self.seed, i), "error": self.errors[i]}
                for i in sorted(self.errors)
            ],
            "win_rate": {s: rate(self.wins[s]) for s in sides},
            "ci95": {s: list(wilson(self.wins[s], n)) for s in sides},
            "draw_rate": rate(self.draws),
            "draw_ci95": list(wilson(self.draws, n)),
            "mean_ships_sunk": {s: _mean(self.sunk.get(s, Counter())) for s in sides},
            "ships_sunk_distribution": {s: _hist(self.sunk.get(s, Counter())) for s in sides},
            "mean_ships_crippled": {s: _mean(self.crippled.get(s, Counter())) for s in sides},
            "ships_crippled_distribution": {
                s: _hist(self.crippled.get(s, Counter())) for s in sides
            },
            "class_survival": classes,
            "turns": {
                "mean": _mean(self.turns),
                "distribution": _hist(self.turns),
                "decided_rate": rate(decided),
                "mean_to_decision": _mean(self.decided_turns) if decided else None,
            },
            "hit_rates": self.hit_rates(),
            "hit_rates_by_bore": self._rates(self.bores),
            "damage_by_cause": {
                s: {c: (self.damage[s][j] / n if n else 0.0) for j, c in enumerate(CAUSES)}
                for s in sides
                if s in self.damage
            },
        }

    def hit_rates(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Hits per round fired by side and calibre class (and all guns), with 95 % intervals
        (:func:`ratio_ci`) and the rounds and hits per battle."""
        return self._rates(self.gunnery)

    def _rates(self, sums: GunSums) -> dict[str, dict[str, dict[str, Any]]]:
        n = self.completed
        out: dict[str, dict[str, dict[str, Any]]] = {s: {} for s in self.sides or ()}
        for (side, guns), (fired, hits, f2, h2, fh) in sorted(sums.items()):
            out.setdefault(side, {})[guns] = {
                "rounds": fired,
                "hits": hits,
                "rounds_per_battle": fired / n if n else 0.0,
                "hits_per_battle": hits / n if n else 0.0,
                "rate": hits / fired if fired else 0.0,
                "ci95": list(ratio_ci(n, fired, hits, f2, h2, fh)),
            }
        return out
