"""The ship database: coverage, lookups, overrides and validation (REF-BF6-17)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from battleline.errors import RulesDataError, UnknownNameError
from battleline.rulesets.bf1900.ship import (
    END_POSITIONS,
    LETTERED_POSITIONS,
    SKIMMER_TYPES,
    Compartment,
    GunClass,
    Rating,
    ShipType,
)
from battleline.rulesets.bf1900.ship_entry import ship_class_from_spec
from battleline.rulesets.bf1900.shipdb import (
    AmbiguousShipError,
    class_of_ship,
    get_ship_class,
    load_database,
    load_ship_classes,
)

CLASSES = load_ship_classes()


def test_database_has_60_classes_from_8_navies_and_every_type() -> None:
    assert len(CLASSES) >= 60
    navies = {c.navy for c in CLASSES.values()}
    assert len(navies) >= 8
    assert {"Britain", "France", "Russia", "Japan", "China", "USA", "Spain", "Italy"} <= navies
    types = {c.type for c in CLASSES.values()}
    assert {
        ShipType.BATTLESHIP, ShipType.COAST_DEFENCE, ShipType.ARMOURED_CRUISER,
        ShipType.PROTECTED_CRUISER, ShipType.TORPEDO_GUNBOAT, ShipType.DESTROYER,
        ShipType.TORPEDO_BOAT,
    } <= types  # fmt: skip


def test_every_class_records_sources_and_ship_names() -> None:
    for cls in CLASSES.values():
        assert cls.sources, cls.name
        assert cls.ships, cls.name
        assert len(cls.propulsion_knots) == 6


def test_every_converted_class_is_a_well_formed_log() -> None:
    """Invariants of the whole database: penetration never rises with range and stops at the
    gun's reach; lettered positions are real positions (BF6-POS); batteries are even beam
    patterns 0–2 (BF6-BEAM-01); main guns are lettered; boxes fall from the top speed."""
    for cls in CLASSES.values():
        assert cls.mountings, cls.name
        for m in cls.mountings:
            reach = [p for p in m.penetration if p is not None]
            assert m.penetration[: len(reach)] == tuple(reach), (cls.name, m.key)
            assert reach == sorted(reach, reverse=True), (cls.name, m.key)
            assert m.rof in (0.5, 1.0, 2.0)
            if m.is_lettered:
                assert m.position in LETTERED_POSITIONS | END_POSITIONS, (cls.name, m.key)
            else:
                assert m.beam_pattern in (0, 1, 2) and m.guns % 2 == 0, (cls.name, m.key)
                assert m.gun_class is not GunClass.MAIN
        knots = cls.propulsion_knots
        assert list(knots) == sorted(knots, reverse=True) and knots[-1] > 0


@pytest.mark.parametrize(
    "name",
    ["Majestic", "Columbia", "Indiana", "Retvisan", "Charles Martel", "Peresviet", "Borodino",
     "Mikasa", "Pelayo"],
)  # fmt: skip
def test_seed_example_classes_are_present(name: str) -> None:
    assert get_ship_class(name).name == name


# The ships of the historical battles, by side (Yalu, Santiago, Yellow Sea, Tsushima, Ulsan).
BATTLES: dict[str, dict[str, list[str]]] = {
    "Yalu 1894": {
        "China": ["Ting Yuen", "Chen Yuen", "King Yuen", "Lai Yuen", "Chih Yuen", "Ching Yuen",
                  "Chao Yung", "Yang Wei", "Kuang Chia", "Ping Yuen", "Tsi Yuen"],
        "Japan": ["Matsushima", "Itsukushima", "Hashidate", "Yoshino", "Naniwa", "Takachiho",
                  "Akitsushima", "Fuso", "Hiei", "Chiyoda", "Akagi", "Saikyo Maru"],
    },
    "Santiago 1898": {
        "USA": ["Indiana", "Oregon", "Iowa", "Texas", "Brooklyn", "New York", "Gloucester"],
        "Spain": ["Infanta Maria Teresa", "Vizcaya", "Almirante Oquendo", "Cristobal Colon",
                  "Furor", "Pluton"],
    },
    "Yellow Sea 1904": {
        "Japan": ["Mikasa", "Asahi", "Fuji", "Shikishima", "Kasuga", "Nisshin", "Yakumo",
                  "Asama"],
        "Russia": ["Tsesarevich", "Retvisan", "Peresviet", "Pobeda", "Poltava", "Sevastopol",
                   "Askold", "Novik", "Diana", "Pallada"],
    },
    "Tsushima 1905": {
        "Japan": ["Mikasa", "Shikishima", "Fuji", "Asahi", "Kasuga", "Nisshin", "Izumo", "Azuma",
                  "Tokiwa", "Yakumo", "Asama", "Iwate"],
        "Russia": ["Knyaz Suvorov", "Imperator Aleksandr III", "Borodino", "Orel", "Oslyabya",
                   "Navarin", "Sissoi Veliky", "Admiral Nakhimov", "Imperator Nikolai I",
                   "Admiral Ushakov", "Admiral Seniavin", "General-Admiral Apraksin", "Oleg",
                   "Aurora", "Dmitri Donskoi", "Izumrud", "Zhemchug", "Buiny", "Bedovy"],
    },
    "Ulsan 1904": {
        "Russia": ["Rossia", "Gromoboi", "Rurik"],
        "Japan": ["Izumo", "Iwate", "Azuma", "Tokiwa", "Naniwa", "Takachiho"],
    },
}  # fmt: skip


@pytest.mark.parametrize("battle", list(BATTLES))
def test_every_ship_of_the_historical_battles_has_a_class(battle: str) -> None:
    for navy, ships in BATTLES[battle].items():
        for ship in ships:
            cls = class_of_ship(ship, navy)
            assert cls.navy == navy
            assert ship in cls.ships


def test_EX_BF6_19_standard_examples_have_their_positions() -> None:
    """EX-BF6-19 / BF6-POS-01..11: the seed's standard example of each position."""
    majestic = get_ship_class("Majestic")
    assert {m.position for m in majestic.mountings_of(GunClass.MAIN)} == {"A", "Z"}
    columbia = get_ship_class("Columbia")
    assert {m.position for m in columbia.mountings if m.calibre_cm == 15.2} == {"B", "C"}
    indiana = get_ship_class("Indiana")
    assert {"D", "E"} <= {m.position for m in indiana.mountings_of(GunClass.SECONDARY)}
    retvisan = get_ship_class("Retvisan")
    assert {"M", "O"} <= {m.position for m in retvisan.mountings}
    martel = get_ship_class("Charles Martel")
    assert {"P", "R"} <= {m.position for m in martel.mountings_of(GunClass.MAIN)}
    peresviet = get_ship_class("Peresviet")
    assert "stem" in {m.position for m in peresviet.mountings_of(GunClass.SECONDARY)}
    destroyer = get_ship_class("Buiny")
    assert [t.position for t in destroyer.torpedoes] == ["centreline"]


