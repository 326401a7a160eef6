"""``crib-pi run``: the assistant, with the best devices present.

On a Pi: its camera, buttons, LED strip and screen; on a laptop: a webcam, keys and a window.
With no camera at all (or ``--demo``) it plays the built-in demo: a short two-player game
filmed on the mat with the project's own card faces and played through the real recognition,
the session (mat finding, tracking, the table's rules, the buttons) and the board, in a window
when there is a display, otherwise written as board images and a summary. Scripted players
sit at the demo table: where the camera misses or doubts a card they answer the screen or type
the card in, as people would, and the summary says how often. ``--service`` is how systemd
runs it (notify, watchdog).

SIGTERM, Ctrl-C and the window's close button stop it within a second, in the demo as in the
live game: a Python handler for SIGTERM is installed before SDL starts (SDL otherwise turns
SIGTERM into a quit event that nobody may be reading), and the window is pumped throughout.
Each says "stopped" and ends with the usual status: 130 for Ctrl-C (SIGINT), 143 for SIGTERM,
0 for the window closed. Under ``--service`` SIGTERM is systemd's own way to stop the service,
so it ends with 0, which systemd counts as a clean stop (``Restart=on-failure`` leaves it
stopped) without a ``SuccessExitStatus`` line in the unit.
"""

from __future__ import annotations

import argparse
import faulthandler
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from crib_pi.actions import GameOptions
from crib_pi.errors import CribError
from crib_pi.i18n import _, ngettext
from crib_pi.store import GameLog


def add_parser(sub: Any) -> None:
    p = sub.add_parser("run", help=_("start the assistant (a demo game without a camera)"))
    p.add_argument("--config", type=Path, help=_("configuration file (default: the one in force)"))
    p.add_argument("--players", type=int, choices=(2, 3, 4), help=_("instead of the config's"))
    p.add_argument("--target", type=int, choices=(61, 121), help=_("instead of the config's"))
    p.add_argument("--muggins", action="store_true", default=None, help=_("muggins on"))
    p.add_argument("--db", type=Path, help=_("game database (default: the state folder)"))
    p.add_argument("--service", action="store_true", help=_("run under systemd (notify, watchdog)"))
    p.add_argument("--demo", action="store_true", help=_("play the built-in demo game"))
    p.add_argument("--out", type=Path, default=Path("crib-pi-demo"), help=_("demo board images"))
    p.add_argument("--seed", type=int, default=7, help=_("the demo's shuffle"))
    p.set_defaults(func=run)


class Stopped(BaseException):
    """SIGTERM or the window closed: unwinds whatever the command is doing, cleanly.

    A ``BaseException`` so that no ``except Exception`` on the way swallows it.
    """


def _raise_stopped(signum: int, frame: FrameType | None) -> None:
    raise Stopped(signal.Signals(signum).name)


def no_desktop_window(device_config: Any) -> None:
    """On a laptop with no display (ssh, CI) use SDL's dummy driver: probing Wayland and X11
    there only prints warnings (XDG_RUNTIME_DIR) before the window fails anyway."""
    from crib_pi.devices.factory import choose_backend

    desktop = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    chosen = choose_backend(device_config)
    if chosen == "desktop" and not desktop and not device_config.screen.driver:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _recognizer(problems: list[str], deck: str | None = None) -> Any:
    """The card recognizer, or one that reads nothing (cards can then be typed in).

    ``deck``: the configuration's ``session.deck``; "" means the profile the guided
    ``learn-deck --camera`` saved, when there is one; None (the demo) means none.
    """
    try:
        from crib_pi.vision.recognizer import Recognizer

        return Recognizer(_deck_profile(problems, deck))
    except Exception as exc:
        from crib_pi.session.pipeline import NoRecognizer

        problems.append(
            _("card recognition is not available ({exc}); cards can be typed in").format(exc=exc)
        )
        return NoRecognizer()


def _deck_profile(problems: list[str], deck: str | None) -> Any:
    """The deck profile the table reads with, or None; one that cannot be used is a problem
    said at start-up, and the table reads without it."""
    from crib_pi.i18n import _
    from crib_pi.session.lesson import learnt_deck_path
    from crib_pi.vision.errors import DeckProfileError
    from crib_pi.vision.profile import DeckProfile

    if deck is None:
        return None
    path = Path(deck) if deck else learnt_deck_path()
    if not deck and not path.is_file():
        return None
    try:
        return DeckProfile.load(path)
    except DeckProfileError as exc:
        problems.append(_("{problem}; cards are read without a deck profile").format(problem=exc))
        return None


