"""The games' sentences a German page translates: every one a game makes matches exactly one template.

Companion.gameText (i18n.js) matches what the table waits for and the actions' labels against
game_texts' templates; this plays every game with random moves at every player count and matches each
sentence the same way, so a game whose words change fails here instead of showing English on a German page.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from companion.games import BUILTIN_GAMES, get_game
from companion.web.game_texts import LABELS, NUMBERS, TABLE, TEMPLATES, WAITING, WORDS

from .conftest import start_race
from .test_i18n import catalog

SEEDS = 3
MOST_STEPS = 3000


def pattern(template: str) -> re.Pattern[str]:
    """The template as i18n.js's templates() builds it: literal text, {name} any text or a number."""

    def part_of(part: str) -> str:
        name = re.fullmatch(r"\{(\w+)\}", part)
        if name is None:
            return re.escape(part)
        return r"(-?\d+)" if name.group(1) in NUMBERS else "(.+?)"

    return re.compile("^" + "".join(part_of(part) for part in re.split(r"(\{\w+\})", template)) + "$")


PATTERNS = {template: pattern(template) for template in TEMPLATES}


def sentences(name: str) -> Iterator[str]:
    """What the table waits for and every action's label, all through random games of `name` at each
    player count (the labels of every legal move, as the host's buttons show them)."""
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(SEEDS):
            rng = random.Random(seed)
            state = game.setup(game.validate_options({"players": players}))
            for _step in range(MOST_STEPS):
                to_act = state.to_act()
                yield to_act.waiting_for
                if state.is_over():
                    break
                if to_act.chance:
                    action = state.random_chance_action(rng)
                else:
                    legal = state.legal_actions()
                    yield from (move.label() for move in legal)
                    action = rng.choice(legal)
                yield action.label()
                state = state.apply(action)


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_every_sentence_and_label_of_a_game_matches_one_template(name: str) -> None:
    seen: set[str] = set()
    for sentence in sentences(name):
        if sentence in seen:
            continue
        seen.add(sentence)
        matching = [template for template, regex in PATTERNS.items() if regex.match(sentence)]
        assert len(matching) == 1, f"{sentence!r} matches {matching or 'no template'} (game_texts)"


def test_the_tables_refusals_a_host_meets_match_one_template(client: FlaskClient) -> None:
    def refusal(path: str, body: dict[str, object]) -> str:
        response = client.post(path, json=body)
        assert response.status_code >= 400 and response.json is not None
        error: str = response.json["error"]
        return error

    refusals = [refusal("/api/actions", {"action": {"kind": "step"}})]  # no game yet
    game_id = start_race(client)
    refusals += [
        refusal("/api/undo", {}),
        refusal("/api/actions", {"action": {"kind": "step"}, "after": 99}),
        refusal("/api/actions", {"action": {"kind": "step"}, "game_id": game_id + 1}),
        refusal("/api/autoplay", {"on": True}),
    ]
    for text in refusals:
        matching = [template for template in TABLE if PATTERNS[template].match(text)]
        assert len(matching) == 1, f"{text!r} matches {matching or 'no template'} (game_texts.TABLE)"


def test_a_template_with_the_players_name_in_reads_german() -> None:
    german = catalog("de")
    found = PATTERNS["{who} to add {tile} to a row"].match("Ann to add 11 to a row")
    assert found is not None
    text = german["{who} to add {tile} to a row"].format(who=found.group(1), tile=found.group(2))
    assert "Ann" in text and "11" in text and "to a row" not in text


def test_every_template_and_word_has_german() -> None:
    german = catalog("de")
    for msgid in (*WAITING, *LABELS, *TABLE, *WORDS):
        assert german.get(msgid) and german[msgid] != msgid, msgid
