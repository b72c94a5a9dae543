"""``battleline draw SCENARIO``: a scenario's starting table as an SVG or PNG picture.

Ships are drawn to scale as their bases with the heading, coloured by division (the legend names
side and division), division flagships marked ``⚑``; land and a scale bar complete the picture.
The drawing itself is ``rulesets/bf1900/render.render_table``; this command only gathers the
set-up and picks the scale (the scenario's own, or ``--scale NAME``: the same battle at another
scale has bases of other sizes in metres of sea). Output is deterministic.
"""

from __future__ import annotations

from pathlib import Path

import typer

from battleline.cli.common import clear_errors, prepare_output
from battleline.errors import BattlelineError, ScenarioError

DEFAULT_SUFFIXES = (".svg", ".png")


def draw_scenario(scenario: str, out: Path | None = None, scale: str | None = None) -> Path:
    """Draw the starting table of ``scenario`` (a built-in id or a file) to ``out`` and return
    the path written; ``out`` defaults to ``battleline-<scenario>.svg``, ``scale`` to the
    scenario's own scale.

    Raises :class:`ScenarioError` for an unknown scenario or a file name that is not ``.svg`` or
    ``.png``, :class:`UnknownNameError` for an unknown scale.
    """
    from battleline.game import new_game
    from battleline.rulesets.bf1900.render import render_table
    from battleline.rulesets.bf1900.scales import get_scale
    from battleline.rulesets.bf1900.state import Bf1900State
    from battleline.rulesets.bf1900.table import Land

    target = out or Path(f"battleline-{Path(scenario).stem}.svg")
    if target.suffix.lower() not in DEFAULT_SUFFIXES:
        raise ScenarioError(
            f"draw: cannot write {target.name!r}: the picture file must end in .svg or .png"
        )
    game = new_game(scenario, 0)
    state = game.state
    if not isinstance(state, Bf1900State):  # another rule system draws its own table
        written = game.ruleset.picture(state, str(target))
        if written is None:
            raise BattlelineError(f"draw: the {game.ruleset.name} ruleset draws no table")
        return Path(written)
    sc = get_scale(scale or state.scale)
    groups: dict[str, str] = {}
    labels: dict[str, str] = {}
    for div in state.divisions.values():
        for name in div.ships:
            groups[name] = f"{div.side}: {div.name}"
        labels[div.flagship] = f"{div.flagship} ⚑"
    for name, log in state.logs.items():
        groups.setdefault(name, log.side)
    land = [Land.from_coords(f"land {i + 1}", pts) for i, pts in enumerate(state.land)]
    try:  # the scenario's own names for its land, where it has them
        from battleline.rulesets.bf1900.scenario import get_scenario

        names = [piece.name for piece in get_scenario(scenario).land]
        if len(names) == len(land):
            land = [Land(n, piece.polygon) for n, piece in zip(names, land, strict=True)]
    except BattlelineError:
        pass
    return render_table(
        target,
        state.poses,
        {n: sc.base_size_m(log.cls) for n, log in state.logs.items()},
        groups,
        land,
        labels=labels,
        title=f"{scenario}: the table at the start ({sc.label})",
        scale=sc,
    )


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def draw(
        scenario: str = typer.Argument(..., help="built-in scenario id or a scenario file"),
        out: Path | None = typer.Option(
            None, "--out", help="the picture to write, .svg or .png (default battleline-ID.svg)"
        ),
        scale: str | None = typer.Option(
            None, "--scale", help="draw at this scale (small, medium, large) instead"
        ),
    ) -> None:
        """Draw a scenario's starting table: ships to scale with headings, divisions, land."""
        with clear_errors():
            if out is not None:
                prepare_output(out, "--out")
            where = draw_scenario(scenario, out, scale)
        typer.echo(f"table drawn: {where}")
