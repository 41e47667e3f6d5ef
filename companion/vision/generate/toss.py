"""Toss scenes in three dimensions: the bull figure standing at its height, rings where physics left them.

The figure is hardware/figure.json's (as the toss simulator reads it): a head box with the collar plate
on top, two leaning, tapering horns, the collar's rim and the tip beams' posts. Rings lie at resting
poses of the rigid-body simulator (companion/sim/ringtoss): real throws at the horns, come to rest
around a horn, leaning on one, beside or between them, or fallen to the table. So the truth of a frame
is the simulator's (a horn wears a ring when its axis passes through the ring's hole), never a label a
drawing was made to show.

Two setups (the toss layout's options): the markers printed on tabs of the collar plate (the plate's top
is the markers' plane, the table lies a head's height below), or the markers on the table around the
figure (the plate stands `figure_height_mm` above them). A camera 350-700 mm above the table, tilted up to
30 degrees (the setup guide's range, docs/toss-camera.md), looks at it through world.Camera.

Frames of whole sessions: `toss_session` fixes table, figure, camera and lamp; `TossSession.frame` draws
one with given or random labels.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy
import numpy.typing

from companion.vision.base import Frame, Layout, recogniser_for
from companion.vision.generate import Rng, SceneRenderer, effects, register_renderer
from companion.vision.generate._toss_meshes import box, tapered_cylinder, torus
from companion.vision.generate._toss_render import (
    PLATE_LIP_MM,
    FloatImage,
    Lamp,
    TossView,
    render_view,
    ring_mask,
    table_view,
)
from companion.vision.generate._toss_rings import (
    RestingRing,
    _figure,
    choose_rings,
    resting_rings,
    truth,
)
from companion.vision.generate.solids import Solid
from companion.vision.generate.tables import TABLE_KINDS, TableLook, choose_table
from companion.vision.generate.world import LENSES, Camera, look_at

GAME = "toss"
RING_COLOURS_BGR: dict[str, tuple[float, float, float]] = {
    "red": (40, 40, 190),
    "orange": (30, 120, 230),
    "blue": (170, 100, 30),
    "green": (60, 150, 40),
    "purple": (130, 50, 120),
    "jute": (95, 150, 185),
    "natural": (160, 195, 215),
    "black": (35, 35, 38),
}
"""Rope rings: dyed cotton, and undyed jute and natural cord (the hard case on a light plate)."""
PLATE_COLOURS_BGR: dict[str, tuple[float, float, float]] = {
    "black": (38, 38, 40),
    "dark-brown": (35, 50, 75),
    "brown": (50, 85, 130),
    "tan": (110, 160, 200),
    "cream": (185, 212, 228),
    "grey": (125, 125, 122),
    "white": (222, 226, 228),
}
"""The collar plate (printed PETG) and the head under it: dark bulls, painted or raw ones."""
HORN_COLOURS_BGR = ((195, 222, 238), (160, 190, 210), (70, 80, 90))
"""Ivory, bone, dark horn."""
HEAD_HEIGHT_MM = (40.0, 80.0)
CAMERA_HEIGHT_MM = (500.0, 750.0)
"""Above the table (setup guide)."""
CAMERA_TILT_DEG = 25.0
"""The most the setup guide allows the camera to lean from straight down."""
HEIGHT_MEASURED_WITHIN_MM = 2.0
"""With the markers on the table the head's height is measured once at setup: this far off, at most."""
# ---------------------------------------------------------------- the figure as solids


@dataclasses.dataclass(frozen=True)
class Figure3d:
    """Where the figure stands in the world: the plate's middle (plane mm), its height and the table's."""

    centre_mm: tuple[float, float]
    plate_z_mm: float
    table_z_mm: float
    markers_on_plate: bool

    def world(self, sim_point: numpy.typing.ArrayLike) -> numpy.typing.NDArray[numpy.float64]:
        """A simulator point in world mm: y flips (the plane's y runs towards the players)."""
        x, y, z = numpy.asarray(sim_point, numpy.float64)
        return numpy.array([self.centre_mm[0] + x, self.centre_mm[1] - y, self.plate_z_mm + z])


