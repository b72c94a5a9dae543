"""A tabletop session: the ship logs of a game played with real models (BF6-GEN-04).

The session holds the ships in play (name → class, side), their logs, the turn, the chart file,
the damage settings, and the dice seed with the number of dice drawn so far, so the whole game is
reproducible: the same seed and the same reported hits and declarations give the same logs. It is
saved as one JSON file with a format version; :meth:`TabletopSession.damage_phase` runs the
Damage Phase (Steps One to Four, BF6-DMG-02) for everyone and advances the turn.

Hits and torpedo launches may be reported as they happen (:meth:`TabletopSession.report`) and
are kept as the turn's pending reports until the Damage Phase; every report is checked against
the firing ship's log together with everything already reported that turn
(:mod:`battleline.tabletop.checks`). The session only parses, stores and calls: every rule stays
in ``rulesets.bf1900``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from battleline.engine.dice import Dice, FixedDice
from battleline.engine.events import EventLog
from battleline.engine.sessionfile import FileReader, SavedSession, SessionFile, command_dice
from battleline.errors import IllegalOrderError, ScenarioError
from battleline.rulesets.bf1900.charts import Charts, load_charts
from battleline.rulesets.bf1900.damage.declarations import (
    DCDeclaration,
    format_declarations,
    parse_declarations,
)
from battleline.rulesets.bf1900.damage.phase import DamageSettings, run_damage_phase
from battleline.rulesets.bf1900.damage.step3 import validate_declarations
from battleline.rulesets.bf1900.ship import ShipClass
from battleline.rulesets.bf1900.shipdb import class_of_ship, get_ship_class
from battleline.rulesets.bf1900.shiplog import ShipLog
from battleline.tabletop.checks import (
    CheckedTurn,
    LaunchReport,
    check_turn,
    format_launch,
    parse_launch,
)
from battleline.tabletop.hits_notation import (
    HitReport,
    format_hit,
    lookup_in,
    parse_hit,
)

FORMAT = "battleline-tabletop"
VERSION = 1
RULESET = "bf1900-1D6"


class SessionFileError(ScenarioError):
    """A tabletop session file cannot be read; the message names the file and the field."""


@dataclass(frozen=True, slots=True)
class ShipEntry:
    """One ship in play: its name on the table, its class, its side and (from a scenario) its
    division."""

    name: str
    class_name: str
    side: str
    division: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON (the division only when there is one)."""
        out: dict[str, Any] = {"name": self.name, "class": self.class_name, "side": self.side}
        if self.division is not None:
            out["division"] = self.division
        return out


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What one Damage Phase was given and what it narrated (kept for replay and review)."""

    turn: int
    hits: tuple[str, ...]
    declarations: Mapping[str, str]
    first_draw: int
    draws: int
    events: tuple[str, ...]
    launches: tuple[str, ...] = ()
    own_dice: bool = False
    #: The players' own rolls, in order, when they rolled (``own_dice``).
    rolls: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON."""
        return {
            "turn": self.turn,
            "hits": list(self.hits),
            "launches": list(self.launches),
            "declarations": dict(self.declarations),
            "first_draw": self.first_draw,
            "draws": self.draws,
            "own_dice": self.own_dice,
            "rolls": list(self.rolls),
            "events": list(self.events),
        }


@dataclass(frozen=True, slots=True)
class PhaseResult:
    """The outcome of one :meth:`TabletopSession.damage_phase`: the turn it ran for and the
    events it narrated, dice rolls included."""

    turn: int
    events: EventLog


def parse_ship_spec(spec: str) -> tuple[str, str | None]:
    """``NAME[=CLASS]`` → ``(name, class or None)``."""
    name, eq, cls = spec.partition("=")
    name, cls = " ".join(name.split()), " ".join(cls.split())
    if not name or (eq and not cls):
        raise ScenarioError(f"--ship {spec!r}: write NAME or NAME=CLASS, e.g. Mikasa or Hood=Royal")
    return name, cls or None


