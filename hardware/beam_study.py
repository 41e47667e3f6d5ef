"""The study behind the beam layout of hardware/beams.md: where physically tossed rings come to rest,
and how many of each horn's low beams they block there, for three candidate layouts.

Each toss is thrown by the toss simulator's player (companion/sim/ringtoss/tosses.py: aimed at a horn
tip with a scatter, a drop, some sideways speed, tilt and spin), flown, bounced and brought to rest by
the rigid-body simulation (companion/sim/ringtoss/physics.py, MuJoCo), and named by its final pose
(`classify`: clean_ringer, rattling_ringer, tilted_ringer, hanging, leaner, beside, between, bounce_off,
pass_through, clean_miss). For the ring's final pose the light model (companion/sim/ringtoss/optics.py)
gives each candidate line's blocked share; a line counts as blocked when the share reaches the
receiver's threshold (50 %).

The layouts:

- old: per horn a front and a back line 15 mm from the axis, 5 mm above the head, 110 mm long, with
  a 3 mm light path (the layout before this study);
- square: per horn four lines 15 mm from the axis (normals 0, 90, 180, 270 degrees), 2 mm up, 2 mm
  light path, the front and back ones shared by both horns;
- hexagon (chosen): per horn six lines 15 mm from the axis (normals 30, 90, ..., 330 degrees), 2 mm up,
  2 mm light path: the "base" beams of hardware/pinmap.json, front and back shared.

Per layout and kind it prints how many lines of the ring's horn a ringer blocks (min-max and the
counts), or for every other ring the most lines of any one horn it blocks, and how many tosses two
rules get wrong: "all of a horn's lines blocked = the ring is around it" and "all or all but one".
Hanging rings are left out of the errors: their verdict waits on the tip beams (the last table says
whether one is blocked). Then the chosen layout under the tolerances of hardware/beams.md: beams 1 mm
higher or lower, a 4 or 6 mm rope (thrown again: a thinner rope rests lower), receivers switching at
30 % or 70 % of their light.

Run: `python hardware/beam_study.py [--tosses N] [--seed S] [--workers W]` (a tenth of a second of
CPU per toss, three times N tosses in all, on every core). The tables in hardware/beams.md are its
output with `--tosses 1000`.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

import numpy

from companion.sim.ringtoss.figure import PINMAP_FILE, Figure, LightPath, load_figure
from companion.sim.ringtoss.optics import blocked_share
from companion.sim.ringtoss.physics import Trajectory, rotation_matrix, simulate
from companion.sim.ringtoss.tosses import classify, draw_throw

THRESHOLDS = {"": 0.5, "receivers switch at 30 %": 0.3, "receivers switch at 70 %": 0.7}
ROPES = {"": None, "rope 4 mm": 4.0, "rope 6 mm": 6.0}
HEIGHTS = {"": 0.0, "beams 1 mm higher": 1.0, "beams 1 mm lower": -1.0}
CHOSEN = "hexagon, 2 mm up, 2 mm light (chosen)"
KIND_ORDER = (
    "clean_ringer",
    "rattling_ringer",
    "tilted_ringer",
    "hanging",
    "leaner",
    "beside",
    "between",
    "bounce_off",
    "pass_through",
    "clean_miss",
)


@dataclasses.dataclass(frozen=True)
class Layout:
    lines: tuple[LightPath, ...]
    horns: dict[str, tuple[str, ...]]
    """Per horn, the names of its lines (shared lines count for both)."""


def _line(name: str, a: tuple[float, float], b: tuple[float, float], z: float, radius: float) -> LightPath:
    return LightPath(name, (a[0], a[1], z), (b[0], b[1], z), radius)


def layouts(figure: Figure, pinmap: Path, height_offset: float = 0.0) -> dict[str, Layout]:
    """The candidate layouts on this figure (the chosen one from the pin map), moved up by `height_offset`."""
    hx, hy = figure.head_half_size
    edge_x, edge_y = hx - figure.rim_width, hy - figure.rim_width
    bases = {h.name: (h.base[0], h.base[1]) for h in figure.horns}
    out: dict[str, Layout] = {}

    old: list[LightPath] = []
    for name, (x, y) in bases.items():
        for side, dy in (("front", -15.0), ("back", 15.0)):
            old.append(_line(f"{name}_{side}", (x - 55, y + dy), (x + 55, y + dy), 5.0 + height_offset, 1.5))
    out["old: front + back, 5 mm up, 3 mm light"] = Layout(
        tuple(old), {name: (f"{name}_front", f"{name}_back") for name in bases}
    )

    z = 2.0 + height_offset
    square = [
        _line("front", (-edge_x, -15), (edge_x, -15), z, 1.0),
        _line("back", (-edge_x, 15), (edge_x, 15), z, 1.0),
    ]
    members: dict[str, tuple[str, ...]] = {}
    for name, (x, _) in bases.items():
        square += [
            _line(
                f"{name}_inner",
                (x - math.copysign(15, x), -edge_y),
                (x - math.copysign(15, x), edge_y),
                z,
                1.0,
            ),
            _line(
                f"{name}_outer",
                (x + math.copysign(15, x), -edge_y),
                (x + math.copysign(15, x), edge_y),
                z,
                1.0,
            ),
        ]
        members[name] = ("front", "back", f"{name}_inner", f"{name}_outer")
    out["square, 2 mm up, 2 mm light"] = Layout(tuple(square), members)

    pins = json.loads(pinmap.read_text(encoding="utf-8"))
    base = [spec for spec in pins["beams"] if spec.get("level") == "base"]
    by_name = {b.name: b for b in figure.beams}
    hexagon = []
    for spec in base:
        beam = by_name[spec["name"]]
        hexagon.append(
            dataclasses.replace(
                beam,
                start=(beam.start[0], beam.start[1], beam.start[2] + height_offset),
                end=(beam.end[0], beam.end[1], beam.end[2] + height_offset),
            )
        )
    out[CHOSEN] = Layout(
        tuple(hexagon),
        {name: tuple(s["name"] for s in base if s["horn"] in (name, "both")) for name in bases},
    )
    return out


def tip_lines(figure: Figure, pinmap: Path) -> tuple[LightPath, ...]:
    pins = json.loads(pinmap.read_text(encoding="utf-8"))
    tips = {spec["name"] for spec in pins["beams"] if spec.get("level") == "tip"}
    return tuple(b for b in figure.beams if b.name in tips)


def resting(trajectories: list[Trajectory]) -> Trajectory:
    """One step per toss: the pose each ring came to rest in (the light model needs the horns' shadow on a
    line once, so every toss's final pose is one step of a single trajectory)."""
    return Trajectory(
        numpy.arange(len(trajectories), dtype=float),
        numpy.array([t.final_position for t in trajectories]),
        numpy.array([t.final_quat for t in trajectories]),
        numpy.zeros((len(trajectories), 3)),
        None,
        False,
    )


def _tosses(job: tuple[int, int, int, str, str]) -> list[dict[str, object]]:
    """Simulate tosses start..start+count with the given rope; each toss's kind and blocked shares at rest."""
    seed, start, count, rope, pinmap_file = job
    pinmap = Path(pinmap_file)
    figure = load_figure(pinmap_file=pinmap)
    if ROPES[rope] is not None:
        figure = figure.with_changes(cord_diameter=ROPES[rope])
    out: list[dict[str, object]] = []
    trajectories = []
    for index in range(start, start + count):
        # The benchmark's seeding: toss k of seed s is the same throw here and in `companion bench toss`.
        rng = random.Random(seed * 1_000_003 + index)
        trajectory = simulate(figure, draw_throw(figure, rng))
        crossed = any(float(blocked_share(figure, trajectory, b).max()) > 0 for b in figure.beams)
        kind, horn = classify(figure, trajectory, crossed)
        position = trajectory.final_position
        tilt = math.degrees(math.acos(min(1.0, abs(float(rotation_matrix(trajectory.final_quat)[2, 2])))))
        out.append(
            {
                "index": index,
                "kind": kind,
                "horn": horn,
                "at_rest": trajectory.rest_s is not None,
                "centre": [round(float(v), 1) for v in position],
                "tilt": round(tilt),
                "shares": {},
            }
        )
        trajectories.append(trajectory)
    rest = resting(trajectories)
    for height, offset in HEIGHTS.items():
        if height and rope:
            continue
        for name, layout in layouts(figure, pinmap, offset).items():
            if (height or rope) and name != CHOSEN:
                continue
            shares = {line.name: blocked_share(figure, rest, line) for line in layout.lines}
            for k, toss in enumerate(out):
                toss["shares"].setdefault(height, {})[name] = {n: float(v[k]) for n, v in shares.items()}  # type: ignore[attr-defined]
    tips = {b.name: blocked_share(figure, rest, b) for b in tip_lines(figure, pinmap)}
    for k, toss in enumerate(out):
        toss["tips"] = {n: float(v[k]) for n, v in tips.items()}
    return out


def run(count: int, seed: int, workers: int, pinmap: Path) -> dict[str, list[dict[str, object]]]:
    size = max(1, min(50, -(-count // workers)))
    jobs = [
        (seed, start, min(size, count - start), rope, str(pinmap))
        for rope in ROPES
        for start in range(0, count, size)
    ]
    if workers == 1:
        results = [_tosses(job) for job in jobs]
    else:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_tosses, jobs)
    out: dict[str, list[dict[str, object]]] = {rope: [] for rope in ROPES}
    for job, chunk in zip(jobs, results, strict=True):
        out[job[3]] += chunk
    return out


def counts(shares: dict[str, float], layout: Layout, threshold: float) -> dict[str, int]:
    return {horn: sum(shares[name] >= threshold for name in names) for horn, names in layout.horns.items()}


def around_by_rule(blocked: dict[str, int], layout: Layout, slack: int) -> set[str]:
    return {horn for horn, n in blocked.items() if n >= len(layout.horns[horn]) - slack}


def wrong(toss: dict[str, object], blocked: dict[str, int], layout: Layout, slack: int) -> bool:
    truth = {toss["horn"]} if toss["horn"] is not None else set()
    return around_by_rule(blocked, layout, slack) != truth


def shown(values: list[int]) -> str:
    tally = collections.Counter(values)
    return ", ".join(f"{n}: {tally[n]}" for n in sorted(tally, reverse=True))


def layout_table(tosses: list[dict[str, object]], pinmap: Path) -> None:
    sets = layouts(load_figure(pinmap_file=pinmap), pinmap)
    print(
        "| layout | kind | tosses | lines blocked (ringers: of their horn; others: most of any horn) | "
        "counts | wrong: all | wrong: all but one |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, layout in sets.items():
        size = max(len(lines) for lines in layout.horns.values())
        totals = [0, 0]
        kinds = sorted({t["kind"] for t in tosses}, key=lambda k: (*KIND_ORDER, str(k)).index(str(k)))
        for kind in kinds:
            group = [t for t in tosses if t["kind"] == kind]
            values, errors = [], [0, 0]
            for toss in group:
                blocked = counts(toss["shares"][""][name], layout, THRESHOLDS[""])  # type: ignore[index]
                horn = toss["horn"]
                values.append(blocked[horn] if horn is not None else max(blocked.values()))  # type: ignore[index]
                if kind != "hanging":
                    for slack in (0, 1):
                        errors[slack] += wrong(toss, blocked, layout, slack)
            totals[0] += errors[0]
            totals[1] += errors[1]
            skip = kind == "hanging"
            print(
                f"| {name} | {kind} | {len(group)} | {min(values)}-{max(values)} of {size} | "
                f"{shown(values)} | {'(tip beams)' if skip else errors[0]} | "
                f"{'(tip beams)' if skip else errors[1]} |"
            )
        judged = sum(t["kind"] != "hanging" for t in tosses)
        print(f"| {name} | **all but hanging** | {judged} | | | **{totals[0]}** | **{totals[1]}** |")


def tolerance_table(runs: dict[str, list[dict[str, object]]], pinmap: Path) -> None:
    layout = layouts(load_figure(pinmap_file=pinmap), pinmap)[CHOSEN]
    cases = [("nominal", "", "", "")]
    cases += [(h, "", h, "") for h in HEIGHTS if h]
    cases += [(r, r, "", "") for r in ROPES if r]
    cases += [(t, "", "", t) for t in THRESHOLDS if t]
    print(
        "| case | ringers (not hanging): fewest of 6 blocked | other rings: most of any horn's 6 | "
        "wrong by 5 of 6 | hanging with a tip beam blocked | others with a tip beam blocked |"
    )
    print("|---|---|---|---|---|---|")
    for label, rope, height, threshold_name in cases:
        threshold = THRESHOLDS[threshold_name]
        ringers, others, errors = [], [], 0
        hanging = [0, 0]
        tipped = 0
        for toss in runs[rope]:
            blocked = counts(toss["shares"][height][CHOSEN], layout, threshold)  # type: ignore[index]
            tip = any(v >= threshold for v in toss["tips"].values())  # type: ignore[attr-defined]
            if toss["kind"] == "hanging":
                hanging[0] += tip
                hanging[1] += 1
                continue
            tipped += tip
            horn = toss["horn"]
            if horn is not None:
                ringers.append(blocked[horn])  # type: ignore[index]
            else:
                others.append(max(blocked.values()))
            errors += wrong(toss, blocked, layout, 1)
        print(
            f"| {label} | {min(ringers, default='-')} ({shown(ringers)}) | {max(others, default='-')} "
            f"({shown(others)}) | {errors} / {len(ringers) + len(others)} | {hanging[0]} / {hanging[1]} | "
            f"{tipped} |"
        )


def held_up_list(tosses: list[dict[str, object]], pinmap: Path) -> None:
    """The tosses whose ring rests off the plate (hanging) or across a tip beam, and what the rule makes of
    them: a tip beam blocked means the judge waits (then the camera or the host decides); otherwise the
    base beams decide, 5 or 6 of a horn's blocked meaning around it."""
    layout = layouts(load_figure(pinmap_file=pinmap), pinmap)[CHOSEN]
    print(
        "| toss | kind | around | centre (mm) | tilt | tip beams blocked | base beams blocked "
        "| the rule says |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for toss in tosses:
        tips = sorted(n for n, v in toss["tips"].items() if v >= THRESHOLDS[""])  # type: ignore[attr-defined]
        if toss["kind"] != "hanging" and not tips:
            continue
        blocked = counts(toss["shares"][""][CHOSEN], layout, THRESHOLDS[""])  # type: ignore[index]
        around = around_by_rule(blocked, layout, 1)
        if tips:
            says = "waits (hanging): camera or host"
        else:
            truth = {toss["horn"]} if toss["horn"] is not None else set()
            says = ("success" if around else "failure") + (", right" if around == truth else ", **wrong**")
        print(
            f"| {toss['index']} | {toss['kind']} | {toss['horn'] or '-'} | {toss['centre']} | "
            f"{toss['tilt']} | "
            f"{', '.join(tips) or '-'} | {', '.join(f'{h} {n}' for h, n in blocked.items())} | {says} |"
        )


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tosses", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=min(4, multiprocessing.cpu_count()))
    parser.add_argument(
        "--pinmap",
        type=Path,
        default=PINMAP_FILE,
        help="another pin map to study (its base beams are the 'chosen' layout, its tip beams and their "
        "posts stand on the simulated figure)",
    )
    args = parser.parse_args(argv)
    began = time.monotonic()
    runs = run(args.tosses, args.seed, max(1, args.workers), args.pinmap.resolve())
    tosses = runs[""]
    kinds = collections.Counter(t["kind"] for t in tosses)
    restless = sum(not t["at_rest"] for t in tosses)
    print(
        f"{len(tosses)} tosses (seed {args.seed}), plus as many with a 4 mm and a 6 mm rope; "
        f"{time.monotonic() - began:.0f} s on {args.workers} processes"
    )
    print("kinds: " + ", ".join(f"{k} {kinds[k]}" for k in sorted(kinds, key=lambda k: -kinds[k])))
    print(f"not at rest when the simulation ended (14 s): {restless}")
    print()
    layout_table(tosses, args.pinmap)
    print()
    tolerance_table(runs, args.pinmap)
    print()
    held_up_list(tosses, args.pinmap)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
