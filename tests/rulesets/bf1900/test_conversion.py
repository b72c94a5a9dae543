"""The specification → ship values conversion (REF-BF6-17), formula by formula."""

from __future__ import annotations

from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import RulesDataError
from battleline.rulesets.bf1900 import conversion as cv
from battleline.rulesets.bf1900.conversion import (
    ArmourSpec,
    GunSpec,
    Plate,
    ShipSpec,
    SpecError,
    TorpedoSpec,
)
from battleline.rulesets.bf1900.ship import Compartment, GunClass, Rating, ShipType

T = cv.load_conversion()


def _spec(**kw: object) -> ShipSpec:
    base = ShipSpec(
        name="Test",
        navy="Testland",
        type=ShipType.BATTLESHIP,
        year=1900,
        displacement_t=12000,
        length_m=120,
        beam_m=22,
        speed_kn=18,
        guns=(
            GunSpec(305, 4, "turret", ("fore", "aft"), 40),
            GunSpec(152, 12, "casemate", ("broadside",), 40),
            GunSpec(76, 10, "open", ("broadside",), 40),
            GunSpec(47, 6, "open", ("broadside",), 40),
        ),
        armour=ArmourSpec(
            belt=Plate(229, "krupp"),
            ends=Plate(102, "krupp"),
            upper_belt=Plate(152, "krupp"),
            casemate=Plate(152, "krupp"),
            barbette=Plate(356, "krupp"),
            deck=Plate(76, "steel"),
        ),
        torpedoes=(TorpedoSpec(4, 457, "beam"), TorpedoSpec(1, 356, "bow")),
    )
    return replace(base, **kw)  # type: ignore[arg-type]


def test_tables_are_marked_reconstructed() -> None:
    assert T.reconstructed is True


# -- size and DC dice ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tonnes", "size"),
    [(150, 1), (249, 1), (250, 2), (599, 2), (1000, 3), (2000, 4), (3000, 5), (5000, 6),
     (7000, 7), (10000, 8), (12000, 9), (13000, 10), (15000, 10)],
)  # fmt: skip
def test_size_by_displacement(tonnes: float, size: int) -> None:
    assert cv.ship_size(tonnes, T) == size


def test_BF6_DC_03_dc_dice_follow_converted_size() -> None:
    """EX-DRV-03: size 5 (from 3,000 t) has 6 DC dice; size 4 (2,000 t) has 3."""
    assert cv.convert(_spec(displacement_t=3000), T).dc_boxes == 6
    assert cv.convert(_spec(displacement_t=2000), T).dc_boxes == 3


# -- armour -------------------------------------------------------------------------------


def test_plate_points_scale_by_quality() -> None:
    assert cv.plate_points(Plate(254, "krupp"), T) == pytest.approx(10.0)
    assert cv.plate_points(Plate(254, "harvey"), T) == pytest.approx(8.0)
    assert cv.plate_points(Plate(254, "iron"), T) == pytest.approx(4.0)
    assert cv.plate_points(None, T) == 0.0
    with pytest.raises(SpecError, match="unknown armour kind 'wood'"):
        cv.plate_points(Plate(100, "wood"), T)


def test_vitals_average_belt_and_barbette() -> None:
    # Mikasa: 229 mm and 356 mm Krupp → (9.02 + 14.02) / 2 = 11.5 → 12
    armour = ArmourSpec(belt=Plate(229, "krupp"), barbette=Plate(356, "krupp"))
    assert cv.armour_vitals(armour, T) == 12
    assert cv.armour_vitals(ArmourSpec(belt=Plate(254, "krupp")), T) == 10


def test_vitals_of_protected_cruiser_come_from_sloped_deck() -> None:
    # 76 mm steel deck: 3 in × 0.55 × 1.5 = 2.47 → 2
    assert cv.armour_vitals(ArmourSpec(deck=Plate(76, "steel")), T) == 2
    assert cv.armour_vitals(ArmourSpec(), T) == 0


