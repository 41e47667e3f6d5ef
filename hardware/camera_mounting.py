"""The camera's mounting figures per game, and docs/camera-mounting.svg: how high, how tilted, what it sees.

For each game's play area (its layout's plane, plus a margin all round) and each lens of the Raspberry
Pi Camera Module 3, the lowest camera that sees the whole area looking straight down (0 degrees) and
tilted 20 degrees towards the far side, and the millimetres of table per pixel of a 1280x720 frame
there (the coarsest point: the far edge when tilted). A pinhole camera over a flat table: the wide lens
bends straight lines (barrel distortion), which this ignores; its figures are a little optimistic at
the frame's edges.

Run `.venv/bin/python hardware/camera_mounting.py` to print the table of docs/camera.md and redraw the
SVG; a test checks that the committed SVG is what this script draws, and the geometry itself.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from html import escape
from pathlib import Path

HERE = Path(__file__).resolve().parent
DRAWING = HERE.parent / "docs" / "camera-mounting.svg"

LENSES = {"standard": (66.0, 41.0), "wide": (102.0, 67.0)}
"""Camera Module 3 fields of view (horizontal, vertical) in degrees, across its full 16:9 sensor, which
the 1280x720 mode bins whole."""
FRAME_PX = (1280, 720)
TILTS_DEG = (0.0, 20.0)
MARGIN_MM = 40.0
"""Table around the play area that should show too: the white strips outside the corner markers, and
room for the lens's worst corners and for the camera being set up a little off."""
PLANE_MM_PER_PX = 0.5
"""The recognisers read a top-down plane at 2 pixels per mm: a camera pixel this small or smaller gives
the plane real detail; a coarser one is stretched to it."""


@dataclasses.dataclass(frozen=True)
class Mounting:
    """The lowest camera that sees the area, pitched `tilt_deg` from straight down towards the far side,
    the area's long side along the frame's width."""

    height_mm: float
    near_edge_mm: float
    """Where the area's near edge lies from the point right below the camera (negative: behind it)."""
    mm_per_px: float
    """Table mm per frame pixel at the coarsest point (the far edge; everywhere when at 0 degrees)."""


def mounting(area_mm: tuple[float, float], lens: tuple[float, float], tilt_deg: float) -> Mounting:
    """The lowest mounting for an area (width across the frame, depth along it) seen through `lens`."""
    width, depth = area_mm
    half_h, half_v = (math.radians(a) / 2 for a in lens)
    tilt = math.radians(tilt_deg)
    near, far = tilt - half_v, tilt + half_v
    # The frame's footprint on the table is a trapezoid, widening away from the camera. With the area's
    # near edge seen at ray angle a (from straight down), its depth must fit before the far ray and its
    # width across the near edge: the lowest camera is the least, over a, of the height both need.
    steps = 4000
    best: tuple[float, float] | None = None
    for k in range(steps):
        a = near + (far - near) * k / steps
        for_depth = depth / (math.tan(far) - math.tan(a))
        # A ray half_h off the frame's middle column reaches this far out, per mm of height, at angle a.
        across = math.cos(a - tilt) / math.cos(a) * math.tan(half_h)
        needed = max(for_depth, width / 2 / across)
        if best is None or needed < best[0]:
            best = (needed, a)
    assert best is not None
    height, near_ray = best
    near_edge = height * math.tan(near_ray)
    # Focal lengths in pixels, across and along the frame (the stated fields of view are rounded).
    focal_across = FRAME_PX[0] / 2 / math.tan(half_h)
    focal_along = FRAME_PX[1] / 2 / math.tan(half_v)
    # At the area's far edge, beta off the axis: table mm per pixel along the depth, and across it.
    far_edge = math.atan2(near_edge + depth, height)
    beta = far_edge - tilt
    along = height * math.cos(beta) ** 2 / math.cos(far_edge) ** 2 / focal_along
    across = height * math.cos(beta) / math.cos(far_edge) / focal_across
    return Mounting(height, near_edge, max(along, across))


def play_areas() -> dict[str, tuple[float, float]]:
    """Each game's play area (mm), from its recogniser's layout with default options."""
    sys.path.insert(0, str(HERE.parent))
    from companion.vision.base import recogniser_for, registered_games

    areas = {}
    for game in registered_games():
        width, depth = recogniser_for(game).layout({}).plane_mm
        areas[game] = (max(width, depth), min(width, depth))
    return areas


