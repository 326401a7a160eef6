"""The MQTT connection both ends use: paho-mqtt, QoS 1, a persistent session under a fixed
client id (the broker keeps what arrives while this end is away), TLS when the club gives a
CA certificate, and reconnection within a second or two of the broker coming back."""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from crib_pi.club.config import ClubConfig
from crib_pi.errors import CribError
from crib_pi.i18n import _


def paho() -> Any:
    try:
        import paho.mqtt.client as mqtt
    except ImportError:
        raise CribError(
            _("the club needs paho-mqtt: pip install 'crib-pi[club]' (or paho-mqtt)")
        ) from None
    return mqtt


class Link:
    """A connected client; messages on ``subscribe`` topics land in ``inbox``."""

    def __init__(self, config: ClubConfig, client_id: str, subscribe: Sequence[str]) -> None:
        mqtt = paho()
        self.inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self.connected = False
        self.connects = 0  # how many times it has (re)connected
        self.refused: list[str] = []
        self.client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2,
            client_id=client_id,
            clean_session=False,
            protocol=mqtt.MQTTv311,
        )
        if config.user:
            self.client.username_pw_set(config.user, config.password)
        if config.tls_ca:
            self.client.tls_set(ca_certs=config.tls_ca)
        self.client.reconnect_delay_set(0.2, 2)
        self.client.max_inflight_messages_set(200)
        self.topics = list(subscribe)

        def on_connect(client: Any, _data: Any, _flags: Any, reason: Any, _p: Any) -> None:
            if reason.is_failure:
                self.refused.append(str(reason))
                return
            self.connected = True
            self.connects += 1
            for name in self.topics:
                client.subscribe(name, qos=1)

        def on_disconnect(_c: Any, _d: Any, _f: Any, _r: Any, _p: Any) -> None:
            self.connected = False

        def on_message(_c: Any, _d: Any, message: Any) -> None:
            self.inbox.put((message.topic, bytes(message.payload)))

        self.client.on_connect = on_connect
        self.client.on_disconnect = on_disconnect
        self.client.on_message = on_message
        self.client.connect_async(config.broker, config.port, keepalive=10)
        self.client.loop_start()

    def publish(self, name: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(name, payload, qos=1, retain=retain)

    def drain(self, timeout: float, limit: int = 5000) -> list[tuple[str, bytes]]:
        """What has arrived, waiting up to ``timeout`` for the first message."""
        out: list[tuple[str, bytes]] = []
        try:
            out.append(self.inbox.get(timeout=timeout))
            while len(out) < limit:
                out.append(self.inbox.get_nowait())
        except queue.Empty:
            pass
        return out

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Waiting:
    """Says once, after a few seconds, that the broker cannot be reached (the link keeps trying
    and nothing is lost meanwhile), and again if it is lost later."""

    def __init__(
        self, config: ClubConfig, patience: float = 3.0, say: Callable[[str], None] = to_stderr
    ) -> None:
        self.where = f"{config.broker}:{config.port}"
        self.patience = patience
        self.say = say
        self.since: float | None = time.monotonic()
        self.said = False

    def check(self, connected: bool) -> None:
        now = time.monotonic()
        if connected:
            self.since, self.said = None, False
            return
        if self.since is None:
            self.since = now
        if not self.said and now - self.since > self.patience:
            self.said = True
            self.say(
                _("cannot reach the broker at {where}; trying again (nothing is lost)").format(
                    where=self.where
                )
            )
