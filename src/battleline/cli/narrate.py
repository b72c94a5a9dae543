"""The demo's narrative: turn headings, phase and damage-step labels, and a summary per turn.

:class:`Narrator` is fed the events of each resolution as the game produces them. By default it
prints, for each turn, a heading, one label per phase with only the events of note under it
(signals, collisions, torpedo hits, explosions, sinkings, strikes) and a short summary of the
turn: who fired at whom and with how many hit zones, the hits each ship took, damage of note,
fires and flooding, sinkings and strikes. A damage step (a phase event with ``step`` in its
data) is labelled too, in the readable narrative only when something of note happens in it.
``verbose`` prints every event with its dice instead. Events are read defensively
(``data.get``), so a ruleset with other event kinds or other data is narrated too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rich.console import Console
from rich.table import Table
from rich.text import Text

from battleline.engine.events import Event, EventKind

#: Events shown as one narrative line each in the full record, with the style of the line.
STYLE: dict[EventKind, str] = {
    EventKind.COMMAND: "cyan",
    EventKind.SIGNAL: "cyan",
    EventKind.COMMAND_FUNCTION: "cyan",
    EventKind.MOVE: "",
    EventKind.COLLISION: "bold yellow",
    EventKind.GROUNDING: "bold yellow",
    EventKind.TORPEDO_LAUNCH: "magenta",
    EventKind.TORPEDO_HIT: "bold magenta",
    EventKind.TORPEDO_MISS: "magenta",
    EventKind.HIT: "bold red",
    EventKind.DAMAGE: "red",
    EventKind.CRITICAL: "bold red",
    EventKind.EXPLOSION: "bold red",
    EventKind.FIRE: "yellow",
    EventKind.FLOODING: "blue",
    EventKind.LISTING: "blue",
    EventKind.REPAIR: "green",
    EventKind.SINKING: "bold red",
    EventKind.SUNK: "bold red",
    EventKind.SURRENDER: "bold white",
    EventKind.NOTE: "dim",
}

#: Events of note, printed under their phase label in the readable narrative.
NOTABLE: frozenset[EventKind] = frozenset(
    {
        EventKind.SIGNAL,
        EventKind.COLLISION,
        EventKind.GROUNDING,
        EventKind.TORPEDO_HIT,
        EventKind.EXPLOSION,
        EventKind.SINKING,
        EventKind.SUNK,
        EventKind.SURRENDER,
    }
)


def salvo_table(shots: Sequence[Event]) -> Table:
    """Range estimates against the range to the target's near edge, with bracket and zone."""
    table = Table(
        title="gunnery: estimate vs range to the near edge; zone = danger-zone depth",
        title_justify="left",
        box=None,
    )
    for col in ("firer", "target", "estimate", "near edge", "error", "bracket", "zone", "result"):
        table.add_column(col, justify="left" if col in ("firer", "target", "result") else "right")
    for e in shots:
        est = float(e.data.get("estimate_m", 0.0))
        near = float(e.data.get("leading_m", 0.0))
        end = e.data.get("zone_end_m")
        depth = f"{float(end) - near:,.0f} m" if end is not None else "-"
        hit = e.kind is EventKind.HIT_ZONE or bool(e.data.get("hit"))
        table.add_row(
            str(e.data.get("firer", e.ship)),
            str(e.data.get("target", "")),
            f"{est:,.0f} m",
            f"{near:,.0f} m",
            f"{est - near:+,.0f} m",
            str(e.data.get("bracket", "-")),
            depth,
            Text("HIT ZONE", style="bold red") if hit else Text("splash", style="dim"),
        )
    return table


