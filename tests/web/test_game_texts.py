"""The games' sentences a German page translates: every one a game makes matches exactly one template.

Companion.gameText (app.js) matches what the table waits for against game_texts.WAITING; this plays
every game with random moves at every player count and matches each sentence the same way, so a game
whose words change fails here instead of showing English on a German page.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from companion.games import BUILTIN_GAMES, get_game
from companion.web.game_texts import TEMPLATES, WAITING, WORDS

from .test_i18n import catalog

SEEDS = 3
MOST_STEPS = 3000


def pattern(template: str) -> re.Pattern[str]:
    """The template as app.js's templates() builds it: literal text, each {name} any text."""
    parts = re.split(r"(\{\w+\})", template)
    body = "".join("(.+?)" if re.fullmatch(r"\{\w+\}", part) else re.escape(part) for part in parts)
    return re.compile(f"^{body}$")


PATTERNS = {template: pattern(template) for template in TEMPLATES}


def sentences(name: str) -> Iterator[str]:
    """What the table waits for, all through random games of `name` at each player count."""
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
                chance = to_act.chance
                state = state.apply(
                    state.random_chance_action(rng) if chance else rng.choice(state.legal_actions())
                )


@pytest.mark.parametrize("name", BUILTIN_GAMES)
def test_every_sentence_a_game_waits_with_matches_one_template(name: str) -> None:
    seen: set[str] = set()
    for sentence in sentences(name):
        if sentence in seen:
            continue
        seen.add(sentence)
        matching = [template for template, regex in PATTERNS.items() if regex.match(sentence)]
        assert len(matching) == 1, f"{sentence!r} matches {matching or 'no template'} (game_texts.WAITING)"


def test_a_template_with_the_players_name_in_reads_german() -> None:
    german = catalog("de")
    found = PATTERNS["{who} to add {tile} to a row"].match("Ann to add 11 to a row")
    assert found is not None
    text = german["{who} to add {tile} to a row"].format(who=found.group(1), tile=found.group(2))
    assert "Ann" in text and "11" in text and "to a row" not in text


def test_every_template_and_word_has_german() -> None:
    german = catalog("de")
    for msgid in (*WAITING, *WORDS):
        assert german.get(msgid) and german[msgid] != msgid, msgid
