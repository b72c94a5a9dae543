"""The Monte Carlo simulator: seeds, one battle's record, streaming aggregation, backends."""

from __future__ import annotations

import importlib.util
import itertools
import math
import pickle
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import Event, EventKind
from battleline.errors import BattlelineError
from battleline.game import new_game
from battleline.sim.aggregate import Tally, wilson
from battleline.sim.backends import (
    ClusterError,
    chunks,
    open_backend,
    prepare,
    run_chunk,
    simulate,
)
from battleline.sim.runner import CAUSES, BattleRecord, cause_of, play_battle, run_seed


@pytest.fixture(scope="module")
def serial_tally(tiny: str) -> Tally:
    """Four battles of the tiny scenario, seed 3, in this process."""
    return simulate(tiny, 4, 3, workers=1)


# -- seeds ---------------------------------------------------------------------------------------


def test_run_seed_is_the_spawned_child_of_the_sweep_seed() -> None:
    children = np.random.SeedSequence(11).spawn(5)
    for i, child in enumerate(children):
        assert run_seed(11, i) == int(child.generate_state(1, np.uint64)[0])
    assert len({run_seed(11, i) for i in range(1000)}) == 1000
    assert run_seed(11, 0) != run_seed(12, 0)


def test_chunks_cover_every_run_once_in_order() -> None:
    for runs, workers in [(1, 1), (7, 2), (200, 2), (10_000, 2), (1_000_003, 8)]:
        parts = list(chunks(runs, workers))
        assert parts[0][0] == 0 and parts[-1][1] == runs
        assert all(a < b for a, b in parts)
        assert all(parts[i][1] == parts[i + 1][0] for i in range(len(parts) - 1))
        assert max(b - a for a, b in parts) <= 64


# -- one battle ----------------------------------------------------------------------------------


def test_cause_of_counts_each_kind_of_damage_once() -> None:
    def ev(kind: EventKind, **data: object) -> Event:
        return Event(kind, "x", ship="Yoshino", data=data)

    assert cause_of(ev(EventKind.DAMAGE, location="vitals", codes=["P"])) == "gunfire"
    assert cause_of(ev(EventKind.DAMAGE, code="P")) is None  # a code's effect, not a new hit
    assert cause_of(ev(EventKind.TORPEDO_HIT, size=6, halved=False)) == "torpedo"
    assert cause_of(ev(EventKind.TORPEDO_HIT, need=4, roll=5)) is None  # the Torpedo Phase's
    occurrence = {"column": "100>", "roll": 5, "level": 2, "compartment": "forward"}
    assert cause_of(ev(EventKind.FLOODING, **occurrence)) == "flooding"
    assert cause_of(ev(EventKind.FLOODING, column="100>", roll=1, level=0)) is None  # none
    assert cause_of(ev(EventKind.FLOODING, level=2, codes=["P"])) is None  # the effects roll
    rose = {"compartment": "forward", "level": 2, "rose": True}
    assert cause_of(ev(EventKind.FLOODING, **rose)) is None  # the level it raised
    assert cause_of(ev(EventKind.FIRE, internal=True)) == "fire"
    assert cause_of(ev(EventKind.FIRE)) is None  # a fire going out
    assert cause_of(ev(EventKind.EXPLOSION)) == "explosion"
    assert cause_of(ev(EventKind.ROLL, value=6)) is None


