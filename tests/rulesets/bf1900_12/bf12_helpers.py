"""Shared builders for the 1D12 edition tests (not a conftest: names stay unique)."""

from __future__ import annotations

from battleline.engine.events import EventKind, EventLog
from battleline.rulesets.bf1900.damage.context import DamageContext
from battleline.rulesets.bf1900.hits import Ammo, Aspect, ShellSet
from battleline.rulesets.bf1900.ship import GunClass, ShipClass
from battleline.rulesets.bf1900.shipdb import get_ship_class
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.rulesets.bf1900_12.charts import load_charts
from battleline.rulesets.bf1900_12.damage import context
from battleline.testing import FixedDice

CHARTS = load_charts()


def mikasa_class() -> ShipClass:
    """Mikasa on the 1D12 scale: size 55, armour 12-9, main A and Z (shell size 60), 14
    secondaries in beam pattern 1, tertiaries and boat guns in pattern 0."""
    from battleline.rulesets.bf1900_12.edition import to_1d12

    return to_1d12(get_ship_class("Mikasa"))


def mikasa(name: str = "Mikasa") -> ShipLog:
    """A fresh 1D12 Mikasa log."""
    return ShipLog(name, mikasa_class(), "Red")


def ctx(
    dice: FixedDice,
    events: EventLog | None = None,
    aspect: Aspect | None = Aspect.PORT,
    weapon_size: float | None = 60.0,
    cause: str = "shell",
) -> DamageContext:
    """A 1D12 damage context over scripted dice."""
    return context(
        CHARTS,
        dice,
        events if events is not None else EventLog(),
        aspect=aspect,
        weapon_size=weapon_size,
        cause=cause,
    )


def shells(
    firer: str,
    target: str,
    *,
    mounting: str = "A",
    rounds: int = 2,
    penetration: int = 14,
    calibre_cm: float = 30.5,
    shell_size: int = 60,
    gun_class: GunClass = GunClass.MAIN,
    aspect: Aspect = Aspect.PORT,
) -> ShellSet:
    """Rounds that landed in a hit zone (the ammunition is irrelevant in this edition)."""
    return ShellSet(
        firer=firer,
        target=target,
        mounting=mounting,
        gun_class=gun_class,
        calibre_cm=calibre_cm,
        rounds=rounds,
        ammo=Ammo.AP,
        penetration=penetration,
        bracket=2,
        shell_size=shell_size,
        aspect=aspect,
    )


def kinds(events: EventLog, kind: EventKind) -> list[str]:
    """The texts of the events of one kind."""
    return [e.text for e in events.events if e.kind is kind]
