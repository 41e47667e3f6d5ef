"""The world the camera sees: a pinhole camera with a real pose and lens over a table at z = 0.

World frame (solids.py): x and y in millimetres as the game's plane is drawn (origin at its top-left
corner, y down the drawing), z the height above the table. Seen from above, a drawing with y down
is the mirror image of a right-handed frame with z up, so the camera works in the right-handed
frame (x, y, -z): depth grows *into* the table, and a camera above the table sits at negative
third coordinate. `Camera.project` takes world points (height as z) and does the flip itself.

The ground (the table with the game drawn on it) is a texture in world millimetres; each frame
pixel is cast as a ray through the lens onto z = 0 and takes the texture's colour there
(cv2.remap, the inverse mapping). The camera is fixed for a session, so the rays are cast once.
Solids above the table are projected vertex by vertex and painted far to near.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable

import cv2
import numpy
import numpy.typing

from companion.vision.generate.solids import Solid

Rng = numpy.random.Generator
FloatArray = numpy.typing.NDArray[numpy.float64]
FloatImage = numpy.typing.NDArray[numpy.float32]

FRAME_SIZE = (1280, 720)
LENSES: dict[str, tuple[float, tuple[float, float], tuple[float, float]]] = {
    "standard": (66.0, (-0.06, 0.04), (-0.02, 0.02)),
    "wide": (102.0, (-0.12, -0.05), (0.0, 0.02)),
}
"""Lens name: (horizontal field of view in degrees, k1 range, k2 range). The Pi Camera Module 3 and
its wide version; a wide lens bends straight lines outwards (barrel: negative k1)."""
FaceShader = Callable[[FloatArray, FloatArray, FloatArray], FloatArray]
"""The colour (linear BGR) of a face from its albedo, its unit normal towards the lens and its middle
(world mm); lighting.Light.shade_face is one."""
RAY_GRID_PX = 4
"""Spacing of the frame pixels whose rays are undistorted exactly; the rest are interpolated."""
VIEW_INSET_PX = 40.0
"""The play area and its marker sheets stay this far inside the frame, as a set-up camera keeps them."""


@dataclasses.dataclass(frozen=True)
class Camera:
    """A pinhole camera with radial distortion (OpenCV's model: k1, k2), looking at the table."""

    matrix: FloatArray
    """K, 3x3: focal length and principal point in pixels."""
    rotation: FloatArray
    """R, 3x3: camera-frame coordinates of the right-handed world axes (x, y, -z)."""
    translation: FloatArray
    """t, 3: so that a point p (right-handed world) is R p + t in the camera frame."""
    k1: float
    k2: float
    frame_size: tuple[int, int]

    @property
    def position_mm(self) -> FloatArray:
        """Where the lens is, in world mm with z as the height above the table."""
        centre = -self.rotation.T @ self.translation
        return numpy.array([centre[0], centre[1], -centre[2]])

    @property
    def height_mm(self) -> float:
        return float(self.position_mm[2])

    @property
    def tilt_deg(self) -> float:
        """The optical axis's angle from straight down."""
        axis = self.rotation[2]  # the camera's z axis in right-handed world coordinates
        return float(numpy.degrees(numpy.arccos(numpy.clip(axis[2], -1.0, 1.0))))

    @functools.cached_property
    def distortion_limit_r2(self) -> float:
        """The squared normalised radius up to which the distorted radius r (1 + k1 r² + k2 r⁴) grows."""
        r2 = numpy.linspace(0.0, 100.0, 20001)
        slope = 1.0 + 3.0 * self.k1 * r2 + 5.0 * self.k2 * r2 * r2
        falling = numpy.nonzero(slope < 0.2)[0]
        return float(r2[falling[0]]) if len(falling) else 100.0

    def rvec_tvec(self) -> tuple[FloatArray, FloatArray]:
        """The pose as cv2.projectPoints takes it (for points given as (x, y, -z))."""
        rvec, _ = cv2.Rodrigues(self.rotation)
        return numpy.asarray(rvec, numpy.float64).ravel(), self.translation.copy()

    def to_camera(self, points_mm: FloatArray) -> FloatArray:
        """World points (N, 3), z as height, in the camera's frame (its third column is the depth)."""
        flipped = points_mm * numpy.array([1.0, 1.0, -1.0])
        return numpy.asarray(flipped @ self.rotation.T + self.translation, numpy.float64)

    def project(self, points_mm: FloatArray) -> FloatArray:
        """Frame pixels (N, 2) of world points (N, 3), lens distortion included; points behind the
        lens come out as NaN."""
        camera = self.to_camera(numpy.atleast_2d(points_mm))
        depth = camera[:, 2]
        with numpy.errstate(divide="ignore", invalid="ignore"):
            x, y = camera[:, 0] / depth, camera[:, 1] / depth
        # The radial polynomial only models the lens inside its view: far outside it would fold points
        # back into the frame. Beyond where it stops growing, points keep the factor at that radius.
        r2 = numpy.minimum(x * x + y * y, self.distortion_limit_r2)
        factor = 1.0 + self.k1 * r2 + self.k2 * r2 * r2
        pixels = numpy.stack(
            [
                self.matrix[0, 0] * x * factor + self.matrix[0, 2],
                self.matrix[1, 1] * y * factor + self.matrix[1, 2],
            ],
            axis=1,
        )
        pixels[depth <= 1.0] = numpy.nan
        return pixels

    def ground_points(self, height_mm: float = 0.0) -> tuple[FloatImage, FloatImage]:
        """For every frame pixel, the world (x, y) in mm where its ray meets the level plane
        `height_mm` above the table (NaN: it does not; the ray runs above the horizon)."""
        width, height = self.frame_size
        rays = self._world_rays
        centre = -self.rotation.T @ self.translation
        with numpy.errstate(divide="ignore", invalid="ignore"):
            reach = (-height_mm - centre[2]) / rays[:, 2]
        reach[reach <= 0] = numpy.nan
        ground_x = (centre[0] + reach * rays[:, 0]).reshape(height, width)
        ground_y = (centre[1] + reach * rays[:, 1]).reshape(height, width)
        return ground_x.astype(numpy.float32), ground_y.astype(numpy.float32)

    @functools.cached_property
    def _world_rays(self) -> FloatArray:
        """Every frame pixel's ray direction (W*H, 3) in the right-handed world frame, row by row."""
        normal = self._undistorted_rays()
        return numpy.asarray(
            numpy.concatenate([normal, numpy.ones((len(normal), 1))], axis=1) @ self.rotation, numpy.float64
        )

    def _undistorted_rays(self) -> FloatArray:
        """Every frame pixel's normalised undistorted coordinates (W*H, 2), row by row."""
        width, height = self.frame_size
        step = RAY_GRID_PX
        # Undistortion is smooth: invert it on a grid of nodes and interpolate between them (a
        # thousandth of a pixel off, at a sixteenth of the cost).
        nodes_u = numpy.arange(0, width + step, step, dtype=numpy.float64)
        nodes_v = numpy.arange(0, height + step, step, dtype=numpy.float64)
        u, v = numpy.meshgrid(nodes_u, nodes_v)
        pixels = numpy.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
        distortion = numpy.array([self.k1, self.k2, 0.0, 0.0])
        # cv2 inverts the distortion iteratively; more iterations than its default keep a wide lens's
        # corners within a hundredth of a pixel.
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-9)
        coarse = cv2.undistortPoints(pixels, self.matrix, distortion, None, None, None, criteria)
        coarse = coarse.reshape(len(nodes_v), len(nodes_u), 2).astype(numpy.float32)
        fine_u, fine_v = numpy.meshgrid(
            numpy.arange(width, dtype=numpy.float32) / step, numpy.arange(height, dtype=numpy.float32) / step
        )
        fine = cv2.remap(coarse, fine_u, fine_v, cv2.INTER_LINEAR)
        return numpy.asarray(fine, numpy.float64).reshape(-1, 2)


