"""Read-only pages on the LAN: the director's live standings and a table's pairing.

The stdlib's threaded HTTP server, bound to the address the config names. A page is rendered
on the server in the reader's language (``?lang=fr``, else the command's) and kept live by
server-sent events: each change of the board pushes the page's new body within a moment.
Only GET and HEAD are answered; nothing can be changed from a page.
"""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Callable
from contextlib import nullcontext
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from crib_pi.club.director import Board
from crib_pi.errors import CribError
from crib_pi.i18n import LANGUAGES, _, current_language, in_language

Render = Callable[[dict[str, Any]], str]

STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#0d3b24;color:#f4f1e8}
main{max-width:1100px;margin:0 auto;padding:1rem}
h1{font-size:clamp(1.4rem,4vw,2.6rem);margin:.3rem 0}
h2{font-size:clamp(1.1rem,3vw,1.8rem);margin:1.2rem 0 .4rem}
table{border-collapse:collapse;width:100%;font-size:clamp(1rem,2.4vw,1.5rem)}
th,td{padding:.35rem .5rem;text-align:left;border-bottom:1px solid #2f6b4a}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
table.st tr:nth-child(2) td{font-weight:bold;color:#ffd866}
.note{color:#cfc7b0;font-size:.95rem}
.problem{color:#ffb4a2}
.big{font-size:clamp(2rem,7vw,6rem);text-align:center;margin-top:20vh;font-weight:bold}
.sub{font-size:clamp(1.2rem,4vw,2.4rem);text-align:center;color:#cfc7b0}
@media (max-width:600px){main{padding:.5rem}th,td{padding:.3rem .2rem}th{font-size:.8rem}}
"""


def address(text: str) -> tuple[str, int]:
    """``host:port`` as the config gives it."""
    host, _sep, port = text.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CribError(
            _("web address {text!r} is not host:port, e.g. 192.168.1.10:8033").format(text=text)
        )
    return host, int(port)


def standings_body(data: dict[str, Any]) -> str:
    e = html.escape
    out = [
        "<h1>"
        + e(
            _("{club}: standings after round {round}").format(
                club=data.get("club", ""), round=data.get("round", 0)
            )
        )
        + "</h1>",
        "<table class=st><tr><th class=n>#</th><th>{}</th><th class=n>{}</th><th class=n>{}</th>"
        "<th class=n>{}</th><th class=n>{}</th></tr>".format(
            e(_("player")), e(_("game points")), e(_("spread")), e(_("games")), e(_("wins"))
        ),
    ]
    for row in data.get("standings", []):
        spread = row["spread"]
        out.append(
            f"<tr><td class=n>{row['rank']}</td><td>{e(row['name'])}</td>"
            f"<td class=n>{row['points']}</td><td class=n>{spread:+d}</td>"
            f"<td class=n>{row['games']}</td><td class=n>{row['wins']}</td></tr>"
        )
    out.append("</table>")
    games = data.get("games", [])
    if games:
        out.append("<h2>" + e(_("Round {round}").format(round=data["round"])) + "</h2><table>")
        for g in games:
            a, b = g["players"]
            if g["scores"] is None:
                result = _("playing")
            else:
                result = f"{g['scores'][0]}-{g['scores'][1]}"
                if g["corrected"]:
                    result = _("{result} (corrected by the director)").format(result=result)
            out.append(
                "<tr><td>{}</td><td>{}</td><td class=n>{}</td></tr>".format(
                    e(_("Table {table}").format(table=g["table"])),
                    e(_("{a} v {b}").format(a=a, b=b)),
                    e(result),
                )
            )
        out.append("</table>")
    if data.get("bye"):
        out.append("<p class=note>" + e(_("Bye: {name}").format(name=data["bye"])) + "</p>")
    for c in data.get("corrections", []):
        out.append(
            "<p class=note>"
            + e(
                _(
                    "Correction, round {round} table {table}: {before} became {after} ({reason})"
                ).format(
                    round=c["round"],
                    table=c["table"],
                    before="-".join(map(str, c["before"])) if c["before"] else _("no result"),
                    after="-".join(map(str, c["scores"])),
                    reason=c["reason"],
                )
            )
            + "</p>"
        )
    for p in data.get("problems", []):
        out.append("<p class='note problem'>" + e(p["message"]) + "</p>")
    return "\n".join(out)


def pairing_body(data: dict[str, Any]) -> str:
    e = html.escape
    body = f"<div class=big>{e(data.get('caption', ''))}</div>"
    if data.get("round"):
        body += "<div class=sub>" + e(_("Round {round}").format(round=data["round"])) + "</div>"
    return body


def page(title: str, body: str) -> str:
    script = (
        "const s=new EventSource('events'+location.search);"
        "s.onmessage=m=>{document.querySelector('main').innerHTML=JSON.parse(m.data)};"
    )
    return (
        f"<!doctype html><html lang={current_language()}><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width,initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body><main>{body}</main><script>{script}</script></body></html>"
    )


def serve(board: Board, where: str, title: str, render: Render) -> ThreadingHTTPServer:
    """Serve ``board`` at ``where`` (host:port) in a thread; returns the server."""
    host, port = address(where)

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _language(self) -> Any:
            query = parse_qs(urlsplit(self.path).query)
            lang = (query.get("lang") or [""])[0]
            return in_language(lang) if lang in LANGUAGES else nullcontext()

        def _send(self, status: int, kind: str, text: str) -> None:
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        def do_GET(self) -> None:
            path = urlsplit(self.path).path
            with self._language():
                if path == "/":
                    self._send(200, "text/html; charset=utf-8", page(_(title), render(board.data)))
                elif path == "/data.json":
                    self._send(200, "application/json", json.dumps(board.data))
                elif path == "/events":
                    self._events()
                else:
                    self._send(404, "text/plain; charset=utf-8", _("not found"))

        do_HEAD = do_GET

        def _refuse(self) -> None:
            self._send(405, "text/plain; charset=utf-8", _("this page is read-only"))

        do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

        def _events(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            version = -1
            try:
                while not stop.is_set():
                    got, data = board.wait(version, 15.0)
                    if got == version:
                        self.wfile.write(b": still here\n\n")
                    else:
                        version = got
                        self.wfile.write(f"data: {json.dumps(render(data))}\n\n".encode())
                    self.wfile.flush()
            except OSError:
                pass

    stop = threading.Event()
    try:
        server = ThreadingHTTPServer((host, port), Handler)
    except OSError as exc:
        raise CribError(
            _("cannot serve the page at {where}: {reason}").format(
                where=where, reason=exc.strerror or exc
            )
        ) from None
    server.daemon_threads = True
    closing = server.server_close

    def close() -> None:
        stop.set()
        with board.changed:
            board.changed.notify_all()
        closing()

    server.server_close = close  # type: ignore[method-assign]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
