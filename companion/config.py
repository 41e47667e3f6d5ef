"""The table's settings file (TOML): PIN, camera, sensors, address, language, game record, club.

`companion run --config FILE` (or $COMPANION_CONFIG) reads it; a setting left out keeps its default,
and a command-line flag overrides the file. hardware/pi/companion.toml is the commented example with
every setting and its default; the systemd unit reads /etc/minotaur-companion/companion.toml.

A bad file stops the start with a ConfigError naming the setting and what it may be, before anything
is opened or written.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

CONFIG_ENV = "COMPANION_CONFIG"
PIN_PATTERN = re.compile(r"[0-9]{4,12}")
CAMERAS = ("picamera", "picamera2", "pi")
SENSORS = {"gpio": "gpio", "node": "node", "off": "off", "none": "off"}
LANGUAGES = ("auto", "de", "en")
MAX_CLAIM_MINUTES = 24 * 60


class ConfigError(ValueError):
    """A settings file that cannot be read, or a setting it may not have."""


@dataclasses.dataclass(frozen=True)
class ClubSettings:
    """The [club] table: where the table publishes on club nights (docs/club.md); None is "not set"."""

    broker: str | None = None
    """mqtt://host[:port] or mqtts://host[:port] (TLS); a user and password may be in it."""
    club: str | None = None
    table: str | None = None
    """The club's id and this table's id in it: lower-case letters, digits and dashes."""
    username: str | None = None
    password: str | None = None
    """The club's key as a broker account; or `cert` and `key`, a TLS client certificate."""
    ca: Path | None = None
    cert: Path | None = None
    key: Path | None = None


@dataclasses.dataclass(frozen=True)
class Settings:
    """The table's settings; None is "not set": `companion run`'s own default applies."""

    pin: str | None = None
    """The host's table PIN (4 to 12 digits). None: a phone may claim the table in the first minutes."""
    claim_minutes: float = 10.0
    """How long after the start a phone may claim a table that has no PIN yet (0: never)."""
    camera: str | None = None
    """The camera over the play area: picamera, a webcam number, /dev/videoN, a video or a recording."""
    toss_camera: str | None = None
    """The camera that checks each toss verdict at the horn figure (the same kinds)."""
    sensors: str | None = None
    """Where the ring-toss beams are read: gpio, node or off (None: gpio with --simulate, else off)."""
    node_port: str | None = None
    """The sensor node's serial port (None: found by its USB id)."""
    host: str = "127.0.0.1"
    port: int = 8000
    language: str = "auto"
    """The pages' language for phones that ask for neither: de, en, or auto (the phone's own choice)."""
    database: Path | None = None
    """The game record (None: $COMPANION_DB or ./var/companion.db)."""
    club: ClubSettings | None = None
    """The club's broker, for club nights (None: the table plays alone)."""


DEFAULTS = Settings()


def config_path(given: Path | None) -> Path | None:
    """The settings file to read: `given` (--config), else $COMPANION_CONFIG, else none."""
    if given is not None:
        return given
    from_env = os.environ.get(CONFIG_ENV)
    return Path(from_env) if from_env else None


