"""The sensor node firmware, compiled with mpy-cross and run in the real MicroPython under Node.

The fake machine (firmware/tests/fakes) plays edge trains into the pins'
interrupts at their exact microsecond, with the heap locked as in a hard
interrupt on the Pico; the firmware's serial output is checked byte for byte.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from companion.sensors.edges import BeamEdge
from companion.sensors.nodelink import NodeFault, NodeLink, pinmap_crc
from companion.sensors.pinmap import PinMap, load_pinmap
from companion.sensors.protocol import (
    CorruptFrame,
    Edge,
    Frame,
    FrameDecoder,
    Heartbeat,
    Hello,
    NodeError,
    SelfTest,
    render_node_output,
)
from companion.sim.ringtoss.tosses import PhysicalToss

from .node_fake_pico import FakePico
from .node_fixtures import FIRMWARE, PINMAP_FILE, deploy_tool, flash, flash_with_pinmap, run_firmware
from .physical import physical_tosses, toss_of_kind

__all__ = ["flash"]

TICKS_PERIOD = 1 << 30
FIRMWARE_VERSION = "1.0.0"
LEFT_TIP, RIGHT_TIP = (load_pinmap(PINMAP_FILE).tip_beams(horn)[0] for horn in ("left", "right"))
"""A tip beam of each horn (any beam would do; these are the ones a hanging ring blocks)."""


def scenario(edges: list[BeamEdge], end_us: int, **extra: Any) -> dict[str, Any]:
    return {"edges": [[e.t_us, e.beam, e.blocked] for e in edges], "end_us": end_us, **extra}


def decode(serial: bytes) -> list[Frame]:
    out = FrameDecoder().feed(serial)
    assert not [d for d in out if not isinstance(d, Frame)], out
    return [d for d in out if isinstance(d, Frame)]


def toss_train(tosses: list[PhysicalToss]) -> tuple[list[BeamEdge], int]:
    """Physically simulated tosses one after another, the figure cleared after each."""
    edges: list[BeamEdge] = []
    t = 100_000
    for toss in tosses:
        train = toss.edges(offset_us=t)
        edges += train
        t = max(e.t_us for e in train) + 200_000
        last = {e.beam: e.blocked for e in train}
        edges += [BeamEdge(beam, False, t) for beam, blocked in last.items() if blocked]
        t += 700_000
    return edges, t


# ---------------------------------------------------------------- compiled as deployed


@pytest.mark.parametrize("source", deploy_tool().sources(), ids=lambda p: p.name)
def test_every_firmware_file_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    deploy_tool().compile_module(source, out)
    assert out.read_bytes()[:1] == b"M"  # the .mpy header


def test_a_compile_error_fails_the_build(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def handler(pin):\n    return (pin\n")
    tool = deploy_tool()
    with pytest.raises(tool.FirmwareBuildError, match=r"broken\.py"):
        tool.compile_module(broken, tmp_path / "broken.mpy")


def test_the_build_holds_what_the_pico_runs(flash: Path) -> None:
    names = sorted(p.name for p in flash.iterdir())
    modules = sorted(p.stem + ".mpy" for p in FIRMWARE.glob("*.py") if p.name != "main.py")
    assert names == sorted([*modules, "main.py", "pinmap.json"])
    assert (flash / "pinmap.json").read_bytes() == PINMAP_FILE.read_bytes()  # the daemon's own file


def test_deploying_copies_the_build_and_drops_stale_sources(flash: Path) -> None:
    tool = deploy_tool()
    files = sorted(flash.iterdir())
    command = tool.mpremote_command("/dev/ttyACM0", files)
    assert command[1:5] == ["-m", "mpremote", "connect", "/dev/ttyACM0"]
    copies = [command[i + 1 : i + 3] for i, word in enumerate(command) if word == "cp"]
    assert copies == [[str(f), f":{f.name}"] for f in files]
    cleanup = command[command.index("exec") + 1]
    assert "'sensornode.py'" in cleanup and "'main.py'" not in cleanup
    assert command[-1] == "reset"


# ---------------------------------------------------------------- running


@pytest.fixture
def pinmap_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PINMAP_FILE.read_text())
    return data


@pytest.fixture(scope="module")
def train() -> tuple[list[BeamEdge], int]:
    kinds = list(dict.fromkeys(t.kind for t in physical_tosses()))  # one toss of every kind there is
    assert {"clean_ringer", "bounce_off"} <= set(kinds)
    tosses = [toss_of_kind(kind) for kind in kinds]
    tosses.append(max(physical_tosses(), key=lambda t: len(t.changes)))  # the busiest: a long rattle
    tosses += [t for t in physical_tosses() if t.glitches][:2]  # receiver glitches under a millisecond
    edges, end = toss_train(tosses)
    assert {e.beam for e in edges} >= {"knock", "front", "back"}  # the ring struck, crossed shared beams
    assert any(load_pinmap(PINMAP_FILE).beam(e.beam).level == "tip" for e in edges)  # and passed a tip
    return edges, end


@pytest.fixture(scope="module")
def pinmap() -> PinMap:
    return load_pinmap(PINMAP_FILE)


def test_the_firmware_sends_exactly_what_the_protocol_says(
    pinmap: PinMap, train: tuple[list[BeamEdge], int], flash: Path, tmp_path: Path
) -> None:
    edges, end = train
    # Start 2 s before ticks_us wraps (every 2**30 us): times must run on across the wrap.
    run = run_firmware(flash, scenario(edges, end, start_ticks=TICKS_PERIOD - 2_000_000), tmp_path)
    assert run.report["outcome"] == "train done"
    assert run.report["errors"] == []
    expected = render_node_output(
        edges,
        pinmap.names,
        firmware=FIRMWARE_VERSION,
        pinmap_crc=pinmap_crc(PINMAP_FILE),
        self_test={name: "untested" if name == "knock" else "ok" for name in pinmap.names},
        end_us=end,
    )
    assert run.serial.decode().splitlines() == expected.decode().splitlines()
    sent = [f.message for f in decode(run.serial) if isinstance(f.message, Edge)]
    assert [(e.beam, e.blocked, e.t_us) for e in sent] == [(e.beam, e.blocked, e.t_us) for e in edges]
    assert any(e.t_us > 2_000_000 for e in sent)


def test_interrupt_handlers_only_record_and_never_allocate(
    train: tuple[list[BeamEdge], int], flash: Path, tmp_path: Path
) -> None:
    edges, end = train
    report = run_firmware(flash, scenario(edges, end), tmp_path).report
    assert report["hard_irqs"] is True
    assert report["irq_calls"] == len(edges) == report["edges_played"]
    assert report["errors"] == []


def test_the_bench_catches_a_handler_that_allocates(
    pinmap_data: dict[str, Any], flash: Path, tmp_path: Path
) -> None:
    del pinmap_data["emitters"]  # the probe powers no emitters: without the switch, the beams are lit
    probe = flash_with_pinmap(flash, pinmap_data, tmp_path / "flash")
    (probe / "probe.py").write_text(
        "import time\n"
        "from machine import Pin\n"
        "seen = []\n"
        "Pin(10, Pin.IN, Pin.PULL_UP).irq(lambda pin: seen.append([pin.value()]), hard=True)\n"
        "while True:\n"
        "    time.sleep_ms(1)\n"
    )
    beam = next(b["name"] for b in pinmap_data["beams"] if b["node_gpio"] == 10)
    edges = [BeamEdge(beam, True, 5_000), BeamEdge(beam, False, 9_000)]
    report = run_firmware(probe, scenario(edges, 20_000, entry="probe"), tmp_path / "run").report
    assert report["irq_calls"] == 2
    assert len(report["errors"]) == 2 and all("MemoryError" in e for e in report["errors"])


def test_the_firmware_wires_the_pins_of_the_daemons_pin_map(
    pinmap: PinMap, flash: Path, tmp_path: Path
) -> None:
    run = run_firmware(flash, scenario([], 1_000), tmp_path)
    hello = next(f.message for f in decode(run.serial) if isinstance(f.message, Hello))
    assert hello.beams == pinmap.names  # the daemon's loader and the firmware read one file alike
    assert hello.pinmap_crc == pinmap_crc(PINMAP_FILE)
    assert hello.heartbeat_ms == pinmap.heartbeat_ms
    pins = run.report["pins"]
    for beam in pinmap.beams:
        pin = pins[str(beam.node_gpio)]
        assert (pin["mode"], pin["pull"], pin["irq"], pin["trigger"]) == (0, 1, True, 4 | 8), beam.name
    assert pinmap.emitters_node_gpio is not None
    assert pins[str(pinmap.emitters_node_gpio)]["mode"] == 1
    assert set(pins) == {str(b.node_gpio) for b in pinmap.beams} | {str(pinmap.emitters_node_gpio)}


def self_test_results(run_serial: bytes) -> dict[str, str]:
    return {f.message.beam: f.message.result for f in decode(run_serial) if isinstance(f.message, SelfTest)}


def test_the_self_test_finds_an_unplugged_receiver_and_a_dead_emitter(
    pinmap: PinMap, flash: Path, tmp_path: Path
) -> None:
    faults = {LEFT_TIP: "unplugged", "right_front_outer": "dead_emitter"}
    run = run_firmware(flash, scenario([], 1_000, faults=faults, initially_blocked=["back"]), tmp_path)
    expected = dict.fromkeys(pinmap.names, "ok")
    expected.update({LEFT_TIP: "stuck_clear", "right_front_outer": "blocked", "back": "blocked"})
    expected["knock"] = "untested"
    assert self_test_results(run.serial) == expected

    reported: list[NodeFault] = []
    link = NodeLink(pinmap, on_edge=lambda e: None, on_fault=reported.append)
    link.connected("pty", 0)
    link.received(run.serial, 0)
    assert [f.kind for f in reported] == ["self_test"] * 3
    assert not link.status().ok


def test_without_an_emitter_switch_the_self_test_checks_for_clear_beams(
    pinmap_data: dict[str, Any], flash: Path, tmp_path: Path
) -> None:
    del pinmap_data["emitters"]
    plain = flash_with_pinmap(flash, pinmap_data, tmp_path / "flash")
    run = run_firmware(plain, scenario([], 1_000, initially_blocked=[RIGHT_TIP]), tmp_path / "run")
    results = self_test_results(run.serial)
    assert results.pop(RIGHT_TIP) == "blocked"
    assert set(results.values()) == {"untested"}
    beats = [f.message for f in decode(run.serial) if isinstance(f.message, Heartbeat)]
    assert beats[0].blocked == {RIGHT_TIP}


@pytest.mark.parametrize("switch", [True, False], ids=["emitter switch", "no emitter switch"])
@pytest.mark.parametrize("pulsing", [False, True], ids=["quiet", "knocked at boot"])
def test_the_knock_sensor_has_no_light_to_test_and_is_untested_never_a_fault(
    pinmap: PinMap, pinmap_data: dict[str, Any], flash: Path, tmp_path: Path, switch: bool, pulsing: bool
) -> None:
    # The piezo's comparator ignores the emitters: in the dark it still reads clear, which in a
    # receiver means unplugged ("stuck_clear"); a knock at boot would read "blocked".
    knock = [b.name for b in pinmap.beams if b.level == "knock"]
    assert knock == ["knock"]
    if not switch:
        del pinmap_data["emitters"]
    board = flash_with_pinmap(flash, pinmap_data, tmp_path / "flash")
    run = run_firmware(
        board, scenario([], 1_000, initially_blocked=knock if pulsing else []), tmp_path / "run"
    )
    results = self_test_results(run.serial)
    assert results.pop("knock") == "untested"
    assert set(results.values()) == ({"ok"} if switch else {"untested"})  # the beams are tested as before

    reported: list[NodeFault] = []
    link = NodeLink(pinmap, on_edge=lambda e: None, on_fault=reported.append, expected_pinmap_crc=None)
    link.connected("pty", 0)
    link.received(run.serial, 0)
    assert link.self_test["knock"] == "untested"
    assert reported == [] and link.status().ok, link.status().faults


def test_a_pulse_shorter_than_the_interrupt_latency_is_counted_not_sent(flash: Path, tmp_path: Path) -> None:
    spurious = [[200_000, LEFT_TIP], [300_000, LEFT_TIP]]
    run = run_firmware(flash, scenario([], 500_000, spurious=spurious), tmp_path)
    frames = [f.message for f in decode(run.serial)]
    assert not [m for m in frames if isinstance(m, Edge)]
    beats = [m for m in frames if isinstance(m, Heartbeat)]
    assert [b.glitches for b in beats] == [0, 2]


def test_a_burst_beyond_the_buffer_is_reported_and_the_node_carries_on(
    pinmap: PinMap, flash: Path, tmp_path: Path
) -> None:
    # 300 edges in 0.9 ms, ending clear: the buffer (128) keeps the first ones, ending blocked.
    burst = [BeamEdge(LEFT_TIP, i % 2 == 0, 100_100 + 3 * i) for i in range(300)]
    later = [BeamEdge(LEFT_TIP, True, 700_000), BeamEdge(LEFT_TIP, False, 704_000)]
    run = run_firmware(flash, scenario(burst + later, 1_000_000), tmp_path)
    beats = [f.message for f in decode(run.serial) if isinstance(f.message, Heartbeat)]
    assert beats[0].overflows == 0 and beats[1].overflows > 0
    assert beats[1].blocked == frozenset()  # the pins' truth, not the last edge that fitted
    reported: list[NodeFault] = []
    edges: list[BeamEdge] = []
    link = NodeLink(pinmap, on_edge=edges.append, on_fault=reported.append)
    link.connected("pty", 0)
    link.received(run.serial, 0)
    assert [f.kind for f in reported] == ["overflow"]
    assert edges[-2:] == [BeamEdge(e.beam, e.blocked, e.t_us, "node") for e in later]  # not taken for repeats
    assert link.states[LEFT_TIP] is False
    assert link.status().ok  # the heartbeat resynced the beams: the next toss can be judged


def test_a_node_without_its_pin_map_says_why_and_resets(flash: Path, tmp_path: Path) -> None:
    broken = flash_with_pinmap(flash, {}, tmp_path / "flash")
    (broken / "pinmap.json").unlink()
    run = run_firmware(broken, scenario([], 1_000), tmp_path / "run")
    assert run.report["outcome"] == "reset" and run.report["resets"] == 1
    frames = FrameDecoder().feed(run.serial)
    assert not any(isinstance(f, CorruptFrame) for f in frames)
    errors = [f.message for f in frames if isinstance(f, Frame)]
    assert errors and all(m == NodeError("OSError") for m in errors)


def test_make_deploy_firmware_puts_the_build_on_a_pico(flash: Path) -> None:
    pico = FakePico()
    try:
        pico.run("f = open('sensornode.py', 'w')\nf.write('# an old copy\\n')\nf.close()")
        files = sorted(flash.iterdir())
        result = subprocess.run(
            deploy_tool().mpremote_command(pico.port, files), capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stdout + result.stderr
        for f in files:
            assert pico.read_file(f.name) == f.read_bytes(), f.name
        assert pico.read_file("sensornode.py") is None  # the stale source would shadow the .mpy
        out, _ = pico.run("from bench import bench\nprint(bench.resets)")
        assert out.strip() == b"1"  # reset at the end, so the new main.py runs
    finally:
        pico.close()
