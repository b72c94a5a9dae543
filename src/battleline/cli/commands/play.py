"""``battleline play SCENARIO --side NAME``: one side against the AI in the terminal.

The game itself runs in :mod:`battleline.cli.terminal_game`; this module parses the options,
checks every input and output before a move is played, and starts or resumes the game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console

from battleline.errors import ScenarioError


def _ask(prompt: str) -> str:
    """One line from the player: ``input`` on a terminal (readline completion), else stdin."""
    if sys.stdin.isatty():
        return input(prompt)
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EOFError
    return line


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def play(
        scenario: str = typer.Argument(
            "", metavar="[SCENARIO]", help="built-in scenario id or a file (not with --resume)"
        ),
        side: str = typer.Option(..., "--side", help="the side you command"),
        seed: str = typer.Option(
            "1", metavar="INTEGER", help="the game seed, 0 or more (same seed, same dice)"
        ),
        save: Path | None = typer.Option(
            None, help="save the game record here after every phase (and on 'save')"
        ),
        resume: Path | None = typer.Option(None, help="go on with a game saved by --save"),
    ) -> None:
        """Command one side against the AI admirals, phase by phase in the terminal."""
        from battleline.cli.common import parse_seed, prepare_output
        from battleline.cli.terminal_game import TerminalGame, install_completion
        from battleline.engine import GameRecord
        from battleline.errors import UnknownNameError
        from battleline.game import new_game, replay_game

        if save is not None:
            prepare_output(save, "--save")
        if resume is not None:
            if scenario:
                raise ScenarioError("play: give either SCENARIO or --resume FILE, not both")
            game = replay_game(GameRecord.load(resume))
        else:
            if not scenario:
                raise ScenarioError("play: SCENARIO is missing (or give --resume FILE)")
            game = new_game(scenario, parse_seed(seed))
        if side not in game.state.sides:
            raise UnknownNameError("side", side, list(game.state.sides))
        if sys.stdin.isatty():
            names = [*game.ruleset.owners(game.state)]
            view = game.view(side)
            names += list(getattr(view, "divisions", {}) or {})
            install_completion(names)
        console = Console(width=110, highlight=False)
        if game.finished:
            console.print(f"this game is over: {game.state.result.line()}")
            return
        TerminalGame(game, side, console, _ask, save=save).run()
