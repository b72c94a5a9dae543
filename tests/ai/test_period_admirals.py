"""Issue 12 item 2: admirals who behave like those of the period, through whole AI games."""

from __future__ import annotations

import pytest

from battleline.ai.base import play
from battleline.engine.events import EventKind
from battleline.game import new_game

SEEDS = range(1, 11)


def _launching_seeds() -> list[int]:
    flotilla = {"Ikazuchi", "Inazuma", "Akebono", "Sazanami"}
    out = []
    for seed in SEEDS:
        game = play(new_game("destroyer-attack", seed))
        if any(
            e.kind is EventKind.TORPEDO_LAUNCH and e.ship in flotilla for e in game.events.events
        ):
            out.append(seed)
    return out


@pytest.fixture(scope="module")
def launching() -> list[int]:
    return _launching_seeds()


def test_the_destroyer_tutorial_launches_in_nine_seeds_of_ten(launching: list[int]) -> None:
    """Issue 12 'Done means': the flotilla's torpedoes are launched in at least 9 of seeds 1-10
    (BF6-TORP-02..10). Before issue 12 they were launched in 3: the boats chased the
    battleships' wake, turned back once half the flotilla was hit, and the battleships steamed
    away to gun range from boats faster than they."""
    assert len(launching) >= 9, launching


def test_no_side_strikes_while_it_is_winning() -> None:
    """BF6-CMD-32 as issue 12 wants it: in the destroyer tutorial the battleships, which win,
    never strike, and no side strikes a ship that still has a gun or torpedo in action."""
    for seed in (1, 2, 3):
        game = play(new_game("destroyer-attack", seed))
        struck = [s for s, log in game.state.logs.items() if log.surrendered]
        winner = game.state.result.winner if game.state.result else None
        for name in struck:
            side = next(d for d in game.state.divisions.values() if name in d.ships).side
            assert side != winner, (seed, name)
