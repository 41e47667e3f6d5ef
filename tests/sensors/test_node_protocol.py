"""The node's frame format: round trips, and the decoder against garbage, truncation, bad checksums, gaps."""

from __future__ import annotations

import binascii

import pytest

from companion.sensors.edges import BeamEdge
from companion.sensors.protocol import (
    HELLO_EVERY,
    MAX_LINE,
    SEQ_MODULO,
    CorruptFrame,
    Decoded,
    Edge,
    Frame,
    FrameDecoder,
    FrameEncoder,
    Heartbeat,
    Hello,
    Message,
    NodeError,
    ProtocolError,
    SelfTest,
    SequenceGap,
    encode_frame,
    node_frames,
    parse_frame,
    render_node_output,
)

BEAMS = ("left_base", "left_tip_a", "right_base")
MESSAGES: list[Message] = [
    Hello("1.0.0", 1, 500, BEAMS, "0badf00d"),
    SelfTest("left_tip_a", "stuck_clear"),
    Edge("left_base", True, 1_234_567_890_123),
    Edge("right_base", False, 0),
    Heartbeat(500_000, frozenset({"left_base", "right_base"}), 3, 1),
    Heartbeat(0, frozenset(), 0, 0),
    NodeError("OSError"),
]


def frames(decoded: list[Decoded]) -> list[Frame]:
    return [d for d in decoded if isinstance(d, Frame)]


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_survives_encoding(message: Message) -> None:
    line = encode_frame(41, message)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert parse_frame(line[:-1]) == Frame(41, message)


def test_the_checksum_covers_the_text_between_start_and_hash() -> None:
    line = encode_frame(7, Edge("left_tip_a", True, 99))
    body, crc = line[1:-1].split(b"#")
    assert body == b"7 E b=left_tip_a blocked=1 t=99"
    assert int(crc, 16) == binascii.crc32(body)


def test_values_that_would_break_a_frame_are_refused() -> None:
    with pytest.raises(ProtocolError, match="break the frame"):
        encode_frame(0, NodeError("two words"))
    with pytest.raises(ProtocolError):
        encode_frame(0, SelfTest("left#tip", "ok"))


def stream(*messages: Message) -> list[bytes]:
    encoder = FrameEncoder()
    return [encoder.encode(m) for m in messages]


def test_garbage_between_frames_is_counted_and_skipped() -> None:
    a, b, c = stream(*MESSAGES[2:5])
    decoder = FrameDecoder()
    out = decoder.feed(a + b"\x00\xff noise\n" + b"MPY: soft reboot\r\n" + b + b"\n\n" + c)
    assert [f.message for f in frames(out)] == MESSAGES[2:5]
    assert [type(d) for d in out] == [Frame, CorruptFrame, CorruptFrame, Frame, Frame]
    assert decoder.corrupt_frames == 2 and decoder.missing_frames == 0


def test_garbage_glued_to_a_frame_costs_the_garbage_only() -> None:
    a, b = stream(MESSAGES[2], MESSAGES[3])
    decoder = FrameDecoder()
    out = decoder.feed(a + b"\x13\x37garbage@@" + b)
    assert [f.message for f in frames(out)] == MESSAGES[2:4]
    assert decoder.corrupt_frames == 1