def run(args: argparse.Namespace) -> int:
    if args.service:  # a crash or a hang (SIGABRT) leaves every thread's traceback in the journal
        faulthandler.enable()
    handlers: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
        signal.signal(signal.SIGTERM, _raise_stopped)  # before SDL, so SDL leaves it to us
    try:
        return _run(args)
    except Stopped as why:
        print(_("crib-pi: stopped ({why})").format(why=why), file=sys.stderr)
        return stopped_status(str(why), service=args.service)
    except KeyboardInterrupt:
        print(_("crib-pi: stopped ({why})").format(why="Ctrl-C"), file=sys.stderr)
        return stopped_status("SIGINT", service=args.service)
    finally:
        for sig, handler in handlers.items():  # as they were (the tests run it in-process)
            signal.signal(sig, handler)


def stopped_status(why: str, *, service: bool = False) -> int:
    """The usual exit status for a stop: 128 + the signal's number (130 for SIGINT, 143 for
    SIGTERM), 0 for SIGTERM under systemd (its normal stop) and for a closed window."""
    if why == "SIGTERM" and service:
        return 0
    if why in ("SIGINT", "SIGTERM"):
        return 128 + int(signal.Signals[why])
    return 0


def _run(args: argparse.Namespace) -> int:
    import dataclasses

    from crib_pi.config import load
    from crib_pi.devices import make_devices
    from crib_pi.devices.cameras.base import NullCamera

    config = load(args.config)
    changes = {
        k: v
        for k, v in (("players", args.players), ("target", args.target), ("muggins", args.muggins))
        if v is not None
    }
    if "players" in changes and len(config.game.names) != args.players:
        changes["names"] = ()
    config = dataclasses.replace(config, game=dataclasses.replace(config.game, **changes))
    no_desktop_window(config.devices)
    devices = None
    try:
        devices = make_devices(config.devices)
        if args.demo or (devices.backend != "pi" and isinstance(devices.camera, NullCamera)):
            return demo(args, devices, config.game.names)
        return live(args, devices, config)
    finally:
        if devices is not None:
            devices.close()


def live(args: argparse.Namespace, devices: Any, config: Any) -> int:
    from crib_pi.app import LIVE, Assistant, describe
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.store import GameLog, StoreError, check_ours, default_db, open_store
    from crib_pi.web.server import start_board_server

    if args.db and not args.service:
        check_ours(args.db)  # a --db typed now that is not ours: say so, rather than play on
    problems = describe(devices)
    options = config.game
    state = None
    try:
        store = open_store(args.db or (Path(config.db) if config.db else default_db()))
        if store.notice:
            problems.append(store.notice)
        record = store.latest_unfinished()
        saved = store.session(record) if record is not None else None
        if record is not None and saved is not None and saved[0] == LIVE:
            state = saved[2]
            log = GameLog(store, record, store.lines(record), batch=True)
        else:
            log = GameLog(store, batch=True)
    except StoreError as exc:
        problems.append(_("{exc}; the game is kept in memory only").format(exc=exc))
        log = GameLog(None)
    table = TableSession(options, log, Tracker(stable=config.session.stable))
    table.set_learn(config.session.learn, config.session.guided)
    if state is not None and not table.restore(state):
        problems.append("the saved table state did not match the game; the mat is read afresh")
    recognizer = _recognizer(problems, config.session.deck)
    web = start_board_server(config.web, problems)  # the board in a browser, if [web] says so
    assistant = Assistant(
        devices, table, recognizer, fps=config.session.fps, find_cards=config.session.find_cards
    )
    assistant.listeners += [web.publish] if web is not None else []
    club = join_club(config, assistant, web, log.store, problems)  # if [club] names this table
    for problem in problems:
        print(f"crib-pi: {problem}", file=sys.stderr)
    try:
        if club is not None:
            club.start()
        assistant.run(service=args.service)
    finally:
        if club is not None:
            club.close()
        if web is not None:
            web.close()
    signalled = assistant.signalled
    if signalled is not None:
        why = signal.Signals(signalled).name
        print(
            _("crib-pi: stopped ({why})").format(why="Ctrl-C" if why == "SIGINT" else why),
            file=sys.stderr,
        )
        return stopped_status(why, service=args.service)
    return 0


