"""The chart-file reader the 1D6 and the 1D12 charts share (``rulesets/chartfile.py``)."""

from __future__ import annotations

import pytest

from battleline.errors import RulesDataError
from battleline.rulesets.chartfile import (
    D6,
    D12,
    die_range,
    faces_by_row,
    line,
    read_chart_files,
)
from battleline.rulesets.tomldata import DataFile, Where


def _file(name: str, text: str) -> DataFile:
    """A data file read lazily, as a packaged resource is."""
    return name, text.encode


def _header(version: str = "1.0", edition: str = "1D12") -> str:
    return f'version = "{version}"\nreconstructed = true\nedition = "{edition}"\n'


def test_read_chart_files_collects_tables_and_the_header() -> None:
    files = [
        _file("a.toml", _header() + "[misc]\nroll = 1\n"),
        _file("b.toml", _header() + "[critical]\nfire = 2\n"),
    ]
    found = read_chart_files(files, edition="1D12", tables=("misc", "critical"), source="set")
    assert (found.version, found.reconstructed) == ("1.0", True)
    where, table = found.get("critical")
    assert (where.file, where.table, table) == ("b.toml", "critical", {"fire": 2})


@pytest.mark.parametrize(
    ("files", "file", "table", "field", "reason"),
    [
        (
            [("a.toml", _header() + "[misc]\n"), ("b.toml", _header("2.0") + "[critical]\n")],
            "b.toml",
            "(file header)",
            "version",
            "differs from '1.0' in a.toml",
        ),
        (
            [("a.toml", _header(edition="1D6") + "[misc]\n")],
            "a.toml",
            "(file header)",
            "edition",
            "write edition = '1D12'",
        ),
        (
            [("a.toml", _header() + "[misc]\n[miscc]\n")],
            "a.toml",
            "miscc",
            "",
            "unknown table; the 1D12 chart tables are",
        ),
        (
            [("a.toml", _header() + "[misc]\n"), ("b.toml", _header() + "[misc]\n")],
            "b.toml",
            "misc",
            "",
            "defined twice (also in a.toml)",
        ),
        ([("a.toml", _header() + "[misc]\n")], "set", "critical", "", "table missing"),
    ],
)
def test_a_bad_chart_set_names_file_table_and_field(
    files: list[tuple[str, str]], file: str, table: str, field: str, reason: str
) -> None:
    """The header and table checks are the same for both editions now (one reader): the 1D12
    charts, too, refuse files whose versions disagree."""
    with pytest.raises(RulesDataError) as info:
        read_chart_files(
            [_file(n, t) for n, t in files],
            edition="1D12",
            tables=("misc", "critical"),
            source="set",
        )
    err = info.value
    assert (err.file, err.table, err.field) == (file, table, field)
    assert reason in err.reason


def test_die_ranges_rows_and_lines_follow_the_edition_die() -> None:
    where = Where("c.toml", "damage_control")
    assert die_range(where, "fire", "11-12", D12) == (11, 12)
    assert die_range(where, "fire", 6, D6) == (6, 6)
    with pytest.raises(RulesDataError, match="within 1–6"):
        die_range(where, "fire", "11-12", D6)
    with pytest.raises(RulesDataError, match="d12 range such as '11-12'"):
        die_range(where, "fire", "eleven", D12)
    rows = {str(f): [f] for f in range(1, 12)}
    with pytest.raises(RulesDataError, match="face 12 missing: every d12 face") as info:
        faces_by_row(where, rows, (), D12)
    assert info.value.field == "12"
    assert faces_by_row(where, {**rows, "12": [12]}, (), D12)[-1] == [12]
    with pytest.raises(RulesDataError, match="a 1D6 line needs exactly 6 cells"):
        line(where, ["-"] * 12, (), D6)
    assert line(where, ["-"] * 11 + ["F, S"], (), D12)[-1] == ("F", "S")
