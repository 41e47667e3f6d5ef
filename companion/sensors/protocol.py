"""The sensor node's serial protocol: one ASCII line per frame, checked by a CRC32.

    @<seq> <kind> <key>=<value> ...#<crc32>\\n

`seq` counts frames modulo 65536 and starts at 0 when the node boots; `crc32`
is 8 lowercase hex digits of CRC-32 over the bytes between "@" and "#". Lines
make resynchronisation trivial: whatever garbage arrives, the next newline
ends it, and the next "@" starts a frame. The firmware (firmware/framing.py)
writes the same format in MicroPython; firmware/PROTOCOL.md is the reference.

The decoder reports, in stream order, the frames it accepts, the lines it
throws away (`CorruptFrame`) and the frames it can tell are missing
(`SequenceGap`), so the reader can decide what each one costs: any of them
during a toss means an edge may have been lost.
"""

from __future__ import annotations

import binascii
import dataclasses
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from companion.sensors.edges import BeamEdge

PROTOCOL_VERSION = 1
SEQ_MODULO = 1 << 16
MAX_LINE = 512
"""Longest line the decoder buffers; longer runs without a newline are garbage by definition."""

SELF_TEST_RESULTS = ("ok", "untested", "blocked", "stuck_clear")
"""ok: the beam followed its emitter off and on. untested: no emitter pin, beam clear at start.
blocked: blocked with the emitter on (something on the horn, or misaligned).
stuck_clear: clear with the emitter off (receiver unplugged or dead)."""

_TOKEN = re.compile(rb"[!-~]+")
_NAME = re.compile(r"[A-Za-z0-9_.+-]+")


class ProtocolError(ValueError):
    """A frame that passed its checksum but does not say anything this protocol knows."""


@dataclasses.dataclass(frozen=True)
class Hello:
    """Sent at boot (seq 0) and repeated every few seconds, so a reader that connects late learns it too."""

    firmware: str
    protocol: int
    heartbeat_ms: int
    beams: tuple[str, ...]
    pinmap_crc: str
    """CRC-32 (8 hex digits) of the pinmap.json the node read, to compare with the daemon's copy."""

    kind = "V"


@dataclasses.dataclass(frozen=True)
class SelfTest:
    """The self-test result of one beam, run at boot before its interrupt is enabled."""

    beam: str
    result: str

    kind = "S"

    @property
    def passed(self) -> bool:
        return self.result in ("ok", "untested")


@dataclasses.dataclass(frozen=True)
class Edge:
    beam: str
    blocked: bool
    t_us: int
    """Microseconds since the node booted (the firmware unwraps ticks_us), so it never wraps."""

    kind = "E"


@dataclasses.dataclass(frozen=True)
class Heartbeat:
    t_us: int
    blocked: frozenset[str]
    """The beams blocked after every edge sent before this frame: a reader that lost frames resyncs here."""
    overflows: int
    """Edges the node dropped since boot because its buffer was full (never expected; counted to be sure)."""
    glitches: int
    """Interrupts whose level equalled the last one: a pulse shorter than the interrupt latency."""

    kind = "B"


@dataclasses.dataclass(frozen=True)
class NodeError:
    """The firmware cannot run (e.g. no pin map); it resets itself after sending this."""

    code: str

    kind = "F"


Message = Hello | SelfTest | Edge | Heartbeat | NodeError


@dataclasses.dataclass(frozen=True)
class Frame:
    seq: int
    message: Message


@dataclasses.dataclass(frozen=True)
class CorruptFrame:
    """A line the decoder threw away: bad checksum, truncated, unknown format, or plain garbage."""

    data: bytes
    reason: str


@dataclasses.dataclass(frozen=True)
class SequenceGap:
    """Frames that never arrived: the sequence number jumped from `expected` to `got`."""

    expected: int
    got: int

    @property
    def missing(self) -> int:
        return (self.got - self.expected) % SEQ_MODULO


Decoded = Frame | CorruptFrame | SequenceGap


def _fields(message: Message) -> list[tuple[str, str]]:
    if isinstance(message, Hello):
        return [
            ("fw", message.firmware),
            ("proto", str(message.protocol)),
            ("hb", str(message.heartbeat_ms)),
            ("beams", ",".join(message.beams)),
            ("pinmap", message.pinmap_crc),
        ]
    if isinstance(message, SelfTest):
        return [("b", message.beam), ("r", message.result)]
    if isinstance(message, Edge):
        return [("b", message.beam), ("blocked", "1" if message.blocked else "0"), ("t", str(message.t_us))]
    if isinstance(message, Heartbeat):
        return [
            ("t", str(message.t_us)),
            ("blk", ",".join(sorted(message.blocked)) or "-"),
            ("ovf", str(message.overflows)),
            ("gl", str(message.glitches)),
        ]
    return [("code", message.code)]