def test_upperworks_armour_and_rating() -> None:
    heavy = ArmourSpec(upper_belt=Plate(152, "krupp"), casemate=Plate(152, "krupp"))
    assert cv.armour_upperworks(heavy, T) == 6
    assert cv.upperworks_protection(heavy, T) is Rating.GREAT
    assert cv.upperworks_protection(ArmourSpec(casemate=Plate(152, "harvey")), T) is Rating.GOOD
    assert cv.upperworks_protection(ArmourSpec(casemate=Plate(51, "steel")), T) is Rating.POOR
    assert cv.upperworks_protection(ArmourSpec(), T) is Rating.NONE


def test_flood_protection_needs_protected_ends_and_none_for_torpedo_boats() -> None:
    """BF6-TORP-08 uses the rating; good and great need well-protected ends."""
    deck = Plate(76, "steel")
    assert (
        cv.flood_protection(ArmourSpec(ends=Plate(102, "krupp"), deck=deck), ShipType.BATTLESHIP, T)
        is Rating.GREAT
    )
    assert (
        cv.flood_protection(ArmourSpec(ends=Plate(51, "krupp"), deck=deck), ShipType.BATTLESHIP, T)
        is Rating.GOOD
    )
    assert cv.flood_protection(ArmourSpec(deck=deck), ShipType.BATTLESHIP, T) is Rating.POOR
    assert cv.flood_protection(ArmourSpec(), ShipType.TORPEDO_BOAT, T) is Rating.NONE
    assert cv.flood_protection(ArmourSpec(), ShipType.DESTROYER, T) is Rating.NONE


def test_BF6_SEC_03_armoured_deck_flag() -> None:
    """Only ships with armoured decks may leave boat-gun crews undeployed (BF6-SEC-03)."""
    assert cv.armoured_deck(ArmourSpec(deck=Plate(25, "steel")), T) is True
    assert cv.armoured_deck(ArmourSpec(deck=Plate(20, "steel")), T) is False
    assert cv.armoured_deck(ArmourSpec(), T) is False


# -- guns -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("calibre", "size"),
    [(37, 0), (57, 0), (76, 1), (120, 1), (152, 2), (203, 3), (210, 3), (240, 4), (254, 4),
     (280, 5), (305, 5), (320, 6), (343, 6), (356, 7), (432, 7)],
)  # fmt: skip
def test_shell_size_by_calibre(calibre: float, size: int) -> None:
    assert cv.shell_size(calibre, T) == size


def test_breech_default_by_calibre_and_year() -> None:
    assert cv.breech_of(152, 1895, T) == "QF"
    assert cv.breech_of(152, 1886, T) == "BL"
    assert cv.breech_of(47, 1885, T) == "QF"
    assert cv.breech_of(305, 1900, T) == "BL"
    assert cv.breech_of(240, 1870, T, "ML") == "ML"
    with pytest.raises(SpecError):
        cv.breech_of(240, 1870, T, "XX")


def test_BF6_ROF_01_rof_by_calibre_and_era() -> None:
    """ROF ½ / 1 / 2 (BF6-ROF-01..04): heavy 1880s BL ½; 12-inch of 1897+ 1; QF 6-inch 2."""
    assert cv.rate_of_fire(305, "BL", 1885, T) == 0.5
    assert cv.rate_of_fire(305, "BL", 1895, T) == 0.5
    assert cv.rate_of_fire(305, "BL", 1900, T) == 1.0
    assert cv.rate_of_fire(254, "BL", 1895, T) == 1.0
    assert cv.rate_of_fire(152, "QF", 1895, T) == 2.0
    assert cv.rate_of_fire(152, "BL", 1885, T) == 1.0
    assert cv.rate_of_fire(203, "QF", 1895, T) == 1.0
    assert cv.rate_of_fire(240, "ML", 1878, T) == 0.5


def test_penetration_worked_examples() -> None:
    """12-inch/40 of 1900: 12 × 1.0 × 1.0 × (1.1, .85, .65, .5) → 13, 10, 8, 6 (docs)."""
    assert cv.penetration(304.8, 40, 1900, "BL", T) == (13, 10, 8, 6)
    # a short 1880s gun penetrates less: 12 × (25/40)^.5 × .85 × 1.1
    assert cv.penetration(304.8, 25, 1885, "BL", T) == (9, 7, 5, 4)


