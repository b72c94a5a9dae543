"""The one source of randomness.

Every roll goes through a :class:`Dice` object, names its purpose, and is recorded as an
``EventKind.ROLL`` event when the dice are attached to an :class:`EventLog`. Nothing else in the
engine or a rule system may draw random numbers.

:class:`SeededDice` owns a numpy ``Generator`` seeded from a ``SeedSequence``; :class:`FixedDice`
plays a scripted sequence for tests and raises :class:`DiceExhausted` when a rule asks for more.

:func:`keyed_normals` derives values from the game seed and a key through a ``SeedSequence`` of
their own, outside the dice's draw sequence: the same seed and key always give the same values,
and asking for them never moves the dice (used where a value must be reproducible and stable,
such as the observation error of a side's view, yet must not change every battle's rolls).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Protocol, runtime_checkable

import numpy as np

from battleline.engine import seedmix
from battleline.engine.events import EventKind, EventLog
from battleline.errors import DiceExhausted

_BLOCK = 1024


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die rolled: its purpose, number of sides, result and position in the draw sequence."""

    purpose: str
    sides: int
    value: int
    index: int


@runtime_checkable
class Dice(Protocol):
    """What the rules need from dice."""

    log: EventLog | None
    draws: int

    def roll(self, sides: int, purpose: str, *, ship: str | None = None) -> int:
        """Roll one die with ``sides`` faces (1..sides) for ``purpose``."""
        ...

    def rolls(self, n: int, sides: int, purpose: str, *, ship: str | None = None) -> list[int]:
        """Roll ``n`` dice at once (a "set")."""
        ...

    def d6(self, purpose: str, *, ship: str | None = None) -> int:
        """Roll 1D6."""
        ...


