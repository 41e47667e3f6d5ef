"""The camera's setup page on the host's phone, in Debian's chromium against a real `companion run`
whose camera is a recorded five-player Minotaurus session: the picture with the overlay, the four
markers found, the light and the detail the camera sees, a marker off said in words, all on a
phone's width."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from .browser_fixtures import TableServer, browser, camera_table, host_signs_in_from, phone, screenshot

__all__ = ["browser", "camera_table"]  # fixtures

expect.set_options(timeout=15_000)  # a hang guard, not a speed limit

PHONE_WIDTH = 360
DETAIL = r"Detail: (\d\.\d+) mm of table per camera pixel where coarsest\.$"
MARKERS = ["top-left", "top-right", "bottom-right", "bottom-left"]


def test_the_host_sees_the_camera_picture_markers_and_detail_on_a_phone(
    browser: Any, camera_table: TableServer
) -> None:
    server = camera_table
    context = phone(browser)
    try:
        page = context.new_page()
        host_signs_in_from(page, server, "/setup")

        # The page opens on the game being played, with its options: the recording's five players' matrix.
        page.goto(f"{server.url}/setup")
        expect(page.locator("#game")).to_have_value("minotaurus")
        expect(page.locator("#options")).to_have_value(re.compile(r'"players":5'))
        expect(page.locator("#markers .found")).to_have_count(4)
        assert page.locator("#markers span").all_text_contents() == [f"✓ {name}" for name in MARKERS]
        expect(page.locator("#all-well")).to_be_visible()
        # The detail line: the recording's camera poses see this print at 0.7-0.9 mm per pixel (measured in
        # tests/vision/test_setup_view.py); the page shows the figure the server measured on the latest frame.
        expect(page.locator("#light")).to_have_text(re.compile(DETAIL))
        shown = re.search(DETAIL, page.locator("#light").text_content() or "")
        assert shown is not None and 0.5 < float(shown.group(1)) < 1.0
        # The picture arrived (a JPEG of the camera's frame with the overlay drawn), at the phone's width.
        page.wait_for_function("document.getElementById('view').naturalWidth > 0")
        size = page.evaluate(
            "[document.getElementById('view').naturalWidth, document.getElementById('view').naturalHeight,"
            " document.getElementById('view').getBoundingClientRect().width]"
        )
        assert size[:2] == [1280, 720]
        assert size[2] <= PHONE_WIDTH
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
        screenshot(page, "setup-phone")

        # Set up for four players, the mat is smaller than the five players' one on the table: the page says
        # which marker is off and how to lay it, and no longer that all is well.
        page.fill("#options", '{"players": 4}')
        expect(page.locator("#messages li").first).to_contain_text("bottom-right marker lies")
        expect(page.locator("#messages li").first).to_contain_text("lay it square in its corner")
        expect(page.locator("#all-well")).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
    finally:
        context.close()
