"""The camera's part of `companion run`: options, the watcher, the toss check, and the host pages' services.

`--camera SOURCE` watches the play area (picamera, a webcam number, a video
or a recording, played at its own pace); `--toss-camera SOURCE` watches the
horn figure and checks every verdict of the beams. Both are off by default,
and neither is needed: without them the host enters what the table shows.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when the camera starts, so that `companion` starts fast without one
    from flask import Flask

    from companion.table.referee import Referee

log = logging.getLogger(__name__)


def add_camera_options(run: argparse.ArgumentParser) -> None:
    group = run.add_argument_group("camera")
    group.add_argument(
        "--camera",
        default=None,
        help="watch the play area: picamera, a webcam number (0), /dev/videoN, a video or a recording",
    )
    group.add_argument(
        "--toss-camera", default=None, help="watch the horn figure and check each toss verdict (same kinds)"
    )
    group.add_argument(
        "--vision-edition", default="default", help="the taught profile to read pieces with (teach mode)"
    )
    group.add_argument(
        "--stable-frames",
        type=int,
        default=None,
        help="frames a reading must hold before it counts (default 3)",
    )


@dataclasses.dataclass
class CameraSetup:
    watcher: Any = None
    toss_camera: Any = None

    def stop(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
        if self.toss_camera is not None:
            self.toss_camera.close()


def start_camera(args: argparse.Namespace, referee: Referee, app: Flask, sensors: Any) -> CameraSetup:
    """Start what the options ask for and give the host pages their services (ValueError on a bad source)."""
    from companion.vision.sources import open_source
    from companion.vision.stability import StabilitySettings
    from companion.vision.tosscheck import NoTossCamera, TossCamera, TossConfirmer
    from companion.vision.watcher import CameraWatcher, WatcherSettings
    from companion.web.teach import VisionServices, install_vision

    stability = StabilitySettings()
    if args.stable_frames is not None:
        if args.stable_frames < 1:
            raise ValueError(f"--stable-frames must be at least 1, not {args.stable_frames}")
        stability = StabilitySettings(stable_frames=args.stable_frames)
    services = VisionServices()
    setup = CameraSetup()
    if args.camera:
        settings = WatcherSettings(stability=stability, edition=args.vision_edition)
        watcher = CameraWatcher(referee, open_source(args.camera, pace=True), settings)
        services.grab = lambda: watcher.latest
        services.watcher = watcher  # the setup page asks it to learn the empty table
        watcher.start()
        setup.watcher = watcher
    if args.toss_camera:
        camera = TossCamera(
            open_source(args.toss_camera, pace=True), edition=args.vision_edition, settings=stability
        )
        confirmer = TossConfirmer(referee, camera)
        services.confirmer = confirmer
        services.toss_grab = camera.grab  # the setup page's live picture of the figure
        setup.toss_camera = camera
        if sensors is not None:
            sensors.link.confirmer = confirmer
        else:
            log.warning("--toss-camera without sensors: there are no verdicts to check")
    elif sensors is not None and not args.simulate:
        # No camera: a toss the beams cannot tell still goes to the host, never silently.
        # (The simulated table has no host standing by, so a demo keeps the beams' verdict.)
        confirmer = TossConfirmer(referee, NoTossCamera())
        services.confirmer = confirmer
        sensors.link.confirmer = confirmer
    install_vision(app, services)
    return setup