def test_light_guns_cannot_reach_the_far_brackets() -> None:
    assert cv.penetration(47, 40, 1900, "QF", T)[1:] == (None, None, None)
    assert cv.penetration(76, 40, 1900, "QF", T)[2:] == (None, None)
    assert cv.penetration(152, 40, 1900, "QF", T)[3] is None
    assert None not in cv.penetration(203, 45, 1900, "BL", T)


@given(
    calibre=st.floats(20, 460),
    bigger=st.floats(0, 200),
    length=st.floats(15, 50),
    year=st.integers(1860, 1910),
    breech=st.sampled_from(["ML", "BL", "QF"]),
)
def test_property_bigger_gun_never_penetrates_less(
    calibre: float, bigger: float, length: float, year: int, breech: str
) -> None:
    """A bigger calibre never lowers penetration, nor reach, at any bracket."""
    small = cv.penetration(calibre, length, year, breech, T)
    large = cv.penetration(calibre + bigger, length, year, breech, T)
    for a, b in zip(small, large, strict=True):
        if a is not None:
            assert b is not None and b >= a


@given(length=st.floats(15, 50), longer=st.floats(0, 20), year=st.integers(1860, 1910),
       newer=st.integers(0, 30))  # fmt: skip
def test_property_longer_or_newer_gun_never_penetrates_less(
    length: float, longer: float, year: int, newer: int
) -> None:
    old = cv.penetration(254, length, year, "BL", T)
    new = cv.penetration(254, length + longer, year + newer, "BL", T)
    assert all(b >= a for a, b in zip(old, new, strict=True) if a is not None and b is not None)


_COMPONENTS = st.sampled_from(cv.ARMOUR_COMPONENTS)
_KINDS = st.sampled_from(["iron", "compound", "steel", "nickel", "harvey", "krupp"])


@st.composite
def _armour(draw: st.DrawFn) -> ArmourSpec:
    plates = {}
    for comp in cv.ARMOUR_COMPONENTS:
        if draw(st.booleans()):
            plates[comp] = Plate(draw(st.floats(0, 500)), draw(_KINDS))
    return ArmourSpec(**plates)


_RANK = {Rating.NONE: 0, Rating.POOR: 1, Rating.GOOD: 2, Rating.GREAT: 3}


@given(armour=_armour(), comp=_COMPONENTS, extra=st.floats(0, 300), kind=_KINDS,
       ship_type=st.sampled_from(list(ShipType)))  # fmt: skip
def test_property_more_armour_never_lowers_protection(
    armour: ArmourSpec, comp: str, extra: float, kind: str, ship_type: ShipType
) -> None:
    """Thickening any plate never lowers vitals, upperworks, ratings or the deck flag."""
    old = getattr(armour, comp)
    new_plate = Plate(old.mm + extra, old.kind) if old else Plate(extra, kind)
    if old is None and comp == "barbette":
        return  # adding a first barbette changes the averaging, not the thickness
    more = replace(armour, **{comp: new_plate})
    assert cv.armour_vitals(more, T) >= cv.armour_vitals(armour, T)
    assert cv.armour_upperworks(more, T) >= cv.armour_upperworks(armour, T)
    assert _RANK[cv.upperworks_protection(more, T)] >= _RANK[cv.upperworks_protection(armour, T)]
    assert (
        _RANK[cv.flood_protection(more, ship_type, T)]
        >= _RANK[cv.flood_protection(armour, ship_type, T)]
    )
    assert cv.armoured_deck(more, T) >= cv.armoured_deck(armour, T)


@given(kind=_KINDS, better=_KINDS, mm=st.floats(0, 500))
def test_property_better_plate_never_lowers_points(kind: str, better: str, mm: float) -> None:
    q = T.armour_quality
    if q[better] >= q[kind]:
        assert cv.plate_points(Plate(mm, better), T) >= cv.plate_points(Plate(mm, kind), T)


# -- propulsion, positions, patterns ------------------------------------------------------


