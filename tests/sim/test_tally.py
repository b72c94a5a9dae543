"""The simulator counts each ruleset's own events (issue 12 item 5): hits per round fired by
side and calibre class, and damage by cause for bf1900, TGD and DBA alike.

Every figure is checked against a game played through the public path (``new_game`` and the
AI admirals) and counted again here from the events a player sees: the public fall-of-shot
markers (BF6-MEAS-02..04) for rounds fired, the hit-location rolls (BF6-HIT-01) for hits.
"""

from __future__ import annotations

from collections import Counter

import pytest

from battleline.ai.base import play
from battleline.engine.events import Event, EventKind
from battleline.engine.tally import ALL_GUNS, Shots
from battleline.game import new_game
from battleline.rulesets.bf1900.tally import calibre_class, shots
from battleline.sim.aggregate import Tally, ratio_ci
from battleline.sim.runner import CAUSES, play_battle, run_seed


def _played(scenario: str, seed: int, index: int) -> tuple[dict[str, str], list[Event]]:
    game = new_game(scenario, run_seed(seed, index))
    play(game)
    side_of = {f.name: f.side for f in game.ruleset.fates(game.state)}
    return side_of, list(game.events)


@pytest.mark.parametrize(("scenario", "index"), [("cruiser-duel", 0), ("cruiser-duel-1d12", 1)])
def test_rounds_and_hits_are_the_games_own(scenario: str, index: int) -> None:
    """Rounds fired per side are the rounds on the public markers; hits are the rounds the
    hit-location roll put on a ship (1D6) or rolled on the Shell Hits chart (1D12)."""
    rec = play_battle(scenario, 7, index)
    side_of, events = _played(scenario, 7, index)
    fired: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    for e in events:
        if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
            fired[side_of[e.data["firer"]]] += e.data["rounds"]
        elif e.kind is EventKind.HIT and "faces" in e.data:
            hits[side_of[e.data["firer"]]] += e.data["hits"]
        elif e.kind is EventKind.DAMAGE and "portion" in e.data:
            hits[side_of[e.data["firer"]]] += 1
    assert sum(fired.values()) > 0 and sum(hits.values()) > 0
    rows = {(s, c): (f, h) for s, c, f, h in rec.gunnery}
    for side in rec.sides:
        assert rows.get((side, ALL_GUNS), (0, 0)) == (fired[side], hits[side])
        by_class = [v for (s, c), v in rows.items() if s == side and c != ALL_GUNS]
        assert tuple(map(sum, zip(*by_class, strict=True))) == (fired[side], hits[side]) or (
            not by_class and fired[side] == 0
        )
    # Gun by gun: each bore's rounds and hits add up to its class's (bf1900 and 1D12 alike).
    by_bore: Counter[tuple[str, str]] = Counter()
    for side, bore_label, f, h in rec.bores:
        cls = calibre_class(float(bore_label.removesuffix(" cm")))
        by_bore[side, cls + " rounds"] += f
        by_bore[side, cls + " hits"] += h
    assert rec.bores
    for (side, cls), (f, h) in rows.items():
        if cls != ALL_GUNS:
            assert (by_bore[side, cls + " rounds"], by_bore[side, cls + " hits"]) == (f, h)
    # Hits received, by the target's class, add up to the hits made by the other side.
    taken = Counter({s: 0 for s in rec.sides})
    for side, _cls, n in rec.hits_taken:
        taken[side] += n
    a, b = rec.sides
    assert (taken[a], taken[b]) == (hits[b], hits[a])


def test_calibre_classes_follow_the_record_figures() -> None:
    """12-in and 10-in guns are heavy; 8-in, 6-in and the 15 cm Krupp medium; 4.7-in light."""
    assert [calibre_class(c) for c in (30.5, 25.4, 20.3, 15.2, 15.0, 12.0, 5.7)] == [
        "heavy",
        "heavy",
        "medium",
        "medium",
        "medium",
        "light",
        "light",
    ]


