"""`companion club serve|rebuild|export`: the club's league on the organiser's laptop or Pi.

companion club serve --broker mqtt://league:KEY@HOST:1883 --club lions --db league.db --port 8100 --pin 2468
companion club rebuild --db new.db --club lions --from-broker --broker mqtt://league:KEY@HOST:1883
companion club rebuild --db new.db --club lions --from-records DIR
companion club export --db league.db --to DIR
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Any

from companion.translations import console_gettext as _

DEFAULT_PORT = 8100


def add_club_commands(commands: argparse._SubParsersAction[Any]) -> None:
    club = commands.add_parser(
        "club",
        help=_("club night: the league of many tables, kept from the club's MQTT broker"),
        description=_("The club's league: every table live, standings, ratings and each player's history."),
    )
    actions = club.add_subparsers(dest="club_command", metavar="ACTION", required=True)

    serve = actions.add_parser("serve", help=_("keep the league from the broker and serve its pages"))
    serve.add_argument("--broker", required=True, help=_("the club's broker: mqtt://league:KEY@HOST:PORT"))
    serve.add_argument("--club", required=True, help=_("the club's id (lower-case letters, digits, dashes)"))
    serve.add_argument("--db", type=Path, default=Path("league.db"), help=_("the league's own file"))
    serve.add_argument("--host", default="0.0.0.0", help=_("address to listen on (default 0.0.0.0)"))
    serve.add_argument("--port", type=int, default=DEFAULT_PORT, help=_("port of the league's pages"))
    serve.add_argument("--pin", required=True, help=_("the organiser's PIN (4 to 12 digits)"))
    serve.set_defaults(handler=_serve)

    rebuild = actions.add_parser(
        "rebuild", help=_("make a new league file from the broker or exported records")
    )
    rebuild.add_argument("--db", type=Path, required=True, help=_("the new league file (must not exist)"))
    rebuild.add_argument("--club", required=True, help=_("the club's id"))
    source = rebuild.add_mutually_exclusive_group(required=True)
    source.add_argument("--from-broker", action="store_true", help=_("the broker's retained records"))
    source.add_argument(
        "--from-records", type=Path, metavar="DIR", help=_("exported <table>-<game_id>.jsonl")
    )
    rebuild.add_argument("--broker", help=_("the club's broker, for --from-broker"))
    rebuild.set_defaults(handler=_rebuild)

    export = actions.add_parser("export", help=_("write every finished record as <table>-<game_id>.jsonl"))
    export.add_argument("--db", type=Path, required=True, help=_("the league's file"))
    export.add_argument("--to", type=Path, required=True, help=_("the folder to write to"))
    export.set_defaults(handler=_export)


def _settings(url: str, club: str) -> Any:
    from companion.club.publisher_settings import BrokerSettings

    # The table's settings parse the same address; the league is one more client of the club's broker.
    return BrokerSettings.from_url(url, club=club, table="league")


def _fail(action: str, error: Exception) -> int:
    print(f"companion club {action}: {error}", file=sys.stderr)
    return 2


def _serve(args: argparse.Namespace) -> int:
    from companion.club.league import League
    from companion.club.service import LeagueService
    from companion.club.web import create_league_app
    from companion.web.server import bound_port, make_server

    try:
        settings = _settings(args.broker, args.club)
        league = League(args.db, args.club)
    except ValueError as error:
        return _fail("serve", error)
    try:
        app = create_league_app(league, pin=args.pin, broker=settings)
        server = make_server(app, args.host, args.port)
    except (ValueError, OSError) as error:
        league.close()
        return _fail("serve", error)
    service = LeagueService(league, settings)
    service.start()

    def stop(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    port = bound_port(server, args.port)
    print(_("League of club {club}: http://{host}:{port}/").format(club=args.club, host=args.host, port=port))
    print(_("Organiser: http://{host}:{port}/organiser").format(host=args.host, port=port), flush=True)
    print(
        _("Broker: {host}:{port}; league file {db}   (Ctrl-C stops)").format(
            host=settings.host, port=settings.port, db=args.db
        ),
        flush=True,
    )
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        service.stop()
        league.close()
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    from companion.club.league import League
    from companion.club.service import rebuild_from_broker, rebuild_from_records

    if args.db.exists():
        return _fail("rebuild", ValueError(_("{db} exists: rebuild into a new file").format(db=args.db)))
    if args.from_broker and not args.broker:
        return _fail("rebuild", ValueError(_("--from-broker needs --broker mqtt://league:KEY@HOST:PORT")))
    try:
        settings = _settings(args.broker, args.club) if args.from_broker else None
        if args.from_records is not None and not args.from_records.is_dir():
            raise ValueError(_("{folder} is not a folder").format(folder=args.from_records))
    except ValueError as error:
        return _fail("rebuild", error)
    league = League(args.db, args.club)
    try:
        kept = (
            rebuild_from_broker(league, settings)
            if settings is not None
            else rebuild_from_records(league, args.from_records)
        )
        games = len(league.figures()["games"])
    except (ValueError, OSError, TimeoutError) as error:
        league.close()
        for leftover in args.db.parent.glob(args.db.name + "*"):
            leftover.unlink()  # nothing written: the new file goes with what failed
        return _fail("rebuild", error)
    league.close()
    print(
        _("{kept} records kept, {games} finished games in the league: {db}").format(
            kept=kept, games=games, db=args.db
        )
    )
    return 0


def _export(args: argparse.Namespace) -> int:
    from companion.club.league import League
    from companion.club.service import export_records

    if not args.db.exists():
        return _fail("export", ValueError(_("{db} does not exist").format(db=args.db)))
    league = League(args.db)
    try:
        written = export_records(league, args.to)
    finally:
        league.close()
    print(_("{count} records written to {folder}").format(count=len(written), folder=args.to))
    return 0
