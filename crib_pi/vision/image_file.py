"""Reading an image file with bounded memory, whatever the file says about itself.

A photo's header states its size before anything is decoded; OpenCV trusts it up to a
gigapixel (3 GB decoded, more in the recognizer), and a Pi has 2 to 8 GB. So the size is read
from the header first: a JPEG too big to work on is decoded already shrunk (libjpeg scales by
2, 4 or 8 while decoding), any other image larger than ``MAX_DECODE_PIXELS`` is refused, and
what is decoded is shrunk to at most ``MAX_WORK_PIXELS`` (a 12-megapixel phone photo) before
recognition. Every refusal is an ``ImageReadError`` naming the file.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from crib_pi.i18n import N_, _
from crib_pi.vision.errors import ImageReadError

MAX_WORK_PIXELS = 12_000_000  # what the recognizer works on: ~0.35 GB at its peak
MAX_DECODE_PIXELS = 40_000_000  # a PNG, BMP or WebP decoded whole: 120 MB
MAX_FILE_BYTES = 200_000_000
FORMATS = N_("PNG, JPEG, BMP or WebP")
_REDUCED = {
    2: cv2.IMREAD_REDUCED_COLOR_2,
    4: cv2.IMREAD_REDUCED_COLOR_4,
    8: cv2.IMREAD_REDUCED_COLOR_8,
}


def image_size(head: bytes) -> tuple[str, int, int] | None:
    """(format, width, height) from the first bytes of a file, or None when not one we read.

    >>> image_size(b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x00\\x00\\rIHDR" + (640).to_bytes(4, "big")
    ...            + (480).to_bytes(4, "big"))
    ('PNG', 640, 480)
    """
    if head.startswith(b"\x89PNG\r\n\x1a\n") and head[12:16] == b"IHDR" and len(head) >= 24:
        width, height = struct.unpack(">II", head[16:24])
        return "PNG", width, height
    if head.startswith(b"BM") and len(head) >= 26:
        width, height = struct.unpack("<ii", head[18:26])
        return "BMP", abs(width), abs(height)
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP" and len(head) >= 30:
        return _webp_size(head)
    if head.startswith(b"\xff\xd8"):
        return _jpeg_size(head)
    return None


def _webp_size(head: bytes) -> tuple[str, int, int] | None:
    kind = head[12:16]
    if kind == b"VP8 " and head[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", head[26:30])
        return "WebP", width & 0x3FFF, height & 0x3FFF
    if kind == b"VP8L" and head[20:21] == b"\x2f":
        bits = int.from_bytes(head[21:25], "little")
        return "WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        width = int.from_bytes(head[24:27], "little") + 1
        height = int.from_bytes(head[27:30], "little") + 1
        return "WebP", width, height
    return None


def _jpeg_size(data: bytes) -> tuple[str, int, int] | None:
    """The frame size from the first SOFn marker (EXIF thumbnails come later or are skipped)."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        length = int.from_bytes(data[i + 2 : i + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return "JPEG", width, height
        i += 2 + length
    return None


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR, at most ``MAX_WORK_PIXELS``, or raise ``ImageReadError``."""
    p = Path(path)
    if not p.is_file():
        missing = (
            _("no such image: {path} (a folder)") if p.is_dir() else _("no such image: {path}")
        )
        raise ImageReadError(missing.format(path=p))
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageReadError(
                _("{path}: {size} MB is too big for an image here (at most {limit} MB)").format(
                    path=p, size=f"{size / 1e6:.0f}", limit=f"{MAX_FILE_BYTES / 1e6:.0f}"
                )
            )
        with p.open("rb") as fh:
            head = fh.read(1 << 20)  # a JPEG's EXIF and colour profile come before its size
    except OSError as exc:
        raise ImageReadError(
            _("cannot read image {path}: {reason}").format(path=p, reason=exc.strerror or exc)
        ) from None
    if not head:
        raise ImageReadError(_("cannot decode image: {path} is empty").format(path=p))
    found = image_size(head)
    if found is None:
        raise ImageReadError(
            _("cannot decode image: {path} is not a {formats} image").format(
                path=p, formats=_(FORMATS)
            )
        )
    fmt, width, height = found
    pixels = width * height
    if pixels == 0:
        raise ImageReadError(
            _("cannot decode image: {path} says it is {width} x {height} pixels").format(
                path=p, width=width, height=height
            )
        )
    flag = cv2.IMREAD_COLOR
    if pixels > MAX_WORK_PIXELS and fmt == "JPEG":
        scale = next((s for s in (2, 4, 8) if pixels / (s * s) <= MAX_WORK_PIXELS), 0)
        if not scale:
            raise _too_big(p, fmt, width, height)
        flag = _REDUCED[scale]
    elif pixels > MAX_DECODE_PIXELS:
        raise _too_big(p, fmt, width, height)
    try:
        img = cv2.imread(str(p), flag)
    except cv2.error as exc:
        raise ImageReadError(
            _("cannot decode image: {path} ({reason})").format(path=p, reason=_first_line(exc))
        ) from None
    if img is None or img.size == 0:
        raise ImageReadError(_("cannot decode image: {path}").format(path=p))
    h, w = img.shape[:2]
    if h * w > MAX_WORK_PIXELS:
        f = (MAX_WORK_PIXELS / (h * w)) ** 0.5
        img = cv2.resize(
            img, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA
        )
    return img


def _too_big(p: Path, fmt: str, width: int, height: int) -> ImageReadError:
    limit = MAX_DECODE_PIXELS if fmt != "JPEG" else MAX_WORK_PIXELS * 64
    return ImageReadError(
        _(
            "{path}: a {width} x {height} {format} is too big to read here (at most {limit}"
            " megapixels); shrink it first"
        ).format(path=p, width=width, height=height, format=fmt, limit=f"{limit / 1e6:.0f}")
    )


def _first_line(exc: Exception) -> str:
    lines = [line for line in str(exc).splitlines() if line.strip()]
    return lines[-1].strip()[:160] if lines else type(exc).__name__
