"""Sentences for people in every language the table speaks, made where the thing they tell of happens.

A device's status (the beams, the sensor node, the camera) is published once and read by every phone,
each in its own language, so its words cannot wait for a page request's language as a page's do:
`say` formats the sentence in each language at once, from the same catalogs the pages use
(companion/translations; the extraction keyword is `say`). The result is a `Said`: a str holding the
English sentence, so logs, the console and every caller that wants text keep working, that also knows
its other languages (`texts_of` gives them to the scoreboard as {"en": ..., "de": ...}).
"""

from __future__ import annotations

import gettext
from functools import lru_cache

from companion.translations import DIRECTORY, DOMAIN, LANGUAGES

ENGLISH = "en"


class Said(str):
    """An English sentence (the str itself) with its translations in `texts` (every language, English too)."""

    texts: dict[str, str]

    def __new__(cls, texts: dict[str, str]) -> Said:
        said = super().__new__(cls, texts[ENGLISH])
        said.texts = texts
        return said

    def __getnewargs__(self) -> tuple[dict[str, str]]:  # type: ignore[override]
        # Copied or pickled (dataclasses.asdict deep-copies), it is made again from its texts, not English.
        return (self.texts,)


@lru_cache(maxsize=len(LANGUAGES))
def _catalog(language: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, str(DIRECTORY), languages=[language], fallback=True)


def say(template: str, **params: object) -> Said:
    """`template` with its {placeholders} filled, in every language. A parameter that is itself `Said`
    (a beam's name in words, say) is filled in each language with its own text in that language."""
    texts = {}
    for language in LANGUAGES:
        text = template if language == ENGLISH else _catalog(language).gettext(template)
        values = {
            name: texts_of(value)[language] if isinstance(value, Said) else value
            for name, value in params.items()
        }
        texts[language] = text.format(**values)
    return Said(texts)


def texts_of(message: str) -> dict[str, str]:
    """A message in every language: its own translations if it is `Said`, else the text as it is."""
    if isinstance(message, Said):
        return dict(message.texts)
    return {language: message for language in LANGUAGES}
