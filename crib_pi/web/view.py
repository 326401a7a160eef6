"""A ``BoardSnapshot`` as the web page shows it: every word already in the page's language.

The page itself holds no words (they come from here, through ``crib_pi.i18n``) and computes
nothing: who leads, who deals, whether a side is under skunk threat and how the game ended
are decided here, from the snapshot alone. Call ``board_view`` inside ``in_language``.
"""

from __future__ import annotations

from typing import Any

from crib_pi.cards import Card
from crib_pi.i18n import N_, _
from crib_pi.snapshot import BoardSnapshot

SKUNK_REACH = 31
"""A side this close to the target could finish in one hand and crib: skunk threat starts
(as on the screen)."""

PHASE_TITLES = {
    "cut_for_deal": N_("CUT FOR DEAL"),
    "deal": N_("DEAL"),
    "play": N_("COUNT"),
    "show": N_("SHOW"),
    "claim": N_("CLAIM"),
    "over": N_("GAME OVER"),
}
SKUNKS = {"skunk": N_("a skunk"), "double": N_("a double skunk"), "triple": N_("a triple skunk")}


def words() -> dict[str, str]:
    """The page's fixed words, in the current language."""
    return {
        "title": _("crib-pi: the board"),
        "waiting": _("waiting for the table to start a game"),
        "lost": _("connection to the table lost; trying again"),
        "last": _("LAST SCORE"),
        "nothing": _("nothing scored yet"),
        "starter": _("starter"),
        "no_cards": _("no cards played"),
        "to": _("game to {target}"),
    }


def card(c: Card) -> dict[str, str]:
    return {"rank": c.rank_name, "suit": c.suit}


def _leader(snapshot: BoardSnapshot) -> tuple[int | None, int]:
    fronts = sorted(((s.front, i) for i, s in enumerate(snapshot.sides)), reverse=True)
    if len(fronts) < 2 or fronts[0][0] == fronts[1][0]:
        return None, 0
    return fronts[0][1], fronts[0][0] - fronts[1][0]


def _threatened(snapshot: BoardSnapshot) -> set[int]:
    if not snapshot.skunk_lines or snapshot.winner is not None:
        return set()
    line = max(snapshot.skunk_lines)
    top = max(s.front for s in snapshot.sides)
    if top < snapshot.target - SKUNK_REACH:
        return set()
    return {i for i, s in enumerate(snapshot.sides) if s.front <= line and s.front < top}


def _result(snapshot: BoardSnapshot, won: int) -> str:
    """'Ann wins 121-87, a skunk': the winning side first."""
    order = [won] + [i for i in range(len(snapshot.sides)) if i != won]
    score = "-".join(str(snapshot.sides[i].front) for i in order)
    text = _("{name} wins {score}").format(name=snapshot.sides[won].name, score=score)
    if snapshot.skunk in SKUNKS:
        text = _("{text}, {skunk}").format(text=text, skunk=_(SKUNKS[snapshot.skunk]))
    return text


def _sides(snapshot: BoardSnapshot) -> list[dict[str, Any]]:
    ahead, by = _leader(snapshot)
    dealt = None if snapshot.dealer is None else snapshot.side_of(snapshot.dealer)
    won = None if snapshot.winner is None else snapshot.side_of(snapshot.winner)
    turn = None if snapshot.turn is None else snapshot.side_of(snapshot.turn)
    threatened = _threatened(snapshot)
    sides = []
    for i, side in enumerate(snapshot.sides):
        notes: list[str] = []
        if side.front != side.back and side.front > 0:
            notes.append(
                _("+{value} from {back}").format(value=side.front - side.back, back=side.back)
            )
        if dealt == i:
            notes.append(
                _("{player} deals · crib").format(player=snapshot.name_of(snapshot.dealer))
                if snapshot.dealer is not None and len(side.players) > 1
                else _("dealer · crib")
            )
        if won == i:
            notes.append(_("WINS"))
        elif ahead == i:
            notes.append(_("leads by {by}").format(by=by))
        if i in threatened:
            notes.append(_("skunk threat"))
        if side.games_won:
            notes.append(_("games {won}").format(won=side.games_won))
        sides.append(
            {
                "name": side.name,
                "front": side.front,
                "back": side.back,
                "notes": notes,
                "turn": turn == i and snapshot.phase == "play",
                "won": won == i,
                "threatened": i in threatened,
            }
        )
    return sides


def _scored_cards(snapshot: BoardSnapshot) -> list[Card]:
    """The cards named by the last scores, each once, the starter left out (as on the screen)."""
    seen: list[Card] = []
    for event in snapshot.last_events:
        for c in event.cards:
            if c not in seen and c != snapshot.starter:
                seen.append(c)
    return seen


def board_view(snapshot: BoardSnapshot | None, seq: int, banner: str = "") -> dict[str, Any]:
    """Everything the page shows, as JSON-ready values; ``seq`` numbers the snapshots."""
    view: dict[str, Any] = {"seq": seq, "banner": banner, "words": words()}
    if snapshot is None:
        view["waiting"] = True
        return view
    playing = snapshot.phase == "play"
    turn_text = ""
    if playing and snapshot.turn is not None:
        turn_text = _("{name} to play").format(name=snapshot.name_of(snapshot.turn))
    won = None if snapshot.winner is None else snapshot.side_of(snapshot.winner)
    title = _(PHASE_TITLES.get(snapshot.phase, snapshot.phase.upper()))
    view.update(
        {
            "waiting": False,
            "target": snapshot.target,
            "skunk_lines": list(snapshot.skunk_lines),
            "phase": snapshot.phase,
            "title": title,
            "sides": _sides(snapshot),
            "count": snapshot.count if playing else None,
            "turn_text": turn_text,
            "cards": [card(c) for c in (snapshot.pile if playing else _scored_cards(snapshot))],
            "starter": card(snapshot.starter) if snapshot.starter is not None else None,
            "last_text": snapshot.last_text,
            "events": [
                {
                    "points": e.points,
                    "said": e.said(),
                    "side": e.side,
                    "cards": [card(c) for c in e.cards],
                }
                for e in snapshot.last_events
            ],
            "prompt": snapshot.prompt,
            "flags": list(snapshot.flags[-3:]),
            "learn": list(snapshot.learn),
            "result": _result(snapshot, won) if won is not None else "",
        }
    )
    return view