def test_play_battle_reads_the_finished_game(tiny: str) -> None:
    rec = play_battle(tiny, 3, 0)
    again = play_battle(tiny, 3, 0)
    assert rec == again  # the same (seed, index), the same battle
    assert pickle.loads(pickle.dumps(rec)) == rec
    assert rec.sides == ("Blue", "Red")
    assert rec.winner in (None, "Blue", "Red")
    assert 1 <= rec.turns <= 4
    assert all(0 <= n <= 1 for n in rec.sunk + rec.crippled)
    assert {(s, c, n) for s, c, n, _ in rec.classes} == {
        ("Blue", "Yoshino", 1),
        ("Red", "Kasagi", 1),
    }
    assert all(len(row) == len(CAUSES) for row in rec.damage)
    # The same game played by hand gives the same fates.
    from battleline.ai.base import play

    game = new_game(tiny, run_seed(3, 0))
    play(game)
    assert game.state.result is not None
    assert rec.winner == game.state.result.winner
    assert rec.turns == game.state.turn
    sunk = [
        sum(
            log.sunk or log.sinking is not None for log in game.state.logs.values() if log.side == s
        )
        for s in rec.sides
    ]
    assert list(rec.sunk) == sunk
    hits = [e for e in game.events if e.kind is EventKind.DAMAGE and "location" in e.data]
    assert sum(r[0] for r in rec.damage) == len(hits)
    # Every flood hit is counted once, not with the compartment's level event that follows it
    # (one after each flood hit with a level; a failed counterflood adds more).
    floods = [e for e in game.events if e.kind is EventKind.FLOODING and "rose" in e.data]
    assert sum(r[2] for r in rec.damage) <= len(floods)
    assert (
        sum(r[2] for r in rec.damage)
        < len([e for e in game.events if e.kind is EventKind.FLOODING])
        or not floods
    )


def test_a_battle_leaves_the_garbage_collector_as_it_found_it(tiny: str) -> None:
    """The collector is paused for a battle only (:func:`collector_paused`), on or off as before
    it afterwards, also after a battle the engine stops; the battle is the same either way."""
    import gc

    from battleline.sim.runner import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    rec = play_battle(tiny, 3, 0)
    assert gc.isenabled()
    gc.disable()
    try:
        assert play_battle(tiny, 3, 0) == rec
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a battle stopped")
    assert gc.isenabled()


