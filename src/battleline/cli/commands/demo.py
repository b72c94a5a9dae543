"""``battleline demo``: a built-in scenario played to the end, admiral against admiral.

Turn by turn it prints the orders given, each range estimate against the true range, splashes and
hit zones, torpedoes, damage with its dice, fires, flooding, repairs and sinkings; then a summary
of every ship's fate and the verdict by the scenario's victory conditions, and where the picture
of the tracks was written. The same seed prints the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from battleline.engine import Game, GameRecord
from battleline.engine.events import Event, EventKind
from battleline.engine.ruleset import ShipFate
from battleline.game import new_game

DEFAULT_SCENARIO = "channel-1900"

#: Events shown as one narrative line each, with the style of the line.
_STYLE: dict[EventKind, str] = {
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


class Narrator:
    """Prints a game's events as they are produced, grouped by turn and phase."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.turn = 0
        self.rolls: list[str] = []

    def __call__(self, events: Sequence[Event]) -> None:
        shots: list[Event] = []
        for e in events:
            if e.turn != self.turn and e.kind is EventKind.PHASE:
                self.turn = e.turn
                self._flush_shots(shots)
                self.console.rule(f"[bold]Turn {e.turn}[/]")
            if e.kind is EventKind.ROLL:
                self.rolls.append(str(e.data.get("value", "?")))
                continue
            if e.kind in (EventKind.SPLASH, EventKind.HIT_ZONE):
                self.rolls.clear()  # the marker; the umpire's note below has the figures
                continue
            if e.kind is EventKind.NOTE and e.data.get("measured"):
                shots.append(e)
                continue
            self._flush_shots(shots)
            if e.kind is EventKind.ORDER:
                self.console.print(Text(f"  order  {e.text}", style="dim cyan"))
            elif e.kind is EventKind.RESULT:
                pass
            elif e.kind in _STYLE:
                shown = self.rolls and "roll" not in e.text
                dice = f"  [dice {' '.join(self.rolls)}]" if shown else ""
                self.console.print(Text(f"  {e.text}{dice}", style=_STYLE[e.kind]))
            self.rolls.clear()
        self._flush_shots(shots)

    def _flush_shots(self, shots: list[Event]) -> None:
        """The turn's range estimates against true ranges, one table."""
        if not shots:
            return
        table = Table(title="gunnery: estimate vs true range", title_justify="left", box=None)
        for col in ("firer", "target", "estimate", "true", "error", "result"):
            table.add_column(
                col, justify="right" if col in ("estimate", "true", "error") else "left"
            )
        for e in shots:
            est = float(e.data.get("estimate_m", 0.0))
            true = float(e.data.get("leading_m", 0.0))
            hit = bool(e.data.get("hit"))
            table.add_row(
                str(e.data.get("firer", e.ship)),
                str(e.data.get("target", "")),
                f"{est:,.0f} m",
                f"{true:,.0f} m",
                f"{est - true:+,.0f} m",
                Text("HIT ZONE", style="bold red") if hit else Text("splash", style="dim"),
            )
        self.console.print(table)
        shots.clear()


def summary(fates: Sequence[ShipFate]) -> Table:
    """Each ship's fate, with the ruleset's own detail columns."""
    table = Table(title="Fates", title_justify="left")
    extra = [k for k, _ in fates[0].details] if fates else []
    for col in ("side", "ship", "class", "fate", *extra):
        table.add_column(col)
    for f in fates:
        style = {
            "sunk": "bold red",
            "sinking": "red",
            "surrendered": "yellow",
            "crippled": "yellow",
            "intact": "green",
        }.get(f.fate, "")
        table.add_row(
            f.side, f.name, f.ship_class, Text(f.fate, style=style), *(v for _, v in f.details)
        )
    return table


def write_picture(game: Game[Any, Any], path: Path) -> Path | None:
    """The battle's tracks drawn by the ruleset (``None`` if it draws none)."""
    written = game.ruleset.picture(game.state, str(path))
    return None if written is None else Path(written)


def run_demo(
    console: Console,
    scenario: str = DEFAULT_SCENARIO,
    seed: int = 1,
    *,
    quiet: bool = False,
    save: Path | None = None,
    picture: Path | None = None,
) -> Game[Any, Any]:
    """Play the demo and print it; returns the finished game."""
    from battleline.ai.base import play

    game = new_game(scenario, seed)
    st = game.state
    console.print(
        f"[bold]battleline demo[/]: {scenario}, seed {seed}, {st.sides[0]} against {st.sides[1]}, "
        f"{len(game.ruleset.fates(st))} ships, up to {st.turn_limit} turns"
    )
    narrator = Narrator(console)
    if not quiet:
        narrator(game.events.events)
    play(game, on_events=None if quiet else narrator)
    console.print()
    console.print(summary(game.ruleset.fates(game.state)))
    assert game.state.result is not None
    console.print(Text(game.state.result.line(), style="bold"))
    if save is not None:
        GameRecord.of(game).save(save)
        console.print(f"game saved to {save}")
    target = picture or Path(f"battleline-{Path(scenario).stem}-seed{seed}.svg")
    where = write_picture(game, target)
    if where is not None:
        console.print(f"picture of the tracks: {where}")
    return game


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def demo(
        scenario: str = typer.Option(DEFAULT_SCENARIO, help="built-in scenario id or a file"),
        seed: str = typer.Option(
            "1", metavar="INTEGER", help="the game seed, 0 or more (same seed, same battle)"
        ),
        save: Path | None = typer.Option(None, help="save the game record (JSON) here"),
        quiet: bool = typer.Option(False, "--quiet", help="only the summary and the result"),
        picture: Path | None = typer.Option(None, help="where to write the picture of the tracks"),
        charts: Path | None = typer.Option(
            None,
            help="a chart file or folder instead of the built-in (a saved game then "
            "replays only with the same charts)",
        ),
    ) -> None:
        """Play a built-in scenario to the end, admiral against admiral."""
        from battleline.cli.common import parse_seed, prepare_output

        # Every input and output is checked before a single move is played; a battleline error
        # becomes one error line in main().
        the_seed = parse_seed(seed)
        if save is not None:
            prepare_output(save, "--save")
        picture = prepare_output(
            picture or Path(f"battleline-{Path(scenario).stem}-seed{the_seed}.svg"), "--picture"
        )
        if charts is not None:
            from battleline.rulesets.bf1900.ruleset import use_charts

            use_charts(charts)  # validated now: a bad file is one error line, before any play
        run_demo(
            Console(width=110, highlight=False),
            scenario,
            the_seed,
            quiet=quiet,
            save=save,
            picture=picture,
        )
