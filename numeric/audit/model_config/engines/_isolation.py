"""Engines run without a terminal: nothing they print reaches the report, and nothing they ask can be answered.

While an engine runs in this process, file descriptor 0 reads `/dev/null` (and `sys.stdin` is empty, so `input()`
ends at once: a "trust remote code? [y/N]" prompt gets no answer and is refused), and descriptors 1 and 2 (and
`sys.stdout`, `sys.stderr`) write into a discarded temporary file — so `audit-config --json` prints exactly one JSON
object whatever an engine or a library it imports prints, from Python or from C.

Claims served: ROPE-FREQUENCIES (the report is only what the audit found).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
from collections.abc import Iterator

__all__ = ["isolated_streams"]


def _duplicate(fd: int) -> int | None:
    try:
        return os.dup(fd)
    except OSError:  # the descriptor was closed by whoever started us: nothing to restore
        return None


@contextlib.contextmanager
def isolated_streams() -> Iterator[None]:
    """Run the body with stdin empty and stdout/stderr discarded, at the descriptor and at the Python level."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved = {fd: _duplicate(fd) for fd in (0, 1, 2)}
    with open(os.devnull, "rb") as empty, tempfile.TemporaryFile() as sink:
        os.dup2(empty.fileno(), 0)
        os.dup2(sink.fileno(), 1)
        os.dup2(sink.fileno(), 2)
        stdin = sys.stdin
        sys.stdin = io.StringIO("")
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                yield
        finally:
            sys.stdin = stdin
            for fd, copy in saved.items():
                if copy is None:
                    continue
                os.dup2(copy, fd)
                os.close(copy)
