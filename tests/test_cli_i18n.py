"""The command line in the console's language: `LANG=de_DE.UTF-8 companion --help` is German.

Expectations come from the German catalog itself, so the tests fail when the help does not go
through it, not when a translation is reworded.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po

from companion.cli import build_parser
from companion.translations.__main__ import po_path

DESCRIPTION = "Minotaur Companion: referee for bull-and-Minotaur board games."
RUN_HELP = "start the table: referee, game record and live scoreboard"
SIMULATE_HELP = "simulated tosses and players (no hardware)"


def german(msgid: str) -> str:
    with po_path("de").open("rb") as source:
        text = str(read_po(source, locale="de")[msgid].string)
    assert text and text != msgid
    return text


def help_text(*args: str, **env: str) -> str:
    """`companion ARGS` in a fresh process whose locale is only `env` (no inherited LANGUAGE or LC_*)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    done = subprocess.run(
        [sys.executable, "-m", "companion", *args],
        env={**clean, "COLUMNS": "500", **env},  # argparse wraps at hyphens too: one line a help
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return " ".join(done.stdout.split())


def test_a_german_console_gets_german_help() -> None:
    text = help_text("--help", LANG="de_DE.UTF-8")
    assert german(DESCRIPTION) in text and DESCRIPTION not in text
    assert german(RUN_HELP) in text


def test_argparse_s_own_words_are_german_too() -> None:
    text = help_text("--help", LANG="de_DE.UTF-8")
    assert text.startswith(german("usage: ").strip()) and f"{german('options')}:" in text
    assert "usage:" not in text and "options:" not in text


def test_run_help_is_german_too() -> None:
    assert german(SIMULATE_HELP) in help_text("run", "--help", LANG="de_DE.UTF-8")


@pytest.mark.parametrize("env", [{"LANG": "C.UTF-8"}, {"LANG": "fr_FR.UTF-8"}, {}])
def test_any_other_console_gets_english_help(env: dict[str, str]) -> None:
    text = help_text("--help", **env)
    assert DESCRIPTION in text and german(DESCRIPTION) not in text


def test_language_comes_before_lang_as_in_gettext(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    monkeypatch.setenv("LANGUAGE", "de")
    assert german(DESCRIPTION) in build_parser().format_help().replace("\n", " ")
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    assert DESCRIPTION in " ".join(build_parser().format_help().split())
