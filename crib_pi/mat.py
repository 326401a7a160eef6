"""The printed play mat: where each player's played cards, the starter and the crib go.

The mat is A3 landscape (420 x 297 mm) drawn at ``PX_PER_MM`` mat pixels a millimetre. Four
ArUco markers (``DICT_4X4_50``, ids 0-3) sit in its corners, so the camera can map any frame
to mat coordinates whatever its height and tilt. Seats go round clockwise seen from above:
player 0 at the bottom edge, player 1 on the left (player 0's left: play passes to the left),
player 2 at the top, player 3 on the right.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from crib_pi.i18n import N_, _
from crib_pi.players import player_name

WIDTH_MM, HEIGHT_MM = 420, 297
PX_PER_MM = 4
WIDTH, HEIGHT = WIDTH_MM * PX_PER_MM, HEIGHT_MM * PX_PER_MM
MARKER_MM, MARKER_INSET_MM = 36, 8
ARUCO_DICT = cv2.aruco.DICT_4X4_50

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mat pixels
#: What the centre zones are called on the printed mat, in the table's language; the zones'
#: own names stay the English keys the recognition and the JSON use.
_LABELS = {"starter": N_("starter"), "crib": N_("crib")}


@dataclass(frozen=True, slots=True)
class Zone:
    """A named rectangle of the mat: ``player 0`` .. ``player 3``, ``starter``, ``crib``."""

    name: str
    box: Box
    player: int | None = None

    @property
    def label(self) -> str:
        """What the printed mat says in the zone, in the table's language: ``PLAYER 1`` for
        ``player 0`` (people count players from 1, ``crib_pi.players``), ``STARTER``, ``CRIB``
        (``JOUEUR 1``, ``RETOURNE``, ``CRÈCHE`` in French)."""
        name = _(_LABELS[self.name]) if self.player is None else player_name(self.player)
        return name.upper()

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.box
        return x0 <= x <= x1 and y0 <= y <= y1

    @property
    def outline(self) -> list[list[float]]:
        x0, y0, x1, y1 = self.box
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def _mm(*values: float) -> Box:
    x0, y0, x1, y1 = (v * PX_PER_MM for v in values)
    return (x0, y0, x1, y1)


# Player zones hold a row of overlapping cards (63 x 88 mm each), long side along the edge.
_SEATS: dict[int, Box] = {
    0: _mm(100, 197, 320, 292),  # bottom
    1: _mm(5, 58, 100, 239),  # left
    2: _mm(100, 5, 320, 100),  # top
    3: _mm(320, 58, 415, 239),  # right
}
_CENTRE = {
    2: {"starter": _mm(110, 104, 200, 193), "crib": _mm(220, 104, 310, 193)},
    3: {"starter": _mm(215, 104, 300, 193), "crib": _mm(320, 104, 415, 193)},
    4: {"starter": _mm(110, 104, 200, 193), "crib": _mm(220, 104, 310, 193)},
}
_PLAYERS_SEATS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


@dataclass(frozen=True, slots=True)
class Mat:
    """The layout for a number of players: zones and marker corners in mat pixels."""

    players: int

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(
                _("a mat is for 2, 3 or 4 players, not {players}").format(players=self.players)
            )

    @property
    def zones(self) -> tuple[Zone, ...]:
        seats = _PLAYERS_SEATS[self.players]
        zones = [Zone(f"player {p}", _SEATS[seat], p) for p, seat in enumerate(seats)]
        zones += [Zone(name, box) for name, box in _CENTRE[self.players].items()]
        return tuple(zones)

    def seat(self, player: int) -> int:
        """Where a player sits: 0 bottom, 1 left, 2 top, 3 right."""
        return _PLAYERS_SEATS[self.players][player]

    def zone(self, name: str) -> Zone:
        return next(z for z in self.zones if z.name == name)

    def zone_at(self, x: float, y: float, margin_mm: float = 15) -> Zone | None:
        """The zone at a point, or the nearest one within ``margin_mm``: a card's index
        corner can stick out of its zone when the card is laid near the edge."""
        inside = next((z for z in self.zones if z.contains(x, y)), None)
        if inside is not None:
            return inside
        best, best_d = None, margin_mm * PX_PER_MM
        for zone in self.zones:
            x0, y0, x1, y1 = zone.box
            d = float(np.hypot(max(x0 - x, 0, x - x1), max(y0 - y, 0, y - y1)))
            if d <= best_d:
                best, best_d = zone, d
        return best

    @staticmethod
    def markers() -> dict[int, npt.NDArray[np.float32]]:
        """Each marker's four corners (ArUco order: clockwise from top-left), mat pixels."""
        size, inset = MARKER_MM * PX_PER_MM, MARKER_INSET_MM * PX_PER_MM
        origins = {
            0: (inset, inset),
            1: (WIDTH - inset - size, inset),
            2: (WIDTH - inset - size, HEIGHT - inset - size),
            3: (inset, HEIGHT - inset - size),
        }
        return {
            i: np.array([[x, y], [x + size, y], [x + size, y + size], [x, y + size]], np.float32)
            for i, (x, y) in origins.items()
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "size": [WIDTH, HEIGHT],
            "size_mm": [WIDTH_MM, HEIGHT_MM],
            "px_per_mm": PX_PER_MM,
            "aruco_dictionary": "DICT_4X4_50",
            "markers": [
                {"id": i, "corners": corners.tolist()} for i, corners in self.markers().items()
            ],
            "zones": [
                {"name": z.name, "player": z.player, "outline": z.outline} for z in self.zones
            ],
        }

    def render(self) -> npt.NDArray[np.uint8]:
        """The mat as a white BGR image at mat resolution, ready to print at 100%."""
        img = np.full((HEIGHT, WIDTH, 3), 255, np.uint8)
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
        for marker_id, corners in self.markers().items():
            x, y = corners[0].astype(int)
            size = int(corners[1][0] - corners[0][0])
            img[y : y + size, x : x + size] = cv2.cvtColor(
                cv2.aruco.generateImageMarker(dictionary, marker_id, size, borderBits=1),
                cv2.COLOR_GRAY2BGR,
            )
        colours = [(200, 120, 60), (60, 150, 60), (60, 60, 200), (150, 60, 150)]
        for zone in self.zones:
            x0, y0, x1, y1 = (int(v) for v in zone.box)
            colour = colours[zone.player] if zone.player is not None else (120, 120, 120)
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, 6, cv2.LINE_AA)
            cv2.putText(
                img,
                _unaccented(zone.label),  # OpenCV's Hershey fonts draw ASCII only
                (x0 + 16, y0 + 44),
                cv2.FONT_HERSHEY_SIMPLEX,
                1.2,
                colour,
                3,
                cv2.LINE_AA,
            )
        return img