@dataclass
class TabletopSession(SavedSession):
    """The whole state of a tabletop-assist game between commands."""

    ships: dict[str, ShipEntry]
    logs: dict[str, ShipLog]
    seed: int
    turn: int = 1
    draws: int = 0
    charts_path: str | None = None
    settings: DamageSettings = field(default_factory=DamageSettings)
    history: list[TurnRecord] = field(default_factory=list)
    scenario: str | None = None
    scale: str = "small"
    #: This turn's reports so far (canonical text), and the (firer, target) pairs whose
    #: friendly fire the players confirmed.
    pending_hits: list[str] = field(default_factory=list)
    pending_launches: list[str] = field(default_factory=list)
    friendly_fire: list[tuple[str, str]] = field(default_factory=list)

    # -- creating ---------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        ships: Sequence[tuple[str, str | None, str | None]],
        *,
        seed: int | None = None,
        charts_path: str | None = None,
        settings: DamageSettings = DamageSettings(),
    ) -> TabletopSession:
        """A session on turn 1 with fresh logs.

        ``ships`` holds ``(name, class or None, side or None)``: without a class the name is
        looked up as a ship of the database (``Mikasa``), without a side the class's navy is the
        side. The chart file, if given, is loaded now so a bad one fails before anything is saved.
        """
        if not ships:
            raise ScenarioError("a tabletop session needs at least one ship (--ship NAME)")
        if charts_path is not None:
            charts_path = str(Path(charts_path).resolve())
            load_charts(charts_path)
        entries: dict[str, ShipEntry] = {}
        logs: dict[str, ShipLog] = {}
        for name, class_name, side in ships:
            if name.lower() in (n.lower() for n in entries):
                raise ScenarioError(f"ship {name!r} is named twice; each ship needs its own name")
            ship_class = get_ship_class(class_name) if class_name else class_of_ship(name)
            entry = ShipEntry(name, ship_class.name, side or ship_class.navy)
            entries[name] = entry
            logs[name] = ShipLog(name, ship_class, entry.side)
        if seed is not None and seed < 0:
            raise ScenarioError(f"--seed must be 0 or more, not {seed}")
        if seed is None:
            entropy = np.random.SeedSequence().entropy
            seed = int(entropy if isinstance(entropy, int) else 0) % 2**63
        return cls(entries, logs, seed, charts_path=charts_path, settings=settings)

    @classmethod
    def from_scenario(
        cls,
        name: str,
        *,
        seed: int | None = None,
        charts_path: str | None = None,
        settings: DamageSettings = DamageSettings(),
    ) -> TabletopSession:
        """A session with every ship of a scenario (built-in id or file), each with its side and
        division, at the scenario's scale (BF6-GEN-04/06)."""
        from battleline.rulesets import canonical_name
        from battleline.rulesets.bf1900.scenario import get_scenario

        sc = get_scenario(name)
        if canonical_name(sc.ruleset) != canonical_name("bf1900"):
            raise ScenarioError(
                f"scenario {name!r} is for the ruleset {sc.ruleset!r}; the tabletop assistant "
                "keeps Battlefleet 1900 (1D6) logs only"
            )
        ships = [
            (ship.name, ship.ship_class.name, side.name)
            for side in sc.sides
            for division in side.divisions
            for ship in division.ships
        ]
        session = cls.new(ships, seed=seed, charts_path=charts_path, settings=settings)
        for side in sc.sides:
            for division in side.divisions:
                for ship in division.ships:
                    entry = session.ships[ship.name]
                    session.ships[ship.name] = ShipEntry(
                        entry.name, entry.class_name, entry.side, division.name
                    )
        session.scenario, session.scale = sc.id, sc.scale
        return session

    # -- reading input ----------------------------------------------------------------------

    @property
    def classes(self) -> dict[str, ShipClass]:
        """Ship name → class."""
        return {name: log.cls for name, log in self.logs.items()}

    def ship_name(self, name: str) -> str:
        """The name in play for what a player typed (any case); unknown names suggest others."""
        return lookup_in(self.classes)(name)[0]

    def charts(self) -> Charts:
        """The session's charts: the packaged ones, or its chart file."""
        return load_charts(self.charts_path)

    def check(
        self,
        reports: Sequence[HitReport] = (),
        launches: Sequence[LaunchReport] = (),
        *,
        friendly_fire: bool = False,
    ) -> CheckedTurn:
        """This turn's pending reports and ``reports``/``launches`` checked together against the
        logs (:func:`~battleline.tabletop.checks.check_turn`); ``friendly_fire`` confirms any
        friendly fire among the new reports."""
        pending = [parse_hit(t) for t in self.pending_hits]
        confirmed = set(self.friendly_fire)
        sides = {n: e.side for n, e in self.ships.items()}
        return check_turn(
            self.logs,
            sides,
            [*pending, *reports],
            [*(parse_launch(t) for t in self.pending_launches), *launches],
            friendly_fire=True if friendly_fire else confirmed,
        )

    def report(
        self,
        reports: Sequence[HitReport],
        launches: Sequence[LaunchReport] = (),
        *,
        friendly_fire: bool = False,
    ) -> CheckedTurn:
        """Record hits and launches for this turn's Damage Phase, after checking them with
        everything reported before; on an error the session is unchanged."""
        checked = self.check(reports, launches, friendly_fire=friendly_fire)
        self._keep(reports, launches, friendly_fire)
        return checked

    def _keep(
        self, reports: Sequence[HitReport], launches: Sequence[LaunchReport], friendly: bool
    ) -> None:
        self.pending_hits.extend(format_hit(r) for r in reports)
        self.pending_launches.extend(format_launch(x) for x in launches)
        if friendly:
            lookup = lookup_in(self.classes)
            for r in reports:
                if r.firer:
                    pair = (lookup(r.firer)[0], lookup(r.target)[0])
                    if pair not in self.friendly_fire:
                        self.friendly_fire.append(pair)

    def parse_dc(self, texts: Sequence[str]) -> dict[str, list[DCDeclaration]]:
        """``"Mikasa: P; HVY:forward"`` items → declarations by ship, several items per ship
        allowed; parsed (BF6-REP-05) but not yet checked against the logs."""
        out: dict[str, list[DCDeclaration]] = {}
        for text in texts:
            who, colon, rest = text.partition(":")
            if not colon or not who.strip():
                raise IllegalOrderError(
                    f"damage control {text!r}: write SHIP: DECLARATIONS, e.g. 'Mikasa: P; BR'"
                )
            name = self.ship_name(who)
            out.setdefault(name, []).extend(parse_declarations(name, rest))
        return out

    def check_dc(self, declarations: Mapping[str, Sequence[DCDeclaration]]) -> None:
        """Validate every ship's declarations against its log now (BF6-DC-01..04, BF6-CF-01,
        BF6-REP-01); raises :class:`IllegalOrderError` naming the ship and the rule."""
        for name, decls in declarations.items():
            validate_declarations(
                self.logs[name], decls, dice_per_event=self.settings.dice_per_event
            )

    # -- the Damage Phase -------------------------------------------------------------------

    def damage_phase(
        self,
        reports: Sequence[HitReport],
        declarations: Mapping[str, Sequence[DCDeclaration]],
        *,
        launches: Sequence[LaunchReport] = (),
        friendly_fire: bool = False,
        dice: Dice | None = None,
    ) -> PhaseResult:
        """Run Steps One to Four for every ship (BF6-DMG-02/03) and advance the turn.

        ``reports`` and ``launches`` join the turn's pending reports. Every input is checked
        before a die is rolled; on any error the session is unchanged. Fired torpedoes are
        crossed off (BF6-TORP-03) and the ROF-½ mountings that fired are marked as loading for
        next turn (BF6-ROF-02, AMB-10). ``dice`` replaces the session's seeded dice: the
        players' own rolls, or ``FixedDice`` in tests; their draws are still counted.
        """
        charts = self.charts()
        checked = self.check(reports, launches, friendly_fire=friendly_fire)
        shells, torpedoes = checked.shells, checked.torpedoes
        self.check_dc(declarations)
        logs = {name: log.copy() for name, log in self.logs.items()}
        for (firer, key), count in checked.fired.items():
            logs[firer].torpedoes_left[key] -= count
        for name, log in logs.items():
            log.rof_half_fired_last_turn = set(checked.rof_half.get(name, ()))
        own_dice = dice is not None
        roll = command_dice(self.seed, self.draws, turn=self.turn, phase="damage", given=dice)
        events = roll.events
        run_damage_phase(
            logs, shells, torpedoes, declarations, charts, roll.dice, events, settings=self.settings
        )
        used = roll.used
        history = roll.dice.history if own_dice and isinstance(roll.dice, FixedDice) else []
        rolls = tuple(r.value for r in history[len(history) - used :])
        record = TurnRecord(
            turn=self.turn,
            hits=(*self.pending_hits, *(format_hit(r) for r in reports)),
            declarations={n: format_declarations(d) for n, d in declarations.items() if d},
            first_draw=self.draws,
            draws=used,
            events=tuple(e.text for e in events),
            launches=(*self.pending_launches, *(format_launch(x) for x in launches)),
            own_dice=own_dice,
            rolls=rolls,
        )
        self.logs, self.draws = logs, self.draws + used
        self.pending_hits, self.pending_launches, self.friendly_fire = [], [], []
        self.history.append(record)
        result = PhaseResult(self.turn, events)
        self.turn += 1
        return result


