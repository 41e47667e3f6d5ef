"""Minoa on the hard world's terms: a board that lies off the markers' rectangle (a marker sheet laid by
its paper's cut edge), normalised planes of any table and edition, and pieces the reference took in part
for the table."""

from __future__ import annotations

import cv2
import numpy
import pytest

from companion.games.minoa import BOARD, COLOURS
from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout, recogniser_for
from companion.vision.generate import minoa as scene
from companion.vision.generate import tables
from companion.vision.recognisers import minoa
from companion.vision.reference import NEUTRAL_BGR, normalised_plane


def _labels(seed: int) -> dict[str, str]:
    rng = numpy.random.default_rng(seed)
    return {
        f"line:{n}": (str(rng.choice(COLOURS)) if rng.random() < 0.7 else "empty")
        if BOARD.is_edge[n]
        else ("stick" if rng.random() < 0.4 else "empty")
        for n in range(len(BOARD.lines))
    }


def _wrong(reading: dict[str, str], labels: dict[str, str]) -> dict[str, tuple[str, str]]:
    return {item: (truth, reading[item]) for item, truth in labels.items() if reading[item] != truth}


def _as_laid_by_the_cut_edge(plane: Frame, layout: Layout, margin_mm: float) -> Frame:
    """The plane as markers laid `margin_mm` further in on every side cut it: the board scaled outwards
    about the middle."""
    width, height = layout.plane_mm
    sx, sy = width / (width - 2 * margin_mm), height / (height - 2 * margin_mm)
    cx, cy = width * PLANE_PX_PER_MM / 2, height * PLANE_PX_PER_MM / 2
    matrix = numpy.array([[sx, 0.0, cx * (1 - sx)], [0.0, sy, cy * (1 - sy)]], numpy.float32)
    size = layout.plane_size_px()
    return numpy.asarray(cv2.warpAffine(plane, matrix, size, borderMode=cv2.BORDER_REPLICATE), numpy.uint8)


@pytest.mark.parametrize("margin_mm", [6.0, 10.0])
def test_a_board_lying_off_the_markers_rectangle_is_found(margin_mm: float) -> None:
    """Edge pieces lie up to 10 mm off the layout's lines: read where the layout alone puts them, most
    would be missed."""
    layout = recogniser_for("minoa").layout({})
    labels = _labels(1)
    plane = scene.render_plane(labels, layout, numpy.random.default_rng(1))
    shifted = _as_laid_by_the_cut_edge(plane, layout, margin_mm)
    assert _wrong(recogniser_for("minoa").read(shifted, layout, None).items, labels) == {}


def _on_table(kind: str, edition: str, labels: dict[str, str], layout: Layout, seed: int) -> Frame:
    rng = numpy.random.default_rng(seed)
    table = tables.draw_table(
        tables.choose_table(kind, rng), (0.0, 0.0), layout.plane_size_px(), PLANE_PX_PER_MM
    )
    return scene.render_on(labels, layout, rng, background=table, edition=edition)


@pytest.mark.parametrize(
    ("kind", "edition"), [("dark-wood", "default"), ("gingham", "second-print"), ("printed", "travel")]
)
def test_normalised_planes_of_any_table_and_edition_read_untaught(kind: str, edition: str) -> None:
    """The reference replaces the table and the board's card by one neutral grey: the sticks are found
    against the card left beside them (another edition's are brown, lighter than that grey), and the
    pieces by their hue."""
    layout = recogniser_for("minoa").layout({})
    labels = _labels(2)
    empty = _on_table(kind, edition, dict.fromkeys(labels, "empty"), layout, 3)
    plane = normalised_plane([empty], _on_table(kind, edition, labels, layout, 3), layout)
    assert (
        numpy.count_nonzero(numpy.all(plane == NEUTRAL_BGR, axis=2)) > 0.5 * plane.shape[0] * plane.shape[1]
    )
    assert _wrong(recogniser_for("minoa").read(plane, layout, None).items, labels) == {}


def test_a_piece_the_reference_took_in_part_for_the_table_keeps_its_colour() -> None:
    """A green piece on a green check of the cloth: its middle turned neutral, the rest is still green."""
    layout = recogniser_for("minoa").layout({})
    labels = _labels(4)
    empty = _on_table("felt", "default", dict.fromkeys(labels, "empty"), layout, 5)
    plane = normalised_plane([empty], _on_table("felt", "default", labels, layout, 5), layout)
    pieces = [item for item, label in labels.items() if label in COLOURS]
    for item in pieces:
        region = layout.items[item]
        # A band 5 mm wide along the piece's middle, 20 mm long: a little over half of what is sampled.
        box = cv2.boxPoints(
            (region.centre_px(), (20 * PLANE_PX_PER_MM, 5 * PLANE_PX_PER_MM), -region.rotation_deg)
        )
        cv2.fillPoly(plane, [numpy.round(box).astype(numpy.int32)], NEUTRAL_BGR)
    read = recogniser_for("minoa").read(plane, layout, None).items
    assert {item: read[item] for item in pieces} == {item: labels[item] for item in pieces}


