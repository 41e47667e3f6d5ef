"""Teach mode's live view: what the companion reads on the live picture now, with the profile as taught so
far, so that the host sees the new edition being read after each shot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy
from flask import Flask
from flask.testing import FlaskClient

from companion.vision.base import Frame
from companion.web.teach import VisionServices, install_vision

from . import scenes
from .conftest import Camera, colour_near, decoded, in_frame, looks_like

PALE_RED = (120, 120, 160)
"""This edition's red: nearer the built-in 'empty' than the built-in red, until taught."""


def _pale_red_on_spot_0() -> Frame:
    image = scenes.frame({"spot:0": "red"})
    image[(image == scenes.COLOURS["red"]).all(axis=2)] = PALE_RED
    return image


def _outline_colour(image: Frame, item: str) -> Any:
    """The colour drawn on the middle of the item's top edge."""
    region = scenes.layout().items[item]
    return colour_near(
        image, in_frame([(region.centre_mm[0], region.centre_mm[1] - region.size_mm[1] / 2)])[0]
    )


def _picture(host: FlaskClient) -> Frame:
    response = host.get("/api/teach/live.jpg")
    assert response.status_code == 200 and response.content_type == "image/jpeg"
    image = decoded(response.data)
    assert image.shape == (720, 1280, 3)
    return image


def _labelled(image: Frame, item: str) -> bool:
    """A label's dark box lies on the item's middle."""
    region = scenes.layout().items[item]
    x, y = (round(float(v)) for v in in_frame([region.centre_mm])[0])
    patch = image[y - 6 : y + 7, x - 30 : x + 31]
    return bool((patch.max(axis=2) < 40).mean() > 0.2)


def test_the_live_view_reads_the_new_edition_once_taught(
    app: Flask, tmp_path: Path, host: FlaskClient
) -> None:
    camera = Camera(scenes.frame({}))
    install_vision(app, VisionServices(grab=camera, profiles_root=tmp_path))
    assert host.get("/api/teach/live").status_code == 409  # no session yet
    assert host.post("/api/teach/start", json={"game": "squares", "edition": "pale"}).status_code == 200
    assert host.post("/api/teach/shot").status_code == 200  # the empty table, learned first
    camera.image = _pale_red_on_spot_0()
    before = host.get("/api/teach/live").json
    assert before["live"]["read"] == {"spot:0": "empty", "spot:1": "empty"}  # type: ignore[index]
    assert before["live"]["calibrated"] and before["spot"] == {"spot:0": "red"}  # type: ignore[index]
    shown = _picture(host)
    assert looks_like(_outline_colour(shown, "spot:0"), (40, 40, 230))  # the lesson's spot, read wrong: red
    assert _labelled(shown, "spot:0")  # the lesson's spot is labelled even when read as empty
    assert not _labelled(shown, "spot:1")  # nothing there: outlined faintly, no label to hide the pieces'
    assert looks_like(_outline_colour(shown, "spot:1"), (150, 150, 150))

    assert host.post("/api/teach/shot").status_code == 200  # teaches this edition's red
    after = host.get("/api/teach/live").json
    assert after["live"]["read"] == {"spot:0": "red", "spot:1": "empty"}  # type: ignore[index]
    assert after["spot"] == {"spot:0": "green"} and after["profile_shots"] == 1  # type: ignore[index]
    host.post("/api/teach/skip")
    done = host.get("/api/teach/live").json
    assert done["spot"] == {} and done["live"]["read"]["spot:0"] == "red"  # type: ignore[index]
    shown = _picture(host)  # no lesson left: a piece read is labelled in white
    assert _labelled(shown, "spot:0") and looks_like(_outline_colour(shown, "spot:0"), (255, 255, 255))


def test_the_live_view_says_why_it_reads_nothing(app: Flask, tmp_path: Path, host: FlaskClient) -> None:
    camera = Camera(_pale_red_on_spot_0())
    install_vision(app, VisionServices(grab=camera, profiles_root=tmp_path))
    host.post("/api/teach/start", json={"game": "squares"})
    camera.image = numpy.full((720, 1280, 3), 120, numpy.uint8)  # the camera turned away from the table
    live = host.get("/api/teach/live").json["live"]  # type: ignore[index]
    assert live["read"] == {} and not live["calibrated"] and "marker" in live["message"]
    assert _picture(host).shape == (720, 1280, 3)
    camera.image = None
    lost = host.get("/api/teach/live.jpg")
    assert lost.status_code == 409 and "no picture" in lost.json["error"]  # type: ignore[index]
    assert app.test_client().get("/api/teach/live").status_code == 403  # host only
