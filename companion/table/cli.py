"""`companion run [--simulate]`: referee loop, live scoreboard, and in simulation a simulated table."""

from __future__ import annotations

import argparse
import logging
import signal
import sqlite3
import sys
from pathlib import Path
from types import FrameType
from typing import Any

from companion.club.publisher_cli import add_club_options, broker_settings, start_club
from companion.config import CONFIG_ENV, LANGUAGES, ConfigError, config_path, load_settings, merge_into
from companion.games import BUILTIN_GAMES
from companion.record.store import default_db_path
from companion.sensors.cli import SensorSimulationDriver, add_sensor_options, sensors_wanted, start_sensors
from companion.table.referee import Referee
from companion.table.simulation import SimulationDriver
from companion.translations import console_gettext as _
from companion.vision.run import add_camera_options, start_camera

SIMULATION_DB = Path("var") / "simulation.db"


def add_table_commands(commands: argparse._SubParsersAction[Any]) -> None:
    run = commands.add_parser(
        "run",
        help=_("start the table: referee, game record and live scoreboard"),
        description=_(
            "Start the table: one referee loop, the game record, and the live scoreboard. "
            "With --simulate, a simulated table plays Minotaurus so no hardware is needed."
        ),
    )
    run.add_argument("--simulate", action="store_true", help=_("simulated tosses and players (no hardware)"))
    run.add_argument(
        "--config",
        type=Path,
        default=None,
        help=_(
            "settings file (TOML; default ${env}, else none): PIN, camera, sensors, host, port, language, "
            "game record; a flag given here overrides the file"
        ).format(env=CONFIG_ENV),
    )
    run.add_argument(
        "--host", default=None, help=_("address to listen on (default 127.0.0.1; 0.0.0.0 on the Pi)")
    )
    run.add_argument("--port", type=_port, default=None, help=_("port of the scoreboard (default 8000)"))
    run.add_argument(
        "--db",
        type=Path,
        default=None,
        help=_(
            "game record (default $COMPANION_DB or ./var/companion.db; with --simulate ./var/simulation.db)"
        ),
    )
    run.add_argument(
        "--pin",
        type=_pin,
        default=None,
        help=_(
            "the table PIN for the host (default: the one a phone chose when it claimed the table in the "
            "first minutes after a start; until then a new random one each start)"
        ),
    )
    run.add_argument(
        "--language",
        choices=LANGUAGES,
        default=None,
        help=_("the pages' language when a phone asks for none"),
    )
    run.add_argument(
        "--no-mdns", action="store_true", help=_("do not announce the table over mDNS (zeroconf)")
    )
    simulation = run.add_argument_group(_("simulation (with --simulate)"))
    simulation.add_argument(
        "--game",
        default="minotaurus",
        help=_("game the simulation plays: {games} (default minotaurus)").format(
            games=", ".join(BUILTIN_GAMES)
        ),
    )
    simulation.add_argument("--seed", type=int, default=None, help=_("seed, to replay the same simulation"))
    simulation.add_argument("--players", type=int, default=4, help=_("simulated players (default 4)"))
    simulation.add_argument(
        "--skill", type=_fraction, default=0.5, help=_("simulated toss success rate, 0 to 1 (default 0.5)")
    )
    simulation.add_argument(
        "--delay", type=_seconds, default=1.0, help=_("seconds between simulated actions (default 1)")
    )
    simulation.add_argument(
        "--pause", type=_seconds, default=5.0, help=_("seconds before the next simulated game (default 5)")
    )
    add_sensor_options(run)
    add_camera_options(run)
    add_club_options(run)
    run.set_defaults(handler=run_table)


def _port(text: str) -> int:
    port = int(text)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(_("a port is 0 to 65535, not {port}").format(port=port))
    return port


def _pin(text: str) -> str:
    if not text.isdigit() or not 4 <= len(text) <= 12:
        raise argparse.ArgumentTypeError(_("a table PIN is 4 to 12 digits, not {text!r}").format(text=text))
    return text


