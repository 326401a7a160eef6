"""The shipped index classifier: small CNNs in ONNX, run by ``engine`` (no torch needed).

Outputs per patch: rank probabilities (ace..king, then "no index"), suit probabilities
(clubs, diamonds, hearts, spades, as in ``Card.index``) and a 96-value embedding that deck
profiles compare against.

Two networks of the same shape, trained on data made by different front ends, each see the
patches; where the first finds one index-like, the second gives its own probabilities and the
two are averaged. Where they disagree, neither is sure, so a card one of them misreads is
asked about instead of named. The second runs on the few index-like patches only (about 3 in
100), so it costs little time. Embeddings come from the first, which deck profiles belong to.

Averaging keeps an index cut by the edge of a card lying over it from being named (each
network half believes it is an index), but it also doubts odd-looking whole indices that one
network believes in and the other does not. A third network looks at the same few patches
twice as wide (``patches.extract_wide``), the index with the card around it, and was trained
with cut indices as its hard examples. Where it vouches that a patch is a whole index, the
most believing of the three is taken for index-likeness. Card probabilities stay the pair's
average, except where that average is not sure enough to name a card: there the three vote
(per rank and per suit, the middle of their three probabilities), so a card two of them are
sure of wins over the third's doubt, though only where the wide network finds the patch
index-like at all (a network that sees no index there has no say on which card it is). A read
the pair is already sure of is never unsettled. Where the pair is not, the suit gets a last
check: a black card's suit is told from the other black suit by its shape alone (a club at 8 px
can pass for a spade), and a red one's from the other red suit, so where any of the three gives
the same colour's other suit a real share (``DOUBT_AT``), the suit is the average of all
the networks' readings (the grey one's too), and the card is asked about. The rank is checked
the same way against the rank it may be mistaken for (``_RIVAL_RANK``: a German B jack for an 8
or a queen, an 8 cut by the card beside it for a 6). The wide network,
which sees the small suit with the card around it, is heard on the suit even where the pair
is sure and it finds no whole index: where it is sure of the colour-mate (``WIDE_MATE_AT``),
the suit is the average of all.

A grey network (``index_net_grey.onnx``) sees the same few patches in luminance only, so it
knows suits by shape, never by ink. It also checks the wide network's vouching: a patch it finds
hardly index-like (under ``GREY_VOUCH_AT``) is not vouched for, since the wide network can vouch
for an index cut by the edge of a card lying over it (an 8 whose upper loop is hidden, read as a
6). In a frame with no colour (a monochrome camera) it alone
names the suit; in a colour frame, where brown-black ink on warm card can pass for red, a
rank or suit it gives less than ``GREY_DOUBT_BELOW`` is averaged with its own reading, so the
card is asked about rather than named.

Each looked-at patch also gets a signature (``Scores.sig``): what the first, second and grey
networks made of it, as log-probabilities. A deck profile keeps each card's signature from the
lesson, since a deck the networks never saw is misread in its own, repeatable way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from crib_pi.i18n import _
from crib_pi.vision.engine import Network, load
from crib_pi.vision.errors import ModelError
from crib_pi.vision.patches import grey_patches, normalise

MODEL_NAME = "index_net.onnx"
SECOND_NAME = "index_net_b.onnx"
WIDE_NAME = "index_net_wide.onnx"
GREY_NAME = "index_net_grey.onnx"
#: In a colour frame, a leading rank or suit the grey network gives less than this is in doubt.
GREY_DOUBT_BELOW = 0.5
#: The second network looks at a patch when the first gives it at least this index probability.
#: Below it the average could not reach a name: naming needs 0.9 (``decide.NAME_AT``).
SECOND_LOOK_AT = 0.3
#: The wide network vouches for a whole index at this index probability or more ...
VOUCH_AT = 0.95
#: ... where the grey network finds the patch at least this index-like (when there is one).
GREY_VOUCH_AT = 0.1
#: The wide network has a say on which card a patch is only where it finds it this index-like.
WIDE_SAY_AT = 0.3
#: A network giving a read's rival (its suit's colour-mate; the jack, for an 8 or a queen) this
#: share puts the read in doubt.
DOUBT_AT = 0.2
#: The other suit of each suit's colour, by suit number (clubs, diamonds, hearts, spades).
_MATE = np.array([3, 2, 1, 0])
#: The rank a leading rank may be mistaken for, by rank number (ace 0 .. king 12; -1: none):
#: German decks print a jack as B, which a font no network saw can make an 8 or a D (queen),
#: so a network giving the jack ``DOUBT_AT`` where the lead is an 8 or a queen is heard; and
#: an 8 whose upper loop lies under another card is a 6, so one giving the 8 that much where
#: the lead is a 6 is heard too.
_RIVAL_RANK = np.array([-1, -1, -1, -1, -1, 7, -1, 10, -1, -1, -1, 10, -1])
#: Where the wide network gives the leading suit's colour-mate this much, the suit is the
#: average of every network's (a club in brown ink, read as a spade by the three that look at
#: the patch alone, on a deck drawn from seed 240; on the calibration sets it cost 5 cards of
#: 11,495, on the development photos none).
WIDE_MATE_AT = 0.9
#: The three networks vote on the card where the pair's read is below this: the probability
#: ``decide`` names a card at (``decide.NAME_AT``; decide imports this module, not the reverse).
UNSURE_BELOW = 0.9
#: A signature's values a network (13 ranks, 4 suits, index-likeness), and the smallest
#: probability it tells apart (log-probabilities below it are all alike: noise).
SIG_SIZE = 18
SIG_FLOOR = 1e-4
#: Patches per forward pass; bounds memory on a Pi.
BATCH = 256


@dataclass(frozen=True)
class Scores:
    """Per-patch classifier outputs."""

    rank: np.ndarray  # (n, 14)
    suit: np.ndarray  # (n, 4)
    feat: np.ndarray  # (n, k)
    cards: np.ndarray | None = None  # (n, 52) replaces rank x suit when a profile is used
    sig: np.ndarray | None = None  # (n, k) signatures (``signature``); NaN rows: not looked at

    def card_probs(self) -> np.ndarray:
        """(n, 52) probability of each card given that the patch is an index."""
        if self.cards is not None:
            return self.cards
        r = _given_index(self.rank)
        # Card.index = suit * 13 + rank - 1
        return np.asarray((self.suit[:, :, None] * r[:, None, :]).reshape(-1, 52), np.float32)

    def index_prob(self) -> np.ndarray:
        """(n,) probability that the patch is a card index at all."""
        return 1.0 - self.rank[:, 13]


def model_path(name: str = MODEL_NAME) -> Path:
    return Path(str(resources.files("crib_pi") / "data" / name))


class Classifier:
    """Loads the networks once and scores batches of patches.

    ``paths`` replaces the shipped three: one model alone, a first and a second, or a first, a
    second and a wide one. ``grey`` is the grey network: the shipped one by default (when
    ``paths`` is not given), none with ``grey=None``.
    """

    def __init__(self, paths: Sequence[Path] = (), grey: Path | str | None = "shipped") -> None:
        shipped = not paths
        paths = list(paths) or [model_path(), model_path(SECOND_NAME), model_path(WIDE_NAME)]
        if len(paths) > 3:
            raise ModelError(
                _("at most three recognition models, not {count}").format(count=len(paths))
            )
        self._nets = [load(p) for p in paths]
        if grey == "shipped":
            grey = model_path(GREY_NAME) if shipped else None
        self._grey = load(Path(grey)) if grey is not None else None

    def score(
        self,
        patches: np.ndarray,
        wide: Callable[[np.ndarray], np.ndarray] | None = None,
        colourless: bool = False,
    ) -> Scores:
        """Scores for (n, P, P, 3) uint8 patches.

        ``wide`` cuts the wide look for the patches at the indices it is given; without it
        (or without a wide network) the first two networks are simply averaged.
        ``colourless`` says the frame has no colour (``patches.colourless``).
        """
        first = _score(self._nets[0], patches)
        if len(self._nets) == 1 and self._grey is None:
            return first
        return self.second_look(first, patches, wide, colourless)

    def signature(self, patches: np.ndarray) -> np.ndarray:
        """(n, k) signatures of (n, P, P, 3) patches, the same as ``score`` gives the rows it
        looks at twice (a deck lesson takes them for every card it learns)."""
        nets = [_score(self._nets[0], patches)]
        if len(self._nets) >= 2:
            nets.append(_score(self._nets[1], patches))
        if self._grey is not None:
            nets.append(_score(self._grey, grey_patches(patches)))
        return signature(nets)

    def second_look(
        self,
        first: Scores,
        patches: np.ndarray,
        wide: Callable[[np.ndarray], np.ndarray] | None = None,
        colourless: bool = False,
    ) -> Scores:
        """The later networks' say, given the first network's ``first`` scores of ``patches``.

        Only the patches the first finds at least ``SECOND_LOOK_AT`` index-like are looked at,
        so the rest of ``patches`` may be left blank (``tools/calibrate_vision.py`` does that).
        """
        look = np.flatnonzero(first.index_prob() >= SECOND_LOOK_AT)
        first_at = Scores(first.rank[look], first.suit[look], first.feat[look])
        rank, suit = first.rank.copy(), first.suit.copy()
        grey = None
        if self._grey is not None and look.size:
            grey = _score(self._grey, grey_patches(patches[look]))
        heard = [first_at]
        if len(self._nets) >= 2:
            second = _score(self._nets[1], patches[look])
            heard.append(second)
            if len(self._nets) == 3 and wide is not None and look.size:
                third = _score(self._nets[2], patches[look], wide(look))
                rank[look], suit[look] = _three(first_at, second, third, grey)
            else:
                rank[look] = (first_at.rank + second.rank) / 2
                suit[look] = (first_at.suit + second.suit) / 2
        if grey is not None:
            rank[look], suit[look] = _grey_say(rank[look], suit[look], grey, colourless)
            heard.append(grey)
        sig = np.full((len(patches), SIG_SIZE * len(heard)), np.nan, np.float32)
        sig[look] = signature(heard)
        return Scores(rank, suit, first.feat, sig=sig)


def signature(nets: Sequence[Scores]) -> np.ndarray:
    """Each network's log-probabilities of the ranks (given an index) and of the suits, and
    its log-odds of an index, side by side (``SIG_SIZE`` values a network)."""
    parts = []
    for s in nets:
        index = np.clip(1.0 - s.rank[:, 13:14], SIG_FLOOR, 1.0 - SIG_FLOOR)
        parts += [
            np.log(np.clip(_given_index(s.rank), SIG_FLOOR, 1.0)),
            np.log(np.clip(s.suit, SIG_FLOOR, 1.0)),
            np.log(index / (1.0 - index)),
        ]
    return np.concatenate(parts, axis=1).astype(np.float32)


def _three(
    first: Scores, second: Scores, third: Scores, grey: Scores | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit from the first two networks' average, with the wide network heard (and
    its vouching checked by the grey network's index-likeness, when there is one)."""
    pair = Scores((first.rank + second.rank) / 2, (first.suit + second.suit) / 2, first.feat)
    # A whole index vouched for: the most believing network judges index-likeness.
    at = third.index_prob() >= VOUCH_AT
    if grey is not None:
        at &= grey.index_prob() >= GREY_VOUCH_AT
    none = pair.rank[:, 13].copy()
    none[at] = np.minimum.reduce([first.rank[at, 13], second.rank[at, 13], third.rank[at, 13]])
    # A close call the pair still cannot name: the three vote, each rank and suit taking the
    # middle of their three probabilities, so a card two of them are sure of wins.
    loose = pair.card_probs().max(axis=1) * (1.0 - none) < UNSURE_BELOW
    sees = third.index_prob() >= WIDE_SAY_AT
    unsure = loose & sees
    ranks, suit = _given_index(pair.rank), pair.suit.copy()
    ranks[unsure] = _middle(*(_given_index(s.rank[unsure]) for s in (first, second, third)))
    suit[unsure] = _middle(*(s.suit[unsure] for s in (first, second, third)))
    wide_suit = np.where(sees[:, None], third.suit, np.nan)
    looks = [first.suit, second.suit, wide_suit]
    heard = looks + ([grey.suit] if grey is not None else [])
    suit[loose] = _doubt(suit, _MATE[suit.argmax(axis=1)], looks, heard)[loose]
    looks = [_given_index(s.rank) for s in (first, second)]
    looks.append(np.where(sees[:, None], _given_index(third.rank), np.nan))
    heard = looks + ([_given_index(grey.rank)] if grey is not None else [])
    ranks[loose] = _doubt(ranks, _RIVAL_RANK[ranks.argmax(axis=1)], looks, heard)[loose]
    # The wide network sure of the colour-mate suit doubts any read's suit, even where it
    # finds no whole index: it sees the small suit with the card around it.
    every = [first.suit, second.suit, third.suit] + ([grey.suit] if grey is not None else [])
    suit = _doubt(suit, _MATE[suit.argmax(axis=1)], [third.suit], every, WIDE_MATE_AT)
    return np.concatenate([ranks * (1.0 - none)[:, None], none[:, None]], axis=1), suit


