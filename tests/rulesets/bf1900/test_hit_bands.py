"""``tools/hit_bands.py``: hits per round by range band (issue 12 item 5, ``docs/history.md``).

The bands must add up to exactly what the simulator's tally counts for the same battle, so the
table explains the calibration's hit rates rather than a second count beside them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from types import ModuleType

import pytest


def _by_side_and_guns(counts: Counter[tuple[str, str, int]]) -> Counter[tuple[str, str]]:
    """A table's counts summed over the range bands."""
    out: Counter[tuple[str, str]] = Counter()
    for (side, guns, _band), n in counts.items():
        out[(side, guns)] += n
    return out


@pytest.mark.parametrize("scenario", ["cruiser-duel", "pungdo-1894"])
def test_the_bands_add_up_to_the_calibration_tally(
    scenario: str, project_tool: Callable[[str], ModuleType]
) -> None:
    bands = project_tool("hit_bands").count(scenario, 57, 1)
    record = project_tool("calibrate").play_one(scenario, 57, 0)
    rounds, hits = _by_side_and_guns(bands.rounds), _by_side_and_guns(bands.hits)
    tally = {(s, c): (r, h) for s, c, r, h in record.gunnery if c != "all"}
    assert tally, "the battle fired no rounds"
    assert sum(h for _, h in tally.values()) > 0, "the battle made no hits"
    assert {k: v for k, v in tally.items() if v != (0, 0)} == {
        k: (rounds[k], hits[k]) for k in set(rounds) | set(hits)
    }
    # Every band's hits come from rounds fired in that band, and a hit zone is within them.
    for key, n in bands.hits.items():
        assert n <= bands.in_zone[key] <= bands.rounds[key]
    assert bands.lines()[0].split()[:3] == ["side", "class", "band"]


def test_by_bore_the_bands_add_up_to_the_tallys_bores(
    project_tool: Callable[[str], ModuleType],
) -> None:
    """``--bores``: the rows by bore add up to the simulator's own bore counts
    (``BattleRecord.bores``), the evidence ``docs/history.md`` gives gun by gun."""
    bands = project_tool("hit_bands").count("pungdo-1894", 57, 1, by_bore=True)
    record = project_tool("calibrate").play_one("pungdo-1894", 57, 0)
    rounds, hits = _by_side_and_guns(bands.rounds), _by_side_and_guns(bands.hits)
    tally = {(s, b): (r, h) for s, b, r, h in record.bores if (r, h) != (0, 0)}
    assert len({b for _, b in tally}) > 1, "one bore only: nothing to tell apart"
    assert tally == {k: (rounds[k], hits[k]) for k in set(rounds) | set(hits)}
    assert bands.lines()[0].split()[:3] == ["side", "bore", "band"]


def test_a_bad_run_count_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], project_tool: Callable[[str], ModuleType]
) -> None:
    with pytest.raises(SystemExit) as stop:
        project_tool("hit_bands").main(["cruiser-duel", "--runs", "0"])
    assert stop.value.code == 2
    assert "--runs must be at least 1" in capsys.readouterr().err