def _card_around(line: str, mark_bgr: tuple[int, int, int], mark_mm: float, layout: Layout) -> Frame:
    """A normalised plane: the neutral grey but for the card kept beside one line (from 3 mm on one side
    to 6 mm on the other, as the reference keeps it round pieces), a mark along the line `mark_mm` wide,
    blurred as a camera blurs it."""
    region = layout.items[line]
    width, height = layout.plane_size_px()
    x, y = (round(v) for v in region.centre_px())
    half = round(minoa.UNIT_MM * PLANE_PX_PER_MM / 2) - 6
    card = numpy.zeros((height, width, 3), numpy.uint8)
    cv2.rectangle(card, (x - half, y - 6), (x + half, y + 12), (220, 232, 236), -1)
    thickness = round(mark_mm * PLANE_PX_PER_MM)
    cv2.rectangle(
        card, (x - half + 4, y - thickness // 2), (x + half - 4, y + (thickness - 1) // 2), mark_bgr, -1
    )
    card = numpy.asarray(cv2.GaussianBlur(card, (0, 0), 1.2), numpy.uint8)
    shown = numpy.zeros((height, width), numpy.uint8)
    cv2.rectangle(shown, (x - half, y - 6), (x + half, y + 12), 255, -1)
    rotation = cv2.getRotationMatrix2D((float(x), float(y)), region.rotation_deg, 1.0)
    turned = numpy.asarray(cv2.warpAffine(card, rotation, (width, height), flags=cv2.INTER_LINEAR))
    where = numpy.asarray(cv2.warpAffine(shown, rotation, (width, height), flags=cv2.INTER_NEAREST)) > 0
    plane = numpy.full((height, width, 3), NEUTRAL_BGR, numpy.uint8)
    plane[where] = turned[where]
    return plane


@pytest.mark.parametrize(
    ("mark_bgr", "mark_mm", "expected"),
    [
        ((60, 60, 60), 2.0, "empty"),  # an edition's dark print as a camera blurs it, beside a piece
        ((32, 32, 34), 4.0, "stick"),
        (
            (95, 115, 140),
            4.0,
            "stick",
        ),  # another edition's brown stick, in canonical light lighter than the grey
    ],
)
def test_a_stick_is_told_from_the_print_against_the_card_kept_beside_it(
    mark_bgr: tuple[int, int, int], mark_mm: float, expected: str
) -> None:
    layout = recogniser_for("minoa").layout({})
    line = f"line:{BOARD.interior_lines[len(BOARD.interior_lines) // 2]}"
    plane = _card_around(line, mark_bgr, mark_mm, layout)
    assert recogniser_for("minoa").read(plane, layout, None).items[line] == expected


def test_the_shipped_colours_hold_the_drawn_ones_and_the_neutral_table() -> None:
    """Training writes, beside what normalised planes show, the colours the generator paints now (a plane
    without an empty area learned shows those) and the neutral grey a normalised plane puts for the table
    (else that grey is nearest to a stick washed by glare). Learning from generated sessions takes minutes:
    `python -m companion.vision.training minoa` rewrites the file."""
    from companion.vision.recognisers._lab import bgr_to_lab
    from companion.vision.training.minoa import drawn_colours

    shipped = minoa.default_colours()
    for label, drawn in drawn_colours().items():
        assert all(prototype in shipped[label] for prototype in drawn), f"{label}: drawn colour not shipped"
    assert bgr_to_lab(NEUTRAL_BGR) in shipped[minoa.TABLE]


def test_teaching_on_a_normalised_plane_learns_no_colour_from_the_neutral_table() -> None:
    """An empty line's strip on a normalised plane is the table's neutral grey: taught as the board, the
    card kept beside pieces would no longer be board (nearer a pale piece than that grey)."""
    from companion.vision.base import Profile

    layout = recogniser_for("minoa").layout({})
    labels = _labels(6)
    empty = _on_table("linen", "second-print", dict.fromkeys(labels, "empty"), layout, 7)
    plane = normalised_plane([empty], _on_table("linen", "second-print", labels, layout, 7), layout)
    line = next(
        item for item, label in labels.items() if label == "empty" and not BOARD.is_edge[int(item[5:])]
    )
    piece = next(item for item, label in labels.items() if label in COLOURS)
    recogniser = recogniser_for("minoa")
    taught = recogniser.teach(
        plane, layout, {line: "empty", piece: labels[piece]}, Profile("minoa", "second-print")
    )
    neutral = [
        float(v) for v in cv2.cvtColor(numpy.array([[NEUTRAL_BGR]], numpy.uint8), cv2.COLOR_BGR2LAB)[0, 0]
    ]
    assert all(
        sum((a - b) ** 2 for a, b in zip(prototype, neutral, strict=True)) > 10**2
        for prototype in taught.colours[minoa.BOARD_PRINT]
    )
    assert labels[piece] in taught.params["taught_colours"]
    assert _wrong(recogniser.read(plane, layout, taught).items, labels) == {}
