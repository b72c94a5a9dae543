"""Hits per round by side, calibre class and true range band: where a scenario's hits are made.

Plays runs ``0 .. N-1`` of the sweep seeded ``--seed`` (the battles ``tools/calibrate.py``
plays, AI against AI, with full event logs) and counts, for every salvo measured (the umpire's
note on its marker, BF6-MEAS-02..04), its rounds by calibre class and the band of its true range
to the target's leading edge; and, for every hit the location die puts on a ship (Damage Step
Two's ``HIT``, BF6-HIT-01), the band of the salvo it came from (one salvo per firer and target a
turn, BF6-TGT-02). The table shows where the hit rates of ``docs/history.md`` come from;
``--bores`` counts each bore on its own (``"30.5 cm"``) instead of each calibre class::

    python tools/hit_bands.py santiago-1898 --runs 12 --seed 57
    python tools/hit_bands.py yellow-sea-1904 --runs 12 --seed 57 --bores
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from battleline.engine.events import Event, EventKind
from battleline.engine.tally import Shots
from battleline.rulesets.bf1900.tally import shots

#: Width of a range band in metres.
BAND_M = 2000.0

Key = tuple[str, str, int]  # side, calibre class (or bore), band index


@dataclass
class Bands:
    """Rounds, rounds in a hit zone, and hits, by (side, calibre class, band), or by (side,
    bore, band) when ``by_bore``."""

    rounds: Counter[Key] = field(default_factory=Counter)
    in_zone: Counter[Key] = field(default_factory=Counter)
    hits: Counter[Key] = field(default_factory=Counter)
    battles: int = 0
    by_bore: bool = False

    def add(self, events: Iterable[Event], side_of: dict[str, str]) -> None:
        """Count one battle's events (``side_of`` names each ship's side)."""
        self.battles += 1
        salvo_band: dict[tuple[str, str], int] = {}
        for e in events:
            for shot in shots(e):  # the tally's own reading of rounds fired and hits made
                side = side_of[shot.firer]
                if shot.fired:
                    band = int(e.data["leading_m"] // BAND_M)
                    salvo_band[(shot.firer, shot.target or "")] = band
                    key = (side, self._guns(shot), band)
                    self.rounds[key] += shot.fired
                    if e.data["hit"]:
                        self.in_zone[key] += shot.fired
                elif e.kind is EventKind.HIT:
                    band = salvo_band[(shot.firer, shot.target or "")]
                    self.hits[(side, self._guns(shot), band)] += shot.hits

    def _guns(self, shot: Shots) -> str:
        """What a row counts the shot under: its bore, or its calibre class."""
        return (shot.bore or shot.calibre) if self.by_bore else shot.calibre

    def lines(self) -> list[str]:
        """The table, a row per side, class and band, per battle."""
        n = max(self.battles, 1)
        guns = "bore" if self.by_bore else "class"
        out = [
            f"{'side':<16} {guns:<7} {'band':<9} {'rounds/b':>9} {'in zone':>8} "
            f"{'hits/b':>8} {'hits/round':>10}"
        ]
        for key in sorted(set(self.rounds) | set(self.hits)):
            side, cls, band = key
            r, z, h = self.rounds[key], self.in_zone[key], self.hits[key]
            lo, hi = band * BAND_M / 1000, (band + 1) * BAND_M / 1000
            out.append(
                f"{side:<16} {cls:<7} {f'{lo:g}-{hi:g} km':<9} {r / n:9.1f} "
                f"{100 * z / max(r, 1):7.1f}% {h / n:8.1f} {100 * h / max(r, 1):9.2f}%"
            )
        return out


def count(scenario: str, seed: int, runs: int, by_bore: bool = False) -> Bands:
    """Play runs ``0 .. runs-1`` of the sweep seeded ``seed`` and count them (by bore if
    ``by_bore``)."""
    from battleline.ai.admiral import default_admiral
    from battleline.ai.base import play
    from battleline.game import new_game
    from battleline.sim.runner import run_seed

    bands = Bands(by_bore=by_bore)
    for i in range(runs):
        game = new_game(scenario, run_seed(seed, i))
        play(game, factory=lambda side, ss: default_admiral(side, ss, None))
        state = game.state
        side_of = {name: state.side_of(name) for name in state.logs}
        bands.add(game.events.events, side_of)
    return bands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario", help="a bf1900 scenario id")
    parser.add_argument("--runs", type=int, default=12, help="battles to play")
    parser.add_argument("--seed", type=int, default=57, help="the sweep seed")
    parser.add_argument("--bores", action="store_true", help="a row per bore, not per class")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    print("\n".join(count(args.scenario, args.seed, args.runs, args.bores).lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
