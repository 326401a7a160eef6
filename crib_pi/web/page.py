"""The board page: HTML, style and script, served as they are (no files are read at run time).

The page holds no words and no rules: it draws what ``/events`` sends (``crib_pi.web.view``),
with ``textContent`` only, so a name or a message can never become markup. One column on a
phone held upright; on a wide screen (a TV) the pegs on the left and the play on the right,
sized to the screen's height so they read across a room.
"""

from __future__ import annotations

import html

HTML = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>{title}</title>
<link rel="stylesheet" href="/board.css">
</head>
<body data-seq="-1">
<header id="banner" hidden></header>
<p id="status">{waiting}</p>
<main id="board" hidden>
  <section id="sides"></section>
  <section id="play" class="panel">
    <h2 id="title"></h2>
    <div id="count"></div>
    <div id="turn"></div>
    <div id="cards" class="cards"></div>
    <div id="starter-box" hidden><span id="starter-label"></span><span id="starter"></span></div>
  </section>
  <section id="last" class="panel">
    <h2 id="last-label"></h2>
    <p id="last-text"></p>
    <ul id="events"></ul>
  </section>
  <section id="ask">
    <p id="result" hidden></p>
    <p id="prompt"></p>
    <ul id="flags"></ul>
    <ul id="learn"></ul>
  </section>
</main>
<script src="/board.js"></script>
</body>
</html>
"""

CSS = """
:root { --bg: #10141a; --panel: #1c232d; --text: #eef2f6; --dim: #8c99a8; --gold: #f2c14e;
  --amber: #f29e38; --s0: #4fa3f7; --s1: #ef5b5b; --s2: #5fd38d; --s3: #c58af9;
  --big: clamp(2.6rem, 16vw, 7rem); --mid: clamp(1.1rem, 5vw, 2rem);
  --small: clamp(0.9rem, 3.8vw, 1.4rem); }
* { box-sizing: border-box; }
html, body { margin: 0; background: var(--bg); color: var(--text);
  font-family: system-ui, "DejaVu Sans", sans-serif; font-size: var(--small); }
body { padding: 0.6em; }
#banner { font-size: var(--mid); font-weight: 700; text-align: center; color: var(--gold);
  padding: 0.2em 0 0.4em; }
#status { color: var(--dim); text-align: center; font-size: var(--mid); }
#status.lost { color: var(--amber); }
main { display: grid; gap: 0.6em; grid-template-columns: 1fr; }
.panel { background: var(--panel); border-radius: 0.5em; padding: 0.5em 0.7em; }
h2 { margin: 0; font-size: var(--small); color: var(--dim); letter-spacing: 0.05em; }
#sides { display: grid; gap: 0.6em; }
.side { background: var(--panel); border-radius: 0.5em; padding: 0.4em 0.7em 0.5em;
  border-left: 0.5em solid var(--c); border-right: 0.2em solid transparent; }
