"""The committed screenshots are there, at the sizes the docs promise."""

from __future__ import annotations

from pathlib import Path

import pytest

from crib_pi.devices.scenes import SCENES

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("scene", SCENES)
def test_each_screenshot_is_committed_and_linked(scene: str, size: tuple[int, int]) -> None:
    pygame = pytest.importorskip("pygame")
    name = f"{scene}-{size[0]}x{size[1]}.png"
    path = DOCS / "screens" / name
    assert pygame.image.load(str(path)).get_size() == size
    assert f"screens/{name}" in (DOCS / "devices.md").read_text()
