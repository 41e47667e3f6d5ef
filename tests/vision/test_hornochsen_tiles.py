"""Tanz der Hornochsen: the shortcuts that find and measure a tile give what the plain ways give.

Each shortcut (one morphology for every brightness share, a histogram without a mask, the ink by a
look-up table) is compared with the plain computation it replaced, on random planes.
"""

from __future__ import annotations

import cv2
import numpy

from companion.vision.base import ItemRegion
from companion.vision.recognisers import _hornochsen_grid, _hornochsen_seen, _hornochsen_tiles


def _random_tile_crop(rng: numpy.random.Generator) -> tuple[numpy.typing.NDArray[numpy.uint8], ...]:
    """A wide crop's lightness with a few bright blobs (faces, parts of neighbours) and ink, and the
    non-empty area (255) round them."""
    light = numpy.asarray(rng.integers(60, 140, (96, 96)), numpy.uint8)
    for _ in range(3):
        x, y = (int(v) for v in rng.integers(0, 96, 2))
        side = int(rng.integers(20, 60))
        cv2.rectangle(
            light,
            (x - side // 2, y - side // 2),
            (x + side // 2, y + side // 2),
            int(rng.integers(170, 250)),
            -1,
        )
    cv2.putText(light, str(int(rng.integers(10, 99))), (30, 60), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 40, 3)
    light = numpy.asarray(cv2.GaussianBlur(light, (0, 0), float(rng.uniform(0.5, 2.0))), numpy.uint8)
    faces = numpy.asarray(numpy.where(rng.random((96, 96)) < 0.15, 0, 255), numpy.uint8)
    faces = numpy.asarray(
        cv2.morphologyEx(faces, cv2.MORPH_OPEN, numpy.ones((5, 5), numpy.uint8)), numpy.uint8
    )
    return light, faces


def test_one_morphology_outlines_the_face_at_every_brightness_share() -> None:
    """The face's lightness closed and opened once, thresholded at a share, is that share's bright face
    pixels closed and opened (what the outline is found in)."""
    rng = numpy.random.default_rng(12)
    disc = _hornochsen_seen._DISC
    for _ in range(40):
        light, faces = _random_tile_crop(rng)
        shaped = _hornochsen_tiles._shaped(light, faces)
        brightest = float(rng.uniform(150, 255))
        for share in _hornochsen_tiles.BRIGHT_SHARES:
            bright = cv2.threshold(light, share * brightest, 1, cv2.THRESH_BINARY)[1]
            closed = cv2.morphologyEx(cv2.bitwise_and(bright, faces), cv2.MORPH_CLOSE, disc)
            plain = cv2.morphologyEx(closed, cv2.MORPH_OPEN, disc)
            assert numpy.array_equal(cv2.threshold(shaped, share * brightest, 1, cv2.THRESH_BINARY)[1], plain)


def test_a_squares_levels_are_its_tiles_order_statistics() -> None:
    """square_levels' share of tile and its darkest tenth, median and brightest tenth, from a histogram of
    the whole square with the empty area taken off, are those of the tile's own pixels."""
    rng = numpy.random.default_rng(13)
    for _ in range(60):
        plane = numpy.asarray(rng.integers(0, 256, (120, 160, 3)), numpy.uint8)
        table = numpy.asarray(
            numpy.where(rng.random((120, 160)) < rng.uniform(0.0, 0.7), 255, 0), numpy.uint8
        )
        plane[table > 0] = 255  # the empty area as light as a face can be: only the mask tells them apart
        seen = _hornochsen_seen.Seen.of(plane, table)
        region = ItemRegion((float(rng.uniform(10, 70)), float(rng.uniform(10, 50))), (30.0, 30.0))
        tile, (median, light, dark) = _hornochsen_seen.square_levels(seen, region)
        x0, y0, x1, y1 = region.box_px()
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(160, x1), min(120, y1)
        dy, dx = round((y1 - y0) * 0.2), round((x1 - x0) * 0.2)
        middle = (slice(y0 + dy, y1 - dy), slice(x0 + dx, x1 - dx))
        pixels = numpy.sort(seen.grey[middle][table[middle] == 0])
        assert tile == 1.0 - (table[middle] > 0).sum() / table[middle].size
        if tile >= _hornochsen_seen.NORMALISED_TILE_SHARE:
            size = len(pixels)
            assert (dark, median, light) == tuple(
                float(pixels[k]) for k in (size // 10, size // 2, size * 9 // 10)
            )


def test_the_fits_ink_is_darker_than_three_quarters_of_a_light_face_about_it() -> None:
    """_ink's look-up table marks what numpy's whole-number comparison marks: grey < 0.75 of the lightest
    grey within 3 mm, where that is lighter than FACE_LEVEL, well inside the tiles, seams left out."""
    rng = numpy.random.default_rng(14)
    for _ in range(20):
        grey = numpy.asarray(
            cv2.GaussianBlur(rng.integers(0, 256, (200, 300), dtype=numpy.uint8), (0, 0), 2), numpy.uint8
        )
        grey = numpy.asarray(numpy.clip(grey.astype(numpy.int32) * 3 - 200, 0, 255), numpy.uint8)
        table = numpy.zeros((200, 300), numpy.uint8)
        for _ in range(4):  # the empty area in patches between the tiles
            x, y = (int(v) for v in rng.integers(0, 300, 2))
            cv2.rectangle(table, (x, y % 200), (x + 60, y % 200 + 40), 255, -1)
        small = cv2.resize(grey, (150, 100), interpolation=cv2.INTER_AREA)
        empty = cv2.resize(table, (150, 100), interpolation=cv2.INTER_AREA)
        face = cv2.dilate(small, _hornochsen_grid._FACE_REACH)
        inner = cv2.erode(numpy.asarray(empty < 128, numpy.uint8), _hornochsen_grid._FACE_REACH)
        darker = small.astype(numpy.int32) * 4 < face.astype(numpy.int32) * 3
        plain = (darker & (face > _hornochsen_grid.FACE_LEVEL) & (inner > 0)).astype(numpy.uint8)
        seams = cv2.morphologyEx(plain, cv2.MORPH_OPEN, _hornochsen_grid._SEAM)
        plain[cv2.dilate(seams, _hornochsen_grid._SEAM_WIDTH) > 0] = 0
        assert plain.any()
        assert numpy.array_equal(_hornochsen_grid._ink(grey, table), plain)


def test_a_windows_lightness_and_outline_from_the_frames_shaped_plane() -> None:
    """tile_window's lightness is the plane's grey with the empty area at the face's level, and the outline
    found in its slice of the whole plane's shaped lightness (Seen.shaped, made once a frame) is the one
    found by shaping the window alone, for a tile clear of the window's sides."""
    rng = numpy.random.default_rng(14)
    for _ in range(30):
        grey = numpy.asarray(rng.integers(60, 120, (240, 320)), numpy.uint8)
        x, y = int(rng.integers(140, 180)), int(rng.integers(100, 140))
        turn = float(rng.uniform(-8, 8))
        box = cv2.boxPoints(((x, y), (52.0, 52.0), turn)).astype(numpy.int32)
        cv2.fillConvexPoly(grey, box, int(rng.integers(170, 250)))
        cv2.putText(
            grey, str(int(rng.integers(10, 99))), (x - 20, y + 10), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 40, 3
        )
        table = numpy.full(grey.shape, 255, numpy.uint8)
        cv2.fillConvexPoly(table, box, 0)
        table[numpy.asarray(rng.random(grey.shape) < 0.02) & (table == 0)] = 255  # specks taken for empty
        plane = numpy.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), numpy.uint8)
        seen = _hornochsen_seen.Seen(plane, table, grey)
        level = float(rng.integers(170, 250))
        region = ItemRegion(
            (x / 2 + float(rng.uniform(-3, 3)), y / 2 + float(rng.uniform(-3, 3))), (30.0, 30.0)
        )
        window = _hornochsen_tiles.tile_window(seen, region, level)
        x0, y0, x1, y1 = _hornochsen_tiles._wide_box(region, grey.shape)
        plain = grey[y0:y1, x0:x1].copy()
        plain[table[y0:y1, x0:x1] > 0] = int(level)
        assert numpy.array_equal(window.light, plain)
        faces = numpy.asarray(cv2.inRange(table[y0:y1, x0:x1], 0, 0), numpy.uint8)
        alone = _hornochsen_tiles._tile_rect(plain, faces, window.here, level)
        assert window.rect is not None and window.rect == alone


def test_squares_levels_at_once_are_each_squares_own() -> None:
    """squares_levels (every square of a size sorted at once, in the middles Seen.middles counted or its
    own) gives each square what square_levels gives it alone: squares and slots of two sizes, some cut by
    the plane's side, some mostly empty area."""
    rng = numpy.random.default_rng(15)
    held = 0
    for _ in range(20):
        plane = numpy.asarray(rng.integers(0, 256, (240, 320, 3)), numpy.uint8)
        table = numpy.asarray(
            numpy.where(rng.random((240, 320)) < rng.uniform(0.0, 0.9), 255, 0), numpy.uint8
        )
        plane[table > 0] = 255
        seen = _hornochsen_seen.Seen.of(plane, table)
        regions = [
            ItemRegion((float(rng.uniform(-5, 165)), float(rng.uniform(-5, 125))), (side, side))
            for side in rng.choice([30.0, 36.0], 12)
        ]
        together = _hornochsen_seen.squares_levels(seen, regions)
        alone = [_hornochsen_seen.square_levels(seen, region) for region in regions]
        assert together == alone
        # ...and so from the middles the shares were counted in, whose shares are square_levels' own.
        shares, middles = seen.middles(regions)
        assert _hornochsen_seen.squares_levels(seen, regions, middles) == alone
        assert shares.tolist() == [tile for tile, _ in alone]
        held += sum(tile >= _hornochsen_seen.NORMALISED_TILE_SHARE for tile, _ in together)
    assert held > 50, "many squares hold a tile"


def test_the_shaped_plane_within_a_box_is_the_whole_planes_there() -> None:
    """Seen.shape_within (the morphology over a box and SHAPED_REACH round it) gives every window inside
    the box the bytes the whole plane's morphology gives it; a window outside the box is shaped over the
    whole plane."""
    rng = numpy.random.default_rng(16)
    for _ in range(20):
        grey = numpy.asarray(
            cv2.GaussianBlur(rng.integers(0, 256, (200, 300)).astype(numpy.uint8), (0, 0), 2.0), numpy.uint8
        )
        table = numpy.asarray(numpy.where(rng.random((200, 300)) < 0.3, 255, 0), numpy.uint8)
        plane = numpy.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), numpy.uint8)
        whole = _hornochsen_seen.Seen(plane, table, grey)
        part = _hornochsen_seen.Seen(plane, table, grey)
        x0, y0 = int(rng.integers(-10, 150)), int(rng.integers(-10, 100))
        box = (x0, y0, x0 + int(rng.integers(20, 200)), y0 + int(rng.integers(20, 150)))
        part.shape_within(box)
        inside = (max(0, box[0]), max(0, box[1]), min(300, box[2]), min(200, box[3]))
        assert numpy.array_equal(part.shaped_at(*inside), whole.shaped_at(*inside))
        assert numpy.array_equal(part.shaped_at(0, 0, 300, 200), whole.shaped_at(0, 0, 300, 200))
