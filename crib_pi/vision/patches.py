"""Cut each candidate index frame out of the image as a small upright patch.

The patch is taken from the pyramid level nearest its size, so big indices are not aliased, and
each patch is normalised on its own so the classifier sees the same thing in dim and bright light.
"""

from __future__ import annotations

import cv2
import numpy as np

from crib_pi.vision.pairs import Frames

#: Classifier input side in pixels.
PATCH = 32
#: The wide look (``extract_wide``): the frame twice as wide, moved up and left by these shares
#: of its side, toward the corner of the card, whose edge and blank margin then show.
WIDE_SPAN = 2.0
WIDE_SHIFT = (-0.15, -0.15)


def color_pyramid(bgr: np.ndarray, levels: int) -> list[np.ndarray]:
    """The colour image at full size and at halves, one per glyph pyramid level."""
    out = [bgr]
    for _ in range(1, levels):
        out.append(cv2.pyrDown(out[-1]))
    return out


def extract(
    pyr: list[np.ndarray],
    frames: Frames,
    span: float = 1.0,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """(n, PATCH, PATCH, 3) uint8 patches, index upright (rank above suit).

    ``span`` widens each frame about its centre and ``shift`` moves it (right, down in the
    index's own frame), both in frame sides.
    """
    n = len(frames)
    out = np.zeros((n, PATCH, PATCH, 3), np.uint8)
    for i in range(n):
        side = float(frames.sides[i]) * span
        lvl = 0
        while lvl + 1 < len(pyr) and side / (2 ** (lvl + 1)) >= PATCH:
            lvl += 1
        sc = 2.0**lvl
        dx, dy = frames.downs[i]
        rx, ry = dy, -dx  # "right": down turned a quarter anticlockwise on screen
        move = float(frames.sides[i]) * (shift[0] * np.array([rx, ry]) + shift[1] * frames.downs[i])
        cx, cy = (frames.centers[i] + move) / sc - (sc - 1.0) / (2.0 * sc)
        k = (side / sc) / PATCH  # level pixels per patch pixel
        # patch (u, v) -> level: centre + (u - P/2) * k * right + (v - P/2) * k * down
        m = np.array(
            [
                [rx * k, dx * k, cx - (rx + dx) * k * PATCH / 2.0],
                [ry * k, dy * k, cy - (ry + dy) * k * PATCH / 2.0],
            ],
            np.float32,
        )
        out[i] = cv2.warpAffine(
            pyr[lvl],
            m,
            (PATCH, PATCH),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    return out


def extract_wide(pyr: list[np.ndarray], frames: Frames) -> np.ndarray:
    """The wide look at each frame: the index small, with the card around it."""
    return extract(pyr, frames, WIDE_SPAN, WIDE_SHIFT)


def normalise(patches: np.ndarray) -> np.ndarray:
    """(n, 3, P, P) float32 network input: each patch to zero mean and unit spread."""
    x = patches.astype(np.float32)
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) / (std + 8.0)
    return np.ascontiguousarray(x.transpose(0, 3, 1, 2))


def grey_patches(patches: np.ndarray) -> np.ndarray:
    """(n, P, P, 3) uint8 patches as a grey camera would give them: luminance in all channels.

    The grey network sees only these, in training and at run time, so it tells suits apart by
    shape, never by ink colour.
    """
    lum = patches.astype(np.float32) @ np.array([0.114, 0.587, 0.299], np.float32)
    g = np.clip(np.rint(lum), 0, 255).astype(np.uint8)
    return np.repeat(g[..., None], 3, axis=-1)


def colourless(bgr: np.ndarray, spread: float = 12.0) -> bool:
    """True when a frame has no colour to speak of: a monochrome camera, or a grey image.

    Each channel is first scaled to the same mean, so a uniform colour cast is not colour; a
    frame is colourless when 99% of its pixels then differ across channels by less than
    ``spread`` levels (red ink on a colour frame differs by a hundred or more).
    """
    small = bgr[::8, ::8].reshape(-1, 3).astype(np.float32)
    gains = small.mean(axis=0)
    small *= float(gains.mean()) / np.maximum(gains, 1.0)
    b, g, r = small.T  # numpy's max across a row of three is slow: column by column
    chroma = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    return bool(np.percentile(chroma, 99) < spread)
