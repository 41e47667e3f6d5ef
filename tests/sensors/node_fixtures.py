"""Helpers of the sensor node tests: the firmware built as deployed, run under Node, and pty pairs.

The firmware runs in the real MicroPython (WebAssembly build, npm package
@micropython/micropython-webassembly-pyscript, installed by `npm ci` in
firmware/tests, which `make test` runs) with the fake machine and time of
firmware/tests/fakes. Import the fixtures into a test module to use them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import json
import os
import shutil
import subprocess
import threading
import time
import tty
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
RUNNER = FIRMWARE / "tests" / "run_firmware.mjs"
MICROPYTHON = FIRMWARE / "tests" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PINMAP_FILE = REPO / "hardware" / "pinmap.json"


def deploy_tool() -> ModuleType:
    """firmware/tools/deploy.py, which is a script rather than part of the companion package."""
    spec = importlib.util.spec_from_file_location("firmware_deploy", FIRMWARE / "tools" / "deploy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def node_binary() -> str:
    found = shutil.which("node") or "/usr/bin/node"
    if not Path(found).exists():
        pytest.fail("Node.js is needed to run the firmware tests (apt-get install nodejs)")
    if not MICROPYTHON.exists():
        pytest.fail("MicroPython for Node is missing: run `npm ci --prefix firmware/tests` (make test does)")
    return found


@dataclasses.dataclass(frozen=True)
class FirmwareRun:
    serial: bytes
    """Everything the firmware wrote to its USB serial, byte for byte."""
    report: dict[str, Any]
    """The bench's findings: handler errors, interrupts played, pins configured, outcome."""


def run_firmware(flash: Path, scenario: dict[str, Any], workdir: Path) -> FirmwareRun:
    """Run the deployed files in `flash` under MicroPython, playing `scenario` (see fakes/bench.py)."""
    workdir.mkdir(parents=True, exist_ok=True)
    scenario_file = workdir / "scenario.json"
    scenario_file.write_text(json.dumps(scenario))
    serial_file, report_file = workdir / "serial.out", workdir / "report.json"
    result = subprocess.run(
        [
            *(node_binary(), str(RUNNER), "--flash", str(flash), "--scenario", str(scenario_file)),
            *("--serial-out", str(serial_file), "--report", str(report_file)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, f"firmware run failed:\n{result.stderr}"
    return FirmwareRun(serial_file.read_bytes(), json.loads(report_file.read_text()))


@pytest.fixture(scope="session")
def flash(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Pico's file system as `deploy.py` builds it: compiled .mpy modules, main.py, pinmap.json."""
    out = tmp_path_factory.mktemp("flash")
    deploy_tool().build(out)
    return out


def flash_with_pinmap(flash: Path, pinmap: dict[str, Any], out: Path) -> Path:
    """A copy of the deployed files with another pin map (e.g. without the emitters' switch)."""
    shutil.copytree(flash, out)
    (out / "pinmap.json").write_text(json.dumps(pinmap))
    return out


class PtyPort:
    """A pty pair standing in for the node's USB serial: the daemon opens `path`, the test writes.

    `path` is a symlink (like the one a udev rule makes), so unplugging (closing
    the pty) and replugging (a new pty under the same name) look to the reader
    exactly like a Pico's cable being pulled and put back.
    """

    def __init__(self, link: Path) -> None:
        self.path = link
        self._master: int | None = None
        self._slave: int | None = None
        self.plug()

    def plug(self) -> None:
        self._master, self._slave = os.openpty()
        # Raw from the start: in cooked mode the line discipline would echo and buffer lines.
        tty.setraw(self._slave)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self.path.symlink_to(os.ttyname(self._slave))

    def unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def write(self, data: bytes) -> None:
        assert self._master is not None, "unplugged"
        view = memoryview(data)
        while view:
            written = os.write(self._master, view)
            view = view[written:]

    def close(self) -> None:
        self.unplug()


@pytest.fixture
def pty_port(tmp_path: Path) -> Iterator[PtyPort]:
    port = PtyPort(tmp_path / "minotaur-node")
    try:
        yield port
    finally:
        port.close()


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Wait until `condition` holds (a reader thread's work); the timeout only guards against a hang."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.002)


class Recorder:
    """Collects what a reader thread reports, safely."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._lock = threading.Lock()

    def __call__(self, item: Any) -> None:
        with self._lock:
            self.items.append(item)

    def snapshot(self) -> list[Any]:
        with self._lock:
            return list(self.items)
