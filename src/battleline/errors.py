"""Errors raised by battleline, one family per layer.

Every error message is written for a player: it names the file, ship, order or field at fault and
the reason. Front ends print ``str(error)`` and never a traceback.
"""

from __future__ import annotations


class BattlelineError(Exception):
    """Base class of every error battleline raises on purpose."""


class RulesDataError(BattlelineError, ValueError):
    """A chart, scale or ship data file is malformed.

    The message names the file, the table and the field.
    """

    def __init__(self, file: str, table: str, field: str, reason: str) -> None:
        self.file = file
        self.table = table
        self.field = field
        self.reason = reason
        where = f"{file}: table {table!r}" + (f", field {field!r}" if field else "")
        super().__init__(f"{where}: {reason}")


class ScenarioError(BattlelineError, ValueError):
    """A scenario file is malformed; the message names the field."""


class RulesetError(ScenarioError):
    """A scenario needs a part of the rules its ruleset lacks (TGD has no torpedoes, DBA no land).

    A subclass of :class:`ScenarioError` because it is the scenario that cannot be played as
    written: every front end that reports a bad scenario (one line, a 422) reports this too, and
    the message names the field or side and the ruleset that lacks the part.
    """


class UnknownNameError(BattlelineError, LookupError):
    """A ship class, scenario, ruleset or game id does not exist."""

    def __init__(self, kind: str, name: str, known: list[str] | None = None) -> None:
        hint = ""
        if known:
            close = [k for k in known if name.lower() in k.lower() or k.lower() in name.lower()]
            if close:
                hint = f"; did you mean {', '.join(close[:5])}?"
            else:
                hint = f"; try one of {', '.join(sorted(known)[:8])}"
        super().__init__(f"unknown {kind} {name!r}{hint}")
        self.kind = kind
        self.name = name


class OrderSyntaxError(BattlelineError, ValueError):
    """An order's text does not parse. No game state is needed to raise it."""


class IllegalOrderError(BattlelineError, ValueError):
    """An order parses but breaks a rule in the current state.

    The message names the turn, phase, ship or division, and the rule ID.
    """


class DiceExhausted(BattlelineError):
    """A scripted dice sequence ran out: a rule asked for one roll more than the test scripted."""
