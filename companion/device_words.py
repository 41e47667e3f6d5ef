"""The table's devices in words for people: a beam by where it sits, and several problems in one line.

A player reads "the left horn's inner back beam", not `left_back_inner`: the pin map says where each
beam sits (its horn and level), and its name the place on the horn (companion/sensors/pinmap.py).
A device's status is one line on the scoreboard: the most important problem, and how many more there
are (the full list stays in the status's JSON for the host and the CLI).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.sensors.pinmap import PinMap
from companion.translations import LANGUAGES
from companion.words import Said, say, texts_of

_PLACES: dict[tuple[str, str], Callable[[], Said]] = {
    ("back", "inner"): lambda: say("inner back"),
    ("back", "outer"): lambda: say("outer back"),
    ("front", "inner"): lambda: say("inner front"),
    ("front", "outer"): lambda: say("outer front"),
}
"""A base beam's place on its horn, from the words of its name after the horn's (left_back_inner)."""


def beam_words(pinmap: PinMap, name: str) -> Said:
    """A beam (or the knock sensor) in words, by where the pin map puts it; its name if it has no place."""
    spec = next((beam for beam in pinmap.beams if beam.name == name), None)
    if spec is None:
        return say("the beam {name}", name=name.replace("_", " "))
    if spec.level == "knock":
        return say("the knock sensor")
    rest = tuple(part for part in name.split("_") if part not in (spec.horn, spec.level))
    if spec.horn not in ("left", "right"):  # a beam past both horns: "front", "back"
        if rest == ("front",) or name == "front":
            return say("the front base beam")
        if rest == ("back",) or name == "back":
            return say("the back base beam")
        return say("the base beam {name}", name=name.replace("_", " "))
    if spec.level == "tip":
        letter = " ".join(rest).upper()
        if spec.horn == "left":
            return say("the left horn's tip beam {letter}", letter=letter)
        return say("the right horn's tip beam {letter}", letter=letter)
    place_words = _PLACES.get((rest[0], rest[1])) if len(rest) == 2 else None
    place = place_words() if place_words else " ".join(rest)
    if spec.horn == "left":
        return say("the left horn's {place} beam", place=place)
    return say("the right horn's {place} beam", place=place)


def beams_words(pinmap: PinMap, names: Sequence[str]) -> Said:
    """The first beam in words, and how many more (for "something blocks ...")."""
    first = beam_words(pinmap, names[0])
    if len(names) == 1:
        return first
    if len(names) == 2:
        return say("{beam} and one more beam", beam=first)
    return say("{beam} and {count} more beams", beam=first, count=len(names) - 1)


def one_line(problems: Sequence[str]) -> str:
    """The first (most important) problem, and how many more there are; "" when there are none."""
    if not problems:
        return ""
    first = problems[0]
    if len(problems) == 1:
        return first
    if len(problems) == 2:
        return say("{problem} And one more problem.", problem=_said(first))
    return say("{problem} And {count} more problems.", problem=_said(first), count=len(problems) - 1)


def sentences(*parts: str) -> Said:
    """Sentences one after another, in every language (an f-string would keep only the English)."""
    texts = [texts_of(part) for part in parts if part]
    return Said({language: " ".join(text[language] for text in texts) for language in LANGUAGES})


def _said(text: str) -> Said:
    return text if isinstance(text, Said) else Said(texts_of(text))
