"""Phones in a real browser against a real `companion run`: Debian's chromium driven by Playwright.

Never a downloaded browser: /usr/bin/chromium comes from Debian (`make test` installs it when
missing). Every payload the pages fetch is recorded inside the page (an init script tees each
fetch response, the live event stream included) so a test can search all of them for hidden
information. Screenshots go to test-artifacts/browser/ (gitignored).
"""

from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .test_serve import PATIENCE, free_port, read_line

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PIN = "2468"

RECORD_PAYLOADS = """
(() => {
  window.__payloads = [];
  const original = window.fetch;
  window.fetch = async (...args) => {
    const response = await original(...args);
    const url = response.url;
    if (!response.body) return response;
    const [mine, theirs] = response.body.tee();
    (async () => {
      const reader = mine.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        let chunk;
        try { chunk = await reader.read(); } catch (error) { return; }
        if (chunk.done) return;
        window.__payloads.push({ url, text: decoder.decode(chunk.value, { stream: true }) });
      }
    })();
    return new Response(theirs, { status: response.status, statusText: response.statusText,
      headers: response.headers });
  };
})();
"""


def launch_browser() -> Any:
    """A started Playwright and its chromium; skipped (failed under CI) when Debian's chromium is missing."""
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} is missing: `make browser` installs Debian's chromium"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
    return playwright, browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    playwright, started = launch_browser()
    try:
        yield started
    finally:
        started.close()
        playwright.stop()


class TableServer:
    """`companion run` in a subprocess on a free port with a known PIN; restartable on the same record."""

    def __init__(self, db: Path, *options: str) -> None:
        self.db = db
        self.options = options
        self.port = free_port()
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {key: value for key, value in os.environ.items() if key != "COMPANION_DB"}
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "companion", "run", "--port", str(self.port)),
                *("--pin", PIN, "--db", str(self.db), "--no-mdns", *self.options),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        while not read_line(self.process).startswith("Scoreboard:"):
            pass

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(PATIENCE)
        self.process = None


CAMERA_RECORDING = Path(__file__).resolve().parents[1] / "vision" / "data" / "minotaurus"
"""A recorded five-player Minotaurus session, played as the table's camera."""


@pytest.fixture
def camera_table(tmp_path: Path) -> Iterator[TableServer]:
    """A simulated five-player Minotaurus table whose camera is CAMERA_RECORDING."""
    server = TableServer(
        tmp_path / "table.db",
        *("--simulate", "--game", "minotaurus", "--players", "5", "--delay", "1000"),
        *("--camera", str(CAMERA_RECORDING)),
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def host_signs_in_from(page: Any, server: TableServer, path: str) -> None:
    """The host opens one of the host's pages without the PIN, is asked for it in words, and signs in on the
    host page."""
    from playwright.sync_api import expect

    page.goto(f"{server.url}{path}")
    expect(page.locator("#message")).to_contain_text("sign in with the table PIN first")
    page.goto(f"{server.url}/host")
    page.fill("#pin", PIN)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#controls")).to_be_visible()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableServer]:
    server = TableServer(tmp_path / "table.db")
    server.start()
    try:
        yield server
    finally:
        server.stop()


class HostClient:
    """The host's requests without a browser (signed in with the PIN; the CSRF token on every POST)."""

    def __init__(self, server: TableServer) -> None:
        self.server = server
        status, reply, headers = self._request("POST", "/api/host/sign-in", {"pin": PIN})
        assert status == 200, reply
        self.cookie = headers["Set-Cookie"].split(";", 1)[0]
        self.csrf = reply["csrf_token"]

    def _request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=PATIENCE)
        try:
            connection.request(
                method,
                path,
                body=None if body is None else json.dumps(body),
                headers={"Content-Type": "application/json", **(headers or {})},
            )
            response = connection.getresponse()
            return response.status, json.loads(response.read()), dict(response.getheaders())
        finally:
            connection.close()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        status, reply, _ = self._request(
            "POST", path, body, {"Cookie": self.cookie, "X-CSRF-Token": self.csrf}
        )
        assert status in (200, 201), reply
        return reply

    def get(self, path: str) -> dict[str, Any]:
        status, reply, _ = self._request("GET", path, headers={"Cookie": self.cookie})
        assert status == 200, reply
        return reply


def phone(browser: Any, *, dark: bool = False) -> Any:
    """A new phone (its own cookies) whose pages record every payload they fetch."""
    context = browser.new_context(**PHONE, color_scheme="dark" if dark else "light")
    context.add_init_script(RECORD_PAYLOADS)
    return context


def payloads(page: Any) -> list[dict[str, str]]:
    """Every chunk of every response the page's scripts fetched so far, in order of arrival."""
    chunks: list[dict[str, str]] = page.evaluate("window.__payloads")
    return chunks


def screenshot(page: Any, name: str, *, whole_page: bool = True) -> Path:
    """The page as the phone shows it (`whole_page=False`: the screen as it is scrolled now)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    if whole_page:
        page.evaluate("window.scrollTo(0, 0)")  # else the sticky bar is drawn where the page was scrolled to
    page.screenshot(path=str(path), full_page=whole_page)
    return path
