"""Random legal games: for the demo, the property tests and the benchmarks.

``random_game`` deals real hands from a shuffled deck and plays them to the end with a
simple player (keeps a random four, lays a random card that fits), so every action it
returns is legal. With ``known=False`` it leaves out the deal and discards, as a table with
hidden hands records a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from crib_pi.actions import (
    Action,
    Claim,
    Crib,
    Cut,
    Deal,
    Discard,
    GameOptions,
    Go,
    Muggins,
    Play,
    Show,
)
from crib_pi.cards import Card, deck
from crib_pi.game import Game
from crib_pi.scoring import score_hand


def random_game(
    options: GameOptions, seed: int, *, known: bool = True, max_deals: int = 60
) -> tuple[Game, list[Action]]:
    """Play one game to its end; returns the game and the actions applied (first excluded)."""
    rng = random.Random(seed)
    game = Game(options)
    actions: list[Action] = []

    def do(action: Action) -> None:
        game.apply(action)
        actions.append(action)

    for _ in range(max_deals):
        if game.winner is not None:
            break
        play_deal(game, rng, do, known=known)
    return game, actions


def play_deal(
    game: Game, rng: random.Random, apply: Callable[[Action], object], *, known: bool = True
) -> None:
    """Deal, discard, cut, play, show and count one hand (stops if the game ends)."""
    o = game.options
    cards = deck()
    rng.shuffle(cards)
    hands = [tuple(cards[i * o.dealt : (i + 1) * o.dealt]) for i in range(o.players)]
    rest = cards[o.players * o.dealt :]
    extra = rest.pop() if o.players == 3 else None
    laid = [tuple(rng.sample(hand, o.discards)) for hand in hands]
    kept = [tuple(c for c in hand if c not in away) for hand, away in zip(hands, laid, strict=True)]
    if known:
        apply(Deal(tuple(hands), extra))
        for p, away in enumerate(laid):
            apply(Discard(p, away))
    apply(Cut(rest.pop()))
    while game.phase == "play":
        who = game.turn
        assert who is not None
        held = [c for c in kept[who] if c not in game.played(who)]
        fits = [c for c in held if game.count + c.value <= 31]
        apply(Play(who, rng.choice(fits)) if fits else Go(who))
    crib = tuple(c for away in laid for c in away) + ((extra,) if extra else ())
    shown: tuple[Card, ...] = ()
    while game.phase in ("show", "claim") and game.winner is None:
        who = game.turn
        assert who is not None and game.starter is not None
        if game.phase == "claim":
            true = score_hand(shown, game.starter, crib=shown == crib).total
            claim = true if rng.random() < 0.6 else rng.randint(0, 29)
            apply(Claim(who, claim))
            missed = game.missed
            if missed is not None and rng.random() < 0.7:
                owner_side = o.side_of(missed.owner)
                taker = next(q for q in range(o.players) if o.side_of(q) != owner_side)
                apply(Muggins(taker))
        elif game.crib_next:
            shown = crib
            apply(Crib(crib))
        else:
            shown = game.played(who)  # shown in the order laid, as a table sees them
            apply(Show(who, shown))
