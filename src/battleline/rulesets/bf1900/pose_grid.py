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
    # The tracks' points, one row a track: distance along it, x, y and the turn so far.
    table = np.zeros((4, n, width))
    table[0] = np.inf
    if counts.sum():
        owner = np.repeat(np.arange(n), counts)
        col = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        total = int(counts.sum())
        table[0, owner, col] = np.fromiter(
            chain.from_iterable(t.distances for t in paths), float, total
        )
        table[3, owner, col] = np.fromiter(
            chain.from_iterable(t.turns for t in paths), float, total
        )
        flat = chain.from_iterable(chain.from_iterable(t.points) for t in paths)
        pts = np.fromiter(flat, float, 2 * total).reshape(-1, 2)
        table[1, owner, col], table[2, owner, col] = pts[:, 0], pts[:, 1]
    dist = table[0]
    last = np.maximum(counts - 2, 0)[:, None]
    i = np.empty(s.shape, dtype=np.intp)
    for r, c in enumerate(counts.tolist()):
        i[r] = np.searchsorted(dist[r, :c], s[r], side="right") - 1
    i = np.minimum(np.maximum(i, 0), last)
    # Each sub-step's point before and after it on its track: all four values in one gather.
    at = i + (np.arange(n) * width)[:, None]
    flat_table = table.reshape(4, -1)
    before, after = np.take(flat_table, at, axis=1), np.take(flat_table, at + 1, axis=1)
    d0, d1 = before[0], after[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(d1 <= d0, 0.0, (s - d0) / (d1 - d0))
        # x, y and the turn so far, each ``v0 + f * (v1 - v0)``, as :meth:`Track._at` does.
        v = before[1:] + f * (after[1:] - before[1:])
        start_h = np.array([t.start.heading for t in paths])[:, None]
        v[2] = np.mod(start_h + v[2], 360.0)
    v[2][v[2] == 360.0] = 0.0
    at_end = s >= lengths[:, None]
    at_start = ~at_end & ((s <= 0) | (counts == 0)[:, None])
    starts = [(t.start.x, t.start.y, norm360(t.start.heading + 0.0)) for t in paths]
    ends = [(t.end.x, t.end.y, t.end.heading) for t in paths]
    first = np.array(starts).T[:, :, None]
    final = np.array(ends).T[:, :, None]
    out = np.where(at_end, final, np.where(at_start, first, v))
    for r, c in zip(*np.nonzero(~at_end & ~at_start & (counts < 2)[:, None]), strict=True):
        p = paths[r].pose_at(float(s[r, c]))  # a track of one point: the scalar way
        out[0][r, c], out[1][r, c], out[2][r, c] = p.x, p.y, p.heading
    return out[0], out[1], out[2]


__all__ = ["grid_poses", "track_poses"]