def test_majestic_log_matches_the_seed_ship_log_example() -> None:
    """Majestic: 30 cm main in A and Z, 15 cm secondaries in pattern 1, 12-pounders in pattern
    0, four beam-pattern tubes and one bow tube (rules-context, BF6-BEAM-03, BF6-BEAM-04)."""
    cls = get_ship_class("Majestic")
    a, z = cls.mounting("A"), cls.mounting("Z")
    assert (a.calibre_cm, a.guns, z.guns) == (30.5, 2, 2)
    assert (a.compartment, z.compartment) == (Compartment.FORWARD, Compartment.AFT)
    sec = cls.mounting("sec")
    assert (sec.calibre_cm, sec.beam_pattern, sec.guns_per_side) == (15.2, 1, 6)
    ter = cls.mounting("ter")
    assert (ter.calibre_cm, ter.beam_pattern, ter.gun_class) == (7.6, 0, GunClass.TERTIARY)
    assert [(t.position, t.tubes) for t in cls.torpedoes] == [("beam", 4), ("bow", 1)]
    assert cls.dc_boxes == 6


def test_BF6_DC_03_dc_boxes_by_size_across_the_database() -> None:
    """Size ≥ 5 → 6 DC dice, ≤ 4 → 3 (BF6-DC-03): a battleship and a destroyer."""
    assert get_ship_class("Mikasa").dc_boxes == 6
    assert get_ship_class("Furor").size <= 4
    assert get_ship_class("Furor").dc_boxes == 3


def test_BF6_TORP_07_small_craft_are_size_4_or_less() -> None:
    """Normal-depth torpedoes miss size ≤ 4: every destroyer and TB converts to size ≤ 4."""
    for cls in CLASSES.values():
        if cls.type in (ShipType.DESTROYER, ShipType.TORPEDO_BOAT):
            assert cls.size <= 4, cls.name
            assert cls.flood_protection is Rating.NONE


