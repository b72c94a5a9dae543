"""The text notation of Command Phase orders (BF6-CMD-01..32), read and written alike.

On the table a division commander draws arrows and dots in the gunnery log's command column and
writes fleet messages on slips of paper. battleline writes each of those as a short token that
parses and prints back to the same text (python-chess style: ``Order.parse(text)`` and
``str(order)``). See ``docs/orders.md``.

========================  ============================================================
text                      meaning
========================  ============================================================
``TS90S``                 turn in succession 90° to starboard (single-line arrow)
``TT45P``                 turn together (simultaneous) 45° to port (double-line arrow)
``STOP``                  stop dead after the minimum movement (the dot)
``SPD12``, ``SPD12.5``    steam at this many knots this turn
``SIG ENGAGE``            a fleet message; ``SIG TURN16 S`` / ``SIG TURN8 P`` take a side
``DROP Kaiser [P|S]``     that ship drops out of its division, turning out to that side
``FLAG "Fuji Maru"``      voluntary transfer of the division flag to that ship
========================  ============================================================

Several orders are separated by spaces or commas and run left to right (BF6-CMD-15):

>>> parse_orders("SPD14, TS90S TT45P")
(Order.parse('SPD14'), Order.parse('TS90S'), Order.parse('TT45P'))
>>> format_orders(parse_orders("spd14,ts90s"))
'SPD14 TS90S'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from battleline.errors import OrderSyntaxError

#: Largest speed an order may name, in knots (no ship of the era came near it).
MAX_KNOTS = 60.0

_TOKEN = re.compile(r'"([^"]*)"|([^\s,"]+)|(")')
_BARE_NAME = re.compile(r'[^\s,"]+')


class Direction(StrEnum):
    """The side an arrow points to (BF6-CMD-07)."""

    PORT = "P"
    STARBOARD = "S"

    @property
    def sign(self) -> int:
        """+1 for starboard (clockwise), −1 for port."""
        return 1 if self is Direction.STARBOARD else -1


class Arrow(StrEnum):
    """The arrow class a turn needs, by the total turn of one arrow (BF6-CMD-06, AMB-01/02)."""

    NONE = "no arrow"
    FORTY_FIVE = "45° arrow"
    HORIZONTAL = "horizontal arrow"


def arrow_class(turn_deg: float) -> Arrow:
    """The arrow a total turn of ``turn_deg`` needs (BF6-CMD-06; EX-DRV-01).

    >>> [arrow_class(d).name for d in (44, 45, 89, 90)]
    ['NONE', 'FORTY_FIVE', 'FORTY_FIVE', 'HORIZONTAL']
    """
    turn = abs(turn_deg)
    if turn < 45.0:
        return Arrow.NONE
    if turn < 90.0:
        return Arrow.FORTY_FIVE
    return Arrow.HORIZONTAL


class FleetMessage(StrEnum):
    """The seven recommended fleet messages (BF6-CMD-25..32)."""

    ENGAGE = "ENGAGE"  # Engage Enemy (BF6-CMD-26)
    TURN16 = "TURN16"  # Turn 16 points together (BF6-CMD-27)
    TURN8 = "TURN8"  # Turn 8 points together (BF6-CMD-28)
    FOLLOW = "FOLLOW"  # Follow Me (BF6-CMD-29)
    TORPEDO = "TORPEDO"  # Torpedo Attack (BF6-CMD-30)
    RECALL = "RECALL"  # Recall (BF6-CMD-31)
    SURRENDER = "SURRENDER"  # We Surrender (BF6-CMD-32)

    @property
    def wording(self) -> str:
        """The message as a signal officer would write it."""
        return _MESSAGE_TITLES[self]

    @property
    def turn_deg(self) -> int | None:
        """The simultaneous turn a fleet turn message orders: 16 points = 180°, 8 points = 90°."""
        return {FleetMessage.TURN16: 180, FleetMessage.TURN8: 90}.get(self)


_MESSAGE_TITLES = {
    FleetMessage.ENGAGE: "Engage Enemy",
    FleetMessage.TURN16: "Turn 16 points together",
    FleetMessage.TURN8: "Turn 8 points together",
    FleetMessage.FOLLOW: "Follow Me",
    FleetMessage.TORPEDO: "Torpedo Attack",
    FleetMessage.RECALL: "Recall",
    FleetMessage.SURRENDER: "We Surrender",
}


def _syntax(text: str, reason: str) -> OrderSyntaxError:
    return OrderSyntaxError(f"cannot read order {text!r}: {reason}")


def _quote(name: str) -> str:
    return name if _BARE_NAME.fullmatch(name) else f'"{name}"'


def _check_ship_name(name: str) -> None:
    if not name.strip() or '"' in name or name != name.strip():
        raise OrderSyntaxError(f"not a usable ship name in an order: {name!r}")


@dataclass(frozen=True, slots=True, repr=False)
class Order:
    """Base of every order. ``Order.parse(text)`` reads one order; ``str(order)`` writes it."""

    #: True for orders that steer or pace a division (the arrows, dot and speed); False for
    #: fleet messages and command declarations, which are not "other orders" for BF6-CMD-14.
    movement: ClassVar[bool] = False

    @staticmethod
    def parse(text: str) -> Order:
        """Read exactly one order.

        >>> Order.parse("ts90s")
        Order.parse('TS90S')
        >>> Order.parse('SIG TURN8 P').message.wording
        'Turn 8 points together'
        """
        orders = parse_orders(text)
        if len(orders) != 1:
            raise _syntax(text, f"expected one order, found {len(orders)}")
        return orders[0]

    def __repr__(self) -> str:
        return f"Order.parse({str(self)!r})"


@dataclass(frozen=True, slots=True, repr=False)
class _Turn(Order):
    degrees: int
    direction: Direction
    code: ClassVar[str] = ""
    movement: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not 1 <= self.degrees <= 360:
            raise OrderSyntaxError(f"a turn must be 1 to 360 degrees, not {self.degrees!r}")

    @property
    def signed_deg(self) -> int:
        """The turn, + to starboard (clockwise), − to port."""
        return self.degrees * self.direction.sign

    @property
    def arrow(self) -> Arrow:
        """The arrow class this turn is drawn with (BF6-CMD-06)."""
        return arrow_class(self.degrees)

    def __str__(self) -> str:
        return f"{self.code}{self.degrees}{self.direction.value}"


@dataclass(frozen=True, slots=True, repr=False)
class TurnInSuccession(_Turn):
    """Turn in succession, the single-line arrow (BF6-CMD-05): ``TS90S``.

    >>> o = Order.parse("TS90S"); (o.signed_deg, o.arrow.name)
    (90, 'HORIZONTAL')
    """

    code: ClassVar[str] = "TS"


@dataclass(frozen=True, slots=True, repr=False)
class TurnTogether(_Turn):
    """Simultaneous turn, the double-line arrow (BF6-CMD-08): ``TT45P``.

    >>> Order.parse("TT45P").signed_deg
    -45
    """

    code: ClassVar[str] = "TT"


@dataclass(frozen=True, slots=True, repr=False)
class Stop(Order):
    """Stop dead after the minimum movement, the dot (BF6-CMD-13): ``STOP``."""

    movement: ClassVar[bool] = True

    def __str__(self) -> str:
        return "STOP"


@dataclass(frozen=True, slots=True, repr=False)
class SetSpeed(Order):
    """Steam at ``knots`` this turn (BF6-MOV-01..03): ``SPD12`` or ``SPD12.5``.

    >>> Order.parse("SPD12.50").knots
    12.5
    """

    knots: float
    movement: ClassVar[bool] = True

    def __post_init__(self) -> None:
        if not 0.0 <= self.knots <= MAX_KNOTS or round(self.knots, 1) != self.knots:
            raise OrderSyntaxError(
                f"a speed must be 0 to {MAX_KNOTS:g} knots in tenths, not {self.knots!r}"
            )

    def __str__(self) -> str:
        return f"SPD{self.knots:g}"


@dataclass(frozen=True, slots=True, repr=False)
class Signal(Order):
    """A fleet message (BF6-CMD-03, BF6-CMD-25..32): ``SIG ENGAGE``, ``SIG TURN16 S``.

    The two fleet turns must name a side (BF6-CMD-27/28); the other messages take none.
    """

    message: FleetMessage
    direction: Direction | None = None

    def __post_init__(self) -> None:
        needs = self.message.turn_deg is not None
        if needs and self.direction is None:
            raise OrderSyntaxError(f"'SIG {self.message}' must name a side, P or S (BF6-CMD-27/28)")
        if not needs and self.direction is not None:
            raise OrderSyntaxError(f"'SIG {self.message}' takes no side")

    def __str__(self) -> str:
        side = f" {self.direction.value}" if self.direction is not None else ""
        return f"SIG {self.message.value}{side}"


@dataclass(frozen=True, slots=True, repr=False)
class DropOut(Order):
    """Declare that ``ship`` drops out of its division (BF6-CMD-16/17): ``DROP Kaiser``.

    The ship turns out of the line in the same move; ``DROP Kaiser P`` names the side (the
    default is starboard).

    >>> Order.parse("DROP Kaiser p").side
    <Direction.PORT: 'P'>
    """

    ship: str
    side: Direction | None = None

    def __post_init__(self) -> None:
        _check_ship_name(self.ship)

    @property
    def turn_out(self) -> Direction:
        """The side the ship turns out to."""
        return self.side or Direction.STARBOARD

    def __str__(self) -> str:
        side = f" {self.side.value}" if self.side is not None else ""
        return f"DROP {_quote(self.ship)}{side}"


@dataclass(frozen=True, slots=True, repr=False)
class TransferFlag(Order):
    """Voluntary transfer of the division's flag to ``ship`` (BF6-CMD-19): ``FLAG Fuji``."""

    ship: str

    def __post_init__(self) -> None:
        _check_ship_name(self.ship)

    def __str__(self) -> str:
        return f"FLAG {_quote(self.ship)}"


