"""`companion bench ...`: figures for the targets no test can hold a machine to (speed, accuracy).

Each bench prints what it measured; none of them passes or fails. New benches
(e.g. `bench scoreboard`) add one entry to BENCHES.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from companion.progress import Progress
from companion.translations import console_gettext as _

TOSS_SOURCES = ("gpio", "node", "both")


HARD_SESSIONS = 21
"""Sessions per game in `bench vision --hard`: the generator takes its 7 table kinds and a game's 3 editions
in turn, so 21 sessions put every edition on every table once (each table under both marker placements)."""
HARD_FRAMES = 20
"""Frames per session in `bench vision --hard` (a few of them of the empty area)."""


def add_bench_commands(commands: argparse._SubParsersAction[Any]) -> None:
    bench = commands.add_parser(
        "bench", help=_("measure speed and accuracy (prints figures)"), description=__doc__
    )
    benches = bench.add_subparsers(dest="bench", required=True, metavar="BENCH")
    toss = benches.add_parser(
        "toss",
        help="the ring-toss judge over physically simulated tosses, through the GPIO and node sources",
        description="Throw rings at the figure in the rigid-body simulator, derive every sensor's edges from "
        "where the cord blocks each beam's light, and play them through the GPIO source (MockFactory pins) "
        "and the node source (a simulated node on a pty) into the toss judge. Reports, per source: wrong "
        "verdicts nobody was asked about (silent_wrong), tosses that go to the host (asked_host), the delay "
        "from the ring's rest to the verdict, missed edges, and the same counts for tolerance cases (beams "
        "1 mm off, a thinner or thicker rope, receivers switching at 30 or 70 percent).",
    )
    toss.add_argument("--json", action="store_true", help="print the figures as JSON")
    toss.add_argument("--source", choices=TOSS_SOURCES, default="both", help="which path to measure")
    toss.add_argument("--tosses", type=_positive, default=10_000, help="tosses per source (default 10000)")
    toss.add_argument(
        "--tolerance-tosses",
        type=_positive,
        default=None,
        help="tosses per tolerance case (default a fifth of --tosses)",
    )
    toss.add_argument("--seed", type=int, default=1, help="seed of the simulated throws (default 1)")
    toss.add_argument("--pinmap", type=Path, default=None, help="pin map (default hardware/pinmap.json)")
    toss.set_defaults(handler=run_toss_bench)
    vision = benches.add_parser(
        "vision",
        help="the camera pipeline on generated hard sets: accuracy and ms per frame, per game",
        description="Generate a hard recording per game (companion vision generate --hard) and evaluate "
        "it (companion vision eval): per-item accuracy, frames entirely right, ms per 1280x720 frame on "
        "one core.",
    )
    vision.add_argument("games", nargs="*", help="games to measure (default: every game the camera reads)")
    vision.add_argument(
        "--games",
        nargs="+",
        dest="more_games",
        default=[],
        metavar="GAME",
        help="games to measure (as above)",
    )
    vision.add_argument("--json", action="store_true", help="print the figures as JSON")
    vision.add_argument(
        "--frames",
        type=_positive,
        default=None,
        help=f"frames per game (default 200); with --hard, per session (default {HARD_FRAMES})",
    )
    vision.add_argument("--seed", type=int, default=1, help="seed of the generator (default 1)")
    vision.add_argument(
        "--hard",
        action="store_true",
        help="the hard set instead: sessions on many table kinds, editions, hands; per table kind, and an "
        "edition taught on one table read on the others (docs/vision-recordings.md)",
    )
    vision.add_argument(
        "--sessions",
        type=_positive,
        default=HARD_SESSIONS,
        help=f"--hard: sessions per game ({HARD_SESSIONS})",
    )
    vision.set_defaults(handler=run_vision_bench)
    scoreboard = benches.add_parser(
        "scoreboard",
        help="phones on the live scoreboard: event-to-phone delay and the daemon's memory",
        description="Start the daemon (companion run) on loopback, connect simulated phones to its event "
        "stream, let the host enter actions one at a time, and report the time from each action being sent "
        "to its arrival at every phone (p50, p99) and the daemon's resident memory.",
    )
    scoreboard.add_argument("--json", action="store_true", help="print the figures as JSON")
    scoreboard.add_argument("--phones", type=_positive, default=50, help="phones connected (default 50)")
    scoreboard.add_argument("--events", type=_positive, default=200, help="actions entered (default 200)")
    scoreboard.add_argument("--seed", type=int, default=1, help="seed of the host's choices (default 1)")
    scoreboard.set_defaults(handler=run_scoreboard_bench)
    club = benches.add_parser(
        "club",
        help="a club evening over a real Mosquitto: event-to-league delay, events lost, league vs replay",
        description="Start a real Mosquitto, N simulated tables playing at a human pace (a move every "
        "0.5-2 s), each publishing its record, and one league. Then restart the broker, cut one table off "
        "for ten simulated minutes (played ten times faster) and settle. Reports the delay from an event's "
        "commit at its table to the league (p50, p99), the events lost overall and in each case, and "
        "whether the league equals a replay of every table's record (docs/club.md).",
    )
    club.add_argument("--json", action="store_true", help="print the figures as JSON")
    club.add_argument("--tables", type=_positive, default=20, help="simulated tables (default 20)")
    club.add_argument(
        "--seconds", type=_positive, default=40, help="steady play before the broker restarts (default 40)"
    )
    club.add_argument(
        "--offline-minutes",
        type=_positive,
        default=10,
        help="simulated minutes one table is cut off (default 10)",
    )
    club.add_argument(
        "--offline-speed",
        type=_positive,
        default=10,
        help="how much faster the cut-off table plays, so its minutes pass sooner (default 10)",
    )
    club.add_argument(
        "--speed", type=float, default=1.0, help="the whole evening this much faster than people play (1)"
    )
    club.add_argument("--seed", type=int, default=1, help="seed of the players' choices (default 1)")
    club.set_defaults(handler=run_club_bench)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least one toss, not {value}")
    return value


def run_scoreboard_bench(args: argparse.Namespace) -> int:
    from companion.web.benchmark import bench_scoreboard

    try:
        report = bench_scoreboard(args.phones, args.events, args.seed)
    except (ValueError, OSError) as error:
        print(f"companion bench scoreboard: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    latency, memory = report["event_to_phone_ms"], report["daemon_memory"]
    print(
        f"{report['phones']} phones, {report['events']} events: event to phone p50 {latency['p50']:.1f} ms, "
        f"p99 {latency['p99']:.1f} ms, max {latency['max']:.1f} ms, {report['missed']} missed; "
        f"daemon resident memory {memory['rss_mb']} MB (peak {memory['peak_rss_mb']} MB)"
    )
    return 0


def run_club_bench(args: argparse.Namespace) -> int:
    from companion.club.bench import bench_club, summary
    from companion.club.mosquitto import BrokerError

    # The tables and the league log every lost connection: the bench causes them on purpose.
    logging.basicConfig(level=logging.CRITICAL)
    bar = Progress(0, "companion bench club")
    try:
        report = bench_club(
            args.tables,
            seconds=args.seconds,
            offline_minutes=args.offline_minutes,
            offline_speed=args.offline_speed,
            speed=args.speed,
            seed=args.seed,
            progress=bar,
        )
    except (ValueError, BrokerError) as error:
        print(f"companion bench club: {error}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    print(json.dumps(report, indent=2) if args.json else summary(report))
    return 0


def run_toss_bench(args: argparse.Namespace) -> int:
    from companion.sensors.benchmark import bench_toss

    # The node reader logs its faults; the last one (the reader stopping) is no news here.
    logging.basicConfig(level=logging.ERROR)
    sources = ["gpio", "node"] if args.source == "both" else [args.source]

    bar = Progress(0, "companion bench toss")
    try:
        report = bench_toss(sources, args.tosses, args.seed, args.pinmap, args.tolerance_tosses, bar)
    except (ValueError, RuntimeError) as error:
        print(f"companion bench toss: {error}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for result in report["results"]:
        rest = result["rest_to_verdict_ms"]
        tolerance = ", ".join(
            f"{t['name']} {t['silent_wrong']}/{t['asked_host']}" for t in result["tolerance"]
        )
        print(
            f"{result['source']}: {result['tosses']} tosses, {result['silent_wrong']} silently wrong, "
            f"{result['asked_host']} asked the host; rest to verdict p99 "
            f"success {rest['success']['p99']} ms, "
            f"failure {rest['failure']['p99']} ms; {result['edges']['missed']} of "
            f"{result['edges']['changes']} edges missed; tolerance (silently wrong/asked): {tolerance}"
        )
    return 0


def run_vision_bench(args: argparse.Namespace) -> int:
    from companion.vision.benchmark import bench_vision

    games = [*args.games, *args.more_games] or None
    if args.hard:
        return run_hard_vision_bench(args, games)
    bar = Progress(0, "companion bench vision")
    try:
        report = bench_vision(games, args.frames or 200, args.seed, progress=bar)
    except ValueError as error:
        print(f"companion bench vision: {error}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    for result in report["results"]:
        ms = result["ms_per_frame"]
        print(
            f"{result['game']}: items {result['item_accuracy'] * 100:.2f} % right, frames entirely right "
            f"{result['frames_entirely_right'] * 100:.2f} %, CPU ms per frame mean "
            f"{result['cpu_ms_per_frame']['mean']} (wall mean {ms['mean']} p95 {ms['p95']}) "
            f"({result['frames_read']} of {result['frames']} frames read; "
            f"{'meets' if result['meets_goals'] else 'misses'} the goals)"
        )
    return 0


def run_hard_vision_bench(args: argparse.Namespace, games: list[str] | None) -> int:
    from companion.vision.benchmark import bench_vision_hard, hard_summary

    bar = Progress(0, "companion bench vision --hard")
    try:
        report = bench_vision_hard(games, args.sessions, args.frames or HARD_FRAMES, args.seed, progress=bar)
    except ValueError as error:
        print(f"companion bench vision --hard: {error}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    print(json.dumps(report, indent=2) if args.json else hard_summary(report))
    return 0
