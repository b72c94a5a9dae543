"""Damage Step Two: shell hits in sets and torpedo hits (BF6-DMG-07..09, BF6-HIT-01,
BF6-TORP-07/08, EX-BF6-08, EX-DRV-02)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.events import EventKind, EventLog
from battleline.errors import UnknownNameError
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.damage.step2 import resolve_hits, torpedo_size
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet, TorpedoHit
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel, GunClass, Rating
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.testing import FixedDice, SeededDice
from conftest import destroyer, majestic

CHARTS = load_charts()


class Recorder:
    """An ``ApplyCodes`` double."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[str, ...], DamageContext]] = []

    def __call__(self, log: ShipLog, codes: Sequence[str], ctx: DamageContext) -> None:
        self.calls.append((log.name, tuple(codes), ctx))

    @property
    def codes(self) -> list[tuple[str, ...]]:
        return [c for _, c, _ in self.calls]


class SetDice(FixedDice):
    """Scripted dice that also record every ``rolls`` call (one call = one set)."""

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__(values)
        self.sets: list[tuple[int, str]] = []

    def rolls(self, n: int, sides: int, purpose: str, *, ship: str | None = None) -> list[int]:
        self.sets.append((n, purpose))
        return super().rolls(n, sides, purpose, ship=ship)


def target(
    size: int = 9, vitals: int = 9, upper: int = 5, protection: Rating = Rating.GOOD
) -> ShipLog:
    cls = dataclasses.replace(
        majestic(),
        size=size,
        armour_vitals=vitals,
        armour_upperworks=upper,
        flood_protection=protection,
    )
    return ShipLog("Suvorov", cls)


def shells(rounds: int, ammo: Ammo = Ammo.AP, pen: int = 13, **kw: object) -> ShellSet:
    fields: dict[str, object] = dict(
        firer="Mikasa",
        target="Suvorov",
        mounting="A",
        gun_class=GunClass.MAIN,
        calibre_cm=30.5,
        rounds=rounds,
        ammo=ammo,
        penetration=pen,
        bracket=2,
        shell_size=5,
        aspect=Aspect.PORT,
    )
    fields.update(kw)
    return ShellSet(**fields)  # type: ignore[arg-type]


def torpedo(size: int = 8, shallow: bool = False, aspect: Aspect = Aspect.PORT) -> TorpedoHit:
    return TorpedoHit("Kasumi", "Suvorov", "bow", size, shallow, aspect)


def run(
    logs: dict[str, ShipLog],
    sets: Sequence[ShellSet] = (),
    torps: Sequence[TorpedoHit] = (),
    rolls: Sequence[int] = (),
    apply=None,  # type: ignore[no-untyped-def]
) -> tuple[SetDice, EventLog]:
    dice, events = SetDice(rolls), EventLog()
    resolve_hits(logs, sets, torps, CHARTS, dice, events, apply or Recorder())
    dice.assert_consumed()
    return dice, events


# -- shells -----------------------------------------------------------------------------------


def test_EX_BF12C_01_analogue_shells_roll_in_sets() -> None:
    """BF6-DMG-07: 4 main and 14 secondary rounds from one ship are exactly two sets, one
    ``dice.rolls`` call of 4 and one of 14 (all misses here, so no damage dice)."""
    log = target()
    main = shells(4)
    sec = shells(
        14, Ammo.HE, 6, mounting="sec", gun_class=GunClass.SECONDARY, calibre_cm=15.2, shell_size=2
    )
    dice, _ = run({"Suvorov": log}, [main, sec], rolls=[3] * 4 + [4] * 14)
    assert [n for n, _ in dice.sets] == [4, 14]
    assert "Mikasa A" in dice.sets[0][1] and "Mikasa sec" in dice.sets[1][1]