def _doubt(
    probs: np.ndarray,
    rival: np.ndarray,
    looks: list[np.ndarray],
    heard: list[np.ndarray],
    at: float = DOUBT_AT,
) -> np.ndarray:
    """``probs`` (a suit or a rank per row) where no network of ``looks`` gives the row's
    ``rival`` (-1: none) at least ``at``; elsewhere the average of ``heard`` (rows of NaN: a
    network not heard)."""
    rows = np.arange(len(probs))
    has = rival >= 0
    with np.errstate(invalid="ignore"):
        doubt = has & np.any([look[rows, rival] >= at for look in looks], axis=0)
    out = probs.copy()
    out[doubt] = np.nanmean(np.stack(heard), axis=0)[doubt]
    return out


def _grey_say(
    rank: np.ndarray, suit: np.ndarray, grey: Scores, colourless: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Rank and suit with the grey network heard: it names the suit where there is no colour,
    and elsewhere a leading rank or suit it hardly believes is averaged with its reading."""
    rows = np.arange(len(rank))
    suit = suit.copy()
    if colourless:
        suit = grey.suit.copy()
    else:
        doubt = grey.suit[rows, suit.argmax(axis=1)] < GREY_DOUBT_BELOW
        suit[doubt] = (suit[doubt] + grey.suit[doubt]) / 2
    ranks, theirs = _given_index(rank), _given_index(grey.rank)
    doubt = theirs[rows, ranks.argmax(axis=1)] < GREY_DOUBT_BELOW
    ranks[doubt] = (ranks[doubt] + theirs[doubt]) / 2
    none = rank[:, 13:14]
    return np.concatenate([ranks * (1.0 - none), none], axis=1), suit


def _given_index(rank: np.ndarray) -> np.ndarray:
    """(n, 13) rank probabilities given that the patch is an index."""
    return np.asarray(rank[:, :13] / np.maximum(rank[:, :13].sum(axis=1, keepdims=True), 1e-9))


def _middle(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """Per class, the middle of three networks' probabilities, summing to one again."""
    mid = np.median(np.stack([a, b, c]), axis=0)
    return np.asarray(mid / np.maximum(mid.sum(axis=1, keepdims=True), 1e-9), np.float32)


def _score(net: Network, patches: np.ndarray, wide: np.ndarray | None = None) -> Scores:
    """One network's scores for (n, P, P, 3) uint8 patches; the wide network also takes each
    patch's wide look, stacked after it channel by channel."""
    outs: list[list[np.ndarray]] = [[], [], []]
    for i in range(0, len(patches), BATCH):
        x = normalise(patches[i : i + BATCH])
        if wide is not None:
            x = np.concatenate([x, normalise(wide[i : i + BATCH])], axis=1)
        got = net.run(x)
        for lst, arr in zip(outs, got, strict=True):
            lst.append(np.asarray(arr, np.float32).reshape(len(patches[i : i + BATCH]), -1))
    if not outs[0]:
        return Scores(
            np.zeros((0, 14), np.float32),
            np.zeros((0, 4), np.float32),
            np.zeros((0, 96), np.float32),
        )
    return Scores(*(np.concatenate(o) for o in outs))
