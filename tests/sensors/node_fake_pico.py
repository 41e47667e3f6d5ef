"""A fake Pico on a pty for the deploy test: MicroPython's raw REPL, as mpremote drives it.

The REPL protocol (Ctrl-C, Ctrl-A raw mode, Ctrl-D soft reset, raw-paste mode
with its flow control, "OK", output, "\\x04", errors, "\\x04", ">") is spoken
here; the code mpremote sends runs in the real MicroPython (WebAssembly)
through firmware/tests/repl_server.mjs, whose file system is the Pico's.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import select
import struct
import subprocess
import threading
import tty
from typing import Any

from .node_fixtures import FIRMWARE, node_binary

RAW_PROMPT = b"raw REPL; CTRL-B to exit\r\n"
WINDOW = 128
"""Raw-paste window: small, so the flow control is exercised too."""
ANSWER_SECONDS = 60.0
"""Longest a request may wait for MicroPython's answer (a run takes well under a second)."""


class FakePico:
    def __init__(self) -> None:
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.port = os.ttyname(self._slave)
        self._server = subprocess.Popen(
            [node_binary(), str(FIRMWARE / "tests" / "repl_server.mjs")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.log: list[str] = []
        self._pipe = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="fake-pico", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------ the MicroPython behind it

    def request(self, **request: Any) -> dict[str, Any]:
        """One request to the MicroPython behind the REPL and its answer. The REPL thread (running what
        mpremote sends) and the test (reading files back) share one pipe: a lock keeps each answer with
        its request (one line each), and a deadline turns a MicroPython that never answers into a
        failure instead of a hung suite."""
        assert self._server.stdin is not None and self._server.stdout is not None
        with self._pipe:
            self._server.stdin.write(json.dumps(request) + "\n")
            self._server.stdin.flush()
            ready = select.select([self._server.stdout], [], [], ANSWER_SECONDS)[0]
            if not ready:
                raise TimeoutError(f"the MicroPython behind the fake Pico did not answer {request!r}")
            answer: dict[str, Any] = json.loads(self._server.stdout.readline())
        return answer

    def run(self, code: str) -> tuple[bytes, bytes]:
        answer = self.request(exec=code)
        err = answer["err"]
        # The WebAssembly port's file system reports Emscripten's errno numbers; a Pico reports
        # MicroPython's, which is what mpremote understands.
        err = re.sub(r"OSError: 44$", "OSError: [Errno 2] ENOENT", err, flags=re.M)
        return base64.b64decode(answer["out"]), err.encode()

    def read_file(self, name: str) -> bytes | None:
        answer = self.request(read=f"/flash/{name}")
        return base64.b64decode(answer["data"]) if "data" in answer else None

    def close(self) -> None:
        self._stop.set()
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self._server.stdin is not None:
            self._server.stdin.close()
        self._server.wait(10)
        self._thread.join(5)

    # ------------------------------------------------------------ the REPL on the pty

    def _read(self) -> bytes:
        try:
            return os.read(self._master, 1)
        except OSError:
            self._stop.set()
            return b""

    def _write(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _serve(self) -> None:
        raw = False
        code = bytearray()
        while not self._stop.is_set():
            byte = self._read()
            if not byte:
                return
            if not raw:
                if byte == b"\x01":
                    raw, code = True, bytearray()
                    self._write(RAW_PROMPT + b">")
                elif byte == b"\x03":
                    self._write(b"\r\n>>> ")
                continue
            if byte == b"\x02":
                raw = False
                self._write(b"\r\n>>> ")
            elif byte == b"\x01":
                code.clear()
                self._write(RAW_PROMPT + b">")
            elif byte == b"\x03":
                code.clear()
            elif byte == b"\x05" and not code:
                self._raw_paste()
            elif byte == b"\x04":
                if not code:
                    self.log.append("soft reset")
                    self._write(b"OK\r\nMPY: soft reboot\r\n" + RAW_PROMPT + b">")
                    continue
                self._write(b"OK")
                self._execute(bytes(code))
                code.clear()
            else:
                code += byte

    def _raw_paste(self) -> None:
        assert self._read() + self._read() == b"A\x01"
        self._write(b"R\x01" + struct.pack("<H", WINDOW))
        code = bytearray()
        received = 0
        while True:
            byte = self._read()
            if not byte or byte == b"\x04":
                break
            code += byte
            received += 1
            if received % WINDOW == 0:
                self._write(b"\x01")
        self._write(b"\x04")
        self._execute(bytes(code))

    def _execute(self, code: bytes) -> None:
        self.log.append(code.decode())
        out, err = self.run(code.decode())
        self._write(out + b"\x04" + err + b"\x04>")
