"""Tanz der Hornochsen: two digits blurred into one shape are cut between the valley's two columns of least
ink, each digit keeping its own side of it (_hornochsen_glyphs._split_joined)."""

from __future__ import annotations

import numpy

from companion.vision.recognisers import _hornochsen_glyphs
from companion.vision.recognisers._lab import FloatArray

HEIGHT = 16


def _shape(columns: list[float]) -> FloatArray:
    """Ink whose columns hold these sums, spread evenly down a digit's height."""
    return numpy.asarray(
        numpy.tile(numpy.asarray(columns, numpy.float32) / HEIGHT, (HEIGHT, 1)), numpy.float32
    )


def _cut(columns: list[float]) -> list[list[int]]:
    return _hornochsen_glyphs._split_joined(_shape(columns), [0, 0, len(columns), HEIGHT])


BLOB = [4.0, 8.0, 12.0, 14.0, 15.0, 15.0, 14.0, 12.0, 8.0]


def test_a_valley_two_columns_wide_is_cut_in_its_middle() -> None:
    """A camera's pixel drawn twice on the plane: the valley's bottom is two equal columns, one each."""
    parts = _cut([*BLOB, 3.0, 3.0, *BLOB])
    assert parts == [[0, 0, 10, HEIGHT], [10, 0, 20, HEIGHT]], "each digit as wide as the other"


def test_the_least_column_stays_with_its_inkier_neighbour() -> None:
    """The cut falls between the valley's least column and its lesser neighbour: here the least column's
    left neighbour holds more ink, so it is the left digit's (cut at the least column itself, the right
    digit took it); mirrored, the right digit's."""
    parts = _cut([*BLOB, 5.0, 3.0, 3.5, 6.0, *BLOB])
    assert parts == [[0, 0, 11, HEIGHT], [11, 0, 22, HEIGHT]]
    mirrored = _cut([*BLOB, 6.0, 3.5, 3.0, 5.0, *BLOB])
    assert mirrored == [[0, 0, 11, HEIGHT], [11, 0, 22, HEIGHT]]


def test_a_shape_with_no_valley_is_not_cut() -> None:
    plateau = [4.0, 8.0, 12.0, 14.0, *[15.0] * 12, 14.0, 12.0, 8.0, 4.0]
    assert _cut(plateau) == [[0, 0, 20, HEIGHT]]
