"""``tools/calibrate_vision.py`` judges the code as it stands: its reads of cached scenes are
the whole recognizer's reads of the same scenes, so a rule chosen with it is the rule that runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from crib_pi.cards import Card
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


def test_the_held_out_mix_is_the_held_out_benchmarks_scenes() -> None:
    from crib_pi.vision.synth.drawn import drawn_decks

    tool = load_script(TOOL)
    bench = load_script(TOOL.parents[1] / "benchmarks" / "bench_held_out.py")
    if not drawn_decks(np.random.default_rng(31), 1):
        pytest.skip("no fonts for drawn decks (fonts-dejavu-core)")
    mine = list(tool.scenes(1, 31, "held-out"))
    deck = drawn_decks(np.random.default_rng(31), 1)[0]
    theirs = bench.scenes([deck], 32, 6)
    kinds = ["flat"] * 6 + ["table"] * 6
    assert [kind for kind, _ in mine] == [kind for kind, *_ in theirs] == kinds
    for (_, scene), (_, image, _, present) in zip(mine, theirs, strict=True):
        np.testing.assert_array_equal(scene.image, image)
        assert {Card.from_index(c) for c in scene.cards} == present


def test_score_without_a_rule_measures_the_classifier_with_it_switched_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``score --without`` sets a rule's threshold where it never acts. Rule 1's own case (an
    8H whose upper loop is hidden: the wide network vouches for a 6H, the grey one sees no
    index) is doubted with the rule and named without it."""
    from crib_pi.vision import classifier, decide
    from tests.vision.test_classifier import _card, _one

    tool = load_script(TOOL)
    for name, _never in tool.RULES.values():
        assert isinstance(getattr(classifier, name), float), name
    first, second = _one(5, 2, 0.99, index=0.4), _one(5, 2, 0.99, index=0.65)
    wide, grey = _one(5, 2, 0.999, index=0.999), _one(5, 2, 0.7, index=0.05)
    assert _card(*classifier._three(first, second, wide, grey))[1] < decide.NAME_AT
    name, never = tool.RULES["grey-vouch"]
    monkeypatch.setattr(classifier, name, never)
    assert _card(*classifier._three(first, second, wide, grey))[1] >= decide.NAME_AT
