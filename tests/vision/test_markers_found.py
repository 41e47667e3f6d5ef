"""Corner markers found where the detector's outline fails (by their print), and looked for cheaply while
the camera stays put (around where they were last found)."""

from __future__ import annotations

import cv2
import numpy
import numpy.typing
import pytest

from companion.vision import calibration
from companion.vision._marker_match import match_marker
from companion.vision.base import CORNER_MARKER_IDS, MARKER_SIDE_MM, PLANE_PX_PER_MM, Frame
from companion.vision.calibration import Calibrator, MarkerFinder
from companion.vision.pipeline import PlaneReader

from . import scenes


def _seen(top_down: Frame, quad: numpy.typing.ArrayLike = scenes.CAMERA_QUAD) -> Frame:
    height, width = top_down.shape[:2]
    corners = numpy.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=numpy.float32)
    homography = cv2.getPerspectiveTransform(corners, numpy.asarray(quad, dtype=numpy.float32))
    image = cv2.warpPerspective(top_down, homography, scenes.FRAME_SIZE, borderValue=(90, 110, 120))
    return numpy.asarray(image, dtype=numpy.uint8)


def _tile_over_a_corner_top_down() -> Frame:
    """The plane with a dark tile laid over the bottom-right marker's inner corner (as on a sheet laid by
    its cut edge): the tile touches the black square, whose outline then runs on into it."""
    top_down = scenes.plane({})
    height, width = top_down.shape[:2]
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    x, y = width - side, height - side
    cv2.rectangle(top_down, (x - 50, y - 40), (x + 6, y + 8), (40, 45, 50), -1)
    return top_down


def _tile_over_a_corner() -> Frame:
    return _seen(_tile_over_a_corner_top_down())


def test_a_marker_touched_by_a_dark_tile_is_found_by_its_print_in_its_place() -> None:
    image = _tile_over_a_corner()
    assert sorted(MarkerFinder().find(image)) == [0, 1, 3]  # no setting of the detector finds it
    clean = MarkerFinder().find(scenes.frame({}))
    markers = Calibrator(scenes.PLANE_MM).find_markers(image)
    assert sorted(markers) == [0, 1, 2, 3]
    assert numpy.abs(markers[2] - clean[2]).max() < 1.0


def test_without_the_print_match_the_touched_marker_is_not_found_in_its_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clean = MarkerFinder().find(scenes.frame({}))
    monkeypatch.setattr(calibration, "match_marker", lambda *args: None)
    markers = Calibrator(scenes.PLANE_MM).find_markers(_tile_over_a_corner())
    # At most the outline of the square run into the tile: many pixels off.
    assert 2 not in markers or numpy.abs(markers[2] - clean[2]).max() > 3.0


def test_the_print_match_takes_no_other_marker_and_nothing_where_there_is_none() -> None:
    image = scenes.frame({}, noise=4)
    found = MarkerFinder().find(image)
    grey = numpy.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), dtype=numpy.uint8)
    for marker_id in CORNER_MARKER_IDS:
        # A guess a third of a side off and turned 3 degrees: the marker itself, to a pixel.
        corners = found[marker_id]
        centre = corners.mean(axis=0)
        turn = numpy.radians(3.0)
        rotation = numpy.array([[numpy.cos(turn), -numpy.sin(turn)], [numpy.sin(turn), numpy.cos(turn)]])
        side = float(numpy.linalg.norm(corners[1] - corners[0]))
        guess = ((corners - centre) @ rotation.T + centre + side / 3).astype(numpy.float32)
        matched = match_marker(grey, marker_id, guess)
        assert matched is not None and numpy.abs(matched - corners).max() < 1.5
        for other in CORNER_MARKER_IDS:
            if other != marker_id:
                assert match_marker(grey, other, corners) is None
    blank = numpy.full_like(grey, 150)
    assert match_marker(blank, 0, found[0]) is None


def _counting_full_searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    find = MarkerFinder.find

    def counted(self: MarkerFinder, frame: Frame) -> dict[int, calibration.Points]:
        calls.append(1)
        return find(self, frame)

    monkeypatch.setattr(MarkerFinder, "find", counted)
    return calls


