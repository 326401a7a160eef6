"""Card recognition from camera images: find each card index, read it, never guess.

Pipeline: glyph blobs on bright card (``glyphs``) -> rank-over-suit pairs as candidate index
frames (``pairs``) -> upright patches (``patches``) -> small CNNs run by onnxruntime or
``cv2.dnn`` (``engine``, ``classifier``) -> grouping, confidence and uncertain reads
(``decide``). ``Recognizer`` ties them together; ``profile`` adapts it to a user's own deck.
Only OpenCV, numpy and (where it has wheels) onnxruntime run here.
"""

from __future__ import annotations

from crib_pi.vision.reads import CardRead, Recognition, UncertainRead

__all__ = ["CardRead", "Recognition", "UncertainRead"]
