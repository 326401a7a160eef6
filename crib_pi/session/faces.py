"""Plain card faces drawn by the project itself (MIT, like the rest), for demo and test frames.

A white card with the rank and a suit pip in the top-left corner and again, turned round, in
the bottom-right, and a large pip in the middle: the layout of an ordinary deck's index.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.cards import Card

RED, BLACK = (30, 30, 200), (25, 25, 25)
WIDTH, HEIGHT = 240, 336


def _pip(
    img: npt.NDArray[Any], suit: str, cx: int, cy: int, size: int, colour: tuple[int, ...]
) -> None:
    """A suit symbol of height ``size`` centred on (cx, cy), from circles and polygons."""
    r = size // 4
    if suit == "D":
        pts = [
            (cx, cy - size // 2),
            (cx + size // 3, cy),
            (cx, cy + size // 2),
            (cx - size // 3, cy),
        ]
        cv2.fillPoly(img, [np.array(pts, np.int32)], colour, cv2.LINE_AA)
        return
    if suit == "H":
        cv2.circle(img, (cx - r, cy - r // 2), r + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, cy - r // 2), r + 1, colour, -1, cv2.LINE_AA)
        pts = [(cx - 2 * r - 1, cy - r // 4), (cx + 2 * r + 1, cy - r // 4), (cx, cy + size // 2)]
        cv2.fillPoly(img, [np.array(pts, np.int32)], colour, cv2.LINE_AA)
        return
    if suit == "S":
        cv2.circle(img, (cx - r, cy + r // 3), r + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, cy + r // 3), r + 1, colour, -1, cv2.LINE_AA)
        pts = [(cx - 2 * r - 1, cy + r // 6), (cx + 2 * r + 1, cy + r // 6), (cx, cy - size // 2)]
        cv2.fillPoly(img, [np.array(pts, np.int32)], colour, cv2.LINE_AA)
    else:  # clubs
        cv2.circle(img, (cx, cy - r), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx - r, cy + r // 3), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r, cy + r // 3), r, colour, -1, cv2.LINE_AA)
    stem = [(cx, cy), (cx - r, cy + size // 2), (cx + r, cy + size // 2)]
    cv2.fillPoly(img, [np.array(stem, np.int32)], colour, cv2.LINE_AA)


def _index(img: npt.NDArray[Any], card: Card, colour: tuple[int, ...]) -> None:
    rank = card.rank_name
    scale = 1.35 if len(rank) == 1 else 1.15
    (tw, _), _ = cv2.getTextSize(rank, cv2.FONT_HERSHEY_DUPLEX, scale, 3)
    cx = 30
    cv2.putText(
        img, rank, (cx - tw // 2, 50), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 3, cv2.LINE_AA
    )
    _pip(img, card.suit, cx, 80, 30, colour)


@cache
def plain_face(card: Card) -> npt.NDArray[np.uint8]:
    """The card as a BGRA image, WIDTH x HEIGHT, rounded corners transparent."""
    colour = RED if card.suit in "HD" else BLACK
    img = np.full((HEIGHT, WIDTH, 3), 250, np.uint8)
    _index(img, card, colour)
    img[HEIGHT // 2 :, :] = np.rot90(img[: HEIGHT - HEIGHT // 2, :], 2)  # the turned-round index
    img[HEIGHT // 2 - 1 : HEIGHT // 2 + 1, :] = 250
    _pip(img, card.suit, WIDTH // 2, HEIGHT // 2, 90, colour)
    cv2.rectangle(img, (2, 2), (WIDTH - 3, HEIGHT - 3), (190, 190, 190), 2, cv2.LINE_AA)
    alpha = np.zeros((HEIGHT, WIDTH), np.uint8)
    cv2.rectangle(alpha, (12, 0), (WIDTH - 13, HEIGHT - 1), 255, -1)
    cv2.rectangle(alpha, (0, 12), (WIDTH - 1, HEIGHT - 13), 255, -1)
    for x in (12, WIDTH - 13):
        for y in (12, HEIGHT - 13):
            cv2.circle(alpha, (x, y), 12, 255, -1, cv2.LINE_AA)
    out: npt.NDArray[np.uint8] = np.dstack([img, alpha])
    return out


@cache
def pictured_back() -> tuple[npt.NDArray[np.uint8], tuple[tuple[Card, tuple[float, ...]], ...]]:
    """A card back printed with a picture of four aces fanned out (as some decks' backs and
    most boxes are): BGRA, the size of a face, and each pictured ace's index as (card, box in
    back fractions). A picture of a card is not a card: the table must never lay these."""
    img = np.full((HEIGHT, WIDTH, 3), (60, 40, 150), np.uint8)  # a red back
    cv2.rectangle(img, (10, 10), (WIDTH - 11, HEIGHT - 11), (235, 235, 235), 3)
    for x in range(20, WIDTH - 20, 14):
        cv2.line(img, (x, 20), (x + 30, HEIGHT - 20), (90, 70, 180), 2)
    pictured = []
    w, h = WIDTH // 2, HEIGHT // 2  # each ace at half a card's size
    for k, suit in enumerate("SHCD"):
        ace = plain_face(Card(1, suit))
        small = cv2.resize(ace, (w, h), interpolation=cv2.INTER_AREA)
        x0, y0 = 28 + 20 * k, 60 + 12 * k
        cover = small[:, :, 3:4].astype(np.float32) / 255.0
        roi = img[y0 : y0 + h, x0 : x0 + w].astype(np.float32)
        img[y0 : y0 + h, x0 : x0 + w] = (small[:, :, :3] * cover + roi * (1 - cover)).astype(
            np.uint8
        )
        # its top-left index (the others are covered by the next ace)
        pictured.append(
            (
                Card(1, suit),
                (x0 / WIDTH, y0 / HEIGHT, (x0 + 0.2 * w) / WIDTH, (y0 + 0.3 * h) / HEIGHT),
            )
        )
    alpha = plain_face(Card(1, "S"))[:, :, 3]
    return np.dstack([img, alpha]), tuple(pictured)


@cache
def card_box() -> tuple[npt.NDArray[np.uint8], tuple[tuple[Card, tuple[float, ...]], ...]]:
    """The top of a deck's box, a little larger than a card (as 67 x 94 mm is to 63 x 88),
    printed with an ace of spades and the maker's band: BGRA and its pictured index."""
    img = np.full((HEIGHT, WIDTH, 3), (120, 40, 30), np.uint8)  # a blue box
    ace = cv2.resize(plain_face(Card(1, "S")), (WIDTH * 3 // 4, HEIGHT * 3 // 4))
    x0, y0 = WIDTH // 8, HEIGHT // 10
    a = ace[:, :, 3:4].astype(np.float32) / 255.0
    h, w = ace.shape[:2]
    roi = img[y0 : y0 + h, x0 : x0 + w].astype(np.float32)
    img[y0 : y0 + h, x0 : x0 + w] = (ace[:, :, :3] * a + roi * (1 - a)).astype(np.uint8)
    cv2.rectangle(img, (0, HEIGHT - 40), (WIDTH, HEIGHT - 20), (40, 200, 230), -1)
    index = (x0 / WIDTH, y0 / HEIGHT, (x0 + 0.2 * w) / WIDTH, (y0 + 0.3 * h) / HEIGHT)
    return np.dstack([img, np.full((HEIGHT, WIDTH), 255, np.uint8)]), ((Card(1, "S"), index),)
