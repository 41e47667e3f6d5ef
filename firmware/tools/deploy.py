"""Compile the sensor node firmware with mpy-cross and copy it to a Pico with mpremote.

    python firmware/tools/deploy.py build [--out DIR]      # compile only (what `make test` checks)
    python firmware/tools/deploy.py deploy [--port PORT] [--dry-run]

The Pico gets exactly the files the firmware tests run: the modules compiled
to .mpy, main.py as source (MicroPython only runs main.py), and the repo's
hardware/pinmap.json, the same file the daemon reads.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent
REPO = FIRMWARE.parent
PINMAP = REPO / "hardware" / "pinmap.json"
ENTRY = "main.py"
ARCH = "armv6m"
"""The RP2040's Cortex-M0+; bytecode does not depend on it, but @micropython.native code would."""


class FirmwareBuildError(ValueError):
    """A firmware file that mpy-cross refuses."""


def sources() -> list[Path]:
    """Every firmware file, main.py included (it is deployed as source but must compile too)."""
    return sorted(FIRMWARE.glob("*.py"))


def compile_module(source: Path, out: Path) -> None:
    result = subprocess.run(
        # -s: tracebacks on the Pico name the module's file, not this checkout's path.
        [sys.executable, "-m", "mpy_cross", f"-march={ARCH}", "-s", source.name, "-o", str(out), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise FirmwareBuildError(f"mpy-cross failed on {source.name}:\n{result.stderr.strip()}")


def build(out: Path, pinmap: Path = PINMAP) -> list[Path]:
    """The Pico's file system as deployed, in `out`: compiled modules, main.py, pinmap.json."""
    out.mkdir(parents=True, exist_ok=True)
    deployed: list[Path] = []
    for source in sources():
        compiled = out / (source.stem + ".mpy")
        compile_module(source, compiled)
        if source.name == ENTRY:
            compiled.unlink()
            shutil.copyfile(source, out / ENTRY)
            deployed.append(out / ENTRY)
        else:
            deployed.append(compiled)
    shutil.copyfile(pinmap, out / "pinmap.json")
    deployed.append(out / "pinmap.json")
    return deployed


def mpremote_command(port: str, files: Sequence[Path]) -> list[str]:
    """One mpremote call: drop stale .py copies (they would shadow the .mpy), copy, reset.

    Each file is copied to an explicit name (`cp x :x`), so nothing depends on how the
    board's file system answers mpremote's "is the destination a directory" question.
    """
    stale = [f.stem + ".py" for f in files if f.suffix == ".mpy"]
    cleanup = (
        f"import os\nfor f in {stale!r}:\n    try:\n        os.remove(f)\n    except OSError:\n        pass\n"
    )
    command = [sys.executable, "-m", "mpremote", "connect", port, "exec", cleanup]
    for f in files:
        command += ["+", "fs", "cp", str(f), f":{f.name}"]
    return [*command, "+", "reset"]


def find_port() -> str:
    """The node's port, found as the daemon finds it (USB vendor id from the pin map)."""
    from companion.sensors.node import NodeNotFoundError, find_node_port
    from companion.sensors.pinmap import load_pinmap

    try:
        return find_node_port(load_pinmap(PINMAP))
    except NodeNotFoundError as error:
        raise SystemExit(f"{error}; plug the Pico in or pass --port") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_cmd = commands.add_parser("build", help="compile the firmware into a directory")
    build_cmd.add_argument("--out", type=Path, default=FIRMWARE / "build")
    deploy_cmd = commands.add_parser("deploy", help="compile and copy to the Pico, then reset it")
    deploy_cmd.add_argument("--port", help="serial port of the Pico (default: found by USB vendor id)")
    deploy_cmd.add_argument("--out", type=Path, default=FIRMWARE / "build")
    deploy_cmd.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    args = parser.parse_args(argv)
    try:
        files = build(args.out)
    except FirmwareBuildError as error:
        print(error, file=sys.stderr)
        return 1
    if args.command == "build":
        print("\n".join(str(f) for f in files))
        return 0
    command = mpremote_command(args.port or find_port(), files)
    if args.dry_run:
        print(shlex.join(command))
        return 0
    return subprocess.run(command, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
