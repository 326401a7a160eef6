"""crib-pi: a Raspberry Pi that keeps score at a real cribbage table.

The pure core (``cards``, ``scoring``, ``game``, ``records``, ``snapshot``) imports nothing
from vision, devices, display or the app, so it runs anywhere Python and numpy do.
"""

__version__ = "0.1.0"
