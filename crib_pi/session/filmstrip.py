"""Frame sequences of scripted games on the mat, for tests, benchmarks and the demo.

A script is a list of game actions (``crib_pi.simulate`` makes legal ones). ``film`` lays
each card where a player would (rows of overlapping cards in the player's zone, the starter
on its spot, the crib spread on its spot), seen by a tilted camera over a table, with a hand
passing over before each card lands, cards slid in crooked, shadows, glare and light that
changes, and writes the frames plus the button presses that go with them. Faces come from a
``faces`` function (card -> RGBA image), e.g. a rendered SVG deck.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.actions import (
    Action,
    ChooseDealer,
    Claim,
    Crib,
    Cut,
    CutForDeal,
    GameOptions,
    Go,
    Muggins,
    Play,
    Show,
    Undo,
)
from crib_pi.cards import Card
from crib_pi.game import Game
from crib_pi.mat import HEIGHT, PX_PER_MM, WIDTH, Mat
from crib_pi.session.faces import card_box, pictured_back

Image = npt.NDArray[Any]
Faces = Callable[[Card], Image]
CARD_W, CARD_H = 63 * PX_PER_MM, 88 * PX_PER_MM
FRAME_W, FRAME_H = 1280, 720
ROW_STEP = 21 * PX_PER_MM  # each card in a row moves along by 21 mm: the index stays in view
INDEX_TOP_LEFT = (0.02, 0.02, 0.2, 0.3)  # where a standard index sits, in face fractions
INDEX_BOTTOM_RIGHT = (0.8, 0.7, 0.98, 0.98)


@dataclass(frozen=True)
class OpenHand:
    """Not an action: learn mode's open-hand practice, filmed. The player lays ``cards`` face
    up in their zone, then ``discard`` face up on the crib spot, then gathers them all up."""

    player: int
    cards: tuple[Card, ...]
    discard: tuple[Card, ...]


@dataclass
class Placed:
    card: Card
    centre: tuple[float, float]  # mat pixels
    angle: float  # degrees


@dataclass(eq=False)
class Prop:
    """Something on the mat that is not a card in play: the pack face down, its box. Its
    ``pictured`` indices (card, box in image fractions) are pictures of cards that a reader
    may read; the film's truth lists them with ``picture`` set."""

    image: Image  # BGRA
    pictured: tuple[tuple[Card, tuple[float, ...]], ...]
    centre: tuple[float, float]  # mat pixels
    angle: float
    size: tuple[float, float]  # mat pixels


