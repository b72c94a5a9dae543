"""The tabletop hit notation: parse/format round trip and lookups from the firing ship's class
(BF6-HIT-01, BF6-GUN-02, BF6-TORP-06, REF-BF6-12)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from battleline.errors import IllegalOrderError, OrderSyntaxError, UnknownNameError
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet, TorpedoHit
from battleline.rulesets.bf1900.ship import GunClass, TorpedoMount
from battleline.rulesets.bf1900.shipdb import class_of_ship
from battleline.tabletop.hits_notation import (
    ShellReport,
    TorpedoReport,
    format_hit,
    format_hits,
    lookup_in,
    parse_hit,
    parse_hits,
    resolve_hit,
)

SHIPS = {
    "Mikasa": class_of_ship("Mikasa"),
    "Fuji": class_of_ship("Fuji"),
    "Oslyabya": class_of_ship("Oslyabya"),
    "Sokol": class_of_ship("Sokol"),
    "Kaiser Friedrich III": class_of_ship("Mikasa"),  # a multi-word name on a known class
}
LOOKUP = lookup_in(SHIPS)


def test_the_briefs_shell_example_parses() -> None:
    assert parse_hit("Mikasa <- Fuji A 2 AP b2 port") == ShellReport(
        "Mikasa", "Fuji", "A", 2, Ammo.AP, 2, Aspect.PORT
    )


def test_the_briefs_torpedo_example_parses() -> None:
    assert parse_hit("Mikasa <- torpedo 18in shallow starboard") == TorpedoReport(
        "Mikasa", None, True, Aspect.STARBOARD, calibre=(18.0, "in")
    )


def test_BF6_GUN_02_ammunition_is_HE_unless_AP_is_written() -> None:
    report = parse_hit("Mikasa <- Fuji sec 4 b1 port")
    assert isinstance(report, ShellReport) and report.ammo is Ammo.HE


def test_multi_word_names_and_side_words() -> None:
    """REF-BF6-12: the side is the embattled side; stbd/bow/stern are accepted spellings."""
    report = parse_hit("  Kaiser  Friedrich III <- Fuji   A 1 he b3 stbd ")
    assert report == ShellReport(
        "Kaiser Friedrich III", "Fuji", "A", 1, Ammo.HE, 3, Aspect.STARBOARD
    )
    assert parse_hit("Fuji <- Kaiser Friedrich III Z 2 b1 stern") == ShellReport(
        "Fuji", "Kaiser Friedrich III", "Z", 2, Ammo.HE, 1, Aspect.ASTERN
    )
    torpedo = parse_hit("Fuji <- Sokol torpedo bow")
    assert torpedo == TorpedoReport("Fuji", "Sokol", False, Aspect.AHEAD)


def test_several_hits_with_comments_and_semicolons() -> None:
    text = """
    # turn 3, the Japanese line
    Oslyabya <- Mikasa A 2 AP b2 port; Oslyabya <- Fuji sec 3 b1 port
    Oslyabya <- torpedo size6 starboard   # a torpedo boat nobody saw
    """
    reports = parse_hits(text)
    assert len(reports) == 3
    assert reports[2] == TorpedoReport("Oslyabya", None, False, Aspect.STARBOARD, size=6)
    assert parse_hits(format_hits(reports)) == reports


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("Mikasa Fuji A 2 AP b2 port", "<-"),
        ("<- Fuji A 2 AP b2 port", "no target"),
        ("Mikasa <-", "nothing after"),
        ("Mikasa <- Fuji A 2 AP b5 port", "b1–b4"),
        ("Mikasa <- Fuji A 2 AP 2 port", "range bracket"),
        ("Mikasa <- Fuji A 0 AP b2 port", "at least 1"),
        ("Mikasa <- Fuji A two AP b2 port", "whole number"),
        ("Mikasa <- Fuji A 2 AP b2 portside", "port, starboard"),
        ("Mikasa <- A 2 AP b2 port", "FIRER MOUNTING ROUNDS"),
        ("Mikasa <- torpedo", "side it struck"),
        ("Mikasa <- torpedo deep port", "unexpected 'deep'"),
        ("Mikasa <- torpedo 18in size8 port", "not both"),
    ],
)
def test_bad_hit_lines_are_syntax_errors_quoting_the_line(line: str, says: str) -> None:
    with pytest.raises(OrderSyntaxError, match="hit ") as err:
        parse_hit(line)
    assert says in str(err.value)


_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_word = st.text(alphabet=_ALPHABET, min_size=1, max_size=8).filter(lambda w: w.lower() != "torpedo")
_name = st.lists(_word, min_size=1, max_size=3).map(" ".join)
_shell = st.builds(
    ShellReport,
    _name,
    _name,
    _word,
    st.integers(1, 40),
    st.sampled_from(Ammo),
    st.integers(1, 4),
    st.sampled_from(Aspect),
)
_calibre = st.tuples(
    st.sampled_from([14.0, 15.0, 18.0, 45.0, 450.0, 17.7]), st.sampled_from(["in", "mm", "cm"])
)
_firer = st.none() | _name
_torpedo = st.builds(
    TorpedoReport, _name, _firer, st.booleans(), st.sampled_from(Aspect), st.none() | _calibre
) | st.builds(
    TorpedoReport,
    _name,
    _firer,
    st.booleans(),
    st.sampled_from(Aspect),
    st.none(),
    st.integers(1, 9),
)


@given(st.one_of(_shell, _torpedo))
def test_parse_of_format_is_the_report(report: ShellReport | TorpedoReport) -> None:
    assert parse_hit(format_hit(report)) == report


def test_BF6_HIT_01_penetration_calibre_and_shell_size_come_from_the_firers_class() -> None:
    """Mikasa's A is 30.5 cm, penetration 13-10-8-6, shell size 5: bracket 2 gives 10."""
    hit = resolve_hit(parse_hit("fuji <- MIKASA a 2 AP b2 port"), LOOKUP)
    assert hit == ShellSet(
        firer="Mikasa",
        target="Fuji",
        mounting="A",
        gun_class=GunClass.MAIN,
        calibre_cm=30.5,
        rounds=2,
        ammo=Ammo.AP,
        penetration=10,
        bracket=2,
        shell_size=5,
        aspect=Aspect.PORT,
    )
    sec = resolve_hit(parse_hit("Mikasa <- Fuji sec 3 b3 starboard"), LOOKUP)
    assert isinstance(sec, ShellSet)
    assert (sec.gun_class, sec.calibre_cm, sec.penetration, sec.shell_size) == (
        GunClass.SECONDARY,
        15.2,
        4,
        2,
    )


