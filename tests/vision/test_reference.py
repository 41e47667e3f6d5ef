"""The empty-table reference: tables, light, shadows, pieces and arms drawn here, not by the generator.

Each plane is built with numpy/cv2 in this file (textured tables of several kinds, the corner markers,
pieces as coloured squares, arms as long blobs from an edge) so that the tests exercise the
reference's algorithm alone; one test at the end runs the generator's frames through PlaneReader.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision import hand_check
from companion.vision._reference_base import MASK_PX_PER_MM
from companion.vision.base import MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame, ItemRegion, Layout
from companion.vision.calibration import marker_corners_mm, render_marker
from companion.vision.normalising import CANONICAL_WHITE
from companion.vision.reference import (
    NEUTRAL_BGR,
    ReferenceError,
    TableReference,
    TableView,
    normalised_plane,
)
from companion.vision.surround import Surround

PLANE_MM = (400.0, 260.0)
PIECE_MM = 30.0
SKINS_BGR = ((140, 170, 225), (120, 150, 205), (95, 125, 180), (70, 95, 140), (50, 70, 105))
SLEEVE_BGR = (60, 60, 60)
"""Skin tones from light to dark, and a grey sleeve. The woods below are as real ones are, a little off
every skin tone: an arm of exactly a plain table's colour is invisible to any comparison with it."""


def layout() -> Layout:
    """A grid of 6 x 3 cells of 50 mm, 75 mm in from the left and 55 mm from the top."""
    items = {
        f"cell:{row * 6 + column}": ItemRegion(
            (75.0 + column * 50.0, 55.0 + row * 50.0), (PIECE_MM, PIECE_MM)
        )
        for row in range(4)
        for column in range(6)
    }
    return Layout(PLANE_MM, items)


