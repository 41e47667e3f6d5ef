"""`companion bench vision`: the evaluation on freshly generated hard sets, for every game the camera reads.

Each game gets its own recording (the generator's `--hard` camera: perspective, lens, light, shadows,
glare, noise, blur, JPEG, hands) in a scratch folder, read through the whole pipeline on one core.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from companion.vision.base import registered_games
from companion.vision.evaluate import GOALS, evaluate


def bench_vision(games: list[str] | None, frames: int, seed: int, hard: bool = True) -> dict[str, Any]:
    from companion.vision.generate import generate_recording

    chosen = games or registered_games()
    results = []
    with tempfile.TemporaryDirectory(prefix="vision-bench-") as scratch:
        for game in chosen:
            started = time.perf_counter()
            folder = Path(scratch) / game
            generate_recording(game, folder, frames=frames, hard=hard, seed=seed)
            generated = time.perf_counter() - started
            report = evaluate(folder)
            results.append(
                {
                    "game": game,
                    "frames": report["frames"],
                    "frames_read": report["frames_read"],
                    "skipped": report["skipped"],
                    "items": report["items"],
                    "item_accuracy": report["item_accuracy"],
                    "frames_entirely_right": report["frames_entirely_right"],
                    "ms_per_frame": report["ms_per_frame"],
                    "cpu_ms_per_frame": report["cpu_ms_per_frame"],
                    "ms_per_stage": report["ms_per_stage"],
                    "frames_markers_not_found": report["frames_markers_not_found"],
                    "confusions": report["confusions"][:5],
                    "meets_goals": report["meets_goals"],
                    "generate_seconds": round(generated, 1),
                }
            )
    return {"hard": hard, "frames": frames, "seed": seed, "goals": GOALS, "results": results}
