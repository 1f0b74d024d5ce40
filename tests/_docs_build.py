"""One Sphinx build of the docs per test run, shared by `test_docs.py` and `test_docs_browser.py` — also across
pytest-xdist workers: the first process to take the lock on `docs/_build/.lock` builds, and records the result
under the run's ID (`PYTEST_XDIST_TESTRUNUID`, or this process's own ID without xdist); the others wait on the lock
(no wall-time limit: a slow machine is only slower) and read that record.

The build runs as the user runs it — `python -m sphinx -W --keep-going -E -b html docs docs/_build/html` — in a
subprocess with this interpreter, so a warning anywhere fails it.
"""

from __future__ import annotations

import fcntl
import functools
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BUILD = DOCS / "_build"
HTML = BUILD / "html"
SCREENSHOTS = BUILD / "screenshots"


@dataclass(frozen=True)
class DocsBuild:
    """The result of building the site: exit code, combined output, where the HTML is, and how long it took."""

    returncode: int
    output: str
    html: Path
    seconds: float


def sphinx_command(source: Path, out: Path, *extra: str) -> list[str]:
    """The command line that builds `source` into `out` with warnings as errors."""
    return [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-E",
        "-q",
        "-b",
        "html",
        *extra,
        str(source),
        str(out),
    ]


_RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
_RECORD = BUILD / "last-build.json"
_RUNNING: dict[str, object] = {}


def _build_or_wait() -> DocsBuild:
    """Build under the lock unless this run's build is already recorded; return the recorded result."""
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this process dies
        try:
            record = json.loads(_RECORD.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = {}
        if record.get("run") != _RUN_ID:
            started = time.perf_counter()
            with tempfile.TemporaryFile() as log:
                process = subprocess.Popen(
                    sphinx_command(DOCS, HTML, "-d", str(BUILD / "doctrees")), cwd=ROOT, stdout=log,
                    stderr=subprocess.STDOUT,
                )
                _RUNNING["process"] = process
                returncode = process.wait()
                log.seek(0)
                output = log.read().decode("utf-8", "replace")
            record = {"run": _RUN_ID, "returncode": returncode, "output": output,
                      "seconds": time.perf_counter() - started}
            if returncode >= 0:  # a build killed at the end of a session is not this run's result
                _RECORD.write_text(json.dumps(record), encoding="utf-8")
    return DocsBuild(returncode=record["returncode"], output=record["output"], html=HTML, seconds=record["seconds"])


def start_docs_build() -> None:
    """Start the build in the background (once per process), so it overlaps with other tests on the second core."""
    if "thread" in _RUNNING:
        return

    def run() -> None:
        try:
            _RUNNING["result"] = _build_or_wait()
        except BaseException as error:  # reported by build_docs in the test that needs the site
            _RUNNING["result"] = error

    thread = threading.Thread(target=run, daemon=True)
    _RUNNING["thread"] = thread
    thread.start()


def stop_docs_build() -> None:
    """End a background build nobody waited for (e.g. a run stopped early), so no process outlives pytest."""
    process = _RUNNING.get("process")
    if isinstance(process, subprocess.Popen) and process.poll() is None:
        process.kill()
        process.wait()


@functools.cache
def build_docs() -> DocsBuild:
    """The run's build (fresh environment, so every warning is emitted again), started if not yet running."""
    start_docs_build()
    thread = _RUNNING["thread"]
    assert isinstance(thread, threading.Thread)
    thread.join()
    result = _RUNNING["result"]
    if isinstance(result, BaseException):
        raise result
    assert isinstance(result, DocsBuild)
    return result
