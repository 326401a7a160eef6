"""Card recognition from camera images: find each card index, read it, never guess.

Pipeline: glyph blobs on bright card (``glyphs``) -> rank-over-suit pairs as candidate index
frames (``pairs``) -> upright patches (``patches``) -> a small CNN run with ``cv2.dnn``
(``classifier``) -> grouping, confidence and uncertain reads (``decide``). ``Recognizer`` ties
them together; ``profile`` adapts it to a user's own deck. Only OpenCV and numpy run here.
"""

from __future__ import annotations

from crib_pi.vision.reads import CardRead, Recognition, UncertainRead

__all__ = ["CardRead", "Recognition", "UncertainRead"]