def _say(line: str) -> None:
    print(f"crib-pi: {line}", file=sys.stderr, flush=True)


def join_club(
    config: Any, assistant: Any, web: Any, store: Any, problems: list[str], *, patience: float = 3.0
) -> Any:
    """The club's link when ``[club]`` names this table (not yet started), else None.

    Its pairing is shown above the board and on the page's banner as it comes. A pairing needs
    a game begun after it, under its players' names, to be counted: one that comes before the
    table's game has begun sets that game up afresh at once; one that comes while a game is
    under way waits for it to end, and then Confirm starts the pairing's game (the caption
    says so). What stops it from starting is a start-up problem; the game goes on without it.
    """
    import dataclasses

    from crib_pi.club.attable import LinkThread, Pairing, waits
    from crib_pi.club.link import paho
    from crib_pi.session.table import TableSession
    from crib_pi.store import GameLog

    club = config.club
    if not club.table:
        return None  # no table of a club (or the director's machine)
    if not (club.club and club.key):
        problems.append(_("[club] needs club, table and key for a table to join its club"))
        return None
    try:
        paho()
    except CribError as exc:
        problems.append(str(exc))
        return None
    if store is None:
        problems.append(
            _("[club] table {table}: the club's link needs the game database").format(
                table=club.table
            )
        )
        return None
    playable = assistant.table.options.players == 2
    if not playable:
        problems.append(
            _(
                "[club] table {table}: a club game is for two players, not {players}; "
                "the pairings are shown, no game is set up for them"
            ).format(table=club.table, players=assistant.table.options.players)
        )
    latest: list[Pairing] = []  # the last pairing taken in, on the main loop

    def waiting() -> Pairing | None:
        table = assistant.table
        if not (playable and latest and waits(latest[-1], table.log.record, table.options.names)):
            return None
        return latest[-1]

    def new_game(pairing: Pairing) -> None:
        old = assistant.table
        if old.game.phase == "over":
            old.tracker.ignore_everything()  # the last game's cards are still on the mat
        options = dataclasses.replace(old.options, names=pairing.players)
        table = TableSession(options, GameLog(store, batch=True), old.tracker)
        table.set_learn(old.learn is not None)
        assistant.new_table(table)

    def take(pairing: Pairing) -> bool:
        latest[:] = [pairing]
        if waiting() is not None and len(assistant.table.log.memory) <= 1:
            new_game(pairing)  # nothing played yet: the game is set up for the pairing
        return True

    def caption() -> str:
        if not latest:
            return ""
        if waiting() is not None and assistant.table.game.phase == "over":
            return _("{caption} · Confirm starts this game").format(caption=latest[-1].caption)
        return latest[-1].caption

    def before_press(press: Any) -> bool:
        pairing = waiting()
        if press.button != "confirm" or pairing is None or assistant.table.game.phase != "over":
            return False
        new_game(pairing)
        return True

    def on_pairing(pairing: Pairing) -> None:  # in the link's thread
        if web is not None:
            web.set_banner(pairing.caption)
        assistant.chores.put(lambda: take(pairing))

    assistant.caption = caption
    assistant.before_press = before_press
    return LinkThread(club, Path(store.path), on_pairing, say=_say, patience=patience)


class _Progress:
    """Keeps the window alive and says how far the demo has got, every few seconds.

    ``tick`` is called often (every card drawn, every frame read): it pumps the window's
    events, so that its close button stops the demo at once, and prints a line at most every
    ``every`` seconds.
    """

    def __init__(self, devices: Any, windowed: bool, table: Any, every: float = 3.0) -> None:
        self.devices = devices
        self.windowed = windowed
        self.table = table
        self.every = every
        self.last = time.monotonic()

    def tick(self, say: Callable[[], str] | None = None, *, on_board: bool = False) -> None:
        if self.windowed and self.devices.screen.pump():
            raise Stopped("the window was closed")
        now = time.monotonic()
        if say is not None and now - self.last >= self.every:
            self.last = now
            line = say()
            print(f"crib-pi: {line}", flush=True)
            if self.windowed and on_board:  # the board says it too, while it has nothing else
                self.table.message = line
                self.devices.show(self.table.snapshot())
                self.table.message = ""


