"""The generator's world: a real pinhole camera, procedural tables, marker sheets, arms, sessions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy
import pytest

from companion.vision.base import ARUCO_DICTIONARY, Layout, marker_centres_mm, recogniser_for
from companion.vision.components import COARSEST_MM_PER_PX, minos_tray_mm
from companion.vision.generate import (
    GeneratorError,
    generate_hard_set,
    generate_session,
    hands,
    lighting,
    marker_sheets,
    renderer_for,
    session,
    sitting,
    tables,
    world,
)

GAME = "minos"
"""The smallest play area: the quickest world to draw."""


def _layout(game: str = GAME) -> Layout:
    return recogniser_for(game).layout(dict(renderer_for(game).default_options))


def _flat_shader(
    albedo: world.FloatArray, normal: world.FloatArray, point: world.FloatArray
) -> world.FloatArray:
    """Every face its albedo: what is drawn where is all these tests look at."""
    return albedo


def test_projection_agrees_with_opencv_for_points_on_and_above_the_table() -> None:
    camera = world.look_at((150.0, 90.0), 520.0, 22.0, 40.0, 8.0, "wide", -0.09, 0.015)
    rng = numpy.random.default_rng(3)
    points = numpy.column_stack([rng.uniform(0, 300, 40), rng.uniform(0, 180, 40), rng.uniform(0, 120, 40)])
    rvec, tvec = camera.rvec_tvec()
    flipped = points * numpy.array([1.0, 1.0, -1.0])  # OpenCV's right-handed frame: depth into the table
    expected, _ = cv2.projectPoints(flipped, rvec, tvec, camera.matrix, numpy.array([-0.09, 0.015, 0.0, 0.0]))
    numpy.testing.assert_allclose(camera.project(points), expected.reshape(-1, 2), atol=1e-6)


def test_camera_pose_reports_its_height_and_tilt() -> None:
    camera = world.look_at((100.0, 50.0), 640.0, 25.0, 90.0, 0.0, "standard", 0.0, 0.0)
    assert camera.height_mm == pytest.approx(640.0)
    assert camera.tilt_deg == pytest.approx(25.0)
    # Standing back towards +y (90°), the lens is behind the target by height x tan(tilt).
    assert camera.position_mm[1] - 50.0 == pytest.approx(640.0 * numpy.tan(numpy.radians(25.0)))
    # The target is seen in the middle of the frame.
    numpy.testing.assert_allclose(
        camera.project(numpy.array([[100.0, 50.0, 0.0]]))[0], (640.0, 360.0), atol=1e-6
    )


def test_straight_down_a_pinhole_sees_the_table_as_finely_everywhere() -> None:
    camera = world.look_at((150.0, 90.0), 500.0, 0.0, 0.0, 0.0, "standard", 0.0, 0.0)
    focal_px = camera.matrix[0, 0]
    assert world.coarsest_mm_per_px(camera, (300.0, 180.0)) == pytest.approx(500.0 / focal_px, rel=1e-3)
    tilted = world.look_at((150.0, 90.0), 500.0, 25.0, 0.0, 0.0, "standard", 0.0, 0.0)
    assert world.coarsest_mm_per_px(tilted, (300.0, 180.0)) > 500.0 / focal_px * 1.1  # the far edge


def test_hard_cameras_stay_within_the_detail_the_setup_view_accepts() -> None:
    game = "hornochsen"  # the finest print: the limit that most often binds
    plane_mm = _layout(game).plane_mm
    limit = COARSEST_MM_PER_PX[game]
    free, bound = [], []
    for seed in range(30):
        _, camera = sitting.choose_camera(plane_mm, numpy.random.default_rng(seed), hard=True)
        free.append(world.coarsest_mm_per_px(camera, plane_mm))
        _, camera = sitting.choose_camera(
            plane_mm, numpy.random.default_rng(seed), hard=True, coarsest_mm_per_px=limit
        )
        bound.append(world.coarsest_mm_per_px(camera, plane_mm))
    assert max(free) > limit  # the poses alone would set some cameras up too far
    assert max(bound) <= limit
    assert min(bound) < 0.8 * limit  # not all pushed to one height


def test_rays_cast_onto_the_table_land_where_the_lens_projects_them_back() -> None:
    camera = world.look_at((150.0, 90.0), 400.0, 28.0, 200.0, -6.0, "wide", -0.11, 0.02)
    ground_x, ground_y = camera.ground_points()
    v, u = numpy.mgrid[0:720:37, 0:1280:41]
    points = numpy.column_stack([ground_x[v, u].ravel(), ground_y[v, u].ravel(), numpy.zeros(u.size)])
    back = camera.project(points)
    assert numpy.abs(back - numpy.column_stack([u.ravel(), v.ravel()])).max() < 0.05


def test_a_plate_above_the_table_shows_the_parallax_a_pinhole_predicts() -> None:
    height_mm, plate_mm, offset_mm, raised_mm = 600.0, 20.0, 120.0, 80.0
    camera = world.look_at((0.0, 0.0), height_mm, 0.0, 0.0, 0.0, "standard", 0.0, 0.0)
    focal = camera.matrix[0, 0]
    centres = {}
    for z in (0.5, raised_mm):
        plate = hands.box(
            numpy.array([offset_mm, 0.0, z]),
            numpy.diag([plate_mm / 2, plate_mm / 2, 0.5]),
            (255, 255, 255),
            "plate",
        )
        image = numpy.zeros((720, 1280, 3), numpy.float32)
        world.draw_solids(image, camera, [plate], _flat_shader)
        ys, xs = numpy.nonzero(image[..., 0] > 127)
        centres[z] = (xs.mean() - 640.0, ys.mean() - 360.0)
    # Straight down from H: a point d to the side at height z is seen f d / (H - z) from the middle.
    top = lambda z: focal * offset_mm / (height_mm - (z + 0.5))  # noqa: E731 - the plate's top face
    assert centres[0.5][0] == pytest.approx(top(0.5), abs=0.6)
    assert centres[raised_mm][0] == pytest.approx(top(raised_mm), abs=0.6)
    assert centres[raised_mm][0] - centres[0.5][0] > 20  # the parallax is plain to see


def test_every_table_kind_draws_and_each_looks_different() -> None:
    rng = numpy.random.default_rng(5)
    drawn = {
        kind: tables.draw_table(tables.choose_table(kind, rng), (-50.0, -50.0), (400, 300), 2.0)
        for kind in tables.TABLE_KINDS
    }
    for kind, image in drawn.items():
        assert image.shape == (300, 400, 3) and image.dtype == numpy.uint8, kind
    kinds = list(drawn)
    for n, first in enumerate(kinds):
        for second in kinds[n + 1 :]:
            difference = numpy.abs(drawn[first].astype(float) - drawn[second].astype(float)).mean()
            assert difference > 8, (first, second)
    # Patterned cloths show their pattern; plain tops hardly vary.
    assert drawn["gingham"].std() > 3 * drawn["laminate"].std()
    with pytest.raises(tables.TableError, match="no table kind 'marble'"):
        tables.choose_table("marble", rng)


def test_gingham_repeats_at_its_check_size() -> None:
    look = tables.TableLook("gingham", (240.0, 240.0, 240.0), ((40.0, 40.0, 200.0),), 10.0, 0.0, 1)
    image = tables.draw_table(look, (0.0, 0.0), (200, 200), 2.0).astype(float)
    period_px = 2 * 10 * 2  # two checks (coloured and white) of 10 mm at 2 px/mm
    assert numpy.abs(image[:, :-period_px] - image[:, period_px:]).mean() < 1.0
    assert numpy.abs(image[:, :-20] - image[:, 20:]).mean() > 30  # one check along: the colours differ


def test_marker_sheets_laid_by_the_cut_edge_sit_a_margin_in_and_turned() -> None:
    plane = (280.0, 180.0)
    rng = numpy.random.default_rng(2)
    square = {sheet.marker_id: sheet for sheet in marker_sheets.place_sheets(plane, "square-edge", rng)}
    cut = {sheet.marker_id: sheet for sheet in marker_sheets.place_sheets(plane, "cut-edge", rng)}
    corners = {0: (0.0, 0.0), 1: (280.0, 0.0), 2: (280.0, 180.0), 3: (0.0, 180.0)}
    for marker_id, corner in corners.items():
        # The black square's corner nearest the play area's corner: on it, or a margin in along both edges.
        nearest_square = min(square[marker_id].marker_mm, key=lambda p: numpy.hypot(*(p - corner)))
        nearest_cut = min(cut[marker_id].marker_mm, key=lambda p: numpy.hypot(*(p - corner)))
        assert numpy.hypot(*(nearest_square - corner)) < 1.5
        inset = numpy.abs(nearest_cut - corner)
        assert numpy.all(numpy.abs(inset - marker_sheets.SHEET_MARGIN_MM) < 3.0), (marker_id, inset)
        # The paper's cut edge is on the play area's corner.
        paper_corner = min(cut[marker_id].paper_mm, key=lambda p: numpy.hypot(*(p - corner)))
        assert numpy.hypot(*(paper_corner - corner)) < 3.0
    with pytest.raises(marker_sheets.PlacementError, match="no marker placement"):
        marker_sheets.place_sheets(plane, "glued", rng)


def _scene(placement: str, seed: int = 4, table: str = "light-wood") -> session.World:
    layout = _layout()
    rng = numpy.random.default_rng(seed)
    setup = sitting.choose_setup(
        GAME, layout, rng, hard=False, table=table, edition="default", placement=placement, lens="standard"
    )
    return session.World(setup, layout, rng)


def test_the_camera_sees_markers_laid_by_the_cut_edge_where_they_lie() -> None:
    scene = _scene("cut-edge")
    light, _ = scene.frame(
        session.empty_labels(GAME, scene.layout),
        numpy.random.default_rng(0),
        hand=False,
        gains=(1.0, 1.0),
        hard=False,
    )
    image = numpy.clip(light, 0, 255).astype(numpy.uint8)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    )
    found, ids, _ = detector.detectMarkers(image)
    assert ids is not None and sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    camera = scene.setup.camera
    for corners, marker_id in zip(found, ids.ravel(), strict=True):
        sheet = next(sheet for sheet in scene.sheets if sheet.marker_id == marker_id)
        where = numpy.column_stack([sheet.marker_mm, numpy.zeros(4)])
        assert numpy.abs(corners.reshape(4, 2) - camera.project(where)).max() < 1.5
        # Not where a sheet laid as asked would put it: the margin's worth of pixels further in.
        asked = marker_centres_mm(scene.layout.plane_mm)[int(marker_id)]
        asked_px = camera.project(numpy.array([[*asked, 0.0]]))[0]
        step = numpy.array([[*asked, 0.0], [asked[0] + marker_sheets.SHEET_MARGIN_MM, asked[1], 0.0]])
        along = camera.project(step)
        margin_px = float(numpy.hypot(*(along[1] - along[0])))
        assert numpy.hypot(*(corners.reshape(4, 2).mean(axis=0) - asked_px)) > margin_px


def test_arms_of_every_skin_tone_reach_in_from_the_edge_and_shade_the_table() -> None:
    scene = _scene("square-edge", seed=6)
    labels = session.empty_labels(GAME, scene.layout)
    bare, _ = scene.frame(labels, numpy.random.default_rng(1), hand=False, gains=(1.0, 1.0), hard=False)
    camera = scene.setup.camera
    width, height = scene.layout.plane_mm
    area = camera.project(numpy.array([[0, 0, 0], [width, 0, 0], [width, height, 0], [0, height, 0]], float))
    area_mask = numpy.zeros((720, 1280), numpy.uint8)
    cv2.fillPoly(area_mask, [numpy.round(area).astype(numpy.int32)], 1)
    brightness = []
    for tone in hands.SKIN_TONES_BGR:
        # The same seed: the same arm, only its skin differs.
        lit, solids = scene.frame(
            labels, numpy.random.default_rng(1), hand=True, gains=(1.0, 1.0), hard=False, hand_tone=tone
        )
        assert any(solid.name == "palm" for solid in solids)
        changed = (numpy.abs(lit - bare).max(axis=2) > 12).astype(numpy.uint8)
        _, parts = cv2.connectedComponents(changed)
        sizes = numpy.bincount(parts.ravel())
        sizes[0] = 0
        arm = parts == sizes.argmax()
        edge = numpy.concatenate([arm[0], arm[-1], arm[:, 0], arm[:, -1]])
        assert edge.any(), f"the {tone} arm does not come in from the frame's edge"
        assert (arm & (area_mask > 0)).any(), f"the {tone} arm does not reach over the play area"
        palm = next(solid for solid in solids if solid.name == "palm")
        palm_px = camera.project(palm.vertices_mm.mean(axis=0)[None])[0]
        brightness.append(float(lit[round(palm_px[1]), round(palm_px[0])].mean()))
    assert brightness == sorted(brightness, reverse=True), brightness  # very light to very dark


def test_an_arm_casts_a_shadow_where_the_lamp_throws_it() -> None:
    scene = _scene("square-edge", seed=6)
    solids, _ = hands.arm(scene.layout.plane_mm, numpy.random.default_rng(3), "medium")
    mask = lighting.shadow_mask(scene.setup.light, scene.setup.camera, solids)
    palm = next(solid for solid in solids if solid.name == "palm")
    lamp = scene.setup.light.lamp_mm
    centre = palm.vertices_mm.mean(axis=0)
    on_table = lamp[:2] + (centre[:2] - lamp[:2]) * lamp[2] / (lamp[2] - centre[2])
    x, y = scene.setup.camera.project(numpy.array([[*on_table, 0.0]]))[0]
    if 0 <= x < 1280 and 0 <= y < 720:
        assert mask[round(y), round(x)] < 0.5
    assert mask.min() < 0.3 and mask.max() == pytest.approx(1.0)


def test_the_lamp_lights_its_side_of_the_table_more() -> None:
    light = lighting.Lighting(
        numpy.array([0.0, 0.0, 600.0]),
        30.0,
        lighting.colour_of(2700),
        lighting.colour_of(6500),
        0.8,
        1.0,
        (300.0, 0.0),
    )
    near, far = (
        light.lamp_irradiance(numpy.array([0.0]), numpy.array([0.0])),
        light.lamp_irradiance(numpy.array([600.0]), numpy.array([0.0])),
    )
    assert near[0] > 2 * far[0]
    warm, daylight = lighting.colour_of(2700), lighting.colour_of(6500)
    assert warm[2] / warm[0] > 1.5 > daylight[2] / daylight[0]  # a warm lamp is redder than daylight


def test_every_game_draws_its_editions_differently_on_any_table() -> None:
    rng = numpy.random.default_rng(0)
    look = tables.choose_table("linen", rng)
    for game in ("minotaurus", "minos", "asterion", "hornochsen", "minoa"):
        renderer = renderer_for(game)
        assert renderer.render_on is not None and len(renderer.editions) >= 3, game
        layout = _layout(game)
        labels = renderer.sample_labels(layout, numpy.random.default_rng(1), True)
        background = tables.draw_table(look, (0.0, 0.0), layout.plane_size_px(), 2.0)
        drawn = {
            edition: renderer.render_on(
                labels, layout, numpy.random.default_rng(2), background=background, edition=edition
            )
            for edition in renderer.editions
        }
        default = drawn["default"].astype(float)
        assert numpy.abs(default - background.astype(float)).mean() > 2, f"{game} drew nothing on the table"
        for edition, image in drawn.items():
            if edition != "default":
                assert numpy.abs(image.astype(float) - default).mean() > 1.0, (game, edition)


def _recording(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text())


def test_a_session_starts_with_reference_frames_and_keeps_its_camera(tmp_path: Path) -> None:
    path = generate_session(
        GAME, tmp_path / "s", 5, hard=True, seed=12, table="gingham", placement="square-edge"
    )
    data = _recording(path)
    setup = data["setup"]
    assert (
        setup["table"] == "gingham" and setup["edition"] == "default" and setup["placement"] == "square-edge"
    )
    assert 100 < setup["camera_height_mm"] < 2000 and 0 <= setup["camera_tilt_deg"] <= 30
    frames = data["frames"]
    references = [frame for frame in frames if frame.get("reference")]
    assert 1 <= len(references) <= 3 and frames[: len(references)] == references
    assert all(set(frame["labels"].values()) == {"empty"} for frame in references)
    assert len(frames) == len(references) + 5
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICTIONARY))
    )
    seen = []
    for frame in frames:
        if frame["hand"] or frame["motion"]:
            continue
        found, ids, _ = detector.detectMarkers(cv2.imread(str(tmp_path / "s" / frame["file"])))
        if ids is not None and 0 in ids.ravel():
            seen.append(found[list(ids.ravel()).index(0)].reshape(4, 2).mean(axis=0))
    assert len(seen) >= 3
    # The camera never moved: the marker stays put up to the detector's jitter on noisy frames.
    assert max(float(numpy.hypot(*(centre - seen[0]))) for centre in seen) < 1.5


def test_the_same_seed_gives_the_same_session(tmp_path: Path) -> None:
    first = generate_session(GAME, tmp_path / "a", 2, hard=True, seed=8)
    second = generate_session(GAME, tmp_path / "b", 2, hard=True, seed=8)
    other = generate_session(GAME, tmp_path / "c", 2, hard=True, seed=9)
    files = sorted(path.name for path in (tmp_path / "a").glob("*.jpg"))
    assert files and files == sorted(path.name for path in (tmp_path / "b").glob("*.jpg"))
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert _recording(first)["frames"] == _recording(second)["frames"]
    assert (tmp_path / "a" / files[0]).read_bytes() != (tmp_path / "c" / files[0]).read_bytes()
    assert _recording(first)["setup"] == _recording(second)["setup"] != _recording(other)["setup"]


def test_a_hard_set_covers_every_table_and_both_placements(tmp_path: Path) -> None:
    count = 2 * len(tables.TABLE_KINDS)
    # Only the plan of the set is checked here (drawing fourteen sessions is a benchmark's work).
    plan = [session.hard_set_plan(n) for n in range(count)]
    assert {kind for kind, _ in plan} == set(tables.TABLE_KINDS)
    for kind in tables.TABLE_KINDS:
        assert {placement for k, placement in plan if k == kind} == set(marker_sheets.PLACEMENTS), kind
    paths = generate_hard_set(
        GAME, tmp_path, sessions=2, frames_per_session=1, seed=3, editions=("default", "travel")
    )
    setups = [_recording(path)["setup"] for path in paths]
    assert [(s["table"], s["placement"], s["edition"]) for s in setups] == [
        (*session.hard_set_plan(0), "default"),
        (*session.hard_set_plan(1), "travel"),
    ]


def test_bad_requests_say_what_is_wrong(tmp_path: Path) -> None:
    with pytest.raises(GeneratorError, match="no edition 'pirate'"):
        generate_session(GAME, tmp_path / "x", 2, edition="pirate")
    with pytest.raises(GeneratorError, match="at least one play frame"):
        generate_session(GAME, tmp_path / "y", 0)
    with pytest.raises(GeneratorError, match="no lens 'fisheye'"):
        generate_session(GAME, tmp_path / "z", 1, lens="fisheye")


def test_a_toss_session_is_the_figure_in_3d_recorded_as_a_sitting(tmp_path: Path) -> None:
    path = generate_session("toss", tmp_path / "t", 2, hard=True, seed=4, table="printed")
    data = _recording(path)
    assert data["setup"]["table"] == "printed" and data["setup"]["head_height_mm"] > 0
    references = [frame for frame in data["frames"] if frame.get("reference")]
    assert references and all(set(frame["labels"].values()) == {"clear"} for frame in references)
    assert len(data["frames"]) == len(references) + 2


def test_a_glossy_table_mirrors_the_lamp_where_the_angles_meet() -> None:
    camera = world.look_at((0.0, 0.0), 600.0, 0.0, 0.0, 0.0, "standard", 0.0, 0.0)
    lamp_height, lamp_x = 900.0, 500.0
    light = lighting.Lighting(
        numpy.array([lamp_x, 0.0, lamp_height]),
        20.0,
        lighting.colour_of(4000),
        lighting.colour_of(6500),
        0.7,
        1.0,
        (0.0, 0.0),
    )
    ground_x, ground_y = camera.ground_points()
    _, _, glare = lighting.ground_light(light, camera, ground_x, ground_y)
    row, column = numpy.unravel_index(numpy.argmax(glare), glare.shape)
    # A mirror at z = 0 between an eye at height H and a lamp at height L, x apart: x H / (H + L) along.
    expected = lamp_x * 600.0 / (600.0 + lamp_height)
    assert float(ground_x[row, column]) == pytest.approx(expected, abs=3.0)
    assert abs(float(ground_y[row, column])) < 3.0
    assert glare.max() > 20 * numpy.median(glare)


def test_light_drifts_slowly_within_a_session() -> None:
    events = 0
    for seed in range(30):
        gains = lighting.drift(40, numpy.random.default_rng(seed), True)
        steps = numpy.abs(numpy.diff(gains, axis=0))
        assert steps[:, 1].max() < 0.1  # daylight changes slowly (a cloud)
        assert (steps[:, 0] > 0.1).sum() <= 3  # a lamp switched on comes up within a few frames
        assert gains.min() > 0.0
        events += int(numpy.ptp(gains, axis=0).max() > 0.15)
    assert 5 <= events <= 25  # some sessions see a cloud or a lamp switched on, most not


def test_dice_stand_at_their_height_so_their_tops_show_parallax(monkeypatch: pytest.MonkeyPatch) -> None:
    layout = _layout()
    camera = world.look_at((140.0, 90.0), 400.0, 0.0, 0.0, 0.0, "standard", 0.0, 0.0)
    rng = numpy.random.default_rng(1)
    light = lighting.choose_lighting((140.0, 90.0), 280.0, rng, False)
    look = tables.choose_table("light-wood", rng)
    setup = sitting.Setup(GAME, look, "standard", camera, light, "second-print", "square-edge")
    labels = renderer_for(GAME).sample_labels(layout, rng, False)
    dice = {}
    for height in (0.0, 18.0):
        monkeypatch.setattr(session, "piece_height_mm", lambda _game, mm=height: mm)
        scene = session.World(setup, layout, numpy.random.default_rng(2))
        lit, _ = scene.frame(labels, numpy.random.default_rng(3), hand=False, gains=(1.0, 1.0), hard=False)
        # The second print's dice are white: their tops are the brightest things in the tray.
        x0, y0, x1, y1 = minos_tray_mm(layout.plane_mm)
        tray = camera.project(numpy.array([[x0, y0, 0], [x1, y0, 0], [x1, y1, 0], [x0, y1, 0]], float))
        inside = numpy.zeros((720, 1280), numpy.uint8)
        cv2.fillPoly(inside, [numpy.round(tray).astype(numpy.int32)], 1)
        brightness = lit.min(axis=2) * inside
        top = (brightness > 0.72 * float(brightness.max())).astype(numpy.uint8)  # sides: 0.62 of it
        # A symbol may cut a die's top in two: close it over the ink, then take each top's outline.
        top = cv2.morphologyEx(top, cv2.MORPH_CLOSE, numpy.ones((9, 9), numpy.uint8))
        outlines, _ = cv2.findContours(top, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        moments = [cv2.moments(outline) for outline in outlines]
        dice[height] = numpy.array(
            [(m["m10"] / m["m00"], m["m01"] / m["m00"]) for m in moments if m["m00"] > 300]
        )
    assert len(dice[0.0]) == len(dice[18.0]) == 6
    middle = camera.matrix[:2, 2]
    for flat in dice[0.0]:
        standing = min(dice[18.0], key=lambda centre: float(numpy.hypot(*(centre - flat))))
        # Straight down from H, a top h up is seen H / (H - h) as far from the middle as its foot.
        expected = middle + (flat - middle) * 400.0 / (400.0 - 18.0)
        assert numpy.hypot(*(standing - expected)) < 1.5, (flat, standing, expected)
