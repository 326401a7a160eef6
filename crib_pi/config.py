"""The one configuration file: game rules, players, the session, the database and devices.

TOML, read from ``CRIB_PI_CONFIG``, else ``/etc/crib-pi/config.toml``, else the user's
``~/.config/crib-pi/config.toml``; with none of them the defaults are used. Every key is
checked before anything starts: an unknown key or a bad value is refused with its name.

    language = "fr"        # words shown and said: "en", "fr"; "" (default) follows LANG

    [game]
    players = 2            # 2, 3 or 4 (4: partnerships, players 0 & 2 against 1 & 3)
    target = 121           # 121 or 61
    muggins = false        # players count their own hands; missed points can be taken
    triple_skunk = false   # the house rule: a loser at 30 or less of 121 is triple-skunked
    dealer = "cut"         # "cut" for deal at the table, or a player number

    [players]
    names = ["Ann", "Bob"] # shown on the screen and kept in the history

    [session]
    fps = 10               # camera frames a second
    stable = 3             # frames a card must be read alike before it counts
    deck = ""              # a deck profile from `crib-pi learn-deck`, or "" for none
    find_cards = false     # find each card on the mat before reading it (issue 31, on trial):
                           # an unread card is asked about, a picture of a card never counts
    learn = false          # learn mode: next steps, the rule behind each score, cautions,
                           # open-hand practice (a hold of Confirm turns it on or off)
    guided = 0             # 1, 2 or 3: play that guided hand (learn mode, 2 players,
                           # player 0 dealing, muggins off); 0 for none

    [store]
    db = ""                # the game database; "" = the service's state folder

    [devices]              # buttons, LED strip, screen, camera: see docs/devices.md

    [club]                 # a club's tables: see crib_pi/club/config.py

    [web]                  # the board, read-only, in a browser on the LAN (off by default):
                           # enabled, bind, port, language, clients, banner (crib_pi/web/config.py)
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crib_pi.actions import GameOptions
from crib_pi.club.config import ClubConfig
from crib_pi.devices.config import DeviceConfig
from crib_pi.errors import CribError
from crib_pi.i18n import LANGUAGES, _
from crib_pi.known_keys import reject_unknown
from crib_pi.players import player_name
from crib_pi.web.config import WebConfig

SYSTEM_PATH = Path("/etc/crib-pi/config.toml")


class ConfigError(CribError):
    """A configuration file that cannot be used; names the file and the key."""


def user_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "crib-pi" / "config.toml"


def find_config() -> Path | None:
    """The file in force: ``CRIB_PI_CONFIG``, the system one, the user's, or None."""
    if os.environ.get("CRIB_PI_CONFIG"):
        return Path(os.environ["CRIB_PI_CONFIG"])
    for path in (SYSTEM_PATH, user_path()):
        if path.exists():
            return path
    return None


@dataclass(frozen=True)
class SessionConfig:
    fps: float = 10.0
    stable: int = 3
    deck: str = ""
    learn: bool = False
    guided: int = 0
    find_cards: bool = False