@dataclass
class Film:
    """The table as the camera sees it, and the frames and presses written so far."""

    mat: Mat
    faces: Faces
    out: Path
    rng: np.random.Generator
    stable: int = 3
    zoom: float = 1.0  # the mat's size in the frame (1: the project's films, cards ~150 px)
    on_mat: list[Placed] = field(default_factory=list)
    props: list[Prop] = field(default_factory=list)  # under the cards
    presses: list[dict[str, object]] = field(default_factory=list)
    truth: list[list[dict[str, object]]] = field(default_factory=list)
    settled: list[dict[str, object]] = field(default_factory=list)  # card, first still frame
    frame: int = -1
    camera: npt.NDArray[np.float64] = field(init=False)
    mat_image: Image = field(init=False)

    def __post_init__(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        self.mat_image = self.mat.render()
        shift = self.rng.uniform(-50, 50, size=(4, 2))
        dst = np.array([[150, 50], [1130, 50], [1170, 690], [110, 690]], np.float32) + shift
        centre = np.array([FRAME_W / 2, FRAME_H / 2], np.float32)
        dst = centre + (dst - centre) * self.zoom
        src = np.array([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]], np.float32)
        self.camera = cv2.getPerspectiveTransform(src, dst.astype(np.float32)).astype(np.float64)
        base = np.array(self.rng.integers(40, 160, size=3), np.float32)
        noise = self.rng.normal(0, 6, size=(FRAME_H, FRAME_W, 1)).astype(np.float32)
        self.table = np.clip(base + noise, 0, 255).astype(np.uint8)

    # -- frames ------------------------------------------------------------------------

    def shoot(self, *, hand: tuple[float, float] | None = None, glare: bool = False) -> None:
        """Write one frame of the table as it is now."""
        frame: Image = cv2.warpPerspective(
            self.mat_image,
            self.camera,
            (FRAME_W, FRAME_H),
            dst=self.table.copy(),
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        for prop in self.props:
            h, w = prop.image.shape[:2]
            self._paste(
                frame, prop.image, self._to_frame_of(prop.centre, prop.angle, prop.size, w, h)
            )
        for placed in self.on_mat:
            self._draw_card(frame, placed)
        light = self.rng.uniform(0.85, 1.1)
        gradient = np.linspace(self.rng.uniform(0.8, 1.0), 1.0, FRAME_W, dtype=np.float32)
        shaded: Image = frame.astype(np.float32) * light * gradient[None, :, None]
        if glare and self.on_mat:
            x, y = self._to_frame(self.on_mat[-1].centre)
            spot: Image = np.zeros((FRAME_H, FRAME_W), np.float32)
            cv2.circle(spot, (int(x + 20), int(y - 30)), 28, 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), 12)
            shaded += spot[:, :, None] * 110
        frame = np.clip(shaded, 0, 255).astype(np.uint8)
        if hand is not None:
            self._draw_hand(frame, hand)
        frame = cv2.GaussianBlur(frame, (3, 3), 0.6)
        self.truth.append(self._visible_indices(hand))
        self.frame += 1
        cv2.imwrite(str(self.out / f"{self.frame:06d}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 90])

    def _to_frame(self, point: tuple[float, float]) -> tuple[float, float]:
        p = cv2.perspectiveTransform(np.array([[point]], np.float64), self.camera)[0, 0]
        return float(p[0]), float(p[1])

    def _visible_indices(self, hand: tuple[float, float] | None) -> list[dict[str, object]]:
        """Ground truth: each card's index corners that no later card and no hand covers."""
        quads = [self._quad(p, 1.0, 1.0) for p in self.on_mat]
        tip = np.array(self._to_frame(hand)) if hand is not None else None
        seen = []
        for i, placed in enumerate(self.on_mat):
            for box in (INDEX_TOP_LEFT, INDEX_BOTTOM_RIGHT):
                corners = self._quad(placed, 1.0, 1.0, box)
                centre = corners.mean(axis=0)
                covered = any(
                    cv2.pointPolygonTest(
                        q.astype(np.float32), (float(centre[0]), float(centre[1])), False
                    )
                    >= 0
                    for q in quads[i + 1 :]
                )
                if tip is not None:
                    root = np.array([tip[0], FRAME_H + 80 if tip[1] > FRAME_H / 2 else -80])
                    covered = covered or _near_segment(centre, tip, root, 75)
                if not covered:
                    seen.append({"card": str(placed.card), "corners": corners.round(1).tolist()})
        for prop in self.props:
            h, w = prop.image.shape[:2]
            to_frame = self._to_frame_of(prop.centre, prop.angle, prop.size, w, h)
            for card, (u0, v0, u1, v1) in prop.pictured:
                pts = np.array(
                    [[[u0 * w, v0 * h]], [[u1 * w, v0 * h]], [[u1 * w, v1 * h]], [[u0 * w, v1 * h]]]
                )
                seen_at = np.asarray(cv2.perspectiveTransform(pts, to_frame)).reshape(-1, 2)
                centre = seen_at.mean(axis=0)
                point = (float(centre[0]), float(centre[1]))
                if any(
                    cv2.pointPolygonTest(q.astype(np.float32), point, False) >= 0 for q in quads
                ):
                    continue
                seen.append(
                    {"card": str(card), "corners": seen_at.round(1).tolist(), "picture": True}
                )
        return seen

    def _quad(
        self, placed: Placed, w: float, h: float, box: tuple[float, ...] = (0, 0, 1, 1)
    ) -> npt.NDArray[np.float64]:
        """A box of the card (in face fractions) as a quad in frame pixels."""
        u0, v0, u1, v1 = box
        pts = np.array(
            [[[u0 * w, v0 * h]], [[u1 * w, v0 * h]], [[u1 * w, v1 * h]], [[u0 * w, v1 * h]]]
        )
        quad = cv2.perspectiveTransform(pts, self._face_to_frame(placed, w, h))
        return np.asarray(quad, np.float64).reshape(-1, 2)

    def _face_to_frame(self, placed: Placed, w: float, h: float) -> npt.NDArray[np.float64]:
        return self._to_frame_of(placed.centre, placed.angle, (CARD_W, CARD_H), w, h)

    def _to_frame_of(
        self,
        centre: tuple[float, float],
        angle: float,
        size: tuple[float, float],
        w: float,
        h: float,
    ) -> npt.NDArray[np.float64]:
        """An image ``w`` x ``h`` lying at ``centre`` (mat pixels), ``size`` big, as seen."""
        a = math.radians(angle)
        cx, cy = centre
        sx, sy = size[0] / w, size[1] / h
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        lin = rot @ np.diag([sx, sy])
        offset = np.array([cx, cy]) - lin @ np.array([w / 2, h / 2])
        to_mat = np.array([[*lin[0], offset[0]], [*lin[1], offset[1]], [0, 0, 1]])
        return np.asarray(self.camera @ to_mat)

    def _draw_card(self, frame: Image, placed: Placed) -> None:
        face = self.faces(placed.card)
        h, w = face.shape[:2]
        self._paste(frame, face, self._face_to_frame(placed, w, h))

    def _paste(self, frame: Image, face: Image, to_frame: npt.NDArray[np.float64]) -> None:
        h, w = face.shape[:2]
        corners = cv2.perspectiveTransform(
            np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float64), to_frame
        ).reshape(-1, 2)
        x0, y0 = np.floor(corners.min(axis=0)).astype(int)
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, FRAME_W), min(y1, FRAME_H)
        if x1 <= x0 or y1 <= y0:
            return
        shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        warped = cv2.warpPerspective(face, shift @ to_frame, (x1 - x0, y1 - y0))
        alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
        roi = frame[y0:y1, x0:x1].astype(np.float32)
        frame[y0:y1, x0:x1] = (warped[:, :, :3] * alpha + roi * (1 - alpha)).astype(np.uint8)

    def _draw_hand(self, frame: Image, at: tuple[float, float]) -> None:
        """A hand and forearm reaching in from the nearest frame edge, with its shadow."""
        x, y = self._to_frame(at)
        edge = (x, FRAME_H + 80) if y > FRAME_H / 2 else (x, -80)
        skin = tuple(int(v) for v in self.rng.integers([70, 110, 160], [120, 160, 220]))
        shadow = frame.copy()
        cv2.line(
            shadow, (int(x + 25), int(y + 25)), (int(edge[0] + 25), int(edge[1])), (0, 0, 0), 90
        )
        cv2.addWeighted(shadow, 0.35, frame, 0.65, 0, dst=frame)
        cv2.line(frame, (int(x), int(y)), (int(edge[0]), int(edge[1])), skin, 80)
        cv2.ellipse(frame, (int(x), int(y)), (70, 55), self.rng.uniform(0, 180), 0, 360, skin, -1)

    # -- the table's moves -------------------------------------------------------------

    def lay(self, placed: Placed, *, again: bool = False) -> None:
        """A hand brings the card in, slides it crooked, lets go; then still frames."""
        self.shoot(hand=placed.centre)
        crooked = Placed(
            placed.card, (placed.centre[0] + 40, placed.centre[1] - 30), placed.angle + 25
        )
        self.on_mat.append(crooked)
        self.shoot(hand=(placed.centre[0] + 60, placed.centre[1] - 60))
        self.on_mat[-1] = placed
        self.settled.append(
            {
                "card": str(placed.card),
                "frame": self.frame + 1,
                "again": again,
                "centre": [round(placed.centre[0], 1), round(placed.centre[1], 1)],
            }
        )
        for i in range(self.stable + 1):
            self.shoot(glare=i == 1 and self.rng.random() < 0.3)

    def lift(self, card: Card) -> None:
        spot = next(p for p in self.on_mat if p.card == card)
        self.shoot(hand=spot.centre)
        self.on_mat.remove(spot)
        for _ in range(self.stable + 1):
            self.shoot()

    def clear(self) -> None:
        """Players gather every card from the mat."""
        if self.on_mat:
            self.shoot(hand=self.on_mat[0].centre)
        self.on_mat.clear()
        for _ in range(self.stable + 1):
            self.shoot()

    def press(self, button: str, player: int | None = None) -> None:
        line: dict[str, object] = {"frame": max(self.frame, 0), "button": button}
        if player is not None:
            line["player"] = player
        self.presses.append(line)


