"""The league: what the club's tables publish, kept and turned into standings, ratings and histories.

`League.ingest(topic, payload)` takes every message the broker delivers, in whatever order and however
often: an event is kept once per (table, game_id, seq) and moves the table's live view only forward; a
finished game's record is kept once it replays, a longer record of the same game (an undo after the end)
replacing a shorter one. A malformed message is counted, logged and skipped: nothing is written.

The figures come from the records alone (league_figures.py), so the league equals a replay of every
table's record, whatever happened on the way.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from companion.club.league_figures import FinishedGame, Players, figures_from_games, replay_record
from companion.club.league_store import LeagueStore
from companion.club.messages import (
    ClubMessageError,
    EventMessage,
    Member,
    RecordMessage,
    Roster,
    check_id,
    parse_topic,
)
from companion.games.base import N_
from companion.web.stats import player_key

log = logging.getLogger(__name__)

OUTCOMES = ("event", "duplicate", "record", "record kept", "online", "malformed", "refused")
"""What `ingest` did: a new event, one received before, a record kept, a record not longer than the one
kept, a table's online flag, a malformed message, a record that does not replay."""


def _part(view: dict[str, Any], name: str) -> dict[str, Any]:
    """A part of a table's view that should be an object: a table's view is not the league's to trust."""
    part = view.get(name)
    return part if isinstance(part, dict) else {}


