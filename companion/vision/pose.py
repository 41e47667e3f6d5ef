"""The camera's pose from the four corner markers, and the homography of a plane raised above theirs.

The markers give a homography between their plane (millimetres) and the frame. A homography of a plane
seen by a pinhole camera is K [r1 r2 t] up to scale, so it also tells where the camera is: with the
principal point at the frame's centre and square pixels (true of the Pi's cameras to a pixel or two), the
two columns r1, r2 must be orthogonal and of equal length, which fixes the focal length unless the camera
looks almost straight down (then a typical Pi camera's focal length is taken; looking straight down, the
focal length barely matters for the raised plane, as the figure then stands near the camera's axis).
cv2.solvePnP then gives the rotation and translation from the 16 marker corners.

Knowing the camera, a plane `raised_mm` above the markers' (the toss figure's head, where rings rest)
has its own homography: K [r1 r2 (t + raised_mm * up)]. Warping the frame through it puts things lying
on that plane at their true plane positions, as the flat homography does for things on the markers'.

World frame: x and y as the game's plane (millimetres, x to the right, y down the plane as drawn), z up
from the markers' plane. As x and y are those of a picture seen from above, z up makes the frame
left-handed; OpenCV's camera model wants a right-handed one, so points go to it as (x, y, -z).
"""

from __future__ import annotations

import dataclasses
import math

import cv2
import numpy
import numpy.typing

from companion.vision.base import (
    CORNER_MARKER_IDS,
    MARKER_SIDE_MM,
    PLANE_PX_PER_MM,
    VisionError,
)

FloatArray = numpy.typing.NDArray[numpy.float64]

TYPICAL_HORIZONTAL_FOV_DEG = 66.0
"""Raspberry Pi Camera Module 3 (standard lens) across the full-width 16:9 modes; the v2 module has 62."""
MIN_TILT_FOR_FOCAL_DEG = 12.0
"""Below this tilt the markers' homography hardly constrains the focal length (it is then a scale that
any focal length and camera height share): the typical focal length is taken instead."""
FOCAL_RANGE = (0.3, 5.0)
"""A focal length estimated outside these multiples of the frame width is a bad fit, not a lens."""


class PoseError(VisionError):
    """The markers' homography gives no camera pose (degenerate, or the camera would be under the table)."""


@dataclasses.dataclass(frozen=True)
class CameraPose:
    """A pinhole camera: intrinsics, and the rotation and translation from world (x, y, -z) to camera."""

    camera_matrix: FloatArray
    rotation: FloatArray
    translation: FloatArray
    focal_estimated: bool
    """True when the focal length came from the homography, False when the typical one was taken."""

    @property
    def position_mm(self) -> FloatArray:
        """The camera's centre in world mm (x, y, z up from the markers' plane)."""
        centre = -self.rotation.T @ self.translation
        return numpy.array([centre[0], centre[1], -centre[2]])

    @property
    def tilt_deg(self) -> float:
        """Angle between the camera's axis and straight down."""
        axis = self.rotation[2]  # the camera's z axis in world (x, y, -z) coordinates
        return math.degrees(math.acos(min(1.0, abs(float(axis[2])))))

    def project(self, points_mm: numpy.typing.ArrayLike) -> FloatArray:
        """Frame pixels (N, 2) of world points (N, 3) in mm (no lens distortion)."""
        points = numpy.asarray(points_mm, numpy.float64).reshape(-1, 3) * numpy.array([1.0, 1.0, -1.0])
        camera = points @ self.rotation.T + self.translation
        pixels = camera @ self.camera_matrix.T
        return numpy.asarray(pixels[:, :2] / pixels[:, 2:3], numpy.float64)

    def plane_to_frame(self, raised_mm: float = 0.0) -> FloatArray:
        """The homography from a plane `raised_mm` above the markers' (in mm) to frame pixels."""
        columns = numpy.column_stack(
            [self.rotation[:, 0], self.rotation[:, 1], self.translation - raised_mm * self.rotation[:, 2]]
        )
        return numpy.asarray(self.camera_matrix @ columns, numpy.float64)

    def frame_to_plane_px(self, raised_mm: float = 0.0) -> FloatArray:
        """The homography from frame pixels to plane pixels (PLANE_PX_PER_MM) of the raised plane."""
        to_plane_px = numpy.diag([PLANE_PX_PER_MM, PLANE_PX_PER_MM, 1.0])
        homography = to_plane_px @ numpy.linalg.inv(self.plane_to_frame(raised_mm))
        return numpy.asarray(homography / homography[2, 2], numpy.float64)


def typical_camera_matrix(frame_size: tuple[int, int]) -> FloatArray:
    width, height = frame_size
    focal = width / 2 / math.tan(math.radians(TYPICAL_HORIZONTAL_FOV_DEG) / 2)
    return numpy.array([[focal, 0.0, width / 2], [0.0, focal, height / 2], [0.0, 0.0, 1.0]])


