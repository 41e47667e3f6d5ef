"""Joining the table: the address and QR codes (read back with OpenCV's QR decoder), mDNS, and the console."""

from __future__ import annotations

import http.client
import os
import re
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.cli import build_parser
from companion.table.referee import Referee
from companion.web import create_app, joining

from .conftest import TEST_CONFIG
from .test_serve import PATIENCE, free_port

SVG = "{http://www.w3.org/2000/svg}"


def decode(modules: list[list[bool]]) -> str:
    """Read a QR code's dark modules as a camera would: as pixels, through OpenCV's detector."""
    pixels = np.where(np.array(modules, dtype=bool), 0, 255).astype(np.uint8)
    image = cv2.resize(pixels, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    return str(text)


def svg_modules(svg: str) -> list[list[bool]]:
    """The dark modules of segno's SVG path: 'M x y' and 'm dx dy' move, 'h n' draws n dark modules."""
    root = ElementTree.fromstring(svg)
    (path,) = [path for path in root.iter(f"{SVG}path") if path.get("class") == "qrline"]
    size = int(root.attrib["width"]) // 8
    modules = [[False] * size for _ in range(size)]
    x = y = 0.0
    for command, first, second in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", path.attrib["d"]):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        else:
            for column in range(int(x), int(x) + int(first)):
                modules[int(y)][column] = True
            x += float(first)
    return modules


def terminal_modules(text: str) -> list[list[bool]]:
    """Two modules a character: a full block is two light ones (the terminal's dark background shows dark)."""
    halves = {"█": (False, False), " ": (True, True), "▀": (False, True), "▄": (True, False)}
    rows: list[list[bool]] = []
    for line in text.splitlines():
        pairs = [halves[char] for char in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows


def test_the_qr_codes_read_back_as_the_address() -> None:
    url = "http://192.168.1.20:8000/"
    assert decode(svg_modules(joining.qr_svg(url))) == url
    assert decode(terminal_modules(joining.qr_terminal(url))) == url


def test_the_join_endpoint_gives_the_address_phones_used_and_its_qr_code(client: FlaskClient) -> None:
    info = client.get("/api/join").get_json()
    assert info == {
        "url": "http://localhost/",
        "qr_svg": "/api/join/qr.svg",
        "mdns_name": "Minotaur Companion",
        "mdns_host": "minotaur-companion.local",
    }
    response = client.get("/api/join/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert decode(svg_modules(response.get_data(as_text=True))) == "http://localhost/"


def test_the_address_set_by_companion_run_wins(referee: Referee) -> None:
    app: Flask = create_app({**TEST_CONFIG, joining.PUBLIC_URL_KEY: "http://10.0.0.7:8000/"}, referee=referee)
    client = app.test_client()
    assert client.get("/api/join").get_json()["url"] == "http://10.0.0.7:8000/"
    assert (
        decode(svg_modules(client.get("/api/join/qr.svg").get_data(as_text=True))) == "http://10.0.0.7:8000/"
    )


def test_scoreboard_urls() -> None:
    assert joining.scoreboard_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert joining.scoreboard_url("::1", 8000) == "http://[::1]:8000/"
    assert joining.scoreboard_url("0.0.0.0", 80) == f"http://{joining.lan_address()}:80/"


def test_the_mdns_name_is_given_with_the_port() -> None:
    assert joining.mdns_url(8000) == "http://minotaur-companion.local:8000/"


def test_listening_everywhere_the_console_first_shows_an_address_a_phone_can_open(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_DB"}
    command = [
        sys.executable,
        "-m",
        "companion",
        "run",
        "--host",
        "0.0.0.0",
        "--no-mdns",
        "--port",
        str(port),
    ]
    process = subprocess.Popen(
        [*command, "--db", str(tmp_path / "t.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        first = console_until(process, "Scoreboard:")[-1]
        assert first == f"Scoreboard: {joining.scoreboard_url('0.0.0.0', port)}\n"
        assert "0.0.0.0" not in first
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(PATIENCE)


def test_the_mdns_record_names_the_scoreboard() -> None:
    info = joining.service_info(8000, "192.168.1.20")
    assert info.type == "_http._tcp.local."
    assert info.name == "Minotaur Companion._http._tcp.local."
    assert info.server == "minotaur-companion.local."
    assert info.port == 8000
    assert info.parsed_addresses() == ["192.168.1.20"]
    assert info.properties == {b"path": b"/"}


class FakeZeroconf:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls: list[tuple[str, Any]] = []

    def register_service(self, info: Any) -> None:
        self.calls.append(("register", info))
        if self.fail:
            raise OSError("no multicast here")

    def unregister_service(self, info: Any) -> None:
        self.calls.append(("unregister", info))

    def close(self) -> None:
        self.calls.append(("close", None))


def test_the_announcement_registers_and_withdraws_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(joining, "lan_address", lambda: "192.168.1.20")
    fake = FakeZeroconf()
    announcement = joining.announce(8000, make_registrar=lambda: fake)
    assert announcement is not None
    assert fake.calls == [("register", announcement.info)]
    assert announcement.info.port == 8000 and announcement.info.parsed_addresses() == ["192.168.1.20"]
    announcement.close()
    announcement.close()  # twice is harmless
    assert [name for name, _ in fake.calls] == ["register", "unregister", "close"]


def test_a_failed_announcement_is_no_reason_to_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(joining, "lan_address", lambda: "192.168.1.20")
    fake = FakeZeroconf(fail=True)
    assert joining.announce(8000, make_registrar=lambda: fake) is None
    assert [name for name, _ in fake.calls] == ["register", "close"]
    monkeypatch.setattr(joining, "lan_address", lambda: "raspberrypi")
    assert joining.announce(8000, make_registrar=lambda: FakeZeroconf()) is None


def test_run_takes_a_pin_and_can_keep_quiet_on_mdns(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["run", "--pin", "13579", "--no-mdns"])
    assert (args.pin, args.no_mdns) == ("13579", True)
    assert build_parser().parse_args(["run"]).pin is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--pin", "12ab"])
    assert "4 to 12 digits" in capsys.readouterr().err


def console_until(process: subprocess.Popen[str], last: str) -> list[str]:
    """The console's lines up to the one starting with `last` (read whole: a pipe holds several at once)."""
    assert process.stdout is not None
    lines: list[str] = []
    read = threading.Thread(target=lambda: lines.extend(takewhile_last(process.stdout, last)), daemon=True)
    read.start()
    read.join(PATIENCE)
    assert lines and lines[-1].startswith(last), f"companion run printed only {lines}"
    return lines


def takewhile_last(stream: Any, last: str) -> Iterator[str]:
    for line in stream:
        yield line
        if line.startswith(last):
            return


def test_companion_run_prints_the_pin_and_a_sign_in_link_that_works(tmp_path: Path) -> None:
    port = free_port()
    env = {key: value for key, value in os.environ.items() if key != "COMPANION_DB"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--port",
            str(port),
            "--pin",
            "8642",
            "--db",
            str(tmp_path / "t.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        lines = console_until(process, "Game record:")
        console = "".join(lines)
        assert "Table PIN for the host: 8642" in console
        link = re.search(r"host sign-in link: (\S+)", console)
        assert link is not None and link.group(1).startswith(f"http://127.0.0.1:{port}/host/sign-in?key=")
        qr_lines = [line for line in lines if set(line.rstrip("\n")) <= set("█▀▄ ") and line.strip()]
        assert len(qr_lines) > 20, "two QR codes are printed"
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PATIENCE)
        connection.request("GET", link.group(1).split(str(port), 1)[1])
        response = connection.getresponse()
        assert response.status == 303 and response.getheader("Location") == "/host"
        cookie = response.getheader("Set-Cookie", "").split(";")[0]
        response.read()
        connection.request("GET", "/api/host/session", headers={"Cookie": cookie})
        assert b'"host":true' in connection.getresponse().read()
        connection.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(PATIENCE)
