"""What the companion reads now: the live frame read with a profile, drawn on the camera's picture.

Teach mode shows it beside each lesson, so the host sees the new edition being read while teaching:
every item's label where the item lies on the table, read through the same `PlaneReader` the game
uses (markers, plane, recogniser, with the profile as taught so far).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

from companion.vision.base import Frame, Profile, Recogniser
from companion.vision.calibration import Points
from companion.vision.overlay import (
    GREEN,
    RED,
    WHITE,
    Colour,
    checked_image,
    draw_items,
    draw_label,
    label_scale,
    project_layout,
)
from companion.vision.pipeline import PlaneReader

NOTHING = frozenset({"empty", "clear"})
"""Labels of an item with nothing on it: outlined faintly, not labelled, so the pieces' labels stand out."""
FACE_DOWN = "down"
"""A piece face down shows nothing to read (most of a Minotaurus board): outlined in blue, not labelled."""
FAINT: Colour = (150, 150, 150)
BLUE: Colour = (200, 120, 40)


@dataclasses.dataclass(frozen=True)
class LiveReading:
    items: dict[str, str]
    """Item → label (empty without a plane)."""
    confidence: dict[str, float]
    outlines: dict[str, Points]
    """Each item's outline in frame pixels (empty without a homography)."""
    message: str
    """Why nothing is read (markers not found, ...), or empty."""

    def to_json(self) -> dict[str, Any]:
        return {
            "read": self.items,
            "confidence": {item: round(value, 3) for item, value in self.confidence.items()},
            "calibrated": bool(self.outlines),
            "message": self.message,
        }


class LiveReader:
    """Reads the live frames of one game's play area with a profile that may change between frames."""

    def __init__(self, game: str, options: Mapping[str, Any], recogniser: Recogniser | None = None) -> None:
        self.pipeline = PlaneReader(game, options, recogniser=recogniser)
        self.layout = self.pipeline.layout
        self.lock = threading.Lock()

    def read(self, frame: Frame, profile: Profile | None) -> LiveReading:
        self.pipeline.profile = profile
        result = self.pipeline.read(checked_image(frame))
        homography = result.calibration.homography
        size = (frame.shape[1], frame.shape[0])
        outlines = project_layout(self.layout, homography, size) if homography is not None else {}
        if result.reading is None:
            message = result.calibration.message or "cannot read the table now"
            if getattr(result, "hand", False):  # readers that refuse a hand in view say so
                message = "a hand is over the table"
            return LiveReading({}, {}, outlines, message)
        return LiveReading(dict(result.reading.items), dict(result.reading.confidence), outlines, "")

    def draw(self, frame: Frame, live: LiveReading, spot: Mapping[str, str] | None = None) -> Frame:
        """The frame with every item's reading on it (empty places and face-down pieces only outlined); the
        items of `spot` (the lesson's item → the label it should read) green when read so, red otherwise."""
        image = checked_image(frame).copy()
        spot = spot or {}
        colours: dict[str, Colour] = {}
        labels: dict[str, str] = {}
        for item, label in live.items.items():
            if item in spot:
                colours[item] = GREEN if label == spot[item] else RED
            elif label in NOTHING or label == FACE_DOWN:
                colours[item] = FAINT if label in NOTHING else BLUE
                continue
            else:
                colours[item] = WHITE
            labels[item] = label
        for item in spot:
            colours.setdefault(item, RED)
        draw_items(image, live.outlines, labels, colours)
        if live.message:
            height, width = image.shape[:2]
            draw_label(image, live.message, (width / 2, 0.05 * height), RED, label_scale(image))
        return image
