"""Issue 14 item 6: a 300-ton destroyer with 57 fires. Do the fire rules allow it?

BF6 sets no cap on the fires a ship may carry (BF6-DMG-04: each fire rolls once a turn; EX-BF6-04
counts six on one flagship), and every F code of a hit adds one. On the reconstructed chart a fire
goes out more often than it spreads (BF6-DMG-05: external XF on 3 faces, F on 1; internal XF on 2,
IF on 1), so fires die down by themselves; a ship reaches dozens only while dozens of hits keep
landing on her (the default demo: 67 hits on Framee in turn 3, 30 new fires). The number follows
the rules; what makes it odd is the number of hits, not the fire rules.
"""

from __future__ import annotations

from battleline.engine.events import EventLog
from battleline.rulesets.bf1900.charts import load_charts
from battleline.rulesets.bf1900.damage.codes import apply_codes
from battleline.rulesets.bf1900.damage.step1 import fire_and_flooding
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.testing import SeededDice
from conftest import destroyer

CHARTS = load_charts()


def test_the_fire_lines_put_out_more_fires_than_they_start() -> None:
    """BF6-DMG-05 on the reconstructed chart: per fire and turn, the external line puts one out
    on 3 faces and spreads on 1; the internal line puts one out on 2 and adds one on 1."""
    external = CHARTS.critical_lines["fire_external"]
    internal = CHARTS.critical_lines["fire_internal"]
    assert sum("XF" in c for c in external) == 3 and sum("F" in c for c in external) == 1
    assert sum("XF" in c for c in internal) == 2 and sum("IF" in c for c in internal) == 1


def test_57_fires_on_a_destroyer_die_down_when_no_more_hits_land() -> None:
    """A size-2 destroyer left alone with 57 external fires: Step One after Step One, with the
    game's dice, the fires fall (expected ×⅔ a turn: about 5 after six turns)."""
    log = ShipLog("Havock", destroyer(), "Blue")
    log.fires_external = 57
    dice = SeededDice(7)
    history = [log.fires]
    for _ in range(6):
        fire_and_flooding(log, CHARTS, dice, EventLog(), apply_codes)
        history.append(log.fires)
    assert history[-1] < 20
    assert all(later <= 57 for later in history)
