"""Annex A and the core tables as data (DBA-SCL-01, DBA-BAS-01, DBA-TYPE-01..08, EX-DBA-07,
REF-DBA-01/02/04)."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.dba.factors import (
    AttackFactors,
    Layout,
    Protection,
    RangeBand,
    ShipType,
    SpeedMark,
    load_annex_a,
    parse_defence,
    parse_speed,
)
from battleline.rulesets.dba.tables import Result, load_core

A = load_annex_a()


def test_annex_a_is_marked_reconstructed_and_holds_a_few_dozen_ships() -> None:
    assert A.reconstructed is True
    assert len(A) >= 30
    assert load_core().reconstructed is True


def test_notation_parsing_x_plus_minus_star() -> None:
    """REF-DBA-02 marks: "x" AF, "+"/"-" DF, "2+"/"*" speed."""
    af = AttackFactors.parse([4, 3, 2, "x"])
    assert af.at(RangeBand.EXTREME) is None and af.at(RangeBand.NORMAL) == 3
    assert str(af) == "4/3/2/x"
    assert parse_defence("3+") == (3, Protection.SPECIAL)
    assert parse_defence("2-") == (2, Protection.INFERIOR)
    assert parse_speed("2+") == (2, SpeedMark.FAST)
    assert parse_speed("1*") == (1, SpeedMark.SLOW)
    for bad in ("5", "2++", "x"):
        with pytest.raises(ValueError):
            parse_defence(bad)


def test_EX_DBA_07_named_class_examples_present_in_annex_a() -> None:
    """DBA-TYPE-05/06/07, DBA-TGT-02/04, DBA-BSA-01, DBA-MG-02, DBA-TBL-07 flavour through data."""
    for name in ("Powerful", "Lepanto"):
        assert A[name].special_protection, name  # DBA-TYPE-06
    for name in ("Polyphemus", "Rupert", "Conqueror", "Arrogant", "Belleisle", "Katahdin"):
        assert A[name].is_ram, name  # DBA-TYPE-07
    for name in ("Captain", "Neptune", "Wivern"):
        assert A[name].layout is Layout.BROADSIDE_TURRETS, name  # DBA-TGT-02
    for name in ("Devastation", "Cyclops", "Puritan"):
        assert "no_secondaries" in A[name].flags, name  # DBA-TGT-04
    assert A["Warspite"].layout is Layout.LOZENGE and A["Charles Martel"].layout is Layout.LOZENGE
    for name in ("Duilio", "Inflexible", "Chen Yuen"):
        assert A[name].layout is Layout.EN_ECHELON, name
    for name in ("Lepanto", "Duilio", "Inflexible", "Benbow", "Victoria"):
        assert A[name].monster_guns, name  # DBA-MG-02
    assert A["Vulcan"].type is A["Foudre"].type is ShipType.TB_CARRIER
    for name in ("Inflexible", "Duilio", "Ting Yuen", "Leander"):
        assert A[name].carries_tbs >= 1, name  # DBA-TBL-07
    assert A["Warrior"].broadside_ship  # DBA-TYPE-05: early ironclad frigate
    assert any(s.inferior_protection for s in A.ships.values())


def test_DBA_NET_05_nets_fitted_by_most_navies_but_not_the_usa() -> None:
    """DBA-NET-05 (flavour) through Annex A data."""
    ships = A.ships.values()
    assert not any(s.nets for s in ships if s.nation == "US")
    assert {s.nation for s in ships if s.nets} >= {"GB", "FR", "IT", "JP", "DE"}


def test_DBA_TYPE_02_03_04_new_types_and_bad_sea_boats() -> None:
    """DBA-TYPE-02 (TGB), DBA-TYPE-03 (2nd Class TB), DBA-TYPE-04 (bad sea boats)."""
    assert A["Sharpshooter"].type is ShipType.TGB
    assert A["2nd Class TB"].type is ShipType.TB_2
    assert A["Royal Sovereign"].bad_sea_boat and not A["Majestic"].bad_sea_boat


def test_DBA_TYPE_01_star_speed_and_DBA_MOV_01_two_plus_in_annex() -> None:
    assert A["Havock"].torpedo == 2 and A["Majestic"].torpedo == 1  # REF-DBA-02 factors 1, 2
    assert A["Havock"].speed_text == "2+" and A["Havock"].fast
    assert A["Devastation"].speed_mark is SpeedMark.SLOW


def test_lookup_is_case_insensitive_and_unknown_names_suggest() -> None:
    assert A["mikasa"].name == "Mikasa"
    with pytest.raises(UnknownNameError, match="Mikasa"):
        A["Mikas"]


def test_DBA_SCL_01_scale_and_base_size() -> None:
    core = load_core()
    assert core.cable_inches == 2.5 and core.base_inches == 5.0
    assert core.base_metres == pytest.approx(370.4)


def test_range_bands_from_distance() -> None:
    core = load_core()
    assert core.band(0.5) is RangeBand.CLOSE
    assert core.band(core.range_bands[RangeBand.NORMAL]) is RangeBand.NORMAL
    assert core.band(core.range_bands[RangeBand.EXTREME] + 0.1) is None


@pytest.mark.parametrize(
    ("text", "field"),
    [
        (
            'reconstructed = true\n[[ship]]\nname = "A"\ntype = "battleship"\naf = [1,2,3]\n'
            'df = "3"\nspeed = "2"\n',
            "af",
        ),
        (
            'reconstructed = true\n[[ship]]\nname = "A"\ntype = "dreadnought"\naf = [1,2,3,4]\n'
            'df = "3"\nspeed = "2"\n',
            "type",
        ),
        (
            'reconstructed = true\n[[ship]]\nname = "A"\ntype = "battleship"\naf = [1,2,3,4]\n'
            'df = "5"\nspeed = "2"\n',
            "df",
        ),
        (
            'reconstructed = true\n[[ship]]\nname = "A"\ntype = "battleship"\naf = [1,2,3,4]\n'
            'df = "3"\nspeed = "2"\ntorpedo = 3\n',
            "torpedo",
        ),
        ('[[ship]]\nname = "A"\n', "reconstructed"),
    ],
)
def test_malformed_annex_a_names_the_field(tmp_path: Path, text: str, field: str) -> None:
    p = tmp_path / "annex.toml"
    p.write_text(text)
    with pytest.raises(RulesDataError) as err:
        load_annex_a(p)
    assert err.value.field == field


def test_malformed_core_names_the_table(tmp_path: Path) -> None:
    good = (Path(__file__).parents[3] / "src/battleline/rulesets/dba/data/core.toml").read_text()
    p = tmp_path / "core.toml"
    p.write_text(good.replace('beaten = "damaged"', 'beaten = "wrecked"', 1))
    with pytest.raises(RulesDataError, match=r"outcome\.ship"):
        load_core(p)
    p.write_text(good.replace("normal = 4", "normal = 0.5", 1))
    with pytest.raises(RulesDataError, match="range_bands"):
        load_core(p)
    p.write_text(good)
    assert load_core(p).outcome["ship"]["doubled"] is Result.CRIPPLED
