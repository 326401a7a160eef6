"""The board's web server on a free port of this machine, and a real headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from crib_pi.web.config import WebConfig
from crib_pi.web.server import BoardServer
from tests.web.chromium import Chromium, chromium_or_skip


@pytest.fixture
def board() -> Iterator[BoardServer]:
    server = BoardServer(WebConfig(enabled=True, port=0), "en").start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    chromium = Chromium(chromium_or_skip())
    try:
        yield chromium
    finally:
        chromium.close()


def url(server: BoardServer, path: str = "/") -> str:
    host, port = server.address
    return f"http://{host}:{port}{path}"