def test_a_gun_that_cannot_reach_the_bracket_is_refused() -> None:
    """Fuji's 15.2 cm secondaries have no penetration at bracket 4 (BF6-HIT-01)."""
    with pytest.raises(IllegalOrderError, match=r"cannot reach bracket 4"):
        resolve_hit(parse_hit("Mikasa <- Fuji sec 3 b4 port"), LOOKUP)


def test_unknown_mounting_lists_the_firers_mountings() -> None:
    with pytest.raises(IllegalOrderError, match=r"no mounting 'Q'; its mountings are A, Z, sec"):
        resolve_hit(parse_hit("Mikasa <- Fuji Q 3 b1 port"), LOOKUP)


def test_unknown_ship_suggests_the_ships_in_play() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown ship 'Mikasaa'.*Mikasa"):
        resolve_hit(parse_hit("Mikasaa <- Fuji A 1 b1 port"), LOOKUP)
    with pytest.raises(UnknownNameError, match=r"unknown ship 'Yashima'"):
        resolve_hit(parse_hit("Mikasa <- Yashima A 1 b1 port"), LOOKUP)


def test_a_ship_cannot_hit_itself() -> None:
    with pytest.raises(IllegalOrderError, match="cannot hit itself"):
        resolve_hit(parse_hit("Mikasa <- mikasa A 1 b1 port"), LOOKUP)


def test_torpedo_size_from_the_calibre_uses_the_conversion_table() -> None:
    """18in (457 mm) is size 8 and 14in (356 mm) size 6, by data/conversion.toml."""
    big = resolve_hit(parse_hit("Mikasa <- torpedo 18in shallow starboard"), LOOKUP)
    assert big == TorpedoHit("unknown", "Mikasa", "18in", 8, True, Aspect.STARBOARD)
    small = resolve_hit(parse_hit("Mikasa <- torpedo 356mm port"), LOOKUP)
    assert isinstance(small, TorpedoHit) and small.size == 6 and not small.shallow


def test_torpedo_size_from_the_firers_tubes() -> None:
    hit = resolve_hit(parse_hit("Mikasa <- Sokol torpedo shallow port"), LOOKUP)
    assert hit == TorpedoHit("Sokol", "Mikasa", "centreline", 8, True, Aspect.PORT)


def test_BF6_TORP_06_a_battleship_fires_no_shallow_torpedoes() -> None:
    with pytest.raises(IllegalOrderError, match=r"no shallow-running torpedoes \(BF6-TORP-06\)"):
        resolve_hit(parse_hit("Mikasa <- Fuji torpedo shallow port"), LOOKUP)


def test_torpedo_size_must_be_known() -> None:
    with pytest.raises(IllegalOrderError, match="write the calibre"):
        resolve_hit(parse_hit("Mikasa <- torpedo port"), LOOKUP)
    two = dataclasses.replace(
        SHIPS["Fuji"],
        torpedoes=(TorpedoMount("bow", 2, "bow", 6), TorpedoMount("beam", 2, "beam", 8)),
    )
    lookup = lookup_in({"Mikasa": SHIPS["Mikasa"], "Fuji": two})
    with pytest.raises(IllegalOrderError, match="sizes 6, 8; write which"):
        resolve_hit(parse_hit("Mikasa <- Fuji torpedo port"), lookup)
    hit = resolve_hit(parse_hit("Mikasa <- Fuji torpedo size6 port"), lookup)
    assert isinstance(hit, TorpedoHit) and hit.mount == "bow"
