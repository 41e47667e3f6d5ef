"""Drawing a toss scene through a camera: the table, the bull's head and collar, horns, posts and rings.

The scene is solid: the head stands `head_height_mm` on the table, the rings rest where the rigid-body
simulator left them, and the camera (world.Camera: pose, lens, distortion) sees it all with parallax.
Layers, far to near, so that the painter's algorithm never has to sort a face against a big plane:
  1. the table (a texture at its height; with the markers when they lie on it),
  2. what stands on the table: the head's sides and rings that fell beside it (far to near),
  3. the collar plate's top (with the markers when they are printed on it), then the lamp's shadows of
     what stands on it,
  4. what stands on the plate: rim, posts, horns and the rings on the head (far to near).
Light: a lamp (Lambert) plus daylight; the camera's spoiling (noise, JPEG, uneven light) is effects.py's.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy
import numpy.typing

from companion.vision.base import PLANE_PX_PER_MM, Frame
from companion.vision.generate.camera import draw_markers
from companion.vision.generate.solids import Solid
from companion.vision.generate.tables import TableLook, draw_table
from companion.vision.generate.world import Camera, draw_solids, ground_maps

FloatArray = numpy.typing.NDArray[numpy.float64]
FloatImage = numpy.typing.NDArray[numpy.float32]

GROUND_MARGIN_MM = 420.0
"""Table drawn around the play area: a high, tilted camera sees this far beyond it."""
PLATE_LIP_MM = 8.0
"""The collar plate's marker tabs reach this far past the play area's corners (the markers' white margin)."""


@dataclasses.dataclass(frozen=True)
class Lamp:
    position_mm: FloatArray
    """World mm, z up from the markers' plane."""
    share: float
    """Of the light on a level surface facing it (the rest is daylight, even from above)."""
    level: float

    def shade(self, albedo: FloatArray, normal: FloatArray, middle: FloatArray) -> FloatArray:
        towards = self.position_mm - middle
        incidence = max(0.0, float(normal @ towards) / float(numpy.linalg.norm(towards)))
        daylight = (1 - self.share) * (0.55 + 0.45 * max(0.0, float(normal[2])))
        return numpy.asarray(albedo * self.level * (self.share * incidence + daylight), numpy.float64)

    def level_surface(self, at_mm: FloatArray) -> float:
        """The light on a level surface at a point (as `shade` gives a face looking up)."""
        return float(self.shade(numpy.ones(1), numpy.array([0.0, 0.0, 1.0]), at_mm)[0])


@dataclasses.dataclass(frozen=True)
class TossView:
    """Everything drawn, in world mm: the play area, where the table and the plate lie, and the solids."""

    plane_mm: tuple[float, float]
    table_z_mm: float
    """The table's height relative to the markers' plane (0, or below it when they lie on the collar)."""
    plate_z_mm: float
    """The collar plate's top: where rings rest."""
    plate_corners_mm: FloatArray
    """(4, 2): the plate's top outline."""
    plate_bgr: tuple[float, float, float]
    markers_on_plate: bool
    table: TableLook
    below: list[Solid]
    """Solids under the plate's top: the head (or its sides) and rings on the table."""
    above: list[Solid]
    """Solids standing on the plate: rim, posts, horns, rings on the head."""
    rings: tuple[str, ...]
    """Names of the ring solids (for the training mask)."""


def _raised(camera: Camera, height_mm: float) -> Camera:
    """The same camera with the world moved down by `height_mm`: its ground (z = 0) is then the plane
    at that height."""
    return dataclasses.replace(camera, translation=camera.translation - height_mm * camera.rotation[:, 2])


def _texture_at(
    camera: Camera, height_mm: float, texture: Frame, origin_mm: tuple[float, float]
) -> FloatImage:
    map_x, map_y = ground_maps(_raised(camera, height_mm), origin_mm, PLANE_PX_PER_MM)
    warped = cv2.remap(
        texture, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=(90, 90, 90)
    )
    return numpy.asarray(warped, numpy.float32)


def _table_texture(view: TossView) -> tuple[Frame, tuple[float, float]]:
    width, height = view.plane_mm
    origin = (-GROUND_MARGIN_MM, -GROUND_MARGIN_MM)
    size = (
        round((width + 2 * GROUND_MARGIN_MM) * PLANE_PX_PER_MM),
        round((height + 2 * GROUND_MARGIN_MM) * PLANE_PX_PER_MM),
    )
    texture = draw_table(view.table, origin, size, PLANE_PX_PER_MM)
    if not view.markers_on_plate:
        margin = round(GROUND_MARGIN_MM * PLANE_PX_PER_MM)
        draw_markers(texture, view.plane_mm, (margin, margin))
    return texture, origin


def _plate_texture(view: TossView) -> Frame:
    """The plate's top from PLATE_LIP_MM outside the play area: printed markers need a light margin."""
    lip = round(PLATE_LIP_MM * PLANE_PX_PER_MM)
    width, height = (round(v * PLANE_PX_PER_MM) + 2 * lip for v in view.plane_mm)
    texture = numpy.empty((height, width, 3), numpy.uint8)
    texture[:] = numpy.clip(view.plate_bgr, 0, 255)
    if view.markers_on_plate:
        draw_markers(texture, view.plane_mm, (lip, lip))
    return texture


def _polygon_mask(camera: Camera, corners_mm: FloatArray, z_mm: float) -> FloatImage:
    width, height = camera.frame_size
    mask = numpy.zeros((height, width), numpy.float32)
    points = numpy.column_stack([corners_mm, numpy.full(len(corners_mm), z_mm)])
    pixels = camera.project(points)
    if not numpy.isnan(pixels).any():
        cv2.fillPoly(mask, [numpy.round(pixels * 16).astype(numpy.int32)], 1.0, cv2.LINE_AA, shift=4)
    return mask


def _shadow_on(camera: Camera, lamp: Lamp, solids: list[Solid], z_mm: float) -> FloatImage:
    """Where the lamp's light on the level z_mm is blocked by the solids (1: fully), softened a little."""
    width, height = camera.frame_size
    shadow = numpy.zeros((height, width), numpy.float32)
    light = lamp.position_mm
    for solid in solids:
        above = numpy.minimum(solid.vertices_mm[:, 2], light[2] - 1.0)
        reach = (light[2] - z_mm) / (light[2] - above)
        on_plane = light[:2] + (solid.vertices_mm[:, :2] - light[:2]) * reach[:, None]
        pixels = camera.project(numpy.column_stack([on_plane, numpy.full(len(on_plane), z_mm)]))
        polygons = [
            numpy.round(pixels[list(face)] * 16).astype(numpy.int32)
            for face in solid.faces
            if not numpy.isnan(pixels[list(face)]).any()
        ]
        cv2.fillPoly(shadow, polygons, 1.0, cv2.LINE_8, shift=4)
    return numpy.asarray(cv2.GaussianBlur(shadow, (0, 0), 2.0), numpy.float32)


def table_view(view: TossView, camera: Camera) -> FloatImage:
    """The bare table as the camera sees it (a session draws it once: it stays put)."""
    table, origin = _table_texture(view)
    return _texture_at(camera, view.table_z_mm, table, origin)


def render_view(view: TossView, camera: Camera, lamp: Lamp, table: FloatImage | None = None) -> Frame:
    """The camera's picture of the scene (before the sensor spoils it); `table`: table_view's, if drawn."""
    image = (table_view(view, camera) if table is None else table).copy()
    middle_x, middle_y = view.plane_mm[0] / 2, view.plane_mm[1] / 2
    image *= lamp.level_surface(numpy.array([middle_x, middle_y, view.table_z_mm]))
    draw_solids(image, camera, view.below, lamp.shade)
    top = _polygon_mask(camera, view.plate_corners_mm, view.plate_z_mm)[..., None]
    plate = _texture_at(camera, view.plate_z_mm, _plate_texture(view), (-PLATE_LIP_MM, -PLATE_LIP_MM))
    lit = lamp.level_surface(numpy.array([middle_x, middle_y, view.plate_z_mm]))
    shadow = _shadow_on(camera, lamp, view.above, view.plate_z_mm)[..., None]
    plate *= lit * (1 - lamp.share * 0.8 * shadow)
    image = image * (1 - top) + plate * top
    draw_solids(image, camera, view.above, lamp.shade)
    return numpy.asarray(numpy.clip(image, 0, 255), numpy.uint8)


def ring_mask(view: TossView, camera: Camera) -> Frame:
    """255 where a ring's cord is what the camera sees, 0 elsewhere (for learning the built-in colours)."""

    def flat(solids: list[Solid]) -> list[Solid]:
        return [
            dataclasses.replace(
                s, albedo_bgr=numpy.full_like(s.albedo_bgr, 255.0 if s.name in view.rings else 0.0)
            )
            for s in solids
        ]

    width, height = camera.frame_size
    image = numpy.zeros((height, width, 3), numpy.float32)
    draw_solids(image, camera, flat(view.below), lambda albedo, _n, _m: albedo)
    top = _polygon_mask(camera, view.plate_corners_mm, view.plate_z_mm)[..., None]
    image = image * (1 - top)
    draw_solids(image, camera, flat(view.above), lambda albedo, _n, _m: albedo)
    return numpy.asarray(image[..., 0] > 127, numpy.uint8) * 255