def figure_solids(
    figure3d: Figure3d, plate_bgr: tuple[float, float, float], horn_bgr: tuple[float, float, float]
) -> tuple[list[Solid], list[Solid]]:
    """(below the plate's top, above it): the head and plate; rim, posts and horns."""
    figure = _figure()
    cx, cy = figure3d.centre_mm
    hx, hy = figure.head_half_size
    top = figure3d.plate_z_mm
    head = box((cx - hx, cy - hy, figure3d.table_z_mm), (cx + hx, cy + hy, top), plate_bgr, "head")
    below = [head]
    if figure3d.markers_on_plate:  # the plate's marker tabs reach past the head
        lip = PLATE_LIP_MM
        below.append(box((-lip, -lip, top - 3.0), (2 * cx + lip, 2 * cy + lip, top), plate_bgr, "plate"))
    rim_w, rim_h = figure.rim_width, figure.rim_height
    above = [
        box((cx - hx, cy - hy, top), (cx + hx, cy - hy + rim_w, top + rim_h), plate_bgr, "rim"),
        box((cx - hx, cy + hy - rim_w, top), (cx + hx, cy + hy, top + rim_h), plate_bgr, "rim"),
        box((cx - hx, cy - hy, top), (cx - hx + rim_w, cy + hy, top + rim_h), plate_bgr, "rim"),
        box((cx + hx - rim_w, cy - hy, top), (cx + hx, cy + hy, top + rim_h), plate_bgr, "rim"),
    ]
    for x, y, height in figure.posts():
        base = figure3d.world((x, y, 0.0))
        above.append(
            tapered_cylinder(
                base,
                numpy.array([0.0, 0.0, 1.0]),
                height,
                (figure.post_radius,) * 2,
                plate_bgr,
                "post",
                sides=10,
                segments=2,
            )
        )
    for horn in figure.horns:
        base = figure3d.world(horn.base)
        axis = figure3d.world(numpy.asarray(horn.base) + numpy.asarray(horn.axis)) - base
        above.append(
            tapered_cylinder(
                base,
                axis,
                horn.length,
                (horn.base_radius, horn.tip_radius),
                horn_bgr,
                f"horn:{horn.name}",
                lighter_towards_end=0.15,
            )
        )
    return below, above


def ring_solid(
    figure3d: Figure3d, ring: RestingRing, colour: tuple[float, float, float], index: int
) -> tuple[Solid, bool]:
    """The ring's mesh in the world, and whether it lies on the table (below the plate)."""
    figure = _figure()
    position = numpy.array(ring.position)
    on_table = position[2] < figure.table_z / 2
    if on_table:  # the simulator's table is its own head's height below: put the ring on this one
        position[2] += (figure3d.table_z_mm - figure3d.plate_z_mm) - figure.table_z
    centre = figure3d.world(position)
    normal = numpy.array([ring.normal[0], -ring.normal[1], ring.normal[2]])
    solid = torus(centre, normal, figure.ring.centre_radius, figure.ring.cord_radius, colour, f"ring{index}")
    return solid, bool(on_table)


# ---------------------------------------------------------------- sessions and frames


@dataclasses.dataclass(frozen=True)
class TossShot:
    image: Frame
    jpeg: bytes
    labels: dict[str, str]
    rings: tuple[RestingRing, ...]


