"""Toss sessions in the session format: the three-dimensional toss scene (toss.py) recorded as a sitting.

The toss draws its own world (the figure's head, collar and horns at their height, rings where the
rigid-body simulator left them, the markers on the collar or on the table): this module only writes
such a sitting as the other games' sessions are written (session.py): the table kind asked for,
1-3 reference frames of the bare figure, then play frames whose truth is the simulator's, an arm
reaching in (in 3-D, casting its shadow) on some, motion on a few.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy

from companion.vision.base import recogniser_for
from companion.vision.generate import FRAME_INTERVAL_S, HAND_SHARE, MOTION_SHARE, effects, hands, tables

GAME = "toss"


def write_toss_session(
    out_dir: str | Path,
    frames: int,
    *,
    hard: bool,
    seed: int,
    table: str | None,
    options: Mapping[str, Any],
) -> Path:
    """Write one toss sitting's recording; returns its recording.json."""
    from companion.vision.generate import toss
    from companion.vision.generate._toss_render import render_view, table_view
    from companion.vision.recording import RecordingWriter

    layout = recogniser_for(GAME).layout(options)
    rng = numpy.random.default_rng(seed)
    sitting = toss.toss_session(layout, rng, hard=hard)
    if table is not None:
        sitting = dataclasses.replace(sitting, table=tables.choose_table(table, rng))
    references = int(rng.integers(1, 4))
    setup = sitting.setup | {"edition": "default"}
    settings = {"generator": {"seed": seed, "hard": hard, "frames": frames, "world": True}}
    with RecordingWriter(out_dir, game=GAME, options=options, extra=settings, setup=setup) as writer:
        backdrop = None
        for n in range(references + frames):
            reference = n < references
            wanted = toss.sample_labels(layout, rng, hard)
            rings = [] if reference else toss.choose_rings(wanted, rng, sitting.pool, hard)
            with_hand = not reference and bool(rng.random() < HAND_SHARE[True])
            with_motion = not reference and bool(rng.random() < MOTION_SHARE[hard])
            view = sitting.view(rings, rng)
            if with_hand:
                view.above.extend(hands.arm(layout.plane_mm, rng)[0])
            if backdrop is None:
                backdrop = table_view(view, sitting.camera)  # the bare table stays put: drawn once
            picture = render_view(view, sitting.camera, sitting.lamp, backdrop)
            jpeg = effects.spoil(picture, rng, hard=hard, motion=with_motion)
            writer.add(
                effects.decode_jpeg(jpeg),
                n * FRAME_INTERVAL_S,
                toss.truth(rings),
                hand=with_hand,
                motion=with_motion,
                encoded=jpeg,
                reference=reference,
            )
    return Path(out_dir) / "recording.json"
