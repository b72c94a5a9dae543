"""Fixture examples of the seeds: real classes and scales named as illustrations."""

from __future__ import annotations

from battleline.rulesets.bf1900.scales import load_scales
from battleline.rulesets.bf1900.ship import ShipType
from battleline.rulesets.bf1900.shipdb import get_ship_class


def test_EX_BF12_07_borodino_battleships_at_1_6000() -> None:
    """EX-BF12-07: three Borodino-class battleships in 1/6000 scale can be set up."""
    borodino = get_ship_class("Borodino")
    assert borodino.type is ShipType.BATTLESHIP
    assert borodino.navy.lower().startswith("russia")
    assert len(borodino.ships) >= 3
    assert any("6000" in scale.model_scale for scale in load_scales().values())
