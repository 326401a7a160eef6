"""The club's Mosquitto files: a password per table and for the director, and an ACL that lets
a table write only its own record topic and read only its own pairing and acknowledgements.

``crib-pi club init`` writes them (Debian's Mosquitto reads ``/etc/mosquitto/conf.d``); the
tests start a broker of their own from the same files.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
from pathlib import Path

from crib_pi.club.messages import PREFIX, topic
from crib_pi.errors import CribError
from crib_pi.i18n import _

DIRECTOR = "director"


def table_user(table: str) -> str:
    return f"table-{table}"


def acl(club: str, tables: list[str]) -> str:
    lines = [
        f"user {DIRECTOR}",
        f"topic read {PREFIX}/{club}/table/+/events",
        f"topic readwrite {PREFIX}/{club}/table/+/pairing",
        f"topic readwrite {PREFIX}/{club}/table/+/ack",
        "",
    ]
    for t in tables:
        lines += [
            f"user {table_user(t)}",
            f"topic write {topic(club, t, 'events')}",
            f"topic read {topic(club, t, 'pairing')}",
            f"topic read {topic(club, t, 'ack')}",
            "",
        ]
    return "\n".join(lines)


def conf(
    folder: Path,
    port: int,
    bind: str = "",
    *,
    standalone: bool = False,
    tls: tuple[str, str] | None = None,
    user: str = "",
) -> str:
    """The listener's settings; ``standalone`` adds persistence of its own (a broker started
    from this file alone, as the tests do; Debian's main file already has it)."""
    folder = folder.resolve()
    lines = [
        "per_listener_settings false",
        f"listener {port} {bind}".rstrip(),
        "allow_anonymous false",
        f"password_file {folder / 'passwd'}",
        f"acl_file {folder / 'acl'}",
        "max_queued_messages 200000",
        "max_inflight_messages 200",
    ]
    if tls:
        lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
    if standalone:
        lines += [
            "persistence true",
            f"persistence_location {folder / 'data'}/",
            "autosave_interval 1",
            "log_dest none",
        ]
    if user:  # run as this user (root stays root: the tests' files are root's)
        lines.append(f"user {user}")
    return "\n".join(lines) + "\n"


def write_files(folder: Path, club: str, tables: list[str]) -> dict[str, str]:
    """Write ``passwd`` (hashed by mosquitto_passwd) and ``acl``; returns each user's password."""
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise CribError(_("mosquitto_passwd is not installed (apt install mosquitto)"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "data").mkdir(exist_ok=True)
    users = {DIRECTOR: secrets.token_urlsafe(18)}
    users.update({table_user(t): secrets.token_urlsafe(18) for t in tables})
    passwd = folder / "passwd"
    passwd.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
    passwd.chmod(0o640)
    done = subprocess.run([tool, "-U", str(passwd)], capture_output=True, text=True)
    if done.returncode != 0:
        raise CribError(
            _("mosquitto_passwd could not hash {path}: {error}").format(
                path=passwd, error=done.stderr.strip()
            )
        )
    (folder / "acl").write_text(acl(club, tables))
    _give_to_mosquitto(folder, passwd, folder / "acl", folder / "data")
    return users


def _give_to_mosquitto(*paths: Path) -> None:
    """As root, hand the files to Debian's ``mosquitto`` user: the broker reads them after it
    drops root's rights (and refuses a password file the world can read)."""
    if os.geteuid() != 0:
        return
    try:
        owner = pwd.getpwnam("mosquitto")
    except KeyError:
        return
    for path in paths:
        os.chown(path, owner.pw_uid, owner.pw_gid)