def table(areas: dict[str, tuple[float, float]]) -> str:
    """The figures as the Markdown table of docs/camera.md."""
    rows = [
        "| game | play area (mm) | lens | height at 0° (mm) | mm/px at 0° | height at 20° (mm) "
        "| mm/px at 20° (far edge) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for game, (width, depth) in sorted(areas.items()):
        seen = (width + 2 * MARGIN_MM, depth + 2 * MARGIN_MM)
        for lens_name, lens in LENSES.items():
            flat, tilted = (mounting(seen, lens, tilt) for tilt in TILTS_DEG)
            rows.append(
                f"| {game} | {width:.0f} x {depth:.0f} | {lens_name} | {flat.height_mm:.0f} | "
                f"{flat.mm_per_px:.2f} | {tilted.height_mm:.0f} | {tilted.mm_per_px:.2f} |"
            )
    return "\n".join(rows)


# ---------------------------------------------------------------- the drawing


def _line(x1: float, y1: float, x2: float, y2: float, style: str) -> str:
    return f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' {style}/>"


def _text(
    x: float, y: float, words: str, anchor: str = "start", size: int = 13, weight: str = "normal"
) -> str:
    return (
        f"<text x='{x:.1f}' y='{y:.1f}' font-family='DejaVu Sans, Arial, sans-serif' font-size='{size}' "
        f"text-anchor='{anchor}' font-weight='{weight}'>{escape(words)}</text>"
    )


def _side_view(
    left: float,
    ground: float,
    scale: float,
    title: str,
    area_depth: float,
    lens: tuple[float, float],
    tilt_deg: float,
) -> list[str]:
    """One side view (depth to the right, height up; `scale` px per mm, the table at y `ground`): table,
    play area, camera and its field of view."""
    seen = area_depth + 2 * MARGIN_MM
    # The width condition is left out here: the side view shows the depth (the game's is in the table).
    mount = mounting((0.0, seen), lens, tilt_deg)
    camera_x = left + 60 + max(0.0, -mount.near_edge_mm) * scale
    camera_y = ground - mount.height_mm * scale
    area_x0 = camera_x + (mount.near_edge_mm + MARGIN_MM) * scale
    area_x1 = area_x0 + area_depth * scale
    tilt = math.radians(tilt_deg)
    half_v = math.radians(lens[1]) / 2
    out = [_text(left, 62, title, size=14, weight="bold")]
    out.append(_line(left, ground, left + 420, ground, "stroke='#6b4f2a' stroke-width='4'"))
    out.append(
        f"<rect x='{area_x0:.1f}' y='{ground - 5:.1f}' width='{area_x1 - area_x0:.1f}' height='5' "
        "fill='#3a7d44'/>"
    )
    # The field of view: the two edge rays and the optical axis, down to the table.
    rays = []
    for angle in (tilt - half_v, tilt + half_v):
        rays.append((camera_x + math.tan(angle) * mount.height_mm * scale, ground))
    out.append(
        f"<polygon points='{camera_x:.1f},{camera_y:.1f} {rays[0][0]:.1f},{ground:.1f} "
        f"{rays[1][0]:.1f},{ground:.1f}' "
        "fill='#f2c14e' fill-opacity='0.35' stroke='#c9971c'/>"
    )
    axis_x = camera_x + math.tan(tilt) * mount.height_mm * scale
    out.append(_line(camera_x, camera_y, axis_x, ground, "stroke='#555' stroke-dasharray='5 4'"))
    out.append(
        f"<rect x='{camera_x - 9:.1f}' y='{camera_y - 14:.1f}' width='18' height='14' rx='2' fill='#222'/>"
    )
    # The height, beside the camera's post.
    post_x = camera_x - 24
    out.append(
        _line(
            post_x, camera_y, post_x, ground, "stroke='#333' marker-start='url(#tip)' marker-end='url(#tip)'"
        )
    )
    out.append(_text(post_x - 6, (camera_y + ground) / 2, f"{mount.height_mm:.0f} mm", "end"))
    out.append(
        _text(camera_x + 14, camera_y - 4, f"tilt {tilt_deg:.0f}°, field {lens[1]:.0f}° along the depth")
    )
    out.append(
        _text(
            (area_x0 + area_x1) / 2,
            ground + 22,
            f"play area {area_depth:.0f} mm (+{MARGIN_MM:.0f} mm each side)",
            "middle",
            12,
        )
    )
    return out


def drawing(areas: dict[str, tuple[float, float]]) -> str:
    """Side views of the largest play area's depth with the standard lens, straight down and tilted."""
    game = max(areas, key=lambda g: areas[g][1])
    depth = areas[game][1]
    lens = LENSES["standard"]
    width, height = 920, 490
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' "
        f"viewBox='0 0 {width} {height}'>",
        "<defs><marker id='tip' viewBox='0 0 10 10' refX='5' refY='5' markerWidth='6' markerHeight='6' "
        "orient='auto-start-reverse'>"
        "<path d='M 0 0 L 10 5 L 0 10 z' fill='#333'/></marker></defs>",
        f"<rect width='{width}' height='{height}' fill='white'/>",
        _text(
            20,
            28,
            f"Mounting the camera over the {game} play area (its deepest), Camera Module 3, standard lens",
            size=16,
            weight="bold",
        ),
    ]
    # Both views to one scale: the highest camera 320 px above the table.
    highest = max(mounting((0.0, depth + 2 * MARGIN_MM), lens, tilt).height_mm for tilt in TILTS_DEG)
    scale, ground = 320 / highest, 420.0
    for n, tilt in enumerate(TILTS_DEG):
        title = "straight down (0°)" if tilt == 0 else f"tilted {tilt:.0f}° towards the far side"
        out += _side_view(20 + n * 450, ground, scale, f"Side view, {title}", depth, lens, tilt)
    out.append(
        _text(
            20,
            height - 14,
            "Lowest heights for the depth shown; the table in docs/camera.md adds the width "
            "(the frame's 66° across) for every game and both lenses.",
            size=12,
        )
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    areas = play_areas()
    print(table(areas))
    DRAWING.write_text(drawing(areas), encoding="utf-8")
    print(f"Wrote {DRAWING}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
