"""A real Mosquitto broker started from Python: for the tests, `companion bench club`, and a laptop club.

Debian's mosquitto package (/usr/sbin/mosquitto; `make test` installs it when missing). The broker gets
its own folder: its config, its persistence file (so queued QoS 1 messages and retained records
survive a restart, as on a club's Pi), and, when a club key is set, a password file made with
mosquitto_passwd and an ACL: tables may publish only under minotaur/<club>/tables/, the league may read.
"""

from __future__ import annotations

import dataclasses
import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

MOSQUITTO = Path("/usr/sbin/mosquitto")
MOSQUITTO_PASSWD = Path("/usr/bin/mosquitto_passwd")
STARTUP_SECONDS = 10.0


class BrokerError(RuntimeError):
    """The broker is missing or did not start."""


@dataclasses.dataclass(frozen=True)
class Account:
    username: str
    password: str


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """One broker on 127.0.0.1:`port`, kept in `folder`; `accounts` make it refuse anonymous clients.

    `acl` lines are written as given (mosquitto's acl_file syntax) when there are accounts."""

    def __init__(
        self,
        folder: Path,
        port: int | None = None,
        *,
        accounts: tuple[Account, ...] = (),
        acl: tuple[str, ...] = (),
    ) -> None:
        if not MOSQUITTO.exists():
            raise BrokerError(f"{MOSQUITTO} is missing: install Debian's mosquitto package (make test does)")
        self.folder = folder
        self.port = port or free_port()
        self.accounts = accounts
        self.acl = acl
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        self._write_config()

    def _write_config(self) -> None:
        lines = [
            # Started as root (a CI container), mosquitto would become the user `mosquitto`, which may not
            # read this folder: it stays whoever started it, as it does when started by anyone else.
            f"user {getpass.getuser()}",
            f"listener {self.port} 127.0.0.1",
            "persistence true",
            f"persistence_location {self.folder}/",
            "autosave_interval 1",
            # A table's queue while the league is away: every event of a long evening.
            "max_queued_messages 100000",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
        ]
        if self.accounts:
            passwords = self.folder / "passwords"
            passwords.write_text("")
            for account in self.accounts:
                subprocess.run(
                    [str(MOSQUITTO_PASSWD), "-b", str(passwords), account.username, account.password],
                    check=True,
                    capture_output=True,
                )
            acl_file = self.folder / "acl"
            acl_file.write_text("\n".join(self.acl) + "\n")
            lines += ["allow_anonymous false", f"password_file {passwords}", f"acl_file {acl_file}"]
        else:
            lines.append("allow_anonymous true")
        (self.folder / "mosquitto.conf").write_text("\n".join(lines) + "\n")

    def start(self) -> None:
        log = (self.folder / "mosquitto.log").open("ab")
        self.process = subprocess.Popen(
            [str(MOSQUITTO), "-c", str(self.folder / "mosquitto.conf")], stdout=log, stderr=log
        )
        log.close()
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrokerError(f"mosquitto exited at start: {self.log_tail()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise BrokerError(f"mosquitto did not listen on port {self.port} within {STARTUP_SECONDS:.0f} s")

    def stop(self) -> None:
        """Stop as a service manager does (SIGTERM): the broker saves its persistence file first."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STARTUP_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def log_tail(self, lines: int = 5) -> str:
        path = self.folder / "mosquitto.log"
        return " | ".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
