"""Device sentences in every language at once (companion/words.py)."""

from __future__ import annotations

import gettext
import json

from companion.translations import DIRECTORY, DOMAIN
from companion.words import Said, say, texts_of

GERMAN = gettext.translation(DOMAIN, str(DIRECTORY), languages=["de"])


def test_a_sentence_is_its_english_text_and_knows_its_german() -> None:
    # "Scoreboard" is in the pages' catalog: the same catalogs serve the devices' sentences.
    said = say("Scoreboard")
    assert said == "Scoreboard" and isinstance(said, str)
    german = GERMAN.gettext("Scoreboard")
    assert german != "Scoreboard" and said.texts == {"en": "Scoreboard", "de": german}
    assert json.dumps(said) == '"Scoreboard"', "to logs and JSON it is the English text"


def test_placeholders_are_filled_in_each_language_with_a_said_parameter_in_its_own_language() -> None:
    inner = say("Scoreboard")
    outer = say("{where} of {name}", where=inner, name="Ann")
    german = GERMAN.gettext("Scoreboard")
    assert outer.texts == {"en": "Scoreboard of Ann", "de": f"{german} of Ann"}  # the frame has no German


def test_a_plain_message_reads_the_same_in_every_language() -> None:
    assert texts_of("beam front blocked") == {"en": "beam front blocked", "de": "beam front blocked"}
    assert texts_of(Said({"en": "a", "de": "b"})) == {"en": "a", "de": "b"}