.side.turn { border-right-color: var(--c); }
.side.won { outline: 0.15em solid var(--gold); }
.side .head { display: flex; justify-content: space-between; align-items: baseline; gap: 0.5em; }
.side .name { font-size: var(--mid); overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.side .score { font-size: var(--big); font-weight: 700; color: var(--c); line-height: 1; }
.side .notes { color: var(--dim); min-height: 1.2em; }
.side .notes span + span::before { content: " · "; }
.side.won .notes { color: var(--gold); }
.side.threat .notes { color: var(--amber); }
.track { position: relative; height: 1.4em; margin: 0.35em 0.4em 0.3em;
  background: repeating-linear-gradient(90deg, #2c3642 0 1px, transparent 1px calc(100% / 24));
  border-radius: 0.7em; border: 1px solid #2c3642; }
.track .line { position: absolute; top: -0.2em; bottom: -0.2em; width: 2px;
  background: var(--amber); opacity: 0.7; }
.track .peg { position: absolute; top: 50%; width: 1em; height: 1em; margin: -0.5em 0 0 -0.5em;
  border-radius: 50%; background: var(--c); transition: left 0.4s; }
.track .peg.back { opacity: 0.45; }
#count { font-size: var(--big); font-weight: 700; line-height: 1.05; }
#count:empty { display: none; }
#turn { color: var(--dim); }
.cards { display: flex; flex-wrap: wrap; gap: 0.3em; margin: 0.3em 0; min-height: 2.2em; }
.card { display: inline-flex; align-items: center; justify-content: center; min-width: 2.1em;
  padding: 0.15em 0.35em; border-radius: 0.3em; background: #f7f7f2; color: #111;
  font-weight: 700; font-size: var(--mid); }
.card.red { color: #c0262d; }
.cards .none { color: var(--dim); }
#starter-box { display: flex; align-items: center; gap: 0.5em; color: var(--dim); }
#last-text { font-size: var(--mid); margin: 0.2em 0; }
#last-text.none { color: var(--dim); }
#events { list-style: none; margin: 0; padding: 0; }
#events li { color: var(--c); padding: 0.1em 0; }
#events .pts { font-weight: 700; margin-right: 0.4em; }
#events .card { font-size: var(--small); padding: 0 0.25em; margin-left: 0.25em; min-width: 0; }
#ask p { margin: 0.3em 0; }
#prompt { font-size: var(--mid); }
#result { font-size: var(--mid); font-weight: 700; color: var(--gold); text-align: center; }
#flags, #learn { list-style: none; margin: 0; padding: 0; }
#flags li { background: var(--amber); color: #111; border-radius: 0.4em; padding: 0.3em 0.6em;
  margin: 0.3em 0; font-weight: 600; }
#learn li { color: var(--dim); margin: 0.2em 0; }
[hidden] { display: none !important; }
@media (min-aspect-ratio: 4/3) and (min-width: 800px) {
  :root { --big: 15vh; --mid: 4.4vh; --small: 2.9vh; }
  body { padding: 2vh 2.5vw; }
  main { grid-template-columns: 3fr 2fr; grid-template-rows: auto auto 1fr; column-gap: 2vw;
    row-gap: 2vh; min-height: 88vh; }
  #sides { grid-row: 1 / span 3; grid-auto-rows: 1fr; gap: 2vh; }
  .side { padding: 1.5vh 1.5vw 2vh; display: flex; flex-direction: column;
    justify-content: space-between; }
  .track { height: 3.4vh; }
  .track .peg { width: 2.6vh; height: 2.6vh; margin: -1.3vh 0 0 -1.3vh; }
}
"""

JS = """
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = { S: "\\u2660", H: "\\u2665", D: "\\u2666", C: "\\u2663" };
let words = null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function cardEl(c) {
  return el("span", "card" + (c.suit === "H" || c.suit === "D" ? " red" : ""),
    c.rank + (SUITS[c.suit] || c.suit));
}

function fill(node, children) {
  node.replaceChildren(...children);
}

function place(target, points) {
  return (100 * Math.max(0, Math.min(points, target)) / target) + "%";
}

function side(v, s, i) {
  const box = el("div", "side");
  box.style.setProperty("--c", "var(--s" + (i % 4) + ")");
  box.classList.toggle("turn", s.turn);
  box.classList.toggle("won", s.won);
  box.classList.toggle("threat", s.threatened);
  const head = el("div", "head");
  head.append(el("span", "name", s.name), el("span", "score", String(s.front)));
  const track = el("div", "track");
  for (const line of v.skunk_lines) {
    const mark = el("span", "line");
    mark.style.left = place(v.target, line);
    track.append(mark);
  }
  const back = el("span", "peg back");
  back.style.left = place(v.target, s.back);
  const front = el("span", "peg front");
  front.style.left = place(v.target, s.front);
  track.append(back, front);
  const notes = el("div", "notes");
  for (const note of s.notes) notes.append(el("span", "", note));
  box.append(head, track, notes);
  return box;
}

function render(v) {
  words = v.words;
  document.title = words.title;
  $("banner").textContent = v.banner || "";
  $("banner").hidden = !v.banner;
  $("status").className = "";
  $("status").textContent = v.waiting ? words.waiting : "";
  $("status").hidden = !v.waiting;
  $("board").hidden = v.waiting;
  document.body.dataset.seq = String(v.seq);
  if (v.waiting) return;
  fill($("sides"), v.sides.map((s, i) => side(v, s, i)));
  $("title").textContent = v.title + " \\u00b7 " + words.to.replace("{target}", v.target);
  $("count").textContent = v.count === null ? "" : String(v.count);
  $("turn").textContent = v.turn_text;
  fill($("cards"), v.cards.length ? v.cards.map(cardEl)
    : [el("span", "none", v.count === null ? "" : words.no_cards)]);
  $("starter-box").hidden = !v.starter;
  $("starter-label").textContent = words.starter;
  fill($("starter"), v.starter ? [cardEl(v.starter)] : []);
  $("last-label").textContent = words.last;
  $("last-text").textContent = v.last_text || words.nothing;
  $("last-text").className = v.last_text ? "" : "none";
  fill($("events"), v.events.map((e) => {
    const li = el("li");
    li.style.setProperty("--c", "var(--s" + (e.side % 4) + ")");
    li.append(el("span", "pts", "+" + e.points), el("span", "said", e.said),
      ...e.cards.map(cardEl));
    return li;
  }));
  $("result").textContent = v.result;
  $("result").hidden = !v.result;
  $("prompt").textContent = v.prompt;
  fill($("flags"), v.flags.map((f) => el("li", "", f)));
  fill($("learn"), v.learn.map((l) => el("li", "", l)));
}

function connect() {
  const source = new EventSource("/events?lang=" + document.documentElement.lang);
  source.onmessage = (m) => render(JSON.parse(m.data));
  source.onerror = () => {
    if (words && source.readyState !== EventSource.OPEN) {
      $("status").textContent = words.lost;
      $("status").className = "lost";
      $("status").hidden = false;
    }
  };
}
connect();
"""


def page(language: str, title: str, waiting: str) -> str:
    """The page's HTML in ``language`` (its first words before the first event comes)."""
    return HTML.format(lang=language, title=html.escape(title), waiting=html.escape(waiting))
