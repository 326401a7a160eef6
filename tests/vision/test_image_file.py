"""Images read with bounded memory: sizes from headers, big JPEGs decoded shrunk, huge others
refused, busy images capped in the front end, and the peak of a whole ``recognize`` bounded."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from crib_pi.vision.candidates import MAX_GLYPHS, _largest  # noqa: E402
from crib_pi.vision.errors import ImageReadError  # noqa: E402
from crib_pi.vision.glyphs import Glyphs  # noqa: E402
from crib_pi.vision.image_file import MAX_WORK_PIXELS, image_size, load_image  # noqa: E402
from tests.test_bad_input import png  # noqa: E402


@pytest.mark.parametrize("ext", [".png", ".jpg", ".bmp", ".webp"])
def test_the_size_is_read_from_the_header(tmp_path: Path, ext: str) -> None:
    path = tmp_path / f"i{ext}"
    assert cv2.imwrite(str(path), np.full((37, 53, 3), 128, np.uint8))
    found = image_size(path.read_bytes()[: 1 << 20])
    assert found is not None and found[1:] == (53, 37)


def test_a_big_jpeg_is_decoded_shrunk_and_a_huge_png_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.jpg"
    image = np.full((6000, 8000, 3), 200, np.uint8)
    cv2.rectangle(image, (1000, 1000), (3000, 4000), (0, 0, 255), -1)
    cv2.imwrite(str(big), image)
    read = load_image(big)
    assert read.shape[0] * read.shape[1] <= MAX_WORK_PIXELS and read.shape[1] == 4000
    huge = tmp_path / "huge.png"
    huge.write_bytes(png(40000, 40000, rows=1))
    with pytest.raises(ImageReadError, match="40000 x 40000"):
        load_image(huge)
    wide = tmp_path / "wide.png"  # under the decode limit, over the working one: shrunk
    cv2.imwrite(str(wide), np.zeros((3000, 6000, 3), np.uint8))
    assert load_image(wide).size <= MAX_WORK_PIXELS * 3


def test_only_the_largest_blobs_are_kept_past_the_cap() -> None:
    rng = np.random.default_rng(1)

    def level(n: int, scale: float) -> Glyphs:
        sizes = rng.uniform(1, 50, n).astype(np.float32)
        return Glyphs(rng.uniform(0, 999, (n, 2)).astype(np.float32), sizes, sizes, scale)

    small = [level(100, 1.0), level(50, 2.0)]
    assert _largest(small, MAX_GLYPHS) is small
    parts = [level(MAX_GLYPHS, 1.0), level(MAX_GLYPHS // 2, 2.0)]
    kept = _largest(parts, MAX_GLYPHS)
    sizes = np.concatenate([g.sizes for g in kept])
    assert sizes.size == MAX_GLYPHS
    dropped = np.setdiff1d(np.concatenate([g.sizes for g in parts]), sizes)
    assert dropped.max() <= sizes.min()


def _peak_mb(argv: list[str]) -> tuple[float, int]:
    """Peak resident memory of a command (VmHWM, polled: the process's own high-water mark)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0.0
    status = Path(f"/proc/{proc.pid}/status")
    while proc.poll() is None:
        try:
            for line in status.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024)
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    return peak, proc.returncode


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_recognizing_a_hostile_image_stays_under_half_a_gigabyte(tmp_path: Path) -> None:
    """A 16000 x 9000 JPEG: 432 MB decoded whole, several GB inside the recognizer."""
    path = tmp_path / "huge.jpg"
    rng = np.random.default_rng(2)
    image = np.repeat(rng.integers(0, 256, (900, 16000, 3), dtype=np.uint8), 10, axis=0)
    cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 70])
    del image
    peak, status = _peak_mb([sys.executable, "-m", "crib_pi", "recognize", str(path)])
    assert status == 0
    assert 0 < peak < 500, f"peak {peak:.0f} MB"
