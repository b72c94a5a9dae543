"""The ship database covers the fleet actions of 1884-1905 (issue 12 item 6).

Every ship of Foochow 1884, Pungdo 1894 and the Japanese destroyer attack on Port Arthur 1904 has
a class; the database lists at least 200 classes, each with its sources, through the CLI's
``ships --json``; merchant hulls and junks carry their hand-set values on record.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from battleline.cli import app
from battleline.rulesets.bf1900.ship import Rating, ShipType
from battleline.rulesets.bf1900.shipdb import class_of_ship, get_ship_class, load_ship_classes
from battleline.rulesets.bf1900.torpedoes import runs_shallow

CLASSES = load_ship_classes()

ENGAGEMENTS: dict[str, dict[str, list[str]]] = {
    "Foochow 1884": {
        "France": ["Volta", "Duguay-Trouin", "Triomphante", "Villars", "d'Estaing", "Lynx",
                   "Aspic", "Vipere", "Torpilleur 45", "Torpilleur 46"],
        "China": ["Yangwu", "Fupo", "Yixin", "Chenhang", "Zhenwei", "Fusheng", "Jian Sheng",
                  "Fuxing", "Yongbao", "Feiyun", "Junk 1"],
    },
    "Shipu 1885": {
        "France": ["Bayard", "Nielly", "Eclaireur"],
        "China": ["Yuyuan", "Chengqing", "Kaiji", "Nanchen", "Nanrui"],
    },
    "Pungdo 1894": {
        "Japan": ["Yoshino", "Naniwa", "Akitsushima"],
        "China": ["Tsi Yuen", "Kuang Yi", "Tsao Kiang", "Kowshing"],
    },
    "Weihaiwei 1895": {
        "Japan": ["Kotaka", "No. 22", "Maya", "Tsukushi", "Yaeyama"],
        "China": ["Wei Yuen", "Chen Pei", "Tso 2"],
    },
    "Port Arthur 1904": {
        "Japan": ["Ikazuchi", "Inazuma", "Oboro", "Akebono", "Murakumo", "Shinonome", "Shirakumo",
                  "Asashio", "Akatsuki", "Kasumi", "Harusame", "Yugiri"],
        "Russia": ["Retvisan", "Tsesarevich", "Pallada", "Bayan", "Boyarin", "Askold", "Novik",
                   "Diana", "Angara", "Amur", "Gilyak", "Vsadnik", "Leitenant Burakov"],
    },
    "Chemulpo 1904": {"Russia": ["Varyag", "Koreets"], "Japan": ["Chiyoda", "Takachiho"]},
    "Manila Bay 1898": {
        "USA": ["Olympia", "Baltimore", "Raleigh", "Boston", "Concord", "Petrel", "McCulloch"],
        "Spain": ["Reina Cristina", "Castilla", "Don Juan de Austria", "Don Antonio de Ulloa",
                  "Isla de Luzon", "Isla de Cuba", "Marques del Duero", "Velasco", "General Lezo"],
    },
    "Cuba 1898": {
        "USA": ["Vixen", "Marblehead", "Winslow", "Puritan", "St. Paul", "Harvard", "Yankee",
                "Ericsson", "Porter", "Hist", "Nashville"],
        "Spain": ["Reina Mercedes", "Terror", "Isabel II", "Alvarado", "General Concha"],
    },
    "Tsushima 1905 (auxiliaries)": {
        "Japan": ["Shinano Maru", "America Maru", "Otowa", "Suma", "Izumi", "Chihaya", "Aotaka"],
        "Russia": ["Svetlana", "Almaz", "Vladimir Monomakh", "Ural", "Kamchatka", "Irtysh"],
    },
}  # fmt: skip


def test_ships_json_lists_at_least_200_classes_each_with_sources() -> None:
    result = CliRunner().invoke(app, ["ships", "--json"])
    assert result.exit_code == 0, result.output
    listing = json.loads(result.stdout)
    assert len(listing) >= 200
    assert len({(c["navy"], c["name"]) for c in listing}) == len(listing)
    for cls in listing:
        assert cls["sources"], cls["name"]
        assert all(isinstance(s, str) and len(s) > 10 for s in cls["sources"]), cls["name"]


@pytest.mark.parametrize("engagement", list(ENGAGEMENTS))
def test_every_ship_of_the_engagement_has_a_class(engagement: str) -> None:
    for navy, ships in ENGAGEMENTS[engagement].items():
        for ship in ships:
            cls = class_of_ship(ship, navy)
            assert cls.navy == navy, ship
            assert ship in cls.ships, ship


def test_the_four_wars_reach_every_small_type() -> None:
    """Gunboats, torpedo gunboats, torpedo boats and destroyers of every navy that fought."""
    by_navy: dict[str, set[ShipType]] = {}
    for cls in CLASSES.values():
        by_navy.setdefault(cls.navy, set()).add(cls.type)
    small = {ShipType.GUNBOAT, ShipType.TORPEDO_BOAT}
    for navy in ("China", "Japan", "France", "Russia", "USA", "Spain"):
        assert small <= by_navy[navy], navy
    assert ShipType.DESTROYER in by_navy["Japan"] and ShipType.DESTROYER in by_navy["Russia"]


@pytest.mark.parametrize(
    "name", ["Kowshing", "Shinano Maru", "Ural", "St. Louis", "Yankee", "Patriota", "War junk"]
)
def test_merchant_hulls_and_junks_are_hand_set_to_no_flood_protection(name: str) -> None:
    cls = get_ship_class(name)
    assert "flood_protection" in cls.overrides
    assert cls.flood_protection is Rating.NONE
    assert "Hand-set values" in cls.notes


def test_converted_values_follow_the_documented_conversion() -> None:
    """docs/ship-values.md by hand: Bayard 5,915 t is size 6 (< 6,000 t); her compound belt of
    250 mm and 200 mm barbettes give vitals (250 + 200) / 25.4 × 0.5 / 2 = 4.43 → 4; 14.5 kn
    gives six boxes 14.5 … 2.4 (7.25 kn rounds to 7.2: half to even); the 240 mm/19 of 1882
    is BL and fires ½ (before 1890)."""
    bayard = get_ship_class("Bayard")
    assert bayard.size == 6
    assert bayard.armour_vitals == 4
    assert bayard.propulsion_knots == (14.5, 12.1, 9.7, 7.2, 4.8, 2.4)
    assert bayard.mounting("A").rof == 0.5
    tb = get_ship_class("Torpilleur 45")
    assert tb.size == 1 and tb.type is ShipType.TORPEDO_BOAT
    # The spar is exploded against the hull: it strikes a size-4 wooden corvette (BF6-TORP-08)
    # where a deep-running torpedo would pass under her (BF6-TORP-07).
    assert runs_shallow(tb)
    harusame = get_ship_class("Harusame")
    assert harusame.size == 2 and harusame.torpedoes[0].range_m == 3000.0