def demo(args: argparse.Namespace, devices: Any, names: tuple[str, ...] = ()) -> int:
    """The built-in filmed game, two players to 61 (named as configured, when two are)."""
    import cv2

    from crib_pi.commands.session import read_presses
    from crib_pi.mat import Mat
    from crib_pi.records import replay_lines
    from crib_pi.session.faces import plain_face
    from crib_pi.session.filmstrip import film, read_settled
    from crib_pi.session.pipeline import FramePipeline
    from crib_pi.session.players import ScriptedPlayers
    from crib_pi.session.table import TableSession
    from crib_pi.session.tracker import Tracker
    from crib_pi.simulate import random_game
    from crib_pi.store import StoreError, check_ours, open_store
    from crib_pi.voice.words import Announcer

    windowed = devices.backend == "desktop" and bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    )
    if not windowed:
        check_out_folder(args.out)
    options = GameOptions(players=2, target=61, dealer=0, names=names if len(names) == 2 else ())
    _game, actions = random_game(options, seed=args.seed, known=False)
    log = GameLog(None)
    source = f"demo:{args.seed}"  # a demo record's mark: which demo it is, to go on with it
    if args.db:
        check_ours(args.db)  # a path that is not a game database: refused, left alone
        try:
            store = open_store(args.db)
        except StoreError as exc:  # e.g. read-only: said once, the file left as it is
            said = _("{exc}; the game is kept in memory only").format(exc=exc)
            print(f"crib-pi: {said}", file=sys.stderr)
        else:
            if store.notice:
                print(f"crib-pi: {store.notice}", file=sys.stderr)
            log = _demo_log(store, source, args.db)
    table = TableSession(options, log, Tracker(stable=3))
    if log.store is not None and log.record is not None and not isinstance(log, CarriedOn):
        log.store.save(log.record, [], session=(source, 0, {}))
    progress = _Progress(devices, windowed, table)
    announcer = Announcer(
        devices.config.voice.spoken_language()
    )  # the demo speaks when it is watched
    if windowed:
        devices.show(table.snapshot())  # the board at once, while the table is filmed
    print(_("crib-pi: no camera found: playing the built-in demo game (two players, to 61)"))
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        print(_("crib-pi: filming the demo table (about 700 frames) ..."), flush=True)

        def filmed() -> str:
            return _("filming the demo table: {count} frames so far").format(
                count=len(os.listdir(out / "frames"))
            )

        def face(card: Any) -> Any:
            progress.tick(filmed, on_board=True)
            return plain_face(card)

        film(options, actions, face, out, seed=args.seed)
        problems: list[str] = []
        recognizer = _recognizer(problems)
        for problem in problems:
            print(f"crib-pi: {problem}", file=sys.stderr)
        players = ScriptedPlayers.from_film(actions, read_settled(out))
        pipeline = FramePipeline(Mat(2), recognizer, table.tracker)
        presses = read_presses(out / "buttons.jsonl")
        images = 0
        if not windowed:
            args.out.mkdir(parents=True, exist_ok=True)
        frames = sorted((out / "frames").iterdir())
        print(
            _("crib-pi: playing the {count} frames through the recognition").format(
                count=len(frames)
            ),
            flush=True,
        )
        number = 0

        def played() -> str:
            scores = " - ".join(map(str, table.game.scores))
            return _("frame {number} of {count} read, scores {scores}").format(
                number=number, count=len(frames), scores=scores
            )

        for number, path in enumerate(frames):
            progress.tick(played)
            started = time.monotonic()
            before = (table.game.phase, len(table.log.memory))
            image = cv2.imread(str(path))
            for event in pipeline.process(image) if image is not None else []:
                table.on_track(event)
            players.after_frame(table, number, presses.get(number, []))
            if windowed:
                devices.show(table.snapshot())
                narration = announcer.after(table)
                devices.voice.withdraw(set(narration.withdraw))
                for utterance in narration.say:
                    devices.voice.say(utterance)
                time.sleep(max(0.0, 0.1 - (time.monotonic() - started)))
            elif table.game.phase != before[0] and table.game.phase in ("deal", "over"):
                images += 1
                _save_board(table, args.out / f"board-{images:02d}.png")
        before = (table.game.phase, len(table.log.memory))
        players.finish(table)  # what the camera never gave, typed in at the end
        if not windowed and table.game.phase == "over" and before[0] != "over":
            images += 1
            _save_board(table, args.out / f"board-{images:02d}.png")
    log.commit()
    summary = replay_lines(table.log.memory).summary()
    if not windowed:
        record = args.out / "demo-game.jsonl"
        record.write_text("\n".join(table.log.memory) + "\n", encoding="utf-8")
        print(
            ngettext(
                "crib-pi: {images} board image and the game record are in {out}/",
                "crib-pi: {images} board images and the game record are in {out}/",
                images,
            ).format(images=images, out=args.out)
        )
    if log.store is not None:
        print(_("crib-pi: the game is stored in {db}").format(db=args.db))
    elif log.problem:
        print(f"crib-pi: {log.problem}", file=sys.stderr)
    print(f"crib-pi: {_result(summary, options.names)}")
    print(f"crib-pi: {players.report()}")
    return 0


