"""Make the synthetic training set and train the index classifier (needs the ``train`` extra).

    python tools/train_vision.py data --scenes 2500 --seed 31 --out build/vision/e31.npz
    ... the same for seeds 32 to 36 (two at a time on two cores)
    python tools/train_vision.py fit --epochs 10   # e31..e36

    python tools/train_vision.py data --wide --scenes 3000 --seed 41   # and seed 42
    python tools/train_vision.py fit --wide --epochs 15                # w41, w42

``data`` renders scenes from the gnome-cards-data decks, runs the same candidate front end as
recognition, and labels each candidate from the scene's ground truth. ``fit`` trains a small CNN
with two heads (rank or "no index", and suit) and exports it to ONNX for ``cv2.dnn``. Seeds are
fixed, so a rerun on the same packages gives the same data.

``--wide`` makes and fits the wide network (``crib_pi.vision.classifier``): each kept frame
gives its patch and its wide look, and every frame the shipped first network finds at least
``HARD_AT`` index-like but that is no whole index (most are indices cut by a card over them)
is kept as a hard example, with as many easy non-indices as indices.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from crib_pi.vision.candidates import front_end
from crib_pi.vision.classifier import Classifier, model_path
from crib_pi.vision.patches import extract_wide
from crib_pi.vision.synth.decks import deck_names, family_of, load_deck, plain_deck
from crib_pi.vision.synth.drawn import drawn_decks
from crib_pi.vision.synth.inks import grey, tinted
from crib_pi.vision.synth.labels import NONE, label_frames
from crib_pi.vision.synth.scenes import LAYOUTS, make_scene

#: ``fit`` writes the second of the shipped networks (see ``crib_pi.vision.classifier``).
MODEL_OUT = Path(__file__).resolve().parents[1] / "crib_pi" / "data" / "index_net_b.onnx"
#: ``fit --wide`` writes the wide network.
WIDE_OUT = MODEL_OUT.with_name("index_net_wide.onnx")
#: ``fit --grey`` writes the grey network.
GREY_OUT = MODEL_OUT.with_name("index_net_grey.onnx")
#: ``data --wide`` keeps every non-index the first network finds at least this index-like.
HARD_AT = 0.05
#: Scene size, card widths and whether the cards lie on the printed mat: small photos up to the
#: product's own frames (a camera above the mat, cards 120-260 px wide).
SETTINGS = (
    ((640, 480), (45.0, 200.0), False),
    ((640, 480), (100.0, 320.0), False),
    ((1280, 720), (140.0, 280.0), False),
    ((1280, 720), (120.0, 260.0), True),
)
#: How many times the project's own plain deck (the demo's) is entered among the ~27 gnome decks.
PLAIN_WEIGHT = 5
#: With ``--variety``: decks drawn in Debian's fonts, gnome decks re-inked brown-black on warm
#: stock, and scenes seen by a grey camera (``synth.drawn``, ``synth.inks``).
DRAWN_DECKS = 16
TINTED_DECKS = 8
GREY_SHARE = 0.1


def make_data(
    scenes: int,
    seed: int,
    out: Path,
    wide: bool = False,
    layout: str | None = None,
    variety: bool = False,
    seconds: float = float("inf"),
) -> None:
    """Patches, labels and each patch's deck family (``f``, indexing ``families``); with
    ``wide``, the wide network's sampling and each wide look too.

    ``layout`` makes every scene that layout (a fanned hand, say) instead of any at random;
    ``variety`` adds drawn decks, re-inked decks and grey scenes; ``seconds`` stops making
    scenes after that long (a time-boxed run on a borrowed machine).
    """
    rng = np.random.default_rng(seed)
    gnome = [load_deck(n) for n in deck_names()]
    decks = gnome + [plain_deck()] * PLAIN_WEIGHT
    if variety:
        decks += drawn_decks(rng, DRAWN_DECKS)
        picks = rng.choice(len(gnome), min(TINTED_DECKS, len(gnome)), replace=False)
        decks += [tinted(gnome[int(i)], rng) for i in picks]
    families = sorted({family_of(d.name) for d in decks})
    fs = []
    first = Classifier([model_path()]) if wide else None
    xs, ws, ys = [], [], []
    t0 = time.time()
    for i in range(scenes):
        if time.time() - t0 > seconds:
            print(f"time is up after {i} scenes", flush=True)
            break
        size, widths, on_mat = SETTINGS[int(rng.integers(0, len(SETTINGS)))]
        scene = make_scene(
            rng, decks, size=size, card_width=widths, n_cards=(2, 12), on_mat=on_mat, layout=layout
        )
        if variety and rng.random() < GREY_SHARE:
            scene.image = grey(scene.image)
        frames, patches, pyr = front_end(scene.image)
        lab = label_frames(scene, frames)
        pos = np.flatnonzero((lab >= 0) & (lab != NONE))
        if first is None:
            neg = np.flatnonzero(lab == NONE)  # IGNORE (-1) frames are left out
            take = min(neg.size, max(40, 3 * pos.size))
            hard = neg[:0]
        else:
            p_index = first.score(patches).index_prob()
            hard = np.flatnonzero((lab == NONE) & (p_index >= HARD_AT))
            neg = np.flatnonzero((lab == NONE) & (p_index < HARD_AT))
            take = min(neg.size, max(10, pos.size))
        neg = rng.choice(neg, take, replace=False) if take else neg[:0]
        keep = np.concatenate([pos, hard, neg])
        xs.append(patches[keep])
        ys.append(lab[keep])
        fs.append(np.full(len(keep), families.index(family_of(scene.deck)), np.int16))
        if wide:
            ws.append(extract_wide(pyr, frames.take(keep)))
        if i % 200 == 0:
            n = sum(len(y) for y in ys)
            p = sum(int((y != NONE).sum()) for y in ys)
            print(f"scene {i}: {n} patches, {p} cards, {time.time() - t0:.0f}s", flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    arrays = {
        "x": np.concatenate(xs),
        "y": np.concatenate(ys),
        "f": np.concatenate(fs),
        "families": np.array(families),
    }
    if wide:
        arrays["w"] = np.concatenate(ws)
    np.savez_compressed(out, **arrays)


def fit(
    data: list[Path],
    epochs: int,
    seed: int,
    out: Path,
    wide: bool = False,
    grey_net: bool = False,
    leave_out: tuple[str, ...] = (),
    device: str = "cpu",
) -> None:
    """Train and export one network.

    ``grey_net`` trains on each patch's luminance (``patches.grey_patches``), so the network
    judges suits by shape alone; ``leave_out`` drops every patch of those deck families (to
    measure recognition on designs it never saw); ``device`` is "cpu" or "cuda". Patches stay
    uint8 until each batch is normalised, as ``patches.normalise`` does at run time.
    """
    import torch
    from torch import nn

    from crib_pi.vision.patches import grey_patches

    torch.manual_seed(seed)
    if device == "cpu":
        torch.set_num_threads(2)
    known = {str(n) for path in data for n in np.load(path).get("families", [])}
    unknown = sorted(set(leave_out) - known)
    if unknown:
        raise SystemExit(f"--leave-out {' '.join(unknown)}: no such deck family in the data")
    xs, ws, ys = [], [], []
    for path in data:
        d = np.load(path)
        keep = d["y"] >= 0  # IGNORE frames (faces whose index could not be measured)
        if leave_out and "f" in d:
            names = [str(n) for n in d["families"]]
            drop = [names.index(f) for f in leave_out if f in names]
            keep &= ~np.isin(d["f"], drop)
        x = d["x"][keep]
        xs.append(grey_patches(x) if grey_net else x)
        if wide:
            ws.append(d["w"][keep])
        ys.append(d["y"][keep])
    dev = torch.device(device)
    x = torch.from_numpy(np.concatenate(xs)).to(dev)  # (n, P, P, 3) uint8
    w = torch.from_numpy(np.concatenate(ws)).to(dev) if wide else None
    y = torch.from_numpy(np.concatenate(ys)).to(dev)
    print(f"{len(y)} patches, {int((y != NONE).sum())} indices", flush=True)

    def batch(idx: torch.Tensor) -> torch.Tensor:
        parts = [torch_normalise(x[idx])] + ([torch_normalise(w[idx])] if w is not None else [])
        return torch.cat(parts, dim=1)

    rank = torch.where(y == NONE, torch.tensor(13, device=dev), y % 13)
    suit = torch.where(y == NONE, torch.tensor(-100, device=dev), y // 13)
    n = len(y)
    perm = torch.randperm(n, generator=torch.Generator().manual_seed(seed)).to(dev)
    val, tr = perm[: n // 20], perm[n // 20 :]
    net = (WideNet() if wide else IndexNet()).to(dev)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    size = 256 if device == "cpu" else 1024
    steps = epochs * (len(tr) // size + 1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    ce = nn.CrossEntropyLoss(ignore_index=-100)
    for ep in range(epochs):
        net.train()
        order = tr[torch.randperm(len(tr), device=dev)]
        t0 = time.time()
        for j in range(0, len(order), size):
            b = order[j : j + size]
            xb = batch(b)
            if torch.rand(1).item() < 0.5:  # brightness and contrast jitter after normalising
                xb = xb * (0.8 + 0.4 * torch.rand(len(b), 1, 1, 1, device=dev))
            lr_, ls_ = net.logits(xb)
            loss = ce(lr_, rank[b]) + ce(ls_, suit[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        net.eval()
        with torch.no_grad():
            pr, ps = net.logits(batch(val))
            r_ok = (pr.argmax(1) == rank[val]).float().mean().item()
            m = suit[val] >= 0
            s_ok = (ps.argmax(1)[m] == suit[val][m]).float().mean().item()
        print(
            f"epoch {ep}: loss {loss.item():.3f} val rank {r_ok:.4f} suit {s_ok:.4f} "
            f"({time.time() - t0:.0f}s)",
            flush=True,
        )
    net = net.cpu().eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(net, out, 6 if wide else 3)
    print(f"wrote {out} ({out.stat().st_size} bytes)")


def export_onnx(net: Any, out: Path, channels: int = 3) -> None:
    """``net`` (eval mode, on the CPU) to ``out`` with the inputs and outputs crib_pi reads."""
    import torch

    torch.onnx.export(
        net,
        (torch.zeros(1, channels, 32, 32),),
        str(out),
        input_names=["x"],
        output_names=["rank", "suit", "feat"],
        dynamic_axes={"x": {0: "n"}},
        dynamo=False,
        opset_version=13,
    )


def torch_normalise(x: Any) -> Any:
    """``patches.normalise`` in torch: (n, P, P, 3) uint8 to (n, 3, P, P) network input."""
    x = x.float()
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = x.std(dim=(1, 2, 3), keepdim=True, correction=0)
    return ((x - mean) / (std + 8.0)).permute(0, 3, 1, 2).contiguous()


def _net_class(cin: int = 3, width: int = 12) -> type:
    from torch import nn

    def block(cin: int, cout: int) -> nn.Sequential:
        return nn.Sequential(
            nn.Conv2d(cin, cout, 3, padding=1, bias=False),
            nn.BatchNorm2d(cout),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )

    class Net(nn.Module):
        """32x32 colour patch -> rank (13 + "no index"), suit (4), and a 96-value embedding."""

        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                block(cin, width),
                block(width, 24),
                block(24, 32),
                block(32, 48),
                nn.Flatten(),
                nn.Linear(48 * 4, 96),
                nn.ReLU(),
            )
            self.rank = nn.Linear(96, 14)
            self.suit = nn.Linear(96, 4)

        def logits(self, x):  # type: ignore[no-untyped-def]
            h = self.body(x)
            return self.rank(h), self.suit(h)

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.body(x)
            return self.rank(h).softmax(1), self.suit(h).softmax(1), h

    return Net


def IndexNet():  # type: ignore[no-untyped-def]
    return _net_class()()


def WideNet():  # type: ignore[no-untyped-def]
    """The patch and its wide look stacked: six channels in, a wider first layer."""
    return _net_class(6, 16)()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    dp = sub.add_parser("data")
    dp.add_argument("--scenes", type=int, default=2500)
    dp.add_argument("--seed", type=int, default=31)
    dp.add_argument("--out", type=Path, help="default: build/vision/e<seed>.npz (w<seed>)")
    dp.add_argument("--wide", action="store_true", help="data for the wide network")
    dp.add_argument("--layout", choices=LAYOUTS, help="every scene this layout (default: any)")
    dp.add_argument("--variety", action="store_true", help="drawn and re-inked decks, grey scenes")
    dp.add_argument("--seconds", type=float, default=float("inf"), help="stop after this long")
    fp = sub.add_parser("fit")
    fp.add_argument(
        "--data",
        type=Path,
        nargs="+",
        help="npz files (default: e31..e36, or w41 and w42 with --wide)",
    )
    fp.add_argument("--epochs", type=int, default=10)
    fp.add_argument("--seed", type=int, default=1)
    fp.add_argument("--out", type=Path, help="default: the shipped second or wide network")
    fp.add_argument("--wide", action="store_true", help="fit the wide network")
    fp.add_argument("--grey", action="store_true", help="fit the grey (shape-only) network")
    fp.add_argument("--leave-out", nargs="*", default=[], help="deck families to train without")
    fp.add_argument("--device", default="cpu", help="cpu or cuda")
    a = p.parse_args()
    prefix = "build/vision/w" if a.wide else "build/vision/e"  # the wide network's data, or not
    if a.cmd == "data":
        cv2.setNumThreads(1)  # data is made by one process per core
        out = a.out or Path(f"{prefix}{a.seed}.npz")
        make_data(a.scenes, a.seed, out, a.wide, a.layout, a.variety, a.seconds)
    else:
        seeds = (41, 42) if a.wide else range(31, 37)
        data = a.data or [Path(f"{prefix}{s}.npz") for s in seeds]
        default_out = WIDE_OUT if a.wide else (GREY_OUT if a.grey else MODEL_OUT)
        fit(
            data,
            a.epochs,
            a.seed,
            a.out or default_out,
            a.wide,
            a.grey,
            tuple(a.leave_out),
            a.device,
        )


if __name__ == "__main__":
    main()
