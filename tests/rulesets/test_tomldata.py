"""The TOML rules-data helpers shared by the chart, conversion, scale and ship loaders, and the
DBA data-file reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from battleline.errors import RulesDataError
from battleline.rulesets.dba.datafile import parse_data, user_file
from battleline.rulesets.tomldata import Where, chart_files, read_toml, read_toml_file


def test_where_names_file_table_and_field() -> None:
    where = Where("mine.toml", "critical").sub("fire")
    with pytest.raises(RulesDataError) as info:
        where.fail("3", "bad cell")
    assert (info.value.file, info.value.table, info.value.field) == (
        "mine.toml",
        "critical.fire",
        "3",
    )


def test_where_keys_refuses_unknown_and_missing_fields() -> None:
    where = Where("f.toml", "misc")
    where.keys({"roll": 1, "note": 2}, required=("roll",), optional=("note",))
    with pytest.raises(RulesDataError, match=r"'colour'.*unknown field"):
        where.keys({"roll": 1, "colour": 2}, required=("roll",))
    with pytest.raises(RulesDataError, match=r"'roll'.*missing"):
        where.keys({}, required=("roll",))


def test_where_tables_and_text() -> None:
    """``[[name]]`` tables come with where each stands; absent, there are none; text is not
    blank."""
    top = Where("f.toml", "(file)")
    got = top.tables({"shell": [{"a": 1}, {"b": 2}]}, "shell")
    assert [(w.table, e) for w, e in got] == [("shell[0]", {"a": 1}), ("shell[1]", {"b": 2})]
    assert top.tables({}, "shell") == []
    with pytest.raises(RulesDataError, match=r"shell.*array of \[\[shell\]\] tables"):
        top.tables({"shell": {"a": 1}}, "shell")
    with pytest.raises(RulesDataError, match=r"shell\[1\].*expected a table"):
        top.tables({"shell": [{}, "x"]}, "shell")
    assert top.text("Brown", "source") == "Brown"
    for bad in ("  ", 3, None):
        with pytest.raises(RulesDataError, match="expected some text"):
            top.text(bad, "source")


@pytest.mark.parametrize(
    ("value", "message"),
    [(True, "whole number"), (2.5, "whole number"), (7, "between 1 and 6")],
)
def test_where_integer_bounds(value: object, message: str) -> None:
    assert Where("f", "t").integer(4, "x", 1, 6) == 4
    with pytest.raises(RulesDataError, match=message):
        Where("f", "t").integer(value, "x", 1, 6)


def test_where_number_and_table() -> None:
    assert Where("f", "t").number(3, "x") == 3.0
    with pytest.raises(RulesDataError, match="finite"):
        Where("f", "t").number(float("inf"), "x")
    with pytest.raises(RulesDataError, match="expected a table, got list"):
        Where("f", "t").as_table([1])


def test_chart_files_from_a_directory_a_file_or_nothing(tmp_path: Path) -> None:
    (tmp_path / "b.toml").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "a.toml").write_text("y = 2\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("-", encoding="utf-8")
    files = chart_files(tmp_path)
    assert [Path(name).name for name, _ in files] == ["a.toml", "b.toml"]
    assert read_toml(*files[0]) == {"y": 2}
    assert [name for name, _ in chart_files(tmp_path / "b.toml")] == [str(tmp_path / "b.toml")]
    with pytest.raises(RulesDataError, match="no such chart file"):
        chart_files(tmp_path / "none")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RulesDataError, match=r"holds no \.toml"):
        chart_files(empty)


def test_bad_toml_and_unreadable_files_name_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("x = [\n", encoding="utf-8")
    with pytest.raises(RulesDataError, match=r"bad\.toml.*not valid TOML"):
        read_toml(str(bad), bad.read_bytes)
    with pytest.raises(RulesDataError, match=r"bad\.toml.*not valid TOML"):
        read_toml_file(str(bad), bad)
    with pytest.raises(RulesDataError, match="cannot read"):
        read_toml_file("gone.toml", tmp_path / "gone.toml")


def test_dba_data_files_must_say_whether_they_are_reconstructed(tmp_path: Path) -> None:
    assert parse_data(b"reconstructed = true\n", "a.toml") == {"reconstructed": True}
    with pytest.raises(RulesDataError, match="reconstructed = true or false"):
        parse_data(b"x = 1\n", "a.toml")
    with pytest.raises(RulesDataError, match="not valid TOML"):
        parse_data(b"\xff", "a.toml")
    with pytest.raises(RulesDataError, match="cannot read"):
        user_file(tmp_path / "missing.toml")
