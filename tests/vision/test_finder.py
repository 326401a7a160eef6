"""The card finder: cards found as paper on the mat, and indices that count only at a card's
corner (a picture of a card on a card back is never a card)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from crib_pi.actions import Crib, GameOptions
from crib_pi.cards import Card
from crib_pi.mat import PX_PER_MM, Mat
from crib_pi.session.faces import card_box, plain_face
from crib_pi.session.filmstrip import INDEX_TOP_LEFT, Film, Placed, Prop, film, read_settled
from crib_pi.session.locate import MatLocator
from crib_pi.simulate import random_game
from crib_pi.vision import finder as finder_module
from crib_pi.vision.finder import (
    ADOPT_EVERY,
    KEEP,
    LINGER,
    SCALE,
    CardFinder,
    FoundCard,
    card_at,
    card_between,
    card_shapes,
    host,
)
from crib_pi.vision.glyphs import ink_map
from tests.conftest import ink_only_face

MM = PX_PER_MM


def _card(cx: float, cy: float, angle: float = 0.0) -> FoundCard:
    """A 63 x 88 mm card centred at (cx, cy) mm, turned by ``angle`` degrees."""
    box = cv2.boxPoints(((cx * MM, cy * MM), (63 * MM, 88 * MM), angle))
    return FoundCard(0, tuple((float(x), float(y)) for x, y in box), 0)


def _index(x0: float, y0: float, w: float = 10, h: float = 22) -> list[tuple[float, float]]:
    """An upright index outline, top-left at (x0, y0) mm."""
    return [(x0 * MM, y0 * MM), ((x0 + w) * MM, y0 * MM), ((x0 + w) * MM, (y0 + h) * MM),
            (x0 * MM, (y0 + h) * MM)]  # fmt: skip


def test_an_index_counts_at_each_corner_of_its_card() -> None:
    card = _card(100, 100)  # spans x 68.5-131.5, y 56-144 mm
    assert host([card], _index(70, 58)) == card
    assert host([card], _index(120, 120)) == card
    assert host([card], _index(70, 120)) == card
    assert host([card], _index(120, 58)) == card


def test_a_picture_of_a_card_is_not_a_card() -> None:
    card = _card(100, 100)
    assert host([card], _index(95, 90)) is None  # in the middle: a picture on a back or a box
    assert host([card], _index(70, 58, 3, 6)) is None  # at the corner but far too small
    assert host([card], _index(70, 58, 22, 10)) is None  # lying across the card
    assert host([card], _index(84, 74)) is None  # a pictured card's corner, inset
    assert host([card], _index(200, 200)) is None  # on no card at all


def _turned_index(x1: float, y1: float, w: float = 10, h: float = 22) -> list[tuple[float, float]]:
    """An index turned half round, its bottom-right at (x1, y1) mm: its outline top-left
    first as it stands (the card's bottom-right index)."""
    return [(x1 * MM, y1 * MM), ((x1 - w) * MM, y1 * MM), ((x1 - w) * MM, (y1 - h) * MM),
            (x1 * MM, (y1 - h) * MM)]  # fmt: skip


def test_a_card_lies_between_its_two_corner_indices() -> None:
    """A card the finder missed, read whole, is outlined from its two indices: poker-sized,
    centred between them; indices that do not lie as one card's are no card."""
    # the card of ``_card(100, 100)``: spans x 68.5-131.5, y 56-144 mm
    quad = card_between(_index(70, 58), _turned_index(130, 142))
    assert quad is not None
    assert quad.mean(axis=0) / MM == pytest.approx((100, 100), abs=0.5)
    (_, _), (w, h), _ = cv2.minAreaRect(quad.astype(np.float32))
    assert sorted((w / MM, h / MM)) == pytest.approx([63, 88], abs=0.5)
    turned = card_between(_turned_index(130, 142), _index(70, 58))  # read from the other end
    assert turned is not None and turned.mean(axis=0) / MM == pytest.approx((100, 100), abs=0.5)
    # a card whose indices lie well in (46 across, 47 along), and a deck box's ace pictured
    # at 70% (36 across, 46 along)
    assert card_between(_index(70, 58), _turned_index(126, 127)) is not None
    assert card_between(_index(70, 58), _turned_index(116, 126)) is None
    # a picture of a card half the size (a box, a pack's back): too small, too near
    assert card_between(_index(70, 58, 5, 11), _turned_index(100, 100, 5, 11)) is None
    # two cards' indices, both upright
    assert card_between(_index(70, 58), _index(120, 120)) is None
    # two cards' indices turned to each other, a row apart
    assert card_between(_index(70, 58), _turned_index(230, 142)) is None


def test_a_card_read_whole_where_none_was_found_is_found_when_proposed(tmp_path: Path) -> None:
    """The reader's word that a card lies somewhere (``propose``) is taken where the mat shows
    something still there, and not twice; the bare mat is no card whatever is read."""
    face = ink_only_face(180, twin=False)  # ink the finder does not take for a card's face
    mat = Mat(2)
    f = Film(mat, lambda c: face, tmp_path, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    placed = Placed(Card(7, "S"), (270 * MM, 150 * MM), 0.0)  # on the crib spot
    f.lay(placed)
    for _ in range(2):
        f.shoot()
    _, finder, _ = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    assert finder.cards == []
    bare = cv2.boxPoints(((120 * MM, 150 * MM), (63 * MM, 88 * MM), 0.0))
    assert finder.propose(bare) is None  # nothing lies there
    quad = cv2.boxPoints(((270 * MM, 150 * MM), (63 * MM, 88 * MM), 0.0))
    card = finder.propose(quad)
    assert card is not None and finder.cards == [card] and card.landed == finder.frame
    assert np.hypot(card.centre[0] - 270 * MM, card.centre[1] - 150 * MM) < MM
    assert host(finder.cards, _index(240.5, 108)) == card  # its index is now its own
    assert finder.propose(quad) is None  # found already
    # 6 mm off (not the same outline): what lies there is the reference's now, whose going
    # nothing would tell
    assert finder.propose(quad + np.float32(6 * MM)) is None


def test_a_card_taken_for_gone_under_a_white_card_is_put_back_when_that_card_is_read_whole(
    tmp_path: Path,
) -> None:
    """A white card laid over most of the last one, a few millimetres off, shows the mat's
    white where that card lay: the finder takes it for gone and the new card for the mat. Read
    whole and proposed, the new card is found on top and the one below is put back."""
    faces = {Card(7, "S"): ink_only_face(315), Card(8, "S"): ink_only_face(180, twin=False)}
    mat = Mat(2)
    f = Film(mat, lambda c: faces[c], tmp_path, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    f.lay(Placed(Card(7, "S"), (200 * MM, 240 * MM), 0.0))
    for _ in range(3):
        f.shoot()
    f.lay(Placed(Card(8, "S"), (203 * MM, 243 * MM), 0.0))
    for _ in range(3):
        f.shoot()
    _, finder, history = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    assert any(len(cards) == 1 for cards in history) and finder.cards == []  # found, then lost
    quad = cv2.boxPoints(((203 * MM, 243 * MM), (63 * MM, 88 * MM), 0.0))
    top = finder.propose(quad)
    assert top is not None
    below, above = finder.cards
    assert above == top and below.id == 0 and below.landed < top.landed
    assert np.hypot(below.centre[0] - 200 * MM, below.centre[1] - 240 * MM) < 2 * MM


def test_a_white_card_laid_over_a_young_card_is_found_when_read_whole(tmp_path: Path) -> None:
    """A white card laid over a card that landed a moment before (a crib spread), its change
    lying within that card, is taken for the young card's look (``_settle``: glare on the
    frame it landed in). Read whole and proposed, it is found on top, the card below as it
    landed under it: lifted, the card below is seen again and the top card goes."""
    inset = np.full((880, 630, 4), 255, np.uint8)  # all its ink well inside its edges
    cv2.putText(inset, "8", (110, 220), cv2.FONT_HERSHEY_SIMPLEX, 3.4, (30, 30, 30, 255), 10)
    for x, y in ((315, 440), (250, 600)):
        cv2.circle(inset, (x, y), 45, (30, 30, 30, 255), -1)
    faces = {Card(7, "S"): ink_only_face(315), Card(8, "S"): inset}
    mat = Mat(2)
    f = Film(mat, lambda c: faces[c], tmp_path, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    f.lay(Placed(Card(7, "S"), (280 * MM, 150 * MM), 0.0))
    f.lay(Placed(Card(8, "S"), (300 * MM, 154 * MM), 0.0))  # the next, straight after
    for _ in range(4):
        f.shoot()
    locator, finder, history = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    assert [len(cards) for cards in history][-4:] == [1, 1, 1, 1]  # the 8S never found
    below = finder.cards[0]
    quad = cv2.boxPoints(((300 * MM, 154 * MM), (63 * MM, 88 * MM), 0.0))
    top = finder.propose(quad)
    assert top is not None and finder.cards == [below, top]
    f.lift(Card(8, "S"))
    for _ in range(3):
        f.shoot()
    for path in sorted(tmp_path.glob("*.jpg"))[-3:]:
        image = cv2.imread(str(path))
        homography = locator.update(image)
        assert homography is not None
        finder.update(image, homography)
    assert finder.cards == [below]


def test_a_card_is_not_taken_for_gone_under_a_landing_card_kept_while_its_outline_broke(
    tmp_path: Path,
) -> None:
    """On a frame where glare or a hand breaks a landing card's outline, its patch is kept
    (``KEEP``, then fading): the card it lies over is still covered by it, not gone (taken
    for gone, the reference would take the new card in, and it would never be found). Here
    the card below is lifted: gone, but not while a kept patch lies over it."""
    mat = Mat(2)
    f = Film(mat, plain_face, tmp_path, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    f.lay(Placed(Card(13, "D"), (200 * MM, 90 * MM), 0.0))
    found = len(list(tmp_path.glob("*.jpg")))
    f.lift(Card(13, "D"))
    frames = sorted(tmp_path.glob("*.jpg"))
    over = cv2.boxPoints(((200 * SCALE, 90 * SCALE), (70 * SCALE, 97 * SCALE), 0.0))
    for kept in (False, True):
        locator, finder, _ = _watch(mat, frames[:found])
        (below,) = finder.cards
        for path in frames[found:]:
            if kept:
                finder._patches = [finder_module._Patch(over.astype(np.float32), 1, 1)]
            image = cv2.imread(str(path))
            homography = locator.update(image)
            assert homography is not None
            finder.update(image, homography)
        assert finder.cards == ([below] if kept else [])


def test_the_card_an_index_would_have_lies_below_and_right_of_it() -> None:
    """Where to look for a card's other index: the poker card whose top-left index (as it
    stands) is the one read, its middle ``INDEX_AT_MM`` from the card's corner; a card turned
    half round has its outline turned too."""
    quad = card_at(_index(70, 58)) / MM  # the index's middle at (75, 69)
    x, y = finder_module.INDEX_AT_MM
    assert quad[0] == pytest.approx((75 - x, 69 - y))
    assert quad[2] == pytest.approx((75 - x + 63, 69 - y + 88))
    turned = card_at(_turned_index(130, 142)) / MM  # its middle at (125, 131), upside down
    assert turned[0] == pytest.approx((125 + x, 131 + y))
    assert turned[2] == pytest.approx((125 + x - 63, 131 + y - 88))


def test_the_top_card_owns_an_index_in_a_row() -> None:
    lower, upper = _card(100, 100), _card(121, 100)
    lower = FoundCard(1, lower.quad, 0)
    # the lower card's index shows to the left of the upper card; the upper card's own
    assert host([lower, upper], _index(70, 58)) == lower
    assert host([lower, upper], _index(91, 58)) == upper


def _fed(mat: Mat, frames: list[Path], locator: MatLocator | None = None) -> Iterator[CardFinder]:
    """A finder fed ``frames`` in order, as it is after each."""
    locator, finder = locator or MatLocator(mat), CardFinder(mat)
    for path in frames:
        image = cv2.imread(str(path))
        h = locator.update(image)
        assert h is not None
        finder.update(image, h)
        yield finder


def _watch(mat: Mat, frames: list[Path]) -> tuple[MatLocator, CardFinder, list[list[FoundCard]]]:
    """The finder fed ``frames`` in order; with the cards it had after each."""
    locator, finder, found_by = MatLocator(mat), CardFinder(mat), []
    for finder in _fed(mat, frames, locator):
        found_by.append(list(finder.cards))
    return locator, finder, found_by


def _deals(tmp_path: Path, players: int, seed: int, deals: int) -> tuple[Path, int]:
    options = GameOptions(players=players, target=61, dealer=0)
    _, actions = random_game(options, seed=seed, known=False)
    end = [i for i, a in enumerate(actions) if isinstance(a, Crib)][deals - 1]
    film(options, actions[: end + 1], plain_face, tmp_path, seed=seed)
    return tmp_path, players


@pytest.mark.parametrize(("players", "seed", "deals"), [(2, 5, 1), (2, 21, 2)])
def test_every_card_laid_is_found_within_a_second(
    tmp_path: Path, players: int, seed: int, deals: int
) -> None:
    """In a first deal, and in the next one, laid where the last deal's cards were."""
    out, players = _deals(tmp_path, players, seed, deals)
    settled = read_settled(out)
    truth = [json.loads(line) for line in (out / "truth.jsonl").read_text().splitlines()]
    frames = sorted((out / "frames").glob("*.jpg"))
    locator, _, found_by = _watch(Mat(players), frames)
    for laid in settled:
        card, start = laid["card"], int(laid["frame"])
        within = range(start, min(start + 10, len(frames)))  # 10 frames: a second
        hosted = False
        for i in within:
            corners = [t["corners"] for t in truth[i] if t["card"] == card]
            mapped = [locator.to_mat(c) for c in corners]
            if any(host(found_by[i], m) is not None for m in mapped):
                hosted = True
                break
        assert hosted, f"{card} laid at frame {start} was not found as a card within a second"
    # nothing is found where no card was laid: every card found lies where one was
    for i, cards in enumerate(found_by):
        laid_by = [p["centre"] for p in settled if int(p["frame"]) <= i]
        for c in cards:
            near = min((float(np.hypot(c.centre[0] - x, c.centre[1] - y)) for x, y in laid_by),
                       default=1e9)  # fmt: skip
            assert near < 8 * MM, f"frame {i}: a card found at {c.centre} where none was laid"


def _back_with_pictures() -> np.ndarray:
    """A card back printed with four small pictures of aces, as some decks' backs are."""
    back = np.zeros((880, 630, 4), np.uint8)
    back[:, :] = (150, 60, 30, 255)
    for k, suit in enumerate("SHDC"):
        ace = cv2.resize(plain_face(Card(1, suit)), (200, 280), interpolation=cv2.INTER_AREA)
        x, y = 60 + (k % 2) * 310, 120 + (k // 2) * 360
        back[y : y + 280, x : x + 200] = ace
    return back


def test_a_pack_whose_back_pictures_aces_is_found_but_its_aces_are_no_cards(
    tmp_path: Path,
) -> None:
    back = _back_with_pictures()
    pack = Card(13, "S")
    mat = Mat(2)
    rng = np.random.default_rng(3)
    f = Film(mat, lambda c: back if c == pack else plain_face(c), tmp_path, rng)
    placed = Placed(pack, (360 * MM, 150 * MM), 90.0)  # beside the crib spot
    f.lay(placed)
    locator, finder, _ = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    assert len(finder.cards) == 1, "the pack is one card-shaped thing on the mat"
    h_, w_ = back.shape[:2]
    for k in range(4):  # each pictured ace's index, where the camera sees it
        x, y = 60 + (k % 2) * 310, 120 + (k // 2) * 360
        u0, v0, u1, v1 = INDEX_TOP_LEFT
        box = ((x + u0 * 200) / w_, (y + v0 * 280) / h_, (x + u1 * 200) / w_, (y + v1 * 280) / h_)
        quad = f._quad(placed, 1.0, 1.0, box)
        assert host(finder.cards, locator.to_mat(quad)) is None


@pytest.mark.parametrize(
    ("pips_x", "twin", "found"), [(315, True, True), (180, True, True), (180, False, False)]
)
def test_a_card_as_white_as_the_mat_is_found_by_its_ink(
    tmp_path: Path, pips_x: int, twin: bool, found: bool
) -> None:
    """A card that does not stand out from the mat is found by its ink: indices at opposite
    corners, each the other turned half round, whatever lies between (pips printed the same
    turned half round, or down one side as a drawn deck's five in columns of three and two).
    Ink that is neither (a rank at one corner only, the pips down one side) is no card's
    face."""
    face = ink_only_face(pips_x, twin)
    mat = Mat(2)
    f = Film(mat, lambda c: face, tmp_path, np.random.default_rng(4))
    for _ in range(2):
        f.shoot()
    placed = Placed(Card(7, "S"), (270 * MM, 150 * MM), 3.0)  # on the crib spot
    f.lay(placed)
    _, finder, _ = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    if not found:
        assert finder.cards == []
        return
    assert len(finder.cards) == 1
    (card,) = finder.cards
    x, y = card.centre
    assert np.hypot(x - placed.centre[0], y - placed.centre[1]) < 3 * MM
    (_, _), (w, h), _ = cv2.minAreaRect(np.asarray(card.quad, np.float32))
    assert sorted((w / MM, h / MM)) == pytest.approx([63, 88], abs=3)


def test_a_landing_outline_that_fades_stays_busy_while_the_card_comes_to_rest(
    tmp_path: Path,
) -> None:
    """A card-shaped change seen for a frame and then lost (a white card whose outline showed
    only in a hand's shadow) is still where reads are wanted for ``LINGER`` frames."""
    mat = Mat(2)
    f = Film(mat, plain_face, tmp_path, np.random.default_rng(5))
    for _ in range(2):
        f.shoot()
    placed = Placed(Card(9, "D"), (270 * MM, 150 * MM), 0.0)
    f.on_mat.append(placed)
    f.shoot()  # seen landing for one frame only
    f.on_mat.clear()
    for _ in range(LINGER + 3):
        f.shoot()
    busy, still = [], []
    for finder in _fed(mat, sorted(tmp_path.glob("*.jpg"))):
        busy.append([np.asarray(q).mean(axis=0) / MM for q in finder.busy])
        still.append(finder.still)
    assert busy[:2] == [[], []] and finder.cards == []
    lasting = [i for i, b in enumerate(busy) if b]
    # landing, missed once (KEEP), then faded for LINGER frames; then nothing is busy
    assert lasting == list(range(2, 2 + 1 + KEEP + LINGER))
    assert all(np.hypot(*(b[0] - (270, 150))) < 3 for b in busy[2:] if b)
    assert [still[i] for i in lasting] == [False] * len(lasting) and still[-1]


def test_where_a_hand_left_is_read_again_the_frame_it_goes(tmp_path: Path) -> None:
    """A hand over the mat is no card's shape, so the finder stays still under it; the frame
    it goes, the box it left is ``cleared`` (to be read: it may have left a card white on white
    that changes the mat in no card's shape), and the frame after, nothing is."""
    mat = Mat(2)
    f = Film(mat, plain_face, tmp_path, np.random.default_rng(5))
    for _ in range(3):
        f.shoot()
    tip = (230 * MM, 120 * MM)
    f.shoot(hand=tip)
    f.shoot(hand=tip)
    for _ in range(2):
        f.shoot()
    cleared, still = [], []
    for finder in _fed(mat, sorted(tmp_path.glob("*.jpg"))):
        cleared.append(list(finder.cleared))
        still.append(finder.still)
    assert [bool(c) for c in cleared] == [False] * 5 + [True, False]
    assert still[3:5] == [True, True] and not still[5] and still[6], "a hand lands no card"
    (box,) = cleared[5]
    lo, hi = box.min(axis=0), box.max(axis=0)
    assert (lo <= tip).all() and (tip <= hi).all(), "the box holds where the hand lay"
    assert finder.cards == []


@pytest.mark.parametrize("before", range(3, 3 + ADOPT_EVERY))
def test_a_pack_on_the_mat_from_the_first_frame_is_gone_once_picked_up(
    tmp_path: Path, before: int
) -> None:
    """The pack lies on the crib spot before the camera ever saw the mat there; when it is
    picked up the bare mat there joins the reference, and the pack leaves with it, whichever
    frame the mat is next looked at for the print (every ``ADOPT_EVERY``): a card laid on
    that spot afterwards is a card, not the pack."""
    back = np.zeros((880, 630, 4), np.uint8)
    back[:, :] = (40, 40, 170, 255)
    pack, laid = Card(13, "S"), Card(7, "D")
    mat = Mat(2)
    f = Film(
        mat, lambda c: back if c == pack else plain_face(c), tmp_path, np.random.default_rng(6)
    )
    crib = (270 * MM, 150 * MM)
    f.on_mat.append(Placed(pack, crib, 0.0))
    for _ in range(before):
        f.shoot()
    f.lift(pack)
    for _ in range(8):  # the mat shows bare where the pack lay, frame after frame
        f.shoot()
    lifted = len(sorted(tmp_path.glob("*.jpg")))
    f.lay(Placed(laid, (crib[0] - 20 * MM, crib[1]), 0.0))  # spread over where the pack lay
    _, _, found_by = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    assert len(found_by[before - 1]) == 1, "the pack is found as a card"
    assert found_by[lifted - 1] == [], "the pack was picked up"
    (card,) = found_by[-1]
    assert np.hypot(card.centre[0] - (crib[0] - 20 * MM), card.centre[1] - crib[1]) < 3 * MM


@pytest.mark.parametrize("before", [2, 12])
def test_a_card_laid_against_a_box_on_the_mat_from_the_first_frame_is_found(
    tmp_path: Path, before: int
) -> None:
    """A deck's box lies on the mat from the first frame: its place is never seen bare, so it
    stays a change, larger than a card. A card laid touching it is found all the same, not
    taken with the box for one thing larger than a card; the next card on it too."""
    image, pictured = card_box()
    mat = Mat(3)
    f = Film(mat, plain_face, tmp_path, np.random.default_rng(8))
    box = (157 * MM, 148 * MM)
    f.props.append(Prop(image, pictured, box, 8.0, (67 * MM, 94 * MM)))
    for _ in range(before):
        f.shoot()
    first = (140 * MM, 244 * MM)  # its top edge along the box's bottom one
    f.lay(Placed(Card(11, "C"), first, 0.0))
    f.lay(Placed(Card(1, "S"), (first[0] + 18 * MM, first[1]), 0.0))  # the next, over it
    _, finder, _ = _watch(mat, sorted(tmp_path.glob("*.jpg")))
    centres = sorted((round(c.centre[0] / MM), round(c.centre[1] / MM)) for c in finder.cards)
    assert len(centres) == 2, f"both cards found, beside the box: {centres}"
    assert abs(centres[0][0] - 140) < 4 and abs(centres[1][0] - 158) < 4


def test_a_picture_a_pixel_off_the_reference_lands_no_card(tmp_path: Path) -> None:
    """The camera's picture shifted a pixel against what the finder saw (the mat found a
    pixel off) shows every printed and card edge as a thin line of change, some of them
    card-shaped: no card lands. With the picture back in place, a card laid is found."""
    mat = Mat(2)
    f = Film(mat, plain_face, tmp_path, np.random.default_rng(7))
    for _ in range(3):
        f.shoot()
    f.lay(Placed(Card(7, "S"), (270 * MM, 150 * MM), 3.0))
    for _ in range(2):
        f.shoot()
    settled = len(sorted(tmp_path.glob("*.jpg")))
    f.lay(Placed(Card(9, "D"), (160 * MM, 150 * MM), -2.0))
    for _ in range(2):
        f.shoot()
    frames = [cv2.imread(str(p)) for p in sorted(tmp_path.glob("*.jpg"))]
    locator, finder = MatLocator(mat), CardFinder(mat)
    h = None
    for image in frames[:settled]:
        h = locator.update(image)
        assert h is not None
        finder.update(image, h)
    assert h is not None and len(finder.cards) == 1
    off = np.float32([[1, 0, 1], [0, 1, 1]])

    def shifted(image: np.ndarray) -> np.ndarray:
        return cv2.warpAffine(image, off, image.shape[1::-1], borderMode=cv2.BORDER_REPLICATE)

    for _ in range(4):  # the mat as found before, the picture a pixel off
        finder.update(shifted(frames[settled - 1]), h)
        assert [c.id for c in finder.cards] == [0]
    for image in frames[settled:]:
        finder.update(image, h)
    assert len(finder.cards) == 2
    x, y = finder.cards[1].centre
    assert np.hypot(x - 160 * MM, y - 150 * MM) < 3 * MM


def test_a_white_card_whose_edge_covers_a_printed_line_is_found_by_its_ink() -> None:
    """A card as white as the mat changes the mat only where it is inked, and where its edge
    covers a line of the print: there the change is the line's thin outline, a ring joined to
    the index below it. The ink is the same turned half round; the ring's inside is not, and
    must not hide the card."""
    s = SCALE  # finder pixels a mm
    changed = np.zeros((600, 600), np.uint8)
    left, top = 300 - 63 * s // 2, 300 - 88 * s // 2
    right, bottom = 300 + 63 * s // 2, 300 + 88 * s // 2
    for x0, y0 in ((left + 3 * s, top + 4 * s), (right - 11 * s, bottom - 24 * s)):
        cv2.rectangle(changed, (x0, y0), (x0 + 8 * s, y0 + 20 * s), 1, -1)  # the indices
    for dx in (-8, 8):
        for dy in (-25, 0, 25):
            cv2.circle(changed, (300 + dx * s, 300 + dy * s), 5 * s, 1, -1)  # the pips
    cv2.rectangle(changed, (left, top), (right, top + 5 * s), 1, 1)  # the covered line's outline
    (quad,) = card_shapes(changed)
    (cx, cy), (w, h), _ = cv2.minAreaRect(quad)
    assert np.hypot(cx - 300, cy - 300) < 3 * s
    assert sorted((w / s, h / s)) == pytest.approx([63, 88], abs=4)


@pytest.mark.parametrize(("index_mm", "found"), [((8, 20), True), ((3, 3), False)])
def test_a_white_card_is_found_by_twin_indices_whatever_lies_between(
    index_mm: tuple[int, int], found: bool
) -> None:
    """Ink from corner to corner of a card, the middle not the same turned half round (a
    five's pips in columns of three and two): a card where an index's worth of ink lies at two
    opposite corners, each the other turned half round; specks there (a court's picture
    reaching its corners), twins or not, are none."""
    s = SCALE
    changed = np.zeros((600, 600), np.uint8)
    left, top = 300 - 63 * s // 2, 300 - 88 * s // 2
    right, bottom = 300 + 63 * s // 2, 300 + 88 * s // 2
    w, h = index_mm
    cv2.rectangle(
        changed, (left + 3 * s, top + 4 * s), (left + (3 + w) * s, top + (4 + h) * s), 1, -1
    )
    cv2.rectangle(
        changed, (right - (3 + w) * s, bottom - (4 + h) * s), (right - 3 * s, bottom - 4 * s), 1, -1
    )
    for dy in (-20, 0, 20):  # three pips down one column, two down the other
        cv2.circle(changed, (300 - 12 * s, 300 + dy * s), 5 * s, 1, -1)
    for dy in (-10, 10):
        cv2.circle(changed, (300 + 12 * s, 300 + dy * s), 5 * s, 1, -1)
    shapes = card_shapes(changed)
    if not found:
        assert shapes == []
        return
    (quad,) = shapes
    (cx, cy), (qw, qh), _ = cv2.minAreaRect(quad)
    assert np.hypot(cx - 300, cy - 300) < 3 * s
    assert sorted((qw / s, qh / s)) == pytest.approx([63, 88], abs=4)
    assert not finder_module._symmetric(finder_module._ink_mask(*_pieces(changed)), (cx, cy))


def _pieces(changed: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    contours, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c.reshape(-1, 2).astype(np.float32) for c in contours], changed


def test_a_white_card_is_found_when_its_least_box_is_a_pixel_off_its_ink(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A change mask from a filmed game: a white card seen by its ink alone, with the rims of
    the ink it covers. The least box round its ink lies two pixels off the ink's own middle,
    so judged there the ink is not the same turned half round; the next boxes are."""
    path = Path(__file__).parent.parent / "data" / "finder" / "white_card_ink.png"
    changed = (cv2.imread(str(path), cv2.IMREAD_GRAYSCALE) > 127).astype(np.uint8)
    (quad,) = card_shapes(changed)
    (cx, cy), (w, h), _ = cv2.minAreaRect(quad)
    assert np.hypot(cx - 120, cy - 110) < 3 * SCALE
    assert sorted((w / SCALE, h / SCALE)) == pytest.approx([63, 88], abs=4)
    monkeypatch.setattr(finder_module, "LEAST_BOXES", 1)  # judged by the whole face alone
    monkeypatch.setattr(finder_module, "_twin_corners", lambda inked, box: False)
    assert card_shapes(changed) == []


def test_paste_copies_where_masked_into_a_view_and_nowhere_else() -> None:
    """The finder writes into views of its reference picture: ``_paste`` must change the
    view's masked pixels in the picture itself, as ``dst[where] = src[where]`` does."""
    rng = np.random.default_rng(3)
    picture = rng.integers(0, 256, (40, 50, 3), np.uint8)
    src = rng.integers(0, 256, (20, 30, 3), np.uint8)
    where = rng.integers(0, 2, (20, 30)).astype(bool)
    expected = picture.copy()
    expected[5:25, 10:40][where] = src[where]
    finder_module._paste(picture[5:25, 10:40], src, where)
    assert np.array_equal(picture, expected)
    finder_module._paste(picture[5:25, 10:40], src, where.astype(np.uint8))
    assert np.array_equal(picture, expected)


def test_the_finders_opencv_shortcuts_say_what_numpy_says() -> None:
    """Thresholds and per-pixel channel picks, taken on views of larger pictures as the
    finder takes them."""
    rng = np.random.default_rng(5)
    a = rng.integers(0, 256, (40, 50, 3), np.uint8)[5:25, 10:40]
    b = rng.integers(0, 256, (40, 50, 3), np.uint8)[10:30, 0:30]
    wide = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    assert np.array_equal(finder_module._channel_diff(a, b), wide)
    assert np.array_equal(ink_map(a), a.min(axis=2))
    levels = np.arange(256, dtype=np.uint8).reshape(16, 16)
    assert np.array_equal(finder_module._under(levels, 160), (levels < 160).astype(np.uint8))
    assert np.array_equal(finder_module._over(levels, 160), (levels > 160).astype(np.uint8))
    assert np.array_equal(finder_module._at_least(a, 100), np.maximum(a, 100))
    for pts in rng.uniform(-30, 80, (50, 4, 2)).astype(np.float32):  # some off the picture
        x0, y0 = np.clip(np.floor(pts.min(axis=0)).astype(int), 0, [49, 39])
        x1, y1 = np.clip(np.ceil(pts.max(axis=0)).astype(int) + 1, 1, [50, 40])
        expected = (x0, y0, max(x1, x0 + 1), max(y1, y0 + 1))
        assert finder_module._box_of(pts, (40, 50, 3)) == expected


def test_a_found_cards_outline_in_mm_is_its_quad_and_cannot_be_changed() -> None:
    """Kept once for every read of every frame: no caller may change it under the others."""
    card = _card(100, 100, 20)
    assert np.allclose(card.outline_mm * MM, card.quad)
    assert np.allclose(card.outline_mm32, card.outline_mm)
    assert card.outline_mm32.dtype == np.float32
    with pytest.raises(ValueError):
        card.outline_mm[0, 0] = 0.0
    with pytest.raises(ValueError):
        card.outline_mm32[0, 0] = 0.0
