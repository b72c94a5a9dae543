"""Session files shared by the table-assist referees (tabletop BF 1900, TGD).

A session is one JSON object written atomically, headed by its format name and version. A
:class:`SessionFile` describes one kind of session file: it saves a session, and loads one back
checking the header, so that every malformed field is an error naming the file and the field.
:func:`command_dice` rebuilds the dice from the seed and the number of dice already drawn, so a
saved game continues exactly as an unbroken one would.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Generic, Self, TypeVar, cast

from battleline.engine.dice import Dice, SeededDice
from battleline.engine.events import EventLog
from battleline.errors import BattlelineError

T = TypeVar("T")


def write_atomic(path: str | Path, data: bytes, error: type[BattlelineError]) -> None:
    """Write ``data`` to ``path`` atomically: a crash never leaves half a file.

    A folder that cannot be written raises ``error`` naming the file.
    """
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise error(f"{target}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def save_json_atomic(
    path: str | Path, data: Mapping[str, Any], error: type[BattlelineError]
) -> None:
    """Write ``data`` as indented UTF-8 JSON with :func:`write_atomic`."""
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    write_atomic(path, text.encode("utf-8"), error)


def load_json_object(
    path: str | Path, error: type[BattlelineError], *, kind: str, missing: str
) -> dict[str, Any]:
    """Read a JSON object; a missing, unreadable or malformed file raises ``error``.

    ``missing`` says what a missing file is (``"no such TGD session file"``); ``kind`` names
    what a JSON value other than an object is not (``"TGD session"``).
    """
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{p}: {missing}") from None
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{p}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise error(f"{p}: not a battleline {kind}")
    return data


def replay_dice(seed: int, draws: int, events: EventLog) -> SeededDice:
    """Seeded dice advanced past the ``draws`` already made, narrating into ``events``."""
    dice = SeededDice(seed)
    for _ in range(draws):
        dice.roll(6, "replay")  # skip the dice earlier turns used
    dice.log = events
    return dice


@dataclass(slots=True)
class CommandDice:
    """The dice of one session command and the events they narrate into.

    ``used`` is how many dice the command has drawn so far; the session adds it to its count.
    """

    dice: Dice
    events: EventLog
    start: int

    @property
    def used(self) -> int:
        """Dice drawn since the command began."""
        return self.dice.draws - self.start


def command_dice(
    seed: int, draws: int, *, turn: int, phase: str, given: Dice | None = None
) -> CommandDice:
    """Dice for one command, narrating into a fresh log of ``turn`` and ``phase``.

    Without ``given`` they are the session's seeded dice advanced past its ``draws``; ``given``
    dice (the players' own rolls, or ``FixedDice`` in tests) replace them and are counted alike.
    """
    events = EventLog()
    events.turn, events.phase = turn, phase
    if given is None:
        dice: Dice = replay_dice(seed, draws, events)
    else:
        dice = given
        dice.log = events
    return CommandDice(dice, events, dice.draws)


@dataclass(frozen=True, slots=True)
class FileReader:
    """One session file being read: its data, and errors that name the file and the field."""

    data: Mapping[str, Any]
    source: str
    error: type[BattlelineError]
    counter: str

    def fail(self, field_name: str, reason: str) -> BattlelineError:
        """The error for ``field_name`` of this file."""
        return self.error(f"{self.source}: field {field_name!r}: {reason}")

    @contextmanager
    def field(self, field_name: str) -> Iterator[None]:
        """Any error raised in the block is reported against ``field_name``."""
        try:
            yield
        except self.error:
            raise
        except KeyError:
            raise self.fail(field_name, "missing") from None
        except (BattlelineError, ValueError, TypeError) as exc:
            raise self.fail(field_name, str(exc)) from None

    def counts(self) -> tuple[int, int, int]:
        """The seed, the dice drawn so far and the session's counter (turn or fire phase)."""
        out = []
        for name, least in (("seed", 0), ("draws", 0), (self.counter, 1)):
            if name not in self.data:
                raise self.fail(name, "missing")
            value = self.data[name]
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise self.fail(
                    name,
                    f"{value!r}: the {self.counter} must be 1 or more, "
                    "the seed and draws 0 or more",
                )
            out.append(value)
        return out[0], out[1], out[2]


@dataclass(frozen=True, slots=True)
class SessionFile(Generic[T]):
    """One kind of session file: its format name and version, and how a session is written.

    ``encode`` gives a session's fields after the header; ``decode`` rebuilds a session from a
    :class:`FileReader` (``reader.field(...)`` and ``reader.counts()`` name what is wrong).
    ``kind`` names the session in messages (``"TGD session"``), ``counter`` is the field that
    counts its turns or phases.
    """

    format: str
    version: int
    kind: str
    counter: str
    error: type[BattlelineError]
    encode: Callable[[T], Mapping[str, Any]]
    decode: Callable[[FileReader], T]
    missing: str = "no such session file"

    def to_dict(self, session: T) -> dict[str, Any]:
        """The session as plain JSON, the format and version first."""
        return {"format": self.format, "version": self.version, **self.encode(session)}

    def from_dict(self, data: Mapping[str, Any], source: str = "session") -> T:
        """Rebuild a session; a wrong header or malformed field raises ``error`` naming
        ``source`` and the field."""
        reader = FileReader(data, source, self.error, self.counter)
        if data.get("format") != self.format:
            raise reader.fail("format", f"not a battleline {self.kind} (expected {self.format!r})")
        if data.get("version") != self.version:
            raise reader.fail(
                "version", f"version {data.get('version')!r} is not supported ({self.version})"
            )
        try:
            return self.decode(reader)
        except self.error:
            raise
        except KeyError as exc:
            raise reader.fail(str(exc.args[0]), "missing") from None
        except (BattlelineError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise reader.fail("(file)", f"malformed: {exc}") from None

    def save(self, session: T, path: str | Path) -> None:
        """Write the session as JSON, atomically: a crash never leaves half a file."""
        save_json_atomic(path, self.to_dict(session), self.error)

    def load(self, path: str | Path) -> T:
        """Read a session file; a missing or malformed one raises ``error`` naming the file."""
        data = load_json_object(path, self.error, kind=self.kind, missing=self.missing)
        return self.from_dict(data, str(Path(path)))


class SavedSession:
    """Base of a session class whose file is its ``session_file``: ``to_dict``, ``from_dict``,
    ``save`` and ``load`` all go through that one :class:`SessionFile`."""

    session_file: ClassVar[SessionFile[Any]]

    def to_dict(self) -> dict[str, Any]:
        """The session as plain JSON, the format and version first."""
        return self.session_file.to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "session") -> Self:
        """Rebuild a session; a wrong header or malformed field raises the file's error naming
        ``source`` and the field."""
        return cast(Self, cls.session_file.from_dict(data, source))

    def save(self, path: str | Path) -> None:
        """Write the session as JSON, atomically: a crash never leaves half a file."""
        self.session_file.save(self, path)

    @classmethod
    def load(cls, path: str | Path) -> Self:
        """Read a session file; a missing or malformed one raises the file's error."""
        return cast(Self, cls.session_file.load(path))
