"""Sessions: one camera, fixed, over one table, lit by one lamp, for a recording's every frame.

A session's sitting (sitting.py) fixes table, camera, lamp and edition; its `World` holds what that
makes stay put: the table texture with the board and the marker sheets on it, the camera's rays
onto the table, the lamp's and the daylight's light on it. Each frame then draws the game's pieces
onto the table (the scene renderer, in the session's edition), looks through the lens, lights the
picture (shadows of what stands above the table, glare on a glossy top), paints the solids (an arm
reaching in) and hands the light to the sensor (effects.sensor).

`generate_session` writes one such recording, starting with frames of the empty play area (the
reference a reader learns the table from); `generate_hard_set` writes sessions over every table
kind and both ways of laying the marker sheets.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy

from companion.vision.base import PLANE_PX_PER_MM, Frame, Layout, recogniser_for
from companion.vision.components import piece_height_mm
from companion.vision.generate import (
    FRAME_INTERVAL_S,
    HAND_SHARE,
    MOTION_SHARE,
    GeneratorError,
    SceneRenderer,
    effects,
    hands,
    lighting,
    marker_sheets,
    renderer_for,
    tables,
    world,
)
from companion.vision.generate.sitting import Setup, choose_setup
from companion.vision.generate.solids import Solid

Rng = numpy.random.Generator

EMPTY_LABEL = {"toss": "clear"}
"""What a game's items read on the empty play area (every other game: "empty")."""
REACH_MM = 600.0
"""How far the table reaches beyond the play area on every side (a table of about 1.5 x 1.2 m for a
game in its middle); a camera that sees further sees its edge."""
WALL_BGR = (70, 75, 80)
"""What lies beyond the table's edge: the floor far below, dim."""
HEAD_SHARE = 0.25
"""Share of hard frames where a player leaning in (out of view) shades part of the table."""
LAYER_MM = 2.0
"""Pieces are drawn as stacked slices at most this far apart: their sides, then their tops."""
SIDE_SHADE = 0.62
"""A piece's sides stand upright, lit more from the side than its top: darker."""


