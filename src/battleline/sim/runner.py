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

import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from battleline.engine.events import Event, EventKind, EventLog
from battleline.engine.ruleset import ShipFate
from battleline.engine.state import EngineState
from battleline.engine.tally import ALL_GUNS, BattleTally, NoTally
from battleline.engine.tally import CAUSES as ENGINE_CAUSES

if TYPE_CHECKING:
    from battleline.ai.base import AdmiralFactory

#: Damage causes the report counts, in report order (each ruleset's tally maps its events here).
CAUSES: tuple[str, ...] = ENGINE_CAUSES

#: Fates that count as a ship lost (a ship still sinking when the game ends goes down).
LOST_FATES = frozenset({"sunk", "sinking"})
#: Fates that count as a ship out of the fleet at the end (class survival).
GONE_FATES = frozenset({"sunk", "sinking", "surrendered"})

#: ``(side, guns, rounds fired, hits)`` rows, sorted.
GunRows = tuple[tuple[str, str, int, int], ...]


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
    #: ``(side, calibre class, rounds fired, hits)`` rows, sorted; each side also has a row for
    #: all its guns (:data:`~battleline.engine.tally.ALL_GUNS`).
    gunnery: GunRows = ()
    #: ``(side, class name, hits received by the class's ships)`` rows, sorted.
    hits_taken: tuple[tuple[str, str, int], ...] = ()
    #: Ships that struck their colours, per side (not counted in ``sunk``).
    surrendered: tuple[int, int] = (0, 0)
    #: ``(side, bore, rounds fired, hits)`` rows, sorted (``"15.2 cm"``; empty for a ruleset
    #: that tells no bores apart).
    bores: GunRows = ()

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


def tally_of(ruleset: str) -> BattleTally:
    """The ruleset's own ``tally`` part (what its events count as), or one that counts nothing."""
    from battleline.rulesets import ruleset_part

    part = ruleset_part(ruleset, "tally")
    return NoTally() if part is None else cast(BattleTally, part)


def cause_of(event: Event, tally: BattleTally | None = None) -> str | None:
    """Which damage cause an event counts towards, or ``None``: the ruleset's tally says
    (bf1900's when none is given)."""
    return (tally or tally_of("bf1900")).damage_cause(event)


