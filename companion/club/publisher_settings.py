"""Where a table publishes on club nights, and with which key: `BrokerSettings`.

`mqtt://user:password@host:port` or `mqtts://host:port` (TLS), the club's id and the table's, and the
club's key as a broker account or a TLS client certificate (docs/club.md, "A table joins the club").
Settings that cannot work are refused naming what is wrong, before anything is opened.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from companion.club.messages import check_id

SCHEMES = {"mqtt": 1883, "mqtts": 8883}


class PublisherError(ValueError):
    """Broker settings that cannot work, named."""


@dataclasses.dataclass(frozen=True)
class BrokerSettings:
    """Where a table publishes, and the club's key: a broker account, or a TLS client certificate."""

    host: str
    club: str
    table: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    reconnect_max_seconds: int = 30
    """The longest wait between two connection attempts (paho doubles it from 1 s)."""

    def __post_init__(self) -> None:
        check_id(self.club, "club")
        check_id(self.table, "table")
        if not self.host:
            raise PublisherError("the broker's host is missing")
        if not 0 < self.port < 65536:
            raise PublisherError(f"the broker's port is 1 to 65535, not {self.port}")
        if (self.cert_file is None) != (self.key_file is None):
            raise PublisherError("a TLS client certificate needs both its cert and its key file")
        for path in (self.ca_file, self.cert_file, self.key_file):
            if path is not None and not path.is_file():
                raise PublisherError(f"the TLS file {path} does not exist")

    @classmethod
    def from_url(cls, url: str, *, club: str, table: str, **more: Any) -> BrokerSettings:
        """`mqtt://user:password@host:port` (mqtts:// for TLS); `more` sets the other fields."""
        parts = urlsplit(url)
        if parts.scheme not in SCHEMES:
            raise PublisherError(
                f"the broker {url!r} is no mqtt://host[:port] or mqtts://host[:port] address"
            )
        try:
            port = parts.port or SCHEMES[parts.scheme]
        except ValueError:
            raise PublisherError(f"the broker {url!r} has no valid port") from None
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise PublisherError(f"the broker {url!r} has a path or query: give only mqtt://host:port")
        found: dict[str, Any] = {
            "username": unquote(parts.username) if parts.username else None,
            "password": unquote(parts.password) if parts.password else None,
        }
        found.update({name: value for name, value in more.items() if value is not None})
        return cls(
            host=parts.hostname or "",
            club=club,
            table=table,
            port=port,
            tls=parts.scheme == "mqtts" or bool(more.get("tls")),
            **{name: value for name, value in found.items() if name != "tls"},
        )

    @property
    def client_id(self) -> str:
        return f"{self.club}-{self.table}"

    @property
    def destination(self) -> str:
        return f"{self.club}/{self.table}"
