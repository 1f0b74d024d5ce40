"""Third-party noise while the audit imports and runs libraries, kept out of the report.

Loading a built-in adapter's library prints things that read as errors but are not the audit's: torchao's
`.so` load failures, torch deprecation notices, transformers' "RoPE scaling factor … does not match" (from the
audit's own second instance of a scaled module), Python warnings and `logging` records. `NoiseCapture` takes
them all while the audit computes — at the file-descriptor level (`os.dup2` of fds 1 and 2 onto a temporary
file), so C extensions' output is caught too, and with `warnings.catch_warnings(record=True)` — and
`summary()` is the one line the CLI prints on stderr after the report (`--verbose` prints them in full).
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import warnings
from types import TracebackType
from typing import IO, Any

__all__ = ["NoiseCapture"]

_FIRST_WIDTH = 100


class NoiseCapture:
    """A context manager that captures everything libraries print while it is active.

    **Arguments:**

    - `enabled`: False makes it a no-op (nothing captured, nothing summarised).
    - `status`: a line shown on a terminal's stderr while the capture is active (it replaces the progress bar,
      which would be captured too) and erased after; nothing when stderr is not a terminal.

    After the `with` block, `messages` lists the captured messages (one per non-blank output line and one per
    warning), in order of kind: output first, then warnings.
    """

    def __init__(self, enabled: bool = True, status: str | None = None) -> None:
        self.enabled = enabled
        self.status = status
        self._status_shown = False
        self.messages: list[str] = []
        self._file: IO[bytes] | None = None
        self._saved: dict[int, int] = {}
        self._warnings: Any = None
        self._records: list[warnings.WarningMessage] = []
        self._handler: _RecordingHandler | None = None

    def __enter__(self) -> NoiseCapture:
        if not self.enabled:
            return self
        _flush()
        if self.status and os.isatty(2):
            os.write(2, self.status.encode("utf-8", errors="replace"))
            self._status_shown = True
        self._file = tempfile.TemporaryFile()
        for fd in (1, 2):
            self._saved[fd] = os.dup(fd)
            os.dup2(self._file.fileno(), fd)
        self._warnings = warnings.catch_warnings(record=True)
        self._records = self._warnings.__enter__()
        # A record of the root logger's traffic as well: a logger with no handler of its own writes through
        # logging.lastResort, which the fd capture already takes; this keeps the records the root handles.
        self._handler = _RecordingHandler()
        logging.getLogger().addHandler(self._handler)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if not self.enabled or self._file is None:
            return
        _flush()
        logging.getLogger().removeHandler(self._handler)
        self._warnings.__exit__(kind, error, trace)
        for fd, saved in self._saved.items():
            os.dup2(saved, fd)
            os.close(saved)
        self._saved.clear()
        if self._status_shown:
            os.write(2, b"\r\x1b[K")  # erase the status line
            self._status_shown = False
        self._file.seek(0)
        text = self._file.read().decode("utf-8", errors="replace")
        self._file.close()
        self._file = None
        lines = [line.rstrip() for line in text.replace("\r", "\n").splitlines() if line.strip()]
        logged = [
            f"{name}: {message}" for name, message in self._handler.records
            if not any(message.splitlines()[0] in line for line in lines if message.strip())
        ]
        shown = [f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in self._records]
        self.messages = lines + logged + shown

    def summary(self) -> str | None:
        """The one line for stderr, or None when nothing was captured."""
        if not self.messages:
            return None
        count = len(self.messages)
        first = " ".join(self.messages[0].split())
        if len(first) > _FIRST_WIDTH:
            first = first[: _FIRST_WIDTH - 1] + "…"
        noun = "message" if count == 1 else "messages"
        return f"note: {count} {noun} from third-party libraries suppressed (first: {first}); --verbose shows them"

    def write_to(self, stream: IO[str], verbose: bool) -> None:
        """Print the summary line (or, with `verbose`, every message) on `stream`; nothing when none."""
        if not self.messages:
            return
        try:
            if verbose:
                stream.write(f"note: {len(self.messages)} messages from third-party libraries during the audit:\n")
                stream.writelines(f"  {message}\n" for message in self.messages)
            else:
                stream.write(f"{self.summary()}\n")
            stream.flush()
        except (BrokenPipeError, ValueError):  # stderr closed by the reader
            pass


class _RecordingHandler(logging.Handler):
    """Keeps the formatted messages of the records the root logger handles."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[tuple[str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format
            message = repr(record.msg)
        self.records.append((record.name, message or "(empty)"))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (ValueError, OSError):
            pass
