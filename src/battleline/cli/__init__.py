"""The ``battleline`` command line.

Each sub-command lives in its own module under :mod:`battleline.cli.commands` and exposes
``register(app)``; this module finds them all, so adding a command never touches this file.
The CLI holds no rules: it parses arguments, calls the engine, and prints with rich.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer
from rich.console import Console

from battleline.errors import BattlelineError

app = typer.Typer(
    name="battleline",
    help="Referee pre-dreadnought naval battles (Battlefleet 1900 and friends).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
err_console = Console(stderr=True)


@app.callback()
def _root() -> None:
    """Referee pre-dreadnought naval battles (Battlefleet 1900 and friends)."""


def _register_commands() -> None:
    from battleline.cli import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(app)


_register_commands()


def main() -> None:
    """Console entry point: run the app and turn battleline errors into one clear line."""
    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:  # a typer.Exit(code) is returned, not raised, here
            sys.exit(code)
    except BattlelineError as exc:
        from battleline.cli.common import print_error

        print_error(str(exc))
        sys.exit(2)
    except (typer.Exit, SystemExit) as exc:
        code = getattr(exc, "exit_code", None)
        if code is None:
            code = getattr(exc, "code", 0)
        sys.exit(code or 0)
    except typer.Abort:
        err_console.print("aborted")
        sys.exit(1)
    except Exception as exc:
        # Usage errors from typer's click layer: print click's own message, no traceback.
        show = getattr(exc, "show", None)
        if callable(show) and hasattr(exc, "exit_code"):
            show()
            sys.exit(int(exc.exit_code))
        raise
