"""`companion vision ...`: the marker sheet, recording a session, generating and evaluating recordings."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.translations import console_gettext as _

DEFAULT_SHEET = Path("hardware") / "print" / "aruco-markers.svg"


def add_vision_commands(commands: argparse._SubParsersAction[Any]) -> None:
    vision = commands.add_parser(
        "vision", help=_("the camera: marker sheet, recordings, evaluation"), description=__doc__
    )
    actions = vision.add_subparsers(dest="vision", required=True, metavar="ACTION")

    markers = actions.add_parser(
        "markers",
        help="write the printable sheet of table corner markers (SVG, A4, true size)",
        description="Write the A4 sheet with the four ArUco corner markers (DICT_4X4_50, ids 0-3) at "
        "true size. Print at 100 %%; the sheet's 100 mm bar checks the scale.",
    )
    markers.add_argument(
        "--out", type=Path, default=DEFAULT_SHEET, help=f"output file (default {DEFAULT_SHEET})"
    )
    markers.set_defaults(handler=run_markers)

    mat = actions.add_parser(
        "mat",
        help="write a game's play area at true size to print (SVG), tiled over A4 pages when larger",
        description="Write the game's play area at true size: its edges, the four corner markers in place "
        "and every item's region outlined lightly. FILE is the whole mat; when it is larger than A4, "
        "FILE-page-N.svg are its A4 pages, which overlap: lay them over each other by their crosses.",
    )
    mat.add_argument("game", help="the game whose play area to print")
    mat.add_argument("--out", type=Path, required=True, help="output file (the whole mat, SVG)")
    mat.add_argument("--options", type=_json_object, default={}, help="the game's options as JSON")
    mat.set_defaults(handler=run_mat)

    record = actions.add_parser(
        "record",
        help="record a real session from a camera in the recording format",
        description="Save frames from a camera (or a video) as a recording (docs/vision-recordings.md), "
        "so that any real table can become a test case: label the frames afterwards in recording.json.",
    )
    record.add_argument("out_dir", type=Path, help="an empty or new folder for the recording")
    record.add_argument(
        "--source", default="picamera", help="picamera, a webcam number (0), /dev/videoN or a video file"
    )
    record.add_argument(
        "--seconds", type=_positive_float, default=10.0, help="how long to record (default 10)"
    )
    record.add_argument(
        "--fps", type=_positive_float, default=5.0, help="frames saved per second (default 5)"
    )
    record.add_argument("--game", default=None, help="the game on the table (for evaluating it later)")
    record.add_argument("--options", type=_json_object, default={}, help="the game's options as JSON")
    record.add_argument("--png", action="store_true", help="save lossless PNG frames instead of JPEG")
    record.add_argument(
        "--reference-seconds",
        type=_non_negative_float,
        default=0.0,
        help="start with the empty play area for this long: those frames are marked reference (the "
        "reader learns the table from them); default 0",
    )
    setup = record.add_argument_group("setup", "what the session is recorded on (kept in the recording)")
    setup.add_argument("--table", default=None, help="the table's kind, e.g. dark-wood, gingham, laminate")
    setup.add_argument("--camera-height", type=float, default=None, help="camera height above the table, mm")
    setup.add_argument("--camera-tilt", type=float, default=None, help="camera tilt from straight down, deg")
    setup.add_argument("--edition", default=None, help="the pieces' edition (a taught profile's name)")
    setup.add_argument("--figure-height", type=float, default=None, help="toss: the horns' rest height, mm")
    record.set_defaults(handler=run_record)

    generate = actions.add_parser(
        "generate",
        help="generate a recording of realistic frames with ground truth",
        description="Render table frames of a game from its data, through a camera model (perspective, "
        "lens, light, shadows, glare, noise, blur, JPEG, hands), into a recording with ground truth.",
    )
    generate.add_argument("game", help="the game to render")
    generate.add_argument("out_dir", type=Path, help="an empty or new folder for the recording")
    generate.add_argument("--frames", type=_positive_int, default=100, help="frames (default 100)")
    generate.add_argument("--hard", action="store_true", help="turn every spoiling effect up")
    generate.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    generate.set_defaults(handler=run_generate)

    evaluate = actions.add_parser(
        "eval",
        help="read a recording with ground truth and print accuracy and speed",
        description="Read every labelled frame without hand or motion through the whole pipeline (markers, "
        "homography, warp, recogniser, one core) and compare with the ground truth: per-item accuracy, "
        "share of frames entirely right, milliseconds per frame.",
    )
    evaluate.add_argument("recording", type=Path, help="the recording's folder, recording.json or video")
    evaluate.add_argument("--json", action="store_true", help="print the figures as JSON")
    evaluate.add_argument("--edition", default=None, help="read with this taught profile of the game")
    evaluate.add_argument("--limit", type=_positive_int, default=None, help="read at most this many frames")
    evaluate.set_defaults(handler=run_eval)

    label = actions.add_parser(
        "label",
        help="label a recorded session on a local web page",
        description="Serve a page that shows each frame of the recording with the game's layout drawn where "
        "the companion looks, a choice of label per item (prefilled with what the companion reads) and the "
        "frame's hand/motion/reference marks; every save rewrites recording.json, checked first.",
    )
    label.add_argument("recording", type=Path, help="the recording's folder, recording.json or video")
    label.add_argument("--port", type=int, default=8765, help="port to serve on (default 8765)")
    label.add_argument(
        "--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1: this machine only)"
    )
    label.set_defaults(handler=run_label)


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def _non_negative_float(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"0 or more (and at most a day), not {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"more than 0 (and at most a day), not {value}")
    return value


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from error
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("options must be a JSON object such as '{\"players\": 4}'")
    return value


def run_markers(args: argparse.Namespace) -> int:
    from companion.vision.calibration import marker_sheet_svg

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(marker_sheet_svg(), encoding="utf-8")
    print(f"Wrote {args.out}: print it at 100 % on A4 and check the 100 mm bar.")
    return 0


def run_mat(args: argparse.Namespace) -> int:
    from companion.vision.base import VisionError
    from companion.vision.sheets import mat_pages, mat_svg

    try:
        whole, pages = mat_svg(args.game, args.options), mat_pages(args.game, args.options)
    except (VisionError, KeyError, TypeError, ValueError) as error:
        print(f"cannot draw the {args.game} mat: {error}", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(whole, encoding="utf-8")
    written = [args.out]
    if len(pages) > 1:
        for number, page in enumerate(pages, start=1):
            path = args.out.with_name(f"{args.out.stem}-page-{number}{args.out.suffix or '.svg'}")
            path.write_text(page, encoding="utf-8")
            written.append(path)
    print(f"Wrote {', '.join(map(str, written))}: print at 100 % and check a marker measures 30 mm.")
    return 0


def _record_setup(args: argparse.Namespace) -> dict[str, Any]:
    given = {
        "table": args.table,
        "camera_height_mm": args.camera_height,
        "camera_tilt_deg": args.camera_tilt,
        "edition": args.edition,
        "figure_height_mm": args.figure_height,
    }
    return {key: value for key, value in given.items() if value is not None}


def run_record(args: argparse.Namespace) -> int:
    from companion.vision.recording import RecordingWriter, check_setup
    from companion.vision.sources import open_source

    try:
        # Checked before the camera opens, so a typo costs no session.
        setup = check_setup(_record_setup(args), "companion vision record")
        source = open_source(args.source)
        source.open()
    except ValueError as error:
        print(f"companion vision record: {error}", file=sys.stderr)
        return 1
    interval = 1.0 / args.fps
    saved = 0
    try:
        with RecordingWriter(
            args.out_dir,
            game=args.game,
            options=args.options,
            suffix=".png" if args.png else ".jpg",
            extra={"source": source.name},
            setup=setup,
        ) as writer:
            if args.reference_seconds:
                print(
                    f"Keep the play area empty for the first {args.reference_seconds:g} s.",
                    file=sys.stderr,
                )
            started = time.monotonic()
            next_t = 0.0
            while (elapsed := time.monotonic() - started) < args.seconds + args.reference_seconds:
                frame = source.read()
                if frame is None:
                    break  # a video played out
                if frame.t + 1e-9 < next_t:
                    continue
                writer.add(frame.image, frame.t, reference=frame.t < args.reference_seconds)
                saved += 1
                next_t = frame.t + interval
                print(f"\r{saved} frames, {elapsed:.1f} s", end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        pass  # the writer has saved what was recorded
    except ValueError as error:
        print(f"\ncompanion vision record: {error}", file=sys.stderr)
        return 1
    finally:
        source.close()
    print(f"\nRecorded {saved} frames into {args.out_dir} (labels null: add them to evaluate).")
    return 0 if saved else 1


def run_generate(args: argparse.Namespace) -> int:
    from companion.vision.generate import generate_recording

    try:
        path = generate_recording(args.game, args.out_dir, frames=args.frames, hard=args.hard, seed=args.seed)
    except ValueError as error:
        print(f"companion vision generate: {error}", file=sys.stderr)
        return 1
    print(f"Wrote {args.frames} frames with ground truth: {path}")
    return 0


def run_eval(args: argparse.Namespace) -> int:
    from companion.vision.base import load_profile
    from companion.vision.evaluate import evaluate, summary
    from companion.vision.recording import load_recording

    try:
        recording = load_recording(args.recording)
        profile = None
        if args.edition is not None:
            if recording.game is None:
                raise ValueError("the recording names no game, so it has no profiles")
            profile = load_profile(recording.game, args.edition)
            if profile is None:
                raise ValueError(f"no taught profile {args.edition!r} for {recording.game}")
        report = evaluate(recording, profile=profile, limit=args.limit)
    except ValueError as error:
        print(f"companion vision eval: {error}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=2) if args.json else summary(report))
    return 0


def run_label(args: argparse.Namespace) -> int:
    from companion.vision.label import serve_label

    try:
        serve_label(args.recording, args.host, args.port)
    except (ValueError, OSError) as error:
        print(f"companion vision label: {error}", file=sys.stderr)
        return 1
    return 0
