"""Where the Minoa board lies in the plane: an affine fit of its lattice to the sticks and pieces seen.

The plane is cut out by the corner markers, but the board is its own piece of card: a marker sheet laid
by its paper's cut edge instead of its black square (the old printed sheet keeps a 10 mm margin), or
pushed a little askew, moves the markers and not the board, so the board shows up to 10 mm off the
layout's lines near its rim (scaled about the middle), a few millimetres more or less at each corner.
A strip 12 mm across a line cannot absorb that, and a normalised plane no longer shows the board's print
to register on. What it does show is the pieces, and every piece lies on a line: so the fit starts from
the two ways of laying the sheets, keeps the one whose lines the pieces cover best, then measures how far
each held line's piece lies across its line and solves for the affine correction in least squares.
"""

from __future__ import annotations

import cv2
import numpy
import numpy.typing

FloatArray = numpy.typing.NDArray[numpy.float32]
Affine = numpy.typing.NDArray[numpy.float64]
"""2 x 3: plane millimetres = Affine @ (board millimetres, 1)."""

SHEET_MARGIN_MM = 10.0
"""White paper beyond a marker's black square on the old printed sheet: laid by that edge, each marker
lies this much further in on both axes."""
MEASURE_ALONG = numpy.linspace(-0.25, 0.25, 9)
"""Where along a line (share of its length) its piece is looked for while fitting: clear of the lines
that cross at its ends even when the fit is still a few millimetres off."""
MEASURE_ACROSS_MM = numpy.arange(-8.0, 8.01, 1.0)
"""How far across a line its piece is looked for while fitting."""
BAND_MM = 2.0
"""A hypothesis scores the evidence within this of its lines (a stick is 4 mm wide)."""
HELD = 0.5
"""A line whose best offset has this share of evidence holds a piece to measure."""
RIDGE = 0.5
"""Pull of the correction towards none, in lines' worth: a frame with pieces along one direction only
stays put across the others."""
OUTLIER_MM = 3.0
"""A line this far off the first least-squares fit is left out of the second (two pieces side by side)."""
ROUNDS = 2
PIECE_REACH_MM = 5.0
"""Offsets this far from a line's peak of evidence count towards its piece's middle."""


