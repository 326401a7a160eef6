"""Synthetic table scenes with ground truth: which card lies where, and what is on top.

Layouts follow the table: cards scattered, a fanned hand, a pegging row, a spread crib pile.
Light, shadow, glare, blur, noise and JPEG are added after the cards are laid.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from crib_pi.vision.synth.backgrounds import clutter, mat_table, table
from crib_pi.vision.synth.decks import Deck
from crib_pi.vision.synth.faces import Box

Rng = np.random.Generator
LAYOUTS = ("scatter", "fan", "row", "pile")


@dataclass
class Scene:
    """A rendered scene: the image, each card's face-to-image homography, the top-card map."""

    image: np.ndarray  # BGR uint8
    deck: str = ""
    cards: list[int] = field(default_factory=list)  # Card.index per placed card
    homographies: list[np.ndarray] = field(default_factory=list)  # face px -> image px
    face_sizes: list[tuple[int, int]] = field(default_factory=list)  # (w, h) of each face
    boxes: list[tuple[Box, Box] | None] = field(default_factory=list)  # index boxes per face
    top: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int16))  # -1 = table

    def visible_cards(self, min_share: float = 0.0) -> list[int]:
        """Cards of which some part shows (at least ``min_share`` of the face area)."""
        out = []
        counts = np.bincount(self.top.reshape(-1) + 1, minlength=len(self.cards) + 1)[1:]
        for k, card in enumerate(self.cards):
            fw, fh = self.face_sizes[k]
            area = abs(np.linalg.det(self.homographies[k][:2, :2])) * fw * fh
            if counts[k] > min_share * area:
                out.append(card)
        return out


def _card_poses(
    rng: Rng, layout: str, n: int, w: int, h: int, cw: float
) -> list[tuple[float, float, float]]:
    """Centre x, y and rotation (radians) of each card, bottom of the pile first."""
    ch = cw * 1.45
    poses = []
    if layout == "scatter":
        for _ in range(n):
            poses.append((rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0, 2 * np.pi)))
    elif layout == "fan":
        px, py = rng.uniform(0.2 * w, 0.8 * w), rng.uniform(0.2 * h, 0.8 * h)
        base = rng.uniform(0, 2 * np.pi)
        step = rng.uniform(0.12, 0.35)
        r = ch * rng.uniform(0.3, 0.5)
        for i in range(n):
            a = base + (i - n / 2) * step
            poses.append((px + r * np.sin(a), py - r * np.cos(a), a))
    elif layout == "row":
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        a = rng.uniform(0, 2 * np.pi)
        d = rng.uniform(0.3, 0.7) * cw
        for _ in range(n):
            poses.append((x, y, a + rng.normal(0, 0.05)))
            x += d * np.cos(a) + rng.normal(0, 2)
            y += d * np.sin(a) + rng.normal(0, 2)
    else:  # pile spread out
        x, y = rng.uniform(0.25 * w, 0.75 * w), rng.uniform(0.25 * h, 0.75 * h)
        for _ in range(n):
            poses.append(
                (
                    x + rng.normal(0, cw * 0.5),
                    y + rng.normal(0, cw * 0.5),
                    rng.uniform(0, 2 * np.pi),
                )
            )
    if not poses:
        return poses
    # a group lies mostly in view: its middle goes to a random point in the middle of the table
    xs, ys = np.array([p[0] for p in poses]), np.array([p[1] for p in poses])
    dx = rng.uniform(0.3 * w, 0.7 * w) - (xs.min() + xs.max()) / 2
    dy = rng.uniform(0.3 * h, 0.7 * h) - (ys.min() + ys.max()) / 2
    return [(x + dx, y + dy, a) for x, y, a in poses]


def make_scene(
    rng: Rng,
    decks: list[Deck],
    size: tuple[int, int] = (640, 480),
    card_width: tuple[float, float] = (50.0, 260.0),
    n_cards: tuple[int, int] = (1, 9),
    layout: str | None = None,
    tilt: float = 0.15,
    degrade: float = 1.0,
    clutter_count: tuple[int, int] = (0, 6),
    cards: list[int] | None = None,
    on_mat: bool = False,
) -> Scene:
    """One scene; ``degrade`` scales the photometric damage (0 = clean, 1 = full training range)."""
    w, h = size
    deck = decks[int(rng.integers(0, len(decks)))]
    img = mat_table(rng, h, w) if on_mat else table(rng, h, w)
    clutter(rng, img, int(rng.integers(clutter_count[0], clutter_count[1] + 1)), deck.back)
    top = np.full((h, w), -1, np.int16)
    scene = Scene(image=np.zeros((h, w, 3), np.uint8), deck=deck.name, top=top)
    n = int(rng.integers(n_cards[0], n_cards[1] + 1)) if cards is None else len(cards)
    chosen = list(rng.choice(52, n, replace=False)) if cards is None else cards
    cw = rng.uniform(*card_width)
    layout = layout or LAYOUTS[int(rng.integers(0, len(LAYOUTS)))]
    glob = _tilt(rng, w, h, tilt)
    for k, (x, y, a) in enumerate(_card_poses(rng, layout, n, w, h, cw)):
        face = deck.faces[int(chosen[k])]
        fh, fw = face.shape[:2]
        s = cw * rng.uniform(0.97, 1.03) / fw
        ca, sa = np.cos(a) * s, np.sin(a) * s
        m = np.array(
            [
                [ca, -sa, x - ca * fw / 2 + sa * fh / 2],
                [sa, ca, y - sa * fw / 2 - ca * fh / 2],
                [0, 0, 1],
            ]
        )
        hom = glob @ m
        _shadow(rng, img, hom, fw, fh)
        warped = cv2.warpPerspective(
            face, hom, (w, h), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
        )
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        img[:] = img * (1 - alpha) + warped[:, :, :3].astype(np.float32) * alpha
        top[alpha[:, :, 0] > 0.5] = k
        scene.cards.append(int(chosen[k]))
        scene.homographies.append(hom)
        scene.face_sizes.append((fw, fh))
        scene.boxes.append(deck.boxes[int(chosen[k])])
    scene.image = _photo(rng, img, degrade)
    return scene