def test_one_salvo_by_hand() -> None:
    """A marker's umpire note gives rounds by calibre; a HIT gives hits; nothing else counts."""
    note = Event(
        EventKind.NOTE,
        "umpire",
        data={
            "measured": True,
            "firer": "Mikasa",
            "target": "Retvisan",
            "rounds_by_calibre": {"30.5": 4, "15.2": 14},
        },
    )
    hit = Event(
        EventKind.HIT,
        "x",
        ship="Retvisan",
        data={"firer": "Mikasa", "calibre_cm": 15.2, "hits": 3, "faces": [1, 2, 6]},
    )
    assert list(shots(note)) == [
        Shots("Mikasa", "heavy", fired=4, target="Retvisan", bore="30.5 cm"),
        Shots("Mikasa", "medium", fired=14, target="Retvisan", bore="15.2 cm"),
    ]
    assert list(shots(hit)) == [
        Shots("Mikasa", "medium", hits=3, target="Retvisan", bore="15.2 cm")
    ]
    assert list(shots(Event(EventKind.NOTE, "other", data={"firer": "Mikasa"}))) == []


def test_hit_rate_interval_treats_the_battle_as_the_unit() -> None:
    """Two battles of 100 rounds, 10 and 30 hits: 20 %, and an interval far wider than a
    binomial over 200 rounds would give."""
    lo, hi = ratio_ci(2, 200, 40, 100**2 * 2, 10**2 + 30**2, 100 * 10 + 100 * 30)
    assert lo < 0.2 < hi and hi - lo > 0.3
    assert ratio_ci(3, 300, 30, 3 * 100**2, 3 * 10**2, 3 * 1000) == pytest.approx((0.1, 0.1))
    assert ratio_ci(5, 0, 0, 0, 0, 0) == (0.0, 0.0)


def test_the_sweep_reports_hit_rates_by_calibre_and_side() -> None:
    tally = Tally("cruiser-duel", 7)
    recs = [play_battle("cruiser-duel", 7, i) for i in range(2)]
    for r in recs:
        tally.add(r)
    rates = tally.summary()["hit_rates"]
    assert rates
    for side in rates:
        row = rates[side][ALL_GUNS]
        fired = sum(f for r in recs for s, c, f, _ in r.gunnery if s == side and c == ALL_GUNS)
        made = sum(h for r in recs for s, c, _, h in r.gunnery if s == side and c == ALL_GUNS)
        assert (row["rounds"], row["hits"]) == (fired, made)
        assert row["rate"] == pytest.approx(made / fired)
        assert row["ci95"][0] <= row["rate"] <= row["ci95"][1]
    # Gun by gun: the bores of a side add up to its all-guns row.
    bores = tally.summary()["hit_rates_by_bore"]
    for side in rates:
        rows = bores[side].values()
        assert sum(r["rounds"] for r in rows) == rates[side][ALL_GUNS]["rounds"]
        assert sum(r["hits"] for r in rows) == rates[side][ALL_GUNS]["hits"]
        assert all(label.endswith(" cm") for label in bores[side])


@pytest.mark.parametrize(
    ("scenario", "counted"),
    [
        # TGD: a location whose strength beat the armour; a hull box crossed off.
        (
            "tgd-duel",
            {
                "gunfire": lambda e: e.kind is EventKind.HIT and e.data.get("call") == "hit",
                "flooding": lambda e: e.kind is EventKind.FLOODING,
            },
        ),
        # DBA: every result applied to a ship names its cause.
        (
            "dba-tutorial",
            {
                "gunfire": lambda e: str(e.data.get("cause", "")).startswith("gunfire"),
                "torpedo": lambda e: str(e.data.get("cause", "")).startswith("torpedo"),
                "ramming": lambda e: e.data.get("cause") == "ram",
            },
        ),
    ],
)
def test_tgd_and_dba_damage_is_counted_from_their_own_events(
    scenario: str, counted: dict[str, object]
) -> None:
    total = Counter[str]()
    for index in range(3):
        rec = play_battle(scenario, 5, index)
        assert rec.error == ""
        side_of, events = _played(scenario, 5, index)
        for cause, pred in counted.items():
            want = Counter(
                side_of[e.ship]
                for e in events
                if e.ship in side_of and pred(e)  # type: ignore[operator]
            )
            got = {s: rec.damage[i][CAUSES.index(cause)] for i, s in enumerate(rec.sides)}
            assert got == {s: want[s] for s in rec.sides}, (scenario, index, cause)
            total[cause] += sum(got.values())
    assert total["gunfire"] > 0  # the table is no longer all zeros
