"""``battleline replay FILE [--verify]``: replay a saved game and check its final state hash."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from battleline.engine import GameRecord, state_hash
from battleline.game import replay


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command(name="replay")
    def replay_command(
        file: Path = typer.Argument(..., help="a game record saved by 'demo --save'"),
        verify: bool = typer.Option(
            False, "--verify", help="exit 1 unless the final state hash matches the record"
        ),
        narrate: bool = typer.Option(False, "--narrate", help="print the replayed events"),
    ) -> None:
        """Replay a saved game from its seed and orders."""
        console = Console(width=110, highlight=False)
        record = GameRecord.load(file)
        state, events = replay(record)
        if narrate:
            from battleline.cli.narrate import Narrator

            narrator = Narrator(console, verbose=True)
            narrator(events)
            narrator.finish()
        got = state_hash(state)
        result = state.result.line() if state.result else "game not finished"
        console.print(f"{record.scenario}, seed {record.seed}: {len(record.orders)} orders")
        console.print(result)
        console.print(f"final state hash {got}")
        if verify:
            if got != record.final_hash:
                console.print(f"[bold red]MISMATCH[/]: the record says {record.final_hash}")
                raise typer.Exit(1)
            console.print("verified: the replay reaches the recorded state")
