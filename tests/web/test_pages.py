"""The pages and their one JSON endpoint: the table's possible answers, for the host only."""

from __future__ import annotations

from flask.testing import FlaskClient

from companion.web.pages import game_scripts

from .conftest import start_race


def test_each_page_loads_every_game_renderer_from_the_pi_itself(viewer: FlaskClient) -> None:
    scripts = game_scripts()
    assert "games/minotaurus.js" in scripts
    for path in ("/", "/host", "/history"):
        page = viewer.get(path)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert '<script src="/static/app.js">' in html
        for script in scripts:
            assert f'<script src="/static/{script}">' in html
        assert "http://" not in html and "https://" not in html, f"{path} loads something from elsewhere"
    for script in ["app.js", "scoreboard.js", "host.js", "history.js", *scripts]:
        response = viewer.get(f"/static/{script}")
        assert response.status_code == 200
        # SVG's namespace names the drawn boards' elements; nothing is loaded from it.
        text = response.get_data(as_text=True).replace('"http://www.w3.org/2000/svg"', "")
        response.close()
        assert "http://" not in text and "https://" not in text, f"{script} loads something from elsewhere"


def test_the_tables_answers_are_for_the_host_and_never_in_the_public_view(
    client: FlaskClient, viewer: FlaskClient
) -> None:
    game_id = start_race(client)
    client.post("/api/actions", json={"action": {"kind": "step", "by": 0, "size": 1}})

    public = viewer.get("/api/state").get_json()
    assert public["to_act"]["chance"] is True
    assert public["legal"] == [], "the table's answers stay out of what every phone gets"

    refused = viewer.get("/api/answers")
    assert refused.status_code == 403
    assert "host" in refused.get_json()["error"]

    answers = client.get("/api/answers")
    assert answers.status_code == 200
    assert answers.headers["Cache-Control"] == "no-store"
    assert answers.get_json() == {
        "game_id": game_id,
        "seq": 1,
        "answers": [
            {"by": -1, "label": "coin shows heads", "action": {"kind": "coin", "by": -1, "heads": True}},
            {"by": -1, "label": "coin shows tails", "action": {"kind": "coin", "by": -1, "heads": False}},
        ],
    }


def test_there_are_no_answers_while_a_seat_is_to_act_or_without_a_game(client: FlaskClient) -> None:
    assert client.get("/api/answers").get_json() == {"game_id": None, "seq": 0, "answers": []}
    start_race(client)
    assert client.get("/api/answers").get_json()["answers"] == []