def _unaccented(text: str) -> str:
    """``CRÈCHE`` as ``CRECHE``: capitals without their accents, as French signs often are."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")


#: Mat pixels to PDF points (1/72 inch).
_PT = 72 / 25.4 / PX_PER_MM


def pdf_bytes(mat: Mat) -> bytes:
    """The mat as a one-page A3 PDF drawn in vectors: sharp at any printer's resolution.

    Marker cells are filled squares, zones stroked rectangles, labels Helvetica-Bold (one of
    PDF's standard fonts, so nothing is embedded) in WinAnsiEncoding, so a French ``CRÈCHE``
    keeps its accent. PDF's y axis points up, the mat's down.
    """
    w_pt, h_pt = WIDTH_MM * 72 / 25.4, HEIGHT_MM * 72 / 25.4
    ops = ["0 0 0 rg"]
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    for marker_id, corners in mat.markers().items():
        cells = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
        x, y = (float(v) for v in corners[0])
        cell = float(corners[1][0] - corners[0][0]) / 6
        for row in range(6):  # each run of black cells in a row is one box, a hair taller
            black = np.append(cells[row] < 128, False)
            col = 0
            while col < 6:
                if not black[col]:
                    col += 1
                    continue
                end = col + int(np.argmin(black[col:]))
                top = y + row * cell - 0.05
                ops.append(_rect(x + col * cell, top, (end - col) * cell, cell + 0.1) + " f")
                col = end
    colours = [(200, 120, 60), (60, 150, 60), (60, 60, 200), (150, 60, 150)]
    ops.append(f"{6 * _PT:.3f} w 1 j")
    for zone in mat.zones:
        x0, y0, x1, y1 = zone.box
        b, g, r = colours[zone.player] if zone.player is not None else (120, 120, 120)
        rgb = f"{r / 255:.3f} {g / 255:.3f} {b / 255:.3f}"
        ops.append(f"{rgb} RG {rgb} rg " + _rect(x0, y0, x1 - x0, y1 - y0) + " S")
        label = zone.label.replace("\\", "").replace("(", "").replace(")", "")
        ops.append(
            f"BT /F1 {26 * _PT * 1.0:.2f} Tf {(x0 + 16) * _PT:.2f} {h_pt - (y0 + 44) * _PT:.2f} "
            f"Td ({label}) Tj ET"
        )
    content = "\n".join(ops).encode("cp1252", "replace")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_pt:.2f} {h_pt:.2f}] "
        "/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


def _rect(left: float, top: float, width: float, height: float) -> str:
    """A PDF ``re`` operator for a box given in mat pixels from the top-left."""
    h_pt = HEIGHT_MM * 72 / 25.4
    return (
        f"{left * _PT:.3f} {h_pt - (top + height) * _PT:.3f} {width * _PT:.3f} "
        f"{height * _PT:.3f} re"
    )