def product_scene(rng: Rng, decks: list[Deck], layout: str, on_mat: bool = False) -> Scene:
    """A scene at the product's geometry: a 1280x720 frame from a camera above the table, eight
    cards 150 to 250 px wide, a slight tilt, moderate damage and little clutter. The benchmark
    and the calibration tool both draw these, so their figures speak of the same scenes."""
    return make_scene(
        rng,
        decks,
        size=(1280, 720),
        card_width=(150.0, 250.0),
        n_cards=(8, 8),
        layout=layout,
        tilt=0.05,
        degrade=0.5,
        clutter_count=(0, 2),
        on_mat=on_mat,
    )


HELD_OUT_KINDS = ("flat", "table")


def held_out_scene(rng: Rng, decks: list[Deck], kind: str, i: int) -> Scene:
    """A scene of the held-out benchmarks (decks a network never saw): cards 125-135 px wide
    at 1280x720, the A3 mat filling a 16:9 frame. ``flat``: 4 to 8 cards lying apart, no tilt;
    ``table``: 8 cards in rows, fans and piles (by ``i``), every other one on the mat."""
    if kind == "flat":
        return make_scene(
            rng, decks, size=(1280, 720), card_width=(125.0, 135.0), n_cards=(4, 8),
            layout="scatter", tilt=0.0, degrade=0.3, clutter_count=(0, 0),
        )  # fmt: skip
    return make_scene(
        rng, decks, size=(1280, 720), card_width=(125.0, 135.0), n_cards=(8, 8),
        layout=LAYOUTS[i % len(LAYOUTS)], tilt=0.05, degrade=0.5, clutter_count=(0, 2),
        on_mat=i % 2 == 1,
    )  # fmt: skip


def held_out_scenes(seed: int, decks: list[Deck], count: int) -> Iterator[tuple[str, Scene]]:
    """``count`` held-out scenes of each kind, each kind drawn from its own generator on
    ``seed`` (``bench_held_out.py``'s scenes and the calibration caches of them)."""
    for kind in HELD_OUT_KINDS:
        rng = np.random.default_rng(seed)
        for i in range(count):
            yield kind, held_out_scene(rng, decks, kind, i)


def _tilt(rng: Rng, w: int, h: int, amount: float) -> np.ndarray:
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-amount, amount, (4, 2)) * [w, h] * 0.5
    return np.asarray(
        cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32)), np.float64
    )


def _shadow(rng: Rng, img: np.ndarray, hom: np.ndarray, fw: int, fh: int) -> None:
    if rng.random() < 0.4:
        return
    pts = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)[None]
    quad = cv2.perspectiveTransform(pts, hom)[0] + rng.normal(0, 3, 2)
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, quad.astype(np.int32), 1.0)
    mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), rng.uniform(1, 6)), np.float32)
    img *= 1 - mask[..., None] * rng.uniform(0.1, 0.5)


def _photo(rng: Rng, img: np.ndarray, degrade: float) -> np.ndarray:
    """Light, colour, glare, shadow, blur, noise and JPEG, scaled by ``degrade``."""
    h, w = img.shape[:2]
    if degrade <= 0:
        return np.asarray(np.clip(img, 0, 255), np.uint8)
    d = degrade
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    grad = (xx * np.cos(ang) + yy * np.sin(ang)) / max(w, h)
    light = 1.0 + d * rng.uniform(-0.5, 0.3) * grad + d * rng.uniform(-0.35, 0.1)
    img = img * light[..., None] * (1 + d * rng.uniform(-0.15, 0.15, 3))
    if rng.random() < 0.3 * d:  # a hard shadow (a head or an arm)
        mask = np.zeros((h, w), np.float32)
        c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.ellipse(
            mask,
            c,
            (int(rng.integers(40, w)), int(rng.integers(20, h // 2))),
            float(rng.uniform(0, 180)),
            0,
            360,
            1.0,
            -1,
        )
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), rng.uniform(3, 30)), np.float32)
        img *= 1 - mask[..., None] * rng.uniform(0.2, 0.55)
    if rng.random() < 0.3 * d:  # glare
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(20, max(w, h) / 3)
        g = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * r * r))
        img = img + g[..., None] * rng.uniform(40, 160) * d
    img = np.clip(img, 0, 255)
    r = rng.random()
    if r < 0.5 * d:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3 * d + 0.3))
    elif r < 0.65 * d:
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kern = np.asarray(cv2.warpAffine(kern, rot, (k, k)), np.float32)
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    img = img + rng.normal(0, rng.uniform(0, 8 * d), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.8 * d:
        q = int(rng.integers(int(95 - 65 * d), 96))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
