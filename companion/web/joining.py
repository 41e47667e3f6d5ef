"""Joining the table: the scoreboard's address, its QR code (drawn here, no outside service), and mDNS.

`companion run` prints the address and a terminal QR code, and announces the
table over mDNS as an `_http._tcp` service ("Minotaur Companion"), so phones
on the Wi-Fi find it by name. The page gets the same from GET /api/join and
GET /api/join/qr.svg.
"""

from __future__ import annotations

import io
import ipaddress
import logging
import socket
from collections.abc import Callable
from typing import Any, Protocol

import segno
from flask import Blueprint, Response, current_app, jsonify, request

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
SERVICE_NAME = "Minotaur Companion"
HOST_NAME = "minotaur-companion.local."
PUBLIC_URL_KEY = "PUBLIC_URL"
"""Config: the scoreboard's address as phones reach it (set by `companion run`); else the request's own."""


def lan_address() -> str:
    """The address this machine is reached at on its network (the hostname if there is none)."""
    # Connecting a UDP socket sends nothing; it only asks the kernel which address routes outwards.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))
            address: str = probe.getsockname()[0]
        except OSError:
            address = socket.gethostname()
    return address


def listens_everywhere(host: str) -> bool:
    return host in ("0.0.0.0", "::", "")


def scoreboard_url(host: str, port: int) -> str:
    """The address phones type or scan: the LAN address when listening on every interface."""
    shown = lan_address() if listens_everywhere(host) else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def mdns_url(port: int) -> str:
    """The scoreboard's address by the name the table announces over mDNS."""
    return f"http://{HOST_NAME[:-1]}:{port}/"


# ---------------------------------------------------------------- QR codes


def qr_svg(text: str) -> str:
    """A QR code of `text` as a standalone SVG document (dark modules on a light quiet zone)."""
    qr = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=8, border=4, dark="#000", light="#fff", title=text, xmldecl=False)
    width, height = qr.symbol_size(scale=8, border=4)
    # A viewBox as well as the size, so the page can scale the code to the phone's width.
    return out.getvalue().decode().replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)


def qr_terminal(text: str) -> str:
    """A QR code of `text` for the console, two modules a line (block characters)."""
    out = io.StringIO()
    segno.make(text, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


# ---------------------------------------------------------------- mDNS


class Registrar(Protocol):
    """The part of zeroconf.Zeroconf used here (tests pass a fake)."""

    def register_service(self, info: Any) -> None: ...

    def unregister_service(self, info: Any) -> None: ...

    def close(self) -> None: ...


def service_info(port: int, address: str, *, name: str = SERVICE_NAME, path: str = "/") -> Any:
    """The mDNS record of the scoreboard: `name` as an `_http._tcp` service at `address`:`port`."""
    from zeroconf import ServiceInfo

    return ServiceInfo(
        SERVICE_TYPE,
        f"{name}.{SERVICE_TYPE}",
        port=port,
        addresses=[ipaddress.ip_address(address).packed],
        properties={"path": path},
        server=HOST_NAME,
    )


def _real_zeroconf() -> Registrar:
    from zeroconf import Zeroconf

    zeroconf: Registrar = Zeroconf()
    return zeroconf


class Announcement:
    """The table announced over mDNS until `close()`; a failure to announce is logged, never fatal."""

    def __init__(
        self, port: int, address: str, *, make_registrar: Callable[[], Registrar] = _real_zeroconf
    ) -> None:
        self.info = service_info(port, address)
        self._registrar: Registrar | None = None
        try:
            registrar = make_registrar()
        except OSError as error:
            log.warning("cannot announce the table over mDNS: %s", error)
            return
        try:
            registrar.register_service(self.info)
        except Exception as error:  # zeroconf's own errors (a name taken, ...) derive from Exception only
            log.warning("cannot announce the table over mDNS: %s", error)
            registrar.close()
            return
        self._registrar = registrar

    @property
    def announced(self) -> bool:
        return self._registrar is not None

    def close(self) -> None:
        registrar, self._registrar = self._registrar, None
        if registrar is None:
            return
        try:
            registrar.unregister_service(self.info)
        finally:
            registrar.close()


def announce(port: int, *, make_registrar: Callable[[], Registrar] = _real_zeroconf) -> Announcement | None:
    """Announce the scoreboard at this machine's LAN address; None (and a warning) if that cannot be."""
    address = lan_address()
    try:
        ipaddress.ip_address(address)
    except ValueError:
        log.warning("not announcing the table over mDNS: this machine has no network address (%s)", address)
        return None
    announcement = Announcement(port, address, make_registrar=make_registrar)
    return announcement if announcement.announced else None


# ---------------------------------------------------------------- the endpoints

bp = Blueprint("joining", __name__, url_prefix="/api/join")


def public_url() -> str:
    configured = current_app.config.get(PUBLIC_URL_KEY)
    return str(configured) if configured else request.host_url


@bp.get("")
def join_info() -> Response:
    """Where phones find the scoreboard: its address, its QR code, and its mDNS name."""
    return jsonify(
        url=public_url(), qr_svg="/api/join/qr.svg", mdns_name=SERVICE_NAME, mdns_host=HOST_NAME[:-1]
    )


@bp.get("/qr.svg")
def join_qr() -> Response:
    response = Response(qr_svg(public_url()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