def encode_frame(seq: int, message: Message) -> bytes:
    """One frame, newline included, exactly as the firmware writes it."""
    parts = [str(seq % SEQ_MODULO), message.kind]
    for key, value in _fields(message):
        if not _NAME.fullmatch(value.replace(",", "")) and value != "-":
            raise ProtocolError(f"field {key}={value!r} would break the frame: use letters, digits and _.+-")
        parts.append(f"{key}={value}")
    body = " ".join(parts).encode("ascii")
    return b"@" + body + b"#" + b"%08x" % binascii.crc32(body) + b"\n"


def _int(fields: Mapping[str, str], key: str) -> int:
    try:
        return int(fields[key])
    except KeyError:
        raise ProtocolError(f"missing field {key}") from None
    except ValueError:
        raise ProtocolError(f"field {key} is not a number: {fields[key]!r}") from None


def _str(fields: Mapping[str, str], key: str) -> str:
    try:
        return fields[key]
    except KeyError:
        raise ProtocolError(f"missing field {key}") from None


def _names(value: str) -> tuple[str, ...]:
    return () if value == "-" else tuple(value.split(","))


def _message(kind: str, fields: Mapping[str, str]) -> Message:
    if kind == "E":
        blocked = _str(fields, "blocked")
        if blocked not in ("0", "1"):
            raise ProtocolError(f"blocked must be 0 or 1, not {blocked!r}")
        return Edge(_str(fields, "b"), blocked == "1", _int(fields, "t"))
    if kind == "B":
        return Heartbeat(
            _int(fields, "t"), frozenset(_names(_str(fields, "blk"))), _int(fields, "ovf"), _int(fields, "gl")
        )
    if kind == "S":
        result = _str(fields, "r")
        if result not in SELF_TEST_RESULTS:
            raise ProtocolError(f"unknown self-test result {result!r}")
        return SelfTest(_str(fields, "b"), result)
    if kind == "V":
        return Hello(
            _str(fields, "fw"),
            _int(fields, "proto"),
            _int(fields, "hb"),
            _names(_str(fields, "beams")),
            _str(fields, "pinmap"),
        )
    if kind == "F":
        return NodeError(_str(fields, "code"))
    raise ProtocolError(f"unknown frame kind {kind!r}")


def parse_frame(line: bytes) -> Frame:
    """One line (without its newline) as a frame; ProtocolError says why it is not one."""
    line = line.rstrip(b"\r")
    if not line.startswith(b"@"):
        raise ProtocolError("no frame start")
    body, sep, crc = line[1:].rpartition(b"#")
    if not sep or len(crc) != 8:
        raise ProtocolError("truncated frame (no checksum)")
    try:
        expected = int(crc, 16)
    except ValueError:
        raise ProtocolError("checksum is not hex") from None
    if binascii.crc32(body) != expected:
        raise ProtocolError("bad checksum")
    tokens = body.split(b" ")
    if len(tokens) < 2 or not all(_TOKEN.fullmatch(t) for t in tokens):
        raise ProtocolError("malformed frame body")
    try:
        seq = int(tokens[0])
    except ValueError:
        raise ProtocolError("sequence number is not a number") from None
    fields: dict[str, str] = {}
    for token in tokens[2:]:
        key, eq, value = token.decode("ascii").partition("=")
        if not eq:
            raise ProtocolError(f"field without value: {key!r}")
        fields[key] = value
    return Frame(seq % SEQ_MODULO, _message(tokens[1].decode("ascii"), fields))