def test_a_battle_the_engine_stops_is_a_failed_record_not_a_lost_sweep(
    tiny: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import battleline.ai.base as base

    class Broken:
        def orders(self, view: object, phase: str) -> list[str]:
            if phase == "gunnery":
                raise BattlelineError("an admiral's bug\nsecond line")
            return []

    monkeypatch.setattr(
        base, "admiral_factory", lambda ruleset="bf1900": lambda side, seed: Broken()
    )
    rec = play_battle(tiny, 3, 2)
    assert rec.error == "BattlelineError: an admiral's bug"
    assert rec.sides == ("Blue", "Red") and rec.index == 2
    tally = Tally(tiny, 3)
    tally.add(rec)
    monkeypatch.undo()
    tally.add(play_battle(tiny, 3, 0))
    s = tally.summary()
    assert (s["runs"], s["completed"], s["failed"]) == (2, 1, 1)
    assert s["errors"] == [
        {"run": 2, "game_seed": run_seed(3, 2), "error": "BattlelineError: an admiral's bug"}
    ]
    assert sum(s["ships_sunk_distribution"]["Blue"].values()) == 1  # only the finished battle
    assert math.isclose(sum(s["win_rate"].values()) + s["draw_rate"], 1.0)


def test_failed_runs_keep_the_lowest_indices_whatever_the_merge_order() -> None:
    def failed(i: int) -> BattleRecord:
        return BattleRecord.failed(i, ("A", "B"), f"boom {i}")

    a, b = Tally("s", 1), Tally("s", 1)
    for i in (9, 3, 7, 11):
        a.add(failed(i))
    for i in (1, 8, 5, 2):
        b.add(failed(i))
    ab, ba = Tally("s", 1), Tally("s", 1)
    ab.merge(a)
    ab.merge(b)
    ba.merge(b)
    ba.merge(a)
    assert ab.summary() == ba.summary()
    assert [e["run"] for e in ab.summary()["errors"]] == [1, 2, 3, 5, 7]
    assert ab.failed == 8 and ab.completed == 0


# -- aggregation ---------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_wilson_interval_holds_the_rate(k: int, n: int) -> None:
    k = min(k, n)
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n + 1e-12 and k / n - 1e-12 <= hi <= 1.0


def gun_rows(labels: list[str]) -> st.SearchStrategy[tuple[tuple[str, str, int, int], ...]]:
    """``(side, guns, rounds, hits)`` rows of one battle."""
    row = st.tuples(
        st.sampled_from(["A", "B"]), st.sampled_from(labels), st.integers(0, 60), st.integers(0, 9)
    )
    return st.lists(row, max_size=4).map(tuple)


records = st.builds(
    BattleRecord,
    gunnery=gun_rows(["heavy", "light", "all"]),
    bores=gun_rows(["30.5 cm", "15.2 cm"]),
    index=st.integers(0, 10**6),
    sides=st.just(("A", "B")),
    winner=st.sampled_from([None, "A", "B"]),
    turns=st.integers(1, 20),
    decided=st.booleans(),
    sunk=st.tuples(st.integers(0, 4), st.integers(0, 4)),
    crippled=st.tuples(st.integers(0, 4), st.integers(0, 4)),
    classes=st.just((("A", "X", 4, 2), ("B", "Y", 4, 3))),
    damage=st.tuples(
        st.tuples(*[st.integers(0, 30)] * len(CAUSES)),
        st.tuples(*[st.integers(0, 30)] * len(CAUSES)),
    ),
)


@given(st.lists(records, min_size=1, max_size=40), st.randoms(use_true_random=False))
def test_tally_merged_in_any_order_equals_one_pass(
    recs: list[BattleRecord], rnd: random.Random
) -> None:
    """Chunks tallied apart and merged in any order give the same summary as one pass."""
    whole = Tally("s", 1)
    for r in recs:
        whole.add(r)
    cuts = sorted(rnd.sample(range(1, len(recs)), min(3, len(recs) - 1))) if len(recs) > 1 else []
    bounds = [0, *cuts, len(recs)]
    parts = []
    for a, b in itertools.pairwise(bounds):
        t = Tally("s", 1)
        for r in recs[a:b]:
            t.add(r)
        parts.append(t)
    rnd.shuffle(parts)
    merged = Tally("s", 1)
    for p in parts:
        merged.merge(p)
    assert merged.summary() == whole.summary()
    s = whole.summary()
    assert s["runs"] == len(recs)
    assert math.isclose(sum(s["win_rate"].values()) + s["draw_rate"], 1.0)
    assert s["mean_ships_sunk"]["A"] == pytest.approx(sum(r.sunk[0] for r in recs) / len(recs))


def test_tally_memory_is_flat_in_the_number_of_runs() -> None:
    """After 20,000 battles the tally holds no more entries than after 200."""
    rng = random.Random(5)

    def rec(i: int) -> BattleRecord:
        return BattleRecord(
            i,
            ("A", "B"),
            rng.choice([None, "A", "B"]),
            rng.randint(1, 20),
            rng.random() < 0.5,
            (rng.randint(0, 4), rng.randint(0, 4)),
            (rng.randint(0, 4), rng.randint(0, 4)),
            (("A", "X", 4, rng.randint(0, 4)), ("B", "Y", 4, rng.randint(0, 4))),
            ((1, 2, 3, 4, 5), (5, 4, 3, 2, 1)),
        )

    def size(t: Tally) -> int:
        return len(pickle.dumps(t))

    t = Tally("s", 1)
    for i in range(200):
        t.add(rec(i))
    small = size(t)
    for i in range(200, 20_000):
        t.add(rec(i))
    assert t.runs == 20_000
    assert size(t) < small + 200  # a few wider integers, nothing per run


def test_summary_keys_and_consistency(serial_tally: Tally) -> None:
    s = serial_tally.summary()
    for key in ("scenario", "runs", "seed", "win_rate", "ci95", "draw_rate", "mean_ships_sunk"):
        assert key in s
    assert s["runs"] == 4 and s["seed"] == 3
    assert set(s["win_rate"]) == set(s["ci95"]) == set(s["mean_ships_sunk"]) == {"Blue", "Red"}
    for side in ("Blue", "Red"):
        lo, hi = s["ci95"][side]
        assert lo <= s["win_rate"][side] <= hi
        assert sum(s["ships_sunk_distribution"][side].values()) == 4
        assert set(s["damage_by_cause"][side]) == set(CAUSES)
    assert s["class_survival"]["Blue"]["Yoshino"]["ships"] == 4
    assert sum(s["turns"]["distribution"].values()) == 4
    assert math.isclose(sum(s["win_rate"].values()) + s["draw_rate"], 1.0)


# -- backends ------------------------------------------------------------------------------------


def test_one_chunk_equals_battles_added_one_by_one(tiny: str, serial_tally: Tally) -> None:
    by_hand = Tally(tiny, 3)
    for i in range(4):
        by_hand.add(play_battle(tiny, 3, i))
    assert by_hand.summary() == serial_tally.summary()


def test_two_worker_processes_give_the_same_aggregate(tiny: str, serial_tally: Tally) -> None:
    done: list[int] = []
    pooled = simulate(tiny, 4, 3, workers=2, progress=done.append)
    assert pooled.summary() == serial_tally.summary()
    assert sum(done) == 4


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_aggregate(tiny: str, serial_tally: Tally) -> None:
    pytest.importorskip("distributed")
    assert simulate(tiny, 4, 3, workers=2, cluster="dask-local").summary() == serial_tally.summary()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed")
def test_a_local_ray_instance_gives_the_same_aggregate(tiny: str, serial_tally: Tally) -> None:
    assert simulate(tiny, 4, 3, workers=2, cluster="ray-local").summary() == serial_tally.summary()


@pytest.mark.parametrize(
    ("scenario", "runs", "workers", "cluster", "message"),
    [
        ("no-such-scenario", 5, 1, None, "unknown scenario 'no-such-scenario'"),
        ("TINY", 0, 1, None, "--runs must be at least 1, not 0"),
        ("TINY", -3, 1, None, "--runs must be at least 1, not -3"),
        ("TINY", 5, 0, None, "--workers must be at least 1"),
        ("TINY", 5, 1, "spark://x:1", "unknown --cluster 'spark://x:1'"),
        ("TINY", 5, 1, "dask://nohostport", "cannot read the cluster address"),
    ],
)
def test_bad_arguments_fail_before_any_battle(
    tiny: str, scenario: str, runs: int, workers: int, cluster: str | None, message: str
) -> None:
    with pytest.raises(BattlelineError, match=message.replace("(", r"\(")):
        prepare(tiny if scenario == "TINY" else scenario, runs, workers, cluster)


@pytest.mark.parametrize("spec", ["dask://127.0.0.1:9", "ray://127.0.0.1:9"])
def test_an_unreachable_cluster_is_a_cluster_error(spec: str) -> None:
    with pytest.raises(ClusterError, match=f"cannot reach the cluster at {re.escape(spec)}"):
        open_backend(spec, 1)


def test_scenario_file_path_is_accepted(tiny: str) -> None:
    assert Path(tiny).exists()
    assert Counter(run_chunk(tiny, 1, 0, 1).turns).total() == 1


def test_the_report_names_failed_battles_and_prints_every_table(serial_tally: Tally) -> None:
    from rich.console import Console

    from battleline.sim.report import print_report

    tally = Tally(serial_tally.scenario, serial_tally.seed)
    tally.merge(serial_tally)
    tally.add(BattleRecord.failed(7, ("Blue", "Red"), "IllegalOrderError: no such thing"))
    console = Console(record=True, width=120)
    print_report(console, tally.summary())
    text = console.export_text()
    assert "1 of 5 battles stopped with an engine error" in text
    assert f"run 7 (game seed {run_seed(3, 7)}): IllegalOrderError: no such thing" in text
    for title in ("Outcome", "Losses per battle", "Survival by class", "Damage received"):
        assert title in text
    assert "Yoshino" in text and "Kasagi" in text
