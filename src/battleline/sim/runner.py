"""One Monte Carlo battle: (scenario, run seed) → a small :class:`BattleRecord`.

The simulator holds no rules. :func:`play_battle` starts a game with the engine
(:func:`battleline.engine.new_game`), lets the AI admirals play it to its result
(:func:`battleline.ai.base.play`) and reads off what the report needs: the winner, each side's
ships sunk and crippled (by the ruleset's own ``ship_fate``), each class's survivors, the turns
played, and damage by cause counted from the event log.

Seeds: run ``i`` of a sweep seeded ``S`` plays with the ``i``-th child of
``numpy.random.SeedSequence(S)`` (:func:`run_seed`). The child is built directly from its spawn
key, so a million-run sweep never holds a million seed objects, and the same ``(S, i)`` gives the
same battle on any worker.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.ruleset import ShipFate
from battleline.engine.state import EngineState

#: Damage causes the report counts, in report order.
CAUSES: tuple[str, ...] = ("gunfire", "torpedo", "flooding", "fire", "explosion")

#: Fates that count as a ship lost (a ship still sinking when the game ends goes down).
LOST_FATES = frozenset({"sunk", "sinking"})
#: Fates that count as a ship out of the fleet at the end (class survival).
GONE_FATES = frozenset({"sunk", "sinking", "surrendered"})


@dataclass(frozen=True, slots=True)
class BattleRecord:
    """What one battle contributes to the aggregate; small and picklable.

    Per-side tuples follow ``sides`` (the scenario's side order). ``classes`` holds one
    ``(side, class name, ships, survivors)`` row per class present; ``damage`` one count per
    side and cause, in :data:`CAUSES` order.
    """

    index: int
    sides: tuple[str, str]
    winner: str | None
    turns: int
    decided: bool
    sunk: tuple[int, int]
    crippled: tuple[int, int]
    classes: tuple[tuple[str, str, int, int], ...]
    damage: tuple[tuple[int, ...], tuple[int, ...]]
    #: Why the battle could not be played to its end ("" when it was).
    error: str = ""

    @classmethod
    def failed(cls, index: int, sides: tuple[str, str], error: str) -> BattleRecord:
        """A battle the engine stopped with an error: it counts as failed, not as a result."""
        zero = (0,) * len(CAUSES)
        return cls(index, sides, None, 0, False, (0, 0), (0, 0), (), (zero, zero), error)


def run_seed(seed: int, index: int) -> int:
    """The game seed of run ``index``: 64 bits of the ``index``-th child of ``SeedSequence(seed)``.

    ``SeedSequence(seed, spawn_key=(index,))`` is exactly what ``SeedSequence(seed).spawn(n)``
    would hand out as child ``index``.
    """
    child = np.random.SeedSequence(seed, spawn_key=(index,))
    return int(child.generate_state(1, np.uint64)[0])


def cause_of(event: Event) -> str | None:
    """Which damage cause an event counts towards, or ``None``.

    * gunfire: a shell that struck a location (Damage Step Two's ``DAMAGE`` event naming the
      location);
    * torpedo: a torpedo whose hit is resolved in Damage Step Two (its ``TORPEDO_HIT`` names the
      size it floods with; the Torpedo Phase's own ``TORPEDO_HIT`` is not counted again);
    * flooding: a flood hit whose Occurrence roll gave a level (the ``FLOODING`` event naming
      the column and a level above none), whatever caused it; the events that follow it (the
      compartment's new level, the effects roll) are not counted again;
    * fire: a fire started (``FIRE`` naming internal or external);
    * explosion: an ``EXPLOSION`` event.
    """
    kind = event.kind
    data = event.data
    if kind is EventKind.DAMAGE:
        return "gunfire" if "location" in data else None
    if kind is EventKind.TORPEDO_HIT:
        return "torpedo" if "size" in data else None
    if kind is EventKind.FLOODING:
        return "flooding" if data.get("level") and "column" in data else None
    if kind is EventKind.FIRE:
        return "fire" if "internal" in data else None
    if kind is EventKind.EXPLOSION:
        return "explosion"
    return None


#: The only event kinds :func:`cause_of` counts.
_COUNTED_KINDS = frozenset(
    {
        EventKind.DAMAGE,
        EventKind.TORPEDO_HIT,
        EventKind.FLOODING,
        EventKind.FIRE,
        EventKind.EXPLOSION,
    }
)


def count_damage(
    sides: Sequence[str], side_of: Mapping[str, str], events: Iterable[Event]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Damage received by each side's ships (``side_of``: ship → side), counted by cause (see
    :func:`cause_of`)."""
    a, b = sides
    counts = {a: [0] * len(CAUSES), b: [0] * len(CAUSES)}
    slot = {c: i for i, c in enumerate(CAUSES)}
    for event in events:
        # Most events (rolls, orders, moves ...) are of kinds no cause counts: skip them first.
        if event.kind not in _COUNTED_KINDS:
            continue
        side = side_of.get(event.ship or "")
        if side is None:
            continue
        cause = cause_of(event)
        if cause is not None:
            counts[side][slot[cause]] += 1
    return tuple(counts[a]), tuple(counts[b])


def record_of(
    index: int, state: EngineState, fates: Sequence[ShipFate], events: Iterable[Event]
) -> BattleRecord:
    """Read a finished game's state, its ships' fates and its events into a
    :class:`BattleRecord`."""
    a, b = state.sides
    sides = (a, b)
    sunk = [0, 0]
    crippled = [0, 0]
    in_battle = [False, False]
    classes: dict[tuple[str, str], list[int]] = {}
    for f in fates:
        i = sides.index(f.side)
        sunk[i] += f.fate in LOST_FATES
        crippled[i] += f.fate == "crippled"
        in_battle[i] = in_battle[i] or f.in_battle
        row = classes.setdefault((f.side, f.ship_class), [0, 0])
        row[0] += 1
        row[1] += f.fate not in GONE_FATES
    result = state.result
    return BattleRecord(
        index=index,
        sides=sides,
        winner=None if result is None else result.winner,
        turns=state.turn,
        decided=not all(in_battle),
        sunk=(sunk[0], sunk[1]),
        crippled=(crippled[0], crippled[1]),
        classes=tuple((s, c, n, k) for (s, c), (n, k) in sorted(classes.items())),
        damage=count_damage(sides, {f.name: f.side for f in fates}, events),
    )


def lean_log() -> EventLog:
    """The event log of a Monte Carlo battle: only what the tally and the admirals read.

    A run can always be played again in full from its seed (``battleline sim ... --show RUN``).
    """
    from battleline.ai.base import ADMIRAL_READS

    return EventLog(keep=_COUNTED_KINDS | ADMIRAL_READS | {EventKind.PHASE, EventKind.RESULT})


def play_battle(
    scenario: str, seed: int, index: int, *, lean: bool = True, ruleset: str | None = None
) -> BattleRecord:
    """Play run ``index`` of the sweep seeded ``seed``: AI against AI to the result (with
    ``ruleset`` instead of the scenario's own, if given).

    The battle keeps a lean event log (:func:`lean_log`) unless ``lean`` is False. If the engine
    stops the battle with an error (a rules or AI bug), the record says so
    (:meth:`BattleRecord.failed`) instead of losing the whole sweep; the report lists it with
    the run that replays it (``battleline sim ... --show RUN``).
    """
    from battleline.ai.base import play
    from battleline.game import new_game

    game = new_game(scenario, run_seed(seed, index), ruleset, events=lean_log() if lean else None)
    a, b = game.state.sides
    try:
        play(game)
    except Exception as exc:  # one bad battle must not sink a sweep of thousands
        lines = str(exc).strip().splitlines()
        return BattleRecord.failed(
            index, (a, b), f"{type(exc).__name__}: {lines[0] if lines else ''}"
        )
    return record_of(index, game.state, game.ruleset.fates(game.state), game.events)
