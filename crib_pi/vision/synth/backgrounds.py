"""Procedural tables and clutter: plain, textured, wood, cloth, paper with print, objects.

Clutter matters most for precision: printed text and shapes on paper look like index glyphs,
so the classifier must see plenty of them labelled "no card".
"""

from __future__ import annotations

import cv2
import numpy as np

Rng = np.random.Generator

_LETTERS = "AKQJ0123456789ABCDEFGHIJKLMNOPRSTUVWXYZabcdefghijkmnopqrstuvwxyz&$%#"


def _smooth_noise(rng: Rng, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.random((max(2, h * cells // max(h, w)), max(2, w * cells // max(h, w))))
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _color(rng: Rng, dark: float | None = None) -> np.ndarray:
    level = rng.uniform(0.05, 0.95) if dark is None else dark
    base = rng.uniform(0.3, 1.0, 3)
    return np.asarray(np.clip(base / base.max() * level * 255, 0, 255), np.float32)


def table(rng: Rng, h: int, w: int) -> np.ndarray:
    """A table or mat: a colour with one of several textures, float32 BGR 0..255."""
    kind = rng.integers(0, 6)
    c1, c2 = _color(rng), _color(rng)
    if kind == 0:  # plain with soft blotches
        t = _smooth_noise(rng, h, w, 4)[..., None] * 0.3
        img = c1 * (0.85 + t)
    elif kind == 1:  # wood grain
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        u = xx * np.cos(ang) + yy * np.sin(ang)
        warp = _smooth_noise(rng, h, w, 6) * rng.uniform(10, 60)
        f = rng.uniform(0.05, 0.4)
        t = (np.sin((u + warp) * f) * 0.5 + 0.5)[..., None]
        img = c1 * (1 - t) + c2 * t
    elif kind == 2:  # fine noise: felt, carpet, knit
        n = rng.random((h, w)).astype(np.float32)
        k = int(rng.integers(1, 4)) * 2 + 1
        n = np.asarray(cv2.GaussianBlur(n, (k, k), 0), np.float32)[..., None]
        img = c1 * (1 - n * rng.uniform(0.2, 0.9)) + c2 * n * 0.3
    elif kind == 3:  # boards or tiles
        img = np.empty((h, w, 3), np.float32)
        img[:] = c1
        step = int(rng.integers(30, 200))
        for x in range(int(rng.integers(0, step)), w, step):
            cv2.line(img, (x, 0), (x, h), (c2 * 0.5).tolist(), int(rng.integers(1, 5)))
        img *= (0.8 + 0.4 * _smooth_noise(rng, h, w, 8))[..., None]
    elif kind == 4:  # woven / checked cloth
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        p = rng.uniform(3, 30)
        t = ((np.sin(xx / p) > 0) ^ (np.sin(yy / p) > 0)).astype(np.float32)[..., None]
        img = c1 * (1 - t * 0.4) + c2 * t * 0.4
    else:  # gradient
        g = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
        img = c1 * (1 - g) + c2 * g + np.zeros((h, 1, 1), np.float32)
    return np.clip(img, 0, 255).astype(np.float32)


def mat_table(rng: Rng, h: int, w: int) -> np.ndarray:
    """The printed play mat (``crib_pi.mat``) seen from above under a tilt, on a table.

    The product's own background, with its zone outlines, labels and markers, so the classifier
    learns that none of them is an index.
    """
    from crib_pi.mat import HEIGHT, WIDTH, Mat

    under = table(rng, h, w)
    sheet = Mat(int(rng.integers(2, 5))).render().astype(np.float32)
    sheet *= 1.0 - rng.uniform(0.0, 0.2) * (1.0 - _color(rng) / 255.0)  # paper tint
    margin = rng.uniform(0.0, 0.12, size=(4, 2)) * [w, h]
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], np.float32)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) + inward * margin
    if rng.random() < 0.5:  # zoomed in: only part of the mat fills the frame
        centre = dst.mean(axis=0)
        dst = (dst - centre) * rng.uniform(1.0, 1.8) + centre
    src = np.array([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]], np.float32)
    hom = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    out = cv2.warpPerspective(sheet, hom, (w, h), dst=under, borderMode=cv2.BORDER_TRANSPARENT)
    return np.asarray(out, np.float32)