def _pack(mat: Mat, rng: np.random.Generator) -> Prop:
    image, pictured = pictured_back()
    x0, y0, x1, y1 = mat.zone("crib").box
    centre = ((x0 + x1) / 2 + rng.uniform(-5, 5) * PX_PER_MM, (y0 + y1) / 2)
    return Prop(image, pictured, centre, float(rng.uniform(-10, 10)), (CARD_W, CARD_H))


BOX_SPOTS = {2: (50.0, 150.0), 3: (157.0, 148.0)}
"""Where the deck's box lies (mm), clear of every zone; a four-player mat has no such room."""


def _box(mat: Mat) -> Prop | None:
    spot = BOX_SPOTS.get(len([z for z in mat.zones if z.player is not None]))
    if spot is None:
        return None
    image, pictured = card_box()
    centre = (spot[0] * PX_PER_MM, spot[1] * PX_PER_MM)
    return Prop(image, pictured, centre, 8.0, (67 * PX_PER_MM, 94 * PX_PER_MM))


def row_spot(mat: Mat, player: int, index: int, rng: np.random.Generator) -> Placed:
    """Where a player's ``index``-th card of the deal lies: along their zone, facing them."""
    x0, y0, x1, y1 = mat.zone(f"player {player}").box
    seat = mat.seat(player)
    along = 10 * PX_PER_MM + CARD_W / 2 + index * ROW_STEP
    jitter = rng.uniform(-2, 2, size=2) * PX_PER_MM
    angle = float(rng.uniform(-5, 5))
    if seat == 0:
        centre = (x0 + along, (y0 + y1) / 2)
    elif seat == 2:
        centre, angle = (x1 - along, (y0 + y1) / 2), angle + 180
    elif seat == 1:
        centre, angle = ((x0 + x1) / 2, y0 + along), angle + 90
    else:
        centre, angle = ((x0 + x1) / 2, y1 - along), angle - 90
    return Placed(Card(1, "C"), (centre[0] + jitter[0], centre[1] + jitter[1]), angle)