def test_at_rest_the_markers_are_found_around_where_they_were_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    image = scenes.frame({"spot:0": "red"}, noise=4)
    whole = MarkerFinder().find(image)
    calls = _counting_full_searches(monkeypatch)
    calibrator = Calibrator(scenes.PLANE_MM)
    assert calibrator.update(scenes.frame({}, noise=4, seed=1)).state == "calibrated"
    assert len(calls) == 1  # the first frame: the whole image
    markers = calibrator.find_markers(image)
    assert len(calls) == 1  # then only the windows around the markers
    assert sorted(markers) == sorted(whole) == [0, 1, 2, 3]
    assert all(numpy.allclose(markers[k], whole[k], atol=1e-3) for k in whole)


def test_a_hand_over_one_marker_at_rest_needs_no_whole_search(monkeypatch: pytest.MonkeyPatch) -> None:
    image = scenes.frame({})
    markers = MarkerFinder().find(image)
    calls = _counting_full_searches(monkeypatch)
    calibrator = Calibrator(scenes.PLANE_MM)
    first = calibrator.update(scenes.frame({}))
    x0, y0 = markers[1].min(axis=0).astype(int) - 8
    x1, y1 = markers[1].max(axis=0).astype(int) + 8
    image[y0:y1, x0:x1] = (70, 110, 170)  # skin over the top-right marker
    result = calibrator.update(image)
    assert result.markers == (0, 2, 3) and result.state == "calibrated" and not result.changed
    assert result.homography is first.homography and len(calls) == 1