def test_AP_location_vitals_upperworks_miss() -> None:
    """AP: 1 Vitals, 2 Upperworks, 3–6 miss (rules-context.md). The hits then roll one set of
    damage dice, applied in order with the set's aspect and shell size."""
    log, rec = target(vitals=9, upper=6), Recorder()
    dice, events = run(
        {"Suvorov": log}, [shells(6, pen=10)], rolls=[1, 2, 3, 4, 5, 6, 3, 6], apply=rec
    )
    assert [n for n, _ in dice.sets] == [6, 2]
    # 10 vs 9 = 111 % → 101–150 %; 10 vs 6 = 167 % → >150 %.
    assert rec.codes == [
        CHARTS.shell_damage(Ammo.AP, "vitals", 111, 3),
        CHARTS.shell_damage(Ammo.AP, "upperworks", 167, 6),
    ]
    ctx = rec.calls[0][2]
    assert (ctx.cause, ctx.aspect, ctx.weapon_size) == ("shell", Aspect.PORT, 5.0)
    hit = events.of_kind(EventKind.HIT)[0]
    assert hit.text.endswith("→ 1 vitals, 1 upperworks, 4 misses") and hit.data["hits"] == 2


@pytest.mark.parametrize(
    ("ammo", "pen", "armour", "column"),
    [
        (Ammo.AP, 9, 9, "51–100%"),  # equal: no penetration (BF12C-SHL-03)
        (Ammo.AP, 10, 9, "101–150%"),
        (Ammo.AP, 4, 9, "≤50%"),
        (Ammo.AP, 14, 9, ">150%"),
        (Ammo.HE, 13, 9, "51–100%"),  # HE at half: 6.5 vs 9
        (Ammo.HE, 9, 9, "≤50%"),  # 4.5 vs 9
    ],
)
def test_differential_picks_the_column(ammo: Ammo, pen: int, armour: int, column: str) -> None:
    log, rec = target(vitals=armour), Recorder()
    _, events = run({"Suvorov": log}, [shells(1, ammo, pen)], rolls=[1, 6], apply=rec)
    pct = CHARTS.differential(ammo, pen, armour)
    assert CHARTS.differential_column(ammo, pct) == column
    assert rec.codes == [c for c in [CHARTS.shell_damage(ammo, "vitals", pct, 6)] if c]
    assert f"column {column}" in events.of_kind(EventKind.DAMAGE)[0].text


def test_unarmoured_target_uses_the_last_column() -> None:
    log, rec = ShipLog("Havock", destroyer()), Recorder()
    assert log.cls.armour_upperworks == 0
    s = shells(1, Ammo.HE, 4, target="Havock")
    _, events = run({"Havock": log}, [s], rolls=[2, 5], apply=rec)
    assert rec.codes == [CHARTS.shell_damage(Ammo.HE, "upperworks", float("inf"), 5)]
    assert "unarmoured" in events.of_kind(EventKind.DAMAGE)[0].text


def test_a_set_without_rounds_rolls_nothing() -> None:
    dice, _ = run({"Suvorov": target()}, [shells(0)], rolls=[])
    assert dice.sets == []


def test_EX_BF6_08_hits_from_a_gun_lost_in_step_one_still_count() -> None:
    """BF6-DMG-09: Mikasa's A turret was destroyed in Step One; its hit is still rolled and
    applied (the 1D12 edition would remove it, DIFF-12)."""
    assert CHARTS.shell_damage(Ammo.AP, "vitals", 111, 3) == ("M",)
    firer = ShipLog("Mikasa", majestic())
    firer.positions["A"].destroyed = True
    log = target()
    # location 1 (vitals); damage 3 → M; main location 2 → forward turret A; Main/TT check 1.
    run(
        {"Mikasa": firer, "Suvorov": log},
        [shells(1, pen=10)],
        rolls=[1, 3, 2, 1],
        apply=apply_codes,
    )
    assert log.positions["A"].slashes == 1


def test_unknown_target_is_a_clear_error() -> None:
    with pytest.raises(UnknownNameError, match="Suvorov"):
        run({}, [shells(1)])


# -- torpedoes --------------------------------------------------------------------------------


def test_BF6_DMG_08_torpedo_gets_a_flooding_occurrence_roll() -> None:
    """BF6-DMG-08:
    Normal-depth size 8 against size 8: "100>"; 4 → Heavy; port side 1 → forward; Heavy
    effects 1 → no effect."""
    log, rec = target(size=8), Recorder()
    _, events = run({"Suvorov": log}, torps=[torpedo()], rolls=[4, 1, 1], apply=rec)
    assert log.compartments[Compartment.FORWARD].level is FloodLevel.HEAVY
    strike = events.of_kind(EventKind.TORPEDO_HIT)[0]
    assert strike.data["size"] == 8 and not strike.data["halved"]
    assert any("FL (100> column) rolls 4" in e.text for e in events)


