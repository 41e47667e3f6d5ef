"""Tanz der Hornochsen's digits: joined digits cut apart, and the camera classifier."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import cv2
import numpy
import pytest

from companion.vision.base import PLANE_PX_PER_MM, Profile, encode_template, recogniser_for
from companion.vision.generate import render_plane
from companion.vision.generate._sprites import SPRITE_PX_PER_MM
from companion.vision.generate.hornochsen import draw_tile_face
from companion.vision.recognisers import (
    _hornochsen_classifier,
    _hornochsen_glyphs,
    _hornochsen_mend,
    _hornochsen_raw,
    _hornochsen_tiles,
    hornochsen,
)
from companion.vision.recognisers import _hornochsen_digits as digits
from companion.vision.recognisers._lab import FloatArray, palette_for

CROPS = Path(__file__).parent / "data" / "crops"

JOINING_BLUR = 3.5
"""Plane pixels: blurred this much, the two digits of a tile run together into one shape."""


def _blurred_tile(number: int, sigma: float, edition: str = "default") -> FloatArray:
    """A tile's lightness as the plane shows it, straight and centred, blurred by a Gaussian."""
    face = draw_tile_face(number, edition)[0]
    small = cv2.resize(
        face, None, fx=PLANE_PX_PER_MM / SPRITE_PX_PER_MM, fy=PLANE_PX_PER_MM / SPRITE_PX_PER_MM
    )
    margin = round(_hornochsen_tiles.STRAIGHT_MARGIN_MM * PLANE_PX_PER_MM)
    padded = cv2.copyMakeBorder(small, margin, margin, margin, margin, cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(padded, cv2.COLOR_BGR2GRAY).astype(numpy.float32)
    return numpy.asarray(cv2.GaussianBlur(grey, (0, 0), sigma), numpy.float32)


@pytest.mark.parametrize("number", [36, 44, 88])
def test_two_digits_blurred_into_one_shape_are_cut_apart(
    number: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    tile = _blurred_tile(number, JOINING_BLUR)
    glyphs = _hornochsen_glyphs.tile_glyphs(tile)
    assert len(glyphs) == 2 and all(glyph.joined for glyph in glyphs)
    assert glyphs[0].aspect < 1.2 and glyphs[1].aspect < 1.2, "each half is one digit wide"
    monkeypatch.setattr(_hornochsen_glyphs, "JOINED_ASPECT", 99.0)
    assert len(_hornochsen_glyphs.tile_glyphs(tile)) == 1, "without the cut: one shape"


def test_a_sharp_tile_is_not_cut() -> None:
    assert [glyph.joined for glyph in _hornochsen_glyphs.tile_glyphs(_blurred_tile(88, 1.0))] == [
        False,
        False,
    ]


def test_a_cow_pat_cut_in_two_is_not_taken_for_two_digits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A camera's view of an empty cow-pat square whose green looks like a tile's face (see the README)."""
    crop = numpy.asarray(cv2.imread(str(CROPS / "hornochsen-cowpat-square.png")), numpy.uint8)
    assert crop.ndim == 3, "the crop is there"
    recogniser = hornochsen.HornochsenRecogniser()
    profile = recogniser.default_profile()
    palette = palette_for(profile.colours, _hornochsen_raw.SURFACES, washed=False)
    templates = recogniser._templates(profile)
    region = recogniser.layout({"players": 6}).items["row:9:square:3"]
    assert recogniser._read_item(crop, region, palette, templates)[0] == "empty"
    monkeypatch.setattr(digits, "JOINED_SCORE", 0.0)
    assert recogniser._read_item(crop, region, palette, templates)[0].isdigit(), (
        "cut, it looks like two digits"
    )


@pytest.mark.parametrize(
    ("crop_file", "item_id", "number", "without"),
    [
        (
            "hornochsen-light-table-18.png",
            "played:seat4",
            "18",
            (_hornochsen_tiles, "BRIGHT_SHARES", (0.65,)),
        ),
        ("hornochsen-shadow-wisp-88.png", "row:4:square:4", "88", (_hornochsen_glyphs, "DIGIT_FILL", 0.15)),
        ("hornochsen-dark-25.png", "row:8:square:0", "25", (_hornochsen_raw, "DARK_LEVEL", 0.0)),
        ("hornochsen-shadowed-56.png", "row:5:square:3", "56", (_hornochsen_raw, "DARK_LEVEL", 0.0)),
        ("hornochsen-dark-table.png", "played:seat0:2", "empty", (_hornochsen_raw, "INK_SHARE", 1.0)),
    ],
)
def test_camera_crops_once_misread_are_read(
    crop_file: str,
    item_id: str,
    number: str,
    without: tuple[ModuleType, str, object],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each crop (see the README) is read right, and wrong without the setting that mends it."""
    crop = numpy.asarray(cv2.imread(str(CROPS / crop_file)), numpy.uint8)
    assert crop.ndim == 3, "the crop is there"
    recogniser = hornochsen.HornochsenRecogniser()
    profile = recogniser.default_profile()
    palette = palette_for(profile.colours, _hornochsen_raw.SURFACES, washed=False)
    templates = recogniser._templates(profile)
    region = recogniser.layout({"players": 6}).items[item_id]
    assert recogniser._read_item(crop, region, palette, templates)[0] == number
    module, name, value = without
    monkeypatch.setattr(module, name, value)
    assert recogniser._read_item(crop, region, palette, templates)[0] != number


def test_blurred_board_prints_are_not_read_as_numbers() -> None:
    """Cow-pats and happy cows printed on empty squares, blurred: no shape in them is taken for digits."""
    layout = recogniser_for("hornochsen").layout({"players": 4})
    labels = dict.fromkeys(layout.items, "empty")
    for sigma in (1.5, 2.5, 3.5):
        plane = render_plane("hornochsen", labels, layout, numpy.random.default_rng(3))
        blurred = numpy.asarray(cv2.GaussianBlur(plane, (0, 0), sigma), numpy.uint8)
        reading = recogniser_for("hornochsen").read(blurred, layout, None)
        assert {item: label for item, label in reading.items.items() if label != "empty"} == {}


def test_the_camera_classifier_reads_the_built_in_tiles_only() -> None:
    recogniser = hornochsen.HornochsenRecogniser()
    built_in = recogniser._templates(recogniser.default_profile())
    classifier = built_in.classifier
    assert classifier is not None and classifier.weights.shape == (len(classifier.owners), 16 * 24 + 1)
    assert numpy.bincount(classifier.owners).tolist() == [_hornochsen_classifier.SUBCLASSES] * 10, (
        "each digit its clusters"
    )
    default = recogniser.default_profile()
    taught = Profile(
        game="hornochsen",
        colours=default.colours,
        templates=default.templates,
        params={**default.params, "taught_digits": [1] * 10},
    )
    assert recogniser._templates(taught).classifier is None, "another typeface: its own templates"


def test_the_classifier_learns_to_tell_blurred_digits_apart() -> None:
    """Learned from the renderer's tiles at some blurs, it reads them at a blur between."""
    numbers = range(10, 100)

    def glyphs_at(sigma: float) -> dict[int, list[_hornochsen_glyphs.Glyph]]:
        found: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
        for number in numbers:
            glyphs = _hornochsen_glyphs.tile_glyphs(_blurred_tile(number, sigma))
            if len(glyphs) == 2:
                for digit, glyph in zip((int(c) for c in str(number)), glyphs, strict=True):
                    found[digit].append(glyph)
        return found

    learned: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for sigma in (0.8, 1.6, 2.4):
        for digit, glyphs in glyphs_at(sigma).items():
            learned[digit] += glyphs
    classifier = _hornochsen_classifier.DigitClassifier.learn(learned)
    tested = glyphs_at(2.0)
    right = sum(
        int(numpy.argmax(classifier.log_likelihoods(g.pixels, g.aspect))) == digit
        for digit, glyphs in tested.items()
        for g in glyphs
    )
    total = sum(len(glyphs) for glyphs in tested.values())
    assert total > 150 and right / total > 0.98
    glyph = tested[8][0]
    features = _hornochsen_classifier.DigitClassifier.features(glyph.pixels, glyph.aspect)
    direct = numpy.maximum.reduceat(classifier.weights @ features + classifier.bias, classifier.starts)
    assert classifier.log_likelihoods(glyph.pixels, glyph.aspect) == pytest.approx(direct, rel=1e-4, abs=1e-3)


def _glyphs_at(sigma: float, edition: str = "default") -> dict[int, list[_hornochsen_glyphs.Glyph]]:
    """The digits of the tiles 10-99 drawn in the edition and blurred, where they split in two."""
    found: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for number in range(10, 100):
        glyphs = _hornochsen_glyphs.tile_glyphs(_blurred_tile(number, sigma, edition))
        if len(glyphs) == 2:
            for digit, glyph in zip((int(c) for c in str(number)), glyphs, strict=True):
                found[digit].append(glyph)
    return found


def _right(
    classifier: _hornochsen_classifier.DigitClassifier, tested: dict[int, list[_hornochsen_glyphs.Glyph]]
) -> float:
    right = sum(
        int(numpy.argmax(classifier.log_likelihoods(g.pixels, g.aspect))) == digit
        for digit, glyphs in tested.items()
        for g in glyphs
    )
    return right / sum(len(glyphs) for glyphs in tested.values())


def test_a_few_taught_digits_move_the_classifier_to_another_typeface() -> None:
    """Learned from the built-in tiles as one mean a digit, the classifier misreads some of another
    edition's thin digits blurred; taught one tile of each digit of it (sharp, as a lesson shows it), it
    misreads fewer, the covariance still the built-in one's. (Learned as clusters, it reads these right
    untaught.)"""
    learned: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for sigma in (0.8, 1.6, 2.4):
        for digit, glyphs in _glyphs_at(sigma).items():
            learned[digit] += glyphs
    classifier = _hornochsen_classifier.DigitClassifier.learn(learned, subclasses=1)
    lessons = _glyphs_at(0.8, "travel")
    taught = classifier.taught({d: (found[0].pixels, found[0].aspect, 1) for d, found in lessons.items()})
    tested = _glyphs_at(2.8, "travel")
    assert _right(taught, tested) > _right(classifier, tested) + 0.01
    assert taught.precision is not None and classifier.precision is not None
    assert numpy.array_equal(taught.precision, classifier.precision)
    same = classifier.taught({})
    assert numpy.allclose(same.weights, classifier.weights, atol=1e-4), "nothing taught: nothing moves"


def test_the_classifier_keeps_what_teaching_needs_in_its_file() -> None:
    """The shipped file holds the means and the covariance's inverse, so a profile can be taught; read
    back, a taught classifier is the one taught from the original."""
    learned = _glyphs_at(1.2)
    classifier = _hornochsen_classifier.DigitClassifier.learn(learned)
    again = _hornochsen_classifier.DigitClassifier.from_json(json.loads(json.dumps(classifier.to_json())))
    assert again.means is not None and again.precision is not None and classifier.precision is not None
    assert numpy.allclose(
        again.precision, classifier.precision, rtol=2e-3, atol=1e-3 * abs(classifier.precision).max()
    )
    lesson = {3: (learned[8][0].pixels, learned[8][0].aspect, 2)}
    assert numpy.allclose(
        again.taught(lesson).weights,
        classifier.taught(lesson).weights,
        rtol=0.02,
        atol=0.02 * abs(classifier.weights).max(),
    )
    assert digits._camera_classifier().precision is not None, "the shipped classifier can be taught"


def test_a_profile_taught_digits_reads_a_normalised_plane_with_the_classifier_moved() -> None:
    """Only the taught digits' means move; on a raw plane the taught profile reads by its templates."""
    recogniser = hornochsen.HornochsenRecogniser()
    default = recogniser.default_profile()
    glyph = _glyphs_at(1.2, "travel")[4][0]
    taught = Profile(
        game="hornochsen",
        colours=default.colours,
        templates={**default.templates, "digit:4:taught": encode_template(digits.to_png(glyph.pixels))},
        params={
            **default.params,
            "taught_digits": [0, 0, 0, 0, 2, 0, 0, 0, 0, 0],
            "taught_aspect": [glyph.aspect] * 10,
        },
    )
    moved = recogniser._templates(taught, keep_classifier=True).classifier
    built_in = digits._camera_classifier()
    assert moved is not None and moved.means is not None and built_in.means is not None
    rows = range(len(built_in.owners))
    changed = sorted(
        {int(built_in.owners[r]) for r in rows if not numpy.allclose(moved.means[r], built_in.means[r])}
    )
    assert changed == [4]
    assert recogniser._templates(taught).classifier is None


def test_a_lesson_is_learned_over_a_few_blurs_and_each_of_its_digits() -> None:
    tile = _blurred_tile(55, 0.8)
    taught = hornochsen._taught_digits(tile, "55")
    assert [digit for digit, _, _ in taught] == [5, 5]
    as_shot = _hornochsen_glyphs.tile_glyphs(tile)[0].pixels
    assert not numpy.allclose(taught[0][1], as_shot), "the mean over blurs, not the shot alone"
    assert hornochsen._taught_digits(tile, "5") == [], "a tile not split as its label teaches nothing"


def test_a_row_read_out_of_order_takes_the_less_sure_tiles_next_likeliest_number() -> None:
    items = {"row:0:square:0": "39", "row:0:square:1": "37", "row:0:square:2": "56", "played:seat0": "29"}
    confidence = {"row:0:square:0": 0.2, "row:0:square:1": 0.9, "row:0:square:2": 0.9, "played:seat0": 1.0}
    others = {
        "row:0:square:0": [(29, 0.01), (38, 0.05), (19, 0.1)],  # 29 is read elsewhere, 38 is no better
        "row:0:square:1": [(87, 0.0)],
        "row:0:square:2": [],
        "played:seat0": [],
    }
    _hornochsen_mend.ascending_rows(items, confidence, others)
    assert items["row:0:square:0"] == "19" and confidence["row:0:square:0"] == 0.0
    assert items["row:0:square:1"] == "37", "the surer neighbour keeps its number"
    unlikely = {**others, "row:0:square:0": [(19, _hornochsen_mend.SWAP_SHORTFALL + 0.01)]}
    items["row:0:square:0"] = "39"
    _hornochsen_mend.ascending_rows(items, confidence, unlikely)
    assert items["row:0:square:0"] == "39", "a much less likely number is not taken for the order's sake"


def test_a_digit_joined_to_the_tiles_edge_is_still_a_digit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A window a little askew shows the tile's dark edge down one side, and a wisp of shadow may join a
    digit to it: the edge (a column inked over most of the height) is cut away and both digits read."""
    tile = _blurred_tile(99, 1.0)
    height = tile.shape[0]
    ink = float(tile.min())
    row = height // 2
    right = max(x for x in range(tile.shape[1]) if tile[row, x] < 0.5 * (ink + float(tile.max())))
    tile[:, right + 3 :] = ink  # the edge, down the whole side, just beside the second 9
    tile[row : row + 2, right : right + 3] = ink  # the wisp joining the 9 to it
    assert len(_hornochsen_glyphs.tile_glyphs(tile)) == 2
    monkeypatch.setattr(_hornochsen_glyphs, "LINE_SHARE", 99.0)
    assert len(_hornochsen_glyphs.tile_glyphs(tile)) == 1, "without the cut, the second 9 touches the side"


def test_the_teach_plan_shows_each_digit_in_each_place_and_a_zero_more_than_once() -> None:
    """Every digit is taught as a tens and as a units digit (0 only as a units digit), and a 0 in more than
    one shot: learned from one shot, a taught edition's 0 moved little from the built-in one."""
    from companion.vision.teach import HORNOCHSEN_LESSONS

    tens = {str(tile)[0] for tile in HORNOCHSEN_LESSONS if tile >= 10}
    units = {str(tile)[-1] for tile in HORNOCHSEN_LESSONS if tile >= 10}
    assert tens == set("123456789") and units == set("0123456789")
    assert sum(str(tile).count("0") for tile in HORNOCHSEN_LESSONS) >= 4


def test_each_digit_learned_as_clusters_reads_blurred_blobs_better() -> None:
    """Sharp and blurred digits of three typefaces are no one Gaussian a digit: learned as clusters (one
    covariance still), the classifier misreads fewer digits blurred beyond what it learned than one mean
    a digit does."""
    editions = ("default", "second-print", "travel")
    learned: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for sigma in (0.8, 1.6, 2.4, 3.2):
        for edition in editions:
            for digit, glyphs in _glyphs_at(sigma, edition).items():
                learned[digit] += glyphs
    clusters = _hornochsen_classifier.DigitClassifier.learn(learned)
    single = _hornochsen_classifier.DigitClassifier.learn(learned, subclasses=1)
    assert len(clusters.owners) == 10 * _hornochsen_classifier.SUBCLASSES and len(single.owners) == 10
    tested: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for edition in editions:
        for digit, glyphs in _glyphs_at(3.6, edition).items():
            tested[digit] += glyphs
    assert _right(clusters, tested) > _right(single, tested) + 0.015


def test_the_classifier_round_trips_through_json_and_reads_one_mean_a_digit() -> None:
    """Written and read back, the clusters read the same; a document of one mean a digit (no owners:
    written before clusters) still reads as it did."""
    learned = _glyphs_at(1.6)
    for subclasses in (_hornochsen_classifier.SUBCLASSES, 1):
        classifier = _hornochsen_classifier.DigitClassifier.learn(learned, subclasses)
        data = json.loads(json.dumps(classifier.to_json()))
        if subclasses == 1:
            del data["owners"]
        again = _hornochsen_classifier.DigitClassifier.from_json(data)
        assert again.owners.tolist() == classifier.owners.tolist()
        glyph = learned[6][0]
        assert again.log_likelihoods(glyph.pixels, glyph.aspect) == pytest.approx(
            classifier.log_likelihoods(glyph.pixels, glyph.aspect), abs=1e-3
        )
    with pytest.raises(ValueError):
        _hornochsen_classifier.DigitClassifier.from_json({**classifier.to_json(), "owners": [0] * 10})


def test_all_scores_at_once_are_each_glyphs_own() -> None:
    """The templates and the classifier scored in one product, many glyphs at once, raw or normalised:
    each glyph's correlations and scores are those it has alone."""
    recogniser = hornochsen.HornochsenRecogniser()
    templates = recogniser._templates(recogniser.default_profile())
    raw = _hornochsen_glyphs.tile_glyphs(
        _blurred_tile(47, 1.5), normalise=False
    ) + _hornochsen_glyphs.tile_glyphs(_blurred_tile(90, 2.5), normalise=False)
    assert len(raw) == 4
    for glyph, (best, scores) in zip(raw, templates.all_scores(raw, raw=True), strict=True):
        alone_best, alone_scores = templates.scores(_hornochsen_glyphs.normalised(glyph.pixels), glyph.aspect)
        assert best == pytest.approx(alone_best, abs=1e-4)
        assert scores == pytest.approx(alone_scores, abs=1e-4)
    assert [int(numpy.argmax(s)) for _, s in templates.all_scores(raw, raw=True)] == [4, 7, 9, 0]


def test_a_taught_digit_moves_its_nearest_cluster_only() -> None:
    """A lesson shows a typeface at one sharpness: the taught digit's cluster nearest it moves to it, its
    other clusters and the other digits' stay."""
    learned: dict[int, list[_hornochsen_glyphs.Glyph]] = {d: [] for d in range(10)}
    for sigma in (0.8, 1.6, 2.4, 3.2):
        for digit, glyphs in _glyphs_at(sigma).items():
            learned[digit] += glyphs
    classifier = _hornochsen_classifier.DigitClassifier.learn(learned)
    lesson = _glyphs_at(0.8, "travel")[3][0]
    taught = classifier.taught({3: (lesson.pixels, lesson.aspect, 4)})
    assert classifier.means is not None and taught.means is not None
    moved = numpy.flatnonzero(numpy.abs(taught.means - classifier.means).max(axis=1) > 1e-6)
    assert len(moved) == 1 and classifier.owners[moved[0]] == 3
    shown = _hornochsen_classifier.DigitClassifier.features(lesson.pixels, lesson.aspect)
    threes = numpy.flatnonzero(classifier.owners == 3)
    distances = numpy.sum((classifier.means[threes] - shown) ** 2, axis=1)
    assert moved[0] == threes[numpy.argmin(distances)]
    assert numpy.sum((taught.means[moved[0]] - shown) ** 2) < distances.min()


@pytest.mark.parametrize(("number", "sigma", "lift"), [(47, 1.0, 0.0), (88, 2.5, 40.0), (6, 1.5, 120.0)])
def test_a_tile_of_whole_levels_counted_in_a_histogram_reads_as_sorted(
    number: int, sigma: float, lift: float
) -> None:
    """A tile warped from the plane's bytes holds whole levels: its face and ink levels counted in a
    histogram (whole_levels) are the ones sorting finds, so its glyphs are the same."""
    tile = numpy.clip(numpy.rint(_blurred_tile(number, sigma) * 0.6 + lift), 0, 255).astype(numpy.float32)
    sorted_glyphs = _hornochsen_glyphs.tile_glyphs(tile)
    counted = _hornochsen_glyphs.tile_glyphs(tile, whole_levels=True)
    assert len(counted) == len(sorted_glyphs) == len(str(number))
    for one, other in zip(counted, sorted_glyphs, strict=True):
        assert one.aspect == other.aspect and numpy.array_equal(one.pixels, other.pixels)
    middle = tile[10:50, 12:52]
    ranks = (middle.size // 50, middle.size * 3 // 4)
    expected = numpy.sort(middle.ravel())
    assert _hornochsen_glyphs._order_statistics(middle, ranks, True) == (
        float(expected[ranks[0]]),
        float(expected[ranks[1]]),
    )
