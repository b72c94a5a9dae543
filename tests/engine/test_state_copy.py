"""The game state's copy: ``copy_extra`` is ``deepcopy`` for JSON-like data, and a state's copy
shares nothing the resolvers change in place (architecture.md, "State and copies")."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from battleline.engine.state import copy_extra, state_hash
from battleline.game import new_game
from battleline.rulesets.bf1900.state import Bf1900State

SCENARIO = "cruiser-duel"

json_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
json_values = st.recursive(
    json_leaves,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        | st.tuples(inner, inner)
    ),
    max_leaves=20,
)
extras = st.dictionaries(st.text(max_size=8), json_values, max_size=5)


def _same_shape(a: Any, b: Any) -> None:
    """Equal, same types all the way down, and no mutable container shared."""
    assert type(a) is type(b)
    if isinstance(a, dict | list):
        assert a is not b
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _same_shape(a[k], b[k])
    elif isinstance(a, list | tuple):
        for x, y in zip(a, b, strict=True):
            _same_shape(x, y)
    else:
        assert a == b


@given(extras)
def test_copy_extra_equals_deepcopy(extra: dict[str, Any]) -> None:
    """Whatever JSON-like data a ruleset keeps in ``extra``, the copy is ``deepcopy``'s."""
    new = copy_extra(extra)
    assert new == copy.deepcopy(extra)
    _same_shape(extra, new)


def test_copy_extra_keeps_sharing_as_deepcopy_does() -> None:
    """A dict or list met twice is copied once, so the copy shares it the same way."""
    inner = {"a": [1, 2]}
    listed = [inner]
    extra: dict[str, Any] = {"x": inner, "y": inner, "z": listed, "w": listed, "v": [inner]}
    new = copy_extra(extra)
    assert new["x"] is new["y"] is new["v"][0] is new["z"][0]
    assert new["z"] is new["w"]
    assert new["x"] is not inner
    assert new == copy.deepcopy(extra)


def test_copy_extra_of_a_dict_subclass_is_deepcopy() -> None:
    """Anything but a plain dict goes to ``copy.deepcopy`` as it is."""
    from collections import OrderedDict

    extra: dict[str, Any] = OrderedDict(a={"b": 1})
    new = copy_extra(extra)
    assert type(new) is OrderedDict and new == extra and new["a"] is not extra["a"]


def test_state_copy_is_independent_of_the_original() -> None:
    """Changing every mutable part of the copy leaves the original (and its hash) untouched."""
    game = new_game(SCENARIO, 3)
    state = game.state
    state.extra["ruleset"] = {"counts": [1, 2], "flag": True}
    before = state_hash(state)
    new = state.copy()
    assert state_hash(new) == before
    name = next(iter(new.logs))
    new.logs[name].fires_external += 2
    new.logs[name].compartments[next(iter(new.logs[name].compartments))].contained = True
    new.poses.pop(name)
    new.tracks[name].append((1.0, 2.0))
    new.moved_last_m[name] = 1.0
    new.extra["ruleset"]["counts"].append(3)
    new.shell_sets.append(None)  # type: ignore[arg-type]
    new.torpedo_hits.append(None)  # type: ignore[arg-type]
    assert state_hash(state) == before
    assert state.extra["ruleset"] == {"counts": [1, 2], "flag": True}


def test_state_copy_has_every_field_of_the_original() -> None:
    """The slot-by-slot copy (no ``__init__``) sets every field: equal to the original, field by
    field, and equal to ``copy.deepcopy`` (ship classes aside, which it shares)."""
    game = new_game(SCENARIO, 5)
    game.state.extra["ruleset"] = {"counts": [1, 2]}
    new = game.state.copy()
    for f in dataclasses.fields(Bf1900State):
        assert getattr(new, f.name) == getattr(game.state, f.name), f.name
    assert new == copy.deepcopy(game.state)
    assert all(new.logs[n].cls is log.cls for n, log in game.state.logs.items())
