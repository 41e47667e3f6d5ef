"""The settings file: defaults, a flag overriding the file, clear errors, and the Pi's unit and example."""

from __future__ import annotations

import argparse
import configparser
import dataclasses
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.config import (
    CONFIG_ENV,
    DEFAULTS,
    ConfigError,
    Settings,
    config_path,
    load_settings,
    merge_into,
    parse_settings,
)

ROOT = Path(__file__).resolve().parent.parent
PI = ROOT / "hardware" / "pi"


def run_args(*flags: str) -> argparse.Namespace:
    return build_parser().parse_args(["run", *flags])


def test_no_file_means_every_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    assert config_path(None) is None
    assert load_settings(None) == Settings()
    args = run_args()
    merge_into(args, DEFAULTS)
    assert (args.host, args.port, args.pin, args.sensors) == ("127.0.0.1", 8000, None, None)
    assert args.camera is None and args.toss_camera is None
    assert (args.language, args.claim_minutes, args.db) == ("auto", 10.0, None)


def test_the_file_is_named_by_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "env.toml"))
    assert config_path(None) == tmp_path / "env.toml"
    assert config_path(tmp_path / "flag.toml") == tmp_path / "flag.toml"


def test_a_file_sets_what_it_names_and_a_flag_overrides_it(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(
        'pin = "0427"\ncamera = 0\nsensors = "node"\nhost = "0.0.0.0"\nport = 8080\nlanguage = "de"\n'
        f'database = "{tmp_path / "t.db"}"\nclaim_minutes = 0\n'
    )
    settings = load_settings(path)
    assert settings == Settings(
        pin="0427", camera="0", sensors="node", host="0.0.0.0", port=8080, language="de",
        database=tmp_path / "t.db", claim_minutes=0.0,
    )  # fmt: skip
    args = run_args("--port", "9000", "--pin", "13579", "--sensors", "gpio")
    merge_into(args, settings)
    assert (args.port, args.pin, args.sensors) == (9000, "13579", "gpio")
    assert (args.host, args.camera, args.language, args.db) == ("0.0.0.0", "0", "de", tmp_path / "t.db")


def test_none_turns_a_camera_and_the_sensors_off() -> None:
    settings = parse_settings({"camera": "none", "toss_camera": "none", "sensors": "none"})
    assert (settings.camera, settings.toss_camera, settings.sensors) == (None, None, "off")
    assert parse_settings({"camera": "picamera2"}).camera == "picamera2"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("pin = 1234", ["pin = 1234", "text in quotes"]),
        ('pin = "12a4"', ["pin", "4 to 12 digits"]),
        ('pin = "123"', ["pin", "4 to 12 digits"]),
        ("port = 70000", ["port = 70000", "0 to 65535"]),
        ('port = "8000"', ["port", "whole number"]),
        ('sensors = "usb"', ["sensors = 'usb'", "gpio, node, off, none"]),
        ('language = "fr"', ["language = 'fr'", "auto, de, en"]),
        ("claim_minutes = -1", ["claim_minutes", "0 to 1440"]),
        ("claim_minutes = true", ["claim_minutes", "a number"]),
        ('camera = "/no/such/video.mp4"', ["camera", "no such file", "picamera"]),
        ('host = ""', ["host", "text in quotes"]),
        ('pin = "1234"\nport = 8000\ncamra = "picamera"', ["unknown setting(s) camra", "known: pin"]),
        ("port = ", ["not valid TOML"]),
    ],
)
def test_a_wrong_setting_is_named_with_what_it_may_be(tmp_path: Path, text: str, names: list[str]) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError) as error:
        load_settings(path)
    assert str(path) in str(error.value)
    for name in names:
        assert name in str(error.value)


def test_a_named_file_that_is_missing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_settings(tmp_path / "missing.toml")


def test_companion_run_stops_on_a_wrong_setting_with_exit_code_2_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "companion.toml"
    path.write_text(f'sensors = "usb"\ndatabase = "{tmp_path / "t.db"}"\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith("COMPANION_")}
    done = subprocess.run(
        (sys.executable, "-m", "companion", "run", "--config", str(path), "--port", "0"),
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "sensors = 'usb'" in done.stderr and "gpio, node, off" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["companion.toml"]


def test_the_example_file_holds_every_setting_with_its_default_or_the_pis_choice() -> None:
    settings = load_settings(PI / "companion.toml")
    text = (PI / "companion.toml").read_text()
    for field in dataclasses.fields(Settings):
        assert f"\n{field.name} = " in text or f"\n# {field.name} = " in text, field.name
    # What the Pi needs differs from the defaults; everything else is the default, written out.
    assert (settings.host, settings.sensors) == ("0.0.0.0", "gpio")
    assert settings.database == Path("/var/lib/minotaur-companion/companion.db")
    assert dataclasses.replace(settings, host=DEFAULTS.host, sensors=None, database=None) == DEFAULTS


def test_the_systemd_unit_runs_with_the_settings_file_and_starts_what_it_names() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(PI / "minotaur-companion.service")
    service = unit["Service"]
    args = build_parser().parse_args(shlex.split(service["ExecStart"])[1:])
    assert args.config == Path("/etc/minotaur-companion/companion.toml")
    # Nothing the settings file says is fixed in the unit, so the file decides.
    assert (args.host, args.port, args.sensors, args.camera, args.pin) == (None, None, None, None, None)
    merge_into(args, load_settings(PI / "companion.toml"))
    assert (args.host, args.port, args.sensors) == ("0.0.0.0", 8000, "gpio")
    assert service["RestartPreventExitStatus"] == "2"
    assert Path(service["WorkingDirectory"]) == Path("/var/lib") / service["StateDirectory"]
    # A camera named in the file reaches start_camera as --camera would.
    again = build_parser().parse_args(shlex.split(service["ExecStart"])[1:])
    merge_into(again, parse_settings({"camera": "picamera", "toss_camera": 0}))
    assert (again.camera, again.toss_camera) == ("picamera", "0")