@pytest.mark.parametrize(
    ("size", "shallow", "target_size", "protection", "expected"),
    [
        (8, False, 8, Rating.GOOD, 8),
        (8, True, 8, Rating.GOOD, 4),  # BF6-TORP-08: halved against good
        (7, True, 8, Rating.GREAT, 3),  # … and great, rounding down (AMB-20)
        (8, True, 8, Rating.POOR, 8),
        (8, True, 8, Rating.NONE, 8),
        (8, False, 4, Rating.NONE, None),  # BF6-TORP-07, EX-DRV-02: runs under size 4
        (8, False, 5, Rating.NONE, 8),  # … and strikes size 5
        (8, True, 4, Rating.NONE, 8),  # a shallow torpedo can hit size 4
    ],
)
def test_torpedo_size_for_flooding(
    size: int, shallow: bool, target_size: int, protection: Rating, expected: int | None
) -> None:
    log = target(size=target_size, protection=protection)
    assert torpedo_size(torpedo(size, shallow), log) == expected


def test_BF6_TORP_08_shallow_torpedo_halved_changes_the_column() -> None:
    """Shallow size 8 against good flood protection floods as size 4: 4 vs 8 = 50 % → "50>"."""
    log = target(size=8, protection=Rating.GOOD)
    _, events = run({"Suvorov": log}, torps=[torpedo(8, True)], rolls=[1])
    assert events.of_kind(EventKind.TORPEDO_HIT)[0].data["halved"]
    assert any("FL (50> column) rolls 1 → no flooding" in e.text for e in events)


def test_EX_DRV_02_normal_depth_torpedo_never_harms_size_4() -> None:
    log = target(size=4, protection=Rating.NONE)
    _, events = run({"Suvorov": log}, torps=[torpedo()], rolls=[])
    assert log.flooding_points == 0
    assert "BF6-TORP-07" in events.of_kind(EventKind.NOTE)[0].text


def test_torpedo_context_carries_cause_aspect_and_size() -> None:
    log, rec = target(size=8), Recorder()
    run({"Suvorov": log}, torps=[torpedo(aspect=Aspect.AHEAD)], rolls=[6, 6, 6], apply=rec)
    # 100> 6 → Severe; ahead 6 → starboard amidships; Severe effects 6.
    assert log.compartments[Compartment.STARBOARD].level is FloodLevel.SEVERE
    ctx = rec.calls[0][2]
    assert (ctx.cause, ctx.aspect, ctx.weapon_size) == ("torpedo", Aspect.AHEAD, 8.0)


@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(0, 20), ammo=st.sampled_from(list(Ammo)))
def test_same_seed_same_events(seed: int, rounds: int, ammo: Ammo) -> None:
    """Determinism through the real codes: the same seed gives the same events."""

    def once() -> list[str]:
        log, events = target(size=8), EventLog()
        dice = SeededDice(seed, events)
        resolve_hits(
            {"Suvorov": log}, [shells(rounds, ammo)], [torpedo()], CHARTS, dice, events, apply_codes
        )
        return [e.text for e in events]

    assert once() == once()


# -- shell quality (reconstructed; data/shells.toml, docs/rules-gaps/shells.md) ----------------


def test_shell_quality_duds_roll_a_fuze_die_per_hit_and_do_no_damage() -> None:
    """A firing navy with poor fuzes rolls one 1D6 per hit before the damage dice; a face of
    ``dud_on`` or less is a dud and rolls no damage (FixedDice: fuzes 2 and 3 with dud on 2)."""
    from battleline.rulesets.bf1900.shells import ShellQuality

    log, rec = target(vitals=9, upper=6), Recorder()
    dice, events = SetDice([1, 2, 4, 2, 3, 6]), EventLog()
    poor = {"Japan": {Ammo.AP: ShellQuality(dud_on=2)}}
    firer = ShipLog("Mikasa", majestic())
    firer.cls = dataclasses.replace(majestic(), navy="Japan")
    resolve_hits(
        {"Suvorov": log, "Mikasa": firer}, [shells(3, pen=10)], (), CHARTS, dice, events, rec, poor
    )
    dice.assert_consumed()
    assert [n for n, _ in dice.sets] == [3, 2, 1]  # locations, fuzes, damage for the live one
    assert "fuzes" in dice.sets[1][1]
    # the vitals hit was a dud; the upperworks hit (10 vs 6 = 167 %) rolls 6
    assert rec.codes == [CHARTS.shell_damage(Ammo.AP, "upperworks", 167, 6)]
    note = next(e for e in events.of_kind(EventKind.NOTE) if "fuzes" in e.text)
    assert note.data["duds"] == 1 and note.data["faces"] == [2, 3]


