"""Glyph finding, pairing and patch cutting on drawn images, without the model."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from crib_pi.vision.candidates import candidates  # noqa: E402
from crib_pi.vision.glyphs import find_glyphs, ink_map  # noqa: E402
from crib_pi.vision.pairs import Frames  # noqa: E402
from crib_pi.vision.patches import (  # noqa: E402
    PATCH,
    WIDE_SHIFT,
    WIDE_SPAN,
    color_pyramid,
    extract,
    extract_wide,
    normalise,
)


def draw_upright_index(
    img: np.ndarray,
    rank_at: tuple[int, int],
    scale: float,
    suit_at: tuple[int, int],
    r: int,
    suit_colour: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """A black K with a disc (black unless told) below it, upright."""
    cv2.putText(img, "K", rank_at, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 2)
    cv2.circle(img, suit_at, r, suit_colour, -1)


def drawn_index(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A white card with a K over a disc, turned by ``angle`` degrees, and its down vector."""
    img = np.full((240, 240, 3), 90, np.uint8)
    cv2.rectangle(img, (60, 40), (180, 200), (245, 245, 245), -1)
    draw_upright_index(img, (100, 110), 1.0, (112, 128), 8, suit_colour=(0, 0, 200))
    rot = cv2.getRotationMatrix2D((120, 120), angle, 1.0)
    img = cv2.warpAffine(img, rot, (240, 240), borderValue=(90, 90, 90))
    a = np.radians(angle)
    return img, np.array([np.sin(a), np.cos(a)])  # image y is down; cv2 turns anticlockwise


@pytest.mark.parametrize("angle", [0.0, 37.0, 90.0, 200.0])
def test_rank_over_suit_pair_is_a_candidate_at_any_rotation(angle: float) -> None:
    img, down = drawn_index(angle)
    frames, patches = candidates(img)
    assert len(frames) >= 1 and patches.shape[1:] == (PATCH, PATCH, 3)
    cos = frames.downs @ down
    assert cos.max() > 0.9, "the rank-to-suit direction is found"


def test_blank_tables_give_no_candidates_and_noise_a_bounded_number() -> None:
    rng = np.random.default_rng(0)
    plain = np.full((480, 640, 3), 120, np.uint8)
    assert len(candidates(plain)[0]) == 0
    noise = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert len(candidates(noise)[0]) < 4000  # each glyph pairs with at most 4 neighbours


def test_normalise_is_per_patch() -> None:
    p = np.stack([np.full((PATCH, PATCH, 3), v, np.uint8) for v in (10, 200)])
    p[:, :8] = 255
    x = normalise(p)
    assert x.shape == (2, 3, PATCH, PATCH)
    assert np.allclose(x.mean(axis=(1, 2, 3)), 0.0, atol=1e-4)


def assert_an_upright_index_is_found(img: np.ndarray) -> None:
    frames, _ = candidates(img)
    assert len(frames) >= 1
    assert (frames.downs @ np.array([0.0, 1.0])).max() > 0.9


def test_an_index_right_beside_the_card_edge_on_a_dark_table_is_found() -> None:
    # The table beyond the edge is one big blob of "ink"; it is not clutter round the rank.
    img = np.full((400, 400, 3), 40, np.uint8)
    cv2.rectangle(img, (100, 100), (300, 360), (245, 245, 245), -1)
    draw_upright_index(img, (103, 128), 0.8, (113, 142), 6)
    assert_an_upright_index_is_found(img)


def test_a_big_rank_is_a_glyph_at_full_size() -> None:
    # A rank about 40 px tall (a big card): at half size it can merge with the card's outline
    # beside it, so the full-size level must take it.
    # The K is drawn stroke by stroke (33 x 43 px): OpenCV 5's putText draws its Hershey "K"
    # at another size than OpenCV 4.11's, which the Pi's numpy 1.x set has.
    img = np.full((200, 200, 3), 240, np.uint8)
    for start, end in (((82, 92), (82, 128)), ((84, 111), (108, 92)), ((91, 105), (108, 128))):
        cv2.line(img, start, end, (0, 0, 0), 5)
    found = find_glyphs(ink_map(img), 1.0)
    assert len(found.sizes) == 1 and found.sizes[0] > 50


def test_an_index_on_a_card_in_shadow_beside_a_lit_card_is_found() -> None:
    # The shadowed card is 40% as bright as the lit one: still bare card, not a dark table.
    img = np.full((300, 500, 3), 30, np.uint8)
    cv2.rectangle(img, (20, 20), (220, 280), (250, 250, 250), -1)
    cv2.rectangle(img, (260, 20), (480, 280), (100, 100, 100), -1)
    draw_upright_index(img, (300, 90), 1.0, (312, 108), 8)
    assert_an_upright_index_is_found(img)


def test_the_ink_map_is_the_darkest_channel_of_each_pixel() -> None:
    img = np.random.default_rng(3).integers(0, 256, (37, 53, 3), dtype=np.uint8)
    assert np.array_equal(ink_map(img), img.min(axis=2))
    grey = img[:, :, 0].copy()
    assert np.array_equal(ink_map(grey), grey)


def test_an_index_touching_a_grey_border_line_is_found() -> None:
    # A printed frame line (or the edge of a card lying over this one) runs into the rank: in
    # the usual mask they are one long blob; the darker-ink look frees the rank.
    img = np.full((400, 400, 3), 235, np.uint8)
    draw_upright_index(img, (120, 128), 0.8, (130, 142), 6)
    cv2.line(img, (121, 60), (121, 340), (150, 150, 150), 2)
    cv2.line(img, (60, 112), (340, 112), (150, 150, 150), 2)
    assert_an_upright_index_is_found(img)


