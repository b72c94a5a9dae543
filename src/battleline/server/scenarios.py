"""Where a web game's scenario comes from: a built-in name, or text the creator uploaded.

The server never opens a path a client names. A ``scenario`` that is not a built-in id is refused
with the list of ids, whatever it looks like (``/etc/passwd``, ``/dev/zero``, ``../x.toml``).
Uploaded text is bounded (:data:`MAX_SCENARIO_BYTES`), decoded strictly as UTF-8, parsed as TOML
and validated by the scenario schema before anything is stored; the text is kept in the database
with its game.

The engine takes a scenario as a built-in id or a file path, so an uploaded scenario is written
to a file the server owns, named by the SHA-256 of its text (:func:`materialize`): the same name
always holds the same bytes, and a deleted file is simply written again from the database.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from battleline.errors import BattlelineError

#: The largest scenario text accepted, in bytes of UTF-8.
MAX_SCENARIO_BYTES = 256 * 1024
#: The most ships an uploaded scenario may put on the table (the largest built-in has far fewer).
MAX_SHIPS = 120
#: How an uploaded scenario is named in the database and in the portable state hash.
UPLOAD_PREFIX = "upload-"


class ScenarioInputError(BattlelineError, ValueError):
    """A scenario reference or upload the server refuses (the message names field and reason)."""


@dataclass(frozen=True, slots=True)
class Upload:
    """A validated uploaded scenario: its text, the digest naming it, its id and title."""

    text: str
    digest: str
    scenario_id: str
    title: str

    @property
    def ref(self) -> str:
        """The logical name stored with the game (``upload-<sha256>``)."""
        return UPLOAD_PREFIX + self.digest


def builtin_names() -> list[str]:
    """The ids of the built-in scenarios of every ruleset, in their listing order."""
    from battleline.rulesets import builtin_scenarios

    return list(builtin_scenarios())


def builtin(name: str) -> str:
    """A built-in scenario id as given, or :class:`ScenarioInputError` listing every id.

    Nothing is opened: the name is only looked up among the built-ins.
    """
    names = builtin_names()
    if name in names:
        return name
    shown = name if len(name) <= 80 else name[:77] + "..."
    raise ScenarioInputError(
        f"scenario: {shown!r} is not a built-in scenario (the server never opens a path); "
        f"built-in: {', '.join(names)}; or send the scenario's TOML text as scenario_text"
    )


def decode(data: bytes) -> str:
    """Uploaded bytes → text: size-limited, strictly UTF-8, no NUL bytes."""
    if len(data) > MAX_SCENARIO_BYTES:
        raise ScenarioInputError(
            f"scenario_text: {len(data)} bytes is more than the limit of {MAX_SCENARIO_BYTES}"
        )
    if not data.strip():
        raise ScenarioInputError("scenario_text: empty")
    try:
        text = data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise ScenarioInputError(
            f"scenario_text: not UTF-8 text (byte {exc.start}: {exc.reason}); "
            "a scenario is a TOML text file"
        ) from None
    if "\x00" in text:
        raise ScenarioInputError(
            "scenario_text: contains NUL bytes; a scenario is a TOML text file"
        )
    return text


def encode(text: str) -> bytes:
    """Text received inside JSON → its UTF-8 bytes (lone surrogates refused)."""
    try:
        return text.encode("utf-8", errors="strict")
    except UnicodeEncodeError:
        raise ScenarioInputError(
            "scenario_text: holds characters that are not valid Unicode (lone surrogates)"
        ) from None


def validate(text: str) -> Upload:
    """Check uploaded text before anything is written: size, UTF-8, TOML, a known ruleset.

    The ruleset's own scenario schema is checked next, on the server's copy
    (:func:`battleline.server.adapter.check_scenario`), so its errors name the field.
    """
    from battleline.rulesets import canonical_name

    data = encode(text)
    decode(data)  # the same size and content checks as a raw upload
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioInputError(f"scenario_text: not valid TOML ({exc})") from None
    ruleset = raw.get("ruleset", "bf1900")
    try:
        canonical_name(ruleset if isinstance(ruleset, str) else "")
    except BattlelineError as exc:
        raise ScenarioInputError(f"scenario_text: ruleset: {exc}") from None
    ships = len(raw.get("ship", [])) if isinstance(raw.get("ship"), list) else 0
    for side in raw.get("sides", []) if isinstance(raw.get("sides"), list) else []:
        for div in side.get("divisions", []) if isinstance(side, dict) else []:
            ships += len(div.get("ships", [])) if isinstance(div, dict) else 0
    if ships > MAX_SHIPS:
        raise ScenarioInputError(
            f"scenario_text: {ships} ships is more than the limit of {MAX_SHIPS}"
        )
    return Upload(
        text, hashlib.sha256(data).hexdigest(), str(raw.get("id", "")), str(raw.get("title", ""))
    )


def default_folder() -> Path:
    """Where uploaded scenarios are written for the engine when no folder is configured."""
    base = os.environ.get("BATTLELINE_SCENARIO_DIR")
    if base:
        return Path(base)
    return Path(tempfile.gettempdir()) / f"battleline-scenarios-{os.getuid()}"


_verified: set[Path] = set()  # files this process has checked hold the text their name says


def _own_folder(folder: Path) -> None:
    """Make the folder if needed; refuse one another user could write into."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    st = folder.stat()
    if st.st_uid != os.getuid() or st.st_mode & 0o022:
        raise ScenarioInputError(
            f"{folder}: the scenario folder must belong to this user and be writable by no one "
            "else; set BATTLELINE_SCENARIO_DIR to a private folder"
        )


def materialize(folder: Path, digest: str, text: str) -> Path:
    """The server-owned file holding ``text``, (re)written atomically if missing or changed.

    The file name is the text's digest; a file found under that name is checked against it
    once per process, and written again if it does not match.
    """
    path = folder / f"{UPLOAD_PREFIX}{digest}.toml"
    if path in _verified and path.is_file():
        return path
    _own_folder(folder)
    try:
        if hashlib.sha256(path.read_bytes()).hexdigest() == digest:
            _verified.add(path)
            return path
    except OSError:
        pass  # missing: write it
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".writing-", suffix=".toml")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _verified.add(path)
    return path


def discard(folder: Path, digest: str) -> None:
    """Remove the file written for a text (an upload no game was made from)."""
    path = folder / f"{UPLOAD_PREFIX}{digest}.toml"
    _verified.discard(path)
    path.unlink(missing_ok=True)