@dataclass(frozen=True)
class AppConfig:
    game: GameOptions = field(default_factory=lambda: GameOptions(dealer=None))
    session: SessionConfig = field(default_factory=SessionConfig)
    db: str = ""
    devices: DeviceConfig = field(default_factory=DeviceConfig)
    path: Path | None = None
    language: str = ""
    club: ClubConfig = field(default_factory=ClubConfig)  # [club]: crib_pi/club/config.py
    web: WebConfig = field(default_factory=WebConfig)  # [web]: crib_pi/web/config.py

    def describe(self) -> str:
        g, s = self.game, self.session
        on, off = _("on"), _("off")
        dealer = _("cut for deal") if g.dealer is None else player_name(g.dealer, g.names)
        names = ", ".join(g.names) if g.names else _("(player numbers)")
        leds = self.devices.leds
        buttons = self.devices.buttons.buttons
        pins = ", ".join(f"{b.name} GPIO{b.pin}" for b in buttons if b.pin is not None)
        lines = [
            _("config file: {path}").format(path=self.path or _("none (defaults)")),
            _("language: {language}").format(language=self.language or _("LANG's")),
            _(
                "game: {players} players to {target}, muggins {muggins}, triple skunk {triple}, "
                "dealer: {dealer}"
            ).format(
                players=g.players,
                target=g.target,
                muggins=on if g.muggins else off,
                triple=on if g.triple_skunk else off,
                dealer=dealer,
            ),
            _("players: {names}").format(names=names),
            _(
                "session: {fps:g} fps, a card counts after {stable} frames, deck profile: {deck}"
            ).format(fps=s.fps, stable=s.stable, deck=s.deck or _("none"))
            + (_(", learn mode on") if s.learn else "")
            + (_(", guided hand {n}").format(n=s.guided) if s.guided else ""),
            _("database: {db}").format(db=self.db or _("the state folder")),
            _(
                "devices: backend {backend}, buttons {pins}, LEDs {driver} on GPIO{pin}, "
                "limit {amps:g} A"
            ).format(
                backend=self.devices.backend or _("chosen at start"),
                pins=pins,
                driver=leds.driver,
                pin=leds.pin,
                amps=leds.max_amps,
            ),
            _("board on the web: {where}").format(
                where=f"http://{self.web.bind}:{self.web.port}/" if self.web.enabled else _("off")
            ),
        ]
        return "\n".join(lines)


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise ConfigError(_("[{key}] must be a table").format(key=key))
    return value


