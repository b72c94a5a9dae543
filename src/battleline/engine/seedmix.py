"""numpy's ``SeedSequence`` entropy mixing in plain Python, resumable after a key's prefix.

:func:`~battleline.engine.dice.keyed_normals` derives its values from
``numpy.random.SeedSequence(entropy).generate_state(n, dtype=numpy.uint64)``. Building that
object costs about 20 µs, and the observation model asks for one per enemy ship, side and turn
whose entropy differs from the previous one only in its last word (the turn). This module does
the same 32-bit arithmetic as numpy's ``SeedSequence`` (``numpy/random/bit_generator.pyx``:
``hashmix``, ``mix``, ``mix_entropy``, ``generate_state``), word for word, so it gives the
same state words, bit for bit; ``tests/engine/test_seedmix.py`` compares the two on drawn
entropy.

The pool (four words) takes the first four entropy words, mixes them all together, and then
mixes each further word into every pool word. Once four words are in, the pool and the hash
constant are all that later words meet, so :func:`mixed` of a prefix of at least four words can
be resumed by :func:`extended` with the rest: the same pool numpy reaches for the whole entropy.
"""

from __future__ import annotations

from collections.abc import Sequence

#: numpy's constants (``bit_generator.pyx``).
_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_XSHIFT = 16
_MASK = 0xFFFFFFFF
POOL_SIZE = 4

#: The pool after some entropy words, and the hash constant the next word meets.
Mixed = tuple[tuple[int, int, int, int], int]


def uint32_words(value: int) -> list[int]:
    """A non-negative integer as numpy's ``SeedSequence`` reads it: 32-bit words, lowest first
    (``[0]`` for zero)."""
    if value < 0:
        raise ValueError(f"entropy must be non-negative, not {value}")
    if value == 0:
        return [0]
    out: list[int] = []
    while value:
        out.append(value & _MASK)
        value >>= 32
    return out


def _mix(x: int, y: int) -> int:
    result = (_MIX_MULT_L * x - _MIX_MULT_R * y) & _MASK
    return result ^ (result >> _XSHIFT)


def mixed(words: Sequence[int]) -> Mixed:
    """The pool and hash constant after mixing ``words`` (32-bit entropy words), as numpy's
    ``SeedSequence.mix_entropy`` leaves them."""
    const = _INIT_A
    pool = [0] * POOL_SIZE
    for i in range(POOL_SIZE):
        value = (words[i] if i < len(words) else 0) ^ const
        const = (const * _MULT_A) & _MASK
        value = (value * const) & _MASK
        pool[i] = value ^ (value >> _XSHIFT)
    for i_src in range(POOL_SIZE):
        for i_dst in range(POOL_SIZE):
            if i_src != i_dst:
                value = pool[i_src] ^ const
                const = (const * _MULT_A) & _MASK
                value = (value * const) & _MASK
                pool[i_dst] = _mix(pool[i_dst], value ^ (value >> _XSHIFT))
    a, b, c, d = pool
    return extended(((a, b, c, d), const), words[POOL_SIZE:])


def extended(state: Mixed, words: Sequence[int]) -> Mixed:
    """``state`` (:func:`mixed` of at least :data:`POOL_SIZE` words) with ``words`` mixed in
    after them: the same as :func:`mixed` of all the words together.

    Each word is hashed with the next four hash constants and mixed into the four pool words in
    turn; the four mixes are written out rather than called (this runs for every observation
    a side makes)."""
    pool, const = state
    a, b, c, d = pool
    mult, mask = _MULT_A, _MASK
    left, right = _MIX_MULT_L, _MIX_MULT_R
    for word in words:
        hashed = []
        for _ in range(POOL_SIZE):
            value = word ^ const
            const = (const * mult) & mask
            value = (value * const) & mask
            hashed.append(value ^ (value >> _XSHIFT))
        ha, hb, hc, hd = hashed
        a = (left * a - right * ha) & mask
        a ^= a >> _XSHIFT
        b = (left * b - right * hb) & mask
        b ^= b >> _XSHIFT
        c = (left * c - right * hc) & mask
        c ^= c >> _XSHIFT
        d = (left * d - right * hd) & mask
        d ^= d >> _XSHIFT
    return (a, b, c, d), const


def state_uint64(state: Mixed, n: int) -> list[int]:
    """``SeedSequence.generate_state(n, dtype=numpy.uint64)`` of the pool in ``state``, as
    Python integers: ``2 n`` 32-bit words, paired low word first."""
    pool = state[0]
    const = _INIT_B
    mult, mask = _MULT_B, _MASK
    out: list[int] = []
    low = 0
    for i in range(2 * n):
        value = pool[i % POOL_SIZE] ^ const
        const = (const * mult) & mask
        value = (value * const) & mask
        word = value ^ (value >> _XSHIFT)
        if i % 2:
            out.append(low | (word << 32))
        else:
            low = word
    return out


__all__ = ["POOL_SIZE", "Mixed", "extended", "mixed", "state_uint64", "uint32_words"]
