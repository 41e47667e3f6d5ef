"""Teach mode on the host's phone, in Debian's chromium against a real `companion run` whose camera is a
recorded five-player Minotaurus session: the lessons in words, the camera's view with the spot, and
under it what the companion reads now with what it has learned so far; a shot is saved for the edition."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .browser_fixtures import TableServer, browser, camera_table, host_signs_in_from, phone, screenshot

__all__ = ["browser", "camera_table"]  # fixtures

expect.set_options(timeout=20_000)  # a hang guard, not a speed limit

PHONE_WIDTH = 360


@pytest.fixture
def profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where the table saves taught editions: set before the camera table starts, which reads it."""
    folder = tmp_path / "profiles"
    monkeypatch.setenv("COMPANION_VISION_PROFILES", str(folder))
    return folder


def test_the_host_teaches_an_edition_from_the_phone_and_sees_it_read(
    browser: Any, profiles: Path, camera_table: TableServer
) -> None:
    server = camera_table
    context = phone(browser)
    try:
        page = context.new_page()
        host_signs_in_from(page, server, "/teach")

        page.goto(f"{server.url}/teach")
        page.select_option("#game", "minotaurus")
        page.fill("#edition", "club-set")
        page.fill("#options", '{"players": 5}')
        page.get_by_role("button", name="Start teaching").click()
        # The empty table comes first, so that what is learned carries to other tables.
        expect(page.locator("#progress")).to_have_text(re.compile(r"^minotaurus · club-set: step 1 of \d+$"))
        expect(page.locator("#prompt")).to_contain_text("First clear the play area")
        page.get_by_role("button", name="Shot").click()

        # The first lesson (a bare cell), and what the camera reads on its spot now.
        expect(page.locator("#progress")).to_have_text(re.compile(r"step 1 of \d+$"))
        expect(page.locator("#prompt")).to_have_text("Leave cell 0 empty (bare table).")
        read_on_spot = re.compile(r"^cell:0 reads [\w-]+ \(lesson: empty\)$")
        expect(page.locator("#live-text")).to_have_text(read_on_spot)
        page.wait_for_function("document.getElementById('preview').naturalWidth > 0")
        page.wait_for_function("document.getElementById('live').naturalWidth > 0")
        page.get_by_role("button", name="Shot").click()
        learned = r"^Learned(: the camera now reads it right|, but it still reads .+: take the shot again)\.$"
        expect(page.locator("#check")).to_have_text(re.compile(learned))
        expect(page.locator("#progress")).to_have_text(re.compile(r"step 2 of \d+$"))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH
        screenshot(page, "teach-phone")
        saved = json.loads((profiles / "minotaurus" / "club-set.json").read_text())
        assert saved["edition"] == "club-set" and saved["game"] == "minotaurus"
    finally:
        context.close()
