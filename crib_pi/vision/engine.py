"""What runs the recognition networks: onnxruntime where it is installed, else OpenCV's dnn.

Both run the same ONNX files and give the same probabilities (to about 1e-5). onnxruntime is
about five times faster on these small networks (300 patches of a frame: 20 ms against 96 ms
on one core here), which is most of a frame's time; it has wheels for 64-bit Pi OS and
laptops but none for a 32-bit Pi OS, where OpenCV's dnn (always installed) runs them.
A file onnxruntime cannot run is run by OpenCV's dnn. ``CRIB_PI_ENGINE=opencv`` picks OpenCV's
dnn anyway; ``CRIB_PI_ENGINE=onnxruntime`` insists on onnxruntime (its errors are then said).
"""

from __future__ import annotations

import os
from importlib import import_module
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from crib_pi.i18n import _
from crib_pi.vision.errors import ModelError

ENGINE_ENV = "CRIB_PI_ENGINE"
ENGINES = ("onnxruntime", "opencv")
#: The outputs every shipped network has, in this order.
OUTPUTS = ["rank", "suit", "feat"]


class Network(Protocol):
    def run(self, x: np.ndarray) -> list[np.ndarray]:
        """The outputs (``OUTPUTS``) for a (n, C, P, P) float32 batch."""
        ...


class OpenCVNetwork:
    """A network run by ``cv2.dnn``."""

    def __init__(self, path: Path) -> None:
        self._net = cv2.dnn.readNetFromONNX(str(path))

    def run(self, x: np.ndarray) -> list[np.ndarray]:
        self._net.setInput(x)
        return list(self._net.forward(OUTPUTS))


class OnnxRuntimeNetwork:
    """A network run by onnxruntime, on as many threads as OpenCV is told to use."""

    def __init__(self, path: Path, ort: Any) -> None:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, cv2.getNumThreads())
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3  # errors only: it warns of unused initialisers otherwise
        # Its threads would otherwise spin between frames, taking the cores the screen,
        # the LEDs and the voice need.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    def run(self, x: np.ndarray) -> list[np.ndarray]:
        return list(self._session.run(OUTPUTS, {self._input: x}))


def chosen() -> str:
    """The engine asked for by ``CRIB_PI_ENGINE`` (empty: onnxruntime where installed)."""
    return _asked() or ("onnxruntime" if _onnxruntime() is not None else "opencv")


def _asked() -> str:
    """The engine ``CRIB_PI_ENGINE`` names, or "" where it names none."""
    asked = os.environ.get(ENGINE_ENV, "").strip().lower()
    if asked and asked not in ENGINES:
        raise ModelError(
            _("{var}={value} is not an engine; use one of: {engines}").format(
                var=ENGINE_ENV, value=asked, engines=", ".join(ENGINES)
            )
        )
    return asked


def describe() -> str:
    """The chosen engine and its version, as benchmarks print it (speed depends on both)."""
    name = chosen()
    module = _onnxruntime() if name == "onnxruntime" else cv2
    return f"{name} {getattr(module, '__version__', '?')}"


def load(path: Path) -> OpenCVNetwork | OnnxRuntimeNetwork:
    """The network in ``path``, run by the chosen engine. Where onnxruntime was not asked for
    by name and cannot run a file, OpenCV's dnn is tried before giving up."""
    if not path.is_file():
        raise ModelError(_("recognition model missing: {path}").format(path=path))
    asked = _asked()
    ort = _onnxruntime() if asked != "opencv" else None
    if asked == "onnxruntime" and ort is None:
        raise ModelError(
            _("{var}=onnxruntime, but onnxruntime is not installed").format(var=ENGINE_ENV)
        )
    try:
        if ort is not None:
            try:
                return OnnxRuntimeNetwork(path, ort)
            except Exception:  # onnxruntime's own errors (InvalidProtobuf, Fail, ...)
                if asked:
                    raise
        return OpenCVNetwork(path)
    except Exception as exc:  # cv2.error, or onnxruntime's when it was asked for
        raise ModelError(
            _("recognition model does not load: {path}: {exc}").format(path=path, exc=exc)
        ) from exc


def _onnxruntime() -> Any:
    """The onnxruntime module, or None where it is not installed or does not import."""
    try:
        return import_module("onnxruntime")
    except (ImportError, OSError):  # not installed, or its library does not load here
        return None