def estimate_focal(plane_mm_to_frame: FloatArray, frame_size: tuple[int, int]) -> float | None:
    """The focal length (px) that makes the homography's first two columns orthogonal and equally long,
    with the principal point at the frame's centre; None when the homography does not tell."""
    width, height = frame_size
    centred = numpy.array([[1.0, 0.0, -width / 2], [0.0, 1.0, -height / 2], [0.0, 0.0, 1.0]])
    h = centred @ plane_mm_to_frame
    h = h / numpy.linalg.norm(h[:, :2])
    (a1, a2), (b1, b2), (c1, c2) = h[0, :2], h[1, :2], h[2, :2]
    # Both constraints are linear in w = 1 / focal^2: least squares over the two.
    coefficients = numpy.array([a1 * a2 + b1 * b2, a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2])
    constants = numpy.array([c1 * c2, c1 * c1 - c2 * c2])
    denominator = float(coefficients @ coefficients)
    if denominator < 1e-18:
        return None
    w = -float(coefficients @ constants) / denominator
    if w <= 0:
        return None
    focal = 1.0 / math.sqrt(w)
    low, high = FOCAL_RANGE
    return focal if low * width <= focal <= high * width else None


def _marker_corners_mm(plane_mm: tuple[float, float]) -> FloatArray:
    width, height = plane_mm
    side = MARKER_SIDE_MM
    origins = ((0.0, 0.0), (width - side, 0.0), (width - side, height - side), (0.0, height - side))
    square = numpy.array([[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]])
    return numpy.concatenate([square + numpy.array(origins[n]) for n in range(len(CORNER_MARKER_IDS))])


def _solve(corners_mm: FloatArray, corners_px: FloatArray, camera_matrix: FloatArray) -> CameraPose | None:
    world = numpy.column_stack([corners_mm, numpy.zeros(len(corners_mm))])
    ok, rotation_vector, translation = cv2.solvePnP(
        world, corners_px, camera_matrix, None, flags=cv2.SOLVEPNP_IPPE
    )
    if not ok:
        return None
    rotation, _ = cv2.Rodrigues(rotation_vector)
    return CameraPose(
        camera_matrix,
        numpy.asarray(rotation, numpy.float64),
        translation.reshape(3).astype(numpy.float64),
        False,
    )


def pose_from_homography(
    frame_to_plane_px: FloatArray,
    plane_mm: tuple[float, float],
    frame_size: tuple[int, int],
    camera_matrix: FloatArray | None = None,
) -> CameraPose:
    """The camera pose from the calibration's homography (frame pixels to plane pixels).

    `camera_matrix`: the lens's intrinsics when known (a calibrated camera); otherwise the focal length is
    estimated from the homography (principal point at the frame's centre, square pixels).
    """
    try:
        to_plane_mm = numpy.diag([1 / PLANE_PX_PER_MM, 1 / PLANE_PX_PER_MM, 1.0]) @ frame_to_plane_px
        plane_mm_to_frame = numpy.asarray(numpy.linalg.inv(to_plane_mm), numpy.float64)
    except numpy.linalg.LinAlgError:
        raise PoseError("the markers' homography is singular: no camera sees the plane that way") from None
    corners_mm = _marker_corners_mm(plane_mm)
    homogeneous = numpy.column_stack([corners_mm, numpy.ones(len(corners_mm))]) @ plane_mm_to_frame.T
    corners_px = homogeneous[:, :2] / homogeneous[:, 2:3]
    estimated = camera_matrix is None
    if camera_matrix is None:
        camera_matrix = typical_camera_matrix(frame_size)
        first = _solve(corners_mm, corners_px, camera_matrix)
        focal = estimate_focal(plane_mm_to_frame, frame_size)
        # Near straight down the estimate is noise: keep the typical lens there.
        if first is not None and focal is not None and first.tilt_deg >= MIN_TILT_FOR_FOCAL_DEG:
            camera_matrix = camera_matrix.copy()
            camera_matrix[0, 0] = camera_matrix[1, 1] = focal
        else:
            estimated = False
    pose = _solve(corners_mm, corners_px, numpy.asarray(camera_matrix, numpy.float64))
    if pose is None:
        raise PoseError("the marker corners give no camera pose")
    if pose.position_mm[2] <= 0:
        raise PoseError("the markers' homography puts the camera under the table: markers out of order?")
    return dataclasses.replace(pose, focal_estimated=estimated)


def raised_homography(
    frame_to_plane_px: FloatArray,
    plane_mm: tuple[float, float],
    frame_size: tuple[int, int],
    raised_mm: float,
    camera_matrix: FloatArray | None = None,
) -> FloatArray:
    """Frame pixels to plane pixels of the plane `raised_mm` above the markers' (0: the flat homography)."""
    if raised_mm == 0:
        return frame_to_plane_px
    pose = pose_from_homography(frame_to_plane_px, plane_mm, frame_size, camera_matrix)
    return pose.frame_to_plane_px(raised_mm)
