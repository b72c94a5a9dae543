"""One side against the AI in the terminal, phase by phase (``battleline play``).

The player is shown only his side's VIEW (``game.view(side)``): his own ships in full (guns, ROF,
what bears on each enemy in sight, torpedoes left, damage) and the enemy as his ships see her
(the view's contacts). He types orders in the notation, one per line, an empty line to send
them; every line that is refused is listed at once and he is asked again. ``save`` writes the
game record (``GameRecord``) at any prompt, ``quit`` leaves (saving first when a save file is
set); with ``--save`` the record is also written after every phase, and ``--resume`` goes on
from such a file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from battleline.ai.base import admiral_factory, legal_lines
from battleline.cli.report import print_report
from battleline.engine import Game, GameRecord
from battleline.engine.events import Event, EventKind
from battleline.engine.flow import admiral_seed
from battleline.errors import BattlelineError

#: Notation words offered by completion besides the ship and division names.
WORDS = ("SIG", "ENGAGE", "TORPEDO", "SPD", "AP", "HE", "save", "quit", "help")

#: Events the player is told about after each phase (his own and those shown to him).
TOLD = frozenset(
    {
        EventKind.SIGNAL,
        EventKind.COMMAND,
        EventKind.COLLISION,
        EventKind.GROUNDING,
        EventKind.SPLASH,
        EventKind.HIT_ZONE,
        EventKind.TORPEDO_LAUNCH,
        EventKind.TORPEDO_HIT,
        EventKind.TORPEDO_MISS,
        EventKind.HIT,
        EventKind.EXPLOSION,
        EventKind.SINKING,
        EventKind.SUNK,
        EventKind.SURRENDER,
        EventKind.RESULT,
    }
)


class Quit(Exception):
    """The player left the game."""


def ship_panel(view: Any) -> list[str]:
    """The side's ships as its view shows them: guns, bearings, ROF, torpedoes and damage."""
    own = getattr(view, "own", None)
    if own is None:  # a view with no own ships: its plain form
        return [f"  {k}: {v}" for k, v in view.to_dict().items() if k not in ("events",)]
    cards = {c.name: c for c in getattr(view, "cards", ())}  # TGD: the damage cards
    lines: list[str] = []
    contacts = tuple(getattr(view, "contacts", ()))
    for ship in own:
        log = getattr(ship, "log", None)
        if log is None or not hasattr(log, "positions"):  # not a bf1900 ship log (DBA ...)
            lines.append(_plain_ship(ship))
            continue
        lines.extend(_bf1900_ship(ship, contacts, cards.get(ship.name)))
    return lines


def _plain_ship(ship: Any) -> str:
    """One own ship of a view that is not bf1900's, from her fields."""
    fields = getattr(ship, "__dataclass_fields__", {})
    parts = []
    for f in fields:
        value = getattr(ship, f)
        if f in ("name", "pose", "log") or value is False or value in ("", 0):
            continue
        if value is True:
            parts.append(f.replace("_", " "))
        elif isinstance(value, str | int | float):
            parts.append(f"{f.replace('_', ' ')} {value}")
    shown = ", ".join(parts)
    pose = getattr(ship, "pose", None)
    where = f" at ({pose.x:,.0f}, {pose.y:,.0f}) m heading {pose.heading:03.0f}°" if pose else ""
    return f"{getattr(ship, 'name', '?')}{where}: {shown}"


def _bf1900_ship(ship: Any, contacts: Sequence[Any], card: Any = None) -> list[str]:
    """One own bf1900 ship: guns, what bears on each contact, torpedoes left, damage; with a
    TGD ``card``, the card's summary and ready batteries stand for guns and damage."""
    from battleline.rulesets.bf1900.arcs import bearing_guns

    lines: list[str] = []
    log = ship.log
    state = "in battle" if ship.in_battle else "out of the battle"
    lines.append(
        f"{ship.name} ({ship.cls}, {ship.division}) at ({ship.pose.x:,.0f}, "
        f"{ship.pose.y:,.0f}) m heading {ship.pose.heading:03.0f}°, "
        f"{ship.speed_knots:g} kn, {state}"
    )
    if not ship.in_battle:
        return lines
    if card is not None:
        lines.append(f"  card: {card.summary}")
        lines.append("  ready to fire: " + (", ".join(card.ready) or "none"))
    guns = []
    for m in log.cls.mountings if card is None else ():
        if m.is_lettered:
            ready = m.guns if log.positions[m.key].in_action else 0
        else:
            ready = sum(1 for mark in log.batteries[m.key] if mark == 0)
        half = " ½ROF fired last turn" if m.key in log.rof_half_fired_last_turn else ""
        guns.append(f"{m.key} {ready}/{m.guns}×{m.calibre_cm:g}cm ROF {m.rof:g}{half}")
    if guns:
        lines.append("  guns: " + "; ".join(guns))
    for c in contacts:
        rng = ship.pose.distance_to(c.pose)
        theta = ship.pose.bearing_to(c.pose.x, c.pose.y)
        where = f"  {c.name} ({c.cls}) {rng:,.0f} m, relative bearing {theta % 360:03.0f}°"
        if card is not None:
            lines.append(where)
            continue
        bears = [
            f"{b.key}:{b.guns}"
            for b in (bearing_guns(log, m, theta) for m in log.cls.mountings)
            if b.guns
        ]
        lines.append(f"{where}: " + (" ".join(bears) if bears else "no gun bears"))
    if log.torpedoes_left:
        lines.append(
            "  torpedoes left: " + ", ".join(f"{k} {n}" for k, n in log.torpedoes_left.items())
        )
    if card is not None:
        return lines
    lines.append(
        f"  damage: fires {log.fires}, flooding {log.flooding_points}, "
        f"bridge hits {log.bridge_hits}, CT hits {log.ct_hits}"
        + (", sinking" if log.sinking else "")
        + (", struck" if log.surrendered else "")
    )
    return lines