def _fraction(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(_("a success rate is 0 to 1, not {value}").format(value=value))
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 3600:
        raise argparse.ArgumentTypeError(_("seconds from 0 to 3600, not {value}").format(value=value))
    return value


def run_table(args: argparse.Namespace) -> int:
    # Imported here so that other subcommands do not pay for Flask and waitress.
    from companion.web import create_app, joining
    from companion.web.auth import host_auth, sign_in_url
    from companion.web.claim import ClaimError, claim_url, table_claim
    from companion.web.server import MAX_STREAMS, bound_port, make_server

    try:
        merge_into(args, load_settings(config_path(args.config)))
    except ConfigError as error:
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    try:
        club = broker_settings(args)
    except ValueError as error:
        print(f"companion run: the club: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # A demo must never resume and autoplay a real table's unfinished game.
    db = args.db or (SIMULATION_DB if args.simulate else default_db_path())
    referee = Referee(db, simulate=args.simulate)
    try:
        driver_class = SensorSimulationDriver if sensors_wanted(args) != "off" else SimulationDriver
        driver = (
            driver_class(
                referee,
                game=args.game,
                players=args.players,
                seed=args.seed,
                skill=args.skill,
                delay=args.delay,
                pause=args.pause,
            )
            if args.simulate
            else None
        )
    except ValueError as error:
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    settings = {
        "SSE_MAX_STREAMS": MAX_STREAMS,
        "HOST_PIN": args.pin,
        "LANGUAGE": args.language,
        # A claimed PIN is kept beside the game record; the demo claims nothing and keeps no PIN.
        "STATE_DIR": None if args.simulate else str(Path(db).resolve().parent),
        "CLAIM_SECONDS": args.claim_minutes * 60,
    }
    try:
        app = create_app(settings, referee=referee)
    except ClaimError as error:
        print(f"companion run: {error}", file=sys.stderr)
        return 2
    try:
        server = make_server(app, args.host, args.port)
    except OSError as error:
        print(
            f"companion run: cannot listen on {args.host}:{args.port}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 1
    try:
        referee.start()
    except (ValueError, OSError, sqlite3.Error) as error:
        print(f"companion run: cannot open the game record {referee.db_path}: {error}", file=sys.stderr)
        server.close()
        return 1
    try:
        sensors = start_sensors(args, referee)
    except ValueError as error:
        print(f"companion run: the ring-toss sensors: {error}", file=sys.stderr)
        server.close()
        referee.stop()
        return 1
    try:
        camera = start_camera(args, referee, app, sensors)
    except ValueError as error:
        print(f"companion run: the camera: {error}", file=sys.stderr)
        if sensors is not None:
            sensors.stop()
        server.close()
        referee.stop()
        return 1
    try:
        publisher = start_club(club, referee, app) if club is not None else None
    except (ValueError, OSError, sqlite3.Error) as error:
        print(f"companion run: the club: {error}", file=sys.stderr)
        camera.stop()
        if sensors is not None:
            sensors.stop()
        server.close()
        referee.stop()
        return 1
    if driver is not None:
        driver.start()

    def stop(signum: int, frame: FrameType | None) -> None:
        # Ending the streams first frees the server threads, so waitress shuts down at once.
        referee.broadcaster.close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    port = bound_port(server, args.port)
    url = joining.scoreboard_url(args.host, port)
    app.config[joining.PUBLIC_URL_KEY] = url
    # The address a phone can open first: listening on every interface, 0.0.0.0 is no address to type.
    print(_("Scoreboard: {url}").format(url=url), flush=True)
    print(joining.qr_terminal(url), end="", flush=True)
    claim = table_claim(app)
    if claim.is_open:
        claim_link = claim_url(url)
        print(joining.qr_terminal(claim_link), end="", flush=True)
        print(
            "  "
            + _(
                "claim the table: the first phone to open {link} within {minutes} min chooses the host's PIN"
            ).format(link=claim_link, minutes=claim.minutes_left()),
            flush=True,
        )
    auth = host_auth(app)
    print(
        _("Table PIN for the host: {pin}   (or scan this to control the table)").format(pin=auth.pin),
        flush=True,
    )
    link = sign_in_url(url, auth)
    print(joining.qr_terminal(link), end="", flush=True)
    print("  " + _("host sign-in link: {link}").format(link=link), flush=True)
    announcement = None
    if joining.listens_everywhere(args.host) and not args.no_mdns:
        announcement = joining.announce(port)
        if announcement is not None:
            print(
                _('Announced over mDNS as "{name}": {url}').format(
                    name=joining.SERVICE_NAME, url=joining.mdns_url(port)
                ),
                flush=True,
            )
    if club is not None:
        print(
            _("Club {club}, table {table}: publishing to {host}:{port}; players sign in at {url}").format(
                club=club.club,
                table=club.table,
                host=club.host,
                port=club.port,
                url=url.rstrip("/") + "/club",
            ),
            flush=True,
        )
    print(_("Game record: {path}   (Ctrl-C stops)").format(path=referee.db_path), flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        if announcement is not None:
            announcement.close()
        if driver is not None:
            driver.stop()
        camera.stop()
        if sensors is not None:
            sensors.stop()
        referee.stop()
        if publisher is not None:
            publisher.stop()
    print(_("Stopped; every event is in the record."), flush=True)
    return 0
