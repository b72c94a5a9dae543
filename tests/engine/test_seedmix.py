"""The plain-Python SeedSequence mix (``engine/seedmix.py``) against numpy's, bit for bit."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battleline.engine import seedmix
from battleline.engine.dice import _word, keyed_normals

_words = st.lists(st.integers(0, 2**32 - 1), max_size=12)
_parts = st.one_of(st.integers(-(2**40), 2**40), st.text(max_size=12))


@settings(max_examples=300, deadline=None)
@given(_words, st.integers(1, 6))
def test_mixed_state_is_numpys(words: list[int], n: int) -> None:
    entropy = np.array(words, dtype=np.uint32) if words else 0
    expected = np.random.SeedSequence(entropy).generate_state(n, dtype=np.uint64)
    state = seedmix.mixed(words or [0])
    assert seedmix.state_uint64(state, n) == [int(w) for w in expected]


@settings(max_examples=200, deadline=None)
@given(_words.filter(lambda w: len(w) >= seedmix.POOL_SIZE), _words)
def test_extended_resumes_the_mix(head: list[int], tail: list[int]) -> None:
    assert seedmix.extended(seedmix.mixed(head), tail) == seedmix.mixed(head + tail)


@given(st.integers(0, 2**200))
def test_uint32_words_are_numpys(value: int) -> None:
    ours = seedmix.uint32_words(value)
    theirs = np.random.SeedSequence(value).entropy
    assert sum(w << (32 * i) for i, w in enumerate(ours)) == theirs
    assert len(ours) == max(1, (value.bit_length() + 31) // 32)


def _numpy_keyed_normals(seed: int, key: tuple[int | str, ...], n: int) -> tuple[float, ...]:
    """The reference: keyed_normals as it was, through numpy's SeedSequence."""
    entropy = [_word(seed), *(_word(k) for k in key)]
    words = np.random.SeedSequence(entropy).generate_state(n, dtype=np.uint64)
    span = float(2**53)
    return tuple(NormalDist().inv_cdf(((int(w) >> 11) + 0.5) / span) for w in words)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**64 - 1), st.lists(_parts, max_size=5).map(tuple), st.integers(1, 4))
def test_keyed_normals_are_the_numpy_draws(seed: int, key: tuple[int | str, ...], n: int) -> None:
    assert keyed_normals(seed, key, n) == _numpy_keyed_normals(seed, key, n)


def test_observation_keys_match_numpy() -> None:
    for seed in (0, 1, 2**63 + 12345, 2**64 - 1):
        for turn in (0, 1, 7, 40):
            key = ("observation", "China", "Dingyuan", turn)
            assert keyed_normals(seed, key, 3) == _numpy_keyed_normals(seed, key, 3)