def _encode(session: TabletopSession) -> dict[str, Any]:
    return {
        "ruleset": RULESET,
        "turn": session.turn,
        "seed": session.seed,
        "draws": session.draws,
        "charts": session.charts_path,
        "settings": {
            "sink_roll_dc_bonus": session.settings.sink_roll_dc_bonus,
            "dice_per_event": session.settings.dice_per_event,
        },
        "scenario": session.scenario,
        "scale": session.scale,
        "ships": [e.to_dict() for e in session.ships.values()],
        "logs": {name: log.to_dict() for name, log in session.logs.items()},
        "pending": {
            "hits": list(session.pending_hits),
            "launches": list(session.pending_launches),
            "friendly_fire": [list(p) for p in session.friendly_fire],
        },
        "history": [r.to_dict() for r in session.history],
    }


def _decode(reader: FileReader) -> TabletopSession:
    data = reader.data
    ships: dict[str, ShipEntry] = {}
    logs: dict[str, ShipLog] = {}
    for raw in data["ships"]:
        division = raw.get("division")
        entry = ShipEntry(
            str(raw["name"]),
            str(raw["class"]),
            str(raw["side"]),
            None if division is None else str(division),
        )
        with reader.field(f"ships.{entry.name}.class"):
            ship_class = get_ship_class(entry.class_name)
        with reader.field(f"logs.{entry.name}"):
            logs[entry.name] = ShipLog.from_dict(data["logs"][entry.name], ship_class)
        ships[entry.name] = entry
    settings = DamageSettings(
        bool(data["settings"]["sink_roll_dc_bonus"]),
        int(data["settings"]["dice_per_event"]),
    )
    history = [
        TurnRecord(
            int(r["turn"]),
            tuple(r["hits"]),
            dict(r["declarations"]),
            int(r["first_draw"]),
            int(r["draws"]),
            tuple(r["events"]),
            tuple(str(x) for x in r.get("launches", ())),
            bool(r.get("own_dice", False)),
            tuple(int(v) for v in r.get("rolls", ())),
        )
        for r in data.get("history", [])
    ]
    pending = data.get("pending") or {}
    charts = data.get("charts")
    seed, draws, turn = reader.counts()
    return TabletopSession(
        ships,
        logs,
        seed,
        turn=turn,
        draws=draws,
        charts_path=None if charts is None else str(charts),
        settings=settings,
        history=history,
        scenario=None if data.get("scenario") is None else str(data["scenario"]),
        scale=str(data.get("scale", "small")),
        pending_hits=[str(x) for x in pending.get("hits", [])],
        pending_launches=[str(x) for x in pending.get("launches", [])],
        friendly_fire=[(str(a), str(b)) for a, b in pending.get("friendly_fire", [])],
    )


TabletopSession.session_file = SessionFile(
    format=FORMAT,
    version=VERSION,
    kind="tabletop session",
    counter="turn",
    error=SessionFileError,
    encode=_encode,
    decode=_decode,
)
