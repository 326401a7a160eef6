"""Cameras: the mock fed frames, and the desktop camera reading a real video through cv2."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crib_pi.devices.cameras.base import MockCamera
from crib_pi.devices.clock import FakeClock
from crib_pi.devices.config import CameraConfig
from crib_pi.devices.errors import DeviceUnavailableError
from crib_pi.devices.report import Reporter


def test_the_mock_camera_gives_what_it_was_fed_in_order() -> None:
    red = np.zeros((4, 6, 3), np.uint8)
    red[..., 0] = 255
    camera = MockCamera([red])
    camera.feed(np.full((4, 6, 3), 7, np.uint8))
    first, second = camera.read(), camera.read()
    assert first is not None and second is not None
    assert first.size == (6, 4) and first.image[0, 0].tolist() == [255, 0, 0]
    assert second.number == 2 and int(second.image[0, 0, 0]) == 7
    assert camera.read() is None
    assert camera.reads == 3
    with pytest.raises(ValueError, match="HxWx3"):
        camera.feed(np.zeros((4, 6), np.uint8))


def write_video(path: Path, frames: int) -> None:
    cv2 = pytest.importorskip("cv2")
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for _ in range(frames):
        image = np.zeros((48, 64, 3), np.uint8)
        image[:, :, 2] = 220  # red, in OpenCV's B, G, R order
        writer.write(image)
    writer.release()


def test_the_desktop_camera_reads_rgb_frames_and_reports_the_end_once(
    tmp_path: Path, clock: FakeClock, reporter: Reporter
) -> None:
    from crib_pi.devices.cameras.cv import CvCamera

    video = tmp_path / "table.avi"
    write_video(video, 3)
    camera = CvCamera(CameraConfig(device=str(video)), clock, reporter)
    frames = [camera.read() for _ in range(3)]
    assert all(f is not None for f in frames)
    first = frames[0]
    assert first is not None
    assert first.size == (64, 48)
    r, g, b = (int(v) for v in first.image[24, 32])
    assert r > 180 and g < 40 and b < 40  # RGB, not BGR
    assert [f.number for f in frames if f] == [1, 2, 3]
    assert camera.read() is None
    assert camera.read() is None
    assert len(reporter.about("camera")) == 1
    camera.close()
    camera.close()


def test_no_camera_at_a_path_is_unavailable(
    tmp_path: Path, clock: FakeClock, reporter: Reporter
) -> None:
    pytest.importorskip("cv2")
    from crib_pi.devices.cameras.cv import CvCamera

    with pytest.raises(DeviceUnavailableError, match="no camera"):
        CvCamera(CameraConfig(device=str(tmp_path / "none.avi")), clock, reporter)


class FlakyCapture:
    """A webcam that answers ``script`` in turn (True: a frame, False: a failed read), and
    records what it was asked; a released one fails until reopened."""

    def __init__(self, script: list[bool], opened: bool = True) -> None:
        self.script = script
        self.opened = opened
        self.reads = 0
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: int) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        self.reads += 1
        ok = bool(self.script.pop(0)) if self.script else True
        return (True, np.zeros((4, 6, 3), np.uint8)) if ok else (False, None)

    def release(self) -> None:
        self.released = True


def test_a_webcam_that_fails_reads_is_retried_reported_and_reconnected(
    clock: FakeClock, reporter: Reporter
) -> None:
    pytest.importorskip("cv2")
    from crib_pi.devices.cameras.cv import FAILS_BEFORE_RECONNECT, RECONNECT_EVERY, CvCamera

    first = FlakyCapture([True, False, True] + [False] * FAILS_BEFORE_RECONNECT)
    unplugged = FlakyCapture([], opened=False)
    back = FlakyCapture([True, True])
    captures = [first, unplugged, back]
    camera = CvCamera(CameraConfig(device="0"), clock, reporter, opener=lambda: captures.pop(0))
    assert camera.read() is not None
    assert camera.read() is None  # one failed read: retried on the next, not given up
    assert camera.read() is not None and reporter.about("camera") == ()
    assert [camera.read() for _ in range(FAILS_BEFORE_RECONNECT)] == [None] * 3
    assert first.released
    assert "reconnecting" in reporter.about("camera")[0].message
    clock.advance(RECONNECT_EVERY)
    assert camera.read() is None and unplugged.released  # still unplugged: tried again later
    assert camera.read() is None  # not hammered: the next try waits RECONNECT_EVERY
    clock.advance(RECONNECT_EVERY)
    frame = camera.read()
    assert frame is not None and frame.number == 3 and camera.reconnects == 1
    assert "again" in reporter.about("camera")[-1].message
    camera.close()
    assert back.released and camera.read() is None


def test_no_webcam_device_is_said_plainly(clock: FakeClock, reporter: Reporter) -> None:
    pytest.importorskip("cv2")
    from crib_pi.devices.cameras.cv import CvCamera

    with pytest.raises(DeviceUnavailableError, match="/dev/video987"):
        CvCamera(CameraConfig(device="987"), clock, reporter)
