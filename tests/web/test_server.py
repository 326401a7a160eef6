"""The board's web server over plain HTTP: read-only, one address, a bounded number of
clients, a live feed, and ``[web]`` in the config (off unless asked for)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crib_pi.actions import GameOptions
from crib_pi.config import AppConfig, ConfigError, from_mapping
from crib_pi.game import Game
from crib_pi.records import read_lines
from crib_pi.web.config import WebConfig
from crib_pi.web.server import BoardServer, start_board_server

DATA = Path(__file__).resolve().parents[1] / "data"


def one_deal() -> Game:
    actions = read_lines(DATA.joinpath("one-deal.jsonl").read_text().splitlines())
    game = Game(actions[0][1].options)  # type: ignore[attr-defined]
    for _line, action in actions[1:]:
        game.apply(action)
    return game


def request(
    server: BoardServer, method: str, path: str, body: bytes | None = None
) -> tuple[int, dict[str, str], bytes]:
    host, port = server.address
    connection = http.client.HTTPConnection(host, port, timeout=5)
    try:
        connection.request(method, path, body=body)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read()
    finally:
        connection.close()


def test_web_is_off_by_default_and_starts_nothing() -> None:
    assert AppConfig().web.enabled is False
    assert from_mapping({}).web == WebConfig()
    problems: list[str] = []
    assert start_board_server(WebConfig(), problems) is None and problems == []


def test_the_web_section_is_read_and_each_bad_key_is_named() -> None:
    web = from_mapping(
        {
            "web": {
                "enabled": True,
                "bind": "192.168.1.20",
                "port": 8080,
                "language": "fr",
                "clients": 8,
                "banner": "Table 4",
            }
        }
    ).web
    assert web == WebConfig(True, "192.168.1.20", 8080, "fr", 8, "Table 4")
    assert (
        "http://192.168.1.20:8080/"
        in from_mapping({"web": {"enabled": True, "bind": "192.168.1.20", "port": 8080}}).describe()
    )
    cases = [
        ({"colour": "red"}, "web.colour"),
        ({"enabled": "yes"}, "web.enabled"),
        ({"bind": "the lan"}, "web.bind"),
        ({"port": 70000}, "web.port"),
        ({"port": True}, "web.port"),
        ({"language": "de"}, "web.language"),
        ({"clients": 0}, "web.clients"),
    ]
    for table, named in cases:
        with pytest.raises(ConfigError) as raised:
            from_mapping({"web": table})
        message = str(raised.value)
        assert named in message and "\n" not in message, message
    with pytest.raises(ConfigError, match=r"\[web\] must be a table"):
        from_mapping({"web": 3})


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW"])
def test_nothing_but_get_is_answered(board: BoardServer, method: str) -> None:
    board.publish(one_deal().snapshot())
    before = board.view("en")
    status, headers, body = request(board, method, "/board.json", b'{"scores": [121, 0]}')
    assert status == 405 and headers["Allow"] == "GET"
    if method != "HEAD":
        assert b"read-only" in body
    assert board.view("en") == before  # the board is as it was


@pytest.mark.parametrize(
    "path",
    [
        "/../../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "//etc/passwd",
        "/board.css/../../etc/passwd",
        "/crib_pi/web/server.py",
        "/.git/config",
        "/events/../../../etc/passwd",
    ],
)
def test_no_path_reaches_a_file(board: BoardServer, path: str) -> None:
    status, _headers, body = request(board, "GET", path)
    assert status == 404, (path, status)
    assert b"root:" not in body and b"import" not in body


def test_the_page_its_parts_and_a_bad_language(board: BoardServer) -> None:
    status, headers, body = request(board, "GET", "/?lang=fr")
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert b'<html lang="fr">' in body and "script-src 'self'" in headers["Content-Security-Policy"]
    assert request(board, "GET", "/board.js")[0] == request(board, "GET", "/board.css")[0] == 200
    status, _headers, body = request(board, "GET", "/board.json?lang=de")
    assert status == 400 and body.decode().strip() == "lang=de is not one of en, fr"


def test_the_json_follows_the_table_in_its_language(board: BoardServer) -> None:
    status, _headers, body = request(board, "GET", "/board.json")
    assert status == 200 and json.loads(body)["waiting"] is True
    game = one_deal()
    board.publish(game.snapshot())
    board.set_banner("Table 4: Alice v Bob")
    english = json.loads(request(board, "GET", "/board.json")[2])
    french = json.loads(request(board, "GET", "/board.json?lang=fr")[2])
    assert [s["front"] for s in english["sides"]] == list(game.scores)
    assert english["banner"] == french["banner"] == "Table 4: Alice v Bob"
    assert english["words"]["last"] == "LAST SCORE" and french["words"]["last"] == "DERNIERS POINTS"
    assert [e["said"] for e in french["events"]] == ["quinze", "quinze"]


def _open_feed(server: BoardServer) -> socket.socket:
    host, port = server.address
    sock = socket.create_connection((host, port), timeout=5)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: table\r\n\r\n")
    return sock


def _read_until(sock: socket.socket, marker: bytes, timeout: float = 3.0) -> bytes:
    sock.settimeout(timeout)
    seen = b""
    end = time.monotonic() + timeout
    while marker not in seen and time.monotonic() < end:
        chunk = sock.recv(65536)
        if not chunk:
            break
        seen += chunk
    return seen


def test_the_feed_sends_each_snapshot_at_once(board: BoardServer) -> None:
    feed = _open_feed(board)
    try:
        assert b"200 OK" in _read_until(feed, b'"waiting": true')
        game = one_deal()
        started = time.monotonic()
        board.publish(game.snapshot())
        event = _read_until(feed, b"\n\n")
        took = time.monotonic() - started
        data = json.loads(event.split(b"data: ", 1)[1].split(b"\n", 1)[0])
        assert data["seq"] == 1 and [s["front"] for s in data["sides"]] == list(game.scores)
        assert took < 0.5, took
    finally:
        feed.close()


def test_clients_are_bounded() -> None:
    server = BoardServer(WebConfig(enabled=True, port=0, clients=2)).start()
    feeds: list[socket.socket] = []
    try:
        for _ in range(2):
            feeds.append(_open_feed(server))
            assert b"200 OK" in _read_until(feeds[-1], b"retry")
        third = _open_feed(server)
        assert b"503" in _read_until(third, b"\r\n\r\n")
        third.close()
        feeds.pop().close()
        end = time.monotonic() + 5
        while True:  # the freed slot is taken again
            again = _open_feed(server)
            answer = _read_until(again, b"\r\n\r\n")
            again.close()
            if b"200 OK" in answer or time.monotonic() > end:
                break
            time.sleep(0.05)
        assert b"200 OK" in answer
    finally:
        for feed in feeds:
            feed.close()
        server.close()


def _other_address() -> str | None:
    """A non-loopback address of this machine, if it has one."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks a route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else str(address)


