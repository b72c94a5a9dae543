"""The data a bf1900 game is played with, loaded once and cached: its scale, its land, and the
combat charts (the packaged ones, or a user's file named with :func:`use_charts`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from battleline.rulesets.bf1900.charts import Charts, load_charts
from battleline.rulesets.bf1900.scales import Scale, get_scale
from battleline.rulesets.bf1900.scenario import get_scenario
from battleline.rulesets.bf1900.state import Bf1900State
from battleline.rulesets.bf1900.table import Land


@lru_cache(maxsize=8)
def scale_named(name: str) -> Scale:
    """The named game scale (``data/scales.toml``), cached."""
    return get_scale(name)


@lru_cache(maxsize=64)
def _land(scenario: str) -> tuple[Land, ...]:
    sc = get_scenario(scenario)
    return tuple(Land.from_coords(p.name, p.points) for p in sc.land)


#: A user's chart file or folder in place of the packaged charts (see :func:`use_charts`).
_USER_CHARTS: list[Charts] = []


def charts_in_play() -> Charts:
    """The combat charts this process plays with: a user's (:func:`use_charts`) or the packaged."""
    return _USER_CHARTS[0] if _USER_CHARTS else load_charts()


def use_charts(path: str | Path | None) -> Charts:
    """Play this process's games with the charts in ``path`` (a file or a folder of ``.toml``
    files, validated now: a bad file raises :class:`RulesDataError` naming file, table and
    field); ``None`` goes back to the packaged charts (cached by ``load_charts``)."""
    charts = load_charts(path)
    _USER_CHARTS.clear()
    if path is not None:
        _USER_CHARTS.append(charts)
    return charts


def scale_of(state: Bf1900State) -> Scale:
    """The game's :class:`~battleline.rulesets.bf1900.scales.Scale`."""
    return scale_named(state.scale)


def land_of(state: Bf1900State) -> tuple[Land, ...]:
    """The scenario's land as ``table.Land`` pieces."""
    return _land(state.scenario)
