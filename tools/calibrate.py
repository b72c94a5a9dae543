"""Calibrate the historical scenarios against the record: AI-against-AI battles, a markdown table.

Usage::

    python tools/calibrate.py [--runs 20] [--seed 1905] [--workers 2] [--json out.json]
                              [--skills historical|green|veteran|elite] [--charts DIR]
                              [--record FILE] [--hit-rates FILE] [SCENARIO ...]

A SCENARIO is a built-in id or a scenario file. A battle of one's own is calibrated by giving its
scenario file and its record: ``--record`` a battles file and ``--hit-rates`` a hit-rates file,
in the formats of ``data/history/battles.toml`` and ``hit_rates.toml`` (``docs/history.md``,
"Calibrating a battle of your own"); a record there replaces a packaged one of the same id.

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
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from battleline.errors import BattlelineError, UnknownNameError
from battleline.rulesets.bf1900.history import (
    Figure,
    Record,
    Survivor,
    battle_records,
    record_figures,
    records_for,
)
from battleline.sim.aggregate import Z95, wilson

if TYPE_CHECKING:
    from battleline.sim.runner import BattleRecord

#: A side whose historical loss is zero meets the target if its mean loss stays below this.
ZERO_TOLERANCE = 0.5


#: The record for each historical scenario (``data/history/battles.toml``).
HISTORY: dict[str, Record] = battle_records()


def skill_for(mode: str) -> str | None:
    """The admirals' skill: ``None`` for ``historical`` (each side's crews as its scenario file
    sets them, ``[[sides]] gunnery``), or one level for both sides (``green``, ``veteran`` — the
    demo's — or ``elite``). The doctrine range (``doctrine_range_m``) always comes from the
    scenario."""
    return None if mode == "historical" else mode


def play_one(scenario: str, seed: int, index: int, skills: str = "historical") -> BattleRecord:
    """Play run ``index`` of the sweep seeded ``seed`` to its end, AI against AI, the admirals
    at the skill ``skills`` names (see :func:`skill_for`): the simulator's battle and record
    (:func:`battleline.sim.runner.play_battle`, lean log, the ruleset's own tally)."""
    import numpy as np

    from battleline.ai.admiral import default_admiral
    from battleline.ai.base import Admiral
    from battleline.sim.runner import play_battle

    skill = skill_for(skills)

    def factory(side: str, ss: np.random.SeedSequence) -> Admiral:
        return default_admiral(side, ss, skill)

    return play_battle(scenario, seed, index, factory=factory)


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


def within_factor_two(mean: float, record: int) -> bool:
    """The loss target: within a factor of two of the record (below 0.5 for a record of 0)."""
    if record == 0:
        return mean < ZERO_TOLERANCE
    return record / 2 <= mean <= record * 2


@dataclass(frozen=True, slots=True)
class HitRow:
    """One side's hits per round fired for one calibre class, against the record's figure."""

    side: str
    guns: str
    rounds_per_battle: float
    hits_per_battle: float
    rate: float
    ci: tuple[float, float]
    #: The record's figure as printed, and whether the rate is within a factor of two of it
    #: (``None``: no figure for these guns).
    record: str | None = None
    ok: bool | None = None
    #: The record's own hits and rounds for these guns, where the source gives them.
    record_counts: str | None = None


@dataclass(frozen=True, slots=True)
class SurvivorRow:
    """A class the record has surviving: its survival in the runs and the hits it took."""

    side: str
    ship_class: str
    ships: int
    survival: float
    survival_ci: tuple[float, float]
    hits_per_ship: float
    record: str


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
    hits: tuple[HitRow, ...] = ()
    survivors: tuple[SurvivorRow, ...] = ()

    @property
    def hits_ok(self) -> bool:
        """Every record hit rate of the scenario within a factor of two (true if it has none)."""
        return all(h.ok is not False for h in self.hits)

    @property
    def meets_target(self) -> bool:
        """Historical victor in most runs, both sides' losses within a factor of two, and the
        hit rates within a factor of two of the record's."""
        return self.victor_ok and all(self.losses_ok) and self.hits_ok


def hit_rows(summary: dict[str, Any], figures: Sequence[Figure]) -> tuple[HitRow, ...]:
    """The sweep's hit rates by side and calibre class, then by each bore a figure names
    (``hit_rates_by_bore``), each beside its record figure. A figure for guns that fired no
    round in any run fails: an absent rate meets no target."""
    out = []
    for side in summary["sides"]:
        classes = summary["hit_rates"].get(side, {})
        bores = summary.get("hit_rates_by_bore", {}).get(side, {})
        mine = [f for f in figures if f.side == side]
        names = list(classes) + [f.guns for f in mine if f.guns not in classes]
        for guns in names:
            h = classes.get(guns) or bores.get(guns)
            fig = next((f for f in mine if f.guns == guns), None)
            rate = h["rate"] if h else 0.0
            ok = None if fig is None else bool(h and h["rounds"]) and fig.within_factor_two(rate)
            out.append(
                HitRow(
                    side,
                    guns,
                    h["rounds_per_battle"] if h else 0.0,
                    h["hits_per_battle"] if h else 0.0,
                    rate,
                    (h["ci95"][0], h["ci95"][1]) if h else (0.0, 0.0),
                    None if fig is None else fig.text,
                    ok,
                    None if fig is None else fig.counts,
                )
            )
    return tuple(out)


def survivor_rows(
    summary: dict[str, Any], scenario: str, survivors: Sequence[Survivor]
) -> tuple[SurvivorRow, ...]:
    """The survival (afloat and not struck at the end) of the classes of the ships the record
    names, and the hits each of their ships took on average."""
    from battleline.game import new_game

    if not survivors:
        return ()
    game = new_game(scenario, 0)
    fates = game.ruleset.fates(game.state)
    out = []
    for sv in survivors:
        classes = sorted({f.ship_class for f in fates if f.side == sv.side and f.name in sv.ships})
        for cls in classes:
            row = summary["class_survival"][sv.side][cls]
            out.append(
                SurvivorRow(
                    sv.side,
                    cls,
                    row["ships"],
                    row["rate"],
                    wilson(row["survived"], row["ships"]),
                    row["hits_taken_per_ship"],
                    sv.what,
                )
            )
    return tuple(out)


def summarise(
    record: Record,
    results: Sequence[BattleRecord],
    figures: Sequence[Figure] = (),
    survivors: Sequence[Survivor] = (),
) -> Row:
    """Aggregate one scenario's runs against its record (failed runs only counted)."""
    from battleline.sim.aggregate import Tally

    sides = results[0].sides
    errors = sum(bool(r.error) for r in results)
    results = [r for r in results if not r.error] or list(results)
    n = len(results)
    tally = Tally(record.scenario, 0)
    for r in results:
        tally.add(r)
    summary = tally.summary()
    wins = sum(r.winner == record.victor for r in results)
    draws = sum(r.winner is None for r in results)
    stats = [mean_ci([r.sunk[i] for r in results]) for i in (0, 1)]
    struck = [sum(r.surrendered[i] for r in results) / n for i in (0, 1)]
    means = (stats[0][0], stats[1][0])
    mine = [f for f in figures if f.scenario == record.scenario]
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
        hits=hit_rows(summary, mine),
        survivors=survivor_rows(
            summary, record.scenario, [s for s in survivors if s.scenario == record.scenario]
        ),
    )


def markdown(rows: Sequence[Row]) -> str:
    """The calibration table, the hit-rate table and the survivors."""
    head = (
        "| scenario | runs | historical victor | record sunk | victor rate (95 % CI) | draws "
        "| mean sunk, side 1 (95 % CI) | mean sunk, side 2 (95 % CI) | mean surrendered "
        "| mean turns | failed runs | hit rates | target |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    )
    lines = []
    for r in rows:
        (a, b) = r.sides
        ok = "met" if r.meets_target else "NOT met"
        rated = [h for h in r.hits if h.ok is not None]
        hits = f"{sum(bool(h.ok) for h in rated)} of {len(rated)}" if rated else "-"
        lines.append(
            f"| {r.scenario} | {r.runs} | {r.victor} "
            f"| {a} {r.record_sunk[0]}, {b} {r.record_sunk[1]} "
            f"| {r.victor_rate:.0%} ({r.victor_ci[0]:.0%}–{r.victor_ci[1]:.0%}) "
            f"| {r.draw_rate:.0%} "
            f"| {a} {r.sunk_mean[0]:.2f} ({r.sunk_ci[0][0]:.2f}–{r.sunk_ci[0][1]:.2f}) "
            f"| {b} {r.sunk_mean[1]:.2f} ({r.sunk_ci[1][0]:.2f}–{r.sunk_ci[1][1]:.2f}) "
            f"| {r.surrendered_mean[0]:.2f} / {r.surrendered_mean[1]:.2f} "
            f"| {r.mean_turns:.1f} | {r.errors} | {hits} | {ok} |"
        )
    out = head + "\n".join(lines) + "\n"
    out += (
        "\nHits per round fired (95 % CI over battles; record: the sourced figure, "
        "data/history/hit_rates.toml)\n\n"
        "| scenario | side | guns | rounds / battle | hits / battle | hit rate (95 % CI) "
        "| record | record hits / rounds | within ×2 |\n|---|---|---|---|---|---|---|---|---|\n"
    )
    for r in rows:
        for h in r.hits:
            verdict = "-" if h.ok is None else ("yes" if h.ok else "NO")
            out += (
                f"| {r.scenario} | {h.side} | {h.guns} | {h.rounds_per_battle:.0f} "
                f"| {h.hits_per_battle:.1f} | {h.rate:.1%} ({h.ci[0]:.1%}–{h.ci[1]:.1%}) "
                f"| {h.record or '-'} | {h.record_counts or '-'} | {verdict} |\n"
            )
    survivors = [(r.scenario, s) for r in rows for s in r.survivors]
    if survivors:
        out += (
            "\nSurvivors the record names (class survival: afloat and not struck at the end)\n\n"
            "| scenario | side | class | ships | survived (95 % CI) | hits taken per ship "
            "| the record |\n|---|---|---|---|---|---|---|\n"
        )
        for name, sv in survivors:
            out += (
                f"| {name} | {sv.side} | {sv.ship_class} | {sv.ships} "
                f"| {sv.survival:.0%} ({sv.survival_ci[0]:.0%}–{sv.survival_ci[1]:.0%}) "
                f"| {sv.hits_per_ship:.1f} | {sv.record} |\n"
            )
    return out


def use_charts(path: str | None) -> None:
    """Play with the chart files in ``path`` instead of the packaged ones (to try a calibration
    change before it is written into ``data/charts``); ``None`` keeps the packaged charts."""
    if path is None:
        return
    from battleline.rulesets.bf1900 import ruleset

    ruleset.use_charts(path)


def _job(args: tuple[str, int, int, str]) -> BattleRecord:
    return play_one(*args)


def calibrate(
    scenarios: Sequence[str],
    runs: int,
    seed: int,
    workers: int,
    charts: str | None = None,
    skills: str = "historical",
    records: Sequence[Record] | None = None,
    record: tuple[Sequence[Figure], Sequence[Survivor]] | None = None,
) -> list[Row]:
    """Play ``runs`` battles of each scenario (in ``workers`` processes) and summarise them
    against ``records`` (one per scenario; by default the packaged record of each id) and the
    hit-rate ``record`` (figures and survivors; by default the packaged ones)."""
    jobs = [(s, seed, i, skills) for s in scenarios for i in range(runs)]
    battles = list(records) if records is not None else [HISTORY[s] for s in scenarios]
    figures, survivors = record if record is not None else record_figures()
    rows: list[Row] = []
    done: list[BattleRecord] = []

    def take(results: Iterable[BattleRecord]) -> None:
        """Summarise each scenario as soon as its runs are in (a line on stderr for each)."""
        for r in results:
            if r.error:
                print(f"run {r.index} failed: {r.error}", file=sys.stderr)
            done.append(r)
            if len(done) == runs:
                row = summarise(battles[len(rows)], done, figures, survivors)
                rows.append(row)
                done.clear()
                print(progress_line(row), file=sys.stderr, flush=True)
                # The scenario's own tables too, so a long sweep stopped early keeps them.
                print(markdown([row]), file=sys.stderr, flush=True)

    if workers > 1:
        with ProcessPoolExecutor(
            max_workers=workers, initializer=use_charts, initargs=(charts,)
        ) as pool:
            take(pool.map(_job, jobs, chunksize=1))
    else:
        use_charts(charts)
        take(_job(j) for j in jobs)
    return rows


def progress_line(r: Row) -> str:
    """One scenario's headline figures, printed as soon as its runs are in."""
    a, b = r.sides
    rated = ", ".join(
        f"{h.side} {h.guns} {h.rate:.1%} (record {h.record}{'' if h.ok else ', NOT within x2'})"
        for h in r.hits
        if h.record is not None
    )
    return (
        f"{r.scenario}: victor {r.victor_rate:.0%}, sunk {a} {r.sunk_mean[0]:.2f} / "
        f"{b} {r.sunk_mean[1]:.2f}, struck {r.surrendered_mean[0]:.2f} / "
        f"{r.surrendered_mean[1]:.2f}; {rated or 'no record hit rate'}; "
        f"{'met' if r.meets_target else 'NOT met'}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the markdown table (and optionally the rows as JSON)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "scenarios", nargs="*", default=list(HISTORY), help="scenario ids or scenario files"
    )
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
    p.add_argument("--record", default=None, help="a battles file of your own (battles.toml)")
    p.add_argument(
        "--hit-rates", default=None, help="a hit-rates file of your own (hit_rates.toml)"
    )
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")
    try:
        records, record = records_for(args.scenarios, args.record, args.hit_rates)
    except UnknownNameError as exc:
        own = " (a battle of your own needs --record FILE)" if exc.kind == "battle record" else ""
        p.error(f"{exc}{own}")
    except BattlelineError as exc:
        p.error(str(exc))
    start = time.monotonic()
    rows = calibrate(
        args.scenarios,
        args.runs,
        args.seed,
        args.workers,
        args.charts,
        args.skills,
        records,
        record,
    )
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
