"""The LED board: the strip's layout, the frames drawn from a snapshot, the current limit and
the animation (``board``), and the strip drivers (``ws281x``, ``pi5neo``) beside the mock and
null strips (``base``).

Importing this package imports no LED library: each driver imports its own when it is built.
"""
