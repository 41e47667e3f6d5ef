"""The sensor node as the daemon sees it: a Pico on USB serial sending framed edges and heartbeats.

`SensorNode` is an `EdgeSource`. A reader thread finds the node by its USB
vendor id (or opens the port it was given), decodes frames, and hands edges
on with source "node". It never gives up: an unplugged node is looked for
again every half second, garbage is skipped up to the next frame, and the
node's heartbeat resynchronises the beam states after anything was lost.
Faults reach the table through `on_fault` (void the toss in progress) and
`on_status` (what to show), or through `report_faults`; the protocol logic
behind them is `NodeLink` (companion/sensors/nodelink.py).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from companion.device_words import one_line
from companion.sensors.clock import Clock, monotonic_us
from companion.sensors.edges import EdgeHandler
from companion.sensors.nodelink import (
    SOURCE,
    FaultHandler,
    NodeFault,
    NodeLink,
    NodeStatus,
    StatusHandler,
    not_connected,
    pinmap_crc,
)
from companion.sensors.pinmap import PinMap

__all__ = [
    "SOURCE",
    "NodeFault",
    "NodeLink",
    "NodeNotFoundError",
    "NodeStatus",
    "SensorNode",
    "SerialPort",
    "find_node_port",
    "not_connected",
    "open_serial",
    "pinmap_crc",
]

log = logging.getLogger(__name__)


class NodeNotFoundError(ValueError):
    """No serial port looks like the sensor node: the message is for the players, `detail` for a maker."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class SerialPort(Protocol):
    """What the reader needs of a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int = 1) -> bytes: ...

    def close(self) -> None: ...


PortOpener = Callable[[str, int], SerialPort]


def open_serial(port: str, baud: int) -> SerialPort:
    """A pyserial port (or URL such as loop://), exclusive, with a short read timeout."""
    import serial

    opened: SerialPort = serial.serial_for_url(port, baudrate=baud, timeout=0.05, exclusive=True)
    return opened


def find_node_port(pinmap: PinMap, ports: Iterable[Any] | None = None) -> str:
    """The serial device of the node: the first port with the pin map's USB vendor id."""
    if ports is None:
        from serial.tools import list_ports  # lazily: port listing needs sysfs, a Pi's or a PC's

        ports = list_ports.comports()
    matches = sorted(p.device for p in ports if p.vid == pinmap.usb_vid)
    if not matches:
        raise NodeNotFoundError(not_connected(), f"no USB serial device with vendor id {pinmap.usb_vid:#06x}")
    return matches[0]


class SensorNode:
    """The `EdgeSource` of a sensor node: edges with source "node", faults reported, reconnects forever."""

    def __init__(
        self,
        pinmap: PinMap,
        *,
        port: str | None = None,
        on_fault: FaultHandler | None = None,
        on_status: StatusHandler | None = None,
        expected_pinmap_crc: str | None = None,
        heartbeat_timeout_ms: int | None = None,
        reconnect_ms: int = 500,
        open_port: PortOpener = open_serial,
        find_port: Callable[[PinMap], str] = find_node_port,
        clock: Clock = monotonic_us,
    ) -> None:
        self.pinmap = pinmap
        self.fixed_port = port
        self._on_fault = on_fault
        self._on_status = on_status
        self._expected_crc = expected_pinmap_crc
        self._timeout_us = heartbeat_timeout_ms * 1000 if heartbeat_timeout_ms else None
        self._reconnect_s = reconnect_ms / 1000
        self._open_port = open_port
        self._find_port = find_port
        self._clock = clock
        self._lock = threading.Lock()
        """Guards the link. Callbacks run after it is released (see `_update`)."""
        self._outbox: list[Callable[[], None]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._link: NodeLink | None = None
        self._port: SerialPort | None = None

    def report_faults(self, fault: Callable[[str, str | None], None], key: str = "node") -> None:
        """Report to a `fault(key, message or None)` such as TossRunner.fault (call before `start`).

        Each disruption opens the fault at once (voiding the toss in progress);
        the status then keeps it open, or closes it when the node is healthy again.
        """
        self._on_fault = lambda f: fault(key, f.reason)
        self._on_status = lambda s: fault(key, None if s.ok else one_line(s.faults))

    def start(self, on_edge: EdgeHandler) -> None:
        if self._thread is not None:
            raise RuntimeError("the sensor node reader is running already")
        on_fault, on_status = self._on_fault, self._on_status
        self._link = NodeLink(
            self.pinmap,
            on_edge=lambda edge: self._outbox.append(functools.partial(on_edge, edge)),
            on_fault=(lambda fault: self._outbox.append(functools.partial(on_fault, fault)))
            if on_fault
            else None,
            on_status=(lambda st: self._outbox.append(functools.partial(on_status, st)))
            if on_status
            else None,
            expected_pinmap_crc=self._expected_crc,
            heartbeat_timeout_us=self._timeout_us,
        )
        with self._update() as link:
            link.publish()  # "disconnected" until the node is found
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="sensor-node", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def beam_states(self) -> dict[str, bool]:
        """Last known states (check `status().ok` too: while disconnected they are stale)."""
        with self._lock:
            return dict(self._link.states) if self._link else dict.fromkeys(self.pinmap.names, False)

    def status(self) -> NodeStatus:
        with self._lock:
            if self._link is None:
                return NodeLink(self.pinmap, on_edge=lambda _: None).status()
            return self._link.status()

    @property
    def frames_received(self) -> int:
        """Good frames read since start, for diagnostics (and tests that pace a stream)."""
        with self._lock:
            return self._link.decoder.frames if self._link else 0

    @contextlib.contextmanager
    def _update(self) -> Iterator[NodeLink]:
        """The link, locked; then, unlocked, the callbacks it queued, in order.

        Calling back outside the lock keeps lock order one way: a callback may take
        the table's lock, and the table, holding it, may ask for `beam_states()`.
        """
        assert self._link is not None
        with self._lock:
            yield self._link
            calls, self._outbox = self._outbox, []
        for call in calls:
            try:
                call()
            except Exception:
                log.exception("a sensor node callback failed")

    def _run(self) -> None:
        link = self._link
        assert link is not None
        try:
            while not self._stop.is_set():
                if self._port is None and not self._connect(link):
                    self._stop.wait(self._reconnect_s)
                    continue
                self._read(link)
        finally:
            self._close(link, "reader stopped", fault=False)

    def _connect(self, link: NodeLink) -> bool:
        try:
            name = self.fixed_port or self._find_port(self.pinmap)
            port = self._open_port(name, self.pinmap.baud)
        except (OSError, ValueError) as error:  # serial.SerialException is an OSError
            detail = getattr(error, "detail", None) or str(error) or type(error).__name__
            log.debug("sensor node not available: %s", detail)
            with self._update():
                link.unavailable(detail)
            return False
        self._port = port
        with self._update():
            link.connected(name, self._clock())
        log.info("sensor node on %s", name)
        return True

    def _read(self, link: NodeLink) -> None:
        assert self._port is not None
        try:
            data = self._port.read(max(1, self._port.in_waiting))
        except (OSError, ValueError, TypeError) as error:
            # Unplugged: pyserial raises SerialException (an OSError); a closed pty raises EIO.
            self._close(link, str(error) or type(error).__name__)
            return
        with self._update():
            if data:
                link.received(data, self._clock())
            link.tick(self._clock())

    def _close(self, link: NodeLink, reason: str, fault: bool = True) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(OSError):
                port.close()
        with self._update():
            link.disconnected(reason, fault=fault)
