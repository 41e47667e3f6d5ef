"""The toss recogniser's built-in colour prototypes, learned from the generator's 3-D toss scenes.

Shots of the figure seen from straight above (generate.toss.render_scene: rings at the simulator's
rest poses, every rope and collar colour), spoilt as a camera spoils them; the cord's pixels (the
renderer's mask, eroded) become the ring prototypes, the pixels well clear of any cord the background
ones. Written to companion/vision/recognisers/toss_colours.json; the recogniser only reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM
from companion.vision.recognisers.toss import COLOURS_FILE, REWRITE, plane_lab, toss_layout

COLOURS_SEED = 20261121
"""Seed of the generated shots the built-in prototypes are learned from (no evaluation set uses it)."""
TRAINING_SHOTS = 24
PROTOTYPES_PER_CLASS = 24
REACH_MM = 50.0
"""Pixels this close to a horn's base are learned from: where the recogniser looks."""


def _kmeans(rows: numpy.typing.NDArray[numpy.float32], count: int) -> list[list[float]]:
    if len(rows) > count:
        cv2.setRNGSeed(1)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1)
        _, _, centres = cv2.kmeans(  # type: ignore[call-overload]
            numpy.asarray(rows, numpy.float32), count, None, criteria, 2, cv2.KMEANS_PP_CENTERS
        )
        rows = centres
    return [[round(float(v), 2) for v in row] for row in rows]


def learn_colours(shots: int = TRAINING_SHOTS, seed: int = COLOURS_SEED) -> dict[str, list[list[float]]]:
    """Ring and background prototypes learned from generated, spoilt top-down shots of the figure."""
    from companion.vision.generate import effects
    from companion.vision.generate.toss import render_scene, sample_labels

    rng = numpy.random.default_rng(seed)
    layout = toss_layout()
    width, height = layout.plane_size_px()
    ys, xs = numpy.mgrid[0:height, 0:width] / PLANE_PX_PER_MM
    near = numpy.zeros((height, width), bool)
    for region in layout.items.values():
        near |= numpy.hypot(xs - region.centre_mm[0], ys - region.centre_mm[1]) < REACH_MM
    kernel = numpy.ones((5, 5), numpy.uint8)
    ring: list[numpy.typing.NDArray[numpy.float32]] = []
    background: list[numpy.typing.NDArray[numpy.float32]] = []
    for _ in range(shots):
        plane, mask = render_scene(sample_labels(layout, rng, True), layout, rng)
        lab = plane_lab(effects.decode_jpeg(effects.spoil(plane, rng, hard=True)))
        ring.append(lab[near & (cv2.erode(mask, kernel) > 0)])
        background.append(lab[near & (cv2.dilate(mask, kernel) == 0)][::7])
    return {
        "ring": _kmeans(numpy.concatenate(ring), PROTOTYPES_PER_CLASS),
        "background": _kmeans(numpy.concatenate(background), PROTOTYPES_PER_CLASS),
    }


def write_colours(path: Path = COLOURS_FILE) -> Path:
    """Learn the built-in prototypes afresh and write them (by default beside the recogniser)."""
    about = f"Toss ring and background prototypes (CIELAB) from generated 3-D shots; rewrite: {REWRITE}"
    document = {"about": about, "shots": TRAINING_SHOTS, "seed": COLOURS_SEED, "colours": learn_colours()}
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    return path


WRITERS = {"toss_colours": write_colours}
