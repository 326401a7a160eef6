"""The board page's screenshots are committed at the sizes the README promises, and shown."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZES = {"phone": (390, 844), "tv": (1920, 1080)}


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("device", sorted(SIZES))
def test_each_screenshot_is_committed_and_shown(device: str, language: str) -> None:
    name = f"web-{device}-{language}.png"
    head = (ROOT / "docs" / "screens" / name).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == SIZES[device]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The board in a browser")[1].split("\n## ")[0]
    assert f"(docs/screens/{name})" in section