class LatticeLines:
    """The lines' middles, directions and normals in board millimetres (the layout's nominal plane)."""

    def __init__(
        self,
        middles: FloatArray,
        directions: FloatArray,
        edge: numpy.typing.NDArray[numpy.bool_],
        length_mm: float,
        plane_mm: tuple[float, float],
    ):
        self.middles = middles.astype(numpy.float64)
        self.directions = directions.astype(numpy.float64)
        self.normals = numpy.stack([-self.directions[:, 1], self.directions[:, 0]], axis=1)
        self.edge = edge
        """Edge lines hold coloured pieces, the others sticks: each is looked for in its own evidence."""
        self.length_mm = length_mm
        distance = numpy.linalg.norm(self.middles[:, None, :] - self.middles[None, :, :], axis=2)
        self.nearest = numpy.argsort(distance, axis=1, kind="stable")
        """Per line, every line from the nearest (itself) to the furthest by their middles."""
        self.centre = numpy.array(plane_mm, numpy.float64) / 2
        width, height = plane_mm
        self.hypotheses = [_scaled(self.centre, 1.0, 1.0)]
        inset = 2 * SHEET_MARGIN_MM
        self.hypotheses.append(_scaled(self.centre, width / (width - inset), height / (height - inset)))
        self._band = self._split(self.grid(MEASURE_ALONG, numpy.arange(-BAND_MM, BAND_MM + 0.01, 1.0)))
        self._measure = self._split(self.grid(MEASURE_ALONG, MEASURE_ACROSS_MM))

    def _split(self, points: FloatArray) -> tuple[tuple[int, ...], FloatArray, FloatArray]:
        """A grid's shape and its points as (n, 1, 2) for cv2.transform: the interior lines' and the edge
        lines' apart, each looked for in its own evidence (one channel sampled each, not both)."""
        inner, edge = (
            numpy.ascontiguousarray(points[which].reshape(-1, 1, 2)) for which in (~self.edge, self.edge)
        )
        return points.shape[:-1], inner, edge

    def grid(self, along: numpy.typing.ArrayLike, across_mm: numpy.typing.ArrayLike) -> FloatArray:
        """Board-mm points (lines, across, along, 2) around each line's middle."""
        along, across_mm = numpy.asarray(along, numpy.float64), numpy.asarray(across_mm, numpy.float64)
        step_along = self.directions[:, None, None, :] * (along[None, None, :, None] * self.length_mm)
        step_across = self.normals[:, None, None, :] * across_mm[None, :, None, None]
        return numpy.asarray(self.middles[:, None, None, :] + step_along + step_across, numpy.float32)

    def fit(self, sticks: FloatArray, pieces: FloatArray) -> Affine:
        """The board-to-plane affine that best lays the lattice on the evidence: 1 where a pixel looks like a
        stick (`sticks`) or a piece (`pieces`), at 1 px/mm (the plane's 2 px/mm halved by area, so pixel
        j's centre lies at j + 0.25 mm)."""
        evidence = (
            numpy.ascontiguousarray(sticks, numpy.float32),
            numpy.ascontiguousarray(pieces, numpy.float32),
        )
        scores = [float(self._sample(evidence, self._band, h).mean()) for h in self.hypotheses]
        affine = self.hypotheses[int(numpy.argmax(scores))].copy()
        for _ in range(ROUNDS):
            affine = self._refined(evidence, affine)
        return affine

    def _refined(self, evidence: tuple[FloatArray, FloatArray], affine: Affine) -> Affine:
        profiles = self._sample(evidence, self._measure, affine).mean(axis=2)  # (lines, across)
        peak = profiles.argmax(axis=1)
        held = profiles[numpy.arange(len(profiles)), peak] >= HELD
        if numpy.count_nonzero(held) < 6:
            return affine
        # The piece's middle: the evidence's centroid near the peak (a piece is 9 mm wide; further off lie
        # the pieces of lines crossing at the ends).
        near = numpy.abs(MEASURE_ACROSS_MM[None, :] - MEASURE_ACROSS_MM[peak][:, None]) <= PIECE_REACH_MM
        weights = numpy.where(near & (profiles >= HELD * 0.6), profiles, 0.0)
        offsets = (weights * MEASURE_ACROSS_MM[None, :]).sum(axis=1) / numpy.maximum(
            weights.sum(axis=1), 1e-6
        )
        where = (affine[:, :2] @ self.middles.T).T + affine[:, 2]
        # The measured offset lies along the line's normal as the plane shows it.
        normals = (affine[:, :2] @ self.normals.T).T
        normals /= numpy.linalg.norm(normals, axis=1, keepdims=True)
        keep = held.copy()
        correction = numpy.zeros(6)
        for _ in range(2):
            correction = _solve(where[keep], normals[keep], offsets[keep], self.centre)
            residual = numpy.abs(_apply(correction, where, normals, self.centre) - offsets)
            keep = held & (residual <= OUTLIER_MM)
            if numpy.count_nonzero(keep) < 6:
                break
        shift, gain = correction[:2], correction[2:].reshape(2, 2) / 100.0
        # Plane point p moves to p + shift + gain (p - centre).
        linear = (numpy.eye(2) + gain) @ affine[:, :2]
        offset = (numpy.eye(2) + gain) @ affine[:, 2] + shift - gain @ self.centre
        return numpy.concatenate([linear, offset[:, None]], axis=1)

    def _sample(
        self,
        evidence: tuple[FloatArray, FloatArray],
        points: tuple[tuple[int, ...], FloatArray, FloatArray],
        affine: Affine,
    ) -> FloatArray:
        """Each line's points (a grid `_split`) in the evidence of what it may hold (sticks, pieces)."""
        shape, inner, edge = points
        found = numpy.empty(shape, numpy.float32)
        found[~self.edge] = _sample(evidence[0], inner, affine).reshape(-1, *shape[1:])
        found[self.edge] = _sample(evidence[1], edge, affine).reshape(-1, *shape[1:])
        return found


def _scaled(centre: numpy.typing.NDArray[numpy.float64], sx: float, sy: float) -> Affine:
    linear = numpy.diag([sx, sy])
    return numpy.concatenate([linear, (centre - linear @ centre)[:, None]], axis=1)


def _rows(where: Affine, normals: Affine, centre: numpy.typing.NDArray[numpy.float64]) -> Affine:
    x, y = ((where - centre) / 100.0).T
    nx, ny = normals.T
    return numpy.stack([nx, ny, nx * x, nx * y, ny * x, ny * y], axis=1)


def _apply(
    correction: Affine, where: Affine, normals: Affine, centre: numpy.typing.NDArray[numpy.float64]
) -> Affine:
    return numpy.asarray(_rows(where, normals, centre) @ correction)


def _solve(
    where: Affine, normals: Affine, offsets: Affine, centre: numpy.typing.NDArray[numpy.float64]
) -> Affine:
    rows = _rows(where, normals, centre)
    lhs = rows.T @ rows + RIDGE * numpy.eye(6)
    return numpy.asarray(numpy.linalg.solve(lhs, rows.T @ offsets))


def _sample(evidence: FloatArray, points_mm: FloatArray, affine: Affine) -> FloatArray:
    """The evidence (1 px/mm, see `fit`) at board-mm points (n, 1, 2) laid by `affine`."""
    to_pixels = affine - numpy.array([[0.0, 0.0, 0.25], [0.0, 0.0, 0.25]])
    where = cv2.transform(points_mm, to_pixels).reshape(1, -1, 2)
    # One map of (x, y) pairs, and no second one (which OpenCV's stubs do not allow for).
    sampled = cv2.remap(  # type: ignore[call-overload]
        evidence, where, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
    )
    return numpy.asarray(sampled, numpy.float32).reshape(-1)