def refusals(game: Game[Any, Any], side: str, lines: Sequence[str]) -> list[str]:
    """Every problem with a set of order lines (:func:`battleline.game.order_problems`), each
    prefixed with the line it belongs to."""
    from battleline.game import order_problems

    return [
        p.message if p.line is None else f"{lines[p.line]!r}: {p.message}"
        for p in order_problems(game, side, lines)
    ]


def install_completion(names: Sequence[str]) -> None:
    """Tab completion of ship and division names and notation words (where readline exists)."""
    try:
        import readline
    except ImportError:  # pragma: no cover - not on every platform
        return
    words = sorted({*names, *WORDS})

    def complete(text: str, state: int) -> str | None:
        hits = [w for w in words if w.lower().startswith(text.lower())]
        return hits[state] if state < len(hits) else None

    readline.set_completer_delims(" \t:@")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")


class TerminalGame:
    """Runs one game: the player's side from the terminal, every other side by its admiral."""

    def __init__(
        self,
        game: Game[Any, Any],
        side: str,
        console: Console,
        ask: Callable[[str], str],
        *,
        save: Path | None = None,
    ) -> None:
        self.game = game
        self.side = side
        self.console = console
        self.ask = ask
        self.save_path = save
        make = admiral_factory(game.ruleset.name)
        self.admirals = {
            s: make(s, admiral_seed(game.state.seed, i))
            for i, s in enumerate(game.state.sides)
            if s != side
        }
        self.cursor = dict.fromkeys(game.state.sides, 0)
        self.told = 0

    def run(self) -> None:
        """Play to the end (or until the player quits)."""
        game = self.game
        try:
            while not game.finished:
                self.tell()
                for other in [s for s in game.pending.waiting_for if s != self.side]:
                    self._admiral(other)
                if game.finished:
                    break
                if self.side in game.pending.waiting_for:
                    self._player()
                self.autosave()
        except Quit:
            self.autosave()
            self.console.print(
                "left the game" + (f"; saved to {self.save_path}" if self.save_path else "")
            )
            return
        self.tell()
        self.autosave()
        print_report(self.console, game)

    def tell(self) -> None:
        """The events of note the player's side may see, new since the last time."""
        events: tuple[Event, ...] = tuple(self.game.events_for(self.side, self.told))
        self.told = len(self.game.events)
        for e in events:
            if e.kind is EventKind.PHASE and "step" not in e.data:
                if e.phase == self.game.ruleset.phases[0].name:
                    self.console.rule(f"[bold]Turn {e.turn}[/]")
                self.console.print(Text(e.text, style="bold underline"))
            elif e.kind in TOLD:
                self.console.print(f"  {e.text}")

    def _admiral(self, side: str) -> None:
        game = self.game
        seen = game.view(side, since=self.cursor[side])
        self.cursor[side] = len(game.events)
        phase, turn = game.spec.name, game.state.turn
        lines = self.admirals[side].orders(seen, phase)
        try:
            game.submit(side, lines, turn=turn, phase=phase)
        except BattlelineError:
            if side in game.pending.texts:
                raise
            game.submit(side, legal_lines(game, side, lines), turn=turn, phase=phase)

    def _player(self) -> None:
        game = self.game
        view = game.view(self.side)
        self.console.print(
            Text(
                f"{self.side}, turn {view.turn} of {getattr(view, 'turn_limit', '?')}, "
                f"{view.phase} phase: your orders ({view.order_kind})",
                style="bold cyan",
            )
        )
        for line in ship_panel(view):
            self.console.print(line, highlight=False, markup=False)
        while True:
            lines = self._read_orders()
            problems = refusals(game, self.side, lines)
            if not problems:
                game.submit(self.side, lines, turn=view.turn, phase=view.phase)
                return
            self.console.print(
                Text(f"{len(problems)} problem(s); nothing was sent:", style="bold red")
            )
            for p in problems:
                self.console.print(f"  {p}", highlight=False, markup=False)

    def _read_orders(self) -> list[str]:
        """Order lines up to an empty line; ``save``, ``quit`` and ``help`` act at once."""
        self.console.print(
            "one order per line, an empty line sends them (no orders: just Enter); "
            "'help', 'save', 'quit'",
            style="dim",
        )
        lines: list[str] = []
        while True:
            try:
                raw = self.ask("> ")
            except EOFError:
                raise Quit() from None
            text = raw.strip()
            if not text:
                return lines
            word = text.split()[0].lower()
            if word == "quit":
                raise Quit()
            if word == "save":
                parts = text.split(maxsplit=1)
                self.write(Path(parts[1]) if len(parts) > 1 else self.save_path)
                continue
            if word == "help":
                for line in ship_panel(self.game.view(self.side)):
                    self.console.print(line, highlight=False, markup=False)
                continue
            lines.append(text)

    def write(self, path: Path | None) -> None:
        """Save the game record to ``path``."""
        if path is None:
            self.console.print("no save file: type 'save FILE' or start with --save FILE")
            return
        GameRecord.of(self.game).save(path)
        self.console.print(f"game saved to {path}")

    def autosave(self) -> None:
        """Write the record after a phase when a save file is set."""
        if self.save_path is not None:
            GameRecord.of(self.game).save(self.save_path)
