"""``battleline scenarios``: list the built-in scenarios."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def scenarios() -> None:
        """List the built-in scenarios."""
        from battleline.rulesets.bf1900.scenario import builtin_scenarios

        table = Table(title="Built-in scenarios", title_justify="left")
        for col in ("id", "title", "sides", "ships", "turns", "scale"):
            table.add_column(col)
        for sc in builtin_scenarios().values():
            ships = [sum(len(d.ships) for d in s.divisions) for s in sc.sides]
            table.add_row(
                sc.id,
                sc.title,
                " v ".join(s.name for s in sc.sides),
                " v ".join(str(n) for n in ships),
                str(sc.turn_limit),
                sc.scale,
            )
        from battleline.rulesets import builtin_scenarios as every_builtin
        from battleline.rulesets import get_ruleset

        listed = set(builtin_scenarios())
        for sid, name in every_builtin().items():  # other rule systems, through their Ruleset
            if sid in listed:
                continue
            rs = get_ruleset(name)
            state = rs.new_state(sid, 0)
            sides = [f.side for f in rs.fates(state)]
            table.add_row(
                sid,
                rs.check_scenario(sid),
                " v ".join(state.sides),
                " v ".join(str(sides.count(side)) for side in state.sides),
                str(state.turn_limit),
                f"({name})",
            )
        Console(width=110, highlight=False).print(table)
