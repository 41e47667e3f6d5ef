"""A TCP relay between one table and the broker that can be cut and restored: the table's Wi-Fi, in a bench.

`companion bench club` puts one table behind it. cut() drops the connections it carries and refuses new
ones, as a network that is gone; restore() lets connections through again. The table is not told: what
is measured is its own reconnect logic.
"""

from __future__ import annotations

import contextlib
import socket
import threading

CHUNK = 65536
UPSTREAM_TIMEOUT = 2.0


class CuttableProxy:
    """Listens on 127.0.0.1:`port` (a free one) and relays each connection to `target_host`:`target_port`."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._cut = False
        self._closed = False
        self.connections = 0
        """Connections relayed so far (a table that reconnected has more than one)."""
        self._thread = threading.Thread(target=self._accept, name="club-proxy", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            carried, self._open = self._open, set()
        for connection in carried:
            _close(connection)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    @property
    def is_cut(self) -> bool:
        return self._cut

    def stop(self) -> None:
        self._closed = True
        self.cut()
        _close(self._listener)
        if self._thread.is_alive():
            self._thread.join(5)

    def _accept(self) -> None:
        while not self._closed:
            try:
                table, _address = self._listener.accept()
            except OSError:
                return
            if self._cut:
                _close(table)
                continue
            try:
                broker = socket.create_connection(self.target, timeout=UPSTREAM_TIMEOUT)
                broker.settimeout(None)
            except OSError:  # the broker is down: the table sees its connection end, as it would
                _close(table)
                continue
            with self._lock:
                if self._cut:
                    _close(table)
                    _close(broker)
                    continue
                self._open.update((table, broker))
                self.connections += 1
            for source, sink in ((table, broker), (broker, table)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(CHUNK):
                sink.sendall(chunk)
        except OSError:
            pass
        with self._lock:
            self._open.difference_update((source, sink))
        _close(source)
        _close(sink)


def _close(connection: socket.socket) -> None:
    with contextlib.suppress(OSError):
        connection.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        connection.close()