def test_a_truncated_frame_is_dropped_and_the_next_one_read() -> None:
    a, b, c = stream(*MESSAGES[2:5])
    decoder = FrameDecoder()
    out = decoder.feed(a + b[: len(b) // 2] + b"\n" + c)
    assert [f.message for f in frames(out)] == [MESSAGES[2], MESSAGES[4]]
    corrupt = [d for d in out if isinstance(d, CorruptFrame)]
    assert len(corrupt) == 1 and "truncated" in corrupt[0].reason
    gaps = [d for d in out if isinstance(d, SequenceGap)]
    assert [(g.expected, g.got, g.missing) for g in gaps] == [(1, 2, 1)]


def test_a_frame_cut_short_by_a_new_one_is_corrupt() -> None:
    a, b, c = stream(*MESSAGES[2:5])
    decoder = FrameDecoder()
    out = decoder.feed(a + b[:20] + c)  # no newline: the cut frame and the next share a line
    assert [f.message for f in frames(out)] == [MESSAGES[2], MESSAGES[4]]
    assert decoder.corrupt_frames == 1 and decoder.missing_frames == 1


@pytest.mark.parametrize("position", [1, 5, 12, -3])
def test_a_flipped_byte_fails_the_checksum(position: int) -> None:
    (line,) = stream(Edge("left_base", True, 123456))
    damaged = bytearray(line)
    damaged[position] ^= 0x04
    decoder = FrameDecoder()
    out = decoder.feed(bytes(damaged))
    assert out and all(isinstance(d, CorruptFrame) for d in out)
    assert decoder.frames == 0


def test_a_checksum_that_is_right_is_not_enough_for_nonsense() -> None:
    body = b"3 E b=left_base blocked=maybe t=5"
    line = b"@" + body + b"#%08x\n" % binascii.crc32(body)
    out = FrameDecoder().feed(line)
    assert isinstance(out[0], CorruptFrame) and "blocked" in out[0].reason


def test_sequence_gaps_count_the_frames_missing() -> None:
    lines = stream(*[Edge("left_base", i % 2 == 0, i) for i in range(10)])
    decoder = FrameDecoder()
    out = decoder.feed(b"".join(lines[:3] + lines[7:]))
    gaps = [d for d in out if isinstance(d, SequenceGap)]
    assert len(gaps) == 1 and gaps[0].missing == 4
    assert decoder.missing_frames == 4
    assert [f.message for f in frames(out)] == [Edge("left_base", i % 2 == 0, i) for i in (0, 1, 2, 7, 8, 9)]


def test_the_sequence_wraps_without_a_gap() -> None:
    decoder = FrameDecoder()
    out = decoder.feed(encode_frame(SEQ_MODULO - 1, MESSAGES[2]) + encode_frame(0, MESSAGES[3]))
    assert len(frames(out)) == 2 and decoder.missing_frames == 0


def test_a_boot_hello_restarts_the_sequence_without_a_gap() -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(500, MESSAGES[2]))
    out = decoder.feed(encode_frame(0, MESSAGES[0]) + encode_frame(1, MESSAGES[1]))
    assert len(frames(out)) == 2 and decoder.missing_frames == 0
    # ...but a frame numbered 0 that is not a hello is a jump like any other.
    out = decoder.feed(encode_frame(0, MESSAGES[2]))
    assert isinstance(out[0], SequenceGap)


def test_bytes_in_any_pieces_decode_the_same() -> None:
    data = b"".join(stream(*MESSAGES)) + b"junk\n" + b"".join(stream(*MESSAGES))
    whole = FrameDecoder().feed(data)
    decoder = FrameDecoder()
    pieces = [d for i in range(len(data)) for d in decoder.feed(data[i : i + 1])]
    assert pieces == whole


def test_endless_garbage_without_newlines_does_not_grow_the_buffer() -> None:
    decoder = FrameDecoder()
    for _ in range(100):
        decoder.feed(b"\xaa" * 1000)
    assert len(decoder._buffer) <= MAX_LINE
    assert decoder.corrupt_frames >= 100
    out = decoder.feed(b"\n" + b"".join(stream(MESSAGES[2])))
    assert frames(out)[0].message == MESSAGES[2]


def test_reset_forgets_partial_lines_and_the_sequence() -> None:
    decoder = FrameDecoder()
    decoder.feed(encode_frame(10, MESSAGES[2]) + b"@11 E b=le")
    decoder.reset()
    out = decoder.feed(encode_frame(900, MESSAGES[3]))
    assert [type(d) for d in out] == [Frame]


def test_node_frames_sends_changes_heartbeats_and_repeated_hellos() -> None:
    edges = [
        BeamEdge("left_tip_a", True, 100_000),
        BeamEdge("left_tip_a", False, 103_000),
        BeamEdge("left_base", True, 500_000),  # the same microsecond as heartbeat 1: the edge first
        BeamEdge("left_base", True, 600_000),  # not a change: not sent
    ]
    end = 2 * HELLO_EVERY * 500_000
    sent = list(node_frames(edges, BEAMS, heartbeat_ms=500, end_us=end))
    decoded = frames(FrameDecoder().feed(b"".join(f for _, f in sent)))
    assert [f.seq for f in decoded] == list(range(len(decoded)))
    kinds = "".join(f.message.kind for f in decoded)
    announce = "V" + "S" * len(BEAMS)
    between = "B" * (HELLO_EVERY - 2)
    assert kinds == announce + "BEEEB" + between + announce + "B" * HELLO_EVERY + announce + "B"
    beats = [f.message for f in decoded if isinstance(f.message, Heartbeat)]
    assert [b.t_us for b in beats] == [i * 500_000 for i in range(2 * HELLO_EVERY + 1)]
    assert beats[0].blocked == frozenset() and beats[1].blocked == {"left_base"}
    assert [t for t, _ in sent] == sorted(t for t, _ in sent)


def test_rendered_output_carries_the_edges_for_the_reader() -> None:
    edges = [BeamEdge("right_base", True, 7_000), BeamEdge("right_base", False, 9_500)]
    data = render_node_output(edges, BEAMS, self_test={"left_tip_a": "ok"}, initially_blocked=["left_base"])
    decoded = [f.message for f in frames(FrameDecoder().feed(data))]
    assert [m for m in decoded if isinstance(m, Edge)] == [
        Edge("right_base", True, 7_000),
        Edge("right_base", False, 9_500),
    ]
    assert SelfTest("left_tip_a", "ok") in decoded and SelfTest("left_base", "untested") in decoded
    first_beat = next(m for m in decoded if isinstance(m, Heartbeat))
    assert first_beat.blocked == {"left_base"}


def test_frames_ending_in_crlf_decode_too() -> None:
    # Text written through a cooked console gets "\r\n"; the firmware writes raw bytes, but be lenient.
    lines = stream(*MESSAGES)
    decoder = FrameDecoder()
    out = decoder.feed(b"".join(line.replace(b"\n", b"\r\n") for line in lines))
    assert [f.message for f in frames(out)] == MESSAGES and decoder.corrupt_frames == 0
