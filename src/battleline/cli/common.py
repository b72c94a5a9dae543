"""What the CLI commands share: one way to report a rejected command, the console they print to,
the guard against overwriting a session file, seed parsing, and the check every output file
passes before any work is done.

Error text is printed as plain text (no rich markup, no emoji codes), so the order notation a
message quotes, such as ``M:A`` or ``S:ter``, reaches the terminal unchanged.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.text import Text

from battleline.errors import BattlelineError, ScenarioError


def print_error(message: str) -> None:
    """One ``error:`` line on stderr, the message printed verbatim (no markup, no emoji)."""
    console = Console(stderr=True, highlight=False, emoji=False, soft_wrap=True)
    line = Text("error:", style="bold red")
    line.append(" " + " ".join(message.splitlines()))
    console.print(line)


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn a battleline error into one red line on stderr and exit code 2."""
    try:
        yield
    except BattlelineError as exc:
        print_error(str(exc))
        raise typer.Exit(2) from None


def out_console(width: int = 120) -> Console:
    """The console command output goes to: no highlighting, no emoji codes, long lines kept."""
    return Console(width=width, highlight=False, soft_wrap=True, emoji=False)


def refuse_overwrite(file: Path, force: bool) -> None:
    """A new session never replaces an existing file unless ``--force`` says so."""
    if file.exists() and not force:
        raise ScenarioError(f"{file} already exists; use --force to start over")


def parse_seed(text: str | int, option: str = "--seed") -> int:
    """A seed as typed: a whole number, 0 or more; anything else raises :class:`ScenarioError`."""
    value = str(text).strip()
    if not value.isdigit():
        raise ScenarioError(f"{option} {value!r}: a seed must be a whole number, 0 or more")
    return int(value)


def prepare_output(path: Path, option: str) -> Path:
    """Make sure ``path`` can be written before any work is done, and return it.

    The one rule for every output option (``--save``, ``--picture``, ``--json``, ``--plot``,
    ``print OUT``, ``draw --out``): a missing folder is created; a path that is a folder, a
    folder that cannot be created (a file in the way) or one that cannot be written is refused
    with :class:`ScenarioError` naming the option, so no game is played and then lost.
    """
    if path.is_dir():
        raise ScenarioError(f"{option} {str(path)!r}: is a folder; give a file name")
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ScenarioError(
            f"{option} {str(path)!r}: cannot create the folder {str(parent)!r}: "
            "a file is in the way"
        ) from None
    except OSError as exc:
        raise ScenarioError(
            f"{option} {str(path)!r}: cannot create the folder {str(parent)!r}: {exc.strerror}"
        ) from None
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ScenarioError(f"{option} {str(path)!r}: cannot write there (permission denied)")
    return path
