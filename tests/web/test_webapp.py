"""The scoreboard installs as a web app: manifest and icons, as Chromium judges them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy
from flask.testing import FlaskClient

from .browser_fixtures import TableServer, browser

__all__ = ["browser"]  # a fixture


def test_the_manifest_names_the_app_and_icons_that_are_what_they_say(viewer: FlaskClient) -> None:
    page = viewer.get("/")
    assert b'rel="manifest" href="/manifest.webmanifest"' in page.data
    response = viewer.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json()
    assert manifest["name"] and manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        image = viewer.get(icon["src"])
        assert image.status_code == 200 and image.mimetype == "image/png"
        pixels = cv2.imdecode(numpy.frombuffer(image.data, numpy.uint8), cv2.IMREAD_COLOR)
        width, height = (int(side) for side in icon["sizes"].split("x"))
        assert pixels.shape[:2] == (height, width)
        assert len(numpy.unique(pixels.reshape(-1, 3), axis=0)) > 50, "a picture, not a blank square"
        sizes.add(width)
    assert {192, 512} <= sizes
    assert viewer.get("/icon-64.png").status_code == 404


def test_the_maskable_icon_keeps_its_picture_inside_the_launchers_circle(viewer: FlaskClient) -> None:
    data = viewer.get("/icon-512.png").data
    pixels = cv2.imdecode(numpy.frombuffer(data, numpy.uint8), cv2.IMREAD_COLOR).astype(int)
    background = pixels[0, 0]
    drawn = numpy.argwhere(numpy.abs(pixels - background).sum(axis=2) > 30)
    radius = numpy.hypot(*(drawn - 255.5).T).max()
    assert radius <= 0.4 * 512, f"the picture reaches {radius:.0f} px from the centre"


def test_chromium_finds_the_scoreboard_installable(browser: Any, tmp_path: Path) -> None:
    server = TableServer(tmp_path / "table.db")
    server.start()
    try:
        page = browser.new_page()
        page.goto(f"{server.url}/")
        session = page.context.new_cdp_session(page)
        manifest = session.send("Page.getAppManifest")
        assert manifest["url"].endswith("/manifest.webmanifest") and not manifest["errors"]
        errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
        # Playwright's browser contexts are private windows, where nothing installs; every other reason
        # (no manifest, no suitable icon, not standalone, no start address) would be the page's.
        assert [error["errorId"] for error in errors if error["errorId"] != "in-incognito"] == []
        page.close()
    finally:
        server.stop()
