"""The table's board served read-only on the LAN: a page, its snapshot as JSON, and a live feed.

``BoardServer.publish`` is the listener the assistant calls with each ``BoardSnapshot`` (the
one the screen draws); every open page gets it within milliseconds by server-sent events
(``/events``), the browser's own reconnecting feed, over the standard library's HTTP server.

Read-only by construction: the only routes are fixed GETs, nothing is read from disk, and any
other method is answered 405. It listens on the one address ``[web] bind`` names, holds at most
``[web] clients`` connections (more are answered 503), and gives up on a silent client.
"""

from __future__ import annotations

import contextlib
import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from crib_pi.i18n import LANGUAGES, _, current_language, in_language
from crib_pi.snapshot import BoardSnapshot
from crib_pi.web import page
from crib_pi.web.config import WebConfig
from crib_pi.web.view import board_view, words

log = logging.getLogger("crib_pi.web")
KEEPALIVE_S = 15.0  # a comment line this often keeps proxies and phones from closing the feed
CHECK_S = 0.5  # how often a quiet feed looks whether its page has gone
TIMEOUT_S = 10.0  # a client that sends no request, or reads nothing, for this long is dropped


class BoardServer:
    """The latest snapshot, numbered, and the HTTP server that shows it."""

    def __init__(self, config: WebConfig, language: str = "") -> None:
        self.config = config
        self.language = config.language or language or current_language()
        self._changed = threading.Condition()
        self._snapshot: BoardSnapshot | None = None
        self._seq = 0
        self._banner = config.banner
        self._views: dict[str, tuple[int, bytes]] = {}
        self._closed = False
        self._thread: threading.Thread | None = None
        self.httpd = _Server(config, self)

    @property
    def address(self) -> tuple[str, int]:
        """The address and port it listens on (the port the system gave, for port 0)."""
        host, port = self.httpd.server_address[:2]
        return str(host), int(port)

    def publish(self, snapshot: BoardSnapshot) -> None:
        """The board has changed: every open page will show ``snapshot``."""
        with self._changed:
            self._snapshot = snapshot
            self._seq += 1
            self._views.clear()
            self._changed.notify_all()

    def set_banner(self, text: str) -> None:
        """The line above the board ("Table 4: Alice v Bob"); "" for none."""
        with self._changed:
            self._banner = text
            self._seq += 1
            self._views.clear()
            self._changed.notify_all()

    def view(self, language: str) -> tuple[int, bytes]:
        """The current board in ``language`` as JSON, and its number."""
        with self._changed:
            cached = self._views.get(language)
            if cached is not None:
                return cached
            snapshot, seq, banner = self._snapshot, self._seq, self._banner
        with in_language(language):
            data = json.dumps(board_view(snapshot, seq, banner), ensure_ascii=False)
        made = (seq, data.encode("utf-8"))
        with self._changed:
            if self._seq == seq:
                self._views[language] = made
        return made

    def wait(self, seen: int, timeout: float) -> int:
        """Block until the board is newer than ``seen`` (or ``timeout``); the current number."""
        with self._changed:
            self._changed.wait_for(lambda: self._seq != seen or self._closed, timeout)
            return self._seq

    @property
    def closed(self) -> bool:
        return self._closed

    def start(self) -> BoardServer:
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.2}, name="web", daemon=True
        )
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop serving: open feeds end, the address is free again."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=2)
        self.httpd.server_close()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True

    def __init__(self, config: WebConfig, board: BoardServer) -> None:
        self.board = board
        self.slots = threading.BoundedSemaphore(config.clients)
        if ":" in config.bind:
            self.address_family = socket.AF_INET6
        super().__init__((config.bind, config.port), _Handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.slots.acquire(blocking=False):
            with contextlib.suppress(OSError):
                request.sendall(
                    b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 5\r\n"
                    b"Content-Length: 0\r\nConnection: close\r\n\r\n"
                )
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.slots.release()


_HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
}


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    timeout = TIMEOUT_S
    disable_nagle_algorithm = True  # each event leaves at once, not with the next one
    server_version = "crib-pi"
    sys_version = ""

    def __getattr__(self, name: str) -> Callable[[], None]:
        """Every method but GET (POST, PUT, DELETE, HEAD, anything made up) is refused."""
        if name.startswith("do_"):
            return self._refuse
        raise AttributeError(name)

    def _refuse(self) -> None:
        self._send(
            HTTPStatus.METHOD_NOT_ALLOWED,
            "text/plain; charset=utf-8",
            (_("the board is read-only: only GET") + "\n").encode(),
            Allow="GET",
        )

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        board = self.server.board
        language = query.get("lang", [board.language])[-1]
        if language not in LANGUAGES:
            message = _("lang={language} is not one of {known}").format(
                language=language, known=", ".join(LANGUAGES)
            )
            self._send(HTTPStatus.BAD_REQUEST, "text/plain; charset=utf-8", f"{message}\n".encode())
            return
        route = parts.path
        if route in ("/", "/index.html"):
            with in_language(language):
                text = words()
                body = page.page(language, text["title"], text["waiting"])
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", body.encode())
        elif route == "/board.css":
            self._send(HTTPStatus.OK, "text/css; charset=utf-8", page.CSS.encode())
        elif route == "/board.js":
            self._send(HTTPStatus.OK, "text/javascript; charset=utf-8", page.JS.encode())
        elif route == "/board.json":
            self._send(HTTPStatus.OK, "application/json", board.view(language)[1])
        elif route == "/events":
            self._events(language)
        else:
            self._send(
                HTTPStatus.NOT_FOUND,
                "text/plain; charset=utf-8",
                (_("no such page: {path}").format(path=route[:100]) + "\n").encode(),
            )

    def _send(self, status: HTTPStatus, kind: str, body: bytes, **extra: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for key, value in {**_HEADERS, **extra}.items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(body)

    def _events(self, language: str) -> None:
        """The live feed: the board now, then each new one, until the page or the table goes."""
        board = self.server.board
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        for key, value in _HEADERS.items():
            self.send_header(key, value)
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:
            self.wfile.write(b"retry: 1000\n\n")
            quiet_since = time.monotonic()
            while not board.closed and not self._gone():
                latest = board.wait(seen, CHECK_S)
                if board.closed:
                    break
                if latest != seen:
                    seen, data = board.view(language)
                    self.wfile.write(b"id: %d\ndata: %s\n\n" % (seen, data))
                elif time.monotonic() - quiet_since >= KEEPALIVE_S:
                    self.wfile.write(b": still here\n\n")
                else:
                    continue
                self.wfile.flush()
                quiet_since = time.monotonic()
        except OSError:
            pass  # the page was closed, or stopped reading

    def _gone(self) -> bool:
        """The page has closed its end (a feed's client sends nothing after its request), so
        its slot is freed now rather than at the next write."""
        readable, _w, _x = select.select([self.connection], [], [], 0)
        if not readable:
            return False
        try:
            return bool(self.connection.recv(1, socket.MSG_PEEK) == b"")
        except OSError:
            return True

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s %s", self.address_string(), format % args)


def start_board_server(
    config: WebConfig, problems: list[str], language: str = ""
) -> BoardServer | None:
    """The board's web server, started, when ``[web]`` turns it on; None otherwise.

    An address it cannot listen on is a start-up problem (the game goes on without the page)."""
    if not config.enabled:
        return None
    try:
        return BoardServer(config, language).start()
    except OSError as exc:
        problems.append(
            _("the board's web page could not start on {bind} port {port} ({why})").format(
                bind=config.bind, port=config.port, why=exc.strerror or exc
            )
        )
        return None