def spot_in(mat: Mat, zone: str, index: int, rng: np.random.Generator) -> Placed:
    """The starter (index 0) or the i-th crib card, spread so each index shows."""
    x0, y0, x1, y1 = mat.zone(zone).box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if zone == "crib":
        cx += (index - 1.5) * 9 * PX_PER_MM
        cy += (index - 1.5) * 3 * PX_PER_MM
    return Placed(Card(1, "C"), (cx, cy), float(rng.uniform(-8, 8)))


def film(
    options: GameOptions,
    script: Sequence[Action | OpenHand],
    faces: Faces,
    out: Path,
    *,
    seed: int = 0,
    stable: int = 3,
    lift_and_return: float = 0.1,
    zoom: float = 1.0,
    props: bool = False,
) -> Path:
    """Write frames/ and buttons.jsonl for a scripted game; returns the frames folder.

    ``zoom`` scales the mat in the frame: 0.85 makes cards 125-135 px wide, as an A3 mat does
    when it fills a 16:9 frame. ``props``: the pack lies face down on the crib spot through
    each deal's play (its back printed with four aces), picked up before the crib is laid,
    and the deck's box (an ace on its top) lies beside the play where the mat has room."""
    rng = np.random.default_rng(seed)
    mat = Mat(options.players)
    f = Film(mat, faces, out / "frames", rng, stable, zoom)
    pack = _pack(mat, rng) if props else None
    if props:
        f.props += [p for p in (_box(mat), pack) if p is not None]
    game = Game(options)
    laid_in_row = [0] * options.players
    for i, action in enumerate(script):
        nxt = script[i + 1] if i + 1 < len(script) else None
        if isinstance(action, OpenHand):
            for k, card in enumerate(action.cards):
                spot = row_spot(mat, action.player, k, rng)
                f.lay(Placed(card, spot.centre, spot.angle))
            for k, card in enumerate(action.discard):
                f.on_mat = [p for p in f.on_mat if p.card != card]  # picked up from the row
                spot = spot_in(mat, "crib", k, rng)
                f.lay(Placed(card, spot.centre, spot.angle))
            f.shoot()
            f.clear()
            continue
        if isinstance(action, Play):
            spot = row_spot(mat, action.player, laid_in_row[action.player], rng)
            laid_in_row[action.player] += 1
            f.lay(Placed(action.card, spot.centre, spot.angle))
            if rng.random() < lift_and_return:  # picked up to look at, put back
                f.lift(action.card)
                f.lay(Placed(action.card, spot.centre, spot.angle), again=True)
        elif isinstance(action, Cut):
            spot = spot_in(mat, "starter", 0, rng)
            f.lay(Placed(action.card, spot.centre, spot.angle))
        elif isinstance(action, CutForDeal):
            for player, card in enumerate(action.cards):
                spot = row_spot(mat, player, 0, rng)
                f.lay(Placed(card, spot.centre, spot.angle))
            f.clear()
        elif isinstance(action, Crib):
            if pack is not None and any(p is pack for p in f.props):  # picked up first
                f.shoot(hand=pack.centre)
                f.props = [p for p in f.props if p is not pack]
                for _ in range(stable + 1):
                    f.shoot()
            for k, card in enumerate(action.cards):
                spot = spot_in(mat, "crib", k, rng)
                f.lay(Placed(card, spot.centre, spot.angle))
        elif isinstance(action, Go):
            f.press("go", action.player)
        elif isinstance(action, ChooseDealer):
            f.press("confirm", action.player)
        elif isinstance(action, Claim):
            for _ in range(action.points):
                f.press("go")
            f.press("confirm")
        elif isinstance(action, Muggins):
            f.press("go", action.player)
        elif isinstance(action, Undo):
            last = game.records[-1].action
            f.press("undo")
            f.shoot()
            if isinstance(last, Play):
                laid_in_row[last.player] -= 1
                f.lift(last.card)
        elif not isinstance(action, Show):
            raise ValueError(f"cannot film {action}")
        before = game.phase
        game.apply(action)
        missed_open = game.missed is not None and not isinstance(nxt, Muggins)
        if missed_open:
            f.press("confirm")  # nobody takes the muggins
        deal_over = before in ("show", "claim") and game.phase == "deal"
        if deal_over and isinstance(nxt, Muggins):
            continue  # the crib's muggins first, then the mat is cleared
        if deal_over or (isinstance(action, Muggins) and game.phase == "deal"):
            f.shoot()
            f.clear()
            f.press("confirm")
            laid_in_row = [0] * options.players
            if pack is not None:  # the next deal's pack, back on the crib spot
                f.props.append(pack)
        if game.phase == "over":
            for _ in range(stable):
                f.shoot()
            break
    f.shoot()
    with (out / "buttons.jsonl").open("w", encoding="utf-8") as handle:
        for line in f.presses:
            handle.write(json.dumps(line) + "\n")
    with (out / "truth.jsonl").open("w", encoding="utf-8") as handle:
        for seen in f.truth:
            handle.write(json.dumps(seen) + "\n")
    with (out / "settled.jsonl").open("w", encoding="utf-8") as handle:
        for line in f.settled:
            handle.write(json.dumps(line) + "\n")
    return out / "frames"