def look_at(
    target_mm: tuple[float, float],
    height_mm: float,
    tilt_deg: float,
    tilt_towards_deg: float,
    yaw_deg: float,
    lens: str,
    k1: float,
    k2: float,
    frame_size: tuple[int, int] = FRAME_SIZE,
) -> Camera:
    """A camera `height_mm` above the table whose optical axis meets it at `target_mm`, tilted
    `tilt_deg` from straight down: it stands back from the target in the direction
    `tilt_towards_deg` (0: towards +x, 90: towards +y), its image's x axis turned `yaw_deg` from
    the table's x axis."""
    width, height = frame_size
    focal = width / 2 / math.tan(math.radians(LENSES[lens][0]) / 2)
    matrix = numpy.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])
    back = height_mm * math.tan(math.radians(tilt_deg))
    towards = math.radians(tilt_towards_deg)
    centre = numpy.array(
        [target_mm[0] + back * math.cos(towards), target_mm[1] + back * math.sin(towards), -height_mm]
    )
    forward = numpy.array([target_mm[0], target_mm[1], 0.0]) - centre
    forward /= numpy.linalg.norm(forward)
    yaw = math.radians(yaw_deg)
    hint = numpy.array([math.cos(yaw), math.sin(yaw), 0.0])
    right = hint - (hint @ forward) * forward
    right /= numpy.linalg.norm(right)
    down = numpy.cross(forward, right)  # right x down = forward: a proper rotation
    rotation = numpy.stack([right, down, forward])
    return Camera(matrix, rotation, -rotation @ centre, k1, k2, frame_size)


