"""A tgd side's view: bf1900's view of ships and contacts, plus the TGD cards as the rules show.

:func:`tgd_view` builds on bf1900's :func:`~battleline.rulesets.bf1900.view.side_view` (own ship
logs and poses, the enemy as contacts, the side's events) and adds:

* ``cards``: each own ship's card with its damage marks in full (batteries lost and fired this
  turn, S/F letters and H boxes left, knots) — the owner's alone;
* ``seen``: of each enemy ship only what shows across the table — she burns furiously, has
  stopped, or has sunk — never her card's boxes (TGD-ARM-02: the owner keeps his card);
* ``fire_step`` and ``firing_side``: which fire step is open and whose it is.

A ship sunk by her card leaves her division's list in the view at once.

:func:`secrets` lists strings that must never reach a side: each enemy card's box states, as the
card summary and the damage lines the rules write on it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from battleline.rulesets.bf1900.view import SideView, side_view
from battleline.rulesets.tgd.cardlog import CardLog, card_title
from battleline.rulesets.tgd.state import TgdState
from battleline.rulesets.tgd.steps import STEPS, step_side

if TYPE_CHECKING:
    from battleline.engine.flow import Game


@dataclass(frozen=True, slots=True)
class OwnCard:
    """One of the side's own TGD cards, with every damage mark (``log``)."""

    name: str
    title: str
    speed_knots: int
    summary: str
    ready: tuple[str, ...]
    log: CardLog


@dataclass(frozen=True, slots=True)
class SeenCard:
    """What an enemy card shows across the table: burning furiously, stopped, sunk."""

    name: str
    burning: bool
    stopped: bool
    sunk: bool


@dataclass(frozen=True, slots=True)
class TgdSideView(SideView):
    """bf1900's side view with the side's TGD cards and what shows of the enemy's."""

    cards: tuple[OwnCard, ...] = ()
    seen: tuple[SeenCard, ...] = ()
    fire_step: int | None = None
    firing_side: str | None = None

    def card(self, name: str) -> OwnCard:
        """One own card by ship name."""
        for c in self.cards:
            if c.name == name:
                return c
        raise KeyError(name)


def own_card(name: str, log: CardLog) -> OwnCard:
    """An own card as the view gives it (a copy of the log)."""
    ready = tuple(str(b) for ref, b in log.live_batteries() if ref not in log.fired)
    return OwnCard(name, log.card.title, log.speed, log.summary(), ready, log.copy())


def seen_card(name: str, log: CardLog) -> SeenCard:
    """What the enemy sees of a card."""
    return SeenCard(name, log.burning, log.immobile or log.speed == 0, log.sunk)


def tgd_view(game: Game[TgdState, TgdSideView], side: str, since: int = 0) -> TgdSideView:
    """The game as ``side`` sees it under the tgd ruleset."""
    state = game.state
    base = side_view(cast("Game[Any, SideView]", game), side, since)
    fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(base)}
    # A TGD card sinks the ship at once, mid-turn; she leaves her division's list in the view
    # then (bf1900 takes her off the division itself at the next Command Phase).
    afloat = {
        name: {**info, "ships": [s for s in info["ships"] if not state.logs[s].sunk]}
        for name, info in base.divisions.items()
    }
    fields["divisions"] = {name: info for name, info in afloat.items() if info["ships"]}
    mine = {n for n, log in state.logs.items() if log.side == side}
    step = STEPS.index(state.phase) + 1 if state.phase in STEPS else None
    return TgdSideView(
        **fields,
        cards=tuple(own_card(n, state.cards[n]) for n in state.logs if n in mine),
        seen=tuple(seen_card(n, state.cards[n]) for n in state.logs if n not in mine),
        fire_step=step,
        firing_side=None if step is None else step_side(state, step),
    )


def card_secrets(name: str, log: CardLog) -> set[str]:
    """The strings that tell an enemy card's box states (its owner's knowledge)."""
    out = {log.summary(), f"{name}: centre hull H crossed off", f"{name}: save vs sinking"}
    out.add(card_title(name))
    out.add(f"{name}: knots lost, centre hull")
    out.add(f"{name}: bow/stern hull H crossed off")
    for (loc, _), battery in ((ref, b) for ref, b in _all(log) if ref in log.lost):
        out.add(f"{name}: location {loc} battery {battery} destroyed")
    crossed = log.card.superstructure[: log.superstructure_hits]
    if "S" in crossed:
        out.add(f"{name}: superstructure S crossed off")
    if "F" in crossed:
        out.add(f"{name}: funnel holed")
    return out


def _all(log: CardLog) -> list[tuple[tuple[int, int], Any]]:
    return [((loc, i), b) for loc, i, b in log.card.batteries()]


def secrets(state: TgdState, side: str) -> set[str]:
    """Strings that must never reach ``side``: every enemy card's box states."""
    out: set[str] = set()
    for name, log in state.logs.items():
        if log.side != side:
            out |= card_secrets(name, state.cards[name])
    return out
