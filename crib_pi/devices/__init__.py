"""Devices: camera, buttons, LED board, screen and clock, behind one factory.

``make_devices()`` picks ``pi``, ``desktop`` or ``mock`` (argument, config, or
``CRIB_PI_DEVICES``). Importing this package imports no hardware library, not even pygame:
each driver imports its own library when it is built.
"""

import os

# pygame-ce prints a greeting on import; it would land in the output of crib-pi commands.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from crib_pi.devices.config import DeviceConfig, load_config
from crib_pi.devices.factory import Devices, choose_backend, make_devices

__all__ = ["DeviceConfig", "Devices", "choose_backend", "load_config", "make_devices"]