def test_BF6_PROP_01_six_boxes_evenly_spaced_from_top_speed() -> None:
    """Six propulsion boxes, highest first: top, 5/6 … 1/6 (BF6-PROP-01)."""
    assert cv.propulsion_boxes(18) == (18.0, 15.0, 12.0, 9.0, 6.0, 3.0)
    assert cv.propulsion_boxes(20) == (20.0, 16.7, 13.3, 10.0, 6.7, 3.3)


def test_BF6_BEAM_06_pattern_from_guns_bearing_ahead() -> None:
    """Pattern 2 bears 4 guns ahead, pattern 1 two, pattern 0 none (BF6-BEAM-06)."""
    assert cv.beam_pattern(4) == 2
    assert cv.beam_pattern(6) == 2
    assert cv.beam_pattern(2) == 1
    assert cv.beam_pattern(0) == 0


def test_BF6_POS_places_fill_lettered_positions_port_first() -> None:
    """Places map to BF6-POS-01..11 letters; pairs are port first (AMB-13, AMB-14)."""
    assert cv.positions_of(["fore", "aft"]) == ("A", "Z")
    assert cv.positions_of(["fore-pair"]) == ("B", "C")
    assert cv.positions_of(["wings-fore", "wings-aft"]) == ("D", "E", "V", "W")
    assert cv.positions_of(["sponsons-fore", "wings", "sponsons-aft"]) == (
        "M", "O", "P", "R", "S", "U",
    )  # fmt: skip
    assert cv.positions_of(["stem", "N"]) == ("stem", "N")
    with pytest.raises(SpecError, match="unknown place 'amidships'"):
        cv.positions_of(["amidships"])


def test_AMB_30_position_compartments() -> None:
    """Forward positions → Forward, aft → Aft, wings → that side's amidships (AMB-30)."""
    assert cv.position_compartment("A") is Compartment.FORWARD
    assert cv.position_compartment("C") is Compartment.FORWARD
    assert cv.position_compartment("stern") is Compartment.AFT
    assert cv.position_compartment("P") is Compartment.PORT
    assert cv.position_compartment("R") is Compartment.STARBOARD
    assert cv.position_compartment("W") is Compartment.STARBOARD
    assert cv.position_compartment("centreline") is None


def test_gun_roles_by_calibre() -> None:
    assert cv.gun_role(GunSpec(305, 4, "turret", ("fore",)), 305, T) is GunClass.MAIN
    assert cv.gun_role(GunSpec(274, 2, "turret", ("wings",)), 305, T) is GunClass.MAIN
    assert cv.gun_role(GunSpec(203, 8, "turret", ("wings-fore",)), 330, T) is GunClass.SECONDARY
    assert cv.gun_role(GunSpec(102, 6, "shield", ("broadside",)), 305, T) is GunClass.TERTIARY
    assert cv.gun_role(GunSpec(47, 6, "open", ("broadside",)), 305, T) is GunClass.BOAT
    explicit = GunSpec(120, 8, "shield", ("broadside",), role=GunClass.SECONDARY)
    assert cv.gun_role(explicit, 120, T) is GunClass.SECONDARY


def test_BF6_MAIN_02_lozenge_flag() -> None:
    """A lozenge main layout (fore, aft and a wing pair) is flagged (BF6-MAIN-02)."""
    lozenge = _spec(
        guns=(
            GunSpec(305, 2, "turret", ("fore", "aft"), 45),
            GunSpec(274, 2, "turret", ("wings",), 45),
        )
    )
    assert cv.convert(lozenge, T).lozenge is True
    assert cv.convert(_spec(), T).lozenge is False


# -- torpedoes and handling --------------------------------------------------------------


def test_torpedo_size_and_range() -> None:
    assert cv.torpedo_size(356, T) == 6
    assert cv.torpedo_size(381, T) == 8
    assert cv.torpedo_size(457, T) == 8
    assert cv.torpedo_range_m(1885, T) == 600
    assert cv.torpedo_range_m(1904, T) == 3000