@dataclasses.dataclass
class TossSession:
    """One sitting: table, figure, collar and horn colours, camera and lamp fixed; rings change."""

    layout: Layout
    figure3d: Figure3d
    camera: Camera
    lamp: Lamp
    table: TableLook
    plate_bgr: tuple[float, float, float]
    horn_bgr: tuple[float, float, float]
    ring_bgr: tuple[float, float, float]
    hard: bool
    pool: tuple[RestingRing, ...]
    _table: FloatImage | None = None

    @property
    def setup(self) -> dict[str, Any]:
        """The recording's setup (docs/vision-recordings.md)."""
        return {
            "table": self.table.kind,
            "camera_height_mm": round(float(self.camera.position_mm[2] - self.figure3d.table_z_mm), 1),
            "camera_tilt_deg": round(self.camera.tilt_deg, 1),
            "figure_height_mm": self.layout.raised_mm,
            "head_height_mm": round(self.figure3d.plate_z_mm - self.figure3d.table_z_mm, 1),
        }

    def view(self, rings: list[RestingRing], rng: Rng) -> TossView:
        below, above = figure_solids(self.figure3d, self.plate_bgr, self.horn_bgr)
        names = []
        for index, ring in enumerate(rings):
            solid, on_table = ring_solid(self.figure3d, ring, self.ring_bgr, index)
            (below if on_table else above).append(solid)
            names.append(solid.name)
        cx, cy = self.figure3d.centre_mm
        on_plate = self.figure3d.markers_on_plate
        hx, hy = (cx + PLATE_LIP_MM, cy + PLATE_LIP_MM) if on_plate else _figure().head_half_size
        outline = numpy.array(
            [[cx - hx, cy - hy], [cx + hx, cy - hy], [cx + hx, cy + hy], [cx - hx, cy + hy]]
        )
        return TossView(
            self.layout.plane_mm,
            self.figure3d.table_z_mm,
            self.figure3d.plate_z_mm,
            outline,
            self.plate_bgr,
            self.figure3d.markers_on_plate,
            self.table,
            below,
            above,
            tuple(names),
        )

    def frame(self, rng: Rng, labels: Mapping[str, str] | None = None) -> TossShot:
        wanted = dict(labels) if labels is not None else sample_labels(self.layout, rng, self.hard)
        return self.shot(choose_rings(wanted, rng, self.pool, self.hard), rng)

    def shot(
        self, rings: list[RestingRing], rng: Rng, *, hand: bool = False, motion: bool = False
    ) -> TossShot:
        """A frame of these rings (labelled by the simulator's truth); `hand`: an arm reaches over the
        figure (hands.py's, as on every game's table); `motion`: smeared by movement."""
        view = self.view(rings, rng)
        if hand:
            from companion.vision.generate import hands

            view.above.extend(hands.arm(self.layout.plane_mm, rng)[0])
        if self._table is None:
            self._table = table_view(view, self.camera)
        picture = render_view(view, self.camera, self.lamp, self._table)
        # The camera's own spoiling only: the lamp and its shadows are the scene's and stay put all session.
        jpeg = effects.sensor(picture.astype(numpy.float32), rng, hard=self.hard, motion=motion)
        return TossShot(effects.decode_jpeg(jpeg), jpeg, truth(rings), tuple(rings))


def toss_session(
    layout: Layout,
    rng: Rng,
    *,
    hard: bool = True,
    head_height_mm: float | None = None,
    camera_height_mm: float | None = None,
    pool: tuple[RestingRing, ...] | None = None,
    table: str | None = None,
) -> TossSession:
    """A random sitting for the layout (markers on the collar when it reads the markers' own plane) on
    a table of the kind (tables.TABLE_KINDS; None: any)."""
    on_plate = layout.raised_mm == 0
    if on_plate:
        head = head_height_mm if head_height_mm is not None else float(rng.uniform(*HEAD_HEIGHT_MM))
        plate_z, table_z = 0.0, -head
    else:
        plate_z = layout.raised_mm + float(rng.uniform(-HEIGHT_MEASURED_WITHIN_MM, HEIGHT_MEASURED_WITHIN_MM))
        table_z = 0.0
    centre = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    figure3d = Figure3d(centre, plate_z, table_z, on_plate)
    camera = _camera(layout, figure3d, rng, hard, camera_height_mm)
    lamp_angle = rng.uniform(0, 2 * math.pi)
    lamp = Lamp(
        numpy.array(
            [
                centre[0] + 400 * math.cos(lamp_angle),
                centre[1] + 400 * math.sin(lamp_angle),
                float(rng.uniform(600, 1400)),
            ]
        ),
        float(rng.uniform(0.3, 0.8)),
        float(rng.uniform(0.75, 1.1)),
    )
    colours = list(RING_COLOURS_BGR.values())
    plates = list(PLATE_COLOURS_BGR.values())
    return TossSession(
        layout,
        figure3d,
        camera,
        lamp,
        choose_table(table if table is not None else TABLE_KINDS[int(rng.integers(len(TABLE_KINDS)))], rng),
        plates[int(rng.integers(len(plates)))],
        HORN_COLOURS_BGR[int(rng.integers(len(HORN_COLOURS_BGR)))],
        colours[int(rng.integers(len(colours)))],
        hard,
        pool if pool is not None else resting_rings(),
    )