def clutter(rng: Rng, img: np.ndarray, count: int, back: np.ndarray | None) -> None:
    """Draw objects that are not cards: printed paper, shapes, phones, coasters, hands, backs."""
    h, w = img.shape[:2]
    for _ in range(count):
        kind = rng.integers(0, 7)
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        size = int(rng.integers(20, max(21, min(h, w) // 2)))
        if kind <= 1:  # paper with print
            pw, ph = size, int(size * rng.uniform(0.5, 1.6))
            paper = _color(rng, rng.uniform(0.75, 1.0))
            corners = cv2.boxPoints(((cx, cy), (pw, ph), float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(img, np.asarray(corners, np.int32), paper.tolist())
            _print_text(rng, img, cx, cy, pw, ph)
        elif kind == 2:  # phone: dark rounded slab
            box = cv2.boxPoints(((cx, cy), (size * 0.5, size), float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(img, box.astype(np.int32), _color(rng, 0.1).tolist())
        elif kind == 3:  # coaster or cup
            cv2.circle(img, (cx, cy), size // 2, _color(rng).tolist(), -1)
            cv2.circle(img, (cx, cy), size // 3, _color(rng).tolist(), int(rng.integers(1, 6)))
        elif kind == 4:  # hand or arm: skin-coloured blob
            skin = np.array([rng.uniform(60, 200)] * 3, np.float32) * [0.7, 0.85, 1.0]
            axes = (size // 2, size // 5)
            cv2.ellipse(img, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, skin.tolist(), -1)
        elif kind == 5:  # scribbles and symbols
            for _ in range(int(rng.integers(3, 12))):
                p = (int(cx + rng.normal(0, size / 3)), int(cy + rng.normal(0, size / 3)))
                col = _color(rng, rng.uniform(0, 0.5)).tolist()
                r = int(rng.integers(2, 12))
                if rng.random() < 0.5:
                    cv2.circle(img, p, r, col, -1 if rng.random() < 0.5 else 1)
                else:
                    q = (p[0] + int(rng.integers(-20, 20)), p[1] + int(rng.integers(-20, 20)))
                    cv2.line(img, p, q, col, int(rng.integers(1, 4)))
        elif back is not None:  # a face-down card
            bw = size
            bh = int(bw * back.shape[0] / back.shape[1])
            src = np.array([[0, 0], [back.shape[1], 0], [back.shape[1], back.shape[0]]], np.float32)
            ang = rng.uniform(0, 2 * np.pi)
            ca, sa = np.cos(ang), np.sin(ang)
            dst = np.array(
                [
                    [cx, cy],
                    [cx + bw * ca, cy + bw * sa],
                    [cx + bw * ca - bh * sa, cy + bw * sa + bh * ca],
                ],
                np.float32,
            )
            m = cv2.getAffineTransform(src, dst)
            warped = cv2.warpAffine(back, m, (w, h)).astype(np.float32)
            a = warped[:, :, 3:4] / 255.0
            img[:] = img * (1 - a) + warped[:, :, :3] * a


def _print_text(rng: Rng, img: np.ndarray, cx: int, cy: int, pw: int, ph: int) -> None:
    lines = int(rng.integers(1, 6))
    scale = rng.uniform(0.3, 1.6)
    ink = _color(rng, rng.uniform(0.0, 0.4))
    if rng.random() < 0.3:
        ink = np.array([30, 30, rng.uniform(150, 230)], np.float32)
    mask = np.zeros(img.shape[:2], np.uint8)
    for i in range(lines):
        n = int(rng.integers(1, 10))
        text = "".join(rng.choice(list(_LETTERS), n))
        org = (
            int(cx - pw / 2 + rng.uniform(0, pw / 2)),
            int(cy - ph / 2 + (i + 1) * ph / (lines + 1)),
        )
        font = int(rng.choice([0, 1, 2, 3, 4, 6, 7]))
        cv2.putText(mask, text, org, font, scale, 255, int(rng.integers(1, 3)), cv2.LINE_AA)
    a = mask.astype(np.float32)[..., None] / 255.0
    img[:] = img * (1 - a) + ink * a
