"""hardware/: the pin map is what the daemon reads, the drawings and the Pi's files agree with it."""

from __future__ import annotations

import argparse
import configparser
import json
import re
import runpy
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.sensors.judge import TossJudge
from companion.sensors.pinmap import PINMAP_ENV, PinMapError, default_pinmap_path, load_pinmap, parse_pinmap
from companion.table.cli import add_table_commands

ROOT = Path(__file__).resolve().parents[2]
HARDWARE = ROOT / "hardware"


def test_the_daemon_reads_the_committed_pin_map_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PINMAP_ENV, raising=False)
    parser = argparse.ArgumentParser()
    add_table_commands(parser.add_subparsers())
    assert parser.parse_args(["run"]).pinmap is None  # `companion run` falls back to the default path ...
    assert default_pinmap_path() == HARDWARE / "pinmap.json"  # ... which is the committed file
    raw = json.loads((HARDWARE / "pinmap.json").read_text())
    pinmap = load_pinmap()
    keys = ("name", "horn", "level", "pi_gpio", "node_gpio", "active_low")
    assert [tuple(getattr(b, k) for k in keys) for b in pinmap.beams] == [
        tuple(b[k] for k in keys) for b in raw["beams"]
    ]
    assert pinmap.usb_vid == int(raw["node"]["usb_vid"], 16)
    assert (pinmap.baud, pinmap.heartbeat_ms) == (raw["node"]["baud"], raw["node"]["heartbeat_ms"])
    assert (pinmap.emitters_pi_gpio, pinmap.emitters_node_gpio) == (
        raw["emitters"]["pi_gpio"],
        raw["emitters"]["node_gpio"],
    )


def test_the_pin_map_has_the_geometry_of_beams_md() -> None:
    pinmap = load_pinmap()
    assert pinmap.horns == ("left", "right")
    for horn in pinmap.horns:
        assert len(pinmap.base_beams(horn)) == 2 and len(pinmap.tip_beams(horn)) == 1
    TossJudge(pinmap)  # and the judge takes it


def test_the_pin_map_environment_variable_points_the_daemon_elsewhere(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    other = tmp_path / "pinmap.json"
    data = json.loads((HARDWARE / "pinmap.json").read_text())
    data["beams"] = data["beams"][:3]
    other.write_text(json.dumps(data))
    monkeypatch.setenv(PINMAP_ENV, str(other))
    assert load_pinmap().names == ("left_base_front", "left_base_back", "left_tip")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["beams"][1].update(pi_gpio=17), "share the pi_gpio 17"),
        (lambda d: d["beams"][0].update(level="middle"), "level must be one of base, tip"),
        (lambda d: d["beams"][0].pop("node_gpio"), "missing 'node_gpio'"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(beams=[b for b in d["beams"] if b["level"] == "tip"]), "has no base beam"),
    ],
)
def test_a_broken_pin_map_is_refused_with_a_clear_message(change: object, message: str) -> None:
    data = json.loads((HARDWARE / "pinmap.json").read_text())
    change(data)  # type: ignore[operator]
    with pytest.raises(PinMapError, match=re.escape(message)):
        parse_pinmap(data)


def test_the_committed_wiring_drawing_is_what_the_generator_makes_of_the_pin_map() -> None:
    wiring = runpy.run_path(str(HARDWARE / "wiring.py"))
    drawn = wiring["draw"](json.loads((HARDWARE / "pinmap.json").read_text()))
    assert (HARDWARE / "wiring.svg").read_text() == drawn, "run: python hardware/wiring.py"
    for beam in load_pinmap().beams:
        assert f"GPIO{beam.pi_gpio} " in drawn and f"GP{beam.node_gpio} " in drawn and beam.name in drawn


def test_the_systemd_unit_starts_the_console_script_with_arguments_it_takes() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(HARDWARE / "pi" / "minotaur-companion.service")
    command = shlex.split(unit["Service"]["ExecStart"])
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert Path(command[0]).name in scripts and scripts[Path(command[0]).name] == "companion.cli:main"
    args = build_parser().parse_args(command[1:])
    assert args.command == "run" and args.sensors in ("gpio", "node") and not args.simulate
    assert {"gpio", "dialout", "video"} <= set(unit["Service"]["SupplementaryGroups"].split())


def test_the_udev_rule_matches_the_nodes_usb_vendor_id() -> None:
    rule = (HARDWARE / "pi" / "99-minotaur-node.rules").read_text()
    vendor = re.search(r'ATTRS\{idVendor\}=="([0-9a-f]{4})"', rule)
    assert vendor is not None and int(vendor.group(1), 16) == load_pinmap().usb_vid


def test_the_hardware_readme_links_every_file_of_the_folder() -> None:
    readme = (HARDWARE / "README.md").read_text()
    for path in sorted(HARDWARE.rglob("*")):
        if path.is_file() and path.name != "README.md" and "__pycache__" not in path.parts:
            assert f"]({path.relative_to(HARDWARE).as_posix()})" in readme, path


@pytest.mark.skipif(
    shutil.which("openscad") is None, reason="OpenSCAD is not installed (apt install openscad)"
)
def test_the_collar_renders_to_one_printable_body(tmp_path: Path) -> None:
    # The right horn's collar is this one mirrored (mirror_for_right_horn=true).
    stl = tmp_path / "collar.stl"
    run = subprocess.run(
        [
            "openscad",
            "-o",
            str(stl),
            str(HARDWARE / "print" / "collar.scad"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    assert re.search(r"Volumes:\s+2\b", run.stderr), run.stderr  # the outside and one solid
    assert stl.stat().st_size > 10_000
