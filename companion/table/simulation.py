"""The simulated table of `companion run --simulate`: one more input source of the referee.

The simulator supplies what a real table would show (reveals, toss verdicts)
and, while autoplay is on, plays the seats. It never touches the game: it
reads the referee's snapshots and submits inputs through the same queue as
the phones, each guarded by the event it was decided on, so a move the host
made in between simply makes the simulator's input stale instead of wrong.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Sequence

from companion.games import get_game
from companion.sim import RandomTable, TableSimulator, make_simulator
from companion.table.inputs import Command, NewGame, RefereeStoppedError, SubmitAction
from companion.table.referee import Referee, Snapshot

log = logging.getLogger(__name__)

SIMULATED_NAMES = ("Ariadne", "Theseus", "Daedalus", "Icarus", "Pasiphae", "Androgeos")

CHANCE_SOURCE = "simulator"
PLAYER_SOURCE = "autoplay"

RETRY_SECONDS = 1.0
"""After a refused input, try again this much later unless the table changes first."""
STOP_CHECK_SECONDS = 0.2


class SimulationDriver:
    def __init__(
        self,
        referee: Referee,
        *,
        game: str = "minotaurus",
        players: int = 4,
        seed: int | None = None,
        skill: float = 0.5,
        delay: float = 1.0,
        pause: float = 5.0,
    ) -> None:
        if not 0.0 <= skill <= 1.0:
            raise ValueError(f"skill is a toss success rate from 0 to 1, not {skill}")
        if delay < 0 or pause < 0:
            raise ValueError(f"delay and pause are seconds, not negative ({delay}, {pause})")
        if not 1 <= players <= len(SIMULATED_NAMES):
            raise ValueError(f"the simulation seats 1 to {len(SIMULATED_NAMES)} players, not {players}")
        self.referee = referee
        self.game = game
        self.players = players
        self.skill = skill
        self.delay = delay
        self.pause = pause
        self._seeds = random.Random(seed)
        self._simulator: TableSimulator | None = None
        self._simulated_game: int | None = None
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        # An unknown game or a player count it cannot seat fails here, not later in the thread.
        self.new_game(replacing=None)

    # ------------------------------------------------------------ deciding

    def decide(self, snapshot: Snapshot) -> tuple[Command, str] | None:
        """The input the simulated table gives at `snapshot`, with its source; None to wait for the host."""
        if snapshot.game_id is None or snapshot.state is None:
            return self.new_game(replacing=None), CHANCE_SOURCE
        state = snapshot.state
        if state.is_over():
            return (self.new_game(replacing=snapshot.game_id), CHANCE_SOURCE) if snapshot.autoplay else None
        simulator = self._simulator_for(snapshot)
        to_act = state.to_act()
        if to_act.chance:
            return SubmitAction(
                simulator.observe(state), game_id=snapshot.game_id, after=snapshot.seq
            ), CHANCE_SOURCE
        if snapshot.autoplay:
            return SubmitAction(
                simulator.choose(state, to_act.seats[0]), game_id=snapshot.game_id, after=snapshot.seq
            ), PLAYER_SOURCE
        return None

    def new_game(self, *, replacing: int | None) -> NewGame:
        game = get_game(self.game)
        options = {"players": self.players} if any(s.name == "players" for s in game.option_specs()) else {}
        seats = game.setup(options).num_players
        return NewGame(self.game, options, SIMULATED_NAMES[:seats], replacing=replacing)

    def _simulator_for(self, snapshot: Snapshot) -> TableSimulator:
        # One simulator per game: it may keep a hidden layout that has to stay the same all game long.
        if self._simulator is None or self._simulated_game != snapshot.game_id:
            assert snapshot.game is not None and snapshot.state is not None
            seed = self._seeds.randrange(2**32)
            skills: Sequence[float] = [self.skill] * snapshot.state.num_players
            try:
                self._simulator = make_simulator(snapshot.game, seed=seed, skills=skills)
            except ImportError:
                log.warning("no simulator for %s yet: tosses and moves are uniformly random", snapshot.game)
                self._simulator = RandomTable(seed)
            self._simulated_game = snapshot.game_id
        return self._simulator

    # ------------------------------------------------------------ running

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="simulation", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        snapshot = self.referee.snapshot()
        while not self._stopped():
            newer = self._wait_for_change(snapshot, self._delay_at(snapshot))
            if newer is not None:
                # The table changed while we waited (the host moved, or undid): decide afresh.
                snapshot = newer
                continue
            if self._stopped():
                return
            retry: float | None = None
            try:
                decision = self.decide(snapshot)
            except Exception:
                log.exception("the simulator failed at game %s event %d", snapshot.game_id, snapshot.seq)
                decision, retry = None, RETRY_SECONDS
            if decision is not None:
                command, source = decision
                try:
                    reply = self.referee.call(command, source=source)
                except RefereeStoppedError:
                    return
                except (ValueError, TimeoutError) as error:  # busy, or slow to answer: try again
                    log.warning("simulated input not taken: %s", error or "no answer in time")
                    snapshot = self._wait_for_change(snapshot, RETRY_SECONDS) or self.referee.snapshot()
                    continue
                if not reply.ok:
                    log.log(
                        logging.DEBUG if reply.error_type == "StaleInputError" else logging.WARNING,
                        "the referee refused a simulated input: %s",
                        reply.error,
                    )
                    retry = RETRY_SECONDS
            snapshot = self._wait_for_change(snapshot, retry) or self.referee.snapshot()

    def _delay_at(self, snapshot: Snapshot) -> float:
        if snapshot.state is None:
            return 0.0
        return self.pause if snapshot.state.is_over() else self.delay

    def _stopped(self) -> bool:
        return self._stopping.is_set() or self.referee.broadcaster.closed

    def _wait_for_change(self, snapshot: Snapshot, timeout: float | None) -> Snapshot | None:
        """A newer snapshot, or None once `timeout` s (None: forever) have passed or the driver stops."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._stopped():
            left = (
                STOP_CHECK_SECONDS
                if deadline is None
                else min(STOP_CHECK_SECONDS, deadline - time.monotonic())
            )
            if left <= 0:
                return None
            newer = self.referee.wait_for_change(snapshot.published.event_id, timeout=left)
            if newer is not None:
                return newer
        return None