def count_damage(
    sides: Sequence[str],
    side_of: Mapping[str, str],
    events: Iterable[Event],
    tally: BattleTally | None = None,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Damage received by each side's ships (``side_of``: ship → side), counted by cause (the
    ruleset's ``tally``, bf1900's when none is given)."""
    tally = tally or tally_of("bf1900")
    kinds = tally.KINDS
    a, b = sides
    counts = {a: [0] * len(CAUSES), b: [0] * len(CAUSES)}
    slot = {c: i for i, c in enumerate(CAUSES)}
    for event in events:
        # Most events (rolls, orders, moves ...) are of kinds no cause counts: skip them first.
        if event.kind not in kinds:
            continue
        side = side_of.get(event.ship or "")
        if side is None:
            continue
        cause = tally.damage_cause(event)
        if cause is not None:
            counts[side][slot[cause]] += 1
    return tuple(counts[a]), tuple(counts[b])


def count_shots(
    side_of: Mapping[str, str],
    class_of: Mapping[str, str],
    events: Iterable[Event],
    tally: BattleTally,
) -> tuple[GunRows, GunRows, tuple[tuple[str, str, int], ...]]:
    """Rounds fired and hits made per side and calibre class (plus each side's all-guns row),
    the same per side and bore (for the rulesets that tell bores apart), and hits received per
    side and ship class (``class_of``: ship → class)."""
    fired: dict[tuple[str, str], list[int]] = {}
    bores: dict[tuple[str, str], list[int]] = {}
    taken: dict[tuple[str, str], int] = {}
    kinds = tally.KINDS
    for event in events:
        if event.kind not in kinds:
            continue
        for shot in tally.shots(event):
            side = side_of.get(shot.firer)
            if side is None:
                continue
            keys = {(side, shot.calibre), (side, ALL_GUNS)}
            rows = [fired.setdefault(key, [0, 0]) for key in keys]
            if shot.bore is not None:
                rows.append(bores.setdefault((side, shot.bore), [0, 0]))
            for row in rows:
                row[0] += shot.fired
                row[1] += shot.hits
            target = shot.target
            if shot.hits and target is not None and target in side_of:
                key2 = (side_of[target], class_of[target])
                taken[key2] = taken.get(key2, 0) + shot.hits
    return (
        _gun_rows(fired),
        _gun_rows(bores),
        tuple((s, c, n) for (s, c), n in sorted(taken.items())),
    )


def _gun_rows(counts: dict[tuple[str, str], list[int]]) -> GunRows:
    return tuple((s, c, r[0], r[1]) for (s, c), r in sorted(counts.items()))


def record_of(
    index: int,
    state: EngineState,
    fates: Sequence[ShipFate],
    events: Sequence[Event],
    tally: BattleTally | None = None,
) -> BattleRecord:
    """Read a finished game's state, its ships' fates and its events (counted by the ruleset's
    ``tally``, bf1900's when none is given) into a :class:`BattleRecord`."""
    tally = tally or tally_of("bf1900")
    a, b = state.sides
    sides = (a, b)
    sunk = [0, 0]
    crippled = [0, 0]
    struck = [0, 0]
    in_battle = [False, False]
    classes: dict[tuple[str, str], list[int]] = {}
    for f in fates:
        i = sides.index(f.side)
        sunk[i] += f.fate in LOST_FATES
        crippled[i] += f.fate == "crippled"
        struck[i] += f.fate == "surrendered"
        in_battle[i] = in_battle[i] or f.in_battle
        row = classes.setdefault((f.side, f.ship_class), [0, 0])
        row[0] += 1
        row[1] += f.fate not in GONE_FATES
    result = state.result
    side_of = {f.name: f.side for f in fates}
    gunnery, bores, taken = count_shots(
        side_of, {f.name: f.ship_class for f in fates}, events, tally
    )
    return BattleRecord(
        index=index,
        sides=sides,
        winner=None if result is None else result.winner,
        turns=state.turn,
        decided=not all(in_battle),
        sunk=(sunk[0], sunk[1]),
        crippled=(crippled[0], crippled[1]),
        classes=tuple((s, c, n, k) for (s, c), (n, k) in sorted(classes.items())),
        damage=count_damage(sides, side_of, events, tally),
        gunnery=gunnery,
        bores=bores,
        hits_taken=taken,
        surrendered=(struck[0], struck[1]),
    )


def lean_log(tally: BattleTally | None = None) -> EventLog:
    """The event log of a Monte Carlo battle: only what the ruleset's tally (bf1900's when none
    is given) and the admirals read.

    A run can always be played again in full from its seed (``battleline sim ... --show RUN``).
    """
    from battleline.ai.base import ADMIRAL_READS

    kinds = (tally or tally_of("bf1900")).KINDS
    return EventLog(keep=kinds | ADMIRAL_READS | {EventKind.PHASE, EventKind.RESULT})


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (one battle), then as it was.

    A battle's objects are freed by reference counting as soon as they are dropped: in every
    scenario measured, the collector's passes during a battle (one every few hundred objects
    made) found no cycle to free, so they are work without a result, about 3 % of a battle's
    instructions and more of its time (``docs/performance.md``). Anything a battle did leave in
    a cycle is freed by the collector's first pass after it, so memory stays flat over a sweep.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def play_battle(
    scenario: str,
    seed: int,
    index: int,
    *,
    lean: bool = True,
    ruleset: str | None = None,
    factory: AdmiralFactory | None = None,
) -> BattleRecord:
    """Play run ``index`` of the sweep seeded ``seed``: AI against AI to the result (with
    ``ruleset`` instead of the scenario's own, if given; the ruleset's own admirals unless
    ``factory`` builds others).

    The battle keeps a lean event log (:func:`lean_log`) unless ``lean`` is False. If the engine
    stops the battle with an error (a rules or AI bug), the record says so
    (:meth:`BattleRecord.failed`) instead of losing the whole sweep; the report lists it with
    the run that replays it (``battleline sim ... --show RUN``).
    """
    from battleline.ai.base import play
    from battleline.game import new_game
    from battleline.rulesets import named_ruleset

    tally = tally_of(ruleset or named_ruleset(scenario))
    events = lean_log(tally) if lean else None
    # A battle the engine stops is dropped, so its resolutions need no copy to roll back to.
    game = new_game(scenario, run_seed(seed, index), ruleset, events=events, rollback=False)
    a, b = game.state.sides
    # The record is read and the game dropped before the collector is back on: its first pass
    # then walks only what outlives the battle, not the whole finished game.
    with collector_paused():
        try:
            play(game, factory=factory)
        except Exception as exc:  # one bad battle must not sink a sweep of thousands
            lines = str(exc).strip().splitlines()
            del game
            return BattleRecord.failed(
                index, (a, b), f"{type(exc).__name__}: {lines[0] if lines else ''}"
            )
        state = game.state
        record = record_of(index, state, game.ruleset.fates(state), game.events.events, tally)
        del game, state
    return record