def test_BF6_TORP_06_only_small_craft_carry_shallow_torpedoes() -> None:
    """Shallow-running torpedoes are recorded only for destroyers, TBs and TGBs (BF6-TORP-06)."""
    shallow = [c for c in CLASSES.values() if c.shallow_torpedoes]
    assert shallow
    assert all(c.type in SKIMMER_TYPES and c.torpedoes for c in shallow)


def test_lozenge_classes() -> None:
    """BF6-MAIN-02: lozenge layouts are flagged (French Charles Martel, Brooklyn, Pelayo)."""
    for name in ("Charles Martel", "Brooklyn", "Pelayo", "Admiral Nakhimov"):
        assert get_ship_class(name).lozenge, name
    assert not get_ship_class("Mikasa").lozenge


def test_lookups_are_case_insensitive_and_take_aliases() -> None:
    assert get_ship_class("MIKASA").name == "Mikasa"
    assert get_ship_class("mikasa class").name == "Mikasa"
    assert get_ship_class("Dingyuan").name == "Ting Yuen"
    assert get_ship_class("Cristóbal Colón").name == "Cristobal Colon"
    assert get_ship_class("Oslyabya").name == "Peresviet"
    assert class_of_ship("Oslyabya").name == "Peresviet"
    assert class_of_ship("Hatsuse").name == "Shikishima"


def test_unknown_name_suggests_close_names() -> None:
    with pytest.raises(UnknownNameError, match="Mikasa"):
        get_ship_class("Mikassa")
    with pytest.raises(UnknownNameError, match="unknown ship 'Nowhere'"):
        class_of_ship("Nowhere")


def test_ship_names_shared_by_two_navies_need_the_navy() -> None:
    with pytest.raises(AmbiguousShipError, match="Eclipse \\(Britain\\), Diana \\(Russia\\)"):
        class_of_ship("Diana")
    assert class_of_ship("Diana", "Russia").name == "Diana"
    assert class_of_ship("Diana", "britain").name == "Eclipse"


def test_overrides_are_applied_and_recorded() -> None:
    fuji = get_ship_class("Fuji")
    assert fuji.overrides == ("mountings.A.rof", "mountings.Z.rof")
    assert fuji.mounting("A").rof == 0.5
    assert "Hand-set values" in fuji.notes
    saikyo = get_ship_class("Saikyo Maru")
    assert saikyo.overrides == ("flood_protection",)
    assert saikyo.flood_protection is Rating.NONE
    assert get_ship_class("Mikasa").overrides == ()


# -- specifications alone, and validation ---------------------------------------------------


def _entry(**kw: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "name": "Test Ship",
        "type": "PC",
        "year": 1898,
        "ships": ["Test Ship"],
        "displacement_t": 4000,
        "length_m": 100,
        "beam_m": 14,
        "speed_kn": 20,
        "armour": {"deck": 76},
        "guns": [
            {"calibre_mm": 152, "length_cal": 40, "count": 2, "mounting": "shield",
             "location": ["fore", "aft"]},
            {"calibre_mm": 120, "length_cal": 40, "count": 8, "mounting": "shield",
             "location": "broadside"},
        ],
        "torpedoes": [{"count": 2, "calibre_mm": 457, "location": "beam"}],
    }  # fmt: skip
    entry.update(kw)
    return {k: v for k, v in entry.items() if v is not None}


def test_a_class_from_its_specifications_alone() -> None:
    cls = ship_class_from_spec(_entry(), "mine.toml", navy="Testland")
    assert (cls.size, cls.armour_vitals, cls.armoured_deck) == (6, 2, True)
    assert [m.key for m in cls.mountings] == ["A", "Z", "sec"]
    assert cls.mounting("A").rof == 2.0
    assert cls.overrides == ()


def _error(entry: dict[str, Any]) -> RulesDataError:
    with pytest.raises(RulesDataError) as err:
        ship_class_from_spec(entry, "mine.toml", navy="Testland")
    assert err.value.file == "mine.toml"
    return err.value


