"""Output piped into a reader that closes early (`ropecheck … | head -1`): what is left unwritten is dropped quietly,
and the exit code stays the command's (its verdict was decided before it printed)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["reader_may_close", "silence_stdout"]


def silence_stdout() -> None:
    """After the reader closed the pipe: point stdout at /dev/null so the interpreter's final flush is quiet."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    finally:
        os.close(devnull)


@contextlib.contextmanager
def reader_may_close() -> Iterator[None]:
    """Run the block's printing and flush it; if the reader has closed the pipe, stop writing without a traceback."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