class LeagueError(ValueError):
    """An organiser's change the league refuses (the message says what is wrong); nothing is written.

    `msgid` and `params` let the web layer say it in the phone's language (this module has no Flask)."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid % params)
        self.msgid = msgid
        self.params = params


class League:
    """The league of one club, kept in its own SQLite file at `path`."""

    def __init__(self, path: str | Path, club: str | None = None) -> None:
        self.store = LeagueStore(path)
        known = self.store.meta("club")
        if club is not None:
            check_id(club, "club")
            if known is not None and known != club:
                self.store.close()
                raise LeagueError(
                    N_("%(path)s is the league of club %(known)s, not %(club)s"),
                    path=str(path),
                    known=known,
                    club=club,
                )
            if known is None:
                self.store.set_meta("club", club)
        self.club = club or known
        self.counts = dict.fromkeys(OUTCOMES, 0)
        self.roster_listeners: list[Callable[[Roster], None]] = []
        self._lock = threading.Lock()
        self._roster_lock = threading.Lock()
        """Held by an organiser's change from reading the roster to writing it, so two never lose one."""
        self._games: dict[tuple[str, int], FinishedGame] = {}
        for record in self.store.records():
            game = replay_record(record)  # kept only after it replayed, so it replays again
            self._games[(game.table, game.game_id)] = game
        self._members = self.store.members()
        self._aliases = self.store.aliases()
        self._figures: dict[str, Any] | None = None

    def close(self) -> None:
        self.store.close()

    def adopt_club(self, club: str) -> None:
        """A league opened without its club takes the one its broker settings name (and keeps it)."""
        check_id(club, "club")
        if self.club is None:
            self.store.set_meta("club", club)
            self.club = club
        elif self.club != club:
            raise LeagueError(
                N_("the league is club %(league)s's, not %(club)s's"), league=self.club, club=club
            )

    # ------------------------------------------------------------ messages in

    def ingest(self, topic: str, payload: bytes) -> str:
        """Take one message from the broker; returns what it did (one of OUTCOMES)."""
        try:
            outcome = self._ingest(topic, payload)
        except ClubMessageError as error:
            outcome = "malformed"
            log.warning("league: skipped a malformed message on %s: %s", topic, error)
        except ValueError as error:  # a record that does not replay (RecordFormatError)
            outcome = "refused"
            log.warning("league: refused the record on %s: %s", topic, error)
        with self._lock:
            self.counts[outcome] += 1
        return outcome

    def ingest_later(self, topic: str, payload: bytes, done: Callable[[str], None]) -> None:
        """`ingest` that hands what it did to `done` once committed, in the order messages came: events
        are committed together while others wait (LeagueStore batches them), so a table catching up with
        hundreds of events delays nobody else's by a sync to disk each."""
        try:
            event = self._event_of(topic, payload)
        except ClubMessageError:
            event = None
        if event is None:  # anything but a well-formed event: as `ingest`, then behind every earlier one
            outcome = self.ingest(topic, payload)
            self.store.submit(lambda _connection: None).add_done_callback(lambda _f: done(outcome))
            return

        def finished(added: Future[bool]) -> None:
            outcome = "event" if added.result() else "duplicate"
            with self._lock:
                self.counts[outcome] += 1
            done(outcome)

        self.store.add_event_later(event).add_done_callback(finished)

    def _event_of(self, topic: str, payload: bytes) -> EventMessage | None:
        """The event a message on an events topic carries (ClubMessageError if malformed); None otherwise."""
        parts = parse_topic(topic)
        if parts.kind != "events" or (self.club is not None and parts.club != self.club):
            return None
        event = EventMessage.decode(payload)
        if event.table != parts.table:
            raise ClubMessageError(f"event of table {event.table!r} on {parts.table!r}'s topic")
        return event

    def _ingest(self, topic: str, payload: bytes) -> str:
        parts = parse_topic(topic)
        if self.club is not None and parts.club != self.club:
            raise ClubMessageError(
                f"topic {topic!r} is club {parts.club!r}'s, this league is {self.club!r}'s"
            )
        if parts.kind == "online":
            if payload not in (b"0", b"1"):
                raise ClubMessageError(f"online message {payload[:20]!r}: '1' or '0' was expected")
            self.store.set_online(parts.table, payload == b"1")
            return "online"
        if parts.kind == "events":
            event = self._event_of(topic, payload)
            assert event is not None  # an events topic of this club
            return "event" if self.store.add_event(event) else "duplicate"
        record = RecordMessage.decode(payload)
        if (record.table, record.game_id) != (parts.table, parts.game_id):
            raise ClubMessageError(
                f"record of table {record.table!r} game {record.game_id} on the topic of "
                f"{parts.table!r} game {parts.game_id}"
            )
        game = replay_record(record)
        kept = self.store.put_record(record, game.events, lambda: self._count_game(game))
        return "record" if kept else "record kept"

    def _count_game(self, game: FinishedGame) -> None:
        with self._lock:
            self._games[(game.table, game.game_id)] = game
            self._figures = None

    # ------------------------------------------------------------ figures out

    def figures(self) -> dict[str, Any]:
        """The same shape as league_from_records: games counted, overall, standings, history."""
        with self._lock:
            if self._figures is None:
                self._figures = figures_from_games(list(self._games.values()), self._members, self._aliases)
            return self._figures

    def records(self) -> list[RecordMessage]:
        return self.store.records()

    def received(self) -> set[tuple[str, int, int]]:
        """Every (table, game_id, seq) of an event received."""
        return self.store.event_keys()

    def tables(self) -> list[dict[str, Any]]:
        """Each table as it stands: game, players (with their ids in the league), scores, whose turn."""
        players = Players(self._members, self._aliases)
        shown = []
        for table in self.store.tables():
            view = table.pop("view") or {}
            names = table["names"]
            to_act, game = _part(view, "to_act"), _part(view, "game")
            seats = [s for s in to_act.get("seats", []) if isinstance(s, int) and 0 <= s < len(names)]
            scores = view.get("scores")
            shown.append(
                {
                    **table,
                    "title": game.get("title") if isinstance(game.get("title"), str) else table["game"],
                    "players": [
                        {"player": p, "name": n, "guest": g} for p, n, g in map(players.identify, names)
                    ],
                    "scores": scores if isinstance(scores, list) else [],
                    "turn": [names[seat] for seat in seats],
                    "waiting_for": to_act.get("waiting_for") if not seats else None,
                }
            )
        return shown

    def player(self, player: str) -> dict[str, Any] | None:
        """One player's line in the overall table and their history, or None if they never finished a game."""
        figures = self.figures()
        line = next((entry for entry in figures["overall"] if entry["player"] == player), None)
        if line is None:
            return None
        return {**line, "history": figures["history"].get(player, [])}

    # ------------------------------------------------------------ the roster

    @property
    def aliases(self) -> dict[str, str]:
        """Renamed members' former names (as player_key matches them) with their ids: with the roster, what
        league_from_records needs to name the players as this league does."""
        return dict(self._aliases)

    def roster(self) -> Roster:
        if self.club is None:
            raise LeagueError(N_("this league has no club yet: start it with --club"))
        return Roster(self.club, self._members)

    def add_member(self, name: str) -> Member:
        with self._roster_lock:
            return self._add_member(name)

    def _add_member(self, name: str) -> Member:
        members = self._members
        name = self._check_name(name, members)
        base = re.sub(r"[^a-z0-9]+", "-", player_key(name)).strip("-")[:24] or "member"
        taken = {member.id for member in members}
        member_id = next(
            candidate
            for n in range(1, len(taken) + 2)
            if (candidate := base if n == 1 else f"{base}-{n}") not in taken
        )
        member = Member(member_id, name)
        self._set_members((*members, member))
        return member

    def rename_member(self, member_id: str, name: str) -> Member:
        with self._roster_lock:
            return self._rename_member(member_id, name)

    def _rename_member(self, member_id: str, name: str) -> Member:
        members = self._members
        if member_id not in {member.id for member in members}:
            raise LeagueError(N_("no member %(member)s in the roster"), member=repr(member_id))
        name = self._check_name(name, [m for m in members if m.id != member_id])
        renamed = Member(member_id, name)
        former = next(m for m in members if m.id == member_id)
        # The games played under the former name stay this member's.
        aliases = {**self._aliases, player_key(former.name): member_id}
        self._set_members(tuple(renamed if m.id == member_id else m for m in members), aliases)
        return renamed

    def replace_roster(self, roster: Roster) -> None:
        """The roster as the broker keeps it (a league rebuilt from it)."""
        if self.club is not None and roster.club != self.club:
            raise LeagueError(
                N_("the roster is club %(club)s's, this league is %(league)s's"),
                club=roster.club,
                league=self.club,
            )
        with self._roster_lock:
            self._set_members(roster.members)

    @staticmethod
    def _check_name(name: str, others: Iterable[Member]) -> str:
        name = name.strip() if isinstance(name, str) else ""
        if not name or len(name) > 40:
            raise LeagueError(N_("a member's name is 1 to 40 characters"))
        if any(player_key(other.name) == player_key(name) for other in others):
            raise LeagueError(
                N_("%(name)s is already a member: names must differ to tell players apart"), name=repr(name)
            )
        return name

    def _set_members(self, members: tuple[Member, ...], aliases: dict[str, str] | None = None) -> None:
        aliases = self._aliases if aliases is None else aliases
        self.store.put_members(members, aliases)
        with self._lock:
            self._members = members
            self._aliases = aliases
            self._figures = None
        roster = self.roster() if self.club is not None else None
        for listener in self.roster_listeners:
            if roster is not None:
                listener(roster)
