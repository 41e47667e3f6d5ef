"""A progress bar for long commands (`companion bench ...`), on stderr so that --json output stays clean.

On a terminal the bar redraws in place at most a few times a second, with the share done and the time
left estimated from the pace so far; into a file or a pipe (a CI log) it writes a plain line at every
tenth instead, since carriage returns would pile up there.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR_WIDTH = 24
REDRAW_SECONDS = 0.25


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class Progress:
    """Work of a known size, done step by step; `label` says what is being done now."""

    def __init__(
        self, total: int, label: str = "", *, stream: TextIO | None = None, quiet: bool = False
    ) -> None:
        self.total = max(0, total)
        self.done = 0
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.live = not quiet and self.stream.isatty()
        self.started = time.monotonic()
        self._drawn_at = 0.0
        self._tenths_said = -1
        self._width = 0

    def expect(self, more: int) -> None:
        """More (or, negative, less) work than first counted: e.g. the frames of a recording, known only
        once it is made."""
        self.total = max(self.done, self.total + more)
        self._draw(force=False)

    def step(self, count: int = 1, label: str | None = None) -> None:
        self.done = min(self.total, self.done + count) if self.total else self.done + count
        if label is not None:
            self.label = label
        self._draw(force=False)

    def say(self, label: str) -> None:
        """A new stage: shown at once (a plain line into a log)."""
        self.label = label
        if self.live:
            self._draw(force=True)
        elif not self.quiet:
            print(f"{self.label} ({self.line()})", file=self.stream, flush=True)

    def line(self) -> str:
        share = self.done / self.total if self.total else 0.0
        filled = round(share * BAR_WIDTH)
        text = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {share * 100:3.0f} % ({self.done}/{self.total})"
        elapsed = time.monotonic() - self.started
        if 0 < self.done < self.total and elapsed > 1:
            text += f", about {_duration(elapsed / self.done * (self.total - self.done))} left"
        return text

    def close(self) -> None:
        if self.live and self._width:
            self._draw(force=True)
            print(file=self.stream, flush=True)

    def _draw(self, *, force: bool) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if self.live:
            if not force and now - self._drawn_at < REDRAW_SECONDS and self.done < self.total:
                return
            self._drawn_at = now
            text = f"{self.label} {self.line()}" if self.label else self.line()
            padding = " " * max(0, self._width - len(text))
            self._width = len(text)
            self.stream.write(f"\r{text}{padding}")
            self.stream.flush()
            return
        tenths = int(self.done * 10 / self.total) if self.total else 0
        if tenths > self._tenths_said:
            self._tenths_said = tenths
            if self.done:
                text = f"{self.label}: {self.line()}" if self.label else self.line()
                print(text, file=self.stream, flush=True)
