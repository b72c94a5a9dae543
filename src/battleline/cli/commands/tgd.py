"""``battleline tgd``: referee the TGD hit and damage rules for a game on a real table.

The players move the models and measure the range, the target's bearing from the firer's bow and
the firer's bearing from the target's bow; ``tgd fire`` resolves one fire action against the ship
cards and keeps them in one session file. A rejected command prints one error line, exits with
code 2 and leaves the session file untouched.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from battleline.cli.common import (
    clear_errors,
    out_console,
    parse_seed,
    prepare_output,
    refuse_overwrite,
)
from battleline.engine.events import EventKind, EventLog

tgd_app = typer.Typer(
    name="tgd",
    help="TGD draft hit and damage rules: fire at ship cards, battleline rolls and keeps damage.",
    no_args_is_help=True,
)


def register(app: typer.Typer) -> None:
    """Add the ``tgd`` command group to the app."""
    app.add_typer(tgd_app, name="tgd")


def _card_table(names: list[str]) -> Table:
    from battleline.rulesets.tgd.card import load_card

    table = Table(title="TGD ship cards", title_justify="left")
    for col in (
        "card",
        "nation",
        "kn",
        "1 primary",
        "2 secondary",
        "3 tertiary",
        "armour",
        "4/5/6",
    ):
        table.add_column(col)
    for name in names:
        card = load_card(name)
        table.add_row(
            card.title,
            card.nation,
            str(card.speed),
            card.column_text(1),
            card.column_text(2),
            card.column_text(3),
            " ".join(str(a) for a in card.armour),
            f"{card.superstructure} / {'H' * card.hull_ends} / {'H' * card.hull_centre}",
        )
    return table


def _print_events(events: EventLog) -> None:
    out = out_console()
    for event in events:
        text = escape(event.text)
        if event.kind is EventKind.ROLL:
            out.print(f"  [dim]{text}[/]")
        else:
            out.print(f"  {text}")


@tgd_app.command("cards")
def cards() -> None:
    """List the packaged ship cards."""
    from battleline.rulesets.tgd.card import card_names

    with clear_errors():
        table = _card_table(card_names())
    out_console().print(table)


@tgd_app.command("new")
def new(
    file: Path = typer.Argument(..., help="the session file to create (JSON)"),
    ship: list[str] = typer.Option(
        ..., "--ship", help="a ship in play: NAME (a packaged card) or NAME=CARD (name or .toml)"
    ),
    seed: str | None = typer.Option(
        None, metavar="INTEGER", help="dice seed, 0 or more (default: a fresh random seed)"
    ),
    charts: Path | None = typer.Option(None, help="a TGD chart file instead of the built-in"),
    force: bool = typer.Option(False, "--force", help="overwrite an existing session file"),
) -> None:
    """Start a session with fresh cards, in fire phase 1."""
    import numpy as np

    from battleline.rulesets.tgd.session import TgdSession, parse_ship_spec

    with clear_errors():
        refuse_overwrite(file, force)
        if seed is None:
            the_seed = int(np.random.SeedSequence().generate_state(1)[0])
        else:
            the_seed = parse_seed(seed)
        session = TgdSession.new(
            [parse_ship_spec(s) for s in ship],
            seed=the_seed,
            charts_path=None if charts is None else str(charts),
        )
        prepare_output(file, "FILE")
        session.save(file)
    out = out_console()
    for log in session.logs.values():
        out.print(escape(log.summary()))
    out.print(f"seed {session.seed}; saved to {escape(str(file))}")


@tgd_app.command("show")
def show(file: Path = typer.Argument(..., help="the session file")) -> None:
    """Print the fire phase and every ship's state."""
    from battleline.rulesets.tgd.session import TgdSession

    with clear_errors():
        session = TgdSession.load(file)
    out = out_console()
    out.print(f"[bold]Fire phase {session.phase}[/]")
    for log in session.logs.values():
        lost = ", ".join(str(log.card.columns[loc - 1][i]) for loc, i in sorted(log.lost))
        out.print(escape(log.summary()) + (f"; lost: {escape(lost)}" if lost else ""))


@tgd_app.command("fire")
def fire_cmd(
    file: Path = typer.Argument(..., help="the session file"),
    firer: str = typer.Argument(..., help="the firing ship"),
    strength: int = typer.Argument(..., help="the gun strength fired (one per action)"),
    target: str = typer.Argument(..., help="the target ship"),
    rng: float = typer.Option(..., "--range", help="range to the target, in TGD units"),
    bearing: float = typer.Option(
        ..., "--bearing", help="target's bearing from the firer's bow, degrees clockwise"
    ),
    aspect: float = typer.Option(
        ..., "--aspect", help="firer's bearing from the target's bow, degrees clockwise"
    ),
    battery: list[str] = typer.Option(
        [], "--battery", help="fire only the battery on these arc letters (repeat); default all"
    ),
    halted: bool = typer.Option(False, "--halted", help="the target has not moved (+1)"),
) -> None:
    """Resolve one fire action (TGD-FIRE-01..03) and save the damage."""
    from battleline.rulesets.tgd.fire import FireOrder
    from battleline.rulesets.tgd.session import TgdSession

    with clear_errors():
        session = TgdSession.load(file)
        order = FireOrder(
            strength,
            rng,
            bearing % 360.0,
            aspect % 360.0,
            tuple(b.lower() for b in battery),
            halted,
        )
        result, events = session.fire(firer, target, order)
        session.save(file)
    _print_events(events)
    out = out_console()
    calls = " ".join(r.call for r in result.results)
    out.print(f"[bold]{result.hits} hit(s)[/]" + (f": {calls}" if calls else ""))
    out.print(escape(session.logs[session.ship_name(target)].summary()))


@tgd_app.command("phase")
def phase(file: Path = typer.Argument(..., help="the session file")) -> None:
    """Start the next fire phase: every battery may fire again."""
    from battleline.rulesets.tgd.session import TgdSession

    with clear_errors():
        session = TgdSession.load(file)
        number = session.next_phase()
        session.save(file)
    out_console().print(f"fire phase {number}")