def _camera(layout: Layout, figure3d: Figure3d, rng: Rng, hard: bool, height: float | None) -> Camera:
    """A camera that keeps the four markers in view and unhidden by the figure."""
    width, depth = layout.plane_mm
    low, high = CAMERA_HEIGHT_MM
    for _ in range(500):
        above_table = height if height is not None else float(rng.uniform(low, high))
        tilt = float(rng.uniform(0, CAMERA_TILT_DEG if hard else CAMERA_TILT_DEG / 2))
        fov, k1_range, k2_range = LENSES["standard"]
        camera = look_at(
            (width / 2 + rng.uniform(-20, 20), depth / 2 + rng.uniform(-20, 20)),
            above_table + figure3d.table_z_mm,
            tilt,
            float(rng.uniform(0, 360)),
            float(rng.uniform(-12, 12)),
            "standard",
            float(rng.uniform(*k1_range)),
            float(rng.uniform(*k2_range)),
        )
        focal = (
            camera.matrix[0, 0]
            * math.tan(math.radians(fov / 2))
            / math.tan(math.radians(fov / 2 + rng.uniform(-3, 3)))
        )
        matrix = camera.matrix.copy()
        matrix[0, 0] = matrix[1, 1] = focal
        camera = dataclasses.replace(camera, matrix=matrix)
        if _markers_in_sight(camera, layout, figure3d):
            return camera
    raise RuntimeError("no camera pose in the setup guide's range sees all four markers")  # pragma: no cover


def _markers_in_sight(camera: Camera, layout: Layout, figure3d: Figure3d) -> bool:
    from companion.vision.generate.camera import marker_corners_mm

    corners = numpy.concatenate(list(marker_corners_mm(layout.plane_mm).values()))
    pixels = camera.project(numpy.column_stack([corners, numpy.zeros(len(corners))]))
    width, height = camera.frame_size
    if (
        numpy.isnan(pixels).any()
        or pixels.min() < 30
        or (pixels[:, 0] > width - 30).any()
        or (pixels[:, 1] > height - 30).any()
    ):
        return False
    below, above = figure_solids(figure3d, (0, 0, 0), (0, 0, 0))
    standing = above + ([] if figure3d.markers_on_plate else below)
    import cv2

    mask = numpy.zeros((height, width), numpy.uint8)
    for solid in standing:
        projected = camera.project(solid.vertices_mm)
        for face in solid.faces:
            cv2.fillPoly(mask, [numpy.round(projected[list(face)]).astype(numpy.int32)], 255)
    inside = numpy.round(pixels).astype(int)
    return not mask[inside[:, 1], inside[:, 0]].any()


# ---------------------------------------------------------------- the generator's registration


def _top_down(layout: Layout) -> Camera:
    """A camera far straight above, whose picture of the rings' plane is the layout's plane: its
    pixels are plane pixels there (the generator's flat path and the training draw with it)."""
    from companion.vision.base import PLANE_PX_PER_MM

    distance = 5000.0
    width, height = layout.plane_size_px()
    centre = numpy.array([layout.plane_mm[0] / 2, layout.plane_mm[1] / 2])
    focal = PLANE_PX_PER_MM * distance
    matrix = numpy.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])
    position = numpy.array([centre[0], centre[1], -(layout.raised_mm + distance)])
    return Camera(matrix, numpy.eye(3), -position, 0.0, 0.0, (width, height))


def render_scene(labels: Mapping[str, str], layout: Layout, rng: Rng) -> tuple[Frame, Frame]:
    """The rings' plane seen from straight above (the layout's plane), and a mask of the rings' cords."""
    session = toss_session(layout, rng, hard=False, pool=resting_rings(40))
    session = dataclasses.replace(session, camera=_top_down(layout))
    rings = choose_rings(labels, rng, session.pool, False)
    view = session.view(rings, rng)
    return render_view(view, session.camera, session.lamp), ring_mask(view, session.camera)


def render_plane(labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    return render_scene(labels, layout, rng)[0]


def sample_labels(layout: Layout, rng: Rng, hard: bool) -> dict[str, str]:
    return {item: ("ring" if rng.random() < 0.45 else "clear") for item in layout.items}


def solids(labels: Mapping[str, str], layout: Layout, rng: Rng) -> list[Solid]:
    """The figure and rings for the labels, for the world renderer (which draws the table at z = 0)."""
    session = toss_session(layout, rng, pool=resting_rings(40))
    view = session.view(choose_rings(labels, rng, session.pool, True), rng)
    return view.below + view.above


def toss_layout(options: Mapping[str, Any] | None = None) -> Layout:
    return recogniser_for(GAME).layout(options or {})


register_renderer(SceneRenderer(GAME, render_plane, sample_labels, {}))
