"""The standings page (read-only, live, in French too) and a club talking TLS to its broker."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from crib_pi.cli import main
from crib_pi.club.broker import conf
from crib_pi.club.config import ClubConfig
from crib_pi.club.director import Director
from crib_pi.club.link import Link
from crib_pi.club.messages import Event, topic
from crib_pi.club.store import ClubStore
from crib_pi.club.web import serve, standings_body
from tests.club.conftest import Broker, free_port
from tests.club.test_club_bad_input import game_lines, settle, wait_connected


def test_the_standings_page_is_live_read_only_and_speaks_french(tmp_path: Path) -> None:
    store = ClubStore(tmp_path / "c.sqlite3", "friday", create=True)
    store.add_tables(["1", "2"])
    store.add_players(["Ann", "Bob", "Cid"])
    director = Director(store, "k", lambda *_a: None, say=lambda m: None)
    director.pair_next()
    port = free_port()
    server = serve(director.board, f"127.0.0.1:{port}", "Standings", standings_body)
    try:
        url = f"http://127.0.0.1:{port}/"
        page = urllib.request.urlopen(url, timeout=5).read().decode()
        assert "friday: standings after round 1" in page and "Ann" in page and "Bye: " in page
        french = urllib.request.urlopen(url + "?lang=fr", timeout=5).read().decode()
        assert "classement après le tour 1" in french and "points de partie" in french
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, data=b"x", method="POST"))
        assert refused.value.code == 405
        stream = urllib.request.urlopen(url + "events", timeout=5)
        bodies: list[str] = []

        def listen() -> None:
            try:
                for raw in stream:
                    if raw.startswith(b"data: "):
                        bodies.append(json.loads(raw[6:]))
            except OSError:  # the stream's read times out once the test is over
                return

        threading.Thread(target=listen, daemon=True).start()
        time.sleep(0.3)
        store.add_game(1, "1", 1, (121, 87))
        t0 = time.monotonic()
        director.refresh()
        while not any("121-87" in x for x in bodies) and time.monotonic() - t0 < 5:
            time.sleep(0.01)
        assert any("121-87" in x for x in bodies) and time.monotonic() - t0 < 1.0
        assert store.games(1)[0].scores == (121, 87)  # the POST changed nothing
        other = ClubStore(tmp_path / "c.sqlite3", "friday")  # crib-pi club correct, elsewhere
        other.correct(1, "1", (121, 78), "a hand of 9 pegged as 18")
        other.close()
        t0 = time.monotonic()
        while not any("corrected by the director" in x for x in bodies):
            director.step()  # the running director's loop
            assert time.monotonic() - t0 < 5
            time.sleep(0.05)
        assert "121-87 became 121-78 (a hand of 9 pegged as 18)" in bodies[-1]
    finally:
        server.server_close()


def test_a_club_over_tls(tmp_path: Path, need_broker: None) -> None:
    cert, key = tmp_path / "broker.crt", tmp_path / "broker.key"
    made = subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        capture_output=True,
    )
    if made.returncode != 0:
        pytest.skip("openssl cannot make a test certificate here")
    port, out, file = free_port(), tmp_path / "broker", tmp_path / "club.sqlite3"
    assert (
        main(
            [
                "club",
                "--file",
                str(file),
                "init",
                "friday",
                "--tables",
                "2",
                "--out",
                str(out),
                "--port",
                str(port),
                "--broker",
                "127.0.0.1",
                "--tls-cert",
                str(cert),
                "--tls-key",
                str(key),
            ]
        )
        == 0
    )
    user = "root" if os.geteuid() == 0 else ""
    (out / "mosquitto.conf").write_text(
        conf(out, port, "127.0.0.1", standalone=True, tls=(str(cert), str(key)), user=user)
    )
    broker = Broker(out, "friday", [], port=port)
    broker.start()
    try:
        sections = {
            name: ClubConfig.from_mapping(tomllib.loads((out / name).read_text())["club"])
            for name in ("director.toml", "table-1.toml")
        }
        assert sections["table-1.toml"].tls_ca == str(cert.resolve())
        store = ClubStore(file, "friday")
        store.add_players(["Ann", "Bob"])
        link = Link(sections["director.toml"], "director", [topic("friday", "+", "events")])
        director = Director(store, store.meta("key") or "", link.publish, say=lambda m: None)
        director.pair_next()
        table = Link(sections["table-1.toml"], "t1", [])
        plain = Link(
            ClubConfig(
                club="friday",
                broker="127.0.0.1",
                port=port,
                table="1",
                user="table-1",
                password=sections["table-1.toml"].password,
            ),
            "plain",
            [],
        )
        wait_connected(table, link)
        a, b = store.pairing(1, "1") or ("", "")
        lines = game_lines((a, b), 9)
        table.publish(
            topic("friday", "1", "events"),
            Event("1", 1, 1, 0, tuple(lines), len(lines)).to_bytes("friday"),
        )
        settle(link, director)
        assert store.games(1)[0].scores is not None
        assert not plain.connected  # plain MQTT to the TLS listener gets nowhere
        for x in (table, plain, link):
            x.close()
    finally:
        broker.stop()
