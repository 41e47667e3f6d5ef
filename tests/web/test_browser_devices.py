"""A device's trouble on a German phone: one line in German, not a list of every beam's state.

A real `companion run --sensors node` whose sensor node is not plugged in (a port that does not exist),
with a pin map of six beams: the sensors' status holds the six beams (all clear) and one fault. The
scoreboard at 375 px must show the sensors in one line, the fault in the phone's language, made by the
table in every language at once (companion/words.py); the expectation is read from the catalog.
"""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.device_words import beam_words
from companion.sensors.nodelink import not_connected
from companion.sensors.pinmap import parse_pinmap
from companion.words import texts_of

from .browser_fixtures import PHONE, PIN, HostClient, TableServer, browser, screenshot
from .test_i18n import german
from .test_serve import PATIENCE

__all__ = ["browser"]  # fixtures

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

SIX_BEAMS = {
    "version": 1,
    "beams": [
        {"name": "front", "horn": "both", "level": "base", "pi_gpio": 17, "node_gpio": 2},
        {"name": "back", "horn": "both", "level": "base", "pi_gpio": 27, "node_gpio": 3},
        {"name": "left_back_inner", "horn": "left", "level": "base", "pi_gpio": 22, "node_gpio": 4},
        {"name": "right_back_inner", "horn": "right", "level": "base", "pi_gpio": 19, "node_gpio": 8},
        {"name": "left_tip_a", "horn": "left", "level": "tip", "pi_gpio": 21, "node_gpio": 12},
        {"name": "right_tip_a", "horn": "right", "level": "tip", "pi_gpio": 25, "node_gpio": 14},
    ],
    "node": {"usb_vid": "0x2E8A", "baud": 115200, "heartbeat_ms": 500},
}


@pytest.fixture
def unplugged_node_table(tmp_path: Path, request: pytest.FixtureRequest) -> TableServer:
    pinmap = tmp_path / "pinmap.json"
    pinmap.write_text(json.dumps(SIX_BEAMS), encoding="utf-8")
    server = TableServer(
        tmp_path / "table.db",
        *("--sensors", "node", "--pinmap", str(pinmap), "--node-port", str(tmp_path / "no-ttyACM0")),
    )
    request.addfinalizer(server.stop)  # also when the start fails half-way
    server.start()
    return server


def sensors_status(server: TableServer) -> dict[str, Any]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=PATIENCE)
    try:
        connection.request("GET", "/api/state")
        view = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    status: dict[str, Any] = (view.get("table") or {}).get("status", {}).get("sensors", {})
    return status


def test_six_clear_beams_and_one_fault_are_one_german_line_at_375_px(
    browser: Any, unplugged_node_table: TableServer
) -> None:
    HostClient(unplugged_node_table).post(
        "/api/games", {"game": "minotaurus", "options": {"players": 3}, "names": ["Ann", "Bo", "Cy"]}
    )
    status = sensors_status(unplugged_node_table)
    assert [beam["state"] for beam in status["beams"]] == ["clear"] * 6, status
    assert status["faults"] == [not_connected()] and status["say"] == texts_of(not_connected())

    context = browser.new_context(**{**PHONE, "viewport": {"width": 375, "height": 740}}, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{unplugged_node_table.url}/")
        devices = page.locator("#devices")
        line = f"{german('Beams')}: {not_connected().texts['de']}"
        assert line != f"Beams: {not_connected()}", (
            "the catalog has no German for it: the test would prove nothing"
        )
        expect(devices).to_have_text(line)
        assert devices.inner_text().split("\n") == [line], "one line for the sensors, no list of beams"
        text = devices.inner_text()
        assert "clear" not in text and "frei" not in text and "_" not in text and "0x" not in text
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways at 375 px ({width} px)"
        screenshot(page, "devices-german-one-line")
    finally:
        context.close()


def test_the_host_unfolds_every_problem_and_each_beam_in_words(
    browser: Any, unplugged_node_table: TableServer
) -> None:
    pinmap = parse_pinmap(SIX_BEAMS)
    context = browser.new_context(**{**PHONE, "viewport": {"width": 375, "height": 740}}, locale="de-DE")
    try:
        page = context.new_page()
        page.goto(f"{unplugged_node_table.url}/host")
        page.fill("#pin", PIN)
        page.locator("#sign-in button").click()
        details = page.locator("#device-details")
        expect(details).to_be_visible()
        details.locator("summary").click()
        items = details.locator("li")
        expect(items).to_have_count(1 + 6)  # the node's one problem, the six beams
        expect(items.first).to_have_text(not_connected().texts["de"])
        for n, beam in enumerate(pinmap.beams):
            expect(items.nth(1 + n)).to_contain_text(f"{beam_words(pinmap, beam.name).texts['de']}: ")
        assert "_" not in details.inner_text()
        screenshot(page, "devices-host-details")
    finally:
        context.close()
