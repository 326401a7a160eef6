"""``tools/calibrate_vision.py`` judges the code as it stands: its reads of cached scenes are
the whole recognizer's reads of the same scenes, so a rule chosen with it is the rule that runs."""

from __future__ import annotations

from pathlib import Path

from crib_pi.vision.classifier import Classifier
from crib_pi.vision.recognizer import Recognizer
from crib_pi.vision.synth.decks import Deck
from tests.conftest import load_script

TOOL = Path(__file__).resolve().parents[2] / "tools" / "calibrate_vision.py"


def test_cached_scenes_are_read_as_the_recognizer_reads_them(
    tmp_path: Path, decks: list[Deck], recognizer: Recognizer
) -> None:
    tool = load_script(TOOL)
    out = tmp_path / "cache.pkl"
    tool.cache(6, 5, "alternate", out, decks)
    scenes = list(tool.scenes(6, 5, "alternate", decks))
    cached = list(tool.reads(out, Classifier()))
    assert len(cached) == len(scenes) == 6
    assert {layout for layout, _ in scenes} == {"scatter", "fan", "row"}
    named = 0
    for (layout, scene), (row, res) in zip(scenes, cached, strict=True):
        assert row["layout"] == layout and row["cards"] == list(scene.cards)
        whole = recognizer.read(scene.image)
        assert [(r.card, round(r.confidence, 5)) for r in res.cards] == [
            (r.card, round(r.confidence, 5)) for r in whole.cards
        ]
        assert [u.candidates for u in res.uncertain] == [u.candidates for u in whole.uncertain]
        named += len(res.cards)
    assert named >= 20
    readable, missed, wrong = tool.score(out, Classifier(), verbose=False)
    assert 0 <= readable - missed <= named and wrong <= named
