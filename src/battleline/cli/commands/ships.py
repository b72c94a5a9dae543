"""``battleline ships`` lists the ship database; ``battleline ship NAME`` prints one ship log."""

from __future__ import annotations

import json
from dataclasses import asdict
from enum import Enum
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from battleline.errors import BattlelineError
from battleline.rulesets.bf1900.ship import GunClass, ShipClass


def class_summary(cls: ShipClass) -> dict[str, Any]:
    """A class as plain JSON-ready data (every Ship Value, enums as their values)."""

    def plain(value: Any) -> Any:
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    data: dict[str, Any] = plain(asdict(cls))
    data["dc_boxes"] = cls.dc_boxes
    return data


def _main_guns(cls: ShipClass) -> str:
    mains = cls.mountings_of(GunClass.MAIN)
    if not mains:
        return "—"
    by_calibre: dict[float, int] = {}
    for m in mains:
        by_calibre[m.calibre_cm] = by_calibre.get(m.calibre_cm, 0) + m.guns
    return ", ".join(f"{n}×{cal:g} cm" for cal, n in by_calibre.items())


def _fail(exc: BattlelineError) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]error:[/] {exc}", soft_wrap=True)
    return typer.Exit(2)


def register(app: typer.Typer) -> None:
    """Add the commands to the app."""

    @app.command()
    def ships(
        navy: str | None = typer.Option(None, help="only this navy (e.g. Japan, Russia)"),
        as_json: bool = typer.Option(False, "--json", help="print every Ship Value as JSON"),
        data: Path | None = typer.Option(
            None, help="a navy file or folder instead of the built-in"
        ),
    ) -> None:
        """List the ship classes of the database."""
        from battleline.rulesets.bf1900.shipdb import load_ship_classes

        try:
            classes = list(load_ship_classes(data).values())
        except BattlelineError as exc:
            raise _fail(exc) from None
        if navy is not None:
            navies = sorted({c.navy for c in classes})
            classes = [c for c in classes if c.navy.lower() == navy.lower()]
            if not classes:
                msg = f"no navy {navy!r}; the database has {', '.join(navies)}"
                Console(stderr=True).print(f"[bold red]error:[/] {msg}", soft_wrap=True)
                raise typer.Exit(2)
        classes.sort(key=lambda c: (c.navy, c.type.value, c.name))
        if as_json:
            typer.echo(
                json.dumps([class_summary(c) for c in classes], ensure_ascii=False, indent=1)
            )
            return
        table = Table(title=f"Ship classes ({len(classes)})", title_justify="left")
        for col in ("class", "navy", "type", "year", "size", "armour", "knots", "main", "ships"):
            table.add_column(col)
        for c in classes:
            table.add_row(
                c.name + (" *" if c.overrides else ""),
                c.navy,
                c.type.value,
                str(c.year),
                str(c.size),
                f"{c.armour_vitals}-{c.armour_upperworks}",
                f"{c.max_knots:g}",
                _main_guns(c),
                ", ".join(c.ships),
            )
        console = Console(width=160, highlight=False)
        console.print(table)
        if any(c.overrides for c in classes):
            console.print("* some values hand-set; see battleline ship NAME")

    @app.command()
    def ship(
        name: str = typer.Argument(..., help="a class or ship name (Mikasa, Oslyabya, …)"),
        navy: str | None = typer.Option(None, help="the navy, for names two navies share"),
        data: Path | None = typer.Option(
            None, help="a navy file or folder instead of the built-in"
        ),
    ) -> None:
        """Print a ship's log: details, armament, propulsion, DC, compartments and boxes."""
        from battleline.cli.logsheet import log_tables
        from battleline.rulesets.bf1900.shipdb import load_database
        from battleline.rulesets.bf1900.shiplog import ShipLog

        try:
            db = load_database(data)
            cls = db.class_of_ship(name, navy)
        except BattlelineError as exc:
            raise _fail(exc) from None
        ship_name = next((s for s in cls.ships if s.lower() == name.lower()), None)
        log = ShipLog(name=ship_name or (cls.ships[0] if cls.ships else cls.name), cls=cls)
        console = Console(width=120, highlight=False)
        console.print(log_tables(log))
        if cls.sources:
            console.print("Sources: " + "; ".join(cls.sources), style="dim")
        if cls.notes:
            console.print(cls.notes, style="dim")
