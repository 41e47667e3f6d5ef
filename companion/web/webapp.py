"""The scoreboard as an installable web app: its manifest and its icon, both made here.

A phone offers "Add to Home screen" / "Install" when the page names a manifest with a name, a start
address, a standalone display and icons of 192 and 512 px. The icon is drawn with OpenCV on first
request (a bull's horns with a ring over one of them) rather than kept as binary files: it is the same
picture at every size, and the Pi has OpenCV anyway. The manifest's words follow the phone's language.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy
from flask import Blueprint, Response, abort, jsonify, url_for
from flask_babel import gettext as _

bp = Blueprint("webapp", __name__)

ICON_SIZES = (192, 512)
BACKGROUND = (40, 36, 122)  # BGR: the deep red of the page's header
HORN = (235, 242, 246)
RING = (40, 190, 245)
SUPERSAMPLE = 4
DRAWN_SHARE = 0.8
"""The picture's share of the square: launchers cut "maskable" icons to a circle of 80 % of the side."""


@lru_cache(maxsize=len(ICON_SIZES))
def icon_png(size: int) -> bytes:
    """The icon as PNG bytes: a full-bleed square whose picture keeps inside the circle that every
    launcher's mask leaves whole, so one file serves as an "any" and a "maskable" icon."""
    big = size * SUPERSAMPLE
    image = numpy.full((big, big, 3), BACKGROUND, numpy.uint8)
    unit = big / 100.0 * DRAWN_SHARE
    margin = big * (1 - DRAWN_SHARE) / 2

    def point(x: float, y: float) -> tuple[int, int]:
        return round(margin + x * unit), round(margin + y * unit)

    def length(x: float, y: float) -> tuple[int, int]:
        return round(x * unit), round(y * unit)

    # A head, and two horns that leave its top corners outwards and curve up to a point.
    cv2.ellipse(image, point(50, 60), length(14, 18), 0, 0, 360, HORN, -1, cv2.LINE_AA)
    for side in (-1, 1):
        cv2.fillPoly(image, [_horn(side, unit, margin)], HORN, cv2.LINE_AA)
    # A ring tossed over the right horn's tip, seen a little from above.
    cv2.ellipse(image, point(80, 27), length(10, 4), -8, 0, 360, RING, max(1, round(3 * unit)), cv2.LINE_AA)
    small = cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".png", small)
    if not ok:  # pragma: no cover - OpenCV encodes any 8-bit image
        raise RuntimeError("the icon could not be encoded")
    return encoded.tobytes()


def _horn(side: int, unit: float, margin: float) -> numpy.ndarray:
    """One horn as a polygon: a curve leaving the head's corner sideways and bending up to a point,
    tapering from 10 to 1 (a quadratic Bézier, offset either side along its normal)."""
    base = numpy.array([50 + side * 9, 50.0])
    bend = numpy.array([50 + side * 34, 50.0])
    tip = numpy.array([50 + side * 30, 20.0])
    left, right = [], []
    for along in numpy.linspace(0.0, 1.0, 25):
        point = (1 - along) ** 2 * base + 2 * along * (1 - along) * bend + along**2 * tip
        tangent = 2 * (1 - along) * (bend - base) + 2 * along * (tip - bend)
        normal = numpy.array([-tangent[1], tangent[0]]) / numpy.hypot(*tangent)
        half = (10 - 9 * along) / 2
        left.append(point + normal * half)
        right.append(point - normal * half)
    outline = margin + numpy.array([*left, *reversed(right)]) * unit
    return numpy.round(outline).astype(numpy.int32)


@bp.get("/icon-<int:size>.png")
def icon(size: int) -> Response:
    if size not in ICON_SIZES:
        abort(404)
    response = Response(icon_png(size), mimetype="image/png")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = jsonify(
        name=_("Minotaur Companion"),
        short_name=_("Minotaur"),
        description=_("The live scoreboard of the game table"),
        start_url=url_for("pages.table_page"),
        scope="/",
        display="standalone",
        background_color="#7a2428",
        theme_color="#7a2428",
        icons=[
            {
                "src": url_for("webapp.icon", size=size),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": purpose,
            }
            for size in ICON_SIZES
            for purpose in ("any", "maskable")
        ],
    )
    response.mimetype = "application/manifest+json"
    return response
