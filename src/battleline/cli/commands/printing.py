"""``battleline print``: the play aids as PDF (BF6-GEN-02).

* ``battleline print ships OUT.pdf --ship Mikasa --ship Fuji [--scale small]``: blank ship logs;
* ``battleline print scenario SCENARIO OUT.pdf``: a log for every ship of a scenario and each
  side's gunnery logs;
* ``battleline print gunnery OUT.pdf``: blank gunnery log sheets;
* ``battleline print charts OUT.pdf``: the combat chart tables (reconstructed);
* ``battleline print arcs|circles|rulers|aids OUT.pdf [--scale small]``: the true-scale aids
  (arc cards, turning circles, range rulers, or all three), each page with a calibration bar.

Every command takes ``--paper a4|letter``.
"""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from battleline.errors import BattlelineError


def _fail(exc: BattlelineError) -> typer.Exit:
    Console(stderr=True).print(f"[bold red]error:[/] {exc}", soft_wrap=True)
    return typer.Exit(2)


def _written(path: Path, what: str) -> None:
    Console(highlight=False).print(f"{what} written to {path}")


_PAPER_HELP = "paper size: a4 or letter"


def _true_scale(out: Path, scale: str, paper: str, aids: tuple[str, ...]) -> None:
    """Write true-scale aids; one error line for an unknown scale or paper."""
    from battleline.printing.paper import get_paper
    from battleline.printing.table_aids import AIDS, write_true_scale_aids
    from battleline.rulesets.bf1900.scales import get_scale

    try:
        the_scale, the_paper = get_scale(scale), get_paper(paper)
    except BattlelineError as exc:
        raise _fail(exc) from None
    path = write_true_scale_aids(out, the_scale, the_paper, aids)
    names = ", ".join(AIDS[a][0] for a in aids)
    _written(path, f"{names} at {the_scale.label} on {the_paper.name.upper()}")


def register(app: typer.Typer) -> None:
    """Add the ``print`` command group to the app."""
    group = typer.Typer(
        name="print",
        help="Print the play aids (ship logs, gunnery logs, charts) as PDF.",
        no_args_is_help=True,
    )
    app.add_typer(group, name="print")

    @group.command("ships")
    def print_ships(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        ship: list[str] = typer.Option(..., "--ship", help="a ship or class name; repeat it"),
        navy: str | None = typer.Option(None, help="the navy, for names two navies share"),
        scale: str = typer.Option("small", help="game scale for distances (small/medium/large)"),
        side: str = typer.Option("", help="the side to print on every log"),
        data: Path | None = typer.Option(
            None, help="a navy file or folder instead of the built-in"
        ),
    ) -> None:
        """One ship log page per ship, filled in from the ship database."""
        from battleline.printing.shiplog_pdf import write_ship_logs
        from battleline.rulesets.bf1900.scales import get_scale
        from battleline.rulesets.bf1900.shipdb import load_database
        from battleline.rulesets.bf1900.shiplog import ShipLog

        try:
            db = load_database(data)
            the_scale = get_scale(scale)
            logs = []
            for name in ship:
                cls = db.class_of_ship(name, navy)
                ship_name = next((s for s in cls.ships if s.lower() == name.lower()), None)
                logs.append(ShipLog(name=ship_name or name, cls=cls, side=side))
        except BattlelineError as exc:
            raise _fail(exc) from None
        _written(write_ship_logs(out, logs, the_scale), f"{len(logs)} ship log(s)")

    @group.command("scenario")
    def print_scenario(
        scenario: str = typer.Argument(..., help="a built-in scenario id or a scenario file"),
        out: Path = typer.Argument(..., help="the PDF file to write"),
        scale: str | None = typer.Option(None, help="override the scenario's game scale"),
    ) -> None:
        """Ship logs for every ship of a scenario, then each side's gunnery logs."""
        from battleline.printing import write_scenario_aids
        from battleline.rulesets.bf1900.scales import get_scale
        from battleline.rulesets.bf1900.scenario import get_scenario

        try:
            sc = get_scenario(scenario)
            the_scale = get_scale(scale) if scale else None
            path = write_scenario_aids(out, sc, the_scale)
        except BattlelineError as exc:
            raise _fail(exc) from None
        ships = sum(len(d.ships) for s in sc.sides for d in s.divisions)
        _written(path, f"{sc.title}: {ships} ship logs and gunnery logs")

    @group.command("gunnery")
    def print_gunnery(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        sheets: int = typer.Option(1, min=1, max=50, help="how many blank sheets"),
        turns: int = typer.Option(12, min=1, max=24, help="turn rows in each section"),
        unit: str = typer.Option("", help="unit printed over the range estimates (mm, in)"),
    ) -> None:
        """Blank gunnery log sheets: two division sections of four ships each (BF6-GEN-05)."""
        from battleline.printing.gunnery_log_pdf import GunnerySection, write_gunnery_logs

        blank = [GunnerySection("")] * (2 * sheets)
        _written(write_gunnery_logs(out, blank, turns=turns, unit=unit), f"{sheets} gunnery log(s)")

    @group.command("charts")
    def print_charts(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        charts: Path | None = typer.Option(
            None, help="a chart file or folder instead of the built-in"
        ),
    ) -> None:
        """The combat chart tables the engine uses (marked reconstructed)."""
        from battleline.printing.charts_pdf import write_charts
        from battleline.rulesets.bf1900.charts import load_charts

        try:
            loaded = load_charts(charts)
        except BattlelineError as exc:
            raise _fail(exc) from None
        _written(write_charts(out, loaded), "combat chart tables")

    def _aid_command(name: str, aids: tuple[str, ...], doc: str) -> None:
        def command(
            out: Path = typer.Argument(..., help="the PDF file to write"),
            scale: str = typer.Option("small", help="game scale (small/medium/large)"),
            paper: str = typer.Option("a4", help=_PAPER_HELP),
        ) -> None:
            _true_scale(out, scale, paper, aids)

        command.__doc__ = doc
        group.command(name)(command)

    _aid_command(
        "arcs",
        ("arcs",),
        "Arc-of-fire cards for every position, beam pattern and torpedo tube, at true scale.",
    )
    _aid_command("circles", ("circles",), "Turning-circle templates for each turning class.")
    _aid_command(
        "rulers", ("rulers",), "Range rulers with the four brackets and danger-zone gauges."
    )
    _aid_command(
        "aids",
        ("arcs", "circles", "rulers"),
        "Every true-scale aid in one file: arc cards, turning circles, range rulers.",
    )