def load_settings(path: Path | None) -> Settings:
    """The settings in `path` (the defaults when None)."""
    if path is None:
        return DEFAULTS
    try:
        with path.open("rb") as source:
            data = tomllib.load(source)
    except FileNotFoundError:
        raise ConfigError(
            f"the settings file {path} does not exist (hardware/pi/companion.toml is an example to copy)"
        ) from None
    except OSError as error:
        raise ConfigError(f"cannot read the settings file {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"the settings file {path} is not valid TOML: {error}") from None
    return parse_settings(data, str(path))


def parse_settings(data: Mapping[str, Any], source: str = "the settings") -> Settings:
    """Settings from a parsed TOML table; ConfigError names the first setting that is wrong."""
    unknown = _unknown_names(data, Settings)
    if unknown:
        raise ConfigError(f"{source}: unknown setting(s) {unknown}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        try:
            values[name] = _CHECKS[name](value)
        except (TypeError, ValueError) as error:
            shown = "[club]" if name == "club" else f"{name} = {value!r}"  # the club's key stays unprinted
            raise ConfigError(f"{source}: {shown}: {error}") from None
    return Settings(**values)


def _pin(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError('the PIN is text in quotes (a leading 0 counts), e.g. pin = "0427"')
    if not PIN_PATTERN.fullmatch(value):
        raise ValueError("the PIN is 4 to 12 digits")
    return value


def _minutes(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"minutes are a number from 0 to {MAX_CLAIM_MINUTES}")
    if not 0 <= value <= MAX_CLAIM_MINUTES:
        raise ValueError(f"minutes are a number from 0 to {MAX_CLAIM_MINUTES} (0: never)")
    return float(value)


def _camera(value: Any) -> str | None:
    allowed = "none, picamera, a webcam number (0), /dev/videoN, a video file or a recording folder"
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return str(value)
    if not isinstance(value, str) or not value.strip():
        raise TypeError(f"a camera is {allowed}")
    text = value.strip()
    if text == "none":
        return None
    if text in CAMERAS or text.isdigit() or text.startswith("/dev/") or Path(text).exists():
        return text
    raise ValueError(f"no such file or folder; a camera is {allowed}")


def _sensors(value: Any) -> str:
    if value not in SENSORS:
        raise ValueError(f"sensors are one of {', '.join(SENSORS)}")
    return SENSORS[value]


def _text(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TypeError("expected text in quotes")
    return value.strip()


def _port(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 65535:
        raise ValueError("a port is a whole number from 0 to 65535")
    return value


def _language(value: Any) -> str:
    if value not in LANGUAGES:
        raise ValueError(f"the language is one of {', '.join(LANGUAGES)}")
    return str(value)


def _database(value: Any) -> Path:
    return Path(_text(value))


def _unknown_names(data: Mapping[str, Any], kind: type) -> str | None:
    """The names in `data` the dataclass `kind` has no field for, and the ones it has; None: all known."""
    allowed = [field.name for field in dataclasses.fields(kind)]
    unknown = sorted(set(data) - set(allowed))
    return f"{', '.join(unknown)}; known: {', '.join(allowed)}" if unknown else None


def _club(value: Any) -> ClubSettings:
    if not isinstance(value, dict):
        names = ", ".join(field.name for field in dataclasses.fields(ClubSettings))
        raise TypeError(f"[club] is a table of {names}")
    unknown = _unknown_names(value, ClubSettings)
    if unknown:
        raise ValueError(f"unknown key(s) {unknown}")
    checked: dict[str, Any] = {}
    for name, given in value.items():
        try:
            checked[name] = Path(_text(given)) if name in ("ca", "cert", "key") else _text(given)
        except TypeError:
            raise TypeError(f"{name} is text in quotes") from None
    broker = checked.get("broker")
    if broker is not None and not broker.startswith(("mqtt://", "mqtts://")):
        raise ValueError("broker is an address mqtt://host:port or mqtts://host:port")
    return ClubSettings(**checked)


_CHECKS: dict[str, Callable[[Any], Any]] = {
    "pin": _pin,
    "claim_minutes": _minutes,
    "camera": _camera,
    "toss_camera": _camera,
    "sensors": _sensors,
    "node_port": _text,
    "host": _text,
    "port": _port,
    "language": _language,
    "database": _database,
    "club": _club,
}

OPTION_OF = {"database": "db", "club": "club_settings"}
"""The setting's `companion run` option where its name differs."""


def merge_into(args: argparse.Namespace, settings: Settings) -> None:
    """Fill each option the command line left unset (None) from `settings`: a flag beats the file."""
    for field in dataclasses.fields(Settings):
        option = OPTION_OF.get(field.name, field.name)
        if getattr(args, option, None) is None:
            setattr(args, option, getattr(settings, field.name))