def fits(camera: Camera, outline_mm: FloatArray, inset_px: float = VIEW_INSET_PX) -> tuple[bool, float]:
    """Whether the outline (N, 2) on the table lies inside the frame with `inset_px` to spare, and
    the share of the frame's width or height (the larger) that it spans."""
    points = numpy.concatenate([outline_mm, numpy.zeros((len(outline_mm), 1))], axis=1)
    pixels = camera.project(points)
    width, height = camera.frame_size
    if numpy.isnan(pixels).any():
        return False, 0.0
    inside = bool(
        pixels[:, 0].min() > inset_px
        and pixels[:, 0].max() < width - inset_px
        and pixels[:, 1].min() > inset_px
        and pixels[:, 1].max() < height - inset_px
    )
    span = numpy.ptp(pixels, axis=0) / numpy.array([width, height])
    return inside, float(span.max())


def coarsest_mm_per_px(camera: Camera, plane_mm: tuple[float, float]) -> float:
    """The table's millimetres per frame pixel where this camera sees the play area coarsest: over a
    grid of the area, in the direction a pixel covers most, lens included (from the camera's own
    projection, a millimetre's step at each point)."""
    width, height = plane_mm
    xs, ys = numpy.meshgrid(numpy.linspace(0.0, width, 5), numpy.linspace(0.0, height, 5))
    at = numpy.stack([xs.ravel(), ys.ravel(), numpy.zeros(xs.size)], axis=1)
    seen = camera.project(at)
    along_x = camera.project(at + numpy.array([1.0, 0.0, 0.0])) - seen
    along_y = camera.project(at + numpy.array([0.0, 1.0, 0.0])) - seen
    jacobians = numpy.stack([along_x, along_y], axis=2)  # frame pixels per mm, per point
    finest = numpy.linalg.svd(jacobians, compute_uv=False).min(axis=1)
    return float(1.0 / max(float(finest.min()), 1e-9))


def ground_maps(
    camera: Camera, origin_mm: tuple[float, float], px_per_mm: float, height_mm: float = 0.0
) -> tuple[FloatImage, FloatImage]:
    """cv2.remap maps from the frame into a texture lying `height_mm` above the table whose pixel
    (0, 0) lies at `origin_mm`."""
    ground_x, ground_y = camera.ground_points(height_mm)
    map_x = (ground_x - origin_mm[0]) * px_per_mm
    map_y = (ground_y - origin_mm[1]) * px_per_mm
    # Rays that miss the table look at a far wall: out of range, filled by remap's border colour.
    map_x[numpy.isnan(map_x)] = -1e6
    map_y[numpy.isnan(map_y)] = -1e6
    return map_x, map_y


def draw_solids(
    image: FloatImage,
    camera: Camera,
    solids: list[Solid],
    shade: FaceShader,
) -> FloatImage:
    """Paint every solid's visible faces onto the (linear, float BGR) frame, farthest first."""
    faces: list[tuple[float, numpy.typing.NDArray[numpy.int32], FloatArray]] = []
    centre = camera.position_mm
    for solid in solids:
        pixels = camera.project(solid.vertices_mm)
        depth = camera.to_camera(solid.vertices_mm)[:, 2]
        for index, face in enumerate(solid.faces):
            corners = solid.vertices_mm[list(face)]
            if not numpy.isfinite(pixels[list(face)]).all() or depth[list(face)].min() < 5.0:
                continue
            normal = numpy.cross(corners[1] - corners[0], corners[2] - corners[0])
            length = float(numpy.linalg.norm(normal))
            if length < 1e-9:
                continue
            normal /= length
            middle = corners.mean(axis=0)
            # Lit on the side the lens sees, whatever the winding: the far faces of a closed solid are
            # painted first and covered by the near ones, so they need no culling.
            if normal @ (centre - middle) < 0:
                normal = -normal
            colour = shade(solid.albedo_bgr[index], normal, middle)
            polygon = numpy.round(pixels[list(face)] * 16).astype(numpy.int32)
            faces.append((float(numpy.linalg.norm(centre - middle)), polygon, colour))
    faces.sort(key=lambda entry: -entry[0])
    for _, polygon, colour in faces:
        cv2.fillPoly(image, [polygon], tuple(float(c) for c in colour), cv2.LINE_AA, shift=4)
    return image
