"""German and English pages: the phone's language, the switch that sticks, the scripts' catalog, the catalogs.

The German expectations are read from the German catalog itself (`german`), so a test fails when the
page does not go through it, not when a translation is reworded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from companion.games.base import CHANCE
from companion.games.minos.actions import DieShows, UseCombination
from companion.games.minos.data import GEBAEUDE, MOEWE
from companion.table.referee import Referee
from companion.translations import LANGUAGES
from companion.translations.__main__ import extracted, po_path, stale
from companion.web import create_app

from .conftest import TEST_CONFIG

PAGES = ["/", "/host", "/history", "/setup", "/teach"]
PLACEHOLDER = re.compile(r"\{\w+(?:![rs])?\}|%\(\w+\)[-#0 +]*\d*[sdrX]")


def catalog(language: str) -> dict[str, str]:
    with po_path(language).open("rb") as source:
        return {str(m.id): str(m.string) for m in read_po(source, locale=language) if m.id}


def german(msgid: str) -> str:
    text = catalog("de")[msgid]
    assert text and text != msgid, f"{msgid!r} has no German translation"
    return text


def lang_of(html: str) -> str:
    found = re.search(r'<html lang="(\w+)">', html)
    assert found, "the page names no language"
    return found.group(1)


def script_catalog(html: str) -> dict[str, str]:
    found = re.search(r'<script id="i18n" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page carries no catalog for its scripts"
    messages: dict[str, str] = json.loads(found.group(1))
    return messages


def page(client: FlaskClient, path: str, accept: str | None = None) -> str:
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get(path, headers=headers)
    assert response.status_code == 200
    assert "Accept-Language" in response.headers.get("Vary", "")  # a cache must not mix the languages
    return response.get_data(as_text=True)


@pytest.mark.parametrize("path", PAGES)
def test_a_german_phone_gets_german_pages_and_an_english_one_english(viewer: FlaskClient, path: str) -> None:
    html = page(viewer, path, "de-DE,de;q=0.9,en;q=0.5")
    assert lang_of(html) == "de"
    english = page(viewer, path, "en-GB,en;q=0.8")
    assert lang_of(english) == "en"
    if path in ("/", "/host", "/history"):  # base.html's footer
        assert german("Table control") in html and german("Table control") not in english
        assert "Table control" in english
    else:
        assert german("Back to the table") in html and "Back to the table" in english
    assert 'hreflang="en"' in html and 'hreflang="de"' in english  # the switch offers the other one


def test_the_switch_sticks_across_pages_and_overrides_the_phones_language(viewer: FlaskClient) -> None:
    chosen = viewer.get("/lang/de?next=/history", headers={"Accept-Language": "en"})
    assert chosen.status_code == 302 and chosen.headers["Location"] == "/history"
    assert "lang=de" in chosen.headers["Set-Cookie"] and "Max-Age" in chosen.headers["Set-Cookie"]
    for path in PAGES:
        assert lang_of(page(viewer, path, "en-US,en")) == "de"
    viewer.get("/lang/en?next=/")
    assert lang_of(page(viewer, "/host", "de-DE,de")) == "en"


@pytest.mark.parametrize("code", ["fr", "DE", "de-DE", "xx"])
def test_a_language_not_offered_is_refused_and_changes_nothing(viewer: FlaskClient, code: str) -> None:
    refused = viewer.get(f"/lang/{code}?next=/host")
    assert refused.status_code == 400 and "Set-Cookie" not in refused.headers
    assert lang_of(page(viewer, "/", "de")) == "de"


def test_a_forged_cookie_is_ignored(viewer: FlaskClient) -> None:
    viewer.set_cookie("lang", "fr")
    assert lang_of(page(viewer, "/", "de")) == "de"
    assert lang_of(page(viewer, "/", "fr")) == "en"


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil.example", "host"])
def test_the_switch_goes_back_only_to_a_page_of_this_table(viewer: FlaskClient, target: str) -> None:
    response = viewer.get("/lang/de", query_string={"next": target})
    assert response.status_code == 302 and response.headers["Location"] == "/"


@pytest.fixture
def configured(referee: Referee) -> Iterator[dict[str, Flask]]:
    yield {
        setting: create_app({**TEST_CONFIG, "LANGUAGE": setting}, referee=referee)
        for setting in ("de", "en", "auto")
    }


def test_the_table_language_setting_answers_phones_asking_for_neither(
    configured: dict[str, Flask],
) -> None:
    assert lang_of(page(configured["de"].test_client(), "/", "fr-FR,fr")) == "de"
    assert lang_of(page(configured["de"].test_client(), "/")) == "de"
    assert lang_of(page(configured["auto"].test_client(), "/", "fr")) == "en"
    assert lang_of(page(configured["en"].test_client(), "/", "it")) == "en"
    # A phone's own language still comes first.
    assert lang_of(page(configured["de"].test_client(), "/", "en")) == "en"


def test_a_german_page_carries_the_german_words_of_its_scripts(viewer: FlaskClient) -> None:
    scripts = script_catalog(page(viewer, "/", "de"))
    for msgid in ("Waiting for {what}.", "No game yet: the host starts one.", "Final ranking"):
        assert scripts[msgid] == german(msgid)
    assert "{what}" in scripts["Waiting for {what}."]
    assert "Table control" not in scripts  # the templates' words stay out of the scripts' catalog
    # An English page needs none: Companion.t falls back to the English msgid.
    assert script_catalog(page(viewer, "/", "en")) == {}


def test_an_api_error_speaks_the_phones_language(viewer: FlaskClient) -> None:
    msgid = "scores are in each game's own terms: choose one with ?game="
    german_reply = viewer.get("/api/stats/plots/scores.svg", headers={"Accept-Language": "de"})
    english_reply = viewer.get("/api/stats/plots/scores.svg", headers={"Accept-Language": "en"})
    assert german_reply.status_code == english_reply.status_code == 400
    assert german_reply.json == {"error": german(msgid), "status": 400}
    assert english_reply.json == {"error": msgid, "status": 400}


def test_every_german_message_is_translated_with_the_same_placeholders() -> None:
    for msgid, text in catalog("de").items():
        assert text, f"{msgid!r} has no German translation"
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(msgid)), msgid


def test_the_catalogs_hold_every_message_the_code_marks() -> None:
    marked = {str(message.id) for message in extracted() if message.id}
    for language in LANGUAGES:
        missing = sorted(marked - set(catalog(language)))
        assert not missing, f"not in {language}: {missing[:5]}; run python -m companion.translations update"


def test_the_compiled_catalogs_match_their_po_files() -> None:
    assert list(stale()) == [], "run python -m companion.translations compile"
    for language in LANGUAGES:
        assert po_path(language).with_suffix(".mo").stat().st_size > 0


def test_no_minos_label_shows_the_records_ascii_names() -> None:
    labels = [
        DieShows(by=CHANCE, die=0, symbol=MOEWE).label(),
        DieShows(by=CHANCE, die=1, symbol=GEBAEUDE).label(),
        UseCombination(by=0, symbol=GEBAEUDE, naturals=2, joker=True, star=False).label(),
    ]
    assert labels[0] == "die 1 shows Möwe" and labels[1] == "die 2 shows Gebäude"
    assert "Gebaeude" not in labels[2] and labels[2].count("Gebäude") == 3


def test_the_catalog_files_are_package_data() -> None:
    """The wheel carries *.po and *.mo (pyproject's package-data), or an installed table speaks English."""
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8")
    data = re.search(r'^"\*" = \[(.*)\]$', pyproject, re.M)
    assert data and '"*.mo"' in data.group(1) and '"*.po"' in data.group(1)
