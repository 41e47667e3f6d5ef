"""`companion replay | import | export | games`: the game record from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.record.jsonl import export_record, import_record, load_record
from companion.record.replay import RecordFormatError, Replay
from companion.record.store import RecordStore, RecordStoreError, default_db_path
from companion.translations import console_gettext as _

EXIT_OK = 0
EXIT_REFUSED = 1


def add_record_commands(commands: argparse._SubParsersAction[Any]) -> None:
    db_help = "the record database (default: $COMPANION_DB or ./var/companion.db)"

    replay = commands.add_parser(
        "replay", help=_("print the final state, scores and ranking of a game record")
    )
    replay.add_argument("file", type=Path, metavar="FILE.jsonl")
    replay.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    replay.set_defaults(handler=replay_command)

    load = commands.add_parser(
        "import", help=_("check a game record completely, then add it to the database")
    )
    load.add_argument("file", type=Path, metavar="FILE.jsonl")
    load.add_argument("--db", type=Path, default=None, help=db_help)
    load.set_defaults(handler=import_command)

    export = commands.add_parser("export", help=_("write one game's record as JSON lines"))
    export.add_argument("game_id", type=int, metavar="GAME_ID")
    export.add_argument("--db", type=Path, default=None, help=db_help)
    export.add_argument("-o", "--output", type=Path, default=None, help="the file to write (default: stdout)")
    export.set_defaults(handler=export_command)

    games = commands.add_parser("games", help=_("list the recorded games"))
    games.add_argument("--db", type=Path, default=None, help=db_help)
    games.set_defaults(handler=games_command)


def _refuse(message: str) -> int:
    print(f"companion: {message}", file=sys.stderr)
    return EXIT_REFUSED


def _store(args: argparse.Namespace) -> RecordStore:
    return RecordStore(args.db if args.db is not None else default_db_path())


def summary(replayed: Replay) -> dict[str, Any]:
    """What `companion replay --json` prints about a replayed game."""
    state = replayed.state
    to_act = state.to_act()
    return {
        "game": replayed.game.name,
        "options": replayed.options,
        "names": replayed.names,
        "events": replayed.events,
        "over": state.is_over(),
        "to_act": {"seats": list(to_act.seats), "waiting_for": to_act.waiting_for},
        "scores": state.scores(),
        "ranking": state.ranking(),
        "public_view": state.public_view(),
    }


def summary_text(summary: dict[str, Any]) -> str:
    names: list[str] = summary["names"]
    options = ", ".join(f"{name}={value}" for name, value in summary["options"].items())
    status = "over" if summary["over"] else f"in progress, waiting for {summary['to_act']['waiting_for']}"
    width = max(len(name) for name in names)
    return "\n".join(
        [
            f"game: {summary['game']} ({options})",
            f"players: {', '.join(names)}",
            f"events: {summary['events']}; the game is {status}",
            "scores:",
            *(f"  {name:<{width}}  {score}" for name, score in zip(names, summary["scores"], strict=True)),
            "ranking:",
            *(
                f"  {place}. {', '.join(names[seat] for seat in group)}"
                for place, group in enumerate(summary["ranking"], start=1)
            ),
        ]
    )


def replay_command(args: argparse.Namespace) -> int:
    try:
        replayed = load_record(args.file)[1]
    except RecordFormatError as error:
        return _refuse(f"{args.file}:{error.line}: {error.reason}")
    except OSError as error:
        return _refuse(f"cannot read {args.file}: {error.strerror or error}")
    result = summary(replayed)
    print(json.dumps(result, ensure_ascii=False) if args.json else summary_text(result))
    return EXIT_OK


def import_command(args: argparse.Namespace) -> int:
    try:
        record, replayed = load_record(args.file)
    except RecordFormatError as error:
        return _refuse(f"{args.file}:{error.line}: {error.reason}; nothing was imported")
    except OSError as error:
        return _refuse(f"cannot read {args.file}: {error.strerror or error}")
    with _store(args) as store:
        game_id = import_record(store, record, replayed)
    print(game_id)
    return EXIT_OK


def export_command(args: argparse.Namespace) -> int:
    with _store(args) as store:
        try:
            text = export_record(store, args.game_id)
        except RecordStoreError as error:
            return _refuse(str(error))
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
    return EXIT_OK


def games_command(args: argparse.Namespace) -> int:
    with _store(args) as store:
        games = store.list_games()
    print("id\tgame\tevents\tfinished\tnames")
    for info in games:
        finished = "yes" if info.finished else "no"
        print(f"{info.game_id}\t{info.game}\t{info.events}\t{finished}\t{', '.join(info.names)}")
    return EXIT_OK