def _typed(table: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    value = table[key]
    if isinstance(value, bool) and kind is not bool:
        raise ConfigError(
            _("{where}.{key} = {value!r} is not a number").format(where=where, key=key, value=value)
        )
    if not isinstance(value, kind):
        raise ConfigError(
            _("{where}.{key} = {value!r} has the wrong type").format(
                where=where, key=key, value=value
            )
        )
    return value


def from_mapping(data: Mapping[str, Any], path: Path | None = None) -> AppConfig:
    reject_unknown(
        data,
        {"language", "game", "players", "session", "store", "devices", "club", "web"},
        "",
        ConfigError,
    )
    language = data.get("language", "")
    if not isinstance(language, str) or (language and language not in LANGUAGES):
        raise ConfigError(
            _('language = {language!r} is not one of {known} (or "" for LANG\'s)').format(
                language=language, known=", ".join(LANGUAGES)
            )
        )
    game = _table(data, "game")
    reject_unknown(
        game, {"players", "target", "muggins", "triple_skunk", "dealer"}, "game.", ConfigError
    )
    players = _table(data, "players")
    reject_unknown(players, {"names"}, "players.", ConfigError)
    session = _table(data, "session")
    reject_unknown(
        session, {"fps", "stable", "deck", "learn", "guided", "find_cards"}, "session.", ConfigError
    )
    store = _table(data, "store")
    reject_unknown(store, {"db"}, "store.", ConfigError)
    dealer: Any = game.get("dealer", "cut")
    if dealer == "cut":
        dealer = None
    elif not isinstance(dealer, int) or isinstance(dealer, bool):
        raise ConfigError(
            _('game.dealer = {dealer!r} is not "cut" or a player number').format(dealer=dealer)
        )
    names = players.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ConfigError(_("players.names = {names!r} is not a list of names").format(names=names))
    try:
        options = GameOptions(
            players=game.get("players", 2),
            target=game.get("target", 121),
            dealer=dealer,
            muggins=game.get("muggins", False),
            triple_skunk=game.get("triple_skunk", False),
            names=tuple(names),
        )
    except CribError as exc:
        raise ConfigError(_game_error(str(exc))) from None
    fps = float(_typed(session, "fps", (int, float), "session")) if "fps" in session else 10.0
    stable = int(_typed(session, "stable", int, "session")) if "stable" in session else 3
    if not 0 < fps <= 60:
        raise ConfigError(
            _("session.fps = {fps:g}: give more than 0 and at most 60 frames a second").format(
                fps=fps
            )
        )
    if not 1 <= stable <= 30:
        raise ConfigError(_("session.stable = {stable} is not 1 to 30").format(stable=stable))
    deck = str(_typed(session, "deck", str, "session")) if "deck" in session else ""
    learn = bool(_typed(session, "learn", bool, "session")) if "learn" in session else False
    guided = int(_typed(session, "guided", int, "session")) if "guided" in session else 0
    find_cards = "find_cards" in session and bool(_typed(session, "find_cards", bool, "session"))
    if guided not in (0, 1, 2, 3):
        raise ConfigError(
            _("session.guided = {n} is not 0 (none) or a guided hand 1, 2, 3").format(n=guided)
        )
    if guided and (options.players, options.dealer, options.muggins) != (2, 0, False):
        raise ConfigError(
            _(
                "session.guided = {n}: a guided hand is for game.players = 2, "
                "game.dealer = 0 and game.muggins = false"
            ).format(n=guided)
        )
    db = str(_typed(store, "db", str, "store")) if "db" in store else ""
    try:
        devices = DeviceConfig.from_mapping(_table(data, "devices"))
    except CribError as exc:
        raise ConfigError(str(exc)) from None
    session_config = SessionConfig(fps, stable, deck, learn or bool(guided), guided, find_cards)
    try:
        club = ClubConfig.from_mapping(_table(data, "club"))
    except CribError as exc:
        raise ConfigError(str(exc)) from None
    try:
        web = WebConfig.from_mapping(_table(data, "web"))
    except CribError as exc:
        raise ConfigError(str(exc)) from None
    return AppConfig(options, session_config, db, devices, path, language, club, web)


def _game_error(text: str) -> str:
    """``target must be 61 or 121, not 100`` -> ``game.target must be ...``: the key where it
    is written (``names`` is in ``[players]``, the others in ``[game]``)."""
    key = text.split(" ", 1)[0]
    if key == "names":
        return f"players.{text}"
    if key in ("players", "target", "dealer", "muggins", "triple_skunk"):
        return f"game.{text}"
    return _("[game]: {exc}").format(exc=text)


#: Longest configuration file read: ``--file /dev/zero`` is refused, not read for ever.
MAX_CONFIG_BYTES = 1_000_000


def configured_language(path: Path | None = None) -> str:
    """The config's ``language`` ("" when unset); a config that cannot be read gives "" here
    (the command that needs the config says what is wrong with it)."""
    try:
        return load(path).language
    except (ConfigError, OSError):
        return ""


def load(path: Path | None = None) -> AppConfig:
    """Read and check the configuration in force (or ``path``)."""
    chosen = path or find_config()
    if chosen is None:
        return AppConfig()
    try:
        with chosen.open("rb") as handle:
            raw = handle.read(MAX_CONFIG_BYTES + 1)
        if len(raw) > MAX_CONFIG_BYTES:
            raise ConfigError(
                _("{chosen}: longer than {limit} MB; not a configuration file").format(
                    chosen=chosen, limit=MAX_CONFIG_BYTES // 1_000_000
                )
            )
        data = tomllib.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(_("{chosen}: no such configuration file").format(chosen=chosen)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            _("{chosen}: not valid TOML ({exc})").format(chosen=chosen, exc=exc)
        ) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(
            _("{chosen}: not UTF-8 text (byte {start}), so not TOML").format(
                chosen=chosen, start=exc.start
            )
        ) from None
    except RecursionError:
        raise ConfigError(
            _("{chosen}: nested too deeply to be a configuration").format(chosen=chosen)
        ) from None
    except IsADirectoryError:
        raise ConfigError(
            _("{chosen}: is a folder, not a configuration file").format(chosen=chosen)
        ) from None
    except OSError as exc:
        raise ConfigError(f"{chosen}: {exc.strerror or exc}") from None
    try:
        return from_mapping(data, chosen)
    except ConfigError as exc:
        raise ConfigError(f"{chosen}: {exc}") from None
