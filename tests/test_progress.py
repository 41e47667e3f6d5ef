"""The progress bar of long commands: redrawn in place on a terminal, a line per tenth into a log."""

from __future__ import annotations

import io

from companion.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_into_a_log_a_line_at_each_tenth_and_at_each_new_stage() -> None:
    log = io.StringIO()
    bar = Progress(0, "bench", stream=log)
    bar.expect(40)
    bar.say("squares: generating")
    for _ in range(40):
        bar.step()
    bar.close()
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("squares: generating (") and "0/40" in lines[0]
    assert [line.split("] ")[1].split(" %")[0].strip() for line in lines[1:]] == [
        str(tenth * 10) for tenth in range(1, 11)
    ]
    assert lines[-1].endswith("100 % (40/40)")
    assert "\r" not in log.getvalue()


def test_on_a_terminal_the_bar_is_redrawn_in_place_and_ends_with_a_new_line() -> None:
    screen = Terminal()
    bar = Progress(10, "reading", stream=screen)
    bar.step(5)
    bar.say("still reading")
    bar.step(5)
    bar.close()
    text = screen.getvalue()
    assert text.startswith("\rreading [") and text.endswith("\n")
    assert "\n" not in text[:-1], "one line, redrawn"
    assert text.rstrip().endswith("still reading [########################] 100 % (10/10)")


def test_work_found_later_grows_the_total_and_less_work_shrinks_it_to_what_is_done() -> None:
    bar = Progress(10, quiet=True)
    bar.step(4)
    bar.expect(10)
    assert (bar.done, bar.total) == (4, 20)
    bar.expect(-30)
    assert (bar.done, bar.total) == (4, 4)


def test_the_time_left_is_estimated_from_the_pace_so_far() -> None:
    bar = Progress(100, quiet=True)
    bar.started -= 10  # ten seconds for the first quarter
    bar.step(25)
    assert bar.line().endswith("about 30 s left")


def test_a_quiet_bar_writes_nothing() -> None:
    log = Terminal()
    bar = Progress(3, "x", stream=log, quiet=True)
    bar.say("y")
    bar.step(3)
    bar.close()
    assert log.getvalue() == ""
