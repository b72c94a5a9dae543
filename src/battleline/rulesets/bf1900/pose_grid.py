"""Every ship's pose at every sub-step of a move, at once: the grid the collision sweep
(:mod:`battleline.rulesets.bf1900.collisions`) tests, bit-identical with :meth:`Track.pose_at`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

import numpy as np
from numpy.typing import NDArray

from battleline.engine.geometry import norm360
from battleline.rulesets.bf1900.tracks import Track


def track_poses(
    track: Track, n_steps: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """(x, y, heading) of ``track.pose_at((k / n_steps) * track.length_m)`` for k = 0..n_steps
    (one row of :func:`grid_poses`)."""
    xs, ys, hs = grid_poses([track], n_steps)
    return xs[0], ys[0], hs[0]


def grid_poses(
    paths: Sequence[Track], n_steps: int
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]:
    """Arrays (track, sub-step) of x, y and heading: ``paths[i].pose_at((k / n_steps) *
    paths[i].length_m)`` for k = 0..n_steps.

    Vectorised over tracks and sub-steps but bit-identical with :meth:`Track.pose_at`: every
    element goes through the same IEEE operations in the same order (``np.mod`` is Python's
    float ``%``, ``searchsorted`` is ``bisect_right``). Rows are padded to the longest track;
    padded values are computed but never chosen.
    """
    n = len(paths)
    lengths = np.array([t.length_m for t in paths])
    s = (np.arange(n_steps + 1) / n_steps)[None, :] * lengths[:, None]
    counts = np.array([len(t.distances) for t in paths], dtype=np.intp)
    width = max(2, int(counts.max()))
    dist = np.full((n, width), np.inf)
    px, py, turns = np.zeros((n, width)), np.zeros((n, width)), np.zeros((n, width))
    if counts.sum():
        owner = np.repeat(np.arange(n), counts)
        col = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        total = int(counts.sum())
        dist[owner, col] = np.fromiter(
            chain.from_iterable(t.distances for t in paths), float, total
        )
        turns[owner, col] = np.fromiter(chain.from_iterable(t.turns for t in paths), float, total)
        flat = chain.from_iterable(chain.from_iterable(t.points) for t in paths)
        pts = np.fromiter(flat, float, 2 * total).reshape(-1, 2)
        px[owner, col], py[owner, col] = pts[:, 0], pts[:, 1]
    last = np.maximum(counts - 2, 0)[:, None]
    i = np.empty(s.shape, dtype=np.intp)
    for r, c in enumerate(counts.tolist()):
        i[r] = np.searchsorted(dist[r, :c], s[r], side="right") - 1
    i = np.minimum(np.maximum(i, 0), last)
    j = i + 1
    row = np.arange(n)[:, None]
    d0, d1 = dist[row, i], dist[row, j]
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(d1 <= d0, 0.0, (s - d0) / (d1 - d0))
        xs = px[row, i] + f * (px[row, j] - px[row, i])
        ys = py[row, i] + f * (py[row, j] - py[row, i])
        start_h = np.array([t.start.heading for t in paths])[:, None]
        hs = np.mod(start_h + (turns[row, i] + f * (turns[row, j] - turns[row, i])), 360.0)
    hs = np.where(hs == 360.0, 0.0, hs)
    at_end = s >= lengths[:, None]
    at_start = ~at_end & ((s <= 0) | (counts == 0)[:, None])
    starts = [(t.start.x, t.start.y, norm360(t.start.heading + 0.0)) for t in paths]
    ends = [(t.end.x, t.end.y, t.end.heading) for t in paths]
    out = []
    for k, v in enumerate((xs, ys, hs)):
        first = np.array([p[k] for p in starts])[:, None]
        final = np.array([p[k] for p in ends])[:, None]
        out.append(np.where(at_end, final, np.where(at_start, first, v)))
    for r, c in zip(*np.nonzero(~at_end & ~at_start & (counts < 2)[:, None]), strict=True):
        p = paths[r].pose_at(float(s[r, c]))  # a track of one point: the scalar way
        out[0][r, c], out[1][r, c], out[2][r, c] = p.x, p.y, p.heading
    return out[0], out[1], out[2]


__all__ = ["grid_poses", "track_poses"]
