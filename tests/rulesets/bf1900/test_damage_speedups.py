"""The damage phase's shortcuts give exactly what the plain rules code gave.

* :class:`DeclarationCheck` adds one declaration at a time with the same verdicts and messages as
  :func:`validate_declarations` on the whole list (BF6-DC-02, BF6-DC-04, BF6-CF-01, BF6-REP-01);
* a damage code is parsed once and the parse reused (BF6-DTYPE-01);
* the hit table's per-location column lookup equals the charts' own lookups (BF6-DMG-07).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine.events import EventLog
from battleline.errors import IllegalOrderError, RulesDataError
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import parse_code
from battleline.rulesets.bf1900.damage.context import Code
from battleline.rulesets.bf1900.damage.declarations import DCDeclaration, parse_declaration
from battleline.rulesets.bf1900.damage.step3 import (
    DeclarationCheck,
    usable_declarations,
    validate_declarations,
)
from battleline.rulesets.bf1900.hits import Ammo
from battleline.rulesets.bf1900.ship import Compartment, FloodLevel
from battleline.rulesets.bf1900.shiplog import Mark, RudderState, ShipLog
from conftest import majestic, make_log

_ORDERS = (
    "P", "BR", "M:A", "M:Z", "M:sec", "S:sec", "S:tert", "S:A", "ST", "HVY:forward", "HVY:port",
    "DC", "R", "SECURE", "FREE", "SINK-1", "FLOODMAG:A", "CF:port=heavy", "CF:aft=moderate",
    "SCUTTLE", "RECOVER-CT",
)  # fmt: skip
_LEVELS = list(FloodLevel)
_RUDDER = list(RudderState)


@st.composite
def damaged_logs(draw: st.DrawFn) -> ShipLog:
    """A Majestic log with random damage on every line damage control reads."""
    log = make_log(majestic())
    log.propulsion.damaged = draw(st.integers(0, 2))
    log.propulsion.margin = draw(st.integers(0, 1))
    log.bridge_hits = draw(st.integers(0, 2))
    log.tr_hits = draw(st.integers(0, 2))
    log.ct_hits = draw(st.integers(0, 1))
    log.rudder = draw(st.sampled_from(_RUDDER))
    log.scuttling = draw(st.booleans())
    for key in ("A", "Z"):
        pos = log.positions[key]
        pos.slashes = draw(st.integers(0, 2))
        pos.destroyed = draw(st.booleans())
        pos.magazine_flooded = draw(st.booleans())
    marks = log.batteries["sec"]
    for i in range(draw(st.integers(0, 3))):
        marks[i] = Mark.DAMAGED
    for i in range(draw(st.integers(0, len(log.dc_boxes)))):
        log.dc_boxes[i] = draw(st.sampled_from([Mark.DAMAGED, Mark.DESTROYED]))
    for zone in Compartment:
        state = log.compartments[zone]
        state.level = draw(st.sampled_from(_LEVELS))
        state.contained = draw(st.booleans())
    return log


def _verdict(log: ShipLog, decls: list[DCDeclaration]) -> str | None:
    try:
        validate_declarations(log, decls)
    except IllegalOrderError as err:
        return str(err)
    return None


@settings(max_examples=300)
@given(damaged_logs(), st.lists(st.sampled_from(_ORDERS), max_size=8))
def test_declaration_check_adds_as_the_whole_list_validates(
    log: ShipLog, orders: list[str]
) -> None:
    """BF6-DC-02, BF6-DC-04: one more declaration at a time, same verdicts and messages."""
    decls = [parse_declaration(log.name, text) for text in orders]
    check = DeclarationCheck(log)
    kept: list[DCDeclaration] = []
    for decl in decls:
        expected = _verdict(log, [*kept, decl])
        try:
            check.add(decl)
            got = None
        except IllegalOrderError as err:
            got = str(err)
        assert got == expected
        if got is None:
            kept.append(decl)
    assert check.needed == _needed(log, kept)
    events = EventLog()
    assert usable_declarations(log, decls, events) == kept
    assert len(events) == len(decls) - len(kept)


def _needed(log: ShipLog, kept: list[DCDeclaration]) -> int:
    from battleline.rulesets.bf1900.damage.step3 import dice_needed, scuttle_dice

    return dice_needed(log, kept) + (scuttle_dice(log) if log.scuttling else 0)


def test_a_refused_declaration_leaves_the_check_unchanged() -> None:
    """BF6-DC-02: a second repair of the only bridge hit is refused and counts for nothing."""
    log = make_log(majestic())
    log.bridge_hits = 1
    check = DeclarationCheck(log)
    check.add(parse_declaration(log.name, "BR"))
    with pytest.raises(IllegalOrderError, match="only 1 to address"):
        check.add(parse_declaration(log.name, "BR"))
    assert check.needed == 1
    with pytest.raises(IllegalOrderError, match="nothing to address"):
        check.add(parse_declaration(log.name, "ST"))
    assert check.needed == 1


def test_parsed_codes_are_reused_and_errors_still_name_their_place() -> None:
    """BF6-DTYPE-01: the same text gives the same (immutable) code; a bad one still raises
    with the caller's ``where``."""
    assert parse_code("150FL") is parse_code("150FL") == Code("FL", 1, 150)
    assert parse_code(" 2IF ") == Code("IF", 2)
    for _ in range(2):
        with pytest.raises(RulesDataError, match="somewhere"):
            parse_code("0F", where="somewhere")
        with pytest.raises(RulesDataError, match="unknown damage code"):
            parse_code("Q")


@given(
    st.sampled_from([Ammo.AP, Ammo.HE, "AP", "HE"]),
    st.sampled_from(["vitals", "upperworks"]),
    st.integers(0, 40),
    st.integers(0, 20),
    st.integers(1, 6),
)
def test_table_lookups_equal_the_charts_lookups(
    ammo: Ammo | str, location: str, penetration: int, armour: int, roll: int
) -> None:
    """BF6-DMG-07: location die, column and codes read through the table are the charts'."""
    charts = load_charts()
    table = charts.table(ammo)
    assert table is (charts.ap if Ammo(ammo) is Ammo.AP else charts.he)
    assert table.location(roll) == charts.location(ammo, roll)
    pct = charts.differential(ammo, penetration, armour)
    index = table.column_index(pct)
    assert table.columns[index].name == charts.differential_column(ammo, pct)
    assert table.damage(location, index, roll) == charts.shell_damage(ammo, location, pct, roll)
    with pytest.raises(ValueError, match="hit location"):
        table.damage("bridge", index, roll)


@pytest.mark.parametrize("cause", ["critical", "explosion", "misc", "spread"])
def test_deeper_context_equals_the_replaced_one(cause: str) -> None:
    """BF6-DMG-05: a further chart roll keeps charts, dice, die and effects, one level deeper."""
    import dataclasses

    from battleline.engine.dice import FixedDice
    from battleline.rulesets.bf1900.damage.context import DamageContext
    from battleline.rulesets.bf1900.hits import Aspect

    ctx = DamageContext(
        load_charts(), FixedDice([]), EventLog(), Aspect.PORT, 6.0, "shell", 2, 12, {"S": print}
    )
    for aspect in (None, Aspect.AHEAD):
        assert ctx.deeper(cause, aspect) == dataclasses.replace(
            ctx, cause=cause, aspect=aspect, depth=3
        )
    with pytest.raises(ValueError, match="cause"):
        ctx.deeper("magic", None)