def test_it_listens_on_the_configured_address_only() -> None:
    server = BoardServer(WebConfig(enabled=True, bind="127.0.0.2", port=0)).start()
    try:
        host, port = server.address
        assert host == "127.0.0.2"
        with socket.create_connection(("127.0.0.2", port), timeout=2):
            pass
        for other in ("127.0.0.1", _other_address()):
            if other is None:
                continue
            with pytest.raises(OSError):
                socket.create_connection((other, port), timeout=2).close()
    finally:
        server.close()


def test_an_address_in_use_is_a_start_up_problem_not_a_crash() -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    try:
        port = holder.getsockname()[1]
        problems: list[str] = []
        assert start_board_server(WebConfig(enabled=True, port=port), problems) is None
        where = f"127.0.0.1 port {port}"
        assert problems == [
            f"the board's web page could not start on {where} (Address already in use)"
        ]
    finally:
        holder.close()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_crib_pi_run_serves_its_board_when_web_is_on(tmp_path: Path) -> None:
    """The live loop's snapshots reach the page (the listener seam in ``crib-pi run``)."""
    port = _free_port()
    config = tmp_path / "config.toml"
    config.write_text(
        '[game]\nplayers = 2\n[players]\nnames = ["Alice", "Bob"]\n'
        f'[web]\nenabled = true\nport = {port}\nbanner = "Table 4"\n'
    )
    env = {
        **os.environ,
        "CRIB_PI_CONFIG": str(config),
        "CRIB_PI_DEVICES": "mock",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "crib_pi", "run", "--db", str(tmp_path / "games.sqlite3")],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        view = None
        end = time.monotonic() + 60
        while time.monotonic() < end and proc.poll() is None:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/board.json")
                view = json.loads(connection.getresponse().read())
                connection.close()
                if not view["waiting"]:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        assert view is not None and not view["waiting"], proc.stderr.read() if proc.stderr else ""
        assert [s["name"] for s in view["sides"]] == ["Alice", "Bob"]
        assert view["banner"] == "Table 4"
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=15)
    with pytest.raises(OSError):  # stopped with the game
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_a_four_player_board_names_the_partnership() -> None:
    game = Game(GameOptions(players=4, dealer=0, names=("Ann", "Bob", "Cy", "Di")))
    server = BoardServer(WebConfig(enabled=True, port=0))
    try:
        server.publish(game.snapshot())
        view = json.loads(server.view("en")[1])
        assert len(view["sides"]) == 2
        assert "Ann deals · crib" in view["sides"][0]["notes"]
    finally:
        server.close()
