"""Reading DBA data files (Annex A, the core tables): packaged or a user's own, TOML that says
whether its values are ``reconstructed``. Any fault raises :class:`RulesDataError` naming the
file."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from battleline.errors import RulesDataError


def packaged_bytes(name: str) -> bytes:
    """The bytes of a data file shipped in ``battleline/rulesets/dba/data``."""
    return resources.files("battleline.rulesets.dba").joinpath("data", name).read_bytes()


def user_file(path: str | Path) -> tuple[bytes, str]:
    """A user's data file: its bytes and its name for messages."""
    p = Path(path)
    try:
        return p.read_bytes(), str(p)
    except OSError as exc:
        raise RulesDataError(str(p), "", "", f"cannot read: {exc.strerror}") from None


def parse_data(data: bytes, file: str) -> dict[str, Any]:
    """Parse a data file's TOML; it must say ``reconstructed = true`` or ``false``."""
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesDataError(file, "", "", f"not valid TOML: {exc}") from None
    if not isinstance(doc.get("reconstructed"), bool):
        raise RulesDataError(file, "", "reconstructed", "say reconstructed = true or false")
    return doc
