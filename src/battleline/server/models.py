"""The web API's boundary: request and answer models, and the notation help by phase.

Requests forbid unknown fields, so a misspelt field is named in the 422 rather than ignored.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from battleline.server.clocks import MAX_DEADLINE_MINUTES
from battleline.server.scenarios import MAX_SCENARIO_BYTES

#: Short help for the order box, by phase name (the grammar itself lives in the rules modules).
NOTATION_HELP: dict[str, str] = {
    "command": (
        "One line per division: 'DIVISION: ORDERS'. Tokens: SPD<knots> (SPD14, SPD12.5), "
        "TS<deg><P|S> turn in succession (TS90S), TT<deg><P|S> turn together (TT45P), STOP, "
        "SIG ENGAGE | FOLLOW | TORPEDO | RECALL | SURRENDER | TURN8 P|S | TURN16 P|S, "
        'DROP <ship> [P|S], FLAG <ship>. Example: "1st Division: SPD14 TS90S". '
        "No line: straight on at last turn's speed."
    ),
    "gunnery": (
        "One line per firing ship: 'SHIP: TARGET @RANGE [AP|HE] MOUNT:ROUNDS ...'. "
        'Example: "Mikasa: Retvisan @5200 AP A:2 Z:2 sec:6". The range is your sealed '
        "estimate in metres."
    ),
    "torpedo": "One line per launch: 'SHIP: TT MOUNT -> TARGET [xN]'. Example: "
    '"Kasumi: TT bow -> Retvisan x2".',
    "damage": "Damage-control declarations: 'SHIP: P; M:A; HVY:forward' (see docs/turn-sequence).",
}


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScenarioOut(BaseModel):
    """A scenario one may start."""

    id: str
    title: str
    description: str
    ruleset: str
    sides: list[str]
    turn_limit: int
    scale: str


class NewGame(_In):
    """Start a game from a built-in scenario id, or from a scenario's TOML text.

    ``seed`` is refused unless the server was started to allow chosen seeds (tests): a seed
    known to a player would let them foresee the dice.
    """

    scenario: str | None = Field(default=None, min_length=1, max_length=200)
    scenario_text: str | None = Field(default=None, max_length=MAX_SCENARIO_BYTES)
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    ai: list[Annotated[str, Field(max_length=200)]] = Field(default_factory=list, max_length=2)
    #: Minutes each phase stays open before the umpire may resolve it (none if left out).
    deadline_minutes: int | None = Field(default=None, ge=1, le=MAX_DEADLINE_MINUTES)


class Invite(BaseModel):
    """One side of a new game: its invite and invite link if a person plays it."""

    side: str
    human: bool
    invite: str | None = None
    url: str | None = None


class GameCreated(BaseModel):
    """A new game: a link anyone may open, one invite per human side, the umpire's credential.

    Each invite is good for one claim; none of these opens a side's orders.
    """

    game_id: str
    scenario: str
    title: str
    game_url: str
    invites: list[Invite]
    umpire_token: str
    umpire_url: str
    umpire_page: str = ""  # the umpire's page (deadlines, resolve, hand a side to the AI)


class ClaimIn(_In):
    """Claim a seat with its invite."""

    invite: str = Field(min_length=1, max_length=200)


class Seat(BaseModel):
    """A claimed seat: the side and its secret credential (shown only this once)."""

    side: str
    token: str
    url: str


class SeatInfo(BaseModel):
    """A side of a game as anyone sees it."""

    side: str
    human: bool
    claimed: bool


class GameInfo(BaseModel):
    """The public face of a game: what the game link shows."""

    game_id: str
    scenario: str
    title: str
    seats: list[SeatInfo]
    turn: int
    phase: str
    waiting_for: list[str]
    finished: bool
    result: str | None
    seed: int | None  # only once the battle is over


class OrdersIn(_In):
    """A side's orders for the open phase, one order per line."""

    turn: int = Field(ge=1, le=10_000)
    phase: str = Field(min_length=1, max_length=50)
    lines: list[Annotated[str, Field(max_length=500)]] = Field(max_length=300)
    #: The form field each line came from (``POST /compose`` gives them), so that each problem
    #: is answered next to its field; optional, one per line.
    fields: list[Annotated[str, Field(max_length=300)] | None] | None = Field(
        default=None, max_length=300
    )


class OrdersOut(BaseModel):
    """What sealing changed, as the submitting side sees it."""

    sealed: bool
    resolved: bool
    turn: int
    phase: str
    waiting_for: list[str]
    result: str | None


class CheckOut(BaseModel):
    """Orders that pass the umpire's check (nothing is sealed)."""

    ok: bool


class OrderProblem(BaseModel):
    """One problem with a side's orders: the line (index) and form field it belongs to."""

    line: int | None
    field: str | None
    message: str


class Problem(BaseModel):
    """An error: a message naming the field, ship or rule (orders refused: every problem)."""

    detail: str
    problems: list[OrderProblem] | None = None