class World:
    """A session's fixed world (see the module's text); `frame` draws one moment of it."""

    def __init__(self, setup: Setup, layout: Layout, rng: Rng) -> None:
        self.setup = setup
        self.layout = layout
        self.renderer: SceneRenderer = renderer_for(setup.game)
        self.sheets = marker_sheets.place_sheets(layout.plane_mm, setup.placement, rng)
        ground_x, ground_y = setup.camera.ground_points()
        width, height = layout.plane_mm
        seen_x = numpy.clip(numpy.nan_to_num(ground_x, nan=width / 2), -REACH_MM, width + REACH_MM)
        seen_y = numpy.clip(numpy.nan_to_num(ground_y, nan=height / 2), -REACH_MM, height + REACH_MM)
        # Whole millimetres, so that the plane's pixels fall on the texture's pixels.
        self.origin_mm = (math.floor(float(seen_x.min())) - 2.0, math.floor(float(seen_y.min())) - 2.0)
        ppm = PLANE_PX_PER_MM
        size = (
            math.ceil((float(seen_x.max()) - self.origin_mm[0]) * ppm) + 4,
            math.ceil((float(seen_y.max()) - self.origin_mm[1]) * ppm) + 4,
        )
        self.table = tables.draw_table(setup.table, self.origin_mm, size, ppm)
        self.map_x, self.map_y = world.ground_maps(setup.camera, self.origin_mm, ppm)
        self.lamp, self.daylight, glare = lighting.ground_light(setup.light, setup.camera, ground_x, ground_y)
        self.glare = (glare * setup.table.gloss * 255.0)[..., None] * setup.light.lamp_bgr.astype(
            numpy.float32
        )
        plane_w, plane_h = layout.plane_size_px()
        x0, y0 = round(-self.origin_mm[0] * ppm), round(-self.origin_mm[1] * ppm)
        self.plane_box = (slice(y0, y0 + plane_h), slice(x0, x0 + plane_w))
        # The board or tray (what render_on draws for an empty area) lies under the marker sheets,
        # and the pieces on top of both: the sheets go on once, between the two.
        self.bare_plane = numpy.ascontiguousarray(self.table[self.plane_box])
        self.empty_plane: Frame | None = None
        if self.renderer.render_on is not None:
            self.empty_plane = self.renderer.render_on(
                empty_labels(setup.game, layout),
                layout,
                numpy.random.default_rng(0),
                background=self.bare_plane,
                edition=setup.edition,
            )
            self.table[self.plane_box] = self.empty_plane
            marker_sheets.draw_sheets(self.table, self.origin_mm, ppm, self.sheets)
        # Pieces stand a little above the table: slices of them at rising heights, seen through
        # the same lens, show their sides and put their tops where the pinhole sees them.
        height = piece_height_mm(setup.game) if self.empty_plane is not None else 0.0
        slices = math.ceil(height / LAYER_MM)
        self.slices: list[tuple[float, world.FloatImage, world.FloatImage]] = []
        for z in numpy.linspace(0.0, height, slices + 1)[1:]:
            map_x, map_y = world.ground_maps(setup.camera, (0.0, 0.0), ppm, float(z))
            self.slices.append((SIDE_SHADE if z < height else 1.0, map_x, map_y))

    def frame(
        self,
        labels: Mapping[str, str],
        rng: Rng,
        *,
        hand: bool,
        gains: tuple[float, float],
        hard: bool,
        hand_tone: str | None = None,
    ) -> tuple[numpy.typing.NDArray[numpy.float32], list[Solid]]:
        """The light reaching the sensor (float BGR, 0-255 scale) for one frame, and its solids
        (`hand_tone`: the arm's skin, hands.SKIN_TONES_BGR; random if None)."""
        ground = self.table.copy()
        renderer = self.renderer
        standing: tuple[Frame, numpy.typing.NDArray[numpy.bool_]] | None = None
        if renderer.render_on is not None and self.empty_plane is not None:
            plane = renderer.render_on(
                labels, self.layout, rng, background=self.bare_plane, edition=self.setup.edition
            )
            # What differs from the empty area is the pieces (and their shadows): laid over the sheets.
            pieces = numpy.any(plane != self.empty_plane, axis=2)
            ground[self.plane_box][pieces] = plane[pieces]
            if self.slices:
                solid = pieces & ~_shadow_only(plane, self.empty_plane)
                # The foot of a piece's sides, where it stands on the table.
                ground[self.plane_box][solid] = (plane[solid] * SIDE_SHADE).astype(numpy.uint8)
                standing = (plane, solid)
        else:
            ground[self.plane_box] = renderer.render_plane(labels, self.layout, rng)
            marker_sheets.draw_sheets(ground, self.origin_mm, PLANE_PX_PER_MM, self.sheets)
        albedo = numpy.asarray(
            cv2.remap(
                ground,
                self.map_x,
                self.map_y,
                cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_CONSTANT,
                borderValue=WALL_BGR,
            ),
            numpy.uint8,
        )
        if standing is not None:
            albedo = self._stand_pieces(albedo, *standing)
        solids = list(renderer.solids(labels, self.layout, rng)) if renderer.solids is not None else []
        if hand:
            solids += hands.arm(self.layout.plane_mm, rng, hand_tone)[0]
        shading = list(solids)
        if hard and rng.random() < HEAD_SHARE:
            shading.append(_player_head(self.layout.plane_mm, rng))
        lamp_gain, day_gain = gains
        shadow = lighting.shadow_mask(self.setup.light, self.setup.camera, shading) if shading else None
        lamp = self.lamp * lamp_gain if shadow is None else self.lamp * (lamp_gain * shadow)[..., None]
        glare = self.glare * lamp_gain if shadow is None else self.glare * (lamp_gain * shadow)[..., None]
        light = albedo.astype(numpy.float32) / 255.0 * (lamp + self.daylight * day_gain) * 255.0 + glare
        if solids:
            light_now = dataclasses.replace(
                self.setup.light,
                lamp_bgr=self.setup.light.lamp_bgr * lamp_gain,
                daylight_bgr=self.setup.light.daylight_bgr * day_gain,
            )
            world.draw_solids(light, self.setup.camera, solids, light_now.shade_face)
        return light, solids

    def _stand_pieces(self, albedo: Frame, plane: Frame, pieces: numpy.typing.NDArray[numpy.bool_]) -> Frame:
        """The frame with the pieces' slices (`pieces`: where the plane shows them) painted over it,
        lowest first."""
        out = albedo.astype(numpy.float32)
        cover = pieces.astype(numpy.float32)
        for shade, map_x, map_y in self.slices:
            seen = cv2.remap(
                cover, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
            )
            if not seen.any():
                continue
            colour = cv2.remap(plane, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
            alpha = numpy.asarray(seen, numpy.float32)[..., None]
            out = out * (1 - alpha) + colour.astype(numpy.float32) * shade * alpha
        return numpy.clip(out, 0, 255).astype(numpy.uint8)


def _shadow_only(plane: Frame, empty: Frame) -> numpy.typing.NDArray[numpy.bool_]:
    """Where the plane is the empty area only darkened, every channel alike: a piece's shadow on the
    table, which stays on the table when the piece is stood up."""
    ratio = (plane.astype(numpy.float32) + 1.0) / (empty.astype(numpy.float32) + 1.0)
    # Rounding to whole grey levels spreads the channels' ratios on a dark cloth: a loose bound.
    return numpy.asarray((numpy.ptp(ratio, axis=2) < 0.15) & (ratio.max(axis=2) < 1.02), numpy.bool_)


def _player_head(plane_mm: tuple[float, float], rng: Rng) -> Solid:
    """A player's head and shoulders leaning in at the table's edge, above the camera's view."""
    width, height = plane_mm
    side = int(rng.integers(4))
    along = rng.uniform(0.2, 0.8)
    beyond = rng.uniform(60, 200)
    x, y = [
        (along * width, -beyond),
        (width + beyond, along * height),
        (along * width, height + beyond),
        (-beyond, along * height),
    ][side]
    return hands.box(
        numpy.array([x, y, rng.uniform(300, 450)]), numpy.diag([110.0, 110.0, 120.0]), (60, 60, 60), "head"
    )


def empty_labels(game: str, layout: Layout) -> dict[str, str]:
    return dict.fromkeys(layout.items, EMPTY_LABEL.get(game, "empty"))


def generate_session(
    game: str,
    out_dir: str | Path,
    frames: int,
    *,
    hard: bool = False,
    seed: int = 0,
    table: str | None = None,
    edition: str = "default",
    options: Mapping[str, Any] | None = None,
    placement: str | None = None,
    lens: str | None = None,
) -> Path:
    """Write one session (1-3 reference frames of the empty area, then `frames` play frames with
    random labels, hands on some, motion on a few); returns its recording.json."""
    from companion.vision.recording import RecordingWriter

    if frames < 1:
        raise GeneratorError(f"a session needs at least one play frame, not {frames}")
    renderer = renderer_for(game)
    chosen_options = dict(renderer.default_options) if options is None else dict(options)
    if game == "toss":
        # The figure stands at its height and the rings lie where physics left them: the toss draws
        # its own three-dimensional world (toss.py); only the session around it is written alike.
        from companion.vision.generate.toss_sessions import write_toss_session

        return write_toss_session(out_dir, frames, hard=hard, seed=seed, table=table, options=chosen_options)
    layout = recogniser_for(game).layout(chosen_options)
    rng = numpy.random.default_rng(seed)
    setup = choose_setup(
        game, layout, rng, hard=hard, table=table, edition=edition, placement=placement, lens=lens
    )
    scene = World(setup, layout, rng)
    references = int(rng.integers(1, 4))
    gains = lighting.drift(references + frames, rng, hard)
    settings = {"generator": {"seed": seed, "hard": hard, "frames": frames, "world": True}}
    with RecordingWriter(
        out_dir, game=game, options=chosen_options, extra=settings, setup=setup.as_recording()
    ) as writer:
        for n in range(references + frames):
            reference = n < references
            labels = empty_labels(game, layout) if reference else renderer.sample_labels(layout, rng, hard)
            with_hand = not reference and bool(rng.random() < HAND_SHARE[True])
            with_motion = not reference and bool(rng.random() < MOTION_SHARE[hard])
            light, _ = scene.frame(
                labels, rng, hand=with_hand, gains=(float(gains[n, 0]), float(gains[n, 1])), hard=hard
            )
            jpeg = effects.sensor(light, rng, hard=hard, motion=with_motion)
            writer.add(
                effects.decode_jpeg(jpeg),
                n * FRAME_INTERVAL_S,
                labels,
                hand=with_hand,
                motion=with_motion,
                encoded=jpeg,
                reference=reference,
            )
    return Path(out_dir) / "recording.json"


def generate_hard_set(
    game: str,
    out_root: str | Path,
    sessions: int = 14,
    frames_per_session: int = 20,
    seed: int = 0,
    editions: Sequence[str] | None = None,
) -> list[Path]:
    """`sessions` hard sessions, session i on table kind i (cycling through every kind), the marker
    sheets laid by the cut edge in every other one, the editions taken in turn; their recordings."""
    if sessions < 1:
        raise GeneratorError(f"a hard set needs at least one session, not {sessions}")
    chosen = tuple(editions) if editions else ("default",)
    paths = []
    for n in range(sessions):
        kind, placement = hard_set_plan(n)
        edition = chosen[n % len(chosen)]
        folder = Path(out_root) / f"{game}-{n:02d}-{kind}-{placement}-{edition}"
        paths.append(
            generate_session(
                game,
                folder,
                frames_per_session,
                hard=True,
                seed=seed * 1000 + n,
                table=kind,
                edition=edition,
                placement=placement,
            )
        )
    return paths


def hard_set_plan(session: int) -> tuple[str, str]:
    """The table kind and marker placement of a hard set's session: the kinds in turn, and the
    placements swapping on every round through them, so fourteen sessions meet every pair."""
    kinds = tables.TABLE_KINDS
    kind = kinds[session % len(kinds)]
    placement = marker_sheets.PLACEMENTS[(session % len(kinds) + session // len(kinds)) % 2]
    return kind, placement
