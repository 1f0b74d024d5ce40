"""Output piped into a reader that has already gone (`ropecheck audit-attention --list | head -1` when `head` exits
first): the command must not print a traceback. The pipe's read end is closed before the command writes, so the
write always fails — the race that `head` makes only sometimes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


@pytest.mark.parametrize("argv", [["audit-attention", "--list"], ["audit", "--list"]])
def test_a_closed_pipe_is_not_a_traceback(argv: list[str]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "ropecheck", *argv], stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr, done.stderr
    assert done.returncode == 0, (done.returncode, done.stderr)
