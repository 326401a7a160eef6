"""The play mat: layout, files, and finding it again in a tilted photo of itself."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.mat import HEIGHT, PX_PER_MM, WIDTH, Mat
from crib_pi.session.locate import CARD_WIDTH_MM, READ_WELL_PX, MatLocator, camera_advice


@pytest.mark.parametrize("players", [2, 3, 4])
def test_zones_do_not_overlap_and_miss_the_markers(players: int) -> None:
    mat = Mat(players)
    zones = mat.zones
    assert [z.player for z in zones if z.player is not None] == list(range(players))
    assert {z.name for z in zones} >= {"starter", "crib"}
    boxes = [z.box for z in zones] + [
        (c[:, 0].min(), c[:, 1].min(), c[:, 0].max(), c[:, 1].max()) for c in mat.markers().values()
    ]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] < a[2] <= WIDTH and 0 <= a[1] < a[3] <= HEIGHT
        for b in boxes[i + 1 :]:
            overlap_x = min(a[2], b[2]) - max(a[0], b[0])
            overlap_y = min(a[3], b[3]) - max(a[1], b[1])
            assert overlap_x <= 0 or overlap_y <= 0, (a, b)


def _photo(mat_image: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """The mat seen by a camera, tilted and scaled into a 1280x720 frame of a wooden table."""
    h, w = mat_image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    shift = 60 * np.sin(angle)
    dst = np.float32([[180 + shift, 90], [1100, 60 + shift], [1180, 690], [90, 650 - shift]])
    m = cv2.getPerspectiveTransform(src, dst)
    table = np.full((720, 1280, 3), (60, 100, 150), np.uint8)
    frame = cv2.warpPerspective(
        mat_image, m, (1280, 720), dst=table, borderMode=cv2.BORDER_TRANSPARENT
    )
    return frame, m


@pytest.mark.parametrize("angle", [0.0, 0.7, -1.2])
def test_locator_maps_a_tilted_frame_back_to_the_mat(angle: float) -> None:
    mat = Mat(2)
    frame, m = _photo(mat.render(), angle)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)
    locator = MatLocator(mat)
    assert locator.update(frame) is not None and locator.markers_seen == 4
    centre = np.float32([[[(a + c) / 2, (b + d) / 2]] for a, b, c, d in [mat.zone("crib").box]])
    seen = cv2.perspectiveTransform(centre, m).reshape(-1, 2)
    back = locator.to_mat(seen)[0]
    assert mat.zone_at(*back) == mat.zone("crib")
    assert np.allclose(back, centre.reshape(2), atol=6)  # within 1.5 mm


def test_locator_measures_how_wide_cards_are_in_the_frame() -> None:
    mat = Mat(2)
    frame, m = _photo(mat.render(), 0.4)
    locator = MatLocator(mat)
    assert locator.card_width_px() is None
    locator.update(frame)
    half = CARD_WIDTH_MM * PX_PER_MM / 2
    ends = np.float64([[[WIDTH / 2 - half, HEIGHT / 2]], [[WIDTH / 2 + half, HEIGHT / 2]]])
    a, b = cv2.perspectiveTransform(ends, m).reshape(2, 2)
    width = locator.card_width_px()
    assert width is not None and abs(width - float(np.hypot(*(b - a)))) < 1.5


def test_camera_advice_names_the_smallest_mode_that_makes_cards_big_enough() -> None:
    assert camera_advice(READ_WELL_PX + 1, (1280, 720)) is None
    assert "width = 1920 and height = 1080" in (camera_advice(95, (1280, 720)) or "")
    assert "width = 2304 and height = 1296" in (camera_advice(70, (1280, 720)) or "")
    for small in ((60, (1280, 720)), (100, (2304, 1296))):
        advice = camera_advice(*small)
        assert advice is not None and "lower the camera so" in advice and "width =" not in advice


def test_locator_keeps_the_last_mapping_when_markers_are_covered() -> None:
    mat = Mat(2)
    frame, _ = _photo(mat.render(), 0.3)
    locator = MatLocator(mat)
    first = locator.update(frame)
    covered = frame.copy()
    covered[:] = (60, 100, 150)  # a hand over everything
    assert locator.update(covered) is first and locator.markers_seen == 0
    with pytest.raises(ValueError, match="not been found"):
        MatLocator(mat).to_mat([[1, 2]])


def test_locator_looks_near_the_markers_and_follows_a_moved_camera(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mat = Mat(2)
    frame, m = _photo(mat.render(), 0.3)
    locator = MatLocator(mat)
    searched: list[tuple[int, ...]] = []
    detect = locator._detect

    def spy(image: np.ndarray, at: tuple[int, int]) -> dict[int, np.ndarray]:
        searched.append(image.shape[:2])
        return detect(image, at)

    monkeypatch.setattr(locator, "_detect", spy)
    first = locator.update(frame)
    assert first is not None and searched == [(720, 1280)]
    searched.clear()
    noisy = cv2.add(frame, np.full_like(frame, 2))  # the same view, a shade brighter
    again = locator.update(noisy)
    assert again is not None and locator.markers_seen == 4
    assert np.allclose(again, first, atol=1e-2)  # the same markers, found in boxes
    assert len(searched) == 4 and all(h * w < 1280 * 720 / 10 for h, w in searched)
    # the camera knocked 200 px to the left: no marker is where it was
    moved = np.float32([[1, 0, -200], [0, 1, 0]])
    shifted = cv2.warpAffine(frame, moved, (1280, 720), borderValue=(60, 100, 150))
    searched.clear()
    after = locator.update(shifted)
    assert after is not None and after is not first and (720, 1280) in searched
    crib = np.float32([[mat.zone("crib").box[:2]]])
    seen = cv2.perspectiveTransform(crib, m).reshape(2) - (200, 0)
    assert np.allclose(locator.to_mat([seen])[0], crib.reshape(2), atol=6)


def test_mat_command(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "crib_pi", "mat"]
    layout = json.loads(
        subprocess.run([*run, "--json", "--players", "3"], capture_output=True, text=True).stdout
    )
    assert layout["size"] == [WIDTH, HEIGHT] and len(layout["markers"]) == 4
    assert [z["name"] for z in layout["zones"]] == [
        "player 0",
        "player 1",
        "player 2",
        "starter",
        "crib",
    ]
    pdf, png = tmp_path / "mat.pdf", tmp_path / "mat.png"
    assert subprocess.run([*run, "--out", str(pdf)]).returncode == 0
    assert pdf.read_bytes().startswith(b"%PDF-1.4") and b"/Image" not in pdf.read_bytes()
    assert subprocess.run([*run, "--out", str(png), "--players", "4"]).returncode == 0
    assert cv2.imread(str(png)).shape == (HEIGHT, WIDTH, 3)
    bad = subprocess.run([*run, "--out", str(tmp_path / "mat.txt")], capture_output=True, text=True)
    assert bad.returncode == 2 and "written as .pdf or .png" in bad.stderr


def test_the_pdf_mat_is_vector_and_its_markers_are_found(tmp_path: Path) -> None:
    """The PDF's own drawing, rasterised here from its boxes, gives markers the camera finds
    where the layout says: the print is sharp at any resolution and still right."""
    import re

    from crib_pi.mat import ARUCO_DICT, Mat, pdf_bytes

    mat = Mat(2)
    data = pdf_bytes(mat).decode("latin-1")
    assert "/Subtype /Image" not in data and "/Helvetica-Bold" in data
    assert "(PLAYER 1) Tj" in data and "(CRIB) Tj" in data and "(PLAYER 0)" not in data
    scale = 3  # 12 pixels a millimetre: about 300 dpi
    px_per_pt = scale * 4 * 25.4 / 72
    height = HEIGHT * scale
    image = np.full((height, WIDTH * scale), 255, np.uint8)
    for x, y, w, h in re.findall(r"([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+) re f", data):
        x0, x1 = float(x) * px_per_pt, (float(x) + float(w)) * px_per_pt
        top = height - (float(y) + float(h)) * px_per_pt
        image[round(top) : round(top + float(h) * px_per_pt), round(x0) : round(x1)] = 0
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT))
    corners, ids, _ = detector.detectMarkers(image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    for marker, found in zip(ids.ravel(), corners, strict=True):
        expected = mat.markers()[int(marker)] * scale
        assert np.abs(found.reshape(4, 2) - expected).max() < 2 * scale
