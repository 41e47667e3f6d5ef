"""Calibration: the printable marker sheet, marker detection, the homography, bumps and lost markers."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy
import pytest

from companion.cli import main
from companion.vision.base import CORNER_MARKER_IDS, PLANE_PX_PER_MM, marker_centres_mm
from companion.vision.calibration import (
    CalibrationError,
    CalibrationSettings,
    Calibrator,
    MarkerFinder,
    marker_bits,
    marker_centre,
    marker_sheet_svg,
    plane_homography,
    project,
    warp_plane,
)
from companion.vision.recording import load_recording

from . import scenes

ROOT = Path(__file__).parents[2]
SHEET = ROOT / "hardware" / "print" / "aruco-markers.svg"
SEQUENCES = Path(__file__).parent / "data" / "sequences"


def _first_frame(name: str) -> numpy.typing.NDArray[numpy.uint8]:
    _, image = next(load_recording(SEQUENCES / name).images())
    assert image is not None
    return image


def test_the_committed_sheet_is_what_the_generator_writes(tmp_path: Path) -> None:
    assert SHEET.read_text(encoding="utf-8") == marker_sheet_svg()
    out = tmp_path / "sheet.svg"
    assert main(["vision", "markers", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == SHEET.read_text(encoding="utf-8")


def test_the_sheet_is_a4_at_true_size_and_its_markers_decode() -> None:
    svg = SHEET.read_text(encoding="utf-8")
    assert 'width="210mm" height="297mm" viewBox="0 0 210 297"' in svg
    finder = MarkerFinder()
    for marker_id in CORNER_MARKER_IDS:
        group = re.search(rf'<g id="marker-{marker_id}" fill="black">(.*?)</g>', svg, re.S)
        assert group is not None
        cells = [
            tuple(map(float, m))
            for m in re.findall(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', group[1])
        ]
        x0, y0 = min(c[0] for c in cells), min(c[1] for c in cells)
        size = cells[0][2]
        # 30 mm: six cells of 5 mm (the 4x4 code and its black border).
        assert size * marker_bits(marker_id).shape[0] == pytest.approx(30.0)
        # Print it: 10 px per mm on white paper, and let the detector read it.
        page = numpy.full((500, 500), 255, numpy.uint8)
        for x, y, w in cells:
            px, py = round((x - x0) * 10) + 100, round((y - y0) * 10) + 100
            page[py : py + round(w * 10), px : px + round(w * 10)] = 0
        found = finder.find(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR))
        assert list(found) == [marker_id]
        assert numpy.allclose(found[marker_id][0], (99.5, 99.5), atol=1.0)  # its own top-left corner


def test_the_homography_maps_the_markers_onto_the_plane() -> None:
    image = scenes.frame({"spot:0": "red", "spot:1": "green"}, noise=4)
    calibrator = Calibrator(scenes.PLANE_MM)
    result = calibrator.update(image)
    assert result.state == "calibrated" and result.changed and result.markers == (0, 1, 2, 3)
    assert result.homography is not None
    # The plane's corners, seen at CAMERA_QUAD in the frame, come back to the plane's corners.
    width, height = scenes.layout().plane_size_px()
    corners = project(result.homography, scenes.CAMERA_QUAD)
    assert numpy.abs(corners - numpy.float32([[0, 0], [width, 0], [width, height], [0, height]])).max() < 1.5
    plane = warp_plane(image, result.homography, scenes.layout())
    assert plane.shape == (height, width, 3)
    centre = scenes.layout().items["spot:0"].centre_px()
    assert [int(v) for v in plane[round(centre[1]), round(centre[0])]] == pytest.approx([40, 40, 220], abs=20)


def test_the_real_sequence_calibrates_within_half_a_millimetre() -> None:
    image = _first_frame("reveal")
    markers = MarkerFinder().find(image)
    assert sorted(markers) == [0, 1, 2, 3]
    plane_mm = (344.0, 244.0)  # any plane size: the check is that the centres land where they belong
    homography = plane_homography(markers, plane_mm)
    for marker_id, (x, y) in marker_centres_mm(plane_mm).items():
        mapped = project(homography, [marker_centre(markers[marker_id])])[0]
        assert numpy.allclose(mapped, (x * PLANE_PX_PER_MM, y * PLANE_PX_PER_MM), atol=0.5)


def test_a_bumped_camera_is_seen_and_the_markers_found_again() -> None:
    calibrator = Calibrator((300.0, 200.0))
    first = calibrator.update(_first_frame("reveal"))
    assert first.state == "calibrated" and first.changed and first.message == ""
    again = calibrator.update(_first_frame("reveal"))
    assert again.state == "calibrated" and not again.changed
    bumped = calibrator.update(_first_frame("bumped"))
    assert bumped.state == "calibrated" and bumped.changed
    assert bumped.message == "The camera moved and has found the corner markers again."
    assert first.homography is not None and bumped.homography is not None
    assert not numpy.allclose(first.homography, bumped.homography, atol=1e-3)


def test_a_bump_that_hides_markers_leaves_no_homography_until_they_show() -> None:
    calibrator = Calibrator(scenes.PLANE_MM)
    assert calibrator.update(scenes.frame({})).state == "calibrated"
    moved = scenes.CAMERA_QUAD + numpy.float32([[40, 25]] * 4)
    image = scenes.frame({}, quad=moved)
    # Cover two markers (a bump and a sleeve over them): the two left do not sit where they did.
    finder = MarkerFinder()
    markers = finder.find(image)
    result = calibrator.update_with({k: v for k, v in markers.items() if k in (0, 1)})
    assert result.state == "bumped" and result.homography is None
    assert result.message == "The camera moved: keep the corner markers in view while it finds them again."
    recovered = calibrator.update(image)
    assert recovered.state == "calibrated" and recovered.changed


def test_markers_lost_is_reported_after_a_while_and_recovers() -> None:
    calibrator = Calibrator(scenes.PLANE_MM, CalibrationSettings(lost_after_frames=3))
    assert calibrator.update(scenes.frame({})).state == "calibrated"
    blank = numpy.full((720, 1280, 3), 120, numpy.uint8)
    states = [calibrator.update(blank) for _ in range(3)]
    # A frame or two without markers (a hand over them) keeps the homography; then they are lost.
    assert [s.state for s in states] == ["calibrated", "calibrated", "lost"]
    assert states[0].homography is not None and states[2].homography is None
    assert states[2].message == "The camera sees none of the table's corner markers: keep them in view."
    back = calibrator.update(scenes.frame({}))
    assert back.state == "calibrated" and back.homography is not None


def test_three_markers_are_enough_when_one_is_out_of_view() -> None:
    image = scenes.frame({}, noise=3)
    markers = MarkerFinder().find(image)
    full = plane_homography(markers, scenes.PLANE_MM)
    del markers[2]
    three = plane_homography(markers, scenes.PLANE_MM)
    width, height = scenes.layout().plane_size_px()
    probe = project(numpy.linalg.inv(full), [[width / 2, height / 2], [width - 1, height - 1]])
    assert numpy.abs(project(three, probe) - project(full, probe)).max() < 2.0


def test_markers_out_of_order_or_too_few_are_refused() -> None:
    markers = MarkerFinder().find(scenes.frame({}))
    swapped = {0: markers[1], 1: markers[0], 2: markers[2], 3: markers[3]}
    with pytest.raises(CalibrationError, match="not in order"):
        plane_homography(swapped, scenes.PLANE_MM)
    with pytest.raises(CalibrationError, match="top-right, bottom-right"):
        plane_homography({0: markers[0], 3: markers[3]}, scenes.PLANE_MM)
    turned = dict(markers)
    del turned[3]
    turned[2] = numpy.roll(markers[2], 1, axis=0)  # a marker laid a quarter turn round
    with pytest.raises(CalibrationError, match="do not lie upright"):
        plane_homography(turned, scenes.PLANE_MM)


def test_a_far_blurred_marker_is_found_where_the_other_three_say_it_is() -> None:
    recording = load_recording(SEQUENCES / "far-marker")
    entry, image = next(recording.images())
    assert image is not None and entry.labels is not None and recording.game == "asterion"
    assert sorted(MarkerFinder().find(image)) == [1, 2, 3]  # its code cannot be read
    from companion.vision.pipeline import PlaneReader

    reader = PlaneReader("asterion", recording.options)
    result = reader.read(image)
    assert result.calibration.markers == (0, 1, 2, 3) and result.reading is not None
    # With the fourth marker's place the plane lines up: the cells by the far corner read right too.
    right = [item for item, label in entry.labels.items() if result.reading.items.get(item) == label]
    assert len(right) >= len(entry.labels) - 2


def _searches(
    monkeypatch: pytest.MonkeyPatch, recording: str, file: str
) -> tuple[
    dict[int, numpy.typing.NDArray[numpy.float32]],
    dict[int, numpy.typing.NDArray[numpy.float32]],
    list[float],
]:
    """Markers found in a frame on the whole image and with windows, and for each detection of the
    latter the share of its pass's whole image it searched."""
    from companion.vision.base import recogniser_for

    loaded = load_recording(Path(__file__).parent / "data" / recording)
    image = next(image for entry, image in loaded.images() if entry.file == file)
    assert image is not None and loaded.game is not None
    plane_mm = recogniser_for(loaded.game).layout(loaded.options).plane_mm
    whole = MarkerFinder().find(image)
    shares: list[float] = []
    detect = MarkerFinder._detect

    def spy(detector: object, picture: numpy.typing.NDArray[numpy.uint8], scale: int) -> object:
        shares.append(picture.shape[0] * picture.shape[1] / (720 * 1280 // scale**2))
        return detect(detector, picture, scale)

    monkeypatch.setattr(MarkerFinder, "_detect", staticmethod(spy))
    return whole, MarkerFinder(plane_mm=plane_mm).find(image), shares


def test_the_fourth_marker_is_looked_for_near_the_other_three_and_found_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A hard Asterion frame: the first pass finds three markers, the full-size pass the far fourth.
    whole, windowed, shares = _searches(monkeypatch, "asterion", "000003.jpg")
    assert sorted(windowed) == sorted(whole) == [0, 1, 2, 3]
    assert all(numpy.array_equal(windowed[k], whole[k]) for k in whole)
    # The first pass saw the whole half-size frame; the later ones only a window around the fourth.
    assert shares[0] == 1.0 and len(shares) > 1
    assert all(share < 0.1 for share in shares[1:])


def test_with_two_markers_found_the_others_are_looked_for_near_them_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two far markers blurred: the first pass finds two, a later pass's windows around the others a third
    # (the whole image is searched only when no window shows one), and find_near takes the fourth then.
    whole, windowed, shares = _searches(monkeypatch, "sequences/far-marker", "000001.jpg")
    assert sorted(windowed) == sorted(whole) == [1, 2, 3]
    assert all(numpy.array_equal(windowed[k], whole[k]) for k in whole)
    assert shares[0] == 1.0 and len(shares) > 1 and all(share < 0.1 for share in shares[1:])
