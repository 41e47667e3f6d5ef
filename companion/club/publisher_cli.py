"""`companion run --club mqtt://...`: the table joins the club's broker (or the settings file's [club]).

The club's settings are checked before anything is opened, so a wrong address or a missing certificate
stops the start naming what is wrong; the broker itself may be away at the start (it is retried).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.config import ClubSettings
from companion.translations import console_gettext as _

if TYPE_CHECKING:  # paho and the referee load only when the table joins a club
    from companion.club.publisher import BrokerSettings, TablePublisher
    from companion.table.referee import Referee


def add_club_options(run: argparse.ArgumentParser) -> None:
    club = run.add_argument_group(_("club night (docs/club.md)"))
    club.add_argument(
        "--club",
        metavar="URL",
        default=None,
        help=_(
            "the club's broker, mqtt://user:password@host:port or mqtts://... (TLS): the table publishes "
            "its games there (default: the settings file's [club] broker, else none)"
        ),
    )
    club.add_argument("--club-id", default=None, help=_("the club's id (lower-case letters, digits, dashes)"))
    club.add_argument("--table-id", default=None, help=_("this table's id in the club"))


def broker_settings(args: argparse.Namespace) -> BrokerSettings | None:
    """The broker the table publishes to, from the flags and the settings file's [club]; None: no club."""
    from companion.club.publisher import BrokerSettings, PublisherError

    section: ClubSettings = getattr(args, "club_settings", None) or ClubSettings()
    url = args.club or section.broker
    club, table = args.club_id or section.club, args.table_id or section.table
    if url is None:
        if args.club_id or args.table_id:
            raise PublisherError("--club-id and --table-id need the club's broker: --club mqtt://host:port")
        return None
    missing = [name for name, value in (("--club-id", club), ("--table-id", table)) if not value]
    if missing:
        raise PublisherError(
            f"a table in a club needs {' and '.join(missing)} (or club and table in the settings' [club])"
        )
    assert club is not None and table is not None
    more: dict[str, Any] = {
        "username": section.username,
        "password": section.password,
        "ca_file": section.ca,
        "cert_file": section.cert,
        "key_file": section.key,
    }
    return BrokerSettings.from_url(url, club=club, table=table, **more)


def outbox_path(record_db: Path) -> Path:
    """The publisher's outbox, beside the record it follows."""
    return Path(record_db).with_name(f"{Path(record_db).stem}.club-outbox.db")


def start_club(settings: BrokerSettings, referee: Referee, app: Any) -> TablePublisher:
    """Publish `referee`'s record and give the table's web app the club's roster and sign-in."""
    from companion.club.publisher import attach
    from companion.web.club import ClubTable, install_club

    publisher = attach(referee, settings, outbox_path(referee.db_path))
    install_club(app, ClubTable(settings.club, settings.table, publisher))
    return publisher
