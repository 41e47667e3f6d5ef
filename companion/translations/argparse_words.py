"""argparse's own words ("usage", "options"), so that `companion --help` is German all through.

argparse looks its words up with Python's gettext in the default domain "messages", whose catalogs
Python does not install; `bind_argparse` points that domain at ours, and these msgids, marked here
for extraction, get translated like the rest. They must be argparse's own, letter for letter.
"""

from __future__ import annotations

import gettext

from companion.translations import DIRECTORY, DOMAIN


def N_(text: str) -> str:
    """Mark `text` for extraction; argparse translates it itself."""
    return text


WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def bind_argparse() -> None:
    """Let argparse find its words in our catalogs (for the language the environment names)."""
    gettext.bindtextdomain(DOMAIN, str(DIRECTORY))
