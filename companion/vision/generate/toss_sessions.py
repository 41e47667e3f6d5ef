"""Toss sessions as recordings: one sitting (table, figure, camera, lamp) with the empty figure first.

The generator's session writer (session.py) hands the toss over here: its world is toss.py's own
three-dimensional one (the figure at its height, rings where the simulator left them), and the
recording is written alike: 1-3 reference frames of the figure without rings, then play frames with
random rings, an arm over the figure on some, motion on a few.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy

from companion.vision.generate import FRAME_INTERVAL_S, HAND_SHARE, MOTION_SHARE, GeneratorError
from companion.vision.generate._toss_rings import choose_rings
from companion.vision.generate.toss import sample_labels, toss_layout, toss_session


def write_toss_session(
    out_dir: str | Path,
    frames: int,
    *,
    hard: bool = False,
    seed: int = 0,
    table: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Path:
    """Write one toss session of `frames` play frames; returns its recording.json."""
    from companion.vision.recording import RecordingWriter

    if frames < 1:
        raise GeneratorError(f"a session needs at least one play frame, not {frames}")
    chosen_options = dict(options or {})
    layout = toss_layout(chosen_options)
    rng = numpy.random.default_rng(seed)
    session = toss_session(layout, rng, hard=hard, table=table)
    references = int(rng.integers(1, 4))
    settings = {"generator": {"seed": seed, "hard": hard, "frames": frames, "world": True}}
    with RecordingWriter(
        out_dir, game="toss", options=chosen_options, extra=settings, setup=session.setup
    ) as writer:
        for n in range(references + frames):
            reference = n < references
            rings = (
                [] if reference else choose_rings(sample_labels(layout, rng, hard), rng, session.pool, hard)
            )
            with_hand = not reference and bool(rng.random() < HAND_SHARE[True])
            with_motion = not reference and bool(rng.random() < MOTION_SHARE[hard])
            shot = session.shot(rings, rng, hand=with_hand, motion=with_motion)
            writer.add(
                shot.image,
                n * FRAME_INTERVAL_S,
                shot.labels,
                hand=with_hand,
                motion=with_motion,
                encoded=shot.jpeg,
                reference=reference,
            )
    return Path(out_dir) / "recording.json"
