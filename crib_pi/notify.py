"""systemd's notify protocol: one datagram to ``$NOTIFY_SOCKET`` per message.

``READY=1`` once the devices are up, ``WATCHDOG=1`` from the main loop (at under half of
``WatchdogSec``), ``STOPPING=1`` on the way out. Outside systemd every call does nothing.
"""

from __future__ import annotations

import os
import socket


def notify(message: str) -> bool:
    """Send ``message``; True if a socket was there to take it."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(message.encode())
    except OSError:
        return False
    return True


def watchdog_interval() -> float | None:
    """Seconds between watchdog pings (half of systemd's timeout), or None when not asked."""
    usec = os.environ.get("WATCHDOG_USEC")
    pid = os.environ.get("WATCHDOG_PID")
    if not usec or (pid and pid != str(os.getpid())):
        return None
    try:
        return int(usec) / 1e6 / 2
    except ValueError:
        return None
