"""What the referee command groups (``dba``, ``tgd``, ``tabletop``, ``draw``) share: one way to
report a rejected command, the console they print to, and the guard against overwriting a
session file."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from battleline.errors import BattlelineError, ScenarioError


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn a battleline error into one red line on stderr and exit code 2."""
    try:
        yield
    except BattlelineError as exc:
        Console(stderr=True, highlight=False).print(
            f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True
        )
        raise typer.Exit(2) from None


def out_console() -> Console:
    """The console command output goes to: 120 columns, no highlighting, long lines kept."""
    return Console(width=120, highlight=False, soft_wrap=True)


def refuse_overwrite(file: Path, force: bool) -> None:
    """A new session never replaces an existing file unless ``--force`` says so."""
    if file.exists() and not force:
        raise ScenarioError(f"{file} already exists; use --force to start over")