def table(kind: str, rng: numpy.random.Generator) -> Frame:
    """A table top of some kind, plane-sized, with the corner markers on their white paper."""
    width, height = round(PLANE_MM[0] * PLANE_PX_PER_MM), round(PLANE_MM[1] * PLANE_PX_PER_MM)
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    if kind == "light-wood":
        grain = numpy.sin(y / 9.0 + 2.0 * numpy.sin(x / 160.0))[..., None]
        image = numpy.array([85, 125, 165], numpy.float32) * (1.0 + 0.05 * grain)
    elif kind == "dark-wood":
        grain = numpy.sin(y / 6.0 + numpy.sin(x / 90.0))[..., None]
        image = numpy.array([30, 40, 55], numpy.float32) * (1.0 + 0.1 * grain)
    elif kind == "gingham":
        checks = ((x // 16) % 2 + (y // 16) % 2).astype(numpy.intp)[..., None]
        image = numpy.where(
            checks == 0, [235, 235, 240], numpy.where(checks == 1, [150, 150, 230], [60, 50, 200])
        )
    elif kind == "stripes":
        stripes = ((x + y) // 14 % 3).astype(numpy.intp)[..., None]
        image = numpy.choose(stripes, [[200, 120, 40], [40, 200, 230], [230, 230, 230]])
    elif kind == "noise":
        coarse = rng.uniform(60, 220, (height // 6 + 1, width // 6 + 1, 3)).astype(numpy.float32)
        image = cv2.resize(coarse, (width, height), interpolation=cv2.INTER_NEAREST)
    else:
        raise AssertionError(kind)
    noise = rng.normal(0, 2.0, (height, width, 3))
    out = numpy.clip(numpy.asarray(image, numpy.float32) + noise, 0, 255).astype(numpy.uint8)
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    for marker_id, corners in marker_corners_mm(PLANE_MM).items():
        x0, y0 = (round(float(v) * PLANE_PX_PER_MM) for v in corners[0])
        paper_x0, paper_y0 = max(0, x0 - 8), max(0, y0 - 8)
        out[paper_y0 : y0 + side + 8, paper_x0 : x0 + side + 8] = 240
        out[y0 : y0 + side, x0 : x0 + side] = cv2.cvtColor(render_marker(marker_id, side), cv2.COLOR_GRAY2BGR)
    return out


def with_pieces(plane: Frame, pieces: dict[tuple[float, float], tuple[int, int, int]]) -> Frame:
    """Square pieces (centre mm → BGR), each with a darker pip and a soft shadow to its lower right."""
    out = plane.astype(numpy.float32)
    half = PIECE_MM * PLANE_PX_PER_MM / 2
    for (cx, cy), colour in pieces.items():
        x, y = cx * PLANE_PX_PER_MM, cy * PLANE_PX_PER_MM
        shadow = numpy.zeros(plane.shape[:2], numpy.float32)
        cv2.rectangle(
            shadow,
            (round(x - half + 5), round(y - half + 6)),
            (round(x + half + 5), round(y + half + 6)),
            1.0,
            -1,
        )
        shadow = cv2.GaussianBlur(shadow, (0, 0), 2.5)
        out *= (1.0 - 0.4 * shadow)[..., None]
        corner0, corner1 = (round(x - half), round(y - half)), (round(x + half), round(y + half))
        cv2.rectangle(out, corner0, corner1, tuple(float(c) for c in colour), -1)
        cv2.circle(out, (round(x), round(y)), 8, tuple(float(c) * 0.4 for c in colour), -1)
    return numpy.clip(out, 0, 255).astype(numpy.uint8)


def with_arm(plane: Frame, edge: str, colour: tuple[int, int, int], rng: numpy.random.Generator) -> Frame:
    """An arm from one edge of the plane to a hand somewhere over its middle: a rounded limb above the
    table, lit from above (its sides darker than its top), casting a soft shadow to one side."""
    height, width = plane.shape[:2]
    target = numpy.array([width / 2, height / 2]) + rng.uniform(-0.2, 0.2, 2) * (width, height)
    start = {
        "top": (rng.uniform(0.2, 0.8) * width, -40.0),
        "bottom": (rng.uniform(0.2, 0.8) * width, height + 40.0),
        "left": (-40.0, rng.uniform(0.2, 0.8) * height),
        "right": (width + 40.0, rng.uniform(0.2, 0.8) * height),
    }[edge]
    palm = round(rng.uniform(75, 100))
    ends = ((round(start[0]), round(start[1])), (round(target[0]), round(target[1])))
    limb = numpy.zeros((height, width), numpy.uint8)
    cv2.line(limb, ends[0], ends[1], 255, palm)
    cv2.circle(limb, ends[1], round(palm * 0.7), 255, -1)
    # Distance from the limb's outline: 1 on its ridge, falling to 0.6 at its sides (a cylinder's shading).
    inside = cv2.distanceTransform(limb, cv2.DIST_L2, 5)
    shading = 0.6 + 0.4 * numpy.clip(inside / (palm / 2), 0.0, 1.0) ** 0.5
    offset = numpy.float32(
        [[1, 0, 24], [0, 1, 16]]
    )  # the lamp stands to one side: the shadow falls 12 mm off
    shadow = cv2.GaussianBlur(
        cv2.warpAffine(limb.astype(numpy.float32) / 255, offset, (width, height)), (0, 0), 6
    )
    out = plane.astype(numpy.float32) * (1.0 - 0.45 * shadow)[..., None]
    arm = numpy.array(colour, numpy.float32) * shading[..., None]
    out = numpy.where(limb[..., None] > 0, arm, out)
    return numpy.asarray(cv2.GaussianBlur(numpy.clip(out, 0, 255), (0, 0), 1.0), numpy.uint8)


def lit(plane: Frame, gain: tuple[float, float, float], slope: float = 0.0) -> Frame:
    """The plane under other light: a per-channel gain (a colour cast), and a gradient across it."""
    width = plane.shape[1]
    across = 1.0 + slope * numpy.linspace(-1.0, 1.0, width, dtype=numpy.float32)[None, :, None]
    out = plane.astype(numpy.float32) * numpy.array(gain, numpy.float32) * across
    return numpy.clip(out, 0, 255).astype(numpy.uint8)


def learned(plane: Frame) -> TableReference:
    reference = TableReference(layout())
    reference.learn([plane])
    return reference


def mask_box(x0: float, y0: float, x1: float, y1: float) -> tuple[slice, slice]:
    """The mask pixels of a box given in plane millimetres."""
    return (
        slice(round(y0 * MASK_PX_PER_MM), round(y1 * MASK_PX_PER_MM)),
        slice(round(x0 * MASK_PX_PER_MM), round(x1 * MASK_PX_PER_MM)),
    )


def foreground_share(view: TableView) -> float:
    return float(numpy.count_nonzero(view.foreground)) / view.foreground.size


TABLES = ("light-wood", "dark-wood", "gingham", "stripes", "noise")
PIECES = {
    (125.0, 105.0): (40, 38, 42),
    (225.0, 155.0): (45, 40, 200),
    (275.0, 55.0): (232, 236, 236),
    (75.0, 205.0): (165, 85, 25),
}


# ---------------------------------------------------------------- the table is table


@pytest.mark.parametrize("kind", TABLES)
def test_the_empty_table_is_all_table_under_changed_light(kind: str) -> None:
    rng = numpy.random.default_rng(1)
    empty = table(kind, rng)
    reference = learned(empty)
    for gain, slope in (
        ((1.0, 1.0, 1.0), 0.0),
        ((0.6, 0.62, 0.58), 0.0),
        ((1.3, 1.2, 1.4), 0.1),
        ((0.9, 1.0, 1.25), 0.2),
    ):
        view = reference.look(lit(empty, gain, slope))
        assert not view.refused, (kind, gain, view.reason)
        assert foreground_share(view) < 0.01, (kind, gain, foreground_share(view))


def test_a_board_s_thin_print_a_millimetre_off_stays_table() -> None:
    rng = numpy.random.default_rng(6)
    board = table("light-wood", rng)
    board[100:430, 160:640] = 225  # a board of card...
    printed = board.copy()
    # ...printed with 1 mm lines astride the mask's 2 mm pixels
    for mm in range(90, 310, 24):
        printed[100:430, 2 * mm + 3 : 2 * mm + 5] = (150, 155, 165)
    for mm in range(60, 210, 20):
        printed[2 * mm + 3 : 2 * mm + 5, 160:640] = (150, 155, 165)
    reference = learned(printed)
    # The calibration settles the plane half a millimetre off: each line falls within one pixel.
    shifted = numpy.roll(printed, (1, 1), axis=(0, 1))
    shifted[:100], shifted[430:], shifted[:, :160], shifted[:, 640:] = (
        printed[:100],
        printed[430:],
        printed[:, :160],
        printed[:, 640:],
    )
    view = reference.look(shifted)
    assert foreground_share(view) < 0.01, foreground_share(view)
    # A piece nearly as light as the card, over a line, differs from it faintly but over its whole face:
    # still piece.
    faint = shifted.copy()
    faint[250:300, 400:460] = 205
    assert reference.look(faint).foreground[mask_box(205, 130, 225, 145)].mean() > 0.9


@pytest.mark.parametrize("kind", TABLES)
def test_pieces_differ_and_their_shadows_stay_table(kind: str) -> None:
    rng = numpy.random.default_rng(2)
    empty = table(kind, rng)
    reference = learned(empty)
    view = reference.look(lit(with_pieces(empty, PIECES), (0.8, 0.85, 0.9), 0.1))
    assert not view.refused, view.reason
    for cx, cy in PIECES:
        inside = view.foreground[mask_box(cx - 12, cy - 12, cx + 12, cy + 12)]
        # On a cloth with a check or stripe of the piece's own colour, a corner of the piece may pass for
        # the cloth; its middle, that the recognisers read, does not.
        assert inside.mean() > 0.9, (kind, (cx, cy), inside.mean())
        # The shadow falls 3 mm beyond the piece's right and bottom edges; 6 mm out is table again.
        beyond = view.foreground[mask_box(cx - 10, cy + 21, cx + 10, cy + 25)]
        assert beyond.mean() < 0.2, (kind, (cx, cy), beyond.mean())
    assert foreground_share(view) < len(PIECES) * (PIECE_MM + 6) ** 2 / (PLANE_MM[0] * PLANE_MM[1])


# ---------------------------------------------------------------- normalised planes


def test_a_piece_normalises_alike_on_two_very_different_tables() -> None:
    rng = numpy.random.default_rng(3)
    planes = []
    for kind, gain in (("light-wood", (1.0, 1.0, 1.0)), ("gingham", (0.7, 0.8, 0.95))):
        empty = table(kind, rng)
        # The same lamp lights learning and reading on each table, but the two lamps differ.
        planes.append(normalised_plane([lit(empty, gain)], lit(with_pieces(empty, PIECES), gain), layout()))
    first, second = (plane.astype(numpy.int16) for plane in planes)
    for cx, cy in PIECES:
        x, y = round(cx * PLANE_PX_PER_MM), round(cy * PLANE_PX_PER_MM)
        inside = (slice(y - 26, y + 27), slice(x - 26, x + 27))  # the piece less its outer 2 mm
        difference = numpy.abs(first[inside] - second[inside])
        assert numpy.median(difference) <= 6, ((cx, cy), numpy.median(difference))
        assert numpy.percentile(difference, 95) <= 24, ((cx, cy), numpy.percentile(difference, 95))
        # 6-9 mm beyond the piece's left and upper edges (its shadow falls to the lower right): neutral.
        for plane in planes:
            above, left = plane[y - 48 : y - 36, x - 30 : x + 30], plane[y - 30 : y + 30, x - 48 : x - 36]
            band = numpy.concatenate([above.reshape(-1, 3), left.reshape(-1, 3)])
            assert numpy.all(band == NEUTRAL_BGR, axis=1).mean() > 0.9, (cx, cy)
    neutral = numpy.all(planes[1] == NEUTRAL_BGR, axis=2)
    assert neutral.mean() > 0.8  # the gingham is gone: only pieces remain (and the markers' paper border)


def test_normalising_brings_the_markers_paper_to_canonical_white() -> None:
    rng = numpy.random.default_rng(4)
    empty = lit(table("light-wood", rng), (0.7, 0.9, 0.95))
    reference = learned(empty)
    assert reference.white_balanced
    view = reference.look(with_pieces(empty, PIECES))
    corrected = numpy.clip(
        empty.astype(numpy.float32) * cv2.resize(view.correction, empty.shape[1::-1]), 0, 255
    )
    paper = corrected[62:66, 20:50]  # the paper border below the top-left marker, lit by the cast
    assert numpy.all(numpy.abs(numpy.median(paper.reshape(-1, 3), axis=0) - CANONICAL_WHITE * 240 / 255) < 12)


def test_a_lamps_hotspot_brighter_than_the_markers_paper_does_not_clip_what_lies_in_it() -> None:
    rng = numpy.random.default_rng(5)
    board = table("light-wood", rng)
    board[120:400, 200:600] = 240  # a board of white card in the middle, as white as the markers' paper
    height, width = board.shape[:2]
    y, x = numpy.mgrid[0:height, 0:width].astype(numpy.float32)
    # The lamp over the middle: the corners (the markers) get 0.65 of its light.
    light = 0.65 + 0.35 * numpy.exp(-(((x - width / 2) / 220.0) ** 2 + ((y - height / 2) / 160.0) ** 2))

    def under_lamp(plane: Frame) -> Frame:
        return numpy.clip(plane.astype(numpy.float32) * light[..., None], 0, 255).astype(numpy.uint8)

    with_piece = board.copy()
    with_piece[220:300, 360:440] = 200  # a pale piece...
    with_piece[255:265, 360:440] = 160  # ...with a grey stripe across it
    reference = learned(under_lamp(board))
    view = reference.look(under_lamp(with_piece))
    normalised = reference.normalise(under_lamp(with_piece), view).astype(numpy.int16)
    face, stripe = normalised[225:250, 370:430], normalised[258:262, 370:430]
    assert numpy.median(face) <= 235  # the board's card is no whiter than the markers': the face below
    assert numpy.median(face) - numpy.median(stripe) >= 20  # not both clipped to 255
    # Away from the hotspot the markers' paper is still canonical white.
    corrected = under_lamp(board) * cv2.resize(view.correction, (width, height))
    paper = numpy.median(corrected[62:66, 20:50], axis=(0, 1))
    assert numpy.all(numpy.abs(paper - CANONICAL_WHITE * 240 / 255) < 3)


# ---------------------------------------------------------------- hands


@pytest.mark.parametrize("kind", TABLES)
def test_arms_from_every_edge_in_every_tone_are_hands(kind: str) -> None:
    rng = numpy.random.default_rng(5)
    empty = table(kind, rng)
    reference = learned(empty)
    missed = []
    for edge in ("top", "bottom", "left", "right"):
        for colour in (*SKINS_BGR, SLEEVE_BGR):
            plane = lit(with_arm(with_pieces(empty, PIECES), edge, colour, rng), (0.9, 0.95, 1.0))
            view = reference.look(plane)
            if not view.hand:
                missed.append((edge, colour))
            else:
                assert view.refused and "hand" in view.reason
    assert not missed, (kind, missed)


@pytest.mark.parametrize("kind", TABLES)
def test_pieces_and_a_row_of_them_are_no_hand(kind: str) -> None:
    rng = numpy.random.default_rng(6)
    empty = table(kind, rng)
    reference = learned(empty)
    row = {(75.0 + 31.0 * n, 215.0): (60, 150, 45) for n in range(9)}  # touching, 20 mm from the edge
    for pieces in (PIECES, row, {(200.0, 130.0): (45, 205, 235)}):
        view = reference.look(lit(with_pieces(empty, pieces), (1.1, 1.05, 1.0)))
        assert not view.hand and not view.refused, (kind, view.reason)


def test_a_changed_cloth_is_refused_with_a_reason() -> None:
    rng = numpy.random.default_rng(7)
    reference = learned(table("light-wood", rng))
    view = reference.look(table("stripes", rng))
    assert view.refused and "learned at setup" in view.reason


# ---------------------------------------------------------------- keeping current


def test_the_reference_follows_the_table_but_not_the_pieces() -> None:
    rng = numpy.random.default_rng(8)
    empty = table("noise", rng)
    followed, fixed = learned(empty), learned(empty)
    piece = {(125.0, 105.0): (45, 40, 200)}
    patch = (
        slice(360, 440),
        slice(600, 680),
    )  # 40 mm of cloth that slowly fades (a spill drying), in plane px
    for step in range(1, 241):
        drifted = empty.copy()
        drifted[patch] = numpy.clip(drifted[patch].astype(numpy.int16) + step // 3, 0, 255).astype(
            numpy.uint8
        )
        played = with_pieces(drifted, piece)
        followed.keep_current(played, followed.look(played))
    patch_mm = mask_box(305, 185, 335, 215)
    assert fixed.look(played).foreground[patch_mm].mean() > 0.5  # 80 levels brighter: no table any more...
    view = followed.look(played)
    assert view.foreground[patch_mm].mean() < 0.05  # ...unless the reference followed it
    assert view.foreground[mask_box(115, 95, 135, 115)].mean() > 0.95  # the piece never became table


def test_bad_planes_are_refused_clearly() -> None:
    reference = TableReference(layout())
    with pytest.raises(ReferenceError, match="at least one plane"):
        reference.learn([])
    with pytest.raises(ReferenceError, match="no reference learned"):
        reference.look(table("gingham", numpy.random.default_rng(0)))
    with pytest.raises(ReferenceError, match="shape"):
        reference.learn([numpy.zeros((10, 10, 3), numpy.uint8)])


# ---------------------------------------------------------------- through the pipeline


def test_plane_reader_learns_the_empty_area_and_reads_against_it(tmp_path: Path) -> None:
    """A generated session (one table, camera and lamp; reference frames first; seed 1 has arms in it)
    through PlaneReader."""
    from companion.vision.generate.session import generate_session
    from companion.vision.pipeline import PlaneReader
    from companion.vision.recording import load_recording

    recording = load_recording(generate_session("minotaurus", tmp_path, 10, seed=1, table="dark-wood"))
    reader = PlaneReader(recording.game, recording.options)
    frames = [(frame, image) for frame, image in recording.images() if image is not None]
    play = [(frame, image) for frame, image in frames if not frame.reference]

    before = reader.read(play[0][1])
    assert before.reading is not None and not before.hand and "reference" not in before.stages
    assert not reader.learn_reference(numpy.full((720, 1280, 3), 128, numpy.uint8)).learned
    assert reader.reference is None
    learned_result = reader.learn_reference([image for frame, image in frames if frame.reference])
    assert learned_result.learned and reader.reference is not None, learned_result.message

    cells_right = cells = hands = 0
    for frame, image in play:
        result = reader.read(image)
        if frame.hand:
            hands += 1
            assert result.hand and result.reading is None and "hand" in result.refused
            assert reader.normalised_plane(image) is None
            continue
        assert not result.hand and result.reading is not None and result.plane is not None
        assert "reference" in result.stages
        neutral = numpy.all(result.plane == NEUTRAL_BGR, axis=2)
        again = reader.normalised_plane(image)  # what teaching and training see: the same plane
        assert again is not None and numpy.mean(numpy.all(again == NEUTRAL_BGR, axis=2) == neutral) > 0.98
        for cell, label in (frame.labels or {}).items():
            x0, y0, x1, y1 = reader.layout.items[cell].box_px()
            middle = neutral[(y0 + y1) // 2 - 8 : (y0 + y1) // 2 + 8, (x0 + x1) // 2 - 8 : (x0 + x1) // 2 + 8]
            # An empty cell shows the table, replaced; a piece is kept.
            cells_right += middle.mean() > 0.8 if label == "empty" else middle.mean() < 0.2
            cells += 1
    assert hands >= 1 and cells >= 250
    assert cells_right / cells >= 0.98


def test_the_watcher_learns_the_empty_area_from_its_first_steady_view(tmp_path: Path) -> None:
    from companion.vision.generate.session import generate_session
    from companion.vision.recording import load_recording
    from companion.vision.watcher import StableReader

    # Light wood, the built-in look's own table: its recogniser reads the empty area as empty there.
    # (Seed 2's session has an arm among its six play frames.)
    recording = load_recording(generate_session("minotaurus", tmp_path, 6, seed=2, table="light-wood"))
    frames = [(frame, image) for frame, image in recording.images() if image is not None]
    empty = next(image for frame, image in frames if frame.reference)
    played = next(
        image for frame, image in frames if not frame.reference and not frame.hand and not frame.motion
    )
    arm = next(image for frame, image in frames if frame.hand)
    steady = 4  # more than StabilitySettings.stable_frames

    never = StableReader(recording.game, recording.options, None, learn_reference=False)
    assert never.relearn_reference().learned is False  # no steady view yet: nothing to learn from
    pieces_first = StableReader(recording.game, recording.options, None)
    for _ in range(steady):
        never.step(empty)
        pieces_first.step(played)
    assert never.pipeline.reference is None
    assert pieces_first.pipeline.reference is None  # pieces already laid out: not taken as the empty area

    reader = StableReader(recording.game, recording.options, None)
    for _ in range(steady):
        reader.step(empty)
    assert reader.pipeline.reference is not None
    step = reader.step(arm)
    assert step.check is not None and step.check.hand and step.reading is None
    for _ in range(steady):
        step = reader.step(played)
    assert step.stable and step.reading is not None
    assert any(label == "down" for label in step.reading.items.values())

    # The setup page: the pieces are on now, but the user says it is the empty area (and may).
    assert pieces_first.relearn_reference().learned and pieces_first.pipeline.reference is not None


# ---------------------------------------------------------------- the table around the plane

BORDER_PX = 80
"""The camera frame of the surround tests shows the table this far (40 mm) beyond the plane on every side."""


def edge_to_edge_layout() -> Layout:
    """Items right up to 10 mm from the plane's edge (as the Minos tray's dice), with their slack all
    but 4 mm: too narrow a free border to see an arm come in over."""
    width, height = PLANE_MM
    return Layout(PLANE_MM, {"tray": ItemRegion((width / 2, height / 2), (width - 20.0, height - 20.0))})


IDENTITY_SHIFTED = numpy.array([[1.0, 0.0, -BORDER_PX], [0.0, 1.0, -BORDER_PX], [0.0, 0.0, 1.0]])
"""The homography from such a frame to the plane."""


def in_frame(empty_frame: Frame, plane: Frame) -> Frame:
    """The camera frame with this plane inside the table around it."""
    out = empty_frame.copy()
    out[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX] = plane
    return out


@pytest.mark.parametrize("kind", ("light-wood", "gingham", "noise"))
def test_an_arm_is_seen_crossing_the_table_around_a_plane_full_of_items(kind: str) -> None:
    rng = numpy.random.default_rng(9)
    tray = edge_to_edge_layout()
    plane = table(kind, rng)
    frame = cv2.copyMakeBorder(plane, BORDER_PX, BORDER_PX, BORDER_PX, BORDER_PX, cv2.BORDER_REFLECT)
    reference = TableReference(tray)
    reference.learn([plane], [TableReference.surround_of(tray, frame, IDENTITY_SHIFTED)])
    # Pieces in a row along the bottom edge, 2 mm in from it: they lie on the plane and cross nothing.
    row = {(60.0 + 31.0 * n, PLANE_MM[1] - 17.0): (60, 150, 45) for n in range(9)}
    with_row = with_pieces(plane, row)
    view = reference.look(with_row, reference.surround_of(tray, in_frame(frame, with_row), IDENTITY_SHIFTED))
    assert not view.hand and not view.refused, (kind, view.reason)
    missed = []
    for edge in ("top", "bottom", "left", "right"):
        for colour in (*SKINS_BGR, SLEEVE_BGR):
            shot = lit(with_arm(in_frame(frame, with_row), edge, colour, rng), (0.9, 0.95, 1.0))
            surround = reference.surround_of(tray, shot, IDENTITY_SHIFTED)
            if not reference.look(shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX], surround).hand:
                missed.append((edge, colour))
    assert not missed, (kind, missed)


def with_head_shadow(frame: Frame, centre: tuple[float, float]) -> Frame:
    """A player's head between the lamp and the table: a large soft shadow, a little bluer than the lamp
    (the daylight still reaches there), around `centre` (frame px)."""
    shade = numpy.zeros(frame.shape[:2], numpy.float32)
    cv2.circle(shade, (round(centre[0]), round(centre[1])), 160, 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), 30)[..., None]
    darkening = 1.0 - shade * numpy.array([0.4, 0.45, 0.5], numpy.float32)
    return numpy.clip(frame.astype(numpy.float32) * darkening, 0, 255).astype(numpy.uint8)


@pytest.mark.parametrize("kind", ("light-wood", "gingham", "noise"))
def test_a_head_shadow_across_the_edge_is_no_hand(kind: str) -> None:
    rng = numpy.random.default_rng(10)
    tray = edge_to_edge_layout()
    plane = table(kind, rng)
    frame = cv2.copyMakeBorder(plane, BORDER_PX, BORDER_PX, BORDER_PX, BORDER_PX, cv2.BORDER_REFLECT)
    reference = TableReference(tray)
    reference.learn([plane], [TableReference.surround_of(tray, frame, IDENTITY_SHIFTED)])
    with_row = in_frame(frame, with_pieces(plane, PIECES))
    height, width = frame.shape[:2]
    for centre in ((width * 0.4, BORDER_PX), (BORDER_PX, height * 0.6), (width * 0.7, height - BORDER_PX)):
        shot = with_head_shadow(with_row, centre)
        view = reference.look(
            shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX],
            reference.surround_of(tray, shot, IDENTITY_SHIFTED),
        )
        assert not view.hand, (kind, centre)


@pytest.mark.parametrize("kind", ("light-wood", "gingham", "noise"))
def test_a_ring_over_the_band_by_a_marker_is_no_hand_an_arm_over_the_corner_is(kind: str) -> None:
    rng = numpy.random.default_rng(11)
    plane = table(kind, rng)
    frame = cv2.copyMakeBorder(plane, BORDER_PX, BORDER_PX, BORDER_PX, BORDER_PX, cv2.BORDER_REFLECT)
    reference = TableReference(layout())
    reference.learn([plane], [TableReference.surround_of(layout(), frame, IDENTITY_SHIFTED)])
    height = frame.shape[0]

    def seen(shot: Frame) -> TableView:
        inner = shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX]
        return reference.look(inner, reference.surround_of(layout(), shot, IDENTITY_SHIFTED))

    # A toss's ring (66 mm across, a 4 mm cord) landed over the bottom-left marker, from the band's outer
    # edge onto the plane: it crosses the band, but comes into the plane only over the marker.
    ring_shot = frame.copy()
    centre = (BORDER_PX + 4, height - BORDER_PX - 40)
    cv2.circle(ring_shot, centre, 66, (40, 40, 200), 8)
    assert not seen(ring_shot).hand, kind
    # A hand reaching in over the same corner, over the marker and on into the plane.
    arm_shot = frame.copy()
    cv2.line(arm_shot, (0, height), (frame.shape[1] // 2, height // 2), SKINS_BGR[2], 100)
    assert seen(arm_shot).hand, kind


def test_the_band_is_warped_only_when_the_planes_changes_reach_its_edge() -> None:
    # The band's comparison finds an arm only where the plane's changes come in over its edge: with the
    # pieces in the middle the band is not even warped; an arm over the same board is still a hand.
    rng = numpy.random.default_rng(12)
    plane = table("light-wood", rng)
    frame = numpy.asarray(cv2.copyMakeBorder(plane, *(BORDER_PX,) * 4, cv2.BORDER_REFLECT), numpy.uint8)
    reference = TableReference(layout())
    reference.learn([plane], [TableReference.surround_of(layout(), frame, IDENTITY_SHIFTED)])
    warped: list[Frame] = []

    def band(shot: Frame) -> Frame:
        warped.append(shot)
        return TableReference.surround_of(layout(), shot, IDENTITY_SHIFTED)

    pieces = in_frame(frame, with_pieces(plane, PIECES))
    view = reference.look(pieces[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX], lambda: band(pieces))
    assert not view.refused and not warped, view.reason
    arm = with_arm(pieces, "left", SKINS_BGR[1], rng)
    view = reference.look(arm[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX], lambda: band(arm))
    assert view.hand and len(warped) == 1


def test_the_band_warped_strip_by_strip_is_the_band_of_the_whole_warp() -> None:
    rng = numpy.random.default_rng(13)
    plane = with_pieces(table("noise", rng), PIECES)
    frame = numpy.asarray(cv2.copyMakeBorder(plane, *(BORDER_PX,) * 4, cv2.BORDER_REFLECT), numpy.uint8)
    # A homography off the pixel grid: rotated a little, scaled and shifted.
    turn = cv2.getRotationMatrix2D((300.0, 200.0), 3.0, 0.97)
    homography = numpy.vstack([turn, [0.0, 0.0, 1.0]]) @ IDENTITY_SHIFTED
    surround = TableReference(layout())._surround
    whole = surround.warp(frame, homography).astype(numpy.int16)
    band = TableReference.surround_of(layout(), frame, homography).astype(numpy.int16)
    reach = surround.margin + 6  # the strips `Surround.changed` reads
    strips = numpy.ones(whole.shape[:2], bool)
    strips[reach:-reach, reach:-reach] = False
    # Alike but for the warp's fixed-point rounding, a grey level here and there.
    assert numpy.abs(whole - band)[strips].max() <= 1
    assert numpy.count_nonzero(whole[strips] != band[strips]) < 0.01 * whole[strips].size


@pytest.mark.parametrize("pieces", ({}, PIECES, {(10.0, 130.0): (40, 38, 42), (390.0, 250.0): (45, 40, 200)}))
def test_normalising_the_foregrounds_box_alone_is_normalising_the_whole_plane(
    pieces: dict[tuple[float, float], tuple[int, int, int]],
) -> None:
    # Pieces in the middle, at the plane's edges, or none: the plane's pixels outside the box around the
    # foreground are table whatever the spread of the whole mask would give them.
    rng = numpy.random.default_rng(14)
    empty = table("gingham", rng)
    reference = learned(empty)
    plane = lit(with_pieces(empty, pieces), (0.9, 1.0, 1.1), 0.2)
    view = reference.look(plane)
    width, height = reference.plane_size
    spread = cv2.resize(
        view.foreground.astype(numpy.uint8) * 255, (width, height), interpolation=cv2.INTER_LINEAR
    )
    scaled = numpy.clip(view.correction * 80.0, 0, 255).astype(numpy.uint8)
    factor = cv2.resize(scaled, (width, height), interpolation=cv2.INTER_LINEAR)
    expected = numpy.where(
        (spread > 80)[..., None], cv2.multiply(plane, factor, scale=1.0 / 80.0), NEUTRAL_BGR
    )
    assert numpy.array_equal(reference.normalise(plane, view), expected.astype(numpy.uint8))


def test_small_enclosed_holes_are_filled_and_no_other_table() -> None:
    reference = TableReference(layout())
    height, width = reference.size[1], reference.size[0]
    rng = numpy.random.default_rng(15)
    filled = 0
    for trial in range(40):
        foreground = numpy.zeros((height, width), numpy.uint8)
        for _ in range(rng.integers(1, 8)):
            x, y = int(rng.integers(-10, width)), int(rng.integers(-10, height))
            side = int(rng.integers(4, 40))
            foreground[max(0, y) : y + side, max(0, x) : x + side] = 1
            # Some table left inside each: a hole (small or not), or a notch open to the outside.
            hx, hy = x + int(rng.integers(1, side)), y + int(rng.integers(1, side))
            foreground[
                max(0, hy) : hy + int(rng.integers(1, 14)), max(0, hx) : hx + int(rng.integers(1, 14))
            ] = 0
        _, labels, stats, _ = cv2.connectedComponentsWithStats(1 - foreground, connectivity=4)
        left, top = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
        inside = (left > 0) & (top > 0)
        inside &= (left + stats[:, cv2.CC_STAT_WIDTH] < width) & (top + stats[:, cv2.CC_STAT_HEIGHT] < height)
        holes = (stats[:, cv2.CC_STAT_AREA] <= 300.0 * MASK_PX_PER_MM**2) & inside
        holes[0] = False
        expected = foreground | holes[labels].astype(numpy.uint8)
        assert numpy.array_equal(hand_check.filled(foreground), expected), trial
        filled += int(not numpy.array_equal(expected, foreground))
    assert filled >= 10  # holes were there to fill


def test_no_arm_can_cross_the_band_into_changes_that_do_not_reach_the_planes_edge() -> None:
    # The band is compared only when the plane's changes may take part in a crossing: wherever the
    # reference says they cannot, even a band changed all over (every pixel of it foreign) crosses into
    # nothing. This holds `HandCheck.may_come_in` to what `Surround.crossing` asks of the plane's side.
    reference = TableReference(layout())
    surround = reference._surround
    height, width = reference.size[1], reference.size[0]
    m = surround.margin
    everything = numpy.ones((surround.size[1], surround.size[0]), bool)
    everything[m:-m, m:-m] = False
    rng = numpy.random.default_rng(16)
    outcomes = set()
    for trial in range(60):
        joined = numpy.zeros((height, width), numpy.uint8)
        for _ in range(rng.integers(1, 5)):
            x, y = int(rng.integers(-20, width)), int(rng.integers(-20, height))
            w, h = int(rng.integers(2, 60)), int(rng.integers(2, 60))
            joined[max(0, y) : y + h, max(0, x) : x + w] = 1
        may = reference._hands.may_come_in(joined)
        width_mm = reference.settings.hand_min_edge_mm
        crossed = surround.crossing(everything, joined, width_mm, None, reference._markers, None)
        assert may or not crossed, trial
        outcomes.add((may, crossed))
    assert (True, True) in outcomes and (False, False) in outcomes  # both kinds of changes were drawn


def test_the_bands_own_light_is_measured_only_when_its_changes_cross_into_the_planes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A player's head shading the band beyond the top edge changes the band under the plane's light, but
    # nothing there crosses into the plane's changes (the pieces lie along the bottom edge): the band's
    # own light is not measured. An arm coming in over the same top edge still is, and is a hand.
    rng = numpy.random.default_rng(14)
    tray = edge_to_edge_layout()
    plane = table("light-wood", rng)
    frame = numpy.asarray(cv2.copyMakeBorder(plane, *(BORDER_PX,) * 4, cv2.BORDER_REFLECT), numpy.uint8)
    reference = TableReference(tray)
    reference.learn([plane], [TableReference.surround_of(tray, frame, IDENTITY_SHIFTED)])
    row = with_pieces(plane, {(60.0 + 31.0 * n, PLANE_MM[1] - 17.0): (60, 150, 45) for n in range(9)})
    measured: list[bool] = []
    changed = Surround._changed  # `changed` and `changed_if_crossed` both

    def counted(band: Surround, *args: object) -> object:
        measured.append(args[4] is None)  # no `log_light`: the band's own light
        return changed(band, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Surround, "_changed", counted)

    def seen(shot: Frame) -> TableView:
        inner = shot[BORDER_PX:-BORDER_PX, BORDER_PX:-BORDER_PX]
        return reference.look(inner, reference.surround_of(tray, shot, IDENTITY_SHIFTED))

    # The shadow over the band alone (28 mm of its 30 beyond the top edge, softly edged).
    sharp = numpy.zeros(frame.shape[:2], numpy.float32)
    sharp[BORDER_PX - 70 : BORDER_PX - 14, 150:450] = 0.45
    shade = cv2.GaussianBlur(sharp, (0, 0), 4)[..., None]
    shaded = numpy.clip(in_frame(frame, row).astype(numpy.float32) * (1.0 - shade), 0, 255).astype(
        numpy.uint8
    )
    view = seen(shaded)
    assert not view.refused and measured and not any(measured), (view.reason, measured)
    measured.clear()
    view = seen(with_arm(in_frame(frame, row), "top", SKINS_BGR[1], rng))
    assert view.hand and any(measured), measured
