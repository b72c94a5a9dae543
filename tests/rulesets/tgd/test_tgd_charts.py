"""The TGD charts as validated data (REF-TGD-03/04/05): reconstructed values, user files, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.errors import RulesDataError
from battleline.rulesets.tgd.charts import HitNumber, load_charts

CHARTS = load_charts()
PACKAGED = (
    Path(__file__).resolve().parents[3] / "src/battleline/rulesets/tgd/data/tgd.toml"
).read_text(encoding="utf-8")


def test_REF_TGD_03_chart_is_marked_reconstructed_and_keeps_the_seed_entries() -> None:
    assert CHARTS.reconstructed
    seed_lines = [line for line in CHARTS.to_hit if not line.reconstructed]
    assert [str(line.hit) for line in seed_lines] == ["5+", "6 then 5+"]
    assert CHARTS.hit_number(60) == HitNumber(5, 6)  # covers strength 6's full reach


def test_REF_TGD_03_hit_chances_never_improve_with_range() -> None:
    def chance(h: HitNumber) -> float:
        last = (7 - h.need) / 6
        return last / 6 if h.first else last

    values = [chance(CHARTS.hit_number(r)) for r in range(1, 61)]
    assert values == sorted(values, reverse=True)


def test_REF_TGD_04_nations_and_unknown_nation_uses_the_base_chart() -> None:
    assert CHARTS.nation_modifier("Japanese") == 1
    assert CHARTS.nation_modifier("US") == 1
    assert CHARTS.nation_modifier("italian") == 0


def test_REF_TGD_05_unknown_ship_type_names_the_rule() -> None:
    assert CHARTS.save_number("bb") == 2
    with pytest.raises(RulesDataError, match="TGD-DMG-08"):
        CHARTS.save_number("XX")


def test_a_user_chart_file_replaces_the_packaged_one(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(PACKAGED.replace("need = 4\n", "need = 3\n", 1), encoding="utf-8")
    mine = load_charts(path)
    assert mine.hit_number(5) == HitNumber(3)
    assert mine.source == str(path)


@pytest.mark.parametrize(
    ("old", "new", "table", "field"),
    [
        ("below = 10\nneed = 4", "below = 10\nneed = 9", "to_hit[0]", "need"),
        ("first = 6\nneed = 3", "first = 5\nneed = 3", "to_hit[3]", "first"),
        ("below = 20\nmodifier = 1", "below = -2\nmodifier = 1", "penetration[0]", "below"),
        ("us = 1", "us = 9", "nations", "us"),
        ("\nBB = 2\n", "\nBB = 8\n", "save_vs_sinking.need", "BB"),
        ("below = 30\n", "below = 5\n", "to_hit[2]", "below"),
    ],
)
def test_malformed_chart_names_table_and_field(
    tmp_path: Path, old: str, new: str, table: str, field: str
) -> None:
    assert old in PACKAGED
    path = tmp_path / "bad.toml"
    path.write_text(PACKAGED.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RulesDataError) as info:
        load_charts(path)
    assert (info.value.table, info.value.field) == (table, field)


def test_last_band_must_be_open_and_file_must_be_toml(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(
        PACKAGED.replace(
            "[[penetration]]\nmodifier = -1", "[[penetration]]\nupto = 99\nmodifier = -1"
        ),
        encoding="utf-8",
    )
    with pytest.raises(RulesDataError, match="last band"):
        load_charts(path)
    path.write_text("to_hit = [", encoding="utf-8")
    with pytest.raises(RulesDataError, match="not valid TOML"):
        load_charts(path)
    with pytest.raises(RulesDataError, match="cannot read"):
        load_charts(tmp_path / "missing.toml")
