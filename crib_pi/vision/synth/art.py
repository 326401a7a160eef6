"""The picture styles of drawn decks beyond plain shapes: cartoon and ornamental.

Real decks print far more than an index and a few pips: a cartoon deck's thick black outlines,
bright fills and big-eyed characters, an ornamental deck's gold frames, lattices and scrolls.
None of that is read, but all of it is ink a card finder and an index reader must look past,
and some of it lies near the index. Drawn here in plain shapes (no artwork is copied), so that
the filmed-games benchmark can play decks of those styles that no network saw.
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: The styles ``drawn.drawn_deck`` draws: plain shapes, cartoon and ornamental.
ARTS = ("plain", "cartoon", "ornamental")
RGB = tuple[int, int, int]
#: Cartoon fills: bright primaries and pastels; outlines are near black.
CARTOON = ((240, 60, 50), (40, 120, 230), (250, 200, 30), (60, 180, 80), (200, 90, 200))
OUTLINE = (25, 20, 30)
SKIN = (250, 215, 180)
#: Ornamental inks: gold, a deep red, a dark blue and a green.
GOLD = (190, 150, 50)
ORNATE = (GOLD, (150, 30, 40), (30, 50, 120), (40, 100, 60))


def face_frame(draw: Any, art: str, w: int, h: int, inside: float) -> None:
    """A band or frame round the face, within 2.5% of the width from its edge and at most
    ``inside`` pixels in (it is drawn after the index, clear of it). It is the same turned
    half round, as the face's bottom-right corner is the top-left one turned."""
    inside = min(inside, 0.025 * w)
    if art == "cartoon":  # a coloured band just inside the card's edge
        a, b = round(0.01 * w), round(inside)
        for k in range(a, max(a + 1, b)):
            draw.rounded_rectangle(
                [k, k, w - 1 - k, h - 1 - k], radius=max(1, w // 20 - k), outline=CARTOON[1]
            )
    elif art == "ornamental":  # a fine gold double line
        for k in (round(0.012 * w), round(min(0.022 * w, inside))):
            draw.rounded_rectangle(
                [k, k, w - 1 - k, h - 1 - k], radius=max(1, w // 20 - k), outline=GOLD
            )


def body(
    img: Any, art: str, rank: int, suit: str, colour: RGB, box: tuple[float, ...], pip: Any
) -> None:
    """The middle of the face in ``box`` (x0, y0, x1, y1): ``pip(cx, top, size)`` draws one
    of the deck's pips."""
    from PIL import ImageDraw

    draw = ImageDraw.Draw(img)
    rng = np.random.default_rng(rank * 7 + "CDHS".index(suit))
    if art == "cartoon":
        _cartoon(draw, rng, rank, colour, box, pip)
    else:
        _ornamental(draw, rng, rank, colour, box, pip)


def _cartoon(
    draw: Any, rng: np.random.Generator, rank: int, colour: RGB, box: tuple[float, ...], pip: Any
) -> None:
    x0, y0, x1, y1 = box
    w = x1 - x0
    thick = max(2, round(w / 40))
    # Confetti behind: pale dots and stars.
    for _ in range(14):
        cx, cy, r = rng.uniform(x0, x1), rng.uniform(y0, y1), rng.uniform(2, 6)
        fill = tuple(int(220 + v / 8) for v in CARTOON[int(rng.integers(len(CARTOON)))])
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
    if rank <= 10:
        lay_pips(rank, box, lambda cx, top, size: _outlined(draw, pip, cx, top, size, thick))
        return
    # A character: a bright body, a round head with big eyes and a smile, and a hat by rank.
    cx = (x0 + x1) / 2
    head_r = 0.22 * w
    head_y = y0 + 0.34 * (y1 - y0)
    shirt = CARTOON[int(rng.integers(len(CARTOON)))]
    draw.ellipse([x0 + 0.05 * w, y0 + 0.05 * w, x1 - 0.05 * w, y1 - 0.05 * w], fill=(215, 235, 250))
    neck = head_y + head_r
    robe = [(cx - 0.38 * w, y1 - 0.04 * w), (cx - 0.2 * w, neck), (cx + 0.2 * w, neck)]
    draw.polygon([*robe, (cx + 0.38 * w, y1 - 0.04 * w)], fill=shirt, outline=OUTLINE, width=thick)
    draw.ellipse(
        [cx - head_r, head_y - head_r, cx + head_r, head_y + head_r],
        fill=SKIN,
        outline=OUTLINE,
        width=thick,
    )
    for side in (-1, 1):
        ex, er = cx + side * 0.4 * head_r, 0.28 * head_r
        draw.ellipse(
            [ex - er, head_y - 0.2 * head_r - er, ex + er, head_y - 0.2 * head_r + er],
            fill=(255, 255, 255),
            outline=OUTLINE,
            width=max(1, thick // 2),
        )
        pr = 0.45 * er
        draw.ellipse(
            [ex - pr, head_y - 0.15 * head_r - pr, ex + pr, head_y - 0.15 * head_r + pr],
            fill=OUTLINE,
        )
    mouth = [cx - 0.5 * head_r, head_y, cx + 0.5 * head_r, head_y + 0.6 * head_r]
    draw.arc(mouth, 20, 160, fill=OUTLINE, width=thick)
    top = head_y - head_r
    if rank == 13:  # a crown
        pts = [(cx - head_r, top + 2)]
        for k in range(5):
            pts.append(
                (
                    cx - head_r + (k + 0.5) * 0.4 * head_r,
                    top - (0.5 if k % 2 == 0 else 0.2) * head_r,
                )
            )
        pts.append((cx + head_r, top + 2))
        draw.polygon(pts, fill=CARTOON[2], outline=OUTLINE, width=thick)
    elif rank == 12:  # a bow
        draw.polygon(
            [
                (cx, top),
                (cx - 0.7 * head_r, top - 0.4 * head_r),
                (cx - 0.7 * head_r, top + 0.3 * head_r),
            ],
            fill=colour,
            outline=OUTLINE,
            width=thick,
        )
        draw.polygon(
            [
                (cx, top),
                (cx + 0.7 * head_r, top - 0.4 * head_r),
                (cx + 0.7 * head_r, top + 0.3 * head_r),
            ],
            fill=colour,
            outline=OUTLINE,
            width=thick,
        )
    else:  # a cap
        draw.chord(
            [cx - head_r, top - 0.3 * head_r, cx + head_r, top + 0.9 * head_r],
            180,
            360,
            fill=colour,
            outline=OUTLINE,
            width=thick,
        )
    # The suit on the shirt.
    pip(cx, head_y + 1.4 * head_r, 0.5 * head_r)


def _outlined(draw: Any, pip: Any, cx: float, top: float, size: float, thick: int) -> None:
    """A cartoon pip: a dark blob a little bigger, with the pip in its colour on top."""
    draw.ellipse(
        [cx - size * 0.62, top - thick, cx + size * 0.62, top + size + thick], fill=OUTLINE
    )
    draw.ellipse(
        [cx - size * 0.55, top - thick + 2, cx + size * 0.55, top + size + thick - 2],
        fill=(255, 250, 235),
    )
    pip(cx, top + size * 0.1, size * 0.8)


def _ornamental(
    draw: Any, rng: np.random.Generator, rank: int, colour: RGB, box: tuple[float, ...], pip: Any
) -> None:
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    # A double frame with a curl at each corner, over a fine pale lattice.
    pale = tuple(int(v + (255 - v) * 0.7) for v in GOLD)
    step = max(6, round(w / 9))
    for k in range(-round(h), round(w), step):  # each line clipped to the box
        for a, b in (((x0 + k, y0), (x0 + k + h, y1)), ((x1 - k, y0), (x1 - k - h, y1))):
            ends = _clip(a, b, box)
            if ends is not None:
                draw.line(ends, fill=pale, width=1)
    for k, width in ((0, 2), (4, 1)):
        draw.rectangle([x0 + k, y0 + k, x1 - k, y1 - k], outline=GOLD, width=width)
    r = 0.08 * w
    for cx in (x0, x1):
        for cy in (y0, y1):
            draw.arc([cx - r, cy - r, cx + r, cy + r], 0, 360, fill=GOLD, width=2)
            draw.ellipse([cx - r / 3, cy - r / 3, cx + r / 3, cy + r / 3], fill=ORNATE[1])
    if rank <= 10:
        lay_pips(rank, box, pip)
        # Scrolls between the pips' columns.
        for k in range(3):
            cy = y0 + h * (k + 1) / 4
            cx = (x0 + x1) / 2
            draw.arc(
                [cx - 0.06 * w, cy - 0.03 * h, cx + 0.06 * w, cy + 0.03 * h],
                200,
                340,
                fill=GOLD,
                width=2,
            )
        return
    # A court: a double-ended figure, its halves the same turned round, in ornate inks.
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    draw.line([(x0 + 6, cy), (x1 - 6, cy)], fill=GOLD, width=2)
    for sign in (-1, 1):
        hy = cy + sign * 0.3 * h
        hr = 0.13 * w
        robe = ORNATE[int(rng.integers(1, len(ORNATE)))]
        draw.polygon(
            [(cx - 0.33 * w, cy), (cx, hy), (cx + 0.33 * w, cy)], fill=robe, outline=GOLD, width=2
        )
        for j in range(4):
            yy = cy + sign * (j + 1) * 0.05 * h
            draw.line(
                [(cx - 0.25 * w + j * 0.05 * w, yy), (cx + 0.25 * w - j * 0.05 * w, yy)],
                fill=GOLD,
                width=1,
            )
        draw.ellipse(
            [cx - hr, hy - hr, cx + hr, hy + hr], fill=(240, 220, 190), outline=OUTLINE, width=1
        )
        draw.arc(
            [cx - hr * 1.3, hy - hr * 1.3, cx + hr * 1.3, hy + hr * 1.3],
            0,
            360,
            fill=colour,
            width=2,
        )
        pip(cx + 0.3 * w * -sign, hy - 0.06 * h, 0.09 * h)


def lay_pips(rank: int, box: tuple[float, ...], pip: Any) -> None:
    """A number card's pips in columns in ``box``, the body (80% of the face's height)."""
    x0, y0, x1, y1 = box
    h = (y1 - y0) / 0.8  # the body is 80% of the face's height
    cols = 1 if rank <= 3 else (2 if rank <= 8 else 3)
    per = int(np.ceil(rank / cols))
    size = 0.13 * h if rank > 1 else 0.3 * h
    k = 0
    for c in range(cols):
        count = min(per, rank - k)
        cx = x0 + (x1 - x0) * (c + 0.5) / cols
        for j in range(count):
            cy = y0 + (y1 - y0) * (j + 0.5) / count - size / 2
            pip(cx, cy, size * 0.7)
            k += 1


def _clip(
    a: tuple[float, float], b: tuple[float, float], box: tuple[float, ...]
) -> list[tuple[float, float]] | None:
    """The part of the segment a-b inside ``box``, None where none is."""
    x0, y0, x1, y1 = box
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    if t0 > t1:
        return None
    return [(a[0] + t0 * dx, a[1] + t0 * dy), (a[0] + t1 * dx, a[1] + t1 * dy)]
