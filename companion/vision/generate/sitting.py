"""A session's sitting: what stays put while it is recorded (table, camera and lens, lamp, edition,
how the marker sheets were laid), chosen at random as homes and clubs have them.

The camera is set up the way the setup guide asks (docs/camera.md): looking down at the play area,
tilted up to 30° at most, turned a little, as high as it takes for the play area and its marker
sheets to fill much of the frame, and no higher than the setup view accepts for the game's print.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy

from companion.vision.base import Layout
from companion.vision.components import COARSEST_MM_PER_PX
from companion.vision.generate import GeneratorError, lighting, marker_sheets, renderer_for, tables, world

Rng = numpy.random.Generator


@dataclasses.dataclass(frozen=True)
class Setup:
    """What is fixed for a session."""

    game: str
    table: tables.TableLook
    lens: str
    camera: world.Camera
    light: lighting.Lighting
    edition: str
    placement: str

    def as_recording(self) -> dict[str, Any]:
        """The recording's "setup" (docs/vision-recordings.md)."""
        return {
            "table": self.table.kind,
            "camera_height_mm": round(self.camera.height_mm, 1),
            "camera_tilt_deg": round(self.camera.tilt_deg, 2),
            "edition": self.edition,
            "placement": self.placement,
            "lens": self.lens,
        }


def choose_camera(
    plane_mm: tuple[float, float],
    rng: Rng,
    *,
    hard: bool,
    lens: str | None = None,
    coarsest_mm_per_px: float | None = None,
) -> tuple[str, world.Camera]:
    """A camera set up over the play area: tilted up to 30° (hard) from straight down, turned a little,
    as high as it takes for the area and its marker sheets to fill 55-90 % of the frame, and, given
    `coarsest_mm_per_px`, seeing the area no coarser than that (a setup the setup view would refuse as
    too far is set up again, as the player it tells so does)."""
    chosen_lens = lens if lens is not None else ("wide" if rng.random() < 0.25 else "standard")
    if chosen_lens not in world.LENSES:
        raise GeneratorError(f"no lens {chosen_lens!r} (known: {', '.join(world.LENSES)})")
    _, k1_range, k2_range = world.LENSES[chosen_lens]
    width, height = plane_mm
    margin = marker_sheets.SHEET_MARGIN_MM + 2.0
    outline = numpy.array(
        [
            [-margin, -margin],
            [width + margin, -margin],
            [width + margin, height + margin],
            [-margin, height + margin],
        ]
    )
    for _attempt in range(200):
        tilt = rng.uniform(0, 30) if hard else rng.uniform(0, 18)
        towards = rng.uniform(0, 360)
        yaw = rng.uniform(-12, 12) if hard else rng.uniform(-5, 5)
        target = (
            width / 2 + rng.uniform(-0.05, 0.05) * width,
            height / 2 + rng.uniform(-0.05, 0.05) * height,
        )
        k1, k2 = rng.uniform(*k1_range), rng.uniform(*k2_range)
        fill = rng.uniform(0.55, 0.9) if hard else rng.uniform(0.62, 0.86)

        def at(
            height_mm: float,
            tilt: float = tilt,
            towards: float = towards,
            yaw: float = yaw,
            target: tuple[float, float] = target,
            k1: float = k1,
            k2: float = k2,
        ) -> world.Camera:
            return world.look_at(target, height_mm, tilt, towards, yaw, chosen_lens, k1, k2)

        low, high = 100.0, 5000.0
        for _step in range(40):  # the span shrinks as the camera rises: bisect for the wanted fill
            middle = (low + high) / 2
            _, span = world.fits(at(middle), outline)
            low, high = (middle, high) if span > fill else (low, middle)
        camera = at(high)
        inside, _ = world.fits(camera, outline)
        too_coarse = (
            coarsest_mm_per_px is not None and world.coarsest_mm_per_px(camera, plane_mm) > coarsest_mm_per_px
        )
        if inside and not too_coarse:
            return chosen_lens, camera
    raise GeneratorError(
        f"no camera pose keeps a {width:g} x {height:g} mm play area in the frame"
    )  # pragma: no cover


def choose_setup(
    game: str,
    layout: Layout,
    rng: Rng,
    *,
    hard: bool,
    table: str | None,
    edition: str,
    placement: str | None,
    lens: str | None,
) -> Setup:
    renderer = renderer_for(game)
    if edition not in renderer.editions:
        raise GeneratorError(
            f"the {game} renderer knows no edition {edition!r} (known: {', '.join(renderer.editions)})"
        )
    kind = table if table is not None else tables.TABLE_KINDS[int(rng.integers(len(tables.TABLE_KINDS)))]
    look = tables.choose_table(kind, rng)
    chosen_lens, camera = choose_camera(
        layout.plane_mm, rng, hard=hard, lens=lens, coarsest_mm_per_px=COARSEST_MM_PER_PX.get(game)
    )
    centre = (layout.plane_mm[0] / 2, layout.plane_mm[1] / 2)
    light = lighting.choose_lighting(centre, max(layout.plane_mm), rng, hard)
    laid = placement if placement is not None else ("cut-edge" if rng.random() < 0.3 else "square-edge")
    if laid not in marker_sheets.PLACEMENTS:
        raise GeneratorError(f"no marker placement {laid!r} (known: {', '.join(marker_sheets.PLACEMENTS)})")
    return Setup(game, look, chosen_lens, camera, light, edition, laid)
