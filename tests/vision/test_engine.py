"""The engine that runs the networks: onnxruntime where installed, OpenCV's dnn otherwise, the
same probabilities from both, and a clear error for a bad choice or a bad file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crib_pi.vision import engine
from crib_pi.vision.candidates import front_end
from crib_pi.vision.classifier import WIDE_NAME, Classifier, model_path
from crib_pi.vision.engine import ENGINE_ENV, OnnxRuntimeNetwork, OpenCVNetwork, load
from crib_pi.vision.errors import ModelError
from crib_pi.vision.patches import extract_wide, normalise
from tests.vision.test_classifier import three_cards_on_a_table

needs_ort = pytest.mark.skipif(
    engine._onnxruntime() is None, reason="onnxruntime is not installed (a 32-bit Pi OS has none)"
)


def test_opencv_is_chosen_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_ENV, "OpenCV")
    assert engine.chosen() == "opencv"
    assert isinstance(load(model_path()), OpenCVNetwork)


def test_without_onnxruntime_opencv_runs_the_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    monkeypatch.setattr(engine, "_onnxruntime", lambda: None)
    assert engine.chosen() == "opencv"
    assert isinstance(load(model_path()), OpenCVNetwork)
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")  # asked for, and missing: said so
    with pytest.raises(ModelError, match=f"{ENGINE_ENV}=onnxruntime.*not installed"):
        load(model_path())


def test_an_unknown_engine_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENGINE_ENV, "tensorflow")
    with pytest.raises(ModelError, match=r"CRIB_PI_ENGINE=tensorflow.*onnxruntime, opencv"):
        Classifier()


@needs_ort
def test_onnxruntime_is_the_default_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENGINE_ENV, raising=False)
    assert engine.chosen() == "onnxruntime"
    assert isinstance(load(model_path()), OnnxRuntimeNetwork)


@pytest.mark.parametrize("name", ["opencv", pytest.param("onnxruntime", marks=needs_ort)])
def test_a_broken_model_is_a_clear_error_in_either_engine(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENGINE_ENV, name)
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a network")
    with pytest.raises(ModelError, match=r"does not load.*bad\.onnx"):
        load(bad)


@needs_ort
def test_both_engines_read_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    frames, patches, pyr = front_end(three_cards_on_a_table())
    wide = extract_wide(pyr, frames)
    index = Classifier().score(patches).index_prob()
    assert (index > 0.9).sum() >= 3 and (index < 0.1).sum() >= 10  # indices and not
    both = np.concatenate([normalise(patches), normalise(wide)], axis=1)  # the wide one's six
    outs, scores = {}, {}
    for name in ("opencv", "onnxruntime"):
        monkeypatch.setenv(ENGINE_ENV, name)
        outs[name] = load(model_path()).run(normalise(patches))
        outs[name] += load(model_path(WIDE_NAME)).run(both)
        scores[name] = Classifier().score(patches, lambda i: wide[i])
    for a, b in zip(outs["opencv"], outs["onnxruntime"], strict=True):
        np.testing.assert_allclose(a, b, atol=1e-4)
    cv, ort = scores["opencv"], scores["onnxruntime"]
    np.testing.assert_allclose(cv.card_probs(), ort.card_probs(), atol=1e-4)
    top2 = np.sort(cv.card_probs(), axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 1e-3  # a near tie may fall either way
    lead = cv.card_probs().argmax(axis=1) == ort.card_probs().argmax(axis=1)
    assert clear.sum() >= 10 and lead[clear].all()


@needs_ort
def test_a_file_onnxruntime_cannot_run_falls_back_to_opencv(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(path: Path, ort: object) -> None:
        raise RuntimeError("no kernel for this machine")

    monkeypatch.delenv(ENGINE_ENV, raising=False)
    monkeypatch.setattr(engine, "OnnxRuntimeNetwork", refuse)
    assert isinstance(load(model_path()), OpenCVNetwork)  # chosen by default: OpenCV's dnn
    monkeypatch.setenv(ENGINE_ENV, "onnxruntime")  # asked for by name: its error is said
    with pytest.raises(ModelError, match=r"does not load.*no kernel for this machine"):
        load(model_path())


def test_the_engine_is_described_with_its_version(monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    monkeypatch.setenv(ENGINE_ENV, "opencv")
    assert engine.describe() == f"opencv {cv2.__version__}"