def test_stability_seaway_turning_searchlights() -> None:
    assert cv.stability("low", False) == "poor"
    assert cv.stability("normal", True) == "poor"
    assert cv.stability("normal", False) == "good"
    assert cv.seaway(ShipType.COAST_DEFENCE, "normal", T) == "poor"
    assert cv.seaway(ShipType.BATTLESHIP, "low", T) == "poor"
    assert cv.seaway(ShipType.BATTLESHIP, "normal", T) == "normal"
    assert cv.turning_circle_m(45, T) == 300
    assert cv.turning_circle_m(128, T) == 700
    assert cv.turning_circle_m(140, T) == 800
    assert cv.searchlights(1, T) == 1
    assert cv.searchlights(9, T) == 4


# -- the whole conversion ------------------------------------------------------------------


def test_convert_whole_class() -> None:
    cls = cv.convert(_spec(), T)
    assert cls.size == 9
    assert (cls.armour_vitals, cls.armour_upperworks) == (12, 6)
    assert cls.flood_protection is Rating.GREAT
    assert [m.key for m in cls.mountings] == ["A", "Z", "sec", "ter", "boat"]
    a = cls.mounting("A")
    assert (a.guns, a.position, a.compartment, a.rof, a.shell_size) == (
        2, "A", Compartment.FORWARD, 1.0, 5,
    )  # fmt: skip
    sec = cls.mounting("sec")
    assert (sec.gun_class, sec.beam_pattern, sec.guns, sec.rof) == (GunClass.SECONDARY, 1, 12, 2)
    assert cls.mounting("boat").beam_pattern == 0
    assert cls.mounting("boat").gun_class is GunClass.BOAT
    assert [(t.key, t.tubes, t.size) for t in cls.torpedoes] == [("beam", 4, 8), ("bow", 1, 6)]
    assert cls.propulsion_knots[0] == 18.0
    assert cls.overrides == ()


def test_convert_rejects_bad_specs_naming_the_field() -> None:
    """Bad specifications name their field; shallow torpedoes only for DD/TB/TGB (BF6-TORP-06)."""
    odd = _spec(
        guns=(GunSpec(305, 2, "turret", ("fore",)), GunSpec(152, 5, "casemate", ("broadside",)))
    )
    with pytest.raises(SpecError) as err:
        cv.convert(odd, T)
    assert err.value.field == "guns[1].count"
    uneven = _spec(guns=(GunSpec(305, 3, "turret", ("fore", "aft")),))
    with pytest.raises(SpecError, match="split evenly"):
        cv.convert(uneven, T)
    main_broadside = _spec(guns=(GunSpec(152, 6, "casemate", ("broadside",)),))
    with pytest.raises(SpecError, match="main guns need lettered positions"):
        cv.convert(main_broadside, T)
    with pytest.raises(SpecError) as err:
        cv.convert(_spec(guns=(GunSpec(305, 2, "tower", ("fore",)),)), T)
    assert err.value.field == "guns[0].mounting"
    with pytest.raises(SpecError, match="only destroyers"):
        cv.convert(_spec(shallow_torpedoes=True), T)


def test_user_conversion_file_replaces_builtin(tmp_path: Path) -> None:
    text = resources.files("battleline.rulesets.bf1900") / "data" / "conversion.toml"
    raw = text.read_text(encoding="utf-8").replace("largest = 10", "largest = 12")
    path = tmp_path / "conv.toml"
    path.write_text(raw, encoding="utf-8")
    assert cv.ship_size(20000, cv.load_conversion(path)) == 12


def test_malformed_conversion_file_names_table_and_field(tmp_path: Path) -> None:
    text = resources.files("battleline.rulesets.bf1900") / "data" / "conversion.toml"
    raw = text.read_text(encoding="utf-8").replace("deck_weight = 0.5", 'deck_weight = "half"')
    path = tmp_path / "conv.toml"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(RulesDataError) as err:
        cv.load_conversion(path)
    assert (err.value.table, err.value.field) == ("armour", "deck_weight")
    path.write_text("decay = [", encoding="utf-8")
    with pytest.raises(RulesDataError, match="not valid TOML"):
        cv.load_conversion(path)
