"""``battleline tabletop``: keep the ship logs and run the Damage Phase for a game on a real table.

The players move the models, measure ranges and find hit zones themselves; these commands take
the hits and torpedo launches they report (checked against what the firing ship could have done)
and the damage control they declare, roll everything else (or take the players' own dice), and
keep the logs in one session file. A rejected command prints one error line, exits with code 2
and leaves the session file untouched; ``undo`` takes back the last command that changed it.
"""

from __future__ import annotations

import re
import shlex
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from battleline.cli.common import (
    clear_errors,
    out_console,
    parse_seed,
    prepare_output,
    refuse_overwrite,
)
from battleline.engine.events import Event, EventKind
from battleline.errors import OrderSyntaxError, ScenarioError
from battleline.tabletop import undo as undo_stack
from battleline.tabletop.checks import LaunchReport, parse_launches
from battleline.tabletop.dice import PlayerDice, parse_rolls
from battleline.tabletop.hits_notation import HitReport, parse_hits
from battleline.tabletop.session import TabletopSession, parse_ship_spec

tabletop_app = typer.Typer(
    name="tabletop",
    help="Tabletop-assist mode: you move real models, battleline keeps the logs and rolls damage.",
    no_args_is_help=True,
)

_HITS = typer.Option(
    [], "--hits", help="reported hits, e.g. 'Mikasa <- Fuji A 2 AP b2 port'; ';' separates several"
)
_HITS_FILE = typer.Option(
    [], "--hits-file", help="a file of reported hits, one per line ('#' comments)"
)
_LAUNCH = typer.Option(
    [],
    "--launch",
    help="torpedoes launched this turn, hits included: FIRER [MOUNT] [COUNT], e.g. 'Sokol 2'",
)
_FRIENDLY = typer.Option(
    False, "--friendly-fire", help="confirm that a reported hit on a ship of the same side happened"
)


def _status_table(session: TabletopSession) -> Table:
    title = f"Turn {session.turn}" + (f" ({session.scenario})" if session.scenario else "")
    table = Table(title=title, title_justify="left")
    columns = ["ship", "class", "side"]
    with_divisions = any(e.division for e in session.ships.values())
    if with_divisions:
        columns.append("division")
    columns += ["speed", "DC dice", "flooding", "fires", "torpedoes", "state"]
    for col in columns:
        table.add_column(col)
    for name, log in session.logs.items():
        if log.sunk:
            state = log.lost_reason or "sunk"
        elif log.sinking is not None:
            state = f"sinking, {log.sinking.turns_left} turn(s) left"
        else:
            state = ", ".join(log.listing) or "afloat"
        entry = session.ships[name]
        left = log.torpedoes_left
        tubes = " ".join(f"{t.key} {left.get(t.key, 0)}" for t in log.cls.torpedoes) or "-"
        row = [name, log.cls.name, entry.side]
        if with_divisions:
            row.append(entry.division or "")
        row += [
            f"{log.speed_knots:g} kn",
            str(log.dc_dice),
            str(log.flooding_points),
            str(log.fires),
            tubes,
            state,
        ]
        table.add_row(*row)
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


def _command_line(name: str, args: Sequence[str]) -> str:
    return " ".join(["tabletop", name, *(shlex.quote(a) for a in args)])


def _quoted_rolls(text: str) -> list[str]:
    """The numbers a consequence line quotes after its word 'roll'/'rolls'."""
    at = text.find("roll")
    return re.findall(r"\d+", text[at:]) if at >= 0 else []


def print_events(out: Console, events: Sequence[Event]) -> None:
    """A phase's events, each die shown once: a roll is printed on its own line only when the
    line it leads to does not quote it already."""
    rolls: list[Event] = []

    def flush(before: Event | None) -> None:
        if not rolls:
            return
        if before is not None:
            quoted = Counter(_quoted_rolls(before.text))
            wanted = Counter(str(r.data.get("value", "")) for r in rolls)
            if not wanted - quoted:
                rolls.clear()
                return
        for roll in rolls:
            out.print(Text(f"  {roll.text}", style="dim"))
        rolls.clear()

    for event in events:
        if event.kind is EventKind.ROLL:
            rolls.append(event)
            continue
        flush(event)
        if event.kind is EventKind.PHASE:
            out.print()
            out.print(Text(event.text, style="bold"))
        else:
            out.print(Text(f"  {event.text}"))
    flush(None)


