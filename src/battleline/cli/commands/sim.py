"""``battleline sim``: many AI-against-AI battles of one scenario, and who wins how often.

``battleline sim SCENARIO --runs N [--workers K] [--seed S] [--json PATH|-] [--plot PATH]
[--cluster dask://HOST:PORT|dask-local|ray://HOST:PORT|ray-local]``

A progress bar with an ETA runs on stderr; the report goes to stdout, or, with ``--json -``,
stdout carries the JSON alone. The same ``--seed`` gives the same numbers whatever ``--workers``
and ``--cluster``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


def register(app: typer.Typer) -> None:
    """Add the command to the app."""

    @app.command()
    def sim(
        scenario: str = typer.Argument(..., help="built-in scenario id or a scenario file"),
        runs: int = typer.Option(100, "--runs", "-n", help="how many battles to play"),
        workers: int | None = typer.Option(
            None, "--workers", "-w", help="worker processes (default: every CPU)"
        ),
        seed: str = typer.Option(
            "0", metavar="INTEGER", help="the sweep seed, 0 or more (same seed, same aggregate)"
        ),
        json_out: str | None = typer.Option(
            None, "--json", help="write the aggregate as JSON to this file, or '-' for stdout"
        ),
        plot: Path | None = typer.Option(None, help="write a PNG plot of the results here"),
        cluster: str | None = typer.Option(
            None,
            help="dask://HOST:PORT, dask-local, ray://HOST:PORT or ray-local (default: a local "
            "process pool)",
        ),
        ruleset: str | None = typer.Option(
            None,
            help="play the scenario with this ruleset instead of its own (one that reads the "
            "same scenario schema: bf1900, bf1900-1d12 and tgd read each other's)",
        ),
        show: int | None = typer.Option(
            None,
            "--show",
            min=0,
            help="play run number SHOW of this sweep again in full, narrated like the demo",
        ),
    ) -> None:
        """Play many battles of a scenario, AI against AI, and report who wins how often."""
        from battleline.cli.common import parse_seed, prepare_output, print_error
        from battleline.errors import BattlelineError
        from battleline.sim.backends import default_workers, prepare, simulate
        from battleline.sim.report import failures, print_report, to_json, write_plot

        if show is not None:
            from battleline.cli.commands.demo import run_demo
            from battleline.cli.common import clear_errors
            from battleline.sim.runner import run_seed

            with clear_errors():
                run_demo(  # in full: every order and die the sweep itself never keeps
                    Console(width=110, highlight=False),
                    scenario,
                    run_seed(parse_seed(seed), show),
                    verbose=True,
                    ruleset=ruleset,
                )
            return

        k = default_workers() if workers is None else workers
        to_stdout = json_out == "-"
        err = Console(stderr=True, highlight=False)
        out = Console(highlight=False, width=110)
        try:
            the_seed = parse_seed(seed)
            # every output is checked before a single battle is played
            if json_out is not None and not to_stdout:
                prepare_output(Path(json_out), "--json")
            if plot is not None:
                prepare_output(plot, "--plot")
            backend = prepare(scenario, runs, k, cluster, ruleset)
        except BattlelineError as exc:
            print_error(str(exc))  # one line, never wrapped, no traceback
            raise SystemExit(2) from None
        columns = (
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("battles"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        started = time.perf_counter()
        with Progress(*columns, console=err, transient=False) as bar:
            task = bar.add_task(scenario, total=runs)
            tally = simulate(
                scenario,
                runs,
                the_seed,
                workers=k,
                cluster=cluster,
                progress=lambda n: bar.advance(task, n),
                backend=backend,
                ruleset=ruleset,
            )
        elapsed = time.perf_counter() - started
        summary = tally.summary()
        text = to_json(summary)
        if to_stdout:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
            if summary["failed"]:
                err.print(failures(summary))
        else:
            print_report(out, summary)
            out.print(
                f"{runs} battles in {elapsed:.1f} s ({runs / elapsed:.2f} battles/s) "
                f"on {k} worker{'s' * (k != 1)}" + (f" ({cluster})" if cluster else "")
            )
            if json_out is not None:
                Path(json_out).write_text(text + "\n", encoding="utf-8")
                out.print(f"JSON written to {json_out}")
        if plot is not None:
            where = write_plot(summary, plot)
            (err if to_stdout else out).print(f"plot written to {where}")