def _demo_log(store: Any, source: str, db: Path) -> Any:
    """The demo's log: a new record, or the record of this same demo stopped before its end
    (SIGTERM, Ctrl-C, the window closed), which the demo then goes on with."""
    record = store.latest_unfinished()
    saved = store.session(record) if record is not None else None
    if record is None or saved is None or saved[0] != source:
        return GameLog(store)
    stored = store.lines(record)
    print(
        _(
            "crib-pi: game record {record} in {db} is this demo, stopped before its end; "
            "it goes on there ({count} lines kept)"
        ).format(record=record, db=db, count=len(stored)),
        flush=True,
    )
    return CarriedOn(store, record, stored)


class CarriedOn(GameLog):
    """An interrupted demo's record, gone on with: the demo is played again from its start
    (the same seed plays the same game), the lines the record holds already are checked
    rather than written again, and the rest are stored as they come. Should the game differ
    from the record, it goes to a new record instead, whole, and the old one is left as is."""

    def __init__(self, store: Any, record: int, stored: list[str]) -> None:
        super().__init__(store, record)
        self.stored = stored
        self.actions: list[Any] = []
        self.options: GameOptions | None = None

    def start(self, options: GameOptions) -> None:
        from crib_pi.actions import NewGame
        from crib_pi.records import format_line

        self.options = options
        self.memory = [format_line(NewGame(options))]
        if self.memory[0] != self.stored[0]:
            self._apart()

    def append(self, action: Any, *, finished: bool = False) -> None:
        from crib_pi.records import format_line

        line = format_line(action)
        self.actions.append(action)
        if self.stored and len(self.memory) < len(self.stored):
            self.memory.append(line)
            if line != self.stored[len(self.memory) - 1]:
                self._apart()
            return
        super().append(action, finished=finished)

    def _apart(self) -> None:
        """The game is not the record's: all of it to a new record."""
        from crib_pi.store import StoreError

        self.stored = []
        if self.store is None or self.options is None:
            return
        try:
            self.record = self.store.new_record(self.options)
            self.store.save(self.record, list(self.actions))
        except StoreError as exc:
            self._fail(exc)


def check_out_folder(out: Path) -> None:
    """Before the demo films (20 s and more): ``--out`` is, or can be made as, a folder that
    can be written; a probe file is made and removed there (the only test that holds for root
    and on a read-only disk alike)."""
    if out.exists() and not out.is_dir():
        raise CribError(
            _("--out {out}: not a folder (the demo writes board images there)").format(out=out)
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        raise CribError(
            _("--out {out}: the board images cannot be written there ({reason})").format(
                out=out, reason=exc.strerror or exc
            )
        ) from None


def _result(summary: dict[str, Any], names: tuple[str, ...] = ()) -> str:
    """'Bob wins 61-29, a skunk': the winner's score first, the skunk only if one."""
    from crib_pi.commands.replay import who_won

    if summary["winner"] is None:
        return "no winner yet: " + "-".join(map(str, summary["scores"]))
    return who_won(summary["winner"], summary["scores"], summary["skunk"], 2, names)


def _save_board(table: Any, path: Path) -> None:
    """Draw the board as the screen shows it, without a display (SDL's dummy driver)."""
    from crib_pi.devices.config import ScreenConfig
    from crib_pi.devices.report import Reporter
    from crib_pi.devices.screen.pygame_ce import PygameScreen

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    screen = PygameScreen(ScreenConfig(size=(800, 480)), Reporter())
    try:
        screen.show(table.snapshot())
        screen.save(str(path))
    finally:
        screen.close()
