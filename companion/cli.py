"""The `companion` command: each feature adds its own subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    from companion import __version__
    from companion.bench import add_bench_commands
    from companion.club.league_cli import add_club_commands
    from companion.record.cli import add_record_commands
    from companion.table.cli import add_table_commands
    from companion.translations import console_gettext as _
    from companion.translations.argparse_words import bind_argparse
    from companion.vision.cli import add_vision_commands

    bind_argparse()
    parser = argparse.ArgumentParser(
        prog="companion", description=_("Minotaur Companion: referee for bull-and-Minotaur board games.")
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}", help=_("show the release and exit")
    )
    # Not required: a bare `companion` shows the help a newcomer needs, not a usage error.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_table_commands(commands)
    add_record_commands(commands)
    add_bench_commands(commands)
    add_vision_commands(commands)
    add_club_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