class FrameDecoder:
    """Bytes in, frames out, in order; garbage, bad checksums and sequence gaps are counted and reported."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._expected: int | None = None
        self.frames = 0
        self.corrupt_frames = 0
        self.missing_frames = 0

    def reset(self) -> None:
        """Forget the partial line and the expected sequence number (after a reconnect)."""
        self._buffer.clear()
        self._expected = None

    def feed(self, data: bytes) -> list[Decoded]:
        self._buffer += data
        out: list[Decoded] = []
        *lines, rest = bytes(self._buffer).split(b"\n")
        self._buffer = bytearray(rest)
        if len(self._buffer) > MAX_LINE:
            lines.append(rest)
            self._buffer.clear()
        for line in lines:
            self._line(line, out)
        return out

    def _line(self, line: bytes, out: list[Decoded]) -> None:
        if not line.strip():
            return
        start = line.rfind(b"@")
        if start > 0:
            # Garbage glued to the front of a frame (e.g. the tail of a frame cut by a replug):
            # the garbage is one corrupt item, the frame after it may still be good.
            self._corrupt(line[:start], "garbage before frame start", out)
            line = line[start:]
        try:
            frame = parse_frame(line)
        except ProtocolError as error:
            self._corrupt(line, str(error), out)
            return
        if self._expected is not None and frame.seq != self._expected:
            rebooted = frame.seq == 0 and isinstance(frame.message, Hello)
            if not rebooted:
                gap = SequenceGap(self._expected, frame.seq)
                self.missing_frames += gap.missing
                out.append(gap)
        self._expected = (frame.seq + 1) % SEQ_MODULO
        self.frames += 1
        out.append(frame)

    def _corrupt(self, data: bytes, reason: str, out: list[Decoded]) -> None:
        self.corrupt_frames += 1
        out.append(CorruptFrame(data, reason))


class FrameEncoder:
    """Numbers frames as the firmware does: 0 for the boot hello, then one more per frame."""

    def __init__(self) -> None:
        self.seq = 0

    def encode(self, message: Message) -> bytes:
        frame = encode_frame(self.seq, message)
        self.seq = (self.seq + 1) % SEQ_MODULO
        return frame


HELLO_EVERY = 4
"""The firmware repeats its hello and self-test results every this many heartbeats."""


def node_frames(
    edges: Iterable[BeamEdge],
    beams: Sequence[str],
    *,
    heartbeat_ms: int = 500,
    firmware: str = "simulated",
    pinmap_crc: str = "00000000",
    self_test: Mapping[str, str] | None = None,
    initially_blocked: Iterable[str] = (),
    end_us: int | None = None,
) -> Iterator[tuple[int, bytes]]:
    """What a healthy node sends for these edges: (node time in us, frame bytes), in time order.

    Edge times are microseconds since the node started sensing. The node says
    hello and reports its self-test first, then sends a heartbeat at 0 and
    every `heartbeat_ms` until `end_us` (default: one period after the last
    edge), repeating its hello every `HELLO_EVERY` heartbeats; an edge at the
    same microsecond as a heartbeat comes first. This is the firmware's
    output frame for frame (the firmware tests compare them), and how the
    simulated horn plays edge trains through the node source.
    """
    encoder = FrameEncoder()
    results = dict(self_test or {})
    hello = Hello(firmware, PROTOCOL_VERSION, heartbeat_ms, tuple(beams), pinmap_crc)
    blocked = set(initially_blocked)
    period = heartbeat_ms * 1000
    beats = 0

    def beat() -> Iterator[tuple[int, bytes]]:
        nonlocal beats
        t_us = beats * period
        if beats % HELLO_EVERY == 0:
            yield t_us, encoder.encode(hello)
            for beam in beams:
                yield t_us, encoder.encode(SelfTest(beam, results.get(beam, "untested")))
        yield t_us, encoder.encode(Heartbeat(t_us, frozenset(blocked), 0, 0))
        beats += 1

    last = 0
    for edge in sorted(edges, key=lambda e: e.t_us):
        while beats * period < edge.t_us or beats == 0:
            yield from beat()
        if edge.blocked == (edge.beam in blocked):
            continue  # the firmware sends changes of state only
        if edge.blocked:
            blocked.add(edge.beam)
        else:
            blocked.discard(edge.beam)
        yield edge.t_us, encoder.encode(Edge(edge.beam, edge.blocked, edge.t_us))
        last = edge.t_us
    stop = end_us if end_us is not None else last + period
    while beats * period <= stop:
        yield from beat()


def render_node_output(
    edges: Iterable[BeamEdge],
    beams: Sequence[str],
    *,
    heartbeat_ms: int = 500,
    firmware: str = "simulated",
    pinmap_crc: str = "00000000",
    self_test: Mapping[str, str] | None = None,
    initially_blocked: Iterable[str] = (),
    end_us: int | None = None,
) -> bytes:
    """`node_frames` as one byte string, for a loop:// port or a pty."""
    frames = node_frames(
        edges,
        beams,
        heartbeat_ms=heartbeat_ms,
        firmware=firmware,
        pinmap_crc=pinmap_crc,
        self_test=self_test,
        initially_blocked=initially_blocked,
        end_us=end_us,
    )
    return b"".join(frame for _, frame in frames)
