"""The panels around the board: scores, the count, the last score in words, flags, prompt.

Each panel draws only from the snapshot (and the button hints), inside the box it is given.
"""

from __future__ import annotations

import pygame

from crib_pi.cards import Card
from crib_pi.devices.screen import style as st
from crib_pi.devices.screen.base import Hint
from crib_pi.devices.screen.layout import Box
from crib_pi.devices.snapshot_view import dealer_side, leader, skunk_threatened, winning_side
from crib_pi.i18n import N_, _
from crib_pi.snapshot import BoardSnapshot

PHASE_TITLES = {
    "cut_for_deal": N_("CUT FOR DEAL"),
    "deal": N_("DEAL"),
    "show": N_("SHOW"),
    "claim": N_("CLAIM"),
    "over": N_("GAME OVER"),
}


def draw_scores(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, unit: int) -> None:
    """One card per side: name, big score, back peg, dealer and crib, lead, turn, winner."""
    cards = box.columns(len(snapshot.sides), unit * 2)
    ahead, by = leader(snapshot)
    dealt = dealer_side(snapshot)
    won = winning_side(snapshot)
    turn = None if snapshot.turn is None else snapshot.side_of(snapshot.turn)
    threatened = skunk_threatened(snapshot)
    for i, (card, side) in enumerate(zip(cards, snapshot.sides, strict=True)):
        colour = st.side_colour(i)
        edge = st.GOLD if won == i else colour if turn == i else None
        st.panel(surface, card, st.PANEL, edge)
        stripe = Box(card.x, card.y, max(6, unit), card.h)
        pygame.draw.rect(
            surface,
            colour,
            pygame.Rect(stripe.x, stripe.y, stripe.w, stripe.h),
            border_top_left_radius=unit,
            border_bottom_left_radius=unit,
        )
        pad = unit * 2
        name_size = max(16, card.h // 4)
        st.text(
            surface,
            side.name,
            name_size,
            st.TEXT,
            (card.x + pad + unit, card.y + pad // 2),
            max_w=int(card.w * 0.48),
        )
        big = int(card.h * 0.66)
        while big > 20 and st.font(big).size(str(side.front))[0] > card.w * 0.42:
            big -= 4
        number = st.text(
            surface,
            str(side.front),
            big,
            colour,
            (card.right - pad, card.y + card.h // 2 + unit),
            "midright",
        )
        text_w = number.left - (card.x + pad + unit) - unit
        small = max(14, int(card.h / 5.5))
        y = card.y + pad // 2 + name_size + unit // 2
        lines: list[tuple[str, st.RGB]] = []
        if side.front != side.back and side.front > 0:
            lines.append(
                (
                    _("+{value} from {back}").format(value=side.front - side.back, back=side.back),
                    st.DIM,
                )
            )
        if dealt == i:
            who = (
                _("{player} deals · crib").format(player=snapshot.name_of(snapshot.dealer))
                if snapshot.dealer is not None and len(side.players) > 1
                else _("dealer · crib")
            )
            lines.append((who, st.GOLD))
        if won == i:
            lines.append((_("WINS") + _skunk_words(snapshot.skunk, " · "), st.GOLD))
        elif ahead == i:
            lines.append((_("leads by {by}").format(by=by), st.TEXT))
        if i in threatened:
            lines.append((_("skunk threat"), st.shade(st.SKUNK, 1.3)))
        if side.games_won:
            lines.append((_("games {won}").format(won=side.games_won), st.DIM))
        for words, tint in lines:
            if y + small > card.bottom - unit:
                break
            st.text(surface, words, small, tint, (card.x + pad + unit, y), max_w=text_w)
            y += small + unit // 2


def draw_card(surface: pygame.Surface, card: Card, box: Box) -> None:
    """A small card face: rank in the corner, suit shape in the middle."""
    rect = pygame.Rect(box.x, box.y, box.w, box.h)
    pygame.draw.rect(surface, st.CARD, rect, border_radius=max(3, box.w // 8))
    pygame.draw.rect(surface, (120, 120, 120), rect, width=1, border_radius=max(3, box.w // 8))
    colour = st.RED_SUIT if card.suit in "HD" else st.BLACK_SUIT
    st.text(
        surface,
        card.rank_name,
        int(box.h * 0.42),
        colour,
        (box.x + box.w // 2, box.y + box.h // 4 + 2),
        "center",
    )
    st.suit(surface, card.suit, (box.x + box.w // 2, box.y + int(box.h * 0.7)), int(box.w * 0.5))


def draw_play(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, unit: int) -> None:
    """The count and the pile while pegging, else the cards just scored; and the starter."""
    st.panel(surface, box)
    pad = unit * 2
    label = max(15, box.h // 7)
    card_h = int(min(box.h * 0.55, box.w * 0.24))
    card_w = int(card_h * 0.7)
    right = box.right - pad - (card_w + pad if snapshot.starter else 0)
    if snapshot.phase == "play":
        title = _("COUNT")
        st.text(
            surface,
            str(snapshot.count),
            int(box.h * 0.55),
            st.TEXT,
            (box.x + pad, box.y + pad // 2 + label),
        )
        if snapshot.turn is not None:
            side = snapshot.side_of(snapshot.turn)
            who = snapshot.sides[side]
            name = who.name if len(who.players) == 1 else snapshot.name_of(snapshot.turn)
            st.text(
                surface,
                _("{name} to play").format(name=name),
                label,
                st.side_colour(side),
                (box.x + pad, box.bottom - pad // 2),
                "bottomleft",
                max_w=int(box.w * 0.3),
            )
        x = box.x + pad + int(box.w * 0.32)
        cards = list(snapshot.pile)
        if not cards:
            st.text(
                surface, _("no cards played"), label, st.DIM, (x, box.y + box.h // 2), "midleft"
            )
    else:
        title = _(PHASE_TITLES.get(snapshot.phase, snapshot.phase.upper()))
        x = box.x + pad
        cards = _cards_scored(snapshot)
        if cards:
            title = _("{title}: CARDS SCORED").format(title=title)
        else:
            st.text(surface, _("no cards yet"), label, st.DIM, (x, box.y + box.h // 2), "midleft")
    _card_row(surface, cards, x, right, box.y + (box.h - card_h) // 2 + label // 3, card_w, unit)
    st.text(surface, title, label, st.DIM, (box.x + pad, box.y + pad // 2))
    if snapshot.starter is not None:
        sx = box.right - pad - card_w
        sy = box.y + (box.h - card_h) // 2 + label // 3
        st.text(
            surface,
            _("starter"),
            max(10, label * 3 // 4),
            st.DIM,
            (sx + card_w // 2, sy - 2),
            "midbottom",
        )
        draw_card(surface, snapshot.starter, Box(sx, sy, card_w, card_h))


def _card_row(
    surface: pygame.Surface, cards: list[Card], x: int, right: int, y: int, card_w: int, unit: int
) -> None:
    """Cards left to right from ``x``, overlapping when they would pass ``right``."""
    if not cards:
        return
    card_h = int(card_w / 0.7)
    step = card_w + unit
    if len(cards) > 1 and x + step * (len(cards) - 1) + card_w > right:
        step = max(unit * 2, (right - x - card_w) // (len(cards) - 1))
    for card in cards:
        draw_card(surface, card, Box(x, y, card_w, card_h))
        x += step


def _cards_scored(snapshot: BoardSnapshot) -> list[Card]:
    """The cards named by the last scoring events, each once, starter left out."""
    seen: list[Card] = []
    for event in snapshot.last_events:
        for card in event.cards:
            if card not in seen and card != snapshot.starter:
                seen.append(card)
    return seen


def draw_event(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, unit: int) -> None:
    """The last score said aloud ("fifteen two, and a pair is four") and itemised."""
    st.panel(surface, box)
    pad = unit * 2
    label = max(15, box.h // 7)
    st.text(surface, _("LAST SCORE"), label, st.DIM, (box.x + pad, box.y + pad // 2))
    y = box.y + pad // 2 + label + unit // 2
    words = snapshot.last_text or _("nothing scored yet")
    size = max(18, box.h // 6)
    for line in st.wrap(words, size, box.w - 2 * pad)[:2]:
        st.text(surface, line, size, st.TEXT if snapshot.last_text else st.DIM, (box.x + pad, y))
        y += size
    y += unit // 2
    events = snapshot.last_events
    item = max(15, box.h // 8)
    columns = 2 if len(events) > 2 and box.w > item * 24 else 1
    per_column = max(1, (box.bottom - unit - y) // (item + 2))
    col_w = (box.w - 2 * pad) // columns
    for n, event in enumerate(events[: per_column * columns]):
        column, row = divmod(n, per_column)
        cards = " ".join(str(c) for c in event.cards)
        line = f"+{event.points} {event.said()}" + (f"  {cards}" if cards else "")
        at = (box.x + pad + column * col_w, y + row * (item + 2))
        st.text(surface, line, item, st.side_colour(event.side), at, max_w=col_w - unit)


def draw_flags(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, unit: int) -> None:
    """Muggins flags and warnings, newest last, on amber so they are not missed."""
    flags = snapshot.flags[-2:]
    if not flags or box.h <= 0:
        return
    h = (box.h - unit * (len(flags) - 1)) // len(flags)
    for n, flag in enumerate(flags):
        band = Box(box.x, box.y + n * (h + unit), box.w, h)
        st.panel(surface, band, st.AMBER)
        mid = band.y + h // 2
        st.text(surface, "!", int(h * 0.85), st.BACKGROUND, (band.x + unit * 3, mid), "center")
        st.text(
            surface,
            flag,
            int(h * 0.62),
            st.BACKGROUND,
            (band.x + unit * 6, mid),
            "midleft",
            max_w=band.w - unit * 8,
        )


def draw_learn(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, unit: int) -> None:
    """Learn mode's words, most important first: as many lines as fit, at the largest size
    (down to a floor) that fits them all."""
    if not snapshot.learn or box.h <= 0:
        return
    st.panel(surface, box, st.PANEL, st.GOLD)
    pad = unit * 2
    label = max(13, box.h // 14)
    st.text(surface, _("LEARN"), label, st.GOLD, (box.x + pad, box.y + pad // 2))
    top = box.y + pad // 2 + label + unit // 2
    room = box.bottom - unit - top
    width = box.w - 2 * pad
    size = max(12, box.h // 9)
    while True:
        wrapped = [st.wrap(line, size, width) for line in snapshot.learn]
        height = sum(len(w) for w in wrapped) * size + unit // 2 * (len(wrapped) - 1)
        if height <= room or size <= 12:
            break
        size -= 1
    y = top
    for n, lines in enumerate(wrapped):
        colour = st.AMBER if snapshot.learn[n].startswith(_("Careful")) else st.TEXT
        for line in lines:
            if y + size > box.bottom - unit // 2:
                return
            st.text(surface, line, size, colour if n else st.GOLD, (box.x + pad, y), max_w=width)
            y += size
        y += unit // 2


def draw_prompt(
    surface: pygame.Surface, box: Box, snapshot: BoardSnapshot, hints: tuple[Hint, ...], unit: int
) -> None:
    """What the game waits for, and what each button does now."""
    size = max(14, int(box.h * 0.52))
    chip_size = max(12, int(size * 0.68))
    x = box.right
    for button, meaning in reversed(hints):
        words = f"{button}: {_(meaning)}"
        w = st.font(chip_size).size(words)[0] + unit * 3
        x -= w
        chip = Box(x, box.y + box.h // 8, w, box.h * 3 // 4)
        st.panel(surface, chip, st.PANEL, st.PANEL_EDGE)
        st.text(
            surface, words, chip_size, st.TEXT, (chip.x + w // 2, chip.y + chip.h // 2), "center"
        )
        x -= unit
    room = max(10, x - box.x - unit)
    prompt = snapshot.prompt or ""
    lines = [prompt]
    if st.font(size).size(prompt)[0] > room:  # too long for one line: two smaller lines
        size = max(12, int(size * 0.7))
        lines = st.wrap(prompt, size, room)[:2]
    top = box.y + (box.h - size * len(lines)) // 2
    for n, line in enumerate(lines):
        st.text(surface, line, size, st.TEXT, (box.x, top + n * size), max_w=room)


def draw_caption(surface: pygame.Surface, box: Box, caption: str, unit: int) -> None:
    """A club's pairing across the top ("Table 4: Alice v Bob"), gold on a panel, centred and
    as large as the band allows, so the players find their table from across the room."""
    if not caption or box.h <= 0:
        return
    st.panel(surface, box, st.PANEL, st.GOLD)
    centre = (box.x + box.w // 2, box.y + box.h // 2)
    st.text(surface, caption, int(box.h * 0.8), st.GOLD, centre, "center", max_w=box.w - 4 * unit)


def draw_win(surface: pygame.Surface, box: Box, snapshot: BoardSnapshot) -> None:
    """A banner across the board: who won, the final score, and any skunk."""
    won = winning_side(snapshot)
    if won is None:
        return
    veil = pygame.Surface((box.w, box.h), pygame.SRCALPHA)
    veil.fill((10, 12, 16, 150))
    surface.blit(veil, (box.x, box.y))
    winner = snapshot.sides[won]
    others = sorted((s.front for i, s in enumerate(snapshot.sides) if i != won), reverse=True)
    score = " – ".join(str(n) for n in (winner.front, *others))
    centre = box.x + box.w // 2
    st.text(
        surface,
        _("{name} wins!").format(name=winner.name),
        int(box.h * 0.3),
        st.side_colour(won),
        (centre, box.y + int(box.h * 0.38)),
        "center",
        max_w=box.w - 20,
    )
    tail = score + _skunk_words(snapshot.skunk, "  ·  ")
    st.text(
        surface,
        tail,
        int(box.h * 0.18),
        st.GOLD,
        (centre, box.y + int(box.h * 0.7)),
        "center",
        max_w=box.w - 20,
    )


def _skunk_words(skunk: str, joiner: str) -> str:
    """How the win is said: nothing for a plain win, else "skunk", "double skunk", ..."""
    if skunk in ("", "none"):
        return ""
    words = {"skunk": N_("skunk"), "double": N_("double skunk"), "triple": N_("triple skunk")}
    return joiner + _(words.get(skunk, skunk))