def test_the_wide_look_shows_the_index_at_half_size_nearer_the_far_corner() -> None:
    img = np.full((400, 400, 3), 255, np.uint8)
    img[190:211, 190:211] = 0  # a 21 px "index" at (200, 200)
    frames = Frames(
        np.array([[200.0, 200.0]]),
        np.array([[0.0, 1.0]]),
        np.array([42.0]),
        np.array([10.0]),
        np.zeros((1, 2), np.int32),
    )
    pyr = color_pyramid(img, 4)
    near = np.argwhere(extract(pyr, frames)[0, :, :, 0] < 128)
    far = np.argwhere(extract_wide(pyr, frames)[0, :, :, 0] < 128)
    side = lambda pts: pts.max(axis=0) - pts.min(axis=0) + 1  # noqa: E731
    np.testing.assert_allclose(side(far), side(near) / WIDE_SPAN, atol=1.5)
    # moved up and left toward the card corner, so the index sits right of and below centre
    mid = (PATCH - 1) / 2
    expect = mid - np.array(WIDE_SHIFT) * PATCH / WIDE_SPAN
    np.testing.assert_allclose(far.mean(axis=0)[::-1], expect, atol=1.0)


def test_a_grey_frame_is_colourless_and_a_red_card_is_not() -> None:
    from crib_pi.vision.patches import colourless

    img = np.full((120, 160, 3), 200, np.uint8)
    cv2.putText(img, "5", (40, 90), cv2.FONT_HERSHEY_SIMPLEX, 2.5, (30, 30, 200), 6)
    assert not colourless(img)
    grey = cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert colourless(grey)
    assert colourless((grey * np.array([0.8, 0.95, 1.0])).astype(np.uint8))  # a warm cast


def touching_index(angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A small rank (a T) whose diamond touches its foot with its tip, as a deck printing its
    suit a pixel under the rank does at 130 px a card, turned by ``angle`` degrees, and its
    down vector. Drawn and turned without smoothing, so every OpenCV draws the same pixels."""
    img = np.full((200, 200, 3), 90, np.uint8)
    cv2.rectangle(img, (50, 30), (150, 170), (245, 245, 245), -1)
    cv2.rectangle(img, (92, 80), (108, 83), (0, 0, 0), -1)
    cv2.rectangle(img, (98, 84), (102, 96), (0, 0, 0), -1)
    diamond = np.array([[100, 96], [106, 104], [100, 112], [94, 104]], np.int32)
    cv2.fillPoly(img, [diamond], (0, 0, 200))
    rot = cv2.getRotationMatrix2D((100, 100), angle, 1.0)
    img = cv2.warpAffine(img, rot, (200, 200), flags=cv2.INTER_NEAREST, borderValue=(90, 90, 90))
    a = np.radians(angle)
    return img, np.array([np.sin(a), np.cos(a)])


@pytest.mark.parametrize("angle", [0.0, 30.0, 90.0, 160.0, 250.0])
def test_a_rank_touching_its_suit_is_split_into_a_candidate(angle: float) -> None:
    img, down = touching_index(angle)
    card = np.zeros((200, 200), np.uint8)
    cv2.rectangle(card, (56, 36), (144, 164), 255, -1)
    turn = cv2.getRotationMatrix2D((100, 100), angle, 1.0)
    card = cv2.warpAffine(card, turn, (200, 200), flags=cv2.INTER_NEAREST)
    ink = np.where((ink_map(img) < 160) & (card > 0), 255, 0).astype(np.uint8)
    count, _ = cv2.connectedComponents(ink)
    assert count == 2, "the drawing is one blob: the rank touches its suit"
    frames, _ = candidates(img)
    assert len(frames) >= 1
    assert (frames.downs @ down).max() > 0.9, "the rank-to-suit direction is found"


def test_a_tall_single_glyph_is_not_split() -> None:
    img = np.full((200, 200, 3), 245, np.uint8)
    cv2.putText(img, "1", (90, 120), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 0), 2)
    g = find_glyphs(ink_map(img), 1.0)
    assert len(g.centers) == 1


@pytest.mark.parametrize("share", [0.05, 0.3, 0.5, 0.8])
def test_components_are_labelled_as_opencv_labels_them_in_32_bits(share: float) -> None:
    from crib_pi.vision.glyphs import _components

    mask = ((np.random.default_rng(3).random((240, 320)) < share) * 255).astype(np.uint8)
    n, labels, stats, cents = _components(mask)
    n32, labels32, stats32, cents32 = cv2.connectedComponentsWithStats(mask, connectivity=8)
    assert labels.dtype == np.uint16  # far fewer than 65,535 components: the quicker labels
    assert n == n32
    assert np.array_equal(labels, labels32) and np.array_equal(stats, stats32)
    assert np.array_equal(cents, cents32)


def test_more_components_than_16_bits_hold_are_labelled_in_32() -> None:
    from crib_pi.vision.glyphs import _components

    mask = np.zeros((720, 1280), np.uint8)
    mask[::2, ::2] = 255  # 230,400 single pixels, none touching another
    n, labels, stats, _ = _components(mask)
    assert n == 230_401 and labels.dtype == np.int32
    assert labels[718, 1278] == 230_400 and stats[1:, 4].max() == 1
