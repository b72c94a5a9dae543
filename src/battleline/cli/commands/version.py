"""``battleline version``."""

from __future__ import annotations

import typer

from battleline import __version__


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def version() -> None:
        """Print the battleline version."""
        typer.echo(__version__)
