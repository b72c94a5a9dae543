"""``battleline demo``: a built-in scenario played to the end, admiral against admiral.

By default each turn gets a heading, each phase a label with the events of note under it, and a
short summary (:mod:`battleline.cli.narrate`); the game ends with the after-action report
(:mod:`battleline.cli.report`) and where the picture of the tracks was written. ``--verbose``
prints the full record with every die, ``--step`` pauses after each phase, ``--quiet`` prints the
fates and the verdict only. The same seed prints the same bytes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from battleline.cli.narrate import Narrator
from battleline.cli.report import fates_table, print_report
from battleline.engine import Game, GameRecord
from battleline.engine.events import EventKind
from battleline.engine.ruleset import ShipFate
from battleline.game import new_game

DEFAULT_SCENARIO = "channel-1900"


def summary(fates: Sequence[ShipFate]) -> Table:
    """Each ship's fate, with the ruleset's own detail columns."""
    return fates_table(fates)


def write_picture(game: Game[Any, Any], path: Path) -> Path | None:
    """The battle's tracks drawn by the ruleset (``None`` if it draws none), with turn ticks
    from the MOVE events where the ruleset's picture takes them (bf1900 and its kin)."""
    ticks: dict[str, list[tuple[int, float, float]]] = {}
    for e in game.events.events:
        if e.kind is EventKind.MOVE and e.ship and "x" in e.data and "y" in e.data:
            ticks.setdefault(e.ship, []).append((e.turn, float(e.data["x"]), float(e.data["y"])))
    with_ticks = getattr(game.ruleset, "picture_with_ticks", None)
    if with_ticks is not None:
        written = with_ticks(game.state, str(path), ticks)
    else:
        written = game.ruleset.picture(game.state, str(path))
    return None if written is None else Path(written)


def run_demo(
    console: Console,
    scenario: str = DEFAULT_SCENARIO,
    seed: int = 1,
    *,
    quiet: bool = False,
    verbose: bool = False,
    pause: Callable[[str], None] | None = None,
    save: Path | None = None,
    picture: Path | None = None,
    ruleset: str | None = None,
) -> Game[Any, Any]:
    """Play the demo and print it (with ``ruleset`` instead of the scenario's own, if given);
    returns the finished game."""
    from battleline.ai.base import play

    game = new_game(scenario, seed, ruleset)
    st = game.state
    console.print(
        f"[bold]battleline demo[/]: {scenario}, seed {seed}, {st.sides[0]} against {st.sides[1]}, "
        f"{len(game.ruleset.fates(st))} ships, up to {st.turn_limit} turns"
    )
    narrator = Narrator(console, verbose=verbose, pause=pause)
    if not quiet:
        narrator(game.events.events)
    play(game, on_events=None if quiet else narrator)
    if not quiet:
        narrator.finish()
    console.print()
    if quiet:
        console.print(summary(game.ruleset.fates(game.state)))
        if game.state.result is not None:
            console.print(game.state.result.line(), style="bold")
    else:
        print_report(console, game)
    if save is not None:
        GameRecord.of(game).save(save)
        console.print(f"game saved to {save}")
    target = picture or Path(f"battleline-{Path(scenario).stem}-seed{seed}.svg")
    where = write_picture(game, target)
    if where is not None:
        console.print(f"picture of the tracks: {where}")
    return game


class StepPause:
    """``--step``: wait for a line on stdin after each phase; ``q`` (or end of input) stops
    pausing and plays on to the end."""

    def __init__(self) -> None:
        self.on = True

    def __call__(self, where: str) -> None:
        if not self.on:
            return
        typer.echo(f"-- end of {where}: Enter for the next phase, q to play to the end --")
        line = sys.stdin.readline()
        if not line or line.strip().lower() == "q":
            self.on = False


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
        verbose: bool = typer.Option(
            False, "--verbose", help="the full record: every order, event and die"
        ),
        step: bool = typer.Option(
            False, "--step", help="pause after each phase (Enter to go on, q to play to the end)"
        ),
        picture: Path | None = typer.Option(None, help="where to write the picture of the tracks"),
        ruleset: str | None = typer.Option(
            None,
            help="play the scenario with this ruleset instead of its own (one that reads the "
            "same scenario schema: bf1900, bf1900-1d12 and tgd read each other's)",
        ),
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
            verbose=verbose,
            pause=StepPause() if step else None,
            save=save,
            picture=picture,
            ruleset=ruleset,
        )