class _DiceBase:
    """Shared recording logic: every value passes through :meth:`_record`.

    The history is kept as plain ``(purpose, sides, value, index)`` tuples, cheap to append on
    every roll; :attr:`history` builds the :class:`DieRoll` records when someone asks for them.
    """

    def __init__(self, log: EventLog | None = None) -> None:
        self.log = log
        self.draws = 0
        self._rolls: list[tuple[str, int, int, int]] = []

    @property
    def history(self) -> list[DieRoll]:
        """Every die rolled so far, oldest first."""
        return [DieRoll(*r) for r in self._rolls]

    def _next(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def _record(self, value: int, sides: int, purpose: str, ship: str | None) -> int:
        index = self.draws
        self.draws = index + 1
        self._rolls.append((purpose, sides, value, index))
        log = self.log
        if log is not None and (log.keep is None or EventKind.ROLL in log.keep):
            text = (
                f"{ship}: {purpose} rolls {value} (d{sides})"
                if ship
                else f"{purpose} rolls {value} (d{sides})"
            )
            log.emit(EventKind.ROLL, text, ship=ship, purpose=purpose, sides=sides, value=value)
        return value

    def roll(self, sides: int, purpose: str, *, ship: str | None = None) -> int:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        return self._record(self._next(sides), sides, purpose, ship)

    def rolls(self, n: int, sides: int, purpose: str, *, ship: str | None = None) -> list[int]:
        roll = self.roll
        return [roll(sides, purpose, ship=ship) for _ in range(n)]

    def d6(self, purpose: str, *, ship: str | None = None) -> int:
        return self.roll(6, purpose, ship=ship)


class SeededDice(_DiceBase):
    """Deterministic dice from a seed.

    Uniform floats are drawn from the generator in blocks (for speed) and mapped to die faces, so
    the same seed always gives the same sequence of faces whatever the die sizes asked for.
    """

    def __init__(self, seed: int | np.random.SeedSequence, log: EventLog | None = None) -> None:
        super().__init__(log)
        self.seed_sequence = (
            seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
        )
        self._rng = np.random.Generator(np.random.PCG64(self.seed_sequence))
        self._buffer: list[float] = []
        self._pos = 0

    @property
    def seed(self) -> int | Sequence[int] | None:
        """The entropy the dice were seeded with."""
        entropy = self.seed_sequence.entropy
        return entropy if isinstance(entropy, int) else None

    def _next(self, sides: int) -> int:
        pos = self._pos
        if pos >= len(self._buffer):
            self._buffer = self._rng.random(_BLOCK).tolist()
            pos = 0
        self._pos = pos + 1
        return 1 + int(self._buffer[pos] * sides)

    def roll(self, sides: int, purpose: str, *, ship: str | None = None) -> int:
        """One die; :meth:`_next` inlined, as this is the hottest call of a battle."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        pos = self._pos
        if pos >= len(self._buffer):
            self._buffer = self._rng.random(_BLOCK).tolist()
            pos = 0
        self._pos = pos + 1
        return self._record(1 + int(self._buffer[pos] * sides), sides, purpose, ship)

    def spawn(self, n: int) -> list[np.random.SeedSequence]:
        """Independent child seed sequences (for AI admirals or Monte Carlo runs)."""
        return self.seed_sequence.spawn(n)


class FixedDice(_DiceBase):
    """Scripted dice for tests: ``FixedDice([6, 3, 1])`` returns 6, then 3, then 1.

    A value larger than the die asked for is an error in the test script, reported at once.
    """

    def __init__(self, values: Iterable[int], log: EventLog | None = None) -> None:
        super().__init__(log)
        self._values = list(values)
        self._pos = 0

    def _next(self, sides: int) -> int:
        if self._pos >= len(self._values):
            raise DiceExhausted(
                f"scripted dice ran out after {len(self._values)} rolls "
                f"(a d{sides} was asked for one roll more)"
            )
        value = self._values[self._pos]
        self._pos += 1
        if not 1 <= value <= sides:
            raise ValueError(
                f"scripted value {value} at position {self._pos} does not fit a d{sides}"
            )
        return value

    @property
    def remaining(self) -> int:
        """Scripted values not yet used."""
        return len(self._values) - self._pos

    def push(self, *values: int) -> None:
        """Append more scripted values."""
        self._values.extend(values)

    def assert_consumed(self) -> None:
        """Fail if the script holds values no rule asked for."""
        if self.remaining:
            raise AssertionError(
                f"{self.remaining} scripted roll(s) never used: {self._values[self._pos :]}"
            )


_NORMAL = NormalDist()
_SPAN = float(2**53)


def _word(part: int | str) -> int:
    """A key part as a non-negative integer, the same on every machine and run."""
    if isinstance(part, str):
        return _text_word(part)
    return 2 * part if part >= 0 else -2 * part - 1


@lru_cache(maxsize=1024)
def _text_word(part: str) -> int:
    """:func:`_word` of a text: its BLAKE2b digest (pure, so cached: the same side and ship
    names recur in every key)."""
    return int.from_bytes(hashlib.blake2b(part.encode(), digest_size=8).digest(), "big")


@lru_cache(maxsize=8192)
def keyed_normals(seed: int, key: tuple[int | str, ...], n: int) -> tuple[float, ...]:
    """``n`` standard normal values derived from ``seed`` and ``key`` alone.

    They come from ``numpy.random.SeedSequence([seed, *key])``, so they are reproducible from
    the game seed, independent for different keys, and never draw from (or count as draws of)
    any :class:`Dice` object. A pure function, so cached.

    The sequence's state is worked out by :mod:`~battleline.engine.seedmix`, numpy's own mixing
    in plain Python, resumed from the mix of the key's prefix (:func:`_prefix_mix`): keys that
    differ only in their last part (the observation draws of one ship, turn after turn) share
    the rest of the work. The words are numpy's, bit for bit.
    """
    if key:
        state = _prefix_mix(seed, key[:-1])
        if state is not None:
            state = seedmix.extended(state, seedmix.uint32_words(_word(key[-1])))
    else:
        state = None
    if state is None:
        state = seedmix.mixed(_entropy_words(seed, key))
    inv_cdf = _NORMAL.inv_cdf
    return tuple(inv_cdf(((w >> 11) + 0.5) / _SPAN) for w in seedmix.state_uint64(state, n))


def _entropy_words(seed: int, key: tuple[int | str, ...]) -> list[int]:
    """The 32-bit entropy words ``SeedSequence([seed, *key])`` mixes (each part lowest first)."""
    words = seedmix.uint32_words(_word(seed))
    for part in key:
        words.extend(seedmix.uint32_words(_word(part)))
    return words


@lru_cache(maxsize=1024)
def _prefix_mix(seed: int, prefix: tuple[int | str, ...]) -> seedmix.Mixed | None:
    """The mix of ``seed`` and a key's ``prefix``, to be resumed with the key's last part:
    ``None`` when those are fewer words than the pool holds (then the whole key is mixed at
    once). A pure function, so cached."""
    words = _entropy_words(seed, prefix)
    if len(words) < seedmix.POOL_SIZE:
        return None
    return seedmix.mixed(words)