def test_a_bump_beyond_the_windows_is_found_on_the_whole_image(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting_full_searches(monkeypatch)
    calibrator = Calibrator(scenes.PLANE_MM)
    first = calibrator.update(scenes.frame({}))
    moved = scenes.CAMERA_QUAD + numpy.array([[150, 60]] * 4, dtype=numpy.float32)
    bumped = calibrator.update(scenes.frame({}, quad=moved))
    assert bumped.state == "calibrated" and bumped.changed and bumped.markers == (0, 1, 2, 3)
    assert len(calls) == 2
    assert first.homography is not None and bumped.homography is not None
    assert not numpy.allclose(first.homography, bumped.homography, atol=1e-3)


def test_with_one_marker_read_the_other_three_are_found_by_their_print() -> None:
    # Dark tiles over three sheets' inner corners: the detector reads only the top-left marker; the
    # nearest two are looked for around where it puts them, then the diagonal one from those three.
    top_down = scenes.plane({})
    height, width = top_down.shape[:2]
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    for x, y, dx, dy in (
        (width - side, height - side, -1, -1),
        (width - side, side, -1, 1),
        (side, height - side, 1, -1),
    ):
        cv2.rectangle(top_down, (x - 6 * dx, y - 8 * dy), (x + 50 * dx, y + 40 * dy), (40, 45, 50), -1)
    image = _seen(top_down)
    assert sorted(MarkerFinder().find(image)) == [0]
    clean = MarkerFinder().find(scenes.frame({}))
    markers = Calibrator(scenes.PLANE_MM).find_markers(image)
    assert sorted(markers) == [0, 1, 2, 3]
    assert all(numpy.abs(markers[k] - clean[k]).max() < 1.5 for k in markers)


def test_a_marker_found_by_its_print_is_looked_for_so_first_in_the_next_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _tile_over_a_corner()
    calibrator = Calibrator(scenes.PLANE_MM)
    first = calibrator.update(image)
    assert first.markers == (0, 1, 2, 3)
    windows: list[list[int]] = []
    around = MarkerFinder.find_around

    def spy(
        self: MarkerFinder, frame: Frame, last: dict[int, calibration.Points]
    ) -> dict[int, calibration.Points]:
        windows.append(sorted(last))
        return around(self, frame, last)

    monkeypatch.setattr(MarkerFinder, "find_around", spy)
    again = calibrator.update(image)
    # The touched marker by its print where it was; the detector's windows only for the other three.
    assert again.markers == (0, 1, 2, 3) and not again.changed and windows == [[0, 1, 3]]


# ---------------------------------------------------------------- at rest: unmoved markers kept cheaply


def _counting_detections(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    detect = MarkerFinder._detect_part

    def counted(self: MarkerFinder, *args: object) -> dict[int, calibration.Points]:
        calls.append(1)
        return detect(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(MarkerFinder, "_detect_part", counted)
    return calls


def _settled(frames: int = 3) -> Calibrator:
    """A calibrator that has seen the table at rest for a few frames (each with its own noise)."""
    calibrator = Calibrator(scenes.PLANE_MM)
    for seed in range(frames):
        assert calibrator.update(scenes.frame({}, noise=4, seed=seed)).state == "calibrated"
    return calibrator


def test_at_rest_an_unmoved_marker_keeps_its_corners_without_the_detector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calibrator = _settled()
    before = {k: v.copy() for k, v in calibrator._last.items()}
    detections = _counting_detections(monkeypatch)
    # Another frame's noise and a lamp a little brighter: the same markers, in the same places.
    image = scenes.frame({}, noise=4, seed=7)
    brighter = numpy.clip(image.astype(numpy.int16) * 1.08 + 6, 0, 255).astype(numpy.uint8)
    markers = calibrator.find_markers(brighter)
    assert detections == []
    assert sorted(markers) == [0, 1, 2, 3]
    assert all(numpy.array_equal(markers[k], before[k]) for k in before)


def _one_marker_moved(dx: int, dy: int) -> Frame:
    """The table with the top-right marker's sheet slid by (dx, dy) plane pixels, inwards (dx <= 0 <= dy)."""
    top_down = scenes.plane({})
    side = round(MARKER_SIDE_MM * PLANE_PX_PER_MM)
    width = top_down.shape[1]
    sheet = top_down[0:side, width - side : width].copy()
    top_down[0:side, width - side : width] = 200
    top_down[dy : side + dy, width - side + dx : width + dx] = sheet
    return _seen(top_down)


def test_a_marker_moved_between_frames_is_found_at_its_new_place() -> None:
    calibrator = _settled()
    image = _one_marker_moved(-4, 3)
    fresh = MarkerFinder().find(image)
    markers = calibrator.find_markers(image)
    assert numpy.abs(markers[1] - calibrator._last[1]).max() > 2.0  # it did move
    assert numpy.abs(markers[1] - fresh[1]).max() < 0.5
    # The others kept their corners.
    assert all(numpy.array_equal(markers[k], calibrator._last[k]) for k in (0, 2, 3))


def test_a_marker_moved_by_a_pixel_is_not_taken_as_unmoved(monkeypatch: pytest.MonkeyPatch) -> None:
    calibrator = _settled()
    detections = _counting_detections(monkeypatch)
    calibrator.find_markers(_one_marker_moved(-1, 0))
    assert detections  # the moved marker was looked for by the detector


def test_a_hand_over_a_marker_kept_at_rest_is_not_taken_as_the_marker() -> None:
    calibrator = _settled()
    first = calibrator.homography
    image = scenes.frame({}, noise=4, seed=9)
    corners = calibrator._last[1]
    x0, y0 = corners.min(axis=0).astype(int) - 2
    x1, y1 = corners.max(axis=0).astype(int) + 2
    image[y0 : (y0 + y1) // 2, x0:x1] = (70, 110, 170)  # skin over half the top-right marker
    result = calibrator.update(image)
    assert 1 not in result.markers and result.state == "calibrated" and result.homography is first


def _covered(calibrator: Calibrator, image: Frame, ids: tuple[int, ...], margin: int = 16) -> Frame:
    """The frame with skin over the markers `ids` where they were last found (a hand over two corners)."""
    for marker_id in ids:
        corners = calibrator._last[marker_id]
        x0, y0 = corners.min(axis=0).astype(int) - margin
        x1, y1 = corners.max(axis=0).astype(int) + margin
        image[y0:y1, x0:x1] = (70, 110, 170)
    return image


def test_a_hand_over_two_markers_at_rest_keeps_the_homography_without_a_whole_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calibrator = _settled()
    first = calibrator.homography
    calls = _counting_full_searches(monkeypatch)
    for seed, hidden in ((9, (1, 2)), (10, (0, 3)), (11, (0, 2))):
        result = calibrator.update(_covered(calibrator, scenes.frame({}, noise=4, seed=seed), hidden))
        assert result.markers == tuple(i for i in CORNER_MARKER_IDS if i not in hidden)
        assert result.state == "calibrated" and not result.changed and result.homography is first
    assert calls == []  # the two seen where the homography puts them: no search of the whole image


def test_two_markers_seen_moved_do_not_keep_the_homography(monkeypatch: pytest.MonkeyPatch) -> None:
    # A sheet slid by 8 plane pixels each way (beyond the bump tolerance), the two others under a hand.
    calibrator = _settled()
    calls = _counting_full_searches(monkeypatch)
    result = calibrator.update(_covered(calibrator, _one_marker_moved(-8, 8), (2, 3)))
    assert result.markers == (0, 1) and result.state == "bumped" and result.homography is None
    assert calls == [1]
    # The camera bumped by a few pixels, two markers under a hand: the two seen no longer agree.
    calibrator = _settled()
    calls.clear()
    moved = scenes.CAMERA_QUAD + numpy.array([[9, -7]] * 4, dtype=numpy.float32)
    result = calibrator.update(_covered(calibrator, scenes.frame({}, quad=moved, noise=4, seed=11), (0, 3)))
    assert result.markers == (1, 2) and result.state == "bumped" and result.homography is None
    assert calls == [1]


def _blurred(image: Frame) -> Frame:
    """A shake of the camera: motion blur across, 9 pixels long."""
    kernel = numpy.zeros((9, 9), dtype=numpy.float32)
    kernel[4, :] = 1 / 9
    return numpy.asarray(cv2.filter2D(image, -1, kernel), dtype=numpy.uint8)


def test_a_blurred_frame_keeps_the_markers_only_where_they_were() -> None:
    calibrator = _settled()
    first, before = calibrator.homography, {k: v.copy() for k, v in calibrator._last.items()}
    # Shaken in place: blurred round where they were, the markers are still there.
    at_rest = calibrator.update(_blurred(scenes.frame({}, noise=4, seed=5)))
    assert at_rest.homography is first and not at_rest.changed and at_rest.markers == (0, 1, 2, 3)
    # Shaken and moved by a few pixels: no marker is taken where it was.
    moved = scenes.CAMERA_QUAD + numpy.array([[5, -4]] * 4, dtype=numpy.float32)
    markers = calibrator.find_markers(_blurred(scenes.frame({}, quad=moved, noise=4, seed=6)))
    assert not any(numpy.array_equal(markers[k], before[k]) for k in markers)


def test_a_bump_of_a_few_pixels_is_seen_at_rest() -> None:
    calibrator = _settled()
    first = calibrator.homography
    moved = scenes.CAMERA_QUAD + numpy.array([[9, -7]] * 4, dtype=numpy.float32)
    image = scenes.frame({}, quad=moved, noise=4, seed=11)
    fresh = MarkerFinder().find(image)
    result = calibrator.update(image)
    assert result.changed and result.markers == (0, 1, 2, 3)
    assert first is not None and result.homography is not None
    assert not numpy.allclose(first, result.homography, atol=1e-3)
    assert all(numpy.abs(calibrator._last[k] - fresh[k]).max() < 0.5 for k in fresh)


def test_a_marker_found_by_its_print_and_moved_is_found_at_its_new_place() -> None:
    image = _tile_over_a_corner()
    calibrator = Calibrator(scenes.PLANE_MM)
    for _ in range(3):
        assert calibrator.update(image).markers == (0, 1, 2, 3)
    kept = calibrator._last[2].copy()
    assert numpy.array_equal(calibrator.find_markers(image)[2], kept)  # unmoved: the same corners
    # The camera slid 5 pixels (within the bump tolerance): the print is found where it now is (to the
    # print match's pixel or so).
    moved = _seen(
        _tile_over_a_corner_top_down(), scenes.CAMERA_QUAD + numpy.array([4, 3], dtype=numpy.float32)
    )
    fresh = Calibrator(scenes.PLANE_MM).find_markers(moved)
    markers = calibrator.find_markers(moved)
    assert numpy.abs(markers[2] - kept).max() > 3.0
    assert numpy.abs(markers[2] - fresh[2]).max() < 1.5


def test_a_homography_fitted_afresh_is_fitted_on_this_frames_corners() -> None:
    reader = PlaneReader("squares", {}, recogniser=scenes.SquaresRecogniser())
    for seed in range(3):
        reader.read(scenes.frame({}, noise=4, seed=seed))
    # The homography dropped (as when the markers were lost): the next one is the frame's own, not one
    # of the corners kept from the frames before.
    reader.calibrator.homography = None
    image = scenes.frame({}, noise=4, seed=12)
    refitted = reader.read(image).calibration.homography
    fresh = Calibrator(scenes.PLANE_MM).update(image).homography
    assert refitted is not None and fresh is not None
    corners = numpy.array([[[0, 0]], [[1280, 0]], [[1280, 720]], [[0, 720]]], dtype=numpy.float32)
    apart = numpy.abs(cv2.perspectiveTransform(corners, refitted) - cv2.perspectiveTransform(corners, fresh))
    assert apart.max() < 0.05
