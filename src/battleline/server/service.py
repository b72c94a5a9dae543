"""The game service shared by the API and the CLI: make a game, let the AI sides answer, draw.

It holds no rules: orders go to the engine through :mod:`battleline.server.adapter`. Sides played
by the computer give their orders through the admirals (each seeded from the game seed, as
:func:`battleline.ai.base.play` does) once every human side has submitted.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from battleline.errors import BattlelineError, IllegalOrderError, UnknownNameError
from battleline.server import adapter
from battleline.server.scenarios import ScenarioInputError, builtin, validate
from battleline.server.store import GameStore, LiveGame, NewSeats


def create_game(
    store: GameStore,
    seed: int,
    ai_sides: Sequence[str] = (),
    *,
    scenario: str | None = None,
    text: str | None = None,
    deadline_minutes: int | None = None,
) -> tuple[LiveGame, NewSeats]:
    """Start and store a game of a built-in id (``scenario``) or of uploaded TOML (``text``).

    Returns the live game and its new credentials. Raises :class:`ScenarioInputError` for a name
    that is not built-in or text that is not a valid scenario, :class:`UnknownNameError` for an
    unknown AI side and :class:`IllegalOrderError` when no side is left to a human. No path a
    caller gives is ever opened. ``deadline_minutes`` is the time each phase is open before the
    umpire may resolve it (none if not given).
    """
    if (scenario is None) == (text is None):
        raise ScenarioInputError(
            "scenario: give either scenario (a built-in id) or scenario_text (TOML), not both"
            if scenario is not None
            else "scenario: missing; give a built-in id as scenario, or TOML as scenario_text"
        )
    if text is None:
        assert scenario is not None
        ref = builtin(scenario)
        return _stored(store, adapter.start(ref, seed), ref, ai_sides, None, deadline_minutes)
    ref = validate(text).ref
    path = store.scenario_path(ref, text)
    try:
        try:
            adapter.check_scenario(path)
            game = adapter.start(path, seed)
        except BattlelineError as exc:
            raise ScenarioInputError(str(exc).replace(path, "scenario_text")) from None
        return _stored(store, game, ref, ai_sides, text, deadline_minutes)
    except BaseException:
        store.discard_copy(ref)  # no game holds this text: leave no file behind
        raise


def _stored(
    store: GameStore,
    game: adapter.Game,
    ref: str,
    ai_sides: Sequence[str],
    text: str | None,
    deadline_minutes: int | None = None,
) -> tuple[LiveGame, NewSeats]:
    """Check the AI sides, store the new game, let the AI give its first orders, save."""
    sides = adapter.sides(game)
    for side in ai_sides:
        if side not in sides:
            raise UnknownNameError("side", side, list(sides))
    if all(s in ai_sides for s in sides):
        raise IllegalOrderError(
            "ai: at least one side must be played by a human (use `battleline demo` to watch "
            "two admirals)"
        )
    live, seats = store.add(
        game, ref, tuple(s for s in sides if s in ai_sides), text, deadline_minutes
    )
    advance_ai(live)
    store.save(live)
    return live, seats


def scenario_title(live: LiveGame) -> str:
    """The title of a live game's scenario."""
    from battleline.rulesets.bf1900.scenario import get_scenario

    try:
        return get_scenario(live.game.state.scenario).title
    except BattlelineError:
        return live.ref


def _admiral(live: LiveGame, side: str) -> Any:
    if side not in live.admirals:
        live.admirals[side] = adapter.admiral_for(live.game, side)
    return live.admirals[side]


def advance_ai(live: LiveGame) -> None:
    """Let the AI sides give their orders while only they are awaited (as ``play`` does)."""
    game = live.game
    while not adapter.finished(game):
        waiting = adapter.waiting_for(game)
        if not waiting or any(s not in live.ai_sides for s in waiting):
            return
        turn, phase = adapter.open_phase(game)
        for side in waiting:
            seen = adapter.side_view(game, side, since=live.cursors.get(side, 0))
            live.cursors[side] = adapter.events_count(game)
            lines = list(_admiral(live, side).orders(seen, phase))
            try:
                adapter.submit(game, side, lines, turn, phase)
            except BattlelineError:
                if adapter.has_sealed(game, side):
                    raise  # sealed already: the resolution itself failed
                adapter.submit(game, side, adapter.legal_lines(game, side, lines), turn, phase)


def picture_svg(side_view: adapter.SideViewLike, land: Sequence[Any] = (), title: str = "") -> str:
    """The table as one side sees it, drawn from its view alone (plus the scenario's land)."""
    from battleline.rulesets.bf1900.render import render_table
    from battleline.rulesets.bf1900.scales import get_scale
    from battleline.rulesets.bf1900.scenario import lookup_class

    if not isinstance(side_view, adapter.SideView):
        raise BattlelineError(f"picture: the {type(side_view).__name__} has no table picture")
    sc = get_scale(side_view.scale)
    poses = {s.name: s.pose for s in side_view.own}
    poses.update({c.name: c.pose for c in side_view.contacts})
    classes = {s.name: s.cls for s in side_view.own}
    classes.update({c.name: c.cls for c in side_view.contacts})
    sizes = {n: sc.base_size_m(lookup_class(c)) for n, c in classes.items()}
    groups = {s.name: f"{side_view.side}: {s.division or 'ships'}" for s in side_view.own}
    groups.update({c.name: "enemy" for c in side_view.contacts})
    labels = {
        c.name: c.name + (" (fire)" if c.fires else "") + (" (sinking)" if c.sinking else "")
        for c in side_view.contacts
    }
    with _DRAWING, tempfile.TemporaryDirectory() as folder:
        path = render_table(
            Path(folder) / "table.svg",
            poses,
            sizes,
            groups,
            list(land),
            labels=labels,
            title=title,
            scale=sc,
        )
        return path.read_text(encoding="utf-8")


_DRAWING = threading.Lock()  # matplotlib's rc settings are process-wide


def land_of(live: LiveGame) -> list[Any]:
    """The scenario's land: public, the same for both sides."""
    from battleline.rulesets.bf1900.scenario import get_scenario
    from battleline.rulesets.bf1900.table import Land

    try:
        scenario = get_scenario(live.game.state.scenario)
        return [Land.from_coords(p.name, p.points) for p in scenario.land]
    except BattlelineError:
        return []
