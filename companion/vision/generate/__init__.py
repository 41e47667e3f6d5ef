"""The frame generator: realistic camera frames of a game's table, with ground truth.

Each game's scene renderer (companion/vision/generate/<game>.py) draws the
top-down *plane* for given labels and registers itself here by game name
with `register_renderer`. The core then puts the four ArUco markers at the
plane's corners, lays it on a table, looks at it through a random camera
(perspective, lens distortion; camera.py) and spoils the picture the way a
real one is spoilt (uneven light, shadows, glare, a hand, blur, sensor noise,
JPEG; effects.py). `generate_recording` writes the frames in the recording
format (docs/vision-recordings.md) with the labels as ground truth.

    python -c "from companion.vision.generate import generate_recording; \
        generate_recording('minotaurus', 'out', frames=200, hard=True, seed=1)"

is what `companion vision generate minotaurus out --frames 200 --hard --seed 1` does.

`generate_session` and `generate_hard_set` draw the *world* instead (session.py, world.py,
tables.py, lighting.py, hands.py, marker_sheets.py; docs/vision-generator.md): a fixed pinhole
camera with pose and lens over a procedural table, the game's items in one of its editions, marker
sheets laid either way, a lamp with shadows and glare, arms in 3-D; each recording one session
that starts with reference frames of the empty play area.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy

from companion.vision.base import Frame, Layout, VisionError, recogniser_for

if TYPE_CHECKING:
    from companion.vision.generate.solids import Solid

Rng = numpy.random.Generator

RenderPlane = Callable[[Mapping[str, str], Layout, Rng], Frame]
"""Draws the top-down plane (layout.plane_size_px(), BGR) showing the labels; markers are the core's."""


class RenderOn(Protocol):
    """Draws the labels' items (and the game's board or tray, if it has one) over `background`, the
    table under the plane (layout.plane_size_px(), BGR), in the look of the named edition."""

    def __call__(
        self, labels: Mapping[str, str], layout: Layout, rng: Rng, *, background: Frame, edition: str
    ) -> Frame: ...


SolidsFor = Callable[[Mapping[str, str], Layout, Rng], "list[Solid]"]
"""The solid things the labels stand on the table (world mm, solids.py), for the world renderer."""

SampleLabels = Callable[[Layout, Rng, bool], dict[str, str]]
"""A random but plausible table for the layout (hard=True: the harder cases more often)."""

FRAME_SIZE = (1280, 720)
FRAME_INTERVAL_S = 0.2
HAND_SHARE = {False: 0.08, True: 0.12}
"""Share of generated frames with a hand over the table (labelled hand=true, to be skipped), by hard."""
MOTION_SHARE = {False: 0.04, True: 0.06}
"""Share of generated frames smeared by motion (labelled motion=true, to be skipped), by hard."""


class GeneratorError(VisionError):
    """The generator cannot make what was asked (unknown game, bad frame count, ...)."""


@dataclasses.dataclass(frozen=True)
class SceneRenderer:
    """One game's scene: how to draw its plane and how to choose a random table for it."""

    game: str
    render_plane: RenderPlane
    sample_labels: SampleLabels
    default_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    render_on: RenderOn | None = None
    """Draws the items on a given table in an edition's look (the world renderer's way); without
    it the world lays `render_plane`'s own table down, in the built-in look."""
    editions: tuple[str, ...] = ("default",)
    """The print runs `render_on` can draw; "default" is the built-in look of `render_plane`."""
    solids: SolidsFor | None = None
    """What stands above the table (the toss's head, horns and rings), drawn in 3-D by the world."""


_RENDERERS: dict[str, SceneRenderer] = {}


def register_renderer(renderer: SceneRenderer) -> None:
    """Make the generator draw `renderer.game` with it (the last registration wins)."""
    _RENDERERS[renderer.game] = renderer


def renderer_for(game: str) -> SceneRenderer:
    """The scene renderer of the game; imports companion.vision.generate.<game> on first use."""
    if game not in _RENDERERS and game.isidentifier():
        module = f"{__name__}.{game}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    if game not in _RENDERERS:
        raise GeneratorError(f"no scene renderer for game {game!r} (known: {', '.join(sorted(_RENDERERS))})")
    return _RENDERERS[game]