def _near_segment(p: npt.NDArray[Any], a: npt.NDArray[Any], b: npt.NDArray[Any], r: float) -> bool:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / max(float(np.dot(ab, ab)), 1e-9), 0, 1))
    return float(np.linalg.norm(p - (a + t * ab))) < r


@dataclass(frozen=True)
class _TruthRead:
    card: Card
    corners: tuple[tuple[float, float], ...]
    confidence: float = 1.0


@dataclass(frozen=True)
class _TruthReading:
    cards: tuple[_TruthRead, ...]
    uncertain: tuple[Any, ...] = ()


def read_settled(out: Path) -> list[dict[str, Any]]:
    """A film's ``settled.jsonl``: each card laid, the frame it came to rest, and whether it
    was put back after a lift."""
    lines = (out / "settled.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


class TruthReader:
    """A perfect recognizer for a filmed sequence: reads ``truth.jsonl`` frame by frame.

    It tells the session's logic apart from recognition: a session fed this must give the
    script's record exactly.
    """

    every_frame = True  # its reads are the film's, frame by frame: never skipped

    def __init__(self, path: Path, start: int = 0) -> None:
        self.frames = [json.loads(line) for line in path.read_text().splitlines()]
        self.next = start

    def read(self, bgr: Image) -> _TruthReading:
        seen = self.frames[self.next] if self.next < len(self.frames) else []
        self.next += 1
        reads: dict[str, _TruthRead] = {}
        for item in seen:
            card = Card.parse(item["card"])
            corners = tuple((float(x), float(y)) for x, y in item["corners"])
            reads.setdefault(str(card), _TruthRead(card, corners))
        return _TruthReading(tuple(reads.values()))
