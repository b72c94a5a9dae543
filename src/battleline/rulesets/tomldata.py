"""Helpers for reading rules data from TOML files, shared by the chart loaders.

:class:`Where` remembers the file and table being read, so every complaint becomes one
:class:`~battleline.errors.RulesDataError` naming the file, the table and the field.
:func:`chart_files` and :func:`read_toml` collect and parse the files a user passes instead
of the packaged data; :func:`read_toml_file` parses one file, packaged or the user's.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib.abc import Traversable
from pathlib import Path
from typing import Any, NoReturn

from battleline.errors import RulesDataError

#: A data file: its name for messages and how to read its bytes.
DataFile = tuple[str, Callable[[], bytes]]


@dataclass(frozen=True, slots=True)
class Where:
    """Where in the data we are, for error messages."""

    file: str
    table: str

    def fail(self, field: str, reason: str) -> NoReturn:
        """Raise the :class:`RulesDataError` for ``field`` here."""
        raise RulesDataError(self.file, self.table, field, reason)

    def sub(self, name: str) -> Where:
        """The sub-table ``name`` of this table."""
        return Where(self.file, f"{self.table}.{name}")

    def as_table(self, value: Any, field: str = "") -> dict[str, Any]:
        """``value`` if it is a TOML table."""
        if not isinstance(value, dict):
            self.fail(field, f"expected a table, got {type(value).__name__}")
        return value

    def keys(
        self, value: Mapping[str, Any], *, required: Iterable[str], optional: Iterable[str] = ()
    ) -> None:
        """Every ``required`` key present, and no key but those and the ``optional`` ones."""
        req = tuple(required)
        allowed = set(req) | set(optional)
        for key in value:
            if key not in allowed:
                self.fail(key, f"unknown field; expected {sorted(allowed)}")
        for key in req:
            if key not in value:
                self.fail(key, "missing")

    def number(self, value: Any, field: str) -> float:
        """A finite number."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(field, f"expected a number, got {value!r}")
        if math.isnan(value) or math.isinf(value):
            self.fail(field, f"expected a finite number, got {value!r}")
        return float(value)

    def integer(self, value: Any, field: str, lo: int, hi: int) -> int:
        """A whole number from ``lo`` to ``hi``."""
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, f"expected a whole number, got {value!r}")
        if not lo <= value <= hi:
            self.fail(field, f"must be between {lo} and {hi}, got {value}")
        return value

    def text(self, value: Any, field: str) -> str:
        """Some text, not blank."""
        if not isinstance(value, str) or not value.strip():
            self.fail(field, f"expected some text, got {value!r}")
        return value

    def tables(self, raw: Mapping[str, Any], name: str) -> list[tuple[Where, dict[str, Any]]]:
        """The ``[[name]]`` tables of ``raw`` (none if absent), each with where it stands
        (``name[i]``)."""
        entries = raw.get(name, [])
        if not isinstance(entries, list):
            self.fail(name, f"must be an array of [[{name}]] tables")
        out = []
        for i, entry in enumerate(entries):
            where = Where(self.file, f"{name}[{i}]")
            out.append((where, where.as_table(entry)))
        return out


def chart_files(path: str | Path) -> list[DataFile]:
    """A user's chart data: the ``*.toml`` files of a directory (sorted), or the one file."""
    p = Path(path)
    if p.is_dir():
        files: list[DataFile] = [(str(f), f.read_bytes) for f in sorted(p.glob("*.toml"))]
        if not files:
            raise RulesDataError(str(p), "charts", "", "the directory holds no .toml chart files")
        return files
    if p.is_file():
        return [(str(p), p.read_bytes)]
    raise RulesDataError(str(p), "charts", "", "no such chart file or directory")


def read_toml(name: str, read: Callable[[], bytes]) -> dict[str, Any]:
    """Parse one data file; bad TOML or bad UTF-8 raises :class:`RulesDataError`."""
    try:
        return tomllib.loads(read().decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(name, "(file)", "", f"not valid TOML: {exc}") from None


def read_toml_file(name: str, res: Traversable | Path) -> dict[str, Any]:
    """Parse one TOML file named ``name`` in messages; an unreadable file or bad TOML raises
    :class:`RulesDataError`."""
    try:
        with res.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise RulesDataError(name, "(file)", "", f"cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise RulesDataError(name, "(file)", "", f"not valid TOML: {exc}") from exc


def read_scenario_toml(path: Path) -> dict[str, Any]:
    """Parse a scenario file; an unreadable file or bad TOML raises ``ScenarioError`` naming it."""
    from battleline.errors import ScenarioError

    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read ({exc.strerror})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML ({exc})") from exc
