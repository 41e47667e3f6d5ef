"""The host's new-game form is built from /api/games: its words come in the phone's language."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def games(viewer: FlaskClient, language: str) -> dict[str, Any]:
    reply = viewer.get("/api/games", headers={"Accept-Language": language})
    assert "Accept-Language" in reply.headers["Vary"]
    return {game["name"]: game for game in reply.get_json()["games"]}


def option(game: Any, name: str) -> Any:
    return next(option for option in game["options"] if option["name"] == name)


def test_every_option_is_explained_in_german_to_a_german_phone(viewer: FlaskClient) -> None:
    english, german = games(viewer, "en"), games(viewer, "de")
    assert english.keys() == german.keys()
    for name, game in german.items():
        if not english[name].get("summary"):
            continue  # the tests' toy game has no words
        assert game["summary"] != english[name]["summary"], name
        for ours, theirs in zip(game["options"], english[name]["options"], strict=True):
            # The values the form sends stay the same; only the words change.
            assert [ours[key] for key in ("name", "choices", "default")] == [
                theirs[key] for key in ("name", "choices", "default")
            ]
            assert ours["label"] != theirs["label"], (name, ours["name"])
            assert ours["description"] != theirs["description"], (name, ours["name"])
    joker = "joker_and_stern"
    assert option(german["minos"], joker)["choice_labels"] != option(english["minos"], joker)["choice_labels"]
