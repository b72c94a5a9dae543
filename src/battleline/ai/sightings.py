"""What an admiral remembers of the enemy's movements: each enemy ship's last two sightings at
the command phase, and the run she is expected to make this move (by eye, never from her log).
"""

from __future__ import annotations

import math

from battleline.ai.picture import Picture


class Sightings:
    """Each enemy ship's last two sightings at the command phase: (turn, funnel point)."""

    def __init__(self) -> None:
        self.seen: dict[str, list[tuple[int, tuple[float, float]]]] = {}

    def note(self, picture: Picture) -> None:
        """Where each enemy ship was seen this command phase (two sightings kept)."""
        for name in picture.enemy:
            seen = self.seen.setdefault(name, [])
            if not seen or seen[-1][0] != picture.turn:
                seen.append((picture.turn, picture.funnels[name]))
                del seen[:-2]

    def seen_run(self, picture: Picture, name: str) -> float | None:
        """An enemy ship's run between her last two sightings a turn apart, as the eye saw it
        (at most her class's top speed); ``None`` when she was not seen twice running."""
        seen = self.seen.get(name, [])
        if len(seen) == 2 and seen[1][0] - seen[0][0] == 1:
            return min(top_run(picture, name), math.dist(seen[0][1], seen[1][1]))
        return None

    def expected_run(self, picture: Picture, name: str) -> float:
        """How far an enemy ship is expected to steam this move, metres: her run as seen
        (:meth:`seen_run`); her class's top speed when not seen twice running (class values
        are public)."""
        run = self.seen_run(picture, name)
        return top_run(picture, name) if run is None else run


def top_run(picture: Picture, name: str) -> float:
    """An enemy ship's run at her class's top speed, metres."""
    return picture.scale.knots_to_m_per_turn(picture.classes[name].max_knots)


__all__ = ["Sightings", "top_run"]
