"""``battleline print``: the play aids as PDF (BF6-GEN-02).

* ``battleline print ships OUT.pdf --ship Mikasa --ship Fuji [--scale small]``: blank ship logs;
* ``battleline print scenario SCENARIO OUT.pdf``: the set-up sheet, a log for every ship, each
  side's gunnery logs to the turn limit, the damage-codes key and the scale's table;
* ``battleline print setup SCENARIO OUT.pdf``: the set-up sheet alone;
* ``battleline print gunnery OUT.pdf``: blank gunnery log sheets;
* ``battleline print charts OUT.pdf``: the combat chart tables (reconstructed);
* ``battleline print reference OUT.pdf``: the damage-codes key and the scales and range brackets;
* ``battleline print arcs|circles|rulers|aids OUT.pdf [--scale small]``: the true-scale aids
  (arc cards, turning circles, range rulers, or all three), each page with a calibration bar.

Every command takes ``--paper a4|letter``. A bad name or value stops the command with one line
(exit status 2) before any file is written.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from battleline.cli.common import prepare_output, print_error
from battleline.errors import BattlelineError, UnknownNameError

if TYPE_CHECKING:
    from battleline.printing.paper import Paper

_PAPER_HELP = "paper size: a4 or letter"
_HALF_HELP = "which ship logs go two to a sheet: small (small craft), all (all that fit), none"


def _fail(exc: BattlelineError | ValueError) -> typer.Exit:
    print_error(str(exc))
    return typer.Exit(2)


def _written(path: Path, what: str) -> None:
    Console(highlight=False, emoji=False).print(f"{what} written to {path}", markup=False)


def _paper(name: str) -> Paper:
    from battleline.printing.paper import get_paper

    return get_paper(name)


def _half(choice: str) -> str:
    from battleline.printing.compact_log import HALF_SHEET_CHOICES

    if choice not in HALF_SHEET_CHOICES:
        raise UnknownNameError("--half-sheets choice", choice, list(HALF_SHEET_CHOICES))
    return choice


def _true_scale(
    out: Path, scale: str, paper: str, aids: tuple[str, ...], scales: Path | None = None
) -> None:
    """Write true-scale aids; one error line for an unknown scale or paper, a bad scales file,
    or a template too large for the paper."""
    from battleline.printing.table_aids import AIDS, write_true_scale_aids
    from battleline.rulesets.bf1900.scales import get_scale

    try:
        the_scale, the_paper = get_scale(scale, scales), _paper(paper)
        path = write_true_scale_aids(out, the_scale, the_paper, aids)
    except (BattlelineError, ValueError) as exc:
        raise _fail(exc) from None
    names = ", ".join(AIDS[a][0] for a in aids)
    _written(path, f"{names} at {the_scale.label} on {the_paper.name.upper()}")


def register(app: typer.Typer) -> None:
    """Add the ``print`` command group to the app."""
    group = typer.Typer(
        name="print",
        help="Print the play aids (logs, charts, set-up, arc cards, turning circles, rulers).",
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
        paper: str = typer.Option("a4", help=_PAPER_HELP),
        half_sheets: str = typer.Option("small", help=_HALF_HELP),
    ) -> None:
        """Ship logs filled in from the ship database: a page per ship, small craft two a page."""
        from battleline.printing.shiplog_pdf import write_ship_logs
        from battleline.rulesets.bf1900.scales import get_scale
        from battleline.rulesets.bf1900.shipdb import load_database
        from battleline.rulesets.bf1900.shiplog import ShipLog

        try:
            prepare_output(out, "OUT")
            db = load_database(data)
            the_scale, the_paper, half = get_scale(scale), _paper(paper), _half(half_sheets)
            logs = []
            for name in ship:
                cls = db.class_of_ship(name, navy)
                ship_name = next((s for s in cls.ships if s.lower() == name.lower()), None)
                logs.append(ShipLog(name=ship_name or name, cls=cls, side=side))
        except BattlelineError as exc:
            raise _fail(exc) from None
        path = write_ship_logs(out, logs, the_scale, the_paper, half_sheets=half)
        _written(path, f"{len(logs)} ship log(s)")

    @group.command("scenario")
    def print_scenario(
        scenario: str = typer.Argument(..., help="a built-in scenario id or a scenario file"),
        out: Path = typer.Argument(..., help="the PDF file to write"),
        scale: str | None = typer.Option(None, help="override the scenario's game scale"),
        paper: str = typer.Option("a4", help=_PAPER_HELP),
        half_sheets: str = typer.Option("small", help=_HALF_HELP),
    ) -> None:
        """Set-up sheet, ship logs, each side's gunnery logs, the key and the scale table."""
        from battleline.printing import write_scenario_aids
        from battleline.rulesets.bf1900.scales import get_scale
        from battleline.rulesets.bf1900.scenario import get_scenario

        try:
            prepare_output(out, "OUT")
            sc = get_scenario(scenario)
            the_scale = get_scale(scale) if scale else None
            the_paper, half = _paper(paper), _half(half_sheets)
        except BattlelineError as exc:
            raise _fail(exc) from None
        path = write_scenario_aids(out, sc, the_scale, the_paper, half)
        ships = sum(len(d.ships) for s in sc.sides for d in s.divisions)
        _written(path, f"{sc.title}: set-up, {ships} ship logs, gunnery logs and key")

    @group.command("setup")
    def print_setup(
        scenario: str = typer.Argument(..., help="a built-in scenario id or a scenario file"),
        out: Path = typer.Argument(..., help="the PDF file to write"),
        scale: str | None = typer.Option(None, help="override the scenario's game scale"),
        paper: str = typer.Option("a4", help=_PAPER_HELP),
    ) -> None:
        """The scenario's set-up sheet: terms, divisions, where every base goes, a plan."""
        from battleline.printing.paper import Document
        from battleline.printing.setup_pdf import draw_setup
        from battleline.rulesets.bf1900.scales import get_scale
        from battleline.rulesets.bf1900.scenario import get_scenario

        try:
            sc = get_scenario(scenario)
            the_scale = get_scale(scale or sc.scale)
            doc = Document(out, _paper(paper), f"Set-up: {sc.title}")
        except BattlelineError as exc:
            raise _fail(exc) from None
        draw_setup(doc, sc, the_scale)
        _written(doc.save(), f"{sc.title}: set-up sheet")

    @group.command("gunnery")
    def print_gunnery(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        sheets: int = typer.Option(1, min=1, max=50, help="how many blank pairs of sections"),
        turns: int = typer.Option(12, min=1, max=200, help="turn rows, on continuation sheets"),
        unit: str = typer.Option("", help="unit printed over the range estimates (mm, in)"),
        paper: str = typer.Option("a4", help=_PAPER_HELP),
    ) -> None:
        """Blank gunnery log sheets: two division sections of four ships each (BF6-GEN-05)."""
        from battleline.printing.gunnery_log_pdf import GunnerySection, write_gunnery_logs

        try:
            prepare_output(out, "OUT")
            the_paper = _paper(paper)
        except BattlelineError as exc:
            raise _fail(exc) from None
        blank = [GunnerySection("")] * (2 * sheets)
        path = write_gunnery_logs(out, blank, turns=turns, unit=unit, paper=the_paper)
        _written(path, f"{sheets} gunnery log(s) of {turns} turns")

    @group.command("charts")
    def print_charts(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        charts: Path | None = typer.Option(
            None, help="a chart file or folder instead of the built-in"
        ),
        paper: str = typer.Option("a4", help=_PAPER_HELP),
    ) -> None:
        """The combat chart tables the engine uses (marked reconstructed)."""
        from battleline.printing.charts_pdf import write_charts
        from battleline.rulesets.bf1900.charts import load_charts

        try:
            prepare_output(out, "OUT")
            loaded, the_paper = load_charts(charts), _paper(paper)
        except BattlelineError as exc:
            raise _fail(exc) from None
        _written(write_charts(out, loaded, the_paper), "combat chart tables")

    @group.command("reference")
    def print_reference(
        out: Path = typer.Argument(..., help="the PDF file to write"),
        key: bool = typer.Option(True, help="include the damage-codes key"),
        scales: Path | None = typer.Option(None, help="your own scales file"),
        paper: str = typer.Option("a4", help=_PAPER_HELP),
    ) -> None:
        """The damage-codes key and every scale's range brackets, speeds, bases and circles."""
        from battleline.printing.reference_pdf import write_reference
        from battleline.rulesets.bf1900.scales import load_scales

        try:
            loaded, the_paper = load_scales(scales), _paper(paper)
        except BattlelineError as exc:
            raise _fail(exc) from None
        _written(write_reference(out, the_paper, key=key, scales=loaded), "reference tables")

    def _aid_command(name: str, aids: tuple[str, ...], doc: str) -> None:
        def command(
            out: Path = typer.Argument(..., help="the PDF file to write"),
            scale: str = typer.Option("small", help="game scale (small/medium/large)"),
            paper: str = typer.Option("a4", help=_PAPER_HELP),
            scales: Path | None = typer.Option(None, help="your own scales file"),
        ) -> None:
            _true_scale(out, scale, paper, aids, scales)

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
