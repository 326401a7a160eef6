"""Benchmark: peak memory of ``crib-pi recognize`` on hostile images (issue 20).

    python benchmarks/bench_hostile_image.py

Each image is read by ``crib-pi recognize`` in a process of its own, and its peak resident
memory (``wait4``'s ru_maxrss) and time are printed, beside an ordinary 1280x720 table frame.
Hostile: a PNG whose header says 40000 x 40000 (4.8 GB decoded), a 16000 x 9000 JPEG of noise
(432 MB decoded, and noise is the recognizer's worst case: every speck is a glyph), and noise
PNGs just under the whole-decode limit. A Pi has 2 to 8 GB.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

IMAGES = {
    "frame.png": "ordinary 1280x720 frame",
    "huge.png": "PNG saying 40000x40000",
    "noise.jpg": "16000x9000 JPEG of noise",
    "noise6k.png": "6000x6000 PNG of noise",
}


def peak(image: Path) -> tuple[float, float, int, str]:
    """(peak MB, seconds, exit status, the last line of stderr) of recognizing ``image``."""
    started = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "recognize", str(image)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    took = time.monotonic() - started
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return usage.ru_maxrss / 1024, took, proc.returncode, last


def make(folder: Path) -> None:
    """Write the images (in a process of its own: a child forked from a parent holding the
    noise would be charged the parent's memory)."""
    import cv2
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.test_bad_input import png  # the same hostile PNG the tests use

    rng = np.random.default_rng(20)
    cv2.imwrite(str(folder / "frame.png"), np.full((720, 1280, 3), 90, np.uint8))
    (folder / "huge.png").write_bytes(png(40000, 40000, rows=1))
    noise = rng.integers(0, 256, (9000, 16000, 3), dtype=np.uint8)
    cv2.imwrite(str(folder / "noise.jpg"), noise, [cv2.IMWRITE_JPEG_QUALITY, 85])
    cv2.imwrite(str(folder / "noise6k.png"), noise[:6000, :6000])


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make":
        make(Path(sys.argv[2]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        subprocess.run([sys.executable, __file__, "--make", tmp], check=True)
        worst = 0.0
        for name, label in IMAGES.items():
            mb, took, status, last = peak(folder / name)
            worst = max(worst, mb)
            said = f"  ({last[:70]}...)" if status else ""
            print(f"{label:28s} peak {mb:6.0f} MB  {took:6.1f} s  status {status}{said}")
        print(
            f"worst peak on these images: {worst:.0f} MB (before the bound: 3.2 GB for a "
            "16000x9000 photo, over 24 GB and killed for 16000x9000 noise)"
        )


if __name__ == "__main__":
    main()