_TURN = re.compile(r"(TS|TT)(\d{1,3})([PS])")
_SPEED = re.compile(r"SPD(\d{1,2}(?:\.\d+)?)")


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Split into (token, was_quoted) pairs; commas and whitespace separate."""
    out: list[tuple[str, bool]] = []
    for m in _TOKEN.finditer(text):
        if m.group(3) is not None:
            raise _syntax(text, "unbalanced double quote")
        if m.group(1) is not None:
            out.append((m.group(1), True))
        else:
            out.append((m.group(2), False))
    return out


def _direction(text: str, token: str) -> Direction:
    try:
        return Direction(token.upper())
    except ValueError:
        raise _syntax(text, f"expected a side P or S, found {token!r}") from None


def _signal(text: str, tokens: list[tuple[str, bool]], i: int) -> tuple[Signal, int]:
    if i >= len(tokens):
        raise _syntax(text, "SIG needs a message, e.g. SIG ENGAGE")
    word = tokens[i][0].upper()
    glued = re.fullmatch(r"(TURN16|TURN8)([PS])", word)
    if glued:
        return Signal(FleetMessage(glued.group(1)), Direction(glued.group(2))), i + 1
    try:
        message = FleetMessage(word)
    except ValueError:
        known = ", ".join(m.value for m in FleetMessage)
        raise _syntax(text, f"unknown fleet message {tokens[i][0]!r}; try {known}") from None
    if message.turn_deg is None:
        return Signal(message), i + 1
    if i + 1 >= len(tokens):
        raise _syntax(text, f"SIG {message} must name a side, P or S (BF6-CMD-27/28)")
    return Signal(message, _direction(text, tokens[i + 1][0])), i + 2


def parse_orders(text: str) -> tuple[Order, ...]:
    """Read a list of orders, in the order written (BF6-CMD-15). Empty text is no order.

    >>> parse_orders('DROP "Kaiser Friedrich III", SIG TURN16 S')
    (Order.parse('DROP "Kaiser Friedrich III"'), Order.parse('SIG TURN16 S'))
    >>> parse_orders("TS90X")
    Traceback (most recent call last):
    ...
    battleline.errors.OrderSyntaxError: cannot read order 'TS90X': unknown token 'TS90X'
    """
    tokens = _tokens(text)
    orders: list[Order] = []
    i = 0
    while i < len(tokens):
        token, quoted = tokens[i]
        word = token.upper()
        if quoted:
            raise _syntax(text, f"a quoted name {token!r} must follow DROP or FLAG")
        if word in ("DROP", "FLAG"):
            if i + 1 >= len(tokens):
                raise _syntax(text, f"{word} needs a ship name")
            name = tokens[i + 1][0]
            i += 2
            side: Direction | None = None
            after = tokens[i] if i < len(tokens) else ("", True)
            if word == "DROP" and not after[1] and after[0].upper() in ("P", "S"):
                side = Direction(after[0].upper())
                i += 1
            try:
                orders.append(DropOut(name, side) if word == "DROP" else TransferFlag(name))
            except OrderSyntaxError as exc:
                raise _syntax(text, str(exc)) from None
            continue
        if word == "SIG":
            try:
                signal, i = _signal(text, tokens, i + 1)
            except OrderSyntaxError as exc:
                if str(exc).startswith("cannot read order"):
                    raise
                raise _syntax(text, str(exc)) from None
            orders.append(signal)
            continue
        orders.append(_simple(text, token, word))
        i += 1
    return tuple(orders)


def _simple(text: str, token: str, word: str) -> Order:
    if word == "STOP":
        return Stop()
    try:
        m = _TURN.fullmatch(word)
        if m:
            kind = TurnInSuccession if m.group(1) == "TS" else TurnTogether
            return kind(int(m.group(2)), Direction(m.group(3)))
        m = _SPEED.fullmatch(word)
        if m:
            return SetSpeed(float(m.group(1)))
    except OrderSyntaxError as exc:
        raise _syntax(text, str(exc)) from None
    raise _syntax(text, f"unknown token {token!r}")


def format_orders(orders: Iterable[Order]) -> str:
    """Write a list of orders in the canonical text, separated by single spaces."""
    return " ".join(str(o) for o in orders)


__all__ = [
    "MAX_KNOTS",
    "Arrow",
    "Direction",
    "DropOut",
    "FleetMessage",
    "Order",
    "SetSpeed",
    "Signal",
    "Stop",
    "TransferFlag",
    "TurnInSuccession",
    "TurnTogether",
    "arrow_class",
    "format_orders",
    "parse_orders",
]
