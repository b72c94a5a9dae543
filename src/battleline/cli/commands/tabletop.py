"""``battleline tabletop``: keep the ship logs and run the Damage Phase for a game on a real table.

The players move the models, measure ranges and find hit zones themselves; these commands take
the hits they report and the damage control they declare, roll everything else, and keep the logs
in one session file. A rejected command prints one error line, exits with code 2 and leaves the
session file untouched.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from battleline.cli.common import clear_errors, out_console, refuse_overwrite
from battleline.engine.events import EventKind
from battleline.errors import ScenarioError
from battleline.tabletop.hits_notation import HitReport, parse_hits
from battleline.tabletop.session import TabletopSession, parse_ship_spec

tabletop_app = typer.Typer(
    name="tabletop",
    help="Tabletop-assist mode: you move real models, battleline keeps the logs and rolls damage.",
    no_args_is_help=True,
)


def _status_table(session: TabletopSession) -> Table:
    table = Table(title=f"Turn {session.turn}", title_justify="left")
    for col in ("ship", "class", "side", "speed", "DC dice", "flooding", "fires", "state"):
        table.add_column(col)
    for name, log in session.logs.items():
        if log.sunk:
            state = log.lost_reason or "sunk"
        elif log.sinking is not None:
            state = f"sinking, {log.sinking.turns_left} turn(s) left"
        else:
            state = ", ".join(log.listing) or "afloat"
        table.add_row(
            name,
            log.cls.name,
            session.ships[name].side,
            f"{log.speed_knots:g} kn",
            str(log.dc_dice),
            str(log.flooding_points),
            str(log.fires),
            state,
        )
    return table


def _read_hits(hits: Sequence[str], hits_files: Sequence[Path]) -> list[HitReport]:
    reports: list[HitReport] = []
    for text in hits:
        reports.extend(parse_hits(text))
    for path in hits_files:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ScenarioError(f"hits file {str(path)!r}: cannot read: {exc.strerror}") from None
        reports.extend(parse_hits(text))
    return reports


def register(app: typer.Typer) -> None:
    """Add the ``tabletop`` command group to the app."""
    app.add_typer(tabletop_app, name="tabletop")


@tabletop_app.command("new")
def new(
    file: Path = typer.Argument(..., help="the session file to create (JSON)"),
    ship: list[str] = typer.Option(
        ..., "--ship", help="a ship in play: NAME (a ship of the database) or NAME=CLASS"
    ),
    side: list[str] = typer.Option(
        [], "--side", help="the side of each --ship, in the same order (default: its navy)"
    ),
    seed: int | None = typer.Option(None, help="dice seed (default: a fresh random seed)"),
    charts: Path | None = typer.Option(None, help="a chart file or folder instead of the built-in"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing session file"),
) -> None:
    """Start a session: the ships in play with fresh logs, on turn 1."""
    with clear_errors():
        refuse_overwrite(file, force)
        if side and len(side) != len(ship):
            raise ScenarioError(
                f"{len(ship)} --ship but {len(side)} --side: give one --side per --ship, "
                "or none to use each ship's navy"
            )
        specs = [parse_ship_spec(s) for s in ship]
        sides: list[str | None] = list(side) if side else [None] * len(specs)
        session = TabletopSession.new(
            [(name, cls, sd) for (name, cls), sd in zip(specs, sides, strict=True)],
            seed=seed,
            charts_path=None if charts is None else str(charts),
        )
        session.save(file)
    out = out_console()
    out.print(_status_table(session))
    out.print(f"seed {session.seed}; saved to {escape(str(file))}")


@tabletop_app.command("show")
def show(
    file: Path = typer.Argument(..., help="the session file"),
    ship: str | None = typer.Argument(None, help="only this ship's log"),
) -> None:
    """Print the turn, every ship's state and the log sheets."""
    from battleline.cli.logsheet import log_tables

    with clear_errors():
        session = TabletopSession.load(file)
        names = [session.ship_name(ship)] if ship else list(session.logs)
    out = out_console()
    out.print(_status_table(session))
    for name in names:
        out.print(log_tables(session.logs[name]))


@tabletop_app.command("damage")
def damage(
    file: Path = typer.Argument(..., help="the session file"),
    hits: list[str] = typer.Option(
        [],
        "--hits",
        help="reported hits, e.g. 'Mikasa <- Fuji A 2 AP b2 port'; ';' separates several",
    ),
    hits_file: list[Path] = typer.Option(
        [], "--hits-file", help="a file of reported hits, one per line ('#' comments)"
    ),
    dc: list[str] = typer.Option(
        [], "--dc", help="damage control, e.g. 'Mikasa: P; HVY:forward' (one --dc per ship)"
    ),
) -> None:
    """Run this turn's Damage Phase (Steps One to Four) for every ship, then advance the turn."""
    with clear_errors():
        session = TabletopSession.load(file)
        reports = _read_hits(hits, hits_file)
        declarations = session.parse_dc(dc)
        result = session.damage_phase(reports, declarations)
        session.save(file)
    out = out_console()
    out.print(f"[bold]Turn {result.turn}: Damage Phase[/]")
    for event in result.events:
        text = escape(event.text)
        if event.kind is EventKind.PHASE:
            out.print(f"\n[bold]{text}[/]")
        elif event.kind is EventKind.ROLL:
            out.print(f"  [dim]{text}[/]")
        else:
            out.print(f"  {text}")
    out.print()
    out.print(_status_table(session))
    out.print(f"saved to {escape(str(file))}; now turn {session.turn}")


@tabletop_app.command("dc-check")
def dc_check(
    file: Path = typer.Argument(..., help="the session file"),
    dc: list[str] = typer.Option(
        ..., "--dc", help="damage control, e.g. 'Mikasa: P; HVY:forward' (one --dc per ship)"
    ),
) -> None:
    """Check damage-control declarations against the logs now, without rolling."""
    from battleline.rulesets.bf1900.damage.declarations import format_declarations
    from battleline.rulesets.bf1900.damage.step3 import dice_needed

    with clear_errors():
        session = TabletopSession.load(file)
        declarations = session.parse_dc(dc)
        session.check_dc(declarations)
    out = out_console()
    for name, decls in declarations.items():
        log = session.logs[name]
        out.print(
            f"ok: {escape(name)}: {escape(format_declarations(decls))} "
            f"({dice_needed(log, decls)} of {log.dc_dice} DC dice)"
        )
