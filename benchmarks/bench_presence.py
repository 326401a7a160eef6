"""Benchmark (issue 31): filmed two-deal games on decks no network trained on, read by
crib_pi.vision, with the pack face down on the crib spot through the play (its back printed
with four aces) and the deck's box beside the play; scripted players answer the questions.

    CRIB_PI_FONT_DIR=build/unseen-fonts python benchmarks/bench_presence.py \\
        [--players 2 3 4] [--decks 7 11 23 31 47 2024 cartoon:5 ornamental:9] [--zoom 0.85] \\
        [--lesson] [--why]

The decks are drawn by ``crib_pi.vision.synth.drawn`` from seeds the training never used (it
used 100 to 115), in the fonts ``tools/unseen_fonts.sh`` unpacks, which no network saw; a deck
named ``cartoon:5`` or ``ornamental:9`` has that seed's index and the pictures of that style
(``crib_pi.vision.synth.art``: thick outlines and characters, or gold frames and lattices). For
each film, and in total, it prints:

- cards laid, and how many were named (laid on the board) or asked about (a question on
  their zone) within one second (10 frames) of coming to rest;
- out of line: actions the board scored that the script did not have there (the players
  took them back with Undo); wrong cards: a card laid on the board in a zone where that card
  was never put;
- questions per deal and presses per question;
- one core's time a frame: median, the frames where a card lands (card finder included),
  and the card-to-board latency; how many frames the recognizer read (the rest kept the
  last reads, the mat being still) and how many of those it read only round what landed or
  left; where the time goes (the mat's markers, the finder, part and whole reads);
- whether the game ended as scripted;
- the questions by what raised them (a card found and not read, a read on no card found,
  an unclear read, ...) and the presses each kind took; ``--why`` prints every question.

Targets (issue 31): every card named or asked within a second; nothing out of line; no wrong
card; every film completes; median frame <= 30 ms; landing frame <= 100 ms.

With ``--lesson`` each deck is first taught as a player would (``learn-deck --camera``, its four
rows filmed on the mat) and read with the profile the lesson made (issue 32: with it, every
film exact and no question).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from crib_pi.actions import Crib, GameOptions
from crib_pi.cards import Card
from crib_pi.commands.session import read_presses
from crib_pi.mat import Mat
from crib_pi.session.filmstrip import film, read_settled
from crib_pi.session.pipeline import FramePipeline
from crib_pi.session.players import ScriptedPlayers, same_game
from crib_pi.session.table import Question, TableSession
from crib_pi.session.tracker import CardLaid, Tracker
from crib_pi.simulate import random_game
from crib_pi.store import GameLog
from crib_pi.vision.profile import DeckProfile
from crib_pi.vision.synth.art import ARTS

#: Six decks of plain pictures, then a cartoon and an ornamental one.
DECKS = ["7", "11", "23", "31", "47", "2024", "cartoon:5", "ornamental:9"]
FPS = 10
SECOND = 10  # frames
STABLE = 3


@dataclass
class Tally:
    laid: int = 0
    in_time: int = 0
    out_of_line: int = 0
    wrong: int = 0
    deals: int = 0
    questions: int = 0
    presses: int = 0
    complete: int = 0
    films: int = 0
    frame_ms: list[float] = field(default_factory=list)
    landing_ms: list[float] = field(default_factory=list)
    # where a frame's time goes: the mat's markers, the finder, reads of part of the frame and
    # of the whole frame, and the frames with no read at all
    markers_ms: list[float] = field(default_factory=list)
    finder_ms: list[float] = field(default_factory=list)
    part_ms: list[float] = field(default_factory=list)
    whole_ms: list[float] = field(default_factory=list)
    corner_ms: list[float] = field(default_factory=list)  # a found card read at its corners
    unread_ms: list[float] = field(default_factory=list)
    latency_s: list[float] = field(default_factory=list)
    reads: int = 0
    part_reads: int = 0
    by_indices: int = 0  # cards the finder missed, found by their two indices
    frames: int = 0
    late: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)  # questions by what raised them
    kind_presses: Counter[str] = field(default_factory=Counter)
    asked_texts: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


def taught(spec: str, zoom: float) -> DeckProfile:
    """The profile a player makes of the deck ``spec`` with the guided lesson, filmed on the mat
    (``learn-deck --camera``), as ``bench_learn_deck.py`` films it."""
    from crib_pi.session.lesson import ROW_SUITS, DeckLesson
    from crib_pi.session.lesson_film import teach_filmed
    from crib_pi.vision.recognizer import Recognizer

    deck = _deck(spec)
    rows = [[Card(r, s) for r in range(1, 14)] for s in ROW_SUITS]
    lesson = DeckLesson(Recognizer().classifier, name=spec)
    teach_filmed(lesson, rows, lambda c: deck.faces[c.index], seed=_deck_spec(spec)[1], zoom=zoom)
    return lesson.profile()


def _deck(spec: str) -> Any:
    from crib_pi.vision.synth.drawn import drawn_deck, font_paths, random_style

    art, seed = _deck_spec(spec)
    return drawn_deck(random_style(np.random.default_rng(seed), font_paths()), spec, art)


def one_film(
    players: int, spec: str, zoom: float, out: Path, profile: DeckProfile | None = None
) -> Tally:
    from crib_pi.vision.recognizer import Recognizer

    _, seed = _deck_spec(spec)
    deck = _deck(spec)
    options = GameOptions(players=players, target=121, dealer=0)
    _, actions = random_game(options, seed=seed, known=False)
    ends = [i for i, a in enumerate(actions) if isinstance(a, Crib)]
    actions = actions[: ends[1] + 1]
    film(options, actions, lambda c: deck.faces[c.index], out, seed=seed, zoom=zoom, props=True)
    mat = Mat(players)
    settled = read_settled(out)
    table = TableSession(options, GameLog(None), Tracker(stable=STABLE))
    pipeline = FramePipeline(mat, Recognizer(profile), table.tracker, find=True)
    assert pipeline.finder is not None
    scripted = ScriptedPlayers.from_film(actions, settled)
    presses = read_presses(out / "buttons.jsonl")
    t = Tally(films=1, deals=2)
    _time_calls(pipeline.locator, "update", t.markers_ms)
    _time_calls(pipeline.finder, "update", t.finder_ms)
    _time_calls(pipeline.recognizer, "read_region", t.part_ms, box_at=1)
    _time_calls(pipeline.recognizer, "read", t.whole_ms)
    _time_calls(pipeline.recognizer, "read_card", t.corner_ms)
    unhosted = _unhosted_reads(pipeline)
    named: dict[tuple[str, str], list[int]] = {}  # (card, zone) -> frames laid on the board
    asked: list[tuple[int, str]] = []  # frame, zone of each question open
    frames = sorted((out / "frames").iterdir())
    last: Question | None = None
    kind = ""  # what raised the question on the screen
    for number, path in enumerate(frames):
        image = cv2.imread(str(path))
        assert image is not None, f"{path}: not an image"
        reads = pipeline.reads
        start = time.perf_counter()
        events = pipeline.process(image)
        for event in events:
            table.on_track(event)
        took = time.perf_counter() - start
        t.frame_ms.append(took * 1000)
        if pipeline.reads == reads:
            t.unread_ms.append(took * 1000)
        if any(c.landed == pipeline.finder.frame for c in pipeline.found):
            t.landing_ms.append(took * 1000)
        for e in events:
            if isinstance(e, CardLaid):
                named.setdefault((str(e.card), e.zone), []).append(number)
                if not _was_put(e, settled, mat, number):
                    t.wrong += 1
        q = table.question
        if q is not None:
            asked.append((number, q.zone))
            if q is not last:
                kind = _kind(q, q.zone in unhosted.get(number, ()))
                t.kinds[kind] += 1
                t.asked_texts.append(f"{number}:{kind}:{q.text}")
        last = q
        before = scripted.presses
        scripted.after_frame(table, number, presses.get(number, []))
        if q is not None:
            t.kind_presses[kind] += scripted.presses - before
    scripted.finish(table)
    t.frames, t.reads, t.part_reads = len(frames), pipeline.reads, pipeline.part_reads
    t.by_indices = pipeline.found_by_indices
    for item in settled:
        if item["again"]:
            continue
        t.laid += 1
        zone = _zone(mat, item["centre"])
        first = int(item["frame"])
        window = range(first, first + SECOND + 1)
        on_board = [f for f in named.get((item["card"], zone), []) if f in window]
        in_time = bool(on_board) or any(f in window and z == zone for f, z in asked)
        t.in_time += in_time
        if not in_time:
            later = named.get((item["card"], zone), [])
            when = f"+{later[0] - first}" if later else "typed"
            t.late.append(f"{item['card']}@{first}({when})")
        if on_board:
            t.latency_s.append((on_board[0] - first) / FPS)
    t.out_of_line = len(scripted.taken_back)
    t.questions, t.presses = scripted.answered, scripted.presses
    t.complete = int(same_game([r.action for r in table.game.records], list(actions)))
    return t


def _time_calls(owner: object, name: str, into: list[float], *, box_at: int | None = None) -> None:
    """Time every call of ``owner.name`` (ms) into ``into``; with ``box_at``, only the calls
    given a box as that positional argument, or ``box`` by name (the recognizer reads the
    whole frame through ``read_region`` too, with None)."""
    method = getattr(owner, name)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return method(*args, **kwargs)
        finally:
            box = args[box_at] if box_at is not None and box_at < len(args) else kwargs.get("box")
            if box_at is None or box is not None:
                into.append((time.perf_counter() - start) * 1000)

    setattr(owner, name, timed)


def _kind(q: Question, unhosted: bool) -> str:
    """What raised a question: a card found and not read (with or without a guess at its
    corner); a read on no card found (the finder missed the card: ``unhosted``, a read in the
    question's zone in the last second that no found card hosts); a read the table doubts (a
    card read where it cannot be); a read two ways; an unclear read of a found card."""
    if q.unread:
        return "unread, guessed" if q.picks else "unread, no guess"
    if q.seen is not None:
        return "read where it cannot be"
    if unhosted:
        return "read on no card found"
    if not q.read_answers:
        return "read two ways"
    return "unclear crib card" if q.zone == "crib" else "unclear read"


def _unhosted_reads(pipeline: FramePipeline) -> dict[int, set[str]]:
    """Frame -> the zones where a read no found card hosts was taken, in that frame or the
    second before it (filled as the pipeline's ``_sight`` runs)."""
    out: dict[int, set[str]] = {}
    sight = pipeline._sight

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        sighting, host = sight(*args, **kwargs)
        if sighting is not None and host is None and sighting.zone is not None:
            frame = pipeline.frames - 1
            for f in range(frame, frame + SECOND + 1):
                out.setdefault(f, set()).add(sighting.zone)
        return sighting, host

    setattr(pipeline, "_sight", wrapped)  # noqa: B010 (a bench's instrument)
    return out


def _deck_spec(spec: str) -> tuple[str, int]:
    """``"7"`` -> ("plain", 7); ``"cartoon:5"`` -> ("cartoon", 5)."""
    art, _, seed = spec.rpartition(":")
    return art or "plain", int(seed)


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


def _zone(mat: Mat, centre: list[float]) -> str:
    zone = mat.zone_at(float(centre[0]), float(centre[1]))
    return zone.name if zone else "-"


def _was_put(event: CardLaid, settled: list[dict[str, object]], mat: Mat, frame: int) -> bool:
    """Whether ``event``'s card was laid in its zone by then (a card, not a picture of one)."""
    return any(
        s["card"] == str(event.card) and _zone(mat, s["centre"]) == event.zone  # type: ignore[arg-type]
        for s in settled
        if int(s["frame"]) <= frame  # type: ignore[call-overload]
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", choices=[2, 3, 4], default=[2, 3, 4])
    parser.add_argument("--decks", nargs="+", default=DECKS, metavar="[ART:]SEED")
    parser.add_argument("--zoom", type=float, default=0.85)
    parser.add_argument(
        "--lesson",
        action="store_true",
        help="read each deck with the profile its filmed lesson makes (learn-deck --camera)",
    )
    parser.add_argument("--why", action="store_true", help="print every question asked")
    args = parser.parse_args()
    for spec in args.decks:
        try:
            art, seed = _deck_spec(spec)
        except ValueError:
            parser.error(f"--decks {spec}: not a seed, nor ART:SEED")
        if art not in ARTS:
            parser.error(f"--decks {spec}: art {art!r} is not one of {', '.join(ARTS)}")
        if 100 <= seed <= 115:
            parser.error(f"--decks {spec}: 100 to 115 drew the training's decks; choose others")
    cv2.setNumThreads(1)
    total = Tally()
    profiles: dict[str, DeckProfile] = {}
    for players in args.players:
        for spec in args.decks:
            if args.lesson and spec not in profiles:
                profiles[spec] = taught(spec, args.zoom)
                learnt = profiles[spec].cornered
                count = 0 if learnt is None else int(learnt.sum())
                print(f"drawn:{spec}: the lesson learnt the corners of {count} cards")
            with tempfile.TemporaryDirectory() as tmp:
                t = one_film(players, spec, args.zoom, Path(tmp), profiles.get(spec))
            total.add(t)
            print(
                f"{players} players, drawn:{spec}: {t.in_time}/{t.laid} named or asked within "
                f"1 s, {t.out_of_line} out of line, {t.wrong} wrong, {t.questions} questions, "
                f"{t.presses} presses, complete: {bool(t.complete)}"
                + (f", late: {' '.join(t.late)}" if t.late else ""),
                flush=True,
            )
            if args.why:
                for text in t.asked_texts:
                    print(f"    asked at {text}")
    pct = 100 * total.in_time / max(total.laid, 1)
    print(f"films: {total.films}, complete as scripted: {total.complete}")
    print(f"cards named or asked within a second: {total.in_time} of {total.laid} ({pct:.1f}%)")
    print(f"scored out of line: {total.out_of_line}; wrong cards laid: {total.wrong}")
    print(f"cards the finder missed, found by their two indices: {total.by_indices}")
    print(
        f"questions a deal: {total.questions / max(total.deals, 1):.2f}; presses a question: "
        f"{total.presses / max(total.questions, 1):.1f}"
    )
    print(
        f"time a frame (one core): median {_median(total.frame_ms):.1f} ms; landing "
        f"frames median {_median(total.landing_ms):.1f} ms, "
        f"slowest {max(total.landing_ms or [0]):.1f} ms; recognizer ran on "
        f"{total.reads} of {total.frames} frames ({total.part_reads} of them only round a card "
        "landing or leaving)"
    )
    print(
        f"where it goes (medians): markers {_median(total.markers_ms):.1f} ms, finder "
        f"{_median(total.finder_ms):.1f} ms (90th percentile "
        f"{np.percentile(total.finder_ms or [0], 90):.1f}), a part read "
        f"{_median(total.part_ms):.1f} ms, a whole read {_median(total.whole_ms):.1f} ms, "
        f"a card read at its corners {_median(total.corner_ms):.1f} ms ({len(total.corner_ms)} "
        f"times); a frame with no read {_median(total.unread_ms):.1f} ms"
    )
    print(
        "questions by kind (presses): "
        + ", ".join(f"{k} {n} ({total.kind_presses[k]})" for k, n in total.kinds.most_common())
    )
    lat = total.latency_s or [0.0]
    print(f"card to board: median {statistics.median(lat):.2f} s, slowest {max(lat):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
