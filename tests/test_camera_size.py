"""The table tells the players when cards are too small in the camera's frames to read well."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from crib_pi.actions import GameOptions
from crib_pi.app import Assistant
from crib_pi.devices import make_devices
from crib_pi.devices.cameras.base import MockCamera
from crib_pi.mat import Mat
from crib_pi.session.pipeline import NoRecognizer
from crib_pi.session.table import TableSession
from crib_pi.session.tracker import Tracker
from crib_pi.store import GameLog


def _table_frame(mat_share: float) -> np.ndarray:
    """A 1280x720 frame with the mat, upright, ``mat_share`` of the frame's width."""
    mat = Mat(2).render()
    w = int(1280 * mat_share)
    h = int(w * mat.shape[0] / mat.shape[1])
    frame = np.full((720, 1280, 3), (70, 110, 150), np.uint8)
    frame[(720 - h) // 2 : (720 - h) // 2 + h, (1280 - w) // 2 : (1280 - w) // 2 + w] = cv2.resize(
        mat, (w, h), interpolation=cv2.INTER_AREA
    )
    return frame


def _problems_after(frame: np.ndarray) -> list[str]:
    devices = make_devices(backend="mock")
    assert isinstance(devices.camera, MockCamera)
    for _ in range(3):
        devices.camera.feed(frame)
    table = TableSession(GameOptions(), GameLog(None), Tracker())
    assistant = Assistant(devices, table, NoRecognizer())
    runner = threading.Thread(target=assistant.run)
    runner.start()
    end = time.monotonic() + 20
    while devices.camera.given < 3 and time.monotonic() < end:
        time.sleep(0.05)
    time.sleep(0.3)
    assistant.stop.set()
    runner.join(timeout=5)
    devices.close()
    return [p.message for p in devices.reporter.about("camera")]


def test_small_cards_are_reported_once_with_the_camera_mode_that_fixes_them() -> None:
    problems = _problems_after(_table_frame(0.44))  # cards about 84 px wide
    assert len(problems) == 1
    assert "width = 1920 and height = 1080" in problems[0]


def test_cards_big_enough_are_not_reported() -> None:
    assert _problems_after(_table_frame(0.75)) == []  # cards about 144 px wide
