"""Candidate index frames from pairs of glyphs: a rank above its suit.

Every standard index is a rank with its suit just below it, so a pair of nearby blobs of
similar size gives a place, a scale and an "up" direction for the index, whatever the card's
rotation and whether or not the rest of the card is hidden. Both orders of each pair are kept;
the classifier rejects the upside-down one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_pi.vision.glyphs import Glyphs

#: Nearest partners looked at for each glyph.
NEIGHBOURS = 4
#: Patch side as a multiple of (centre distance + mean glyph size).
PATCH_SPAN = 1.25


@dataclass(frozen=True)
class Frames:
    """Candidate index frames: centre, unit "down" direction (rank to suit) and patch side.

    ``glyphs`` names the two blobs each frame was made from: frames that share a blob lie on
    the same printed index, while a neighbouring card's index in a fan, as close, shares none.
    """

    centers: np.ndarray  # (n, 2)
    downs: np.ndarray  # (n, 2) unit vectors
    sides: np.ndarray  # (n,)
    gaps: np.ndarray  # (n,) distance from rank centre to suit centre
    glyphs: np.ndarray  # (n, 2) int: the blobs (rank, suit) the frame was made from

    def __len__(self) -> int:
        return int(self.centers.shape[0])

    @staticmethod
    def empty() -> Frames:
        z = np.zeros((0, 2), np.float32)
        e = np.zeros((0,), np.float32)
        return Frames(z, z.copy(), e, e.copy(), np.zeros((0, 2), np.int32))

    def take(self, idx: np.ndarray) -> Frames:
        """The frames at ``idx``, in that order."""
        return Frames(
            self.centers[idx], self.downs[idx], self.sides[idx], self.gaps[idx], self.glyphs[idx]
        )

    def corners(self) -> np.ndarray:
        """(n, 4, 2) patch corners in image pixels: top-left, top-right, bottom-right, bottom-left.

        Corners follow the index's own frame (top-left is above-left of the rank).
        """
        d = self.downs
        r = np.stack([d[:, 1], -d[:, 0]], axis=1)  # "right" in the index's own frame
        h = (self.sides / 2.0)[:, None]
        c = self.centers
        return np.stack(
            [c - r * h - d * h, c + r * h - d * h, c + r * h + d * h, c - r * h + d * h], axis=1
        ).astype(np.float32)


#: Glyphs paired per block: a busy image (cloth, noise) has thousands of blobs, and pairing all
#: against all at once would take n x n memory (13,000 blobs: several GB); per block it is bounded.
BLOCK = 128


def pair_frames(g: Glyphs) -> Frames:
    """Frames for glyph pairs whose distance and size ratio fit a rank over a suit."""
    n = g.centers.shape[0]
    if n < 2:
        return Frames.empty()
    c, s = g.centers, g.sizes
    k = min(NEIGHBOURS, n - 1)
    a_parts, b_parts, d_parts = [], [], []
    for start in range(0, n, BLOCK):
        rows = np.arange(start, min(start + BLOCK, n))
        diff = c[None, :, :] - c[rows, None, :]
        dist = np.hypot(diff[..., 0], diff[..., 1])
        big = np.maximum(s[rows, None], s[None, :])
        ratio = s[None, :] / s[rows, None]
        ok = (dist >= 0.35 * big) & (dist <= 1.5 * big) & (ratio >= 0.33) & (ratio <= 3.0)
        ok[np.arange(rows.size), rows] = False
        dist_ok = np.where(ok, dist, np.inf)
        near = np.argpartition(dist_ok, k - 1, axis=1)[:, :k] if k < n else np.argsort(dist_ok, 1)
        local = np.repeat(np.arange(rows.size), near.shape[1])
        b_idx = near.reshape(-1)
        valid = np.isfinite(dist_ok[local, b_idx])
        a_parts.append(rows[local[valid]])
        b_parts.append(b_idx[valid])
        d_parts.append(dist[local[valid], b_idx[valid]])
    a_idx, b_idx, d = np.concatenate(a_parts), np.concatenate(b_parts), np.concatenate(d_parts)
    if a_idx.size == 0:
        return Frames.empty()
    return _frames(c[a_idx], c[b_idx], s[a_idx], s[b_idx], d, np.stack([a_idx, b_idx], axis=1))


def joined_frames(g: Glyphs, first_id: int) -> Frames:
    """Frames of the ranks printed touching their suits (``Glyphs.joined``), both ways round.

    Each such blob's two pieces are paired with each other only, and named as two blobs of
    their own (``first_id`` on), so that both frames are known to lie on one index.
    """
    m = g.joined.shape[0]
    if m == 0:
        return Frames.empty()
    top, low = g.joined[:, 0], g.joined[:, 1]
    s_top, s_low = g.joined_sizes[:, 0], g.joined_sizes[:, 1]
    ids = first_id + 2 * np.arange(m)
    a, b = np.concatenate([top, low]), np.concatenate([low, top])
    sa, sb = np.concatenate([s_top, s_low]), np.concatenate([s_low, s_top])
    pairs = np.concatenate([np.stack([ids, ids + 1], 1), np.stack([ids + 1, ids], 1)])
    d = np.maximum(np.hypot(*(b - a).T), 1e-6)
    return _frames(a, b, sa, sb, d, pairs)


def _frames(
    a: np.ndarray, b: np.ndarray, sa: np.ndarray, sb: np.ndarray, d: np.ndarray, ids: np.ndarray
) -> Frames:
    """Frames from rank centres ``a`` to suit centres ``b`` (sizes ``sa``, ``sb``, distance
    ``d``), made from the blobs ``ids``."""
    downs = (b - a) / d[:, None]
    return Frames(
        ((a + b) / 2.0).astype(np.float32),
        downs.astype(np.float32),
        (PATCH_SPAN * (d + 0.5 * (sa + sb))).astype(np.float32),
        d.astype(np.float32),
        ids.astype(np.int32),
    )


def concat(parts: list[Frames]) -> Frames:
    """The frames of ``parts`` one after the other."""
    return Frames(
        *(np.concatenate([getattr(f, k) for f in parts]) for k in Frames.__dataclass_fields__)
    )
