"""``battleline serve`` runs the web server; ``battleline web-new`` starts a game in its database.

``serve`` hosts :func:`battleline.server.app.create_app` with uvicorn. ``web-new`` makes a game
straight in the database (no server needed) and prints the game id, the game link, one invite per
human side (each claimed once, in the browser), and the umpire's token, shown only this once.
"""

from __future__ import annotations

import importlib.util
import secrets

import typer

from battleline.errors import BattlelineError

#: The longest ``--deadline`` (four weeks; the server's own limit).
MAX_DEADLINE_MINUTES = 4 * 7 * 24 * 60


def need_web_extra() -> None:
    """Refuse with one clear line when the optional web packages are not installed."""
    missing = [m for m in ("fastapi", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise BattlelineError(
            f"the web server needs {' and '.join(missing)}: pip install 'battleline[web]'"
        )


def web_new(
    scenario: str,
    db: str | None,
    seed: int | None,
    ai: list[str],
    base_url: str,
    deadline: int | None = None,
) -> list[str]:
    """Start a game in the database ``db``; return the lines to print (id, invites, links).

    ``scenario`` is a built-in id or a scenario file on this machine; a file's text is stored
    with the game, so the game never needs the file again. ``deadline``: minutes each phase is
    open before the umpire may resolve it.
    """
    need_web_extra()
    from pathlib import Path

    from battleline.server.scenarios import builtin_names, decode
    from battleline.server.service import create_game
    from battleline.server.store import GameStore

    text: str | None = None
    if scenario not in builtin_names():
        try:
            text = decode(Path(scenario).read_bytes())
        except OSError as exc:
            raise BattlelineError(f"{scenario}: cannot read ({exc.strerror})") from None
    store = GameStore(db)
    try:
        chosen = seed if seed is not None else secrets.randbelow(2**62)
        live, seats = create_game(
            store,
            chosen,
            ai,
            scenario=None if text else scenario,
            text=text,
            deadline_minutes=deadline,
        )
    finally:
        store.close()
    base = base_url.rstrip("/") + "/"
    lines = [f"game {live.id}: {scenario} (the seed stays secret until the battle ends)"]
    lines.append(f"  game link: {base}#game={live.id}")
    for side in live.game.state.sides:
        if side in seats.invites:
            lines.append(f"  {side}: invite {seats.invites[side]}")
            lines.append(f"    claim: {base}#game={live.id}&invite={seats.invites[side]}")
        else:
            lines.append(f"  {side}: played by the computer")
    if deadline is not None:
        lines.append(f"  deadline: {deadline} minutes a phase")
    lines.append(f"  umpire: token {seats.umpire}")
    lines.append(f"    page: {base}umpire#game={live.id}&token={seats.umpire}")
    lines.append(f"    view: {base}api/games/{live.id}/umpire?token={seats.umpire}")
    return lines


def register(app: typer.Typer) -> None:
    """Add ``serve`` and ``web-new`` to the app."""

    @app.command()
    def serve(
        db: str | None = typer.Option(
            None, "--db", help="SQLAlchemy URL or SQLite file (default ./battleline.sqlite3)"
        ),
        host: str = typer.Option("127.0.0.1", "--host", help="address to listen on"),
        port: int = typer.Option(8000, "--port", help="port to listen on"),
    ) -> None:
        """Run the web server: players join games with their tokens in a browser."""
        need_web_extra()
        import uvicorn

        from battleline.server.app import create_app

        typer.echo(f"battleline web server on http://{host}:{port}/")
        # Open push streams never end by themselves: on a stop, give them 5 s, then close them.
        uvicorn.run(
            create_app(db), host=host, port=port, log_level="info", timeout_graceful_shutdown=5
        )

    @app.command("web-new")
    def web_new_command(
        scenario: str = typer.Argument(..., help="built-in scenario id or a scenario file"),
        db: str | None = typer.Option(
            None, "--db", help="SQLAlchemy URL or SQLite file (default ./battleline.sqlite3)"
        ),
        seed: str | None = typer.Option(
            None, "--seed", metavar="INTEGER", help="game seed, 0 or more (random if left out)"
        ),
        ai: list[str] = typer.Option(
            [], "--ai", help="a side the computer plays (repeat for more)"
        ),
        base_url: str = typer.Option(
            "http://127.0.0.1:8000/", "--url", help="the server's address, for the join links"
        ),
        deadline: int | None = typer.Option(
            None,
            "--deadline",
            min=1,
            max=MAX_DEADLINE_MINUTES,
            metavar="MINUTES",
            help="minutes each phase is open before the umpire may resolve it",
        ),
    ) -> None:
        """Start a web game and print its id, join links and tokens."""
        from battleline.cli.common import clear_errors, parse_seed

        with clear_errors():
            the_seed = None if seed is None else parse_seed(seed)
        for line in web_new(scenario, db, the_seed, ai, base_url, deadline):
            typer.echo(line)