def register(app: typer.Typer) -> None:
    """Add the ``tabletop`` command group to the app."""
    app.add_typer(tabletop_app, name="tabletop")


@tabletop_app.command("new")
def new(
    file: Path = typer.Argument(..., help="the session file to create (JSON)"),
    scenario: str | None = typer.Option(
        None, "--scenario", help="every ship, side and division of a scenario (id or file)"
    ),
    ship: list[str] = typer.Option(
        [], "--ship", help="a ship in play: NAME (a ship of the database) or NAME=CLASS"
    ),
    side: list[str] = typer.Option(
        [], "--side", help="the side of each --ship, in the same order (default: its navy)"
    ),
    seed: str | None = typer.Option(
        None, metavar="INTEGER", help="dice seed, 0 or more (default: a fresh random seed)"
    ),
    charts: Path | None = typer.Option(None, help="a chart file or folder instead of the built-in"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing session file"),
) -> None:
    """Start a session on turn 1 with fresh logs: the ships of a scenario, or those named."""
    with clear_errors():
        refuse_overwrite(file, force)
        the_seed = None if seed is None else parse_seed(seed)
        charts_path = None if charts is None else str(charts)
        if scenario is not None:
            if ship or side:
                raise ScenarioError("give --scenario or --ship, not both")
            session = TabletopSession.from_scenario(
                scenario, seed=the_seed, charts_path=charts_path
            )
        else:
            if not ship:
                raise ScenarioError("name the ships: --scenario NAME, or --ship NAME for each")
            if side and len(side) != len(ship):
                raise ScenarioError(
                    f"{len(ship)} --ship but {len(side)} --side: give one --side per --ship, "
                    "or none to use each ship's navy"
                )
            specs = [parse_ship_spec(s) for s in ship]
            sides: list[str | None] = list(side) if side else [None] * len(specs)
            session = TabletopSession.new(
                [(name, cls, sd) for (name, cls), sd in zip(specs, sides, strict=True)],
                seed=the_seed,
                charts_path=charts_path,
            )
        prepare_output(file, "FILE")
        session.save(file)
        undo_stack.forget(file)
    out = out_console()
    out.print(_status_table(session))
    out.print(Text(f"seed {session.seed}; saved to {file}"))


@tabletop_app.command("show")
def show(
    file: Path = typer.Argument(..., help="the session file"),
    ship: str | None = typer.Argument(None, help="only this ship's log"),
) -> None:
    """Print the turn, every ship's state, this turn's reports so far and the log sheets."""
    from battleline.cli.logsheet import log_tables

    with clear_errors():
        session = TabletopSession.load(file)
        names = [session.ship_name(ship)] if ship else list(session.logs)
    out = out_console()
    out.print(_status_table(session))
    for line in session.pending_hits:
        out.print(Text(f"reported this turn: {line}"))
    for line in session.pending_launches:
        out.print(Text(f"launched this turn: {line}"))
    for name in names:
        out.print(log_tables(session.logs[name]))


@tabletop_app.command("report")
def report(
    file: Path = typer.Argument(..., help="the session file"),
    hits: list[str] = _HITS,
    hits_file: list[Path] = _HITS_FILE,
    launch: list[str] = _LAUNCH,
    friendly_fire: bool = _FRIENDLY,
) -> None:
    """Report hits and torpedo launches as they happen; they wait for this turn's Damage Phase.

    Each is checked at once with everything reported earlier in the turn.
    """
    with clear_errors():
        session = TabletopSession.load(file)
        before = file.read_bytes()
        reports = _read_hits(hits, hits_file)
        launches: list[LaunchReport] = parse_launches(launch)
        if not reports and not launches:
            raise OrderSyntaxError("nothing to report: give --hits, --hits-file or --launch")
        session.report(reports, launches, friendly_fire=friendly_fire)
        session.save(file)
        undo_stack.push(
            file, before, _command_line("report", [*hits, *map(str, hits_file), *launch])
        )
    out = out_console()
    for line in session.pending_hits:
        out.print(Text(f"reported this turn: {line}"))
    for line in session.pending_launches:
        out.print(Text(f"launched this turn: {line}"))
    out.print(Text(f"saved to {file}; turn {session.turn}, Damage Phase still to come"))


def _ask_die(sides: int, what: str) -> int:
    while True:
        text = typer.prompt(f"roll a d{sides} for {what}", default="", show_default=False)
        if not text.strip():
            raise OrderSyntaxError(f"--ask-dice: no roll given for {what} (d{sides})")
        if text.strip().isdigit() and 1 <= int(text) <= sides:
            return int(text)
        Console(stderr=True, highlight=False, emoji=False).print(
            Text(f"  a d{sides} shows 1 to {sides}, not {text.strip()!r}; roll again")
        )


@tabletop_app.command("damage")
def damage(
    file: Path = typer.Argument(..., help="the session file"),
    hits: list[str] = _HITS,
    hits_file: list[Path] = _HITS_FILE,
    launch: list[str] = _LAUNCH,
    friendly_fire: bool = _FRIENDLY,
    dc: list[str] = typer.Option(
        [], "--dc", help="damage control, e.g. 'Mikasa: P; HVY:forward' (one --dc per ship)"
    ),
    dice: str | None = typer.Option(
        None, "--dice", help="your own rolls for this phase, in order, e.g. 3,1,5"
    ),
    ask_dice: bool = typer.Option(
        False, "--ask-dice", help="ask for each die the phase needs (after any --dice)"
    ),
) -> None:
    """Run this turn's Damage Phase (Steps One to Four) for every ship, then advance the turn."""
    with clear_errors():
        session = TabletopSession.load(file)
        before = file.read_bytes()
        reports = _read_hits(hits, hits_file)
        launches = parse_launches(launch)
        declarations = session.parse_dc(dc)
        player = None
        if dice is not None or ask_dice:
            rolls = parse_rolls(dice) if dice is not None else []
            player = PlayerDice(rolls, ask=_ask_die if ask_dice else None)
        result = session.damage_phase(
            reports, declarations, launches=launches, friendly_fire=friendly_fire, dice=player
        )
        if player is not None and player.unused():
            left = player.unused()
            raise OrderSyntaxError(
                f"--dice: {len(left)} roll(s) left over ({', '.join(map(str, left))}); the "
                f"Damage Phase needed {player.draws}; nothing was saved"
            )
        session.save(file)
        undo_stack.push(
            file,
            before,
            _command_line("damage", [*hits, *map(str, hits_file), *launch, *dc]),
        )
    out = out_console()
    out.print(Text(f"Turn {result.turn}: Damage Phase", style="bold"))
    print_events(out, list(result.events))
    out.print()
    out.print(_status_table(session))
    out.print(Text(f"saved to {file}; now turn {session.turn}"))


@tabletop_app.command("undo")
def undo(file: Path = typer.Argument(..., help="the session file")) -> None:
    """Take back the last command that changed the session, restoring the file exactly."""
    with clear_errors():
        command = undo_stack.undo(file)
        session = TabletopSession.load(file)
    out = out_console()
    out.print(Text(f"undone: {command}"))
    out.print(_status_table(session))


@tabletop_app.command("print")
def print_logs(
    file: Path = typer.Argument(..., help="the session file"),
    out_pdf: Path = typer.Argument(..., metavar="OUT", help="the PDF file to write"),
    scale: str | None = typer.Option(
        None, help="game scale for distances (default: the session's)"
    ),
) -> None:
    """Write every ship's log as it stands now, marks and all, as a PDF."""
    from battleline.printing.shiplog_pdf import write_ship_logs
    from battleline.rulesets.bf1900.scales import get_scale

    with clear_errors():
        session = TabletopSession.load(file)
        the_scale = get_scale(scale or session.scale)
        prepare_output(out_pdf, "OUT")
        where = write_ship_logs(out_pdf, list(session.logs.values()), the_scale)
    out_console().print(Text(f"{len(session.logs)} ship log(s), turn {session.turn}: {where}"))


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
            Text(
                f"ok: {name}: {format_declarations(decls)} "
                f"({dice_needed(log, decls)} of {log.dc_dice} DC dice)"
            )
        )