@dataclass
class TurnTally:
    """What one turn brought, for its summary."""

    salvos: Counter[tuple[str, str]] = field(default_factory=Counter)
    zones: Counter[tuple[str, str]] = field(default_factory=Counter)
    hits: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    codes: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    fires: Counter[str] = field(default_factory=Counter)
    flooding: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    torpedoes: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)

    def add(self, e: Event) -> None:
        """Count one event."""
        d = e.data
        ship = e.ship or ""
        if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
            key = (str(d.get("firer", ship)), str(d.get("target", "?")))
            self.salvos[key] += 1
            if e.kind is EventKind.HIT_ZONE:
                self.zones[key] += 1
        elif e.kind is EventKind.HIT:
            hits = int(d.get("hits", 0) or 0)
            if hits:
                self.hits[ship][str(d.get("firer", "?"))] += hits
        elif e.kind in (EventKind.DAMAGE, EventKind.CRITICAL, EventKind.EXPLOSION):
            for code in d.get("codes", ()) or ():
                self.codes[ship][str(code)] += 1
        elif e.kind is EventKind.FIRE and "internal" in d:
            self.fires[ship] += 1
        elif e.kind is EventKind.FLOODING and d.get("rose"):
            self.flooding[ship].append(f"{d.get('compartment', '?')} {_level(d.get('level'))}")
        elif e.kind is EventKind.TORPEDO_HIT:
            self.torpedoes.append(f"{d.get('firer', '?')} → {ship}")
        elif e.kind is EventKind.SUNK:
            self.losses.append(f"{ship} sunk")
        elif e.kind is EventKind.SURRENDER:
            self.losses.append(f"{ship} struck")
        elif e.kind is EventKind.SINKING and d.get("sinks"):
            self.losses.append(f"{ship} sinking")

    def lines(self) -> list[tuple[str, str]]:
        """The summary as (label, text) pairs, empty parts left out."""
        out: list[tuple[str, str]] = []
        if self.salvos:
            by_firer: dict[str, list[str]] = defaultdict(list)
            for (f, t), _ in sorted(self.salvos.items()):
                by_firer[f].append(t + "*" * min(self.zones[(f, t)], 1))
            out.append(
                (
                    "fired (* hit zone)",
                    "; ".join(f"{f} → {', '.join(ts)}" for f, ts in by_firer.items()),
                )
            )
        if self.hits:
            out.append(
                (
                    "hits",
                    "; ".join(
                        f"{ship} {sum(by.values())}"
                        + " ("
                        + ", ".join(f"{f} {n}" for f, n in sorted(by.items()))
                        + ")"
                        for ship, by in sorted(self.hits.items())
                    ),
                )
            )
        notable = {
            ship: [c for c in codes if c not in ("F", "-", "MISC")]
            for ship, codes in self.codes.items()
        }
        notable = {s: c for s, c in notable.items() if c}
        if notable:
            out.append(
                (
                    "damage",
                    "; ".join(
                        f"{ship} "
                        + " ".join(
                            f"{c}×{self.codes[ship][c]}" if self.codes[ship][c] > 1 else c
                            for c in sorted(codes)
                        )
                        for ship, codes in sorted(notable.items())
                    ),
                )
            )
        if self.fires:
            out.append(("fires", "; ".join(f"{s} {n} new" for s, n in sorted(self.fires.items()))))
        if self.flooding:
            out.append(
                (
                    "flooding",
                    "; ".join(f"{s}: {', '.join(v)}" for s, v in sorted(self.flooding.items())),
                )
            )
        if self.torpedoes:
            out.append(("torpedo hits", "; ".join(self.torpedoes)))
        if self.losses:
            out.append(("sinkings and strikes", "; ".join(dict.fromkeys(self.losses))))
        return out


def _level(level: object) -> str:
    names = {1: "Light", 2: "Severe", 3: "Heavy", 4: "Critical"}
    return names.get(level, str(level)) if isinstance(level, int) else str(level)


class Narrator:
    """Prints a game's events as they come, by turn and phase.

    ``pause`` (when given) is called after each phase's events have been printed (``--step``).
    """

    def __init__(
        self,
        console: Console,
        *,
        verbose: bool = False,
        pause: Callable[[str], None] | None = None,
    ) -> None:
        self.console = console
        self.verbose = verbose
        self.pause = pause
        self.turn = 0
        self.phase = ""
        self.step = ""
        self.rolls: list[str] = []
        self.shots: list[Event] = []
        self.tally = TurnTally()

    def __call__(self, events: Sequence[Event]) -> None:
        for e in events:
            if e.kind is EventKind.PHASE and "step" in e.data:
                self._flush_shots()
                self.step = e.text
                if self.verbose:
                    self._print_step()
                continue
            if e.kind is EventKind.PHASE:
                self._end_phase()
                if e.turn != self.turn:
                    self._end_turn()
                    self.turn = e.turn
                    self.console.rule(f"[bold]Turn {e.turn}[/]")
                self.phase = e.phase or str(e.data.get("phase", ""))
                self.console.print(Text(f"{self.phase} phase", style="bold underline"))
                continue
            self.tally.add(e)
            if self.verbose:
                self._full(e)
            elif e.kind in NOTABLE:
                self._print_step()
                self.console.print(Text(f"  {e.text}", style=STYLE.get(e.kind, "")))
        self._flush_shots()

    def _print_step(self) -> None:
        if self.step:
            self.console.print(Text(f" {self.step}", style="italic"))
            self.step = ""

    def finish(self) -> None:
        """Close the last phase and turn (their summary) once the game is over."""
        self._end_phase()
        self._end_turn()

    def _end_phase(self) -> None:
        self._flush_shots()
        if self.phase and self.pause is not None:
            self.pause(f"turn {self.turn} {self.phase} phase")

    def _end_turn(self) -> None:
        lines = self.tally.lines()
        if self.turn and lines:
            self.console.print(Text(f"Turn {self.turn} in short", style="bold"))
            for label, text in lines:
                line = Text(f"  {label}: ", style="bold")
                line.append(text)
                self.console.print(line)
        self.tally = TurnTally()

    def _full(self, e: Event) -> None:
        """Today's full record: every event, with the dice that made it."""
        if e.kind is EventKind.ROLL:
            self.rolls.append(str(e.data.get("value", "?")))
            return
        if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
            self.rolls.clear()  # the marker; the umpire's note after it has the figures
            return
        if e.kind is EventKind.NOTE and e.data.get("measured"):
            self.shots.append(e)
            return
        self._flush_shots()
        if e.kind is EventKind.ORDER:
            self.console.print(Text(f"  order  {e.text}", style="dim cyan"))
        elif e.kind is not EventKind.RESULT:
            shown = self.rolls and "roll" not in e.text
            dice = f"  [dice {' '.join(self.rolls)}]" if shown else ""
            self.console.print(Text(f"  {e.text}{dice}", style=STYLE.get(e.kind, "")))
        self.rolls.clear()

    def _flush_shots(self) -> None:
        if self.shots:
            self.console.print(salvo_table(self.shots))
            self.shots.clear()
