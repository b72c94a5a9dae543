"""Helpers for tests of battleline and of rulesets built on it."""

from battleline.engine.dice import FixedDice, SeededDice
from battleline.errors import DiceExhausted

__all__ = ["DiceExhausted", "FixedDice", "SeededDice"]