@pytest.mark.parametrize(("shift", "column"), [(-1, "51–100%"), (1, ">150%"), (3, ">150%")])
def test_shell_quality_column_shift_moves_the_hit_along_the_table(shift: int, column: str) -> None:
    """A weak burster moves the hit one column left, strong HE one right, kept in the table:
    HE 20 x 0.5 = 10 against 9 is 111 % (101–150 %) as printed."""
    from battleline.rulesets.bf1900.shells import ShellQuality

    log, rec = target(vitals=9), Recorder()
    dice, events = SetDice([1, 4]), EventLog()
    firer = ShipLog("Mikasa", dataclasses.replace(majestic(), navy="Japan"))
    q = {"Japan": {Ammo.HE: ShellQuality(column_shift=shift)}}
    resolve_hits(
        {"Suvorov": log, "Mikasa": firer},
        [shells(1, Ammo.HE, 20)],
        (),
        CHARTS,
        dice,
        events,
        rec,
        q,
    )
    dmg = events.of_kind(EventKind.DAMAGE)[0]
    assert dmg.data["column"] == column
    he = CHARTS.table(Ammo.HE)
    index = [c.name for c in he.columns].index(column)
    expected = tuple(he.damage("vitals", index, 4))
    assert rec.codes == ([expected] if expected else [])
    assert dmg.data["codes"] == list(expected)


def test_shell_quality_data_by_navy_and_year() -> None:
    """The packaged file: Chinese 1894 and Russian 1904-05 shells dud and burst weakly,
    Japanese shimose HE of 1904-05 bursts hard; Japan in 1894 and anyone else: as printed."""
    from battleline.rulesets.bf1900.shells import load_shells, quality

    assert all(e.sources for e in load_shells())
    china = quality("China", 1894, Ammo.HE)
    assert (china.dud_on, china.column_shift) == (2, -1)
    russia = quality("Russia", 1905, Ammo.HE)
    assert (russia.dud_on, russia.column_shift) == (1, -1)
    assert quality("Russia", 1904, Ammo.AP).dud_on == 1
    assert quality("Japan", 1904, Ammo.HE).column_shift == 1
    assert quality("Japan", 1894, Ammo.HE).as_printed
    assert quality("USA", 1898, Ammo.AP).as_printed and quality("China", None, Ammo.AP).as_printed


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"shell": []}, "reconstructed"),
        ({"reconstructed": True, "shell": [{"navy": "China", "years": [1894, 1895]}]}, "sources"),
        (
            {
                "reconstructed": True,
                "shell": [
                    {"navy": "China", "years": [1894, 1895], "sources": ["x"], "HE": {"dud_on": 9}}
                ],
            },
            "dud_on",
        ),
        (
            {"reconstructed": True, "shell": [{"navy": "China", "years": [1895, 1894]}]},
            "years",
        ),
    ],
)
def test_bad_shell_file_names_the_field(raw: dict[str, object], field: str) -> None:
    from battleline.errors import RulesDataError
    from battleline.rulesets.bf1900.shells import parse_shells

    with pytest.raises(RulesDataError) as err:
        parse_shells(raw)
    assert field in str(err.value)


def test_HE_lines_show_the_halved_penetration_they_use() -> None:
    """Issue 14 item 6: an HE hit prints the halved penetration beside its percentage
    (13 × 0.5 = 6.5 vs 9 is 72 %), an AP hit the plain value."""
    _, events = run({"Suvorov": target(vitals=9)}, [shells(1, Ammo.HE, 13)], rolls=[1, 6])
    text = events.of_kind(EventKind.DAMAGE)[0].text
    assert "(penetration 13 × 0.5 = 6.5 vs armour 9, 72%, column 51–100%)" in text
    _, events = run({"Suvorov": target(vitals=9)}, [shells(1, Ammo.AP, 10)], rolls=[1, 6])
    assert "(penetration 10 vs armour 9, 111%" in events.of_kind(EventKind.DAMAGE)[0].text