@pytest.mark.parametrize(
    ("entry", "field", "reason"),
    [
        (_entry(displacement_t=None), "displacement_t", "missing"),
        (_entry(speed_kn="fast"), "speed_kn", "not a valid number"),
        (_entry(type="XX"), "type", "unknown ship type"),
        (_entry(year=1700), "year", "outside"),
        (_entry(armour={"deck": 76, "belt": {"mm": 100, "kind": "wood"}}), "armour",
         "unknown armour kind"),
        (_entry(armour={"hull": 10}), "armour.hull", "unknown component"),
        (_entry(guns=[{"calibre_mm": 152, "count": 2, "mounting": "shield",
                       "location": "amidships"}]), "guns[0].location", "unknown place"),
        (_entry(guns=[{"calibre_mm": 152, "count": 2, "mounting": "shield", "location": "fore"},
                      {"calibre_mm": 120, "count": 7, "mounting": "shield",
                       "location": "broadside"}]), "guns[1].count", "even count"),
        (_entry(guns=[{"calibre_mm": 152, "mounting": "shield", "location": "fore"}]),
         "guns[0].count", "missing"),
        (_entry(guns=[{"calibre_mm": 152, "count": 1, "mounting": "shield", "location": "fore",
                       "colour": "grey"}]), "guns[0].colour", "unknown field"),
        (_entry(torpedoes=[{"count": 1, "calibre_mm": 457, "location": "keel"}]),
         "torpedoes[0].location", "unknown"),
        (_entry(overrides={"size": "big"}), "overrides.size", "not a valid whole number"),
        (_entry(overrides={"colour": "grey"}), "overrides.colour", "cannot be overridden"),
        (_entry(overrides={"mountings": {"Q": {"rof": 1}}}), "overrides.mountings.Q",
         "no such mounting"),
        (_entry(overrides={"mountings": {"A": {"rof": 3}}}), "overrides.mountings.A.rof",
         "not a valid ROF"),
        (_entry(shallow_torpedoes=True), "shallow_torpedoes", "only destroyers"),
    ],
)  # fmt: skip
def test_malformed_class_names_file_class_and_field(
    entry: dict[str, Any], field: str, reason: str
) -> None:
    err = _error(entry)
    assert err.table == "class 'Test Ship'"
    assert err.field == field
    assert reason in err.reason
    assert "mine.toml" in str(err) and "Test Ship" in str(err) and field in str(err)


def test_user_navy_file_and_folder(tmp_path: Path) -> None:
    good = tmp_path / "ships"
    good.mkdir()
    (good / "testland.toml").write_text(
        'navy = "Testland"\n[[class]]\nname = "Alpha"\ntype = "TB"\nyear = 1900\n'
        'ships = ["Alpha 1"]\ndisplacement_t = 120\nlength_m = 40\nbeam_m = 4\nspeed_kn = 25\n'
        'guns = [{ calibre_mm = 37, count = 1, mounting = "open", location = "fore" }]\n'
        "[class.overrides]\nsize = 2\n",
        encoding="utf-8",
    )
    classes = load_ship_classes(good)
    assert list(classes) == ["Alpha"]
    assert classes["Alpha"].size == 2 and classes["Alpha"].overrides == ("size",)
    assert load_database(good / "testland.toml").class_of_ship("alpha 1").name == "Alpha"


def test_malformed_files_are_reported_with_file_name(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("navy = [", encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"bad\.toml.*not valid TOML"):
        load_ship_classes(bad)
    twice = tmp_path / "twice.toml"
    body = (
        '[[class]]\nname = "Beta"\ntype = "TB"\nyear = 1900\nships = ["Beta"]\n'
        "displacement_t = 120\nlength_m = 40\nbeam_m = 4\nspeed_kn = 25\n"
        'guns = [{ calibre_mm = 37, count = 1, mounting = "open", location = "fore" }]\n'
    )
    twice.write_text('navy = "Testland"\n' + body + body, encoding="utf-8")
    with pytest.raises(RulesDataError, match="defined twice"):
        load_ship_classes(twice)
    no_navy = tmp_path / "nonavy.toml"
    no_navy.write_text(body, encoding="utf-8")
    with pytest.raises(RulesDataError) as err:
        load_ship_classes(no_navy)
    assert err.value.field == "navy"
    with pytest.raises(RulesDataError, match="no such file"):
        load_ship_classes(tmp_path / "missing.toml")
    typo = tmp_path / "typo.toml"
    typo.write_text('navvy = "Testland"\n', encoding="utf-8")
    with pytest.raises(RulesDataError) as err:
        load_ship_classes(typo)
    assert (err.value.field, err.value.reason) == ("navvy", "unknown top-level key")
