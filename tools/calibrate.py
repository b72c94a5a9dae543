"""Calibrate the historical scenarios against the record: AI-against-AI battles, a markdown table.

Usage::

    python tools/calibrate.py [--runs 20] [--seed 1905] [--workers 2] [--json out.json]
                              [--skills historical|green|veteran|elite] [--charts DIR]
                              [SCENARIO ...]

Each run of each historical scenario is one battle played to its end by the AI admirals (the
simulator's :func:`battleline.sim.runner.run_seed` seeds run ``i`` of a sweep, so the same
``--seed`` and ``--runs`` give the same table on any machine and any number of workers). A ship
counts as **sunk** when it has gone down or is still sinking at the end; the record counts ships
sunk, scuttled or run ashore and burnt (destroyed) the same way. Ships that surrendered are
counted apart (see ``docs/history.md``).

The table gives, per scenario: the historical victor and losses, the share of runs won by the
historical victor (with a Wilson 95 % interval), the draw share, the mean ships sunk per side
with a 95 % interval (normal approximation, mean ± 1.96·s/√n), the mean ships surrendered, and
whether the target is met: the historical victor in most runs and each side's mean ships sunk
within a factor of two of the record. Where the record is zero, "within a factor of two" means a
mean below :data:`ZERO_TOLERANCE` ships.

The admirals are the ones ``battleline demo`` plays (``battleline.ai.admiral.default_admiral``).
By default (``--skills historical``) each side's range-takers have the gunnery its scenario file
gives it (``[[sides]] gunnery``: the Japanese of 1904–05 elite; the Americans, the Japanese of
1894 and the Vladivostok cruisers veteran; the Chinese, the Spanish and the Port Arthur and
Baltic squadrons green); ``--skills veteran`` plays both sides at the demo's level. Each side's
preferred fighting range (``doctrine_range_m``) comes from the scenario file either way.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

#: A side whose historical loss is zero meets the target if its mean loss stays below this.
ZERO_TOLERANCE = 0.5
#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Record:
    """The historical outcome of a scenario, as comparable with a game of it."""

    scenario: str
    victor: str
    #: Ships sunk or destroyed (scuttled, run ashore and burnt) on each side, in the scenario's
    #: side order, counting only ships in the scenario lost in the action it covers.
    sunk: tuple[int, int]
    note: str


#: The record for each historical scenario (sources in the scenario files and docs/history.md).
HISTORY: dict[str, Record] = {
    "yalu-1894": Record(
        "yalu-1894",
        "Japan",
        (5, 0),
        "Chao Yung, Yang Wei, Chih Yuen, King Yuen sunk; Kuang Chia aground and destroyed",
    ),
    "santiago-1898": Record(
        "santiago-1898",
        "United States",
        (6, 0),
        "all four cruisers beached or scuttled, both destroyers sunk or beached",
    ),
    "yellow-sea-1904": Record(
        "yellow-sea-1904", "Japan", (0, 0), "no ship sunk; the Russian squadron scattered"
    ),
    "tsushima-1905": Record(
        "tsushima-1905",
        "Japan",
        (4, 0),
        "of the 12 ships in the scenario, 4 sunk by gunfire on 27 May (of 21 sunk, 7 captured "
        "in all, incl. 6 battleships on day one and that night)",
    ),
    "ulsan-1904": Record("ulsan-1904", "Japan", (1, 0), "Rurik scuttled"),
}


def skill_for(mode: str) -> str | None:
    """The admirals' skill: ``None`` for ``historical`` (each side's crews as its scenario file
    sets them, ``[[sides]] gunnery``), or one level for both sides (``green``, ``veteran`` — the
    demo's — or ``elite``). The doctrine range (``doctrine_range_m``) always comes from the
    scenario."""
    return None if mode == "historical" else mode


@dataclass(frozen=True, slots=True)
class RunResult:
    """One battle's outcome: winner (``None`` for a draw), ships sunk and surrendered per side."""

    index: int
    winner: str | None
    sides: tuple[str, str]
    sunk: tuple[int, int]
    surrendered: tuple[int, int]
    turns: int
    #: Set when the engine or an admiral failed mid-game: the run is left out of the table and
    #: counted in its ``errors`` column (the message is printed to stderr).
    error: str | None = None


def play_one(scenario: str, seed: int, index: int, skills: str = "veteran") -> RunResult:
    """Play run ``index`` of the sweep seeded ``seed`` to its end, AI against AI, the admirals
    at the skill ``skills`` names (see :func:`skill_for`)."""
    import numpy as np

    from battleline.ai.admiral import default_admiral
    from battleline.ai.base import Admiral, play
    from battleline.errors import BattlelineError
    from battleline.game import new_game
    from battleline.rulesets.bf1900.ruleset import ship_fate
    from battleline.sim.runner import run_seed

    skill = skill_for(skills)

    def factory(side: str, ss: np.random.SeedSequence) -> Admiral:
        return default_admiral(side, ss, skill)

    game = new_game(scenario, run_seed(seed, index))
    try:
        play(game, factory=factory)
    except BattlelineError as exc:
        sides = (game.state.sides[0], game.state.sides[1])
        return RunResult(index, None, sides, (0, 0), (0, 0), game.state.turn, f"{exc}")
    state = game.state
    a, b = state.sides
    struck = {a: 0, b: 0}
    sunk = {a: 0, b: 0}
    for log in state.logs.values():
        fate = ship_fate(log)
        sunk[log.side] += fate in ("sunk", "sinking")
        struck[log.side] += fate == "surrendered"
    result = state.result
    return RunResult(
        index=index,
        winner=None if result is None else result.winner,
        sides=(a, b),
        sunk=(sunk[a], sunk[b]),
        surrendered=(struck[a], struck[b]),
        turns=state.turn,
    )


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval (normal approximation; a single value has width 0)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    m = sum(values) / n
    if n == 1:
        return m, m, m
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    half = Z95 * sd / math.sqrt(n)
    return m, max(0.0, m - half), m + half


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson score 95 % interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def within_factor_two(mean: float, record: int) -> bool:
    """The loss target: within a factor of two of the record (below 0.5 for a record of 0)."""
    if record == 0:
        return mean < ZERO_TOLERANCE
    return record / 2 <= mean <= record * 2


@dataclass(frozen=True, slots=True)
class Row:
    """One scenario's calibration summary."""

    scenario: str
    runs: int
    sides: tuple[str, str]
    victor: str
    record_sunk: tuple[int, int]
    victor_rate: float
    victor_ci: tuple[float, float]
    draw_rate: float
    sunk_mean: tuple[float, float]
    sunk_ci: tuple[tuple[float, float], tuple[float, float]]
    surrendered_mean: tuple[float, float]
    mean_turns: float
    errors: int
    victor_ok: bool
    losses_ok: tuple[bool, bool]

    @property
    def meets_target(self) -> bool:
        """Historical victor in most runs and both sides' losses within a factor of two."""
        return self.victor_ok and all(self.losses_ok)


def summarise(record: Record, results: Sequence[RunResult]) -> Row:
    """Aggregate one scenario's runs against its record (failed runs only counted)."""
    sides = results[0].sides
    errors = sum(r.error is not None for r in results)
    results = [r for r in results if r.error is None] or list(results)
    n = len(results)
    wins = sum(r.winner == record.victor for r in results)
    draws = sum(r.winner is None for r in results)
    stats = [mean_ci([r.sunk[i] for r in results]) for i in (0, 1)]
    struck = [sum(r.surrendered[i] for r in results) / n for i in (0, 1)]
    means = (stats[0][0], stats[1][0])
    return Row(
        scenario=record.scenario,
        runs=n,
        sides=sides,
        victor=record.victor,
        record_sunk=record.sunk,
        victor_rate=wins / n,
        victor_ci=wilson(wins, n),
        draw_rate=draws / n,
        sunk_mean=means,
        sunk_ci=((stats[0][1], stats[0][2]), (stats[1][1], stats[1][2])),
        surrendered_mean=(struck[0], struck[1]),
        mean_turns=sum(r.turns for r in results) / n,
        errors=errors,
        victor_ok=wins / n > 0.5,
        losses_ok=(
            within_factor_two(means[0], record.sunk[0]),
            within_factor_two(means[1], record.sunk[1]),
        ),
    )


def markdown(rows: Sequence[Row]) -> str:
    """The calibration table."""
    head = (
        "| scenario | runs | historical victor | record sunk | victor rate (95 % CI) | draws "
        "| mean sunk, side 1 (95 % CI) | mean sunk, side 2 (95 % CI) | mean surrendered "
        "| mean turns | failed runs | target |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for r in rows:
        (a, b) = r.sides
        ok = "met" if r.meets_target else "NOT met"
        lines.append(
            f"| {r.scenario} | {r.runs} | {r.victor} "
            f"| {a} {r.record_sunk[0]}, {b} {r.record_sunk[1]} "
            f"| {r.victor_rate:.0%} ({r.victor_ci[0]:.0%}–{r.victor_ci[1]:.0%}) "
            f"| {r.draw_rate:.0%} "
            f"| {a} {r.sunk_mean[0]:.2f} ({r.sunk_ci[0][0]:.2f}–{r.sunk_ci[0][1]:.2f}) "
            f"| {b} {r.sunk_mean[1]:.2f} ({r.sunk_ci[1][0]:.2f}–{r.sunk_ci[1][1]:.2f}) "
            f"| {r.surrendered_mean[0]:.2f} / {r.surrendered_mean[1]:.2f} "
            f"| {r.mean_turns:.1f} | {r.errors} | {ok} |"
        )
    return head + "\n".join(lines) + "\n"


def use_charts(path: str | None) -> None:
    """Play with the chart files in ``path`` instead of the packaged ones (to try a calibration
    change before it is written into ``data/charts``); ``None`` keeps the packaged charts."""
    if path is None:
        return
    from battleline.rulesets.bf1900 import ruleset

    ruleset.use_charts(path)


def _job(args: tuple[str, int, int, str]) -> RunResult:
    return play_one(*args)


def calibrate(
    scenarios: Sequence[str],
    runs: int,
    seed: int,
    workers: int,
    charts: str | None = None,
    skills: str = "historical",
) -> list[Row]:
    """Play ``runs`` battles of each scenario (in ``workers`` processes) and summarise them."""
    jobs = [(s, seed, i, skills) for s in scenarios for i in range(runs)]
    if workers > 1:
        with ProcessPoolExecutor(
            max_workers=workers, initializer=use_charts, initargs=(charts,)
        ) as pool:
            results = list(pool.map(_job, jobs, chunksize=1))
    else:
        use_charts(charts)
        results = [_job(j) for j in jobs]
    for r in results:
        if r.error is not None:
            print(f"run {r.index} failed at turn {r.turns}: {r.error}", file=sys.stderr)
    rows = []
    for k, name in enumerate(scenarios):
        rows.append(summarise(HISTORY[name], results[k * runs : (k + 1) * runs]))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the markdown table (and optionally the rows as JSON)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenarios", nargs="*", default=list(HISTORY), help="scenario ids")
    p.add_argument("--runs", type=int, default=20, help="battles per scenario")
    p.add_argument("--seed", type=int, default=1905, help="the sweep seed")
    p.add_argument("--workers", type=int, default=2, help="worker processes")
    p.add_argument("--json", default=None, help="also write the rows as JSON here")
    p.add_argument(
        "--skills",
        default="historical",
        choices=["historical", "green", "veteran", "elite"],
        help="admiral skill: by navy (historical) or one level for both sides",
    )
    p.add_argument(
        "--charts", default=None, help="a directory of chart files to try instead of the packaged"
    )
    args = p.parse_args(argv)
    unknown = [s for s in args.scenarios if s not in HISTORY]
    if unknown:
        p.error(f"no historical record for {unknown}; known: {sorted(HISTORY)}")
    if args.runs < 1:
        p.error("--runs must be at least 1")
    start = time.monotonic()
    rows = calibrate(args.scenarios, args.runs, args.seed, args.workers, args.charts, args.skills)
    sys.stdout.write(markdown(rows))
    sys.stdout.write(
        f"\n{args.runs} runs per scenario, seed {args.seed}, skills {args.skills}, "
        f"{time.monotonic() - start:.0f} s with {args.workers} worker(s)"
        f"{'' if args.charts is None else ', charts from ' + args.charts}\n"
    )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([asdict(r) for r in rows], fh, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
