"""Trial (issue 18, item 5): tune the networks on one deck's lesson instead of keeping a profile.

A deck profile only confirms the networks' lead (by each card's learnt signature, seventh
round; at first by nearest mean in the first network's embedding, which separated look-alike
indices no better than the network did: docs/vision.md, "Learning a deck at the table,
measured"), so a card the networks misread stays unread. This trial tunes the
networks themselves: the guided lesson is filmed and played through as in
``benchmarks/bench_learn_deck.py``, the index patch behind every card it learns is kept, and
the first and second networks are tuned on those patches (turned, scaled, shifted, blurred and
shrunk at random) mixed with general training patches, which keep the not-an-index class as it
was. The tuned pair then reads the same flat and table scenes as the benchmark, against the
shipped networks and against the lesson's profile.

Needs torch and a patch file made by ``tools/train_vision.py data --variety`` (the general
patches); nothing in crib_pi uses it yet, and the tuned networks stay under ``--out``.

    CRIB_PI_FONT_DIR=build/unseen-fonts python tools/tune_deck.py --seeds 7 23 11 \\
        --data build/cpu/v201.npz --steps 900
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from train_vision import export_onnx, torch_normalise  # beside this file, in tools/

from crib_pi.cards import Card
from crib_pi.session.lesson import ROW_SUITS, DeckLesson
from crib_pi.session.lesson_film import teach_filmed
from crib_pi.vision.classifier import GREY_NAME, SECOND_NAME, WIDE_NAME, model_path
from crib_pi.vision.recognizer import Recognizer
from crib_pi.vision.synth.drawn import drawn_decks
from crib_pi.vision.synth.labels import NONE, readable_cards
from crib_pi.vision.synth.scenes import HELD_OUT_KINDS, held_out_scene

Patches = tuple[np.ndarray, np.ndarray]  # (n, 32, 32, 3) uint8 patches and their labels


def lesson_patches(deck: Any, seed: int) -> tuple[np.ndarray, np.ndarray, DeckLesson]:
    """The lesson of ``deck`` played through, with the patch behind each embedding it learnt."""
    rec = Recognizer()
    seen: list[tuple[np.ndarray, np.ndarray]] = []  # (patches, their embeddings) per look
    score = rec.classifier.score

    def keeping(patches: np.ndarray, *args: Any, **kwargs: Any) -> Any:
        scores = score(patches, *args, **kwargs)
        seen.append((patches, scores.feat))
        return scores

    rec.classifier.score = keeping
    lesson = DeckLesson(rec.classifier, name=deck.name)
    rows = [[Card(r, s) for r in range(1, 14)] for s in ROW_SUITS]
    teach_filmed(lesson, rows, lambda c: deck.faces[c.index], seed=seed, zoom=0.85)
    xs, ys = [], []
    for row in lesson.learnt:
        for card, looks in row.items():
            for look in looks:
                for patches, embedded in seen:
                    hit = np.flatnonzero(np.all(np.isclose(embedded, look.feat), axis=1))
                    if hit.size:
                        xs.append(patches[hit[0]])
                        ys.append(card.index)
                        break
    return np.array(xs), np.array(ys), lesson


def torch_net(path: Path) -> Any:
    """The ONNX network at ``path`` (batch norm already folded into its convolutions) in torch."""
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            widths = ((3, 12), (12, 24), (24, 32), (32, 48))
            self.convs = nn.ModuleList([nn.Conv2d(a, b, 3, padding=1) for a, b in widths])
            self.fc = nn.Linear(192, 96)
            self.rank = nn.Linear(96, 14)
            self.suit = nn.Linear(96, 4)

        def body(self, x: Any) -> Any:
            for conv in self.convs:
                x = nn.functional.max_pool2d(torch.relu(conv(x)), 2)
            return torch.relu(self.fc(x.flatten(1)))

        def logits(self, x: Any) -> tuple[Any, Any]:
            h = self.body(x)
            return self.rank(h), self.suit(h)

        def forward(self, x: Any) -> tuple[Any, Any, Any]:
            h = self.body(x)
            return self.rank(h).softmax(1), self.suit(h).softmax(1), h

    model = onnx.load(str(path))
    weights = {
        i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer
    }
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    net = Net()
    with torch.no_grad():
        for conv, node in zip(net.convs, convs, strict=True):
            assert isinstance(conv, nn.Conv2d) and conv.bias is not None
            conv.weight.copy_(weights[node.input[1]])
            conv.bias.copy_(weights[node.input[2]])
        net.fc.weight.copy_(weights["body.5.weight"])
        net.fc.bias.copy_(weights["body.5.bias"])
        for head in ("rank", "suit"):
            getattr(net, head).weight.copy_(weights[f"{head}.weight"])
            getattr(net, head).bias.copy_(weights[f"{head}.bias"])
    return net


def augment(patches: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each patch turned, scaled, shifted, perhaps blurred or shrunk, with a little noise: the
    lesson sees each card upright and flat, the table at any angle and size."""
    out = np.empty_like(patches)
    for k, patch in enumerate(patches):
        m = cv2.getRotationMatrix2D((15.5, 15.5), rng.uniform(-10, 10), rng.uniform(0.85, 1.15))
        m[:, 2] = m[:, 2] + rng.uniform(-2.5, 2.5, 2)
        y = cv2.warpAffine(patch, m, (32, 32), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            y = cv2.GaussianBlur(y, (0, 0), rng.uniform(0.3, 1.2))
        if rng.random() < 0.3:
            f = rng.uniform(0.5, 0.8)
            small = cv2.resize(y, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            y = cv2.resize(small, (32, 32))
        noisy = y.astype(np.float32) + rng.normal(0, 4, y.shape)
        out[k] = np.clip(noisy, 0, 255).astype(np.uint8)
    return out


def tune(path: Path, out: Path, deck: Patches, general: Patches, steps: int, seed: int) -> None:
    """``path`` tuned on the deck's patches (96 a batch) and general ones (160), to ``out``."""
    import torch
    from torch import nn

    net = torch_net(path)
    ce = nn.CrossEntropyLoss(ignore_index=-100)
    opt = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-4)
    rng = np.random.default_rng(seed)
    (dx, dy), (gx, gy) = deck, general
    for _ in range(steps):
        di, gi = rng.integers(0, len(dx), 96), rng.integers(0, len(gx), 160)
        x = np.concatenate([augment(dx[di], rng), gx[gi]])
        y = torch.from_numpy(np.concatenate([dy[di], gy[gi]]))
        rank = torch.where(y == NONE, 13, y % 13)
        suit = torch.where(y == NONE, -100, y // 13)
        r, s = net.logits(torch_normalise(torch.from_numpy(x)))
        loss = ce(r, rank) + ce(s, suit)
        opt.zero_grad()
        loss.backward()
        opt.step()
    net.eval()
    export_onnx(net, out)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, nargs="+", default=[7, 23, 11])
    p.add_argument("--data", type=Path, required=True, help="general patches (train_vision data)")
    p.add_argument("--steps", type=int, default=900)
    p.add_argument("--scenes", type=int, default=12, help="scenes of each kind a deck")
    p.add_argument("--out", type=Path, default=Path("build/tuned"))
    a = p.parse_args()
    if any(100 <= s <= 115 for s in a.seeds):
        p.error("--seeds: 100 to 115 made the training's drawn decks; choose others")
    if not a.data.is_file():
        p.error(f"--data {a.data}: no such file (tools/train_vision.py data --variety makes one)")
    cv2.setNumThreads(1)
    with np.load(a.data) as d:
        pick = np.sort(np.random.default_rng(0).choice(len(d["y"]), 30000, replace=False))
        general = (d["x"][pick], d["y"][pick])
    a.out.mkdir(parents=True, exist_ok=True)
    grey, wide, second = (model_path(n) for n in (GREY_NAME, WIDE_NAME, SECOND_NAME))
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for seed in a.seeds:
        (deck,) = drawn_decks(np.random.default_rng(seed), 1)
        xs, ys, lesson = lesson_patches(deck, seed)
        started = time.monotonic()
        first_out, second_out = a.out / f"drawn-{seed}-a.onnx", a.out / f"drawn-{seed}-b.onnx"
        tune(model_path(), first_out, (xs, ys), general, a.steps, 1)
        tune(second, second_out, (xs, ys), general, a.steps, 2)
        took = time.monotonic() - started
        print(f"drawn:{seed} {deck.name}: {len(xs)} lesson patches, both tuned in {took:.0f} s")
        readers = {
            "shipped": Recognizer(),
            "profile": Recognizer(lesson.profile()),
            "tuned pair": Recognizer(models=[first_out, second_out, wide], grey=grey),
        }
        for kind in HELD_OUT_KINDS:
            rng = np.random.default_rng(seed * 1000 + (kind == "table"))  # the benchmark's
            acc = {k: [0, 0, 0] for k in readers}
            for i in range(a.scenes):
                scene = held_out_scene(rng, [deck], kind, i)
                truth = {Card.from_index(c) for c in readable_cards(scene)}
                present = {Card.from_index(c) for c in scene.cards}
                for k, reader in readers.items():
                    named = {r.card for r in reader.read(scene.image).cards}
                    acc[k][0] += len(named & truth)
                    acc[k][1] += len(named - present)
                    acc[k][2] += len(truth)
            for k, (right, wrong, true) in acc.items():
                t = totals[f"{kind} {k}"]
                t[0], t[1], t[2] = t[0] + right, t[1] + wrong, t[2] + true
                print(f"    {kind:5s} {k:10s} recall {right / max(true, 1):6.1%} wrong {wrong}")
    for key, (right, wrong, true) in sorted(totals.items()):
        print(f"  all decks, {key:16s} recall {right / max(true, 1):6.1%}  wrong {wrong} of {true}")


if __name__ == "__main__":
    main()
