"""``crib-pi recognize`` and ``crib-pi learn-deck`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from crib_pi.cards import SUITS, Card  # noqa: E402
from crib_pi.vision.synth.decks import Deck  # noqa: E402
from crib_pi.vision.synth.scenes import make_scene  # noqa: E402


def crib_pi(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crib_pi", *args], capture_output=True, text=True, timeout=300
    )


def write_scene(path: Path, decks: list[Deck], cards: list[Card], seed: int) -> None:
    rng = np.random.default_rng(seed)
    scene = make_scene(
        rng,
        decks[:1],
        size=(1280, 720),
        card_width=(170.0, 170.0),
        cards=[c.index for c in cards],
        layout="row",
        tilt=0.02,
        degrade=0.2,
        clutter_count=(0, 0),
    )
    cv2.imwrite(str(path), scene.image)


def test_recognize_json_and_draw(tmp_path: Path, decks: list[Deck]) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    write_scene(a, decks, [Card.parse(c) for c in ("5H", "JC", "10D")], 1)
    cv2.imwrite(str(b), np.full((200, 300, 3), 60, np.uint8))
    out = crib_pi("recognize", str(a), str(b), "--json", "--draw", str(tmp_path / "drawn"))
    assert out.returncode == 0, out.stderr
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    assert [x["image"] for x in lines] == [str(a), str(b)]
    assert lines[1]["cards"] == [] and lines[1]["uncertain"] == []
    got = {c["card"] for c in lines[0]["cards"]}
    assert got <= {"5H", "JC", "10D"} and len(got) >= 2
    for c in lines[0]["cards"]:
        assert 0 < c["confidence"] <= 1 and len(c["corners"]) == 4
    assert (tmp_path / "drawn" / "a.png").is_file() and (tmp_path / "drawn" / "b.png").is_file()


def test_recognize_text_output_and_bad_image(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not an image")
    out = crib_pi("recognize", str(bad))
    assert out.returncode != 0 and "cannot decode image" in out.stderr
    assert "Traceback" not in out.stderr
    out = crib_pi("recognize", str(tmp_path / "missing.png"))
    assert out.returncode != 0 and "no such image" in out.stderr


def test_learn_deck_guide_and_profile(tmp_path: Path, decks: list[Deck]) -> None:
    out = crib_pi("learn-deck", str(tmp_path / "p.npz"))
    assert out.returncode == 0 and "Photo 1" in out.stdout and "clubs" in out.stdout
    shots = []
    for i, suit in enumerate(SUITS):
        path = tmp_path / f"{suit}.png"
        rng = np.random.default_rng(50 + i)
        scene = make_scene(
            rng,
            decks[:1],
            size=(1280, 720),
            card_width=(150.0, 150.0),
            cards=[Card(r, suit).index for r in range(1, 14)],
            layout="row",
            tilt=0.0,
            degrade=0.0,
            clutter_count=(0, 0),
        )
        cv2.imwrite(str(path), scene.image)
        shots.append(str(path))
    prof = tmp_path / "mine.npz"
    out = crib_pi("learn-deck", str(prof), *shots)
    assert prof.is_file(), out.stdout + out.stderr
    assert "found" in out.stdout
    write_scene(tmp_path / "s.png", decks, [Card.parse("QS"), Card.parse("4D")], 3)
    out = crib_pi("recognize", str(tmp_path / "s.png"), "--deck", str(prof), "--json")
    assert out.returncode == 0, out.stderr
    assert {c["card"] for c in json.loads(out.stdout)["cards"]} <= {"QS", "4D"}
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"junk")
    out = crib_pi("recognize", str(tmp_path / "s.png"), "--deck", str(bad))
    assert out.returncode != 0 and "deck profile" in out.stderr and "Traceback" not in out.stderr


def test_learn_deck_refuses_a_photo_of_other_cards(tmp_path: Path, decks: list[Deck]) -> None:
    photo = tmp_path / "hearts.png"
    write_scene(photo, decks, [Card.parse("3H"), Card.parse("10S")], 4)
    profile = tmp_path / "mine.npz"
    # The options before the photo: the order a user may well type.
    out = crib_pi("learn-deck", str(profile), "--expect", "AS 2S 3S", str(photo))
    assert out.returncode == 2, out.stdout + out.stderr
    assert "expected AS 2S 3S but the photo shows 3H 10S" in out.stderr
    assert not profile.exists() and "Traceback" not in out.stderr
    out = crib_pi("learn-deck", str(photo), "--expect", "3H 10S", str(photo))
    assert out.returncode == 2 and "give a .npz file name" in out.stderr
