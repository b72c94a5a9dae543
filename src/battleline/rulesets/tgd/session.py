"""A TGD referee session for a game on a real table: the ship cards in play and their damage.

The players move the models and measure range and bearings; :meth:`TgdSession.fire` resolves one
fire action (TGD-FIRE-01..03) against the cards, rolling every die from the session's seed, and
:meth:`TgdSession.next_phase` starts a new fire phase (batteries may fire again, and the
"stopped it myself" exception of TGD-HIT-07 ends, AMB-66). The whole session is one JSON file;
the same seed and the same actions give the same cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from battleline.engine.dice import Dice
from battleline.engine.events import EventLog
from battleline.engine.sessionfile import FileReader, SavedSession, SessionFile, command_dice
from battleline.errors import ScenarioError, UnknownNameError
from battleline.rulesets.tgd.card import ShipCard, load_card
from battleline.rulesets.tgd.cardlog import CardLog
from battleline.rulesets.tgd.charts import Charts, load_charts
from battleline.rulesets.tgd.fire import FireOrder, FireResult, fire

FORMAT = "battleline-tgd"
VERSION = 1


class SessionFileError(ScenarioError):
    """A TGD session file cannot be read; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class ActionRecord:
    """One fire action as given and narrated, kept for review and replay."""

    phase: int
    text: str
    first_draw: int
    draws: int
    events: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "phase": self.phase,
            "text": self.text,
            "first_draw": self.first_draw,
            "draws": self.draws,
            "events": list(self.events),
        }


def parse_ship_spec(spec: str) -> tuple[str, str]:
    """``NAME`` (a packaged card) or ``NAME=CARD`` (a card name or ``*.toml`` file)."""
    name, eq, card = spec.partition("=")
    name, card = " ".join(name.split()), " ".join(card.split())
    if not name or (eq and not card):
        raise ScenarioError(
            f"--ship {spec!r}: write NAME or NAME=CARD, e.g. Pelayo or 'Pelayo II=Pelayo'"
        )
    return name, card or name


def format_order(firer: str, target: str, order: FireOrder) -> str:
    """One line describing a fire action, for the session record."""
    arcs = f" [{' '.join(order.arcs)}]" if order.arcs else ""
    halted = ", target halted" if order.target_halted else ""
    return (
        f"{firer} strength {order.strength}{arcs} -> {target} range {order.rng:g} "
        f"bearing {order.bearing:g} aspect {order.aspect:g}{halted}"
    )


@dataclass
class TgdSession(SavedSession):
    """The whole state of a TGD game between commands."""

    logs: dict[str, CardLog]
    sources: dict[str, str]
    seed: int
    phase: int = 1
    draws: int = 0
    charts_path: str | None = None
    history: list[ActionRecord] = field(default_factory=list)

    @classmethod
    def new(
        cls, ships: Sequence[tuple[str, str]], *, seed: int, charts_path: str | None = None
    ) -> TgdSession:
        """A session with fresh cards for (name on the table, card name or file) pairs."""
        if not ships:
            raise ScenarioError("a TGD session needs at least one --ship")
        if seed < 0:
            raise ScenarioError(f"seed must be 0 or more, not {seed}")
        logs: dict[str, CardLog] = {}
        sources: dict[str, str] = {}
        for name, source in ships:
            if name.lower() in (n.lower() for n in logs):
                raise ScenarioError(f"two ships are called {name!r}; give each its own name")
            card = load_card(source)
            logs[name] = CardLog(card, label="" if name == card.name else name)
            sources[name] = source
        session = cls(logs, sources, seed, charts_path=charts_path)
        session.charts()  # a bad chart file is refused at once
        return session

    def charts(self) -> Charts:
        """The session's charts (packaged unless a file was given)."""
        return load_charts(self.charts_path)

    def ship_name(self, name: str) -> str:
        """The session's spelling of a ship name (any case)."""
        wanted = " ".join(name.split()).lower()
        for known in self.logs:
            if known.lower() == wanted:
                return known
        raise UnknownNameError("ship in this session", name, list(self.logs))

    def fire(
        self, firer: str, target: str, order: FireOrder, *, dice: Dice | None = None
    ) -> tuple[FireResult, EventLog]:
        """Resolve one fire action; on any error the session is unchanged.

        ``dice`` replaces the seeded dice (tests script them); their draws are still counted.
        """
        a, b = self.ship_name(firer), self.ship_name(target)
        charts = self.charts()
        logs = {name: log.copy() for name, log in self.logs.items()}
        roll = command_dice(self.seed, self.draws, turn=self.phase, phase="fire", given=dice)
        events = roll.events
        result = fire(logs[a], logs[b], order, charts=charts, dice=roll.dice, events=events)
        self.history.append(
            ActionRecord(
                self.phase,
                format_order(a, b, order),
                self.draws,
                roll.used,
                tuple(e.text for e in events),
            )
        )
        self.logs, self.draws = logs, self.draws + roll.used
        return result, events

    def next_phase(self) -> int:
        """Start the next fire phase: every battery may fire again (AMB-66)."""
        for log in self.logs.values():
            log.new_fire_phase()
        self.phase += 1
        return self.phase


def _encode(session: TgdSession) -> dict[str, Any]:
    return {
        "seed": session.seed,
        "phase": session.phase,
        "draws": session.draws,
        "charts": session.charts_path,
        "ships": {
            name: {"card": session.sources[name], "log": log.to_dict()}
            for name, log in session.logs.items()
        },
        "history": [r.to_dict() for r in session.history],
    }


def _decode(reader: FileReader) -> TgdSession:
    data = reader.data
    logs: dict[str, CardLog] = {}
    sources: dict[str, str] = {}
    for name, entry in data["ships"].items():
        with reader.field(f"ships.{name}"):
            card: ShipCard = load_card(str(entry["card"]))
            logs[str(name)] = CardLog.from_dict(card, entry["log"])
        sources[str(name)] = str(entry["card"])
    history = [
        ActionRecord(
            int(r["phase"]),
            str(r["text"]),
            int(r["first_draw"]),
            int(r["draws"]),
            tuple(str(t) for t in r["events"]),
        )
        for r in data.get("history", [])
    ]
    seed, draws, phase = reader.counts()
    charts = data.get("charts")
    return TgdSession(
        logs,
        sources,
        seed,
        phase=phase,
        draws=draws,
        charts_path=None if charts is None else str(charts),
        history=history,
    )


TgdSession.session_file = SessionFile(
    format=FORMAT,
    version=VERSION,
    kind="TGD session",
    counter="phase",
    error=SessionFileError,
    encode=_encode,
    decode=_decode,
    missing="no such TGD session file",
)