def render_plane(game: str, labels: Mapping[str, str], layout: Layout, rng: Rng) -> Frame:
    """The top-down plane of the game showing `labels` (no markers, no camera)."""
    plane = renderer_for(game).render_plane(labels, layout, rng)
    expected = layout.plane_size_px()
    if plane.shape[:2] != (expected[1], expected[0]) or plane.ndim != 3:
        raise GeneratorError(
            f"the {game} renderer drew a plane of shape {plane.shape}, "
            f"not ({expected[1]}, {expected[0]}, 3) as its layout says"
        )
    return plane


@dataclasses.dataclass(frozen=True)
class GeneratedFrame:
    image: Frame
    """The camera frame after every effect, decoded from its JPEG."""
    jpeg: bytes
    labels: dict[str, str]
    hand: bool
    motion: bool


def generate_frame(
    game: str,
    layout: Layout,
    rng: Rng,
    *,
    hard: bool = False,
    labels: Mapping[str, str] | None = None,
    hand: bool | None = None,
    motion: bool | None = None,
) -> GeneratedFrame:
    """One camera frame of the game's table (random labels unless given) with its ground truth."""
    import companion.vision.generate.camera as camera
    import companion.vision.generate.effects as effects

    renderer = renderer_for(game)
    chosen = dict(labels) if labels is not None else renderer.sample_labels(layout, rng, hard)
    plane = render_plane(game, chosen, layout, rng)
    table = camera.lay_on_table(plane, layout, rng)
    pose = camera.random_pose(table, rng, hard=hard, frame_size=FRAME_SIZE)
    image = camera.project(table, pose)
    with_hand = bool(rng.random() < HAND_SHARE[hard]) if hand is None else hand
    with_motion = bool(rng.random() < MOTION_SHARE[hard]) if motion is None else motion
    if with_hand:
        image = effects.hand(image, pose.plane_quad, rng)
    jpeg = effects.spoil(image, rng, hard=hard, motion=with_motion)
    decoded = effects.decode_jpeg(jpeg)
    return GeneratedFrame(decoded, jpeg, chosen, with_hand, with_motion)


def generate_recording(
    game: str,
    out_dir: str | Path,
    frames: int = 100,
    hard: bool = False,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
) -> Path:
    """Write a recording of `frames` generated frames with ground truth; returns its recording.json."""
    from companion.vision.recording import RecordingWriter

    if frames < 1:
        raise GeneratorError(f"a recording needs at least one frame, not {frames}")
    renderer = renderer_for(game)
    chosen_options = dict(renderer.default_options) if options is None else dict(options)
    layout = recogniser_for(game).layout(chosen_options)
    rng = numpy.random.default_rng(seed)
    settings = {"generator": {"seed": seed, "hard": hard, "frames": frames}}
    with RecordingWriter(out_dir, game=game, options=chosen_options, extra=settings) as writer:
        for n in range(frames):
            frame = generate_frame(game, layout, rng, hard=hard)
            writer.add(
                frame.image,
                n * FRAME_INTERVAL_S,
                frame.labels,
                hand=frame.hand,
                motion=frame.motion,
                encoded=frame.jpeg,
            )
    return Path(out_dir) / "recording.json"


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
    """One session's recording seen by a fixed pinhole camera over one table (session.py)."""
    from companion.vision.generate.session import generate_session as generate

    return generate(
        game,
        out_dir,
        frames,
        hard=hard,
        seed=seed,
        table=table,
        edition=edition,
        options=options,
        placement=placement,
        lens=lens,
    )


def generate_hard_set(
    game: str,
    out_root: str | Path,
    sessions: int = 14,
    frames_per_session: int = 20,
    seed: int = 0,
    editions: tuple[str, ...] | None = None,
) -> list[Path]:
    """Sessions over every table kind and both marker placements (session.py); their recordings."""
    from companion.vision.generate.session import generate_hard_set as generate

    return generate(game, out_root, sessions, frames_per_session, seed, editions)
